// kibitz gomocup (also run as `pbrain-kibitz`): the Gomocup protocol on stdin/stdout.
// kibitz gomoku play: a person against the engine in the terminal.
// kibitz gomoku puzzles: the threat search on a puzzle file (JSON lines), solve times.
// kibitz gomoku tune: fit the evaluation weights to game records (SGF from kibitz match, or
// the Gomocup referee's games log).
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "core/progress.hpp"
#include "engine/gomoku_engine.hpp"
#include "games/go/sgf.hpp"
#include "games/gomoku/eval_weights.hpp"
#include "games/gomoku/tune.hpp"
#include "protocol/gomocup/gomocup.hpp"

namespace kibitz::cli {

namespace {

struct EngineArgs {
  std::int64_t movetime = 0;
  std::size_t hash_mb = 64;
  bool no_threats = false;
  bool no_vct = false;
  std::vector<std::string> disable;
  std::string eval;    // a weights file (replaces the compiled-in weights)
  OptionArgs options;  // gomocup: --option, --option-file
};

// --eval FILE: its weights for the rule it names, or for every rule when it names "any".
Result<void> apply_eval_file(const std::string& path) {
  if (path.empty()) return {};
  auto w = gomoku::load_eval_weights(path);
  if (!w) return tl::unexpected(w.error());
  for (const auto r : {gomoku::Rule::kFreestyle, gomoku::Rule::kExactFive, gomoku::Rule::kRenju,
                       gomoku::Rule::kCapture})
    if (w->rule == "any" || w->rule == gomoku::rule_name(r)) gomoku::set_eval_weights(r, *w);
  return {};
}

void add_engine_options(CLI::App* cmd, EngineArgs& a) {
  cmd->add_option("--movetime", a.movetime, "milliseconds per move (default 450)");
  cmd->add_option("--hash", a.hash_mb, "transposition table, MB")->capture_default_str();
  cmd->add_flag("--no-threats", a.no_threats,
                "plain alpha-beta: no VCF / VCT / threat defence stages");
  cmd->add_flag("--no-vct", a.no_vct, "skip the VCT stage (and VCT defence)");
  cmd->add_option("--disable", a.disable, "switch off an alpha-beta technique (repeatable)");
  cmd->add_option("--eval", a.eval,
                  "evaluation weights file (JSON, as data/gomoku/eval-*.json) instead of the "
                  "compiled-in ones");
}

Result<engine::GomokuOptions> engine_options(const EngineArgs& a) {
  engine::GomokuOptions o;
  o.threats = !a.no_threats;
  o.vct = !a.no_vct;
  for (const auto& name : a.disable)
    if (!o.search.set(name, false)) return fail("--disable: unknown technique '{}'", name);
  if (auto applied = apply_eval_file(a.eval); !applied)
    return fail("--eval: {}", applied.error().message);
  return o;
}

int run_gomocup(const EngineArgs& a) {
  auto o = engine_options(a);
  if (!o) return report_error(o.error().message, 2);
  gomocup::SessionOptions so;
  so.movetime_ms = a.movetime;
  so.hash_mb = a.hash_mb;
  so.engine = *o;
  auto settings = option_settings(a.options);
  if (!settings) return report_error(settings.error().message, 2);
  gomocup::Session session(std::cin, std::cout, so);
  for (const auto& [name, value] : *settings)
    if (auto ok = session.set_option(name, value); !ok) return report_error(ok.error().message, 2);
  return session.run();
}

struct PlayArgs {
  EngineArgs engine;
  int size = 15;
  std::string rule = "freestyle";
  std::string colour = "black";
};

int run_play(const PlayArgs& a) {
  auto o = engine_options(a.engine);
  if (!o) return report_error(o.error().message, 2);
  auto rule = gomoku::parse_rule(a.rule);
  if (!rule) return report_error(rule.error().message, 2);
  if (a.size < 15 || a.size > gomoku::kMaxSize)
    return report_error(fmt::format("--size {}: 15 to {}", a.size, gomoku::kMaxSize), 2);
  if (a.colour != "black" && a.colour != "white")
    return report_error("--colour: black or white", 2);
  engine::GomokuEngine engine(a.engine.hash_mb);
  engine.set_options(*o);
  gomoku::Position pos(gomoku::Variant{a.size, *rule});
  const int human = a.colour == "black" ? 0 : 1;
  const engine::GomokuLimits limits{.movetime_ms = a.engine.movetime > 0 ? a.engine.movetime : 450};
  fmt::print("Gomoku ({}, {}x{}). You play {}. Moves as h8 or 7,7; 'quit' ends.\n",
             gomoku::rule_name(*rule), a.size, a.size, a.colour);
  std::string line;
  while (!pos.is_terminal()) {
    fmt::print("\n{}\n", pos.to_string());
    if (pos.current_player() == human) {
      fmt::print("your move> ");
      std::fflush(stdout);
      if (!std::getline(std::cin, line) || line == "quit") return 0;
      auto m = gomoku::parse_move(pos, line);
      if (!m) {
        fmt::print("{}\n", m.error().message);
        continue;
      }
      if (!pos.is_legal(*m)) {
        fmt::print("{} is forbidden under {}\n", gomoku::to_text(*m), gomoku::rule_name(*rule));
        continue;
      }
      pos.apply(*m);
    } else {
      const auto d = engine.think(pos, limits);
      fmt::print("kibitz plays {} ({}, depth {}, score {}, {} ms)\n", gomoku::to_text(d.move),
                 d.stage, d.depth, d.score, d.time_ms);
      pos.apply(d.move);
    }
  }
  fmt::print("\n{}\n", pos.to_string());
  const int w = pos.winner();
  fmt::print("{}\n", w < 0 ? "Draw." : w == human ? "You win." : "Kibitz wins.");
  return 0;
}

struct PuzzleArgs {
  std::string file;
  std::string rule = "native";
  std::string kind = "vcf";
  std::string solver = "id";
  int depth = 40;
  std::int64_t movetime = 10000;
  int limit = 0;
  bool verbose = false;
};

// One puzzle per line: {"size": 15, "native_rule": 4, "side_to_move": 1, "stones": [[x, y,
// colour], ...]} with colour 1 black, 2 white (the shared puzzle sets' format).
int run_puzzles(const PuzzleArgs& a) {
  std::ifstream in(a.file);
  if (!in) return report_error(fmt::format("cannot read '{}'", a.file));
  const auto kind = a.kind == "vct" ? search::ThreatKind::kVct : search::ThreatKind::kVcf;
  if (a.kind != "vcf" && a.kind != "vct") return report_error("--kind: vcf or vct", 2);
  if (a.solver != "id" && a.solver != "pn") return report_error("--solver: id or pn", 2);
  search::ThreatSearch<gomoku::Position> threats(20);
  search::ProofNumberSearch<gomoku::Position> pn_threats(20);
  std::vector<double> times;
  int solved = 0, total = 0, skipped = 0, line_no = 0;
  std::string line;
  Progress progress("puzzles", 0);
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty()) continue;
    if (a.limit && total >= a.limit) break;
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.contains("stones") || !j.contains("size"))
      return report_error(fmt::format("{}:{}: not a puzzle line", a.file, line_no));
    gomoku::Variant v;
    v.size = j.value("size", 15);
    if (a.rule == "native") {
      const int native = j.value("native_rule", 0);
      v.rule = native == 4   ? gomoku::Rule::kRenju
               : native == 1 ? gomoku::Rule::kExactFive
                             : gomoku::Rule::kFreestyle;
    } else {
      auto r = gomoku::parse_rule(a.rule);
      if (!r) return report_error(r.error().message, 2);
      v.rule = *r;
    }
    // Stones are given without order: place blacks and whites alternately, then fix the side
    // to move by the puzzle's own field.
    std::vector<std::pair<int, int>> black, white;
    for (const auto& s : j["stones"])
      (s[2].get<int>() == 1 ? black : white).emplace_back(s[0].get<int>(), s[1].get<int>());
    const int side = j.value("side_to_move", 1) == 1 ? 0 : 1;
    auto pos = gomoku::Position::from_setup(v, black, white, side);
    if (!pos) {
      ++skipped;
      if (a.verbose) fmt::print("{}: skipped: {}\n", j.value("id", "?"), pos.error().message);
      continue;
    }
    ++total;
    TimeBudget budget(a.movetime, a.movetime);
    threats.clear();
    pn_threats.clear();
    const auto t0 = std::chrono::steady_clock::now();
    const search::ThreatLimits limits{.max_depth = a.depth, .budget = &budget};
    const auto r =
        a.solver == "pn" ? pn_threats.solve(*pos, kind, limits) : threats.solve(*pos, kind, limits);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (r.win) {
      ++solved;
      times.push_back(ms);
    }
    if (a.verbose)
      fmt::print("{}: {} {} in {:.2f} ms, {} nodes\n", j.value("id", "?"),
                 r.win       ? "solved"
                 : r.aborted ? "timeout"
                             : "no win",
                 r.win ? gomoku::to_text(r.move) : "", ms, r.nodes);
    progress.update(static_cast<std::uint64_t>(total));
  }
  progress.finish();
  std::sort(times.begin(), times.end());
  const double median = times.empty() ? 0 : times[times.size() / 2];
  const double max = times.empty() ? 0 : times.back();
  fmt::print("{} puzzles, {} solved ({} skipped as unplayable under the rule)\n", total, solved,
             skipped);
  fmt::print("solve time: median {:.3f} ms, max {:.3f} ms\n", median, max);
  return 0;
}

struct TraceArgs {
  std::string file;
  std::string name = "kibitz";
  std::int64_t movetime = 300;
  int games = 0;
  bool all = false;
};

// The games a named engine lost, move by move, read with the proof-number VCT: after each of
// its moves, does the opponent (to move) win by continuous threats? At its first move after
// which the answer is yes, how many of the moves it could have played instead keep the opponent
// without one? Tells a loss made by the last move from one made earlier, while the threats were
// still too deep to prove in the time a move has.
int run_trace(const TraceArgs& a) {
  std::ifstream in(a.file);
  if (!in) return report_error(fmt::format("cannot read '{}'", a.file));
  search::ProofNumberSearch<gomoku::Position> pn(21);
  const auto vct = [&](const gomoku::Position& p, std::int64_t ms) {
    gomoku::Position q = p;
    TimeBudget budget(ms, ms);
    return pn.solve(q, search::ThreatKind::kVct, {.max_depth = 30, .budget = &budget});
  };
  int traced = 0, line_no = 0, with_safe = 0;
  std::vector<int> lead;  // plies from the first proven losing move to the end
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    if (a.games && traced >= a.games) break;
    auto g = gomoku::parse_games_log_line(line);
    if (!g) return report_error(fmt::format("{}:{}: {}", a.file, line_no, g.error().message), 2);
    const int seat = g->black == a.name ? 0 : g->white == a.name ? 1 : -1;
    const bool lost = (seat == 0 && g->result == "0-1") || (seat == 1 && g->result == "1-0");
    if (seat < 0 || (!lost && !a.all)) continue;
    ++traced;
    gomoku::Position pos({.size = g->size, .rule = gomoku::rule_from_gomocup_bits(g->rule_bits)});
    std::string marks;
    int first = -1;
    for (std::size_t k = 0; k < g->moves.size() && !pos.is_terminal(); ++k) {
      const auto [x, y] = g->moves[k];
      const gomoku::Move m{static_cast<std::uint16_t>(gomoku::square_of(x, y))};
      if (x < 0 || y < 0 || x >= g->size || y >= g->size || !pos.is_legal(m))
        return report_error(fmt::format("{}:{}: move {} is not legal", a.file, line_no, k + 1), 2);
      const bool ours =
          static_cast<int>(k) >= g->opening_plies && static_cast<int>(pos.side_to_move()) == seat;
      gomoku::Position after = pos;
      after.apply(m);
      if (ours && !after.is_terminal()) {
        const auto r = vct(after, a.movetime);
        marks += r.win ? 'L' : r.aborted ? '?' : '.';
        if (r.win && first < 0) {
          first = static_cast<int>(k);
          MoveList<gomoku::Position> candidates;
          pos.candidate_moves(candidates);
          int safe = 0, unknown = 0;
          for (const auto c : candidates) {
            gomoku::Position q = pos;
            q.apply(c);
            const auto rc = q.is_terminal() ? search::ThreatResult<gomoku::Position>{}
                                            : vct(q, std::max<std::int64_t>(1, a.movetime / 4));
            if (!rc.win) ++(rc.aborted ? unknown : safe);
          }
          if (safe > 0) ++with_safe;
          fmt::print(
              "game {} ply {}: {} played {}; of {} moves {} keep the opponent without a "
              "VCT, {} unknown\n",
              line_no, k + 1, a.name, gomoku::to_text(m), candidates.size(), safe, unknown);
        }
      }
      pos = after;
    }
    if (first >= 0) lead.push_back(static_cast<int>(g->moves.size()) - first);
    fmt::print("game {} ({} as {}, {}): {} plies, first proven loss {} | {}\n", line_no, a.name,
               seat == 0 ? "black" : "white", g->result, g->moves.size(),
               first < 0 ? std::string("none") : fmt::format("at ply {}", first + 1), marks);
  }
  std::sort(lead.begin(), lead.end());
  fmt::print(
      "{} games; a proven loss in {} of them, a median {} plies before the end; {} with a "
      "move that would have kept the opponent without a VCT\n",
      traced, lead.size(), lead.empty() ? 0 : lead[lead.size() / 2], with_safe);
  return 0;
}

// Labels are clamped to this (a mate score would only saturate the sigmoid further).
constexpr int kLabelCap = 9000;

struct TuneArgs {
  std::vector<std::string> files;
  std::string rule = "freestyle";
  std::string from;
  std::string out;
  int skip_plies = 6;
  gomoku::GomokuTuneOptions tune;
  double k = 0;
  std::vector<std::string> fit;         // groups of weights fitted (default: all)
  std::vector<std::string> validation;  // records only measured, never fitted
  int label_depth = 0;                  // > 0: each position labelled by a search this deep
  double label_weight = 0.5;            // the label's share of the target (with label_depth)
};

// One SGF game record (GM[4], as kibitz match --records writes). A record of another size or
// rule, or without a decided or drawn result, adds nothing; a malformed one is an error.
Result<std::size_t> add_record_samples(const go::SgfTree& tree, gomoku::Rule rule, int skip_plies,
                                       std::vector<gomoku::TuneSample>& out,
                                       const gomoku::SampleLabeler* label) {
  const auto line = tree.main_line();
  const go::SgfNode& root = tree.nodes[static_cast<std::size_t>(line.front())];
  const auto prop = [&](std::string_view id) -> std::string {
    const go::SgfProperty* p = root.find(id);
    return p && !p->values.empty() ? p->values.front() : std::string{};
  };
  if (prop("GM") != "4") return 0;
  int size = 15;
  if (const auto sz = prop("SZ"); !sz.empty()) size = std::atoi(sz.c_str());
  if (size < 15 || size > gomoku::kMaxSize) return fail("board size {}", prop("SZ"));
  const auto ru = prop("RU");
  if (!ru.empty() && ru != gomoku::rule_name(rule)) return 0;
  const std::string re = prop("RE");
  double black;  // black's result
  if (re.starts_with("B+"))
    black = 1;
  else if (re.starts_with("W+"))
    black = 0;
  else if (re == "0" || re == "Draw" || re == "1/2-1/2")
    black = 0.5;
  else
    return 0;
  std::vector<std::pair<int, int>> moves;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const go::SgfNode& node = tree.nodes[static_cast<std::size_t>(line[i])];
    for (const char* setup : {"AB", "AW", "AE"})
      if (node.find(setup)) return fail("setup stones ({}) are not read: moves only", setup);
    for (const char* colour : {"B", "W"}) {
      const go::SgfProperty* p = node.find(colour);
      if (!p || p->values.empty()) continue;
      const std::string& v = p->values.front();
      const int n = static_cast<int>(moves.size());
      if (v.size() != 2) return fail("move {}: '{}[{}]' is not a point", n + 1, colour, v);
      if ((n % 2 == 0) != (colour[0] == 'B'))
        return fail("move {}: '{}[{}]' is out of turn", n + 1, colour, v);
      moves.emplace_back(v[0] - 'a', v[1] - 'a');
    }
  }
  return gomoku::add_game_samples(size, rule, black, moves, skip_plies, out, label);
}

int run_tune(const TuneArgs& a) {
  const auto rule = gomoku::parse_rule(a.rule);
  if (!rule) return report_error(fmt::format("--rule: {}", rule.error().message), 2);
  if (*rule == gomoku::Rule::kCapture)
    return report_error("--rule capture: the capture variant's terms are not tuned", 2);
  gomoku::EvalWeights start = gomoku::builtin_eval_weights(*rule);
  if (!a.from.empty()) {
    auto w = gomoku::load_eval_weights(a.from);
    if (!w) return report_error(fmt::format("--from: {}", w.error().message), 2);
    start = *w;
  }
  // With --label-depth, the engine's alpha-beta at that depth labels every position (the
  // compiled-in or --from weights: they are what the search evaluates with). The table is
  // cleared for each, so a label depends on its position only, not on the order of the files.
  engine::AlphaBetaEngine<gomoku::Position> labeller(4);
  std::size_t labelled = 0;
  std::optional<Progress> label_progress;  // the number of positions is known only at the end
  if (a.label_depth > 0) {
    gomoku::set_eval_weights(*rule, start);  // positions built from now on
    label_progress.emplace("labelling", 0);
  }
  const gomoku::SampleLabeler label = [&](const gomoku::Position& pos) {
    labeller.new_game();
    engine::GoParams params;
    params.limits.depth = a.label_depth;
    const auto r = labeller.search(pos, params);
    label_progress->update(++labelled);
    // A proven win or loss is the evaluation's extreme: sigmoid makes it a certainty either way.
    return static_cast<double>(std::clamp<int>(r.score, -kLabelCap, kLabelCap));
  };
  const gomoku::SampleLabeler* labels = a.label_depth > 0 ? &label : nullptr;
  // A games log of the shared referee (JSON lines) or SGF records; the error names the file.
  const auto read = [&](const std::string& path, std::vector<gomoku::TuneSample>& out,
                        std::size_t& games) -> Result<void> {
    std::ifstream f(path, std::ios::binary);
    if (!f) return fail("cannot read '{}'", path);
    const std::string text{std::istreambuf_iterator<char>(f), {}};
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && text[first] == '{') {
      auto n = gomoku::read_games_log(text, *rule, a.skip_plies, out, games, labels);
      if (!n) return fail("{}: {}", path, n.error().message);
      return {};
    }
    auto trees = go::parse_sgf(text);
    if (!trees) return fail("{}: {}", path, trees.error().message);
    for (std::size_t g = 0; g < trees->size(); ++g) {
      auto n = add_record_samples((*trees)[g], *rule, a.skip_plies, out, labels);
      if (!n) return fail("{}: game {}: {}", path, g + 1, n.error().message);
      if (*n > 0) ++games;
    }
    return {};
  };
  std::vector<gomoku::TuneSample> data, held_out;
  std::size_t games = 0, held_out_games = 0;
  for (const auto& path : a.files)
    if (auto ok = read(path, data, games); !ok) return report_error(ok.error().message, 2);
  for (const auto& path : a.validation)
    if (auto ok = read(path, held_out, held_out_games); !ok)
      return report_error(ok.error().message, 2);
  if (data.empty()) return report_error("no quiet positions with a result in the records", 2);
  if (label_progress) label_progress->finish();
  fmt::print(stderr, "{} positions from {} games\n", data.size(), games);
  gomoku::GomokuTuneOptions opts = a.tune;
  if (a.k > 0) opts.k = a.k;
  if (a.label_depth > 0) opts.label_weight = a.label_weight;
  if (!a.fit.empty()) {
    opts.fit_pattern = opts.fit_combination = opts.fit_to_move = opts.fit_shape = false;
    for (const auto& g : a.fit)
      (g == "pattern"       ? opts.fit_pattern
       : g == "combination" ? opts.fit_combination
       : g == "shape"       ? opts.fit_shape
                            : opts.fit_to_move) = true;
  }
  const auto r = gomoku::tune(data, start, opts, [](int epoch, double e) {
    fmt::print(stderr, "epoch {:>5} error {:.6f}\n", epoch, e);
  });
  gomoku::EvalWeights w = r.weights;
  w.rule = gomoku::rule_name(*rule);
  w.made_by = fmt::format(
      "kibitz gomoku tune: Texel fit (K {:.4f}, {} epochs) on {} quiet positions from {} games "
      "({}){}, squared error {:.6f} -> {:.6f}{}{}",
      r.k, opts.epochs, data.size(), games, fmt::join(a.files, ", "),
      a.label_depth > 0 ? fmt::format("; target {} x result + {} x a depth-{} search's score",
                                      1 - a.label_weight, a.label_weight, a.label_depth)
                        : std::string{},
      r.initial_error, r.final_error,
      opts.shape_l2 > 0 ? fmt::format(", shape L2 {}", opts.shape_l2) : std::string{},
      a.fit.empty() ? std::string{}
                    : fmt::format("; fitted {}, the rest as started", fmt::join(a.fit, ", ")));
  const std::string text = gomoku::format_eval_weights(w);
  if (!a.out.empty()) {
    std::ofstream f(a.out, std::ios::binary | std::ios::trunc);
    if (!(f << text) || !f.flush()) return report_error(fmt::format("cannot write '{}'", a.out), 1);
    fmt::print("wrote {}\n", a.out);
  } else {
    fmt::print("{}", text);
  }
  fmt::print(stderr, "positions {} K {:.4f} error {:.6f} -> {:.6f}\n", data.size(), r.k,
             r.initial_error, r.final_error);
  if (!held_out.empty()) {
    fmt::print(stderr, "validation: positions {} from {} games, error {:.6f} -> {:.6f}\n",
               held_out.size(), held_out_games,
               gomoku::tune_error(held_out, start, r.k, opts.label_weight),
               gomoku::tune_error(held_out, r.weights, r.k, opts.label_weight));
    if (opts.label_weight > 0)  // the fits of different weights compare on the results alone
      fmt::print(stderr, "validation against the results alone: error {:.6f} -> {:.6f}\n",
                 gomoku::tune_error(held_out, start, r.k),
                 gomoku::tune_error(held_out, r.weights, r.k));
  }
  return 0;
}

}  // namespace

Runner add_gomocup(CLI::App& root) {
  auto a = std::make_shared<EngineArgs>();
  auto* cmd = root.add_subcommand(
      "gomocup", "Gomoku engine speaking the Gomocup (piskvork) protocol on stdin/stdout");
  add_engine_options(cmd, *a);
  add_option_flags(cmd, a->options);
  cmd->footer(
      "Commands: START, RECTSTART, RESTART, BEGIN, TURN, BOARD..DONE, INFO, TAKEBACK, ABOUT, "
      "END.\nRules by INFO rule: 1 exact five, 4 renju; 16 (or INFO capture 1) the capture "
      "variant.\nThe same program runs this command when started as 'pbrain-kibitz'.");
  return [a] { return run_gomocup(*a); };
}

Runner add_gomoku(CLI::App& root) {
  auto* cmd = root.add_subcommand("gomoku", "Gomoku: play against the engine, solve puzzles, tune");
  cmd->require_subcommand(1);
  auto play = std::make_shared<PlayArgs>();
  auto* p = cmd->add_subcommand("play", "play against the engine in the terminal");
  add_engine_options(p, play->engine);
  p->add_option("--size", play->size, "board size 15..20")->capture_default_str();
  p->add_option("--rule", play->rule, "freestyle, exact5, renju, capture")->capture_default_str();
  p->add_option("--colour,--color", play->colour, "your colour: black (moves first) or white")
      ->capture_default_str();
  auto puzzles = std::make_shared<PuzzleArgs>();
  auto* z = cmd->add_subcommand("puzzles", "run VCF / VCT on a puzzle file (JSON lines)");
  z->add_option("file", puzzles->file, "puzzle file")->required();
  z->add_option("--rule", puzzles->rule, "native (the file's), freestyle, exact5, renju")
      ->capture_default_str();
  z->add_option("--kind", puzzles->kind, "vcf or vct")->capture_default_str();
  z->add_option("--depth", puzzles->depth, "attacker moves")->capture_default_str();
  z->add_option("--solver", puzzles->solver, "id (iterative deepening) or pn (proof-number search)")
      ->capture_default_str();
  z->add_option("--movetime", puzzles->movetime, "ms per puzzle")->capture_default_str();
  z->add_option("--limit", puzzles->limit, "first N puzzles only");
  z->add_flag("--verbose,-v", puzzles->verbose, "a line per puzzle");
  auto trace = std::make_shared<TraceArgs>();
  auto* r = cmd->add_subcommand(
      "trace", "the games an engine lost, read with the VCT after each of its moves");
  r->add_option("games", trace->file, "a games log of the shared referee")->required();
  r->add_option("--name", trace->name, "the engine's name in the log")->capture_default_str();
  r->add_option("--movetime", trace->movetime, "ms for each VCT")->capture_default_str();
  r->add_option("--games", trace->games, "the first N games traced only");
  r->add_flag("--all", trace->all, "every game of the engine, not only its losses");
  auto tune = std::make_shared<TuneArgs>();
  auto* t = cmd->add_subcommand(
      "tune",
      "fit the evaluation weights to game records (Texel tuning; SGF from kibitz match or the "
      "Gomocup referee's games log)");
  t->add_option("records", tune->files,
                "game records: SGF (GM[4], kibitz match --records) or the Gomocup referee's "
                "games log (JSON lines)")
      ->required();
  t->add_option("--rule", tune->rule, "freestyle, exact5, renju: the games used and the weights")
      ->capture_default_str();
  t->add_option("--from", tune->from, "starting weights file (default: the compiled-in ones)");
  t->add_option("--out", tune->out, "write the weights file here (default: standard output)");
  t->add_option("--skip-plies", tune->skip_plies, "opening plies not sampled")
      ->capture_default_str()
      ->check(CLI::Range(0, 400));
  t->add_option("--epochs", tune->tune.epochs, "Adam epochs")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  t->add_option("--rate", tune->tune.learning_rate, "Adam step, evaluation units per epoch")
      ->capture_default_str()
      ->check(CLI::Range(1e-6, 1000.0));
  t->add_option("--k", tune->k, "sigmoid scale (default: fitted to the starting weights)")
      ->check(CLI::Range(1e-6, 1000.0));
  t->add_option("--fit", tune->fit,
                "the groups of weights fitted, the others kept: pattern, combination, to_move, "
                "shape (default: all)")
      ->delimiter(',')
      ->check(CLI::IsMember({"pattern", "combination", "to_move", "shape"}));
  t->add_option("--shape-l2", tune->tune.shape_l2,
                "ridge penalty on the shape weights: the error plus this times the sum of their "
                "squares / 1e6")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1e6));
  t->add_option("--validation", tune->validation,
                "records held out: their error before and after the fit is reported, they are "
                "never fitted");
  t->add_option("--label-depth", tune->label_depth,
                "label every position with the alpha-beta's score at this depth (slow: about "
                "40 ms a position at 6) and fit to a blend of it and the result")
      ->check(CLI::Range(1, 30));
  t->add_option("--label-weight", tune->label_weight,
                "with --label-depth: the score's share of the target, the result's the rest")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  t->footer(
      "Examples:\n  kibitz match --game gomoku --engine bot=pipeline --engine bot=pipeline "
      "--movetime 40 --games 600 --records selfplay.sgf\n  kibitz gomoku tune selfplay.sgf "
      "--out w.json\n  python3 ../shared/tools/gomoku/gomocup_match.py ... --games-log "
      "games.txt\n  kibitz gomoku tune games.txt --out data/gomoku/eval-freestyle.json");
  return [cmd, p, z, t, r, play, puzzles, tune, trace] {
    if (cmd->got_subcommand(p)) return run_play(*play);
    if (cmd->got_subcommand(t)) return run_tune(*tune);
    if (cmd->got_subcommand(r)) return run_trace(*trace);
    return run_puzzles(*puzzles);
  };
}

}  // namespace kibitz::cli
