// kibitz bench: fixed positions of a game (chess or gomoku, through the one engine contract)
// to a fixed depth, or (Go: the MCTS kernel) for a fixed number of playouts; the node total
// (Go: tree nodes) is a signature that changes only when the search does (checked in the
// tests), and nodes (playouts) per second a speed figure.
#include <fmt/format.h>

#include <memory>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "core/progress.hpp"
#include "engine/any_engine.hpp"
#include "engine/chess_engine.hpp"
#include "engine/go_engine.hpp"
#include "engine/gomoku_engine.hpp"
#include "games/go/playout_model.hpp"
#include "games/registry.hpp"

namespace kibitz::cli {

namespace {

// Depths of the default signatures (about the same few seconds for each game).
constexpr int kChessBenchDepth = 11;
constexpr int kGomokuBenchDepth = 8;
constexpr std::uint64_t kGoBenchPlayouts = 10000;

// The alpha-beta games' shared options: the plain baseline, techniques switched off.
Result<void> apply_search_options(engine::BenchRequest& a) {
  if (a.plain) a.options.search = search::SearchOptions::plain();
  for (const std::string& name : a.disable)
    if (!a.options.search.set(name, false)) {
      std::string known;
      for (auto n : search::SearchOptions::technique_names()) known += fmt::format(" {}", n);
      return fail("--disable: unknown technique '{}' (known:{})", name, known);
    }
  return {};
}

}  // namespace

int bench_go(const engine::BenchRequest& request) {
  auto a = request;
  if (a.pipeline || a.plain || !a.disable.empty() || !a.engine_options.empty() || !a.rule.empty())
    return report_error(
        "--pipeline, --plain, --disable, --option and --rule are for the alpha-beta games", 2);
  if (a.options.playouts == 0) a.options.playouts = kGoBenchPlayouts;
  if (a.go_playouts == "learned") go::PlayoutModel::set_active(&go::PlayoutModel::builtin());
  Progress progress("bench", engine::go_bench_positions().size());
  std::size_t done = 0;
  const auto report = engine::run_go_bench(a.options, [&](const engine::BenchPosition& p) {
    if (a.verbose)
      fmt::print("{:>2} {:<18} playouts {:>8} time {:>6} ms  {:>7} playouts/s  best {:<4} pv {}\n",
                 done + 1, p.position, p.nodes, p.time_ms,
                 p.time_ms > 0 ? p.nodes * 1000 / static_cast<std::uint64_t>(p.time_ms) : 0, p.best,
                 p.depth);
    progress.update(++done);
  });
  progress.finish();
  fmt::print("Total time (ms) : {}\n", report.time_ms);
  fmt::print("Playouts        : {}\n", report.nodes);
  fmt::print("Playouts/second : {}\n", report.nps());
  fmt::print("Tree nodes      : {}\n", report.signature);
  return 0;
}

namespace {

// The alpha-beta games' bench drives the engine through the one contract (as UCI and
// Gomocup do): the engine with the request's table, threads and techniques, each position
// from a cleared table.
int bench_alphabeta(engine::BenchRequest a, bool gomoku) {
  if (auto ok = apply_search_options(a); !ok) return report_error(ok.error().message, 2);
  if (a.pipeline && (!gomoku || a.options.movetime_ms <= 0))
    return report_error("--pipeline needs --game gomoku and --movetime", 2);
  if (gomoku && !a.engine_options.empty())
    return report_error("--option is for chess (gomoku: --disable, --pipeline, --rule)", 2);
  if (!gomoku && !a.rule.empty()) return report_error("--rule is for gomoku", 2);
  if (a.options.depth == 0) a.options.depth = gomoku ? kGomokuBenchDepth : kChessBenchDepth;
  std::unique_ptr<engine::AnyEngine> e;
  if (gomoku) {
    engine::GomokuOptions go;
    go.threats = a.pipeline && a.options.movetime_ms > 0;
    go.search = a.options.search;
    go.search.threads = a.options.threads;
    e = engine::make_gomoku_any_engine(go, a.options.hash_mb);
  } else {
    e = engine::make_chess_any_engine(a.plain);
    engine::OptionSettings settings = {{"Hash", std::to_string(a.options.hash_mb)},
                                       {"Threads", std::to_string(a.options.threads)}};
    // The engine starts from chess's own defaults (or the plain baseline); only what
    // --disable names changes.
    for (const std::string& name : a.disable) settings.emplace_back(name, "false");
    // A fixed time is the position's own: nothing kept back for a GUI's overhead.
    if (a.options.movetime_ms > 0) settings.emplace_back("Move Overhead", "0");
    for (const auto& word : a.engine_options) {
      auto kv = engine::parse_option_word(word);
      if (!kv) return report_error(kv.error().message, 2);
      settings.push_back(*kv);
    }
    if (auto ok = e->set_options(settings); !ok) return report_error(ok.error().message, 2);
  }

  engine::EngineLimits limits;
  if (a.options.movetime_ms > 0)
    limits.movetime_ms = a.options.movetime_ms;
  else
    limits.depth = a.options.depth;
  auto positions = gomoku ? engine::gomoku_bench_positions() : engine::chess_bench_fens();
  // Another gomoku rule: the same games, each read under it (the rule word leads the text).
  std::vector<std::string> ruled;
  if (!a.rule.empty()) {
    for (const auto p : positions) ruled.push_back(fmt::format("{} {}", a.rule, p));
    positions.assign(ruled.begin(), ruled.end());
    for (std::size_t i = 0; i < ruled.size(); ++i)
      if (!e->set_position(ruled[i]))
        return report_error(
            fmt::format("--rule {}: bench position {} is not a position under it", a.rule, i + 1),
            2);
  }
  Progress progress("bench", positions.size());
  std::size_t done = 0;
  const auto each = [&](const engine::BenchPosition& p) {
    if (a.verbose)
      fmt::print("{:>2} depth {:>2} nodes {:>10} time {:>6} ms best {:<6} {}\n", done + 1, p.depth,
                 p.nodes, p.time_ms, p.best, p.position);
    progress.update(++done);
  };
  const auto report = engine::run_engine_bench(*e, positions, limits, each);
  progress.finish();
  const auto& st = report.stats;
  fmt::print("Total time (ms) : {}\n", report.time_ms);
  fmt::print("Nodes searched  : {}\n", report.nodes);
  fmt::print("Nodes/second    : {}\n", report.nps());
  if (a.verbose) {
    int depth_sum = 0;
    for (const auto& p : report.positions) depth_sum += p.depth;
    fmt::print("Mean depth      : {:.2f}\n",
               static_cast<double>(depth_sum) / static_cast<double>(report.positions.size()));
    fmt::print("Median depth    : {}\n", report.median_depth());
    fmt::print("EBF             : {:.2f}\n", report.effective_branching_factor());
    fmt::print("First-move cuts : {:.1f}% of {} cut-offs\n",
               st.cutoffs ? 100.0 * static_cast<double>(st.first_move_cutoffs) /
                                static_cast<double>(st.cutoffs)
                          : 0.0,
               st.cutoffs);
    fmt::print(
        "Quiescence nodes: {:.1f}%\n",
        st.nodes ? 100.0 * static_cast<double>(st.qnodes) / static_cast<double>(st.nodes) : 0.0);
    fmt::print("TT hits         : {}\n", st.tt_hits);
    fmt::print("Null moves      : {} tried, {} cut\n", st.null_tries, st.null_cutoffs);
    fmt::print("LMR             : {} reduced, {} re-searched\n", st.lmr_reductions,
               st.lmr_researches);
  }
  return 0;
}

}  // namespace

int bench_chess(const engine::BenchRequest& request) { return bench_alphabeta(request, false); }
int bench_gomoku(const engine::BenchRequest& request) { return bench_alphabeta(request, true); }

Runner add_bench(CLI::App& root, const Registry& registry) {
  struct BenchArgs {
    engine::BenchRequest request;
    std::string game;
  };
  auto a = std::make_shared<BenchArgs>();
  auto* cmd = root.add_subcommand(
      "bench", "Search fixed positions; print the node-count signature and speed");
  a->request.options.depth = 0;
  std::vector<std::string> games;
  for (const auto& g : registry.games())
    if (g.bench) games.push_back(g.name);
  if (!games.empty()) a->game = games.front();
  std::string what;
  for (const auto& g : registry.games())
    if (g.bench && !g.bench_help.empty())
      what += fmt::format("{}{}: {}", what.empty() ? "" : "; ", g.name, g.bench_help);
  cmd->add_option(
         "--game,-g", a->game,
         fmt::format("the game: {} ({})",
                     registry.names([](const GameEntry& g) { return bool(g.bench); }), what))
      ->capture_default_str()
      ->check(CLI::IsMember(games));
  cmd->add_option("--depth,-d", a->request.options.depth,
                  fmt::format("iterations per position (default {} chess, {} gomoku)",
                              kChessBenchDepth, kGomokuBenchDepth))
      ->check(CLI::Range(1, 64));
  cmd->add_option("--playouts", a->request.options.playouts,
                  fmt::format("go: MCTS playouts per position (default {})", kGoBenchPlayouts))
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{100000000}));
  cmd->add_option("--go-playouts", a->request.go_playouts,
                  "go: playout policy, rules or learned (as `kibitz gtp --playouts`)")
      ->capture_default_str()
      ->check(CLI::IsMember({"rules", "learned"}));
  cmd->add_option("--movetime", a->request.options.movetime_ms,
                  "search each position this many ms instead of to --depth");
  cmd->add_option("--hash", a->request.options.hash_mb, "transposition table size in MB")
      ->capture_default_str()
      ->check(CLI::Range(1, 65536));
  cmd->add_option("--threads,-t", a->request.options.threads, "search threads (Lazy SMP)")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  cmd->add_option("--option", a->request.engine_options,
                  "chess: an engine option as NAME=VALUE (repeatable), e.g. EvalFile=net.nnue");
  std::string techniques;
  for (auto n : search::SearchOptions::technique_names()) techniques += fmt::format(" {}", n);
  cmd->add_option("--disable", a->request.disable, "switch techniques off (ablation):" + techniques)
      ->delimiter(',');
  cmd->add_option("--rule", a->request.rule,
                  "gomoku: read the positions under this rule: freestyle (default), exact5, renju")
      ->check(CLI::IsMember({"freestyle", "exact5", "renju"}));
  cmd->add_flag("--pipeline", a->request.pipeline,
                "gomoku with --movetime: the whole five-stage engine, not the alpha-beta alone");
  cmd->add_flag("--plain", a->request.plain,
                "the plain baseline: iterative deepening, TT, quiescence, nothing else");
  cmd->add_flag("--verbose,-v", a->request.verbose,
                "per-position lines and search statistics (EBF, first-move cut-off rate)");
  cmd->footer(
      "Examples:\n"
      "  kibitz bench\n"
      "  kibitz bench --depth 9 --disable null_move,lmr --verbose\n"
      "  kibitz bench --option EvalFile=kibitz.nnue   # the network's speed\n"
      "  kibitz bench --movetime 1000 --verbose\n"
      "  kibitz bench --game gomoku\n"
      "  kibitz bench --game gomoku --movetime 450 --verbose\n"
      "  kibitz bench --game gomoku --rule exact5 --depth 11   # exact five's node speed\n"
      "  kibitz bench --game go --verbose");
  return [a, &registry] {
    const GameEntry* g = registry.find(a->game);
    return g && g->bench ? g->bench(a->request)
                         : report_error(fmt::format("--game: {} has no bench", a->game), 2);
  };
}

}  // namespace kibitz::cli
