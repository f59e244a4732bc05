// kibitz go train-patterns / eval-patterns: fitting the move-prediction model to game records
// and measuring how well a model predicts the moves of other records (pattern_train.hpp).
#include <fmt/format.h>

#include <unistd.h>
#include <cstdio>
#include <fstream>
#include <memory>

#include "cli/commands.hpp"
#include "games/go/pattern_train.hpp"

namespace kibitz::cli {

namespace {

struct TrainArgs {
  go::PatternTrainOptions o;
  std::vector<std::string> test;
  int test_games = 0;
  int test_stride = 1;
  std::string out;
  bool no_progress = false;
};

// The command that makes the same file (file names as given).
std::string command_line(const TrainArgs& a) {
  std::string s = "kibitz go train-patterns";
  for (const auto& in : a.o.inputs) s += " " + in;
  s += fmt::format(" --games {} --stride {} --min-count {} --iterations {} --prior {}",
                   a.o.max_games, a.o.stride, a.o.min_count, a.o.iterations, a.o.prior);
  if (!a.test.empty()) {
    s += " --test";
    for (const auto& in : a.test) s += " " + in;
    s += fmt::format(" --test-games {} --test-stride {}", a.test_games, a.test_stride);
  }
  return s + " --out " + a.out;
}

struct EvalArgs {
  go::PatternTrainOptions o;
  std::string weights;
  bool no_progress = false;
};

void print_prediction(const char* label, const go::PredictionStats& s) {
  fmt::print(
      "{}: games {} positions {} top1 {:.1f}% top5 {:.1f}% top10 {:.1f}% log_likelihood {:.4f} "
      "moves_scored_per_s {:.0f}\n",
      label, s.games, s.positions, s.percent(s.top1), s.percent(s.top5), s.percent(s.top10),
      s.mean_log_likelihood, s.candidates_per_second());
}

Result<void> check_selection(const go::PatternTrainOptions& o) {
  if (o.max_games < 0) return fail("--games: 0 (all) or more");
  if (o.stride < 1) return fail("--stride: at least 1");
  return {};
}

// The selection and the fitting options of both trainers.
Result<void> check_fit(const go::PatternTrainOptions& o) {
  if (auto ok = check_selection(o); !ok) return ok;
  if (o.min_count < 1) return fail("--min-count: at least 1");
  if (o.iterations < 1 || o.iterations > 1000) return fail("--iterations: 1 to 1000");
  if (!(o.prior >= 0 && o.prior <= 1000)) return fail("--prior: 0 to 1000");
  return {};
}

int write_weights(const std::string& json, const std::string& path) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << json;
  f.close();
  if (!f) return report_error(fmt::format("cannot write '{}'", path));
  fmt::print("wrote {}\n", path);
  return 0;
}

int run_train(TrainArgs& a) {
  if (auto ok = check_fit(a.o); !ok) return report_error(ok.error().message, 2);
  if (a.test_games < 0 || a.test_stride < 1)
    return report_error("--test-games: 0 or more, --test-stride: at least 1", 2);
  a.o.progress = !a.no_progress && isatty(2);
  go::PatternTrainStats st;
  auto model = go::train_pattern_model(a.o, st);
  if (!model) return report_error(model.error().message);
  int patterns = 0;
  for (const int n : st.patterns_by_size) patterns += n;
  fmt::print(
      "train: games {} bad_records {} positions {} moves {} patterns {} ({}) "
      "log_likelihood {:.4f} -> {:.4f} seconds {:.0f}\n",
      st.games, st.bad_records, st.positions, st.candidates, patterns,
      fmt::join(st.patterns_by_size, "/"), st.log_likelihood.front(), st.log_likelihood.back(),
      st.seconds);
  std::string held_out;
  if (!a.test.empty()) {
    go::PatternTrainOptions t;
    t.inputs = a.test;
    t.max_games = a.test_games;
    t.stride = a.test_stride;
    t.progress = a.o.progress;
    auto s = go::measure_pattern_model(*model, t);
    if (!s) return report_error(s.error().message);
    print_prediction("test", *s);
    held_out = fmt::format("; held out: {} games, {} positions, top-1 {:.1f}%, top-5 {:.1f}%",
                           s->games, s->positions, s->percent(s->top1), s->percent(s->top5));
  }
  model->made_by = fmt::format(
      "{} (kibitz {}): {} games, {} positions, {} patterns played at least {} times, {} MM "
      "iterations, prior {}{}",
      command_line(a), KIBITZ_VERSION, st.games, st.positions, patterns, a.o.min_count,
      a.o.iterations, a.o.prior, held_out);
  return write_weights(model->to_json(), a.out);
}

int run_eval(EvalArgs& a) {
  if (auto ok = check_selection(a.o); !ok) return report_error(ok.error().message, 2);
  a.o.progress = !a.no_progress && isatty(2);
  go::PatternModel loaded;
  const go::PatternModel* model = &go::PatternModel::builtin();
  if (!a.weights.empty()) {
    auto m = go::PatternModel::load(a.weights);
    if (!m) return report_error(m.error().message, 2);
    loaded = std::move(*m);
    model = &loaded;
  }
  auto s = go::measure_pattern_model(*model, a.o);
  if (!s) return report_error(s.error().message);
  print_prediction("eval", *s);
  return 0;
}

struct PlayoutArgs {
  go::PatternTrainOptions o;
  std::string out;
  bool no_progress = false;
};

int run_train_playout(PlayoutArgs& a) {
  if (auto ok = check_fit(a.o); !ok) return report_error(ok.error().message, 2);
  a.o.progress = !a.no_progress && isatty(2);
  go::PlayoutTrainStats st;
  auto model = go::train_playout_model(a.o, st);
  if (!model) return report_error(model.error().message);
  const double local = st.positions ? 100.0 * st.local / st.positions : 0;
  fmt::print(
      "train: games {} bad_records {} positions {} points {} local {:.1f}% patterns {} "
      "log_likelihood {:.4f} -> {:.4f} tenuki {:.3g} diagonal {:.3g} seconds {:.0f}\n",
      st.games, st.bad_records, st.positions, st.candidates, local, st.patterns,
      st.log_likelihood.front(), st.log_likelihood.back(), model->tenuki(), model->diagonal(),
      st.seconds);
  std::string cmd = "kibitz go train-playout";
  for (const auto& in : a.o.inputs) cmd += " " + in;
  cmd += fmt::format(" --games {} --stride {} --min-count {} --iterations {} --prior {} --out {}",
                     a.o.max_games, a.o.stride, a.o.min_count, a.o.iterations, a.o.prior, a.out);
  model->made_by = fmt::format(
      "{} (kibitz {}): {} games, {} positions after a move on the board, {} local points, the "
      "move played local in {:.1f}%; {} codes seen at least {} times; {} MM iterations, prior {}; "
      "log-likelihood {:.4f} -> {:.4f}",
      cmd, KIBITZ_VERSION, st.games, st.positions, st.candidates, local, st.patterns, a.o.min_count,
      a.o.iterations, a.o.prior, st.log_likelihood.front(), st.log_likelihood.back());
  return write_weights(model->to_json(), a.out);
}

void add_selection(CLI::App* c, go::PatternTrainOptions& o) {
  c->add_option("inputs", o.inputs, "SGF files, directories or archives (.tar.gz)")->required();
  c->add_option("--games", o.max_games, "games to use (0: all)")->capture_default_str();
  c->add_option("--stride", o.stride, "use every n-th record")->capture_default_str();
}

}  // namespace

Runner add_go_patterns(CLI::App& go_cmd) {
  auto ta = std::make_shared<TrainArgs>();
  auto* t = go_cmd.add_subcommand(
      "train-patterns",
      "fit the move-prediction model (shape patterns and tactical features, Bradley-Terry by "
      "MM) to game records and write its weights file");
  add_selection(t, ta->o);
  t->add_option("--out", ta->out, "weights file to write (data/go/patterns.json)")->required();
  t->add_option("--min-count", ta->o.min_count, "keep patterns played at least this often")
      ->capture_default_str();
  t->add_option("--iterations", ta->o.iterations, "MM iterations")->capture_default_str();
  t->add_option("--prior", ta->o.prior, "virtual wins and losses of every gamma")
      ->capture_default_str();
  t->add_option("--test", ta->test, "held-out records: top-1 / top-5 prediction after training");
  t->add_option("--test-games", ta->test_games, "held-out games (0: all)")->capture_default_str();
  t->add_option("--test-stride", ta->test_stride, "use every n-th held-out record")
      ->capture_default_str();
  t->add_flag("--no-progress", ta->no_progress, "never draw the progress line");

  auto pa = std::make_shared<PlayoutArgs>();
  auto* pl = go_cmd.add_subcommand(
      "train-playout",
      "fit the playout patterns (3x3 shapes with atari bits around the last move, "
      "Bradley-Terry by MM) to game records and write their weights file");
  add_selection(pl, pa->o);
  pa->o.min_count = 20;
  pa->o.iterations = 30;
  pl->add_option("--out", pa->out, "weights file to write (data/go/playout_patterns.json)")
      ->required();
  pl->add_option("--min-count", pa->o.min_count, "keep codes seen at least this often")
      ->capture_default_str();
  pl->add_option("--iterations", pa->o.iterations, "MM iterations")->capture_default_str();
  pl->add_option("--prior", pa->o.prior, "virtual wins and losses of every gamma")
      ->capture_default_str();
  pl->add_flag("--no-progress", pa->no_progress, "never draw the progress line");

  auto ea = std::make_shared<EvalArgs>();
  auto* e = go_cmd.add_subcommand(
      "eval-patterns",
      "how often a move-prediction model ranks the move played first / in its top 5");
  add_selection(e, ea->o);
  e->add_option("--weights", ea->weights, "weights file (default: the built-in one)");
  e->add_flag("--no-progress", ea->no_progress, "never draw the progress line");

  return [t, e, pl, ta, ea, pa]() -> int {
    if (t->parsed()) return run_train(*ta);
    if (pl->parsed()) return run_train_playout(*pa);
    if (e->parsed()) return run_eval(*ea);
    return -1;
  };
}

}  // namespace kibitz::cli
