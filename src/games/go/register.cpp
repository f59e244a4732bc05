// Go's entry in the registry: positions as moves from the empty board, the GTP engine,
// `kibitz match` with GTP engines, the MCTS bench, and `kibitz go` (deep search, SGF, the
// position database, move patterns).
#include "games/go/register.hpp"
#include "cli/commands.hpp"
#include "engine/mcts_request.hpp"
#include "games/go/go_game.hpp"
#include "match/go_arena.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "games/go/sgf.hpp"

namespace kibitz::go {

namespace {

// The page's view: size and komi, the stones as [x, y, colour] (x from the left, y from the
// bottom, colour 0 black), the stones each side captured, the ko point, the last move, the
// passes in a row, and the area count as it stands: each point's owner (0 black, 1 white,
// -1 neither, row by row from the bottom) and black's area minus white's minus komi.
Result<std::string> web_view(std::string_view text, int /*viewer*/) {
  auto p = parse_position_text(text);
  if (!p) return tl::unexpected(p.error());
  const auto xy = [](int sq) { return nlohmann::json{x_of(sq), y_of(sq)}; };
  nlohmann::json j;
  j["size"] = p->size();
  j["komi"] = p->komi();
  j["stones"] = nlohmann::json::array();
  std::array<Color, kNumPoints> owner{};
  p->area_map(owner);
  std::vector<int> area;
  for (int y = 0; y < p->size(); ++y)
    for (int x = 0; x < p->size(); ++x) {
      const int sq = point_of(x, y);
      const Color c = p->at(sq);
      if (c == kBlack || c == kWhite) j["stones"].push_back({x, y, c == kBlack ? 0 : 1});
      area.push_back(owner[static_cast<std::size_t>(sq)] == kBlack   ? 0
                     : owner[static_cast<std::size_t>(sq)] == kWhite ? 1
                                                                     : -1);
    }
  j["area"] = area;
  j["score"] = p->score();
  j["captured"] = {p->captured(kBlack), p->captured(kWhite)};
  j["ko"] = p->ko_point() ? xy(p->ko_point()) : nlohmann::json();
  const Move last = p->last_move();
  j["last"] = last.is_point() ? xy(last.sq) : nlohmann::json();
  j["last_pass"] = last.is_pass();
  j["passes"] = p->passes();
  return j.dump();
}

// The position text ("9 komi 7.5 E5 B:C3 pass") as an SGF record.
Result<std::string> to_record(std::string_view text) {
  auto r = parse_record_text(text);
  if (!r) return tl::unexpected(r.error());
  r->event = "kibitz serve";
  return write_sgf(*r);
}

// An SGF's main line as a position text: setup stones become moves of their colour.
Result<std::string> from_record(std::string_view record) {
  auto r = read_sgf(record);
  if (!r) return tl::unexpected(r.error());
  if (!r->later_setup.empty())
    return fail("SGF: stones added after the first move are not read here");
  std::string text = fmt::format("{} komi {}", r->size, r->komi);
  for (const Move m : r->black_setup) text += " B:" + to_vertex(m, r->size);
  for (const Move m : r->white_setup) text += " W:" + to_vertex(m, r->size);
  for (const auto& [c, m] : r->moves)
    text += fmt::format(" {}:{}", c == kBlack ? 'B' : 'W', to_vertex(m, r->size));
  return text;
}

}  // namespace

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
  e.web_view = web_view;
  e.to_record = to_record;
  e.from_record = from_record;
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
