// Chess's entry in the registry: FEN positions, the UCI engine, `kibitz match` with UCI
// engines, the bench, and the chess tools (perft, the Texel tuner, self-play for it).
#include "games/chess/register.hpp"
#include "cli/commands.hpp"
#include "engine/mcts_request.hpp"
#include "games/chess/chess_game.hpp"
#include "match/chess_arena.hpp"

#include <nlohmann/json.hpp>

#include "games/chess/notation.hpp"
#include "games/chess/pgn.hpp"

namespace kibitz::chess {

namespace {

// The page's view: the FEN (the page draws from it), check, how the game ended, the last move.
Result<std::string> web_view(std::string_view text, int /*viewer*/) {
  auto g = parse_game_text(text);
  if (!g) return tl::unexpected(g.error());
  Position p = g->start;
  for (const Move m : g->moves) p.apply(m);
  nlohmann::json j;
  j["fen"] = p.fen();
  j["check"] = p.in_check();
  j["outcome"] = p.outcome() == Outcome::kOngoing ? "" : std::string(outcome_name(p.outcome()));
  j["last"] = g->moves.empty() ? std::string() : to_uci(g->moves.back());
  return j.dump();
}

// The position text as a PGN game.
Result<std::string> to_record(std::string_view text) {
  auto g = parse_game_text(text);
  if (!g) return tl::unexpected(g.error());
  g->tags = {{"Event", "kibitz serve"}, {"Site", "?"}};
  return to_pgn(*g);
}

// A PGN's first game as a position text.
Result<std::string> from_record(std::string_view record) {
  auto games = parse_pgn(record);
  if (!games) return tl::unexpected(games.error());
  if (games->empty()) return fail("the PGN holds no game");
  const PgnGame& g = games->front();
  std::string text = g.start.fen();
  if (!g.moves.empty()) text += " moves";
  for (const Move m : g.moves) text += " " + to_uci(m);
  return text;
}

}  // namespace

GameEntry registry_entry() {
  GameEntry e;
  e.name = "chess";
  e.title = "Chess";
  e.demo = cli::demo_chess;
  e.summary = "standard chess (position: a FEN or startpos, then \"moves e2e4 e7e5\"; UCI or SAN)";
  e.num_players = 2;
  e.position_params = {{"fen", "{}", "a FEN (default: the standard start)"}};
  e.mcts = engine::chess_mcts;
  e.new_state = new_any_state;
  e.arena = [](const match::GameSettings&) -> Result<std::unique_ptr<match::GameKind>> {
    return match::make_chess_kind();
  };
  e.engine = [] { return engine::make_chess_any_engine(); };
  e.web_view = web_view;
  e.to_record = to_record;
  e.from_record = from_record;
  e.bench = cli::bench_chess;
  e.bench_golden = GameEntry::BenchGolden{"chess_bench_signature.txt", {}, "Nodes searched"};
  e.protocol = "UCI";
  e.records = "PGN";
  e.bots = "kibitz (the full engine), plain (the seed's plain alpha-beta baseline), random";
  e.bench_help = "alpha-beta to a depth";
  e.commands = [](CLI::App& app) {
    return std::vector<Command>{{"uci", cli::add_uci(app)},
                                {"perft", cli::add_perft(app)},
                                {"tune", cli::add_tune(app)},
                                {"train-nnue", cli::add_train_nnue(app)}};
  };
  return e;
}

}  // namespace kibitz::chess
