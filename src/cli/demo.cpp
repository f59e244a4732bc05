// kibitz demo: a quick tour of what this build can do. Grows as games land.
#include <fmt/format.h>

#include <chrono>
#include <memory>

#include "cli/commands.hpp"
#include "core/rng.hpp"
#include "games/chess/movegen.hpp"
#include "games/chess/perft.hpp"
#include "games/chess/pgn.hpp"

namespace kibitz::cli {

namespace {

struct DemoOptions {
  std::uint64_t seed = 1;
  int perft_depth = 5;
};

int run_demo(const DemoOptions& o) {
  fmt::print("Kibitz {} demo\n\n", KIBITZ_VERSION);
  fmt::print("Chess perft from the starting position (legal move generation, bulk counting):\n");
  chess::Position start;
  for (int d = 1; d <= o.perft_depth; ++d) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::uint64_t n = chess::perft(start, d);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    fmt::print("  depth {}: {:>10} nodes  {:8.3f} s  {:>6.1f} Mnodes/s\n", d, n, s,
               s > 0 ? static_cast<double>(n) / s / 1e6 : 0.0);
  }

  fmt::print("\nA random legal game (seed {}), in PGN:\n\n", o.seed);
  Rng rng(o.seed);
  chess::PgnGame game;
  chess::Position pos;
  MoveList<chess::Position> moves;
  while (!pos.is_terminal()) {
    pos.legal_moves(moves);
    const chess::Move m = moves[rng.below(moves.size())];
    game.moves.push_back(m);
    pos.apply(m);
  }
  game.tags = {{"Event", "Kibitz demo: random legal moves"},
               {"White", "random"},
               {"Black", "random"},
               {"Seed", std::to_string(o.seed)}};
  fmt::print("{}", chess::to_pgn(game));
  return 0;
}

}  // namespace

Runner add_demo(CLI::App& root) {
  auto o = std::make_shared<DemoOptions>();
  auto* cmd = root.add_subcommand("demo", "A short tour: chess perft and a random legal game");
  cmd->add_option("--seed", o->seed, "seed of the random game")->capture_default_str();
  cmd->add_option("--perft-depth", o->perft_depth, "deepest perft shown")
      ->capture_default_str()
      ->check(CLI::Range(1, 7));
  cmd->footer("Example:\n  kibitz demo --seed 7");
  return [o] { return run_demo(*o); };
}

}  // namespace kibitz::cli
