// kibitz gtp: the Go engine speaking GTP v2 (with Leela Zero's lz-analyze) on stdin/stdout,
// for GUIs such as Sabaki, Lizzie, GoGui and for KGS / OGS bridges.
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "games/go/board.hpp"
#include "protocol/gtp/gtp.hpp"

namespace kibitz::cli {

namespace {

struct GtpArgs {
  std::uint64_t visits = 0;
  std::int64_t movetime = 0;
  int threads = 1;
  std::uint64_t seed = 0x4D435453ull;
  double komi = 7.5;
  int size = 19;
  bool no_resign = false;
};

int run_gtp(const GtpArgs& a) {
  if (a.size < go::kMinSize || a.size > go::kMaxSize)
    return report_error(fmt::format("--size {}: {} to {}", a.size, go::kMinSize, go::kMaxSize), 2);
  if (a.threads < 1 || a.threads > 256) return report_error("--threads: 1 to 256", 2);
  if (a.movetime < 0) return report_error("--movetime: not negative", 2);
  gtp::SessionOptions o;
  o.visits = a.visits;
  o.movetime_ms = a.movetime;
  o.size = a.size;
  o.komi = a.komi;
  o.engine.threads = a.threads;
  o.engine.seed = a.seed;
  o.engine.resign = !a.no_resign;
  gtp::Session session(std::cin, std::cout, o);
  return session.run();
}

}  // namespace

Runner add_gtp(CLI::App& root) {
  auto a = std::make_shared<GtpArgs>();
  auto* cmd = root.add_subcommand("gtp", "Go engine speaking GTP v2 on stdin/stdout");
  cmd->add_option("--visits", a->visits, "root visits per move (0: no limit)");
  cmd->add_option("--movetime", a->movetime,
                  "milliseconds per move (default: from time_settings / time_left, else 1000)");
  cmd->add_option("--threads", a->threads, "search threads")->capture_default_str();
  cmd->add_option("--seed", a->seed, "random seed")->capture_default_str();
  cmd->add_option("--komi", a->komi, "komi until the controller sets one")->capture_default_str();
  cmd->add_option("--size", a->size, "board size until boardsize (5..19)")->capture_default_str();
  cmd->add_flag("--no-resign", a->no_resign, "never resign");
  cmd->footer(
      "Commands: protocol_version name version known_command list_commands quit boardsize\n"
      "clear_board komi play genmove undo showboard final_score final_status_list\n"
      "fixed_handicap place_free_handicap set_free_handicap time_settings time_left loadsgf\n"
      "kgs-genmove_cleanup lz-analyze.\nScoring: Tromp-Taylor area (no dead-stone removal; "
      "final_status_list reports every stone alive).");
  return [a] { return run_gtp(*a); };
}

}  // namespace kibitz::cli
