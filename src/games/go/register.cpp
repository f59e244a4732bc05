// Go's entry in the registry: positions as moves from the empty board, the GTP engine,
// `kibitz match` with GTP engines, the MCTS bench, and `kibitz go` (deep search, SGF, the
// position database, move patterns).
#include "games/go/register.hpp"
#include "cli/commands.hpp"
#include "games/go/go_game.hpp"
#include "match/go_arena.hpp"

namespace kibitz::go {

GameEntry registry_entry() {
  GameEntry e;
  e.name = "go";
  e.title = "Go";
  e.summary = "Go, area scoring (position: [size] [komi K] moves, e.g. \"9 komi 7.5 e5 c3 pass\")";
  e.num_players = 2;
  e.new_state = new_any_state;
  e.match_settings = kBoardSizeSetting | kRuleSetting | kKomiSetting;
  e.arena = match::make_go_kind;
  e.engine = engine::make_go_any_engine;
  e.bench = cli::bench_go;
  e.commands = [](CLI::App& app) {
    return std::vector<Command>{{"gtp", cli::add_gtp(app)}, {"go", cli::add_go(app)}};
  };
  return e;
}

}  // namespace kibitz::go
