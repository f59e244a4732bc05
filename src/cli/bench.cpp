// kibitz bench: fixed positions of a game (chess or gomoku) to a fixed depth, or (Go) for a
// fixed number of MCTS playouts; the node total (Go: tree nodes) is a signature that changes
// only when the search does (checked in the tests), and nodes (playouts) per second a speed
// figure.
#include <fmt/format.h>

#include <memory>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "core/progress.hpp"
#include "engine/chess_engine.hpp"
#include "engine/go_engine.hpp"
#include "engine/gomoku_engine.hpp"
#include "games/go/playout_model.hpp"

namespace kibitz::cli {

namespace {

// Depths of the default signatures (about the same few seconds for each game).
constexpr int kChessBenchDepth = 11;
constexpr int kGomokuBenchDepth = 8;
constexpr std::uint64_t kGoBenchPlayouts = 10000;

struct BenchArgs {
  engine::BenchOptions options;
  std::string game = "chess";
  bool pipeline = false;
  std::vector<std::string> disable;
  bool plain = false;
  bool verbose = false;
  std::string go_playouts = "rules";
};

int run_go(BenchArgs& a) {
  if (a.pipeline || a.plain || !a.disable.empty())
    return report_error("--pipeline, --plain and --disable are for the alpha-beta games", 2);
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

int run_bench(BenchArgs& a) {
  if (a.plain) a.options.search = search::SearchOptions::plain();
  for (const std::string& name : a.disable)
    if (!a.options.search.set(name, false)) {
      std::string known;
      for (auto n : search::SearchOptions::technique_names()) known += fmt::format(" {}", n);
      return report_error(fmt::format("--disable: unknown technique '{}' (known:{})", name, known),
                          2);
    }
  const bool gomoku = a.game == "gomoku";
  if (a.game == "go") return run_go(a);
  if (a.pipeline && (!gomoku || a.options.movetime_ms <= 0))
    return report_error("--pipeline needs --game gomoku and --movetime", 2);
  if (a.options.depth == 0) a.options.depth = gomoku ? kGomokuBenchDepth : kChessBenchDepth;
  Progress progress("bench", gomoku ? engine::gomoku_bench_positions().size()
                                    : engine::chess_bench_fens().size());
  std::size_t done = 0;
  const auto each = [&](const engine::BenchPosition& p) {
    if (a.verbose)
      fmt::print("{:>2} depth {:>2} nodes {:>10} time {:>6} ms best {:<6} {}\n", done + 1, p.depth,
                 p.nodes, p.time_ms, p.best, p.position);
    progress.update(++done);
  };
  const auto report = gomoku ? engine::run_gomoku_bench(a.options, a.pipeline, each)
                             : engine::run_chess_bench(a.options, each);
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

Runner add_bench(CLI::App& root) {
  auto a = std::make_shared<BenchArgs>();
  auto* cmd = root.add_subcommand(
      "bench", "Search fixed positions; print the node-count signature and speed");
  a->options.depth = 0;
  cmd->add_option("--game,-g", a->game,
                  "chess, gomoku (freestyle 15x15 middle games) or go (MCTS: 9x9 and 19x19, "
                  "empty and middle game)")
      ->capture_default_str()
      ->check(CLI::IsMember({"chess", "gomoku", "go"}));
  cmd->add_option("--depth,-d", a->options.depth,
                  fmt::format("iterations per position (default {} chess, {} gomoku)",
                              kChessBenchDepth, kGomokuBenchDepth))
      ->check(CLI::Range(1, 64));
  cmd->add_option("--playouts", a->options.playouts,
                  fmt::format("go: MCTS playouts per position (default {})", kGoBenchPlayouts))
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{100000000}));
  cmd->add_option("--go-playouts", a->go_playouts,
                  "go: playout policy, rules or learned (as `kibitz gtp --playouts`)")
      ->capture_default_str()
      ->check(CLI::IsMember({"rules", "learned"}));
  cmd->add_option("--movetime", a->options.movetime_ms,
                  "search each position this many ms instead of to --depth");
  cmd->add_option("--hash", a->options.hash_mb, "transposition table size in MB")
      ->capture_default_str()
      ->check(CLI::Range(1, 65536));
  cmd->add_option("--threads,-t", a->options.threads, "search threads (Lazy SMP)")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  cmd->add_option(
         "--disable", a->disable,
         "switch techniques off (ablation): tt_cutoffs tt_move mvv_lva killers history "
         "see pvs aspiration null_move lmr reverse_futility late_move_pruning iir check_extension "
         "quiescence")
      ->delimiter(',');
  cmd->add_flag("--pipeline", a->pipeline,
                "gomoku with --movetime: the whole five-stage engine, not the alpha-beta alone");
  cmd->add_flag("--plain", a->plain,
                "the plain baseline: iterative deepening, TT, quiescence, nothing else");
  cmd->add_flag("--verbose,-v", a->verbose,
                "per-position lines and search statistics (EBF, first-move cut-off rate)");
  cmd->footer(
      "Examples:\n"
      "  kibitz bench\n"
      "  kibitz bench --depth 9 --disable null_move,lmr --verbose\n"
      "  kibitz bench --movetime 1000 --verbose\n"
      "  kibitz bench --game gomoku\n"
      "  kibitz bench --game gomoku --movetime 450 --verbose\n"
      "  kibitz bench --game go --verbose");
  return [a] { return run_bench(*a); };
}

}  // namespace kibitz::cli
