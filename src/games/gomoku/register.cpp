// Gomoku's entry in the registry: four rule sets, the Gomocup engine, `kibitz match` with
// Gomocup engines, the bench, and `kibitz gomoku` (play, puzzles, the tuner).
#include "games/gomoku/register.hpp"
#include "cli/commands.hpp"
#include "engine/mcts_request.hpp"
#include "games/gomoku/gomoku_game.hpp"
#include "match/gomoku_arena.hpp"

namespace kibitz::gomoku {

GameEntry registry_entry() {
  GameEntry e;
  e.name = "gomoku";
  e.title = "Gomoku";
  e.demo = cli::demo_gomoku;
  e.summary =
      "gomoku: freestyle, exact5, renju, capture (position: [rule] [size] moves, e.g. \"renju "
      "15 h8 i9\")";
  e.num_players = 2;
  e.position_params = {{"rule", "{}", "freestyle, exact5, renju or capture"},
                       {"size", "{}", "the board's side, 15 to 20"}};
  e.mcts = engine::gomoku_mcts;
  e.new_state = new_any_state;
  e.match_settings = kBoardSizeSetting | kRuleSetting;
  e.arena = match::make_gomoku_kind;
  e.engine = [] { return engine::make_gomoku_any_engine(); };
  e.protocol = "Gomocup";
  e.records = "SGF";
  e.bots = "pipeline, alphabeta, random";
  e.bench_help = "alpha-beta to a depth";
  e.bench = cli::bench_gomoku;
  e.bench_golden = GameEntry::BenchGolden{"gomoku_bench_signature.txt", {}, "Nodes searched"};
  e.commands = [](CLI::App& app) {
    return std::vector<Command>{{"gomocup", cli::add_gomocup(app)},
                                {"gomoku", cli::add_gomoku(app)}};
  };
  return e;
}

}  // namespace kibitz::gomoku
