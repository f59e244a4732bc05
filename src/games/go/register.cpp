// Go's entry in the registry: positions as moves from the empty board, the GTP engine,
// `kibitz match` with GTP engines, the MCTS bench, and `kibitz go` (deep search, SGF, the
// position database, move patterns).
#include "games/go/register.hpp"
#include "cli/commands.hpp"
#include "engine/mcts_request.hpp"
#include "games/go/go_game.hpp"
#include "match/go_arena.hpp"

namespace kibitz::go {

GameEntry registry_entry() {
  GameEntry e;
  e.name = "go";
  e.title = "Go";
  e.demo = cli::demo_go;
  e.summary = "Go, area scoring (position: [size] [komi K] moves, e.g. \"9 komi 7.5 e5 c3 pass\")";
  e.num_players = 2;
  e.position_params = {{"size", "{}", "the board's side, 5 to 19"},
                       {"komi", "komi {}", "added to white's area"}};
  e.mcts = engine::go_mcts;
  e.new_state = new_any_state;
  e.match_settings = kBoardSizeSetting | kRuleSetting | kKomiSetting;
  e.arena = match::make_go_kind;
  e.engine = engine::make_go_any_engine;
  e.bench = cli::bench_go;
  e.bench_golden =
      GameEntry::BenchGolden{"go_bench_signature.txt", {"--playouts", "2000"}, "Tree nodes"};
  e.protocol = "GTP";
  e.records = "SGF";
  e.bots =
      "mcts (the MCTS engine: --nodes are its visits, option.Threads, option.resign), "
      "random (a sensible point, else pass)";
  e.bench_help = "MCTS playouts on 9x9 and 19x19";
  e.match_help =
      R"(Go (--game go --board-size 5..19 --komi K): GTP engines get boardsize, clear_board, komi and
  time_settings per game (M+I as main time M with byo-yomi I per 1 stone, whole seconds;
  moves/T as Canadian byo-yomi), time_left before each genmove and the opponent's moves with
  play. A game ends by resignation (B+R, W+R) or two passes, or is cut by --max-moves, and is
  scored by Tromp-Taylor area with every stone alive (B+3.5, W+0.5, 0 for a tie). Illegal or
  unparsable moves, "?" to genmove, crashes and time losses lose (B+F, W+T, ...). Openings:
  SGF files (or a directory of them) or a text file of GTP vertices per line ("E5 C3 G4").)";
  e.commands = [](CLI::App& app) {
    return std::vector<Command>{{"gtp", cli::add_gtp(app)}, {"go", cli::add_go(app)}};
  };
  return e;
}

}  // namespace kibitz::go
