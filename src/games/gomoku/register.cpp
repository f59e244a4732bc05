// Gomoku's entry in the registry: four rule sets, the Gomocup engine, `kibitz match` with
// Gomocup engines, the bench, and `kibitz gomoku` (play, puzzles, the tuner).
#include "games/gomoku/register.hpp"
#include "cli/commands.hpp"
#include "engine/mcts_request.hpp"
#include "games/gomoku/gomoku_game.hpp"
#include "match/gomoku_arena.hpp"

#include <nlohmann/json.hpp>

namespace kibitz::gomoku {

namespace {

// The page's view: the board's size and rule, the stones as [x, y, colour] (x from the
// left, y from the bottom, colour 0 black), the stones each side captured, black's
// forbidden points under renju (when black is to move), the last move, and the winner.
Result<std::string> web_view(std::string_view text, int /*viewer*/) {
  auto p = parse_position_text(text);
  if (!p) return tl::unexpected(p.error());
  nlohmann::json j;
  j["size"] = p->size();
  j["rule"] = rule_name(p->rule());
  j["stones"] = nlohmann::json::array();
  j["forbidden"] = nlohmann::json::array();
  for (int y = 0; y < p->size(); ++y)
    for (int x = 0; x < p->size(); ++x) {
      const int sq = square_of(x, y);
      const Color c = p->stone(sq);
      if (c == kBlack || c == kWhite) {
        j["stones"].push_back({x, y, c == kBlack ? 0 : 1});
      } else if (p->rule() == Rule::kRenju && !p->is_terminal() && p->side_to_move() == kBlack &&
                 p->is_forbidden(Move{static_cast<std::uint16_t>(sq)})) {
        j["forbidden"].push_back({x, y});
      }
    }
  j["captured"] = {p->captured(kBlack), p->captured(kWhite)};
  const Move last = p->last_move();
  j["last"] = last ? nlohmann::json{x_of(last.sq), y_of(last.sq)} : nlohmann::json();
  j["winner"] = p->winner();
  return j.dump();
}

}  // namespace

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
  e.web_view = web_view;
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
