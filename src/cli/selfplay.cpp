// kibitz selfplay: games of the chess engine against itself at a fixed node count, written as
// "FEN | result" lines (the input of `kibitz tune`) and optionally as PGN. Each engine move
// contributes the position at the end of its principal variation (quiet: quiescence ended
// there), not in check and not yet decided, so the static evaluation is meant to explain it.
#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "core/progress.hpp"
#include "core/rng.hpp"
#include "engine/any_engine.hpp"
#include "games/chess/epd.hpp"
#include "games/chess/notation.hpp"
#include "games/chess/pgn.hpp"
#include "search/common/score.hpp"

namespace kibitz::cli {

namespace {

// Positions already decided say little about the evaluation's balance.
constexpr int kMaxSampleScore = 800;

struct SelfplayArgs {
  int games = 100;
  std::uint64_t nodes = 5000;
  std::uint64_t seed = 1;
  int random_plies = 8;
  std::string openings;
  std::string out;
  std::string pgn;
  std::size_t hash_mb = 16;
  // Label = (1 - w) * game result + w * sigmoid(k * search score / 400), white's view: the
  // search score is a far less noisy target than the result of one fast game.
  double score_weight = 0.0;
  double score_k = 2.4;
};

int run_selfplay(const SelfplayArgs& a) {
  std::vector<chess::Position> book;
  if (!a.openings.empty()) {
    auto records = chess::load_epd_file(a.openings);
    if (!records) return report_error(records.error().message);
    for (const auto& r : *records) book.push_back(r.position);
    if (book.empty()) return report_error(fmt::format("{}: no positions", a.openings));
  }
  std::ofstream out(a.out);
  if (!out) return report_error(fmt::format("cannot write '{}'", a.out));
  std::ofstream pgn_out;
  if (!a.pgn.empty()) {
    pgn_out.open(a.pgn);
    if (!pgn_out) return report_error(fmt::format("cannot write '{}'", a.pgn));
  }

  Rng rng(a.seed);
  // The engine through the one contract, given each position as the game so far (its
  // repetitions included).
  auto engine = engine::make_chess_any_engine();
  if (auto ok = engine->set_option("Hash", std::to_string(a.hash_mb)); !ok)
    return report_error(ok.error().message, 2);
  Progress progress("selfplay", static_cast<std::size_t>(a.games));
  std::size_t written = 0;
  int white_wins = 0, black_wins = 0, draws = 0;
  for (int g = 0; g < a.games; ++g) {
    chess::Position pos = book.empty() ? chess::Position() : book[rng.below(book.size())];
    chess::PgnGame game;
    game.start = pos;
    // Random plies for variety (not sampled: they are not the engine's choices).
    for (int i = 0; i < a.random_plies && !pos.is_terminal(); ++i) {
      MoveList<chess::Position> moves;
      pos.legal_moves(moves);
      const chess::Move m = moves[rng.below(moves.size())];
      game.moves.push_back(m);
      pos.apply(m);
    }
    engine->new_game();
    std::vector<std::pair<std::string, double>> sampled;  // FEN, white's search expectation
    double result = 0.5;                                  // white's view
    int decisive_streak = 0, ply = 0;
    std::string text = game.start.fen() + " moves";
    for (const chess::Move m : game.moves) text += " " + chess::to_uci(m);
    while (!pos.is_terminal() && ply < 400) {
      if (!engine->set_position(text)) break;  // cannot happen: the game's own moves
      const auto r = engine->think({.nodes = a.nodes});
      if (!r || r->move.empty()) break;
      const auto best = chess::parse_uci(pos, r->move);
      if (!best) break;
      const int score = static_cast<int>(r->score);
      const int white_score = pos.side_to_move() == chess::kWhite ? score : -score;
      // Adjudicate clear wins to save time: both sides see it for 8 plies.
      decisive_streak = std::abs(score) >= 1000 ? decisive_streak + 1 : 0;
      if (decisive_streak >= 8) {
        result = white_score > 0 ? 1.0 : 0.0;
        break;
      }
      // The sample is the end of the principal variation: quiescence stopped there, so no
      // capture is pending and the static evaluation should explain the outcome.
      if (!search::is_mate(score) && std::abs(score) < kMaxSampleScore) {
        chess::Position leaf = pos;
        for (const auto& word : r->pv) {
          const auto m = chess::parse_uci(leaf, word);
          if (!m) break;
          leaf.apply(*m);
        }
        if (!leaf.in_check() && !leaf.is_terminal())
          sampled.emplace_back(leaf.fen(),
                               1.0 / (1.0 + std::exp(-a.score_k * white_score / 400.0)));
      }
      game.moves.push_back(*best);
      pos.apply(*best);
      text += " " + r->move;
      ++ply;
    }
    if (pos.is_terminal()) {
      const auto ret = pos.returns();
      result = ret[0] > 0 ? 1.0 : ret[0] < 0 ? 0.0 : 0.5;
    }
    (result == 1.0 ? white_wins : result == 0.0 ? black_wins : draws)++;
    for (const auto& [fen, expected] : sampled)
      out << fen << " | "
          << fmt::format("{:.3f}", (1 - a.score_weight) * result + a.score_weight * expected)
          << '\n';
    written += sampled.size();
    if (pgn_out) {
      game.result = result == 1.0 ? "1-0" : result == 0.0 ? "0-1" : "1/2-1/2";
      game.tags.emplace_back("Event", "kibitz selfplay");
      game.tags.emplace_back("Round", std::to_string(g + 1));
      pgn_out << chess::to_pgn(game) << '\n';
    }
    progress.update(static_cast<std::size_t>(g + 1));
  }
  progress.finish();
  fmt::print("{} games (+{} ={} -{} for white), {} positions written to {}\n", a.games, white_wins,
             draws, black_wins, written, a.out);
  return 0;
}

}  // namespace

Runner add_selfplay(CLI::App& root) {
  auto a = std::make_shared<SelfplayArgs>();
  auto* cmd = root.add_subcommand(
      "selfplay", "Chess self-play at fixed nodes; writes 'FEN | result' lines for kibitz tune");
  cmd->add_option("--games,-n", a->games, "games to play")
      ->capture_default_str()
      ->check(CLI::Range(1, 10000000));
  cmd->add_option("--nodes", a->nodes, "nodes per move")->capture_default_str();
  cmd->add_option("--seed", a->seed, "random seed (openings, random plies)")->capture_default_str();
  cmd->add_option("--random-plies", a->random_plies, "random moves after the opening")
      ->capture_default_str()
      ->check(CLI::Range(0, 40));
  cmd->add_option("--openings", a->openings, "EPD/FEN file of start positions")
      ->check(CLI::ExistingFile);
  cmd->add_option("--out,-o", a->out, "positions file to write")->required();
  cmd->add_option("--pgn", a->pgn, "also write the games as PGN");
  cmd->add_option("--hash", a->hash_mb, "transposition table MB")->capture_default_str();
  cmd->add_option("--score-weight", a->score_weight,
                  "weight of the search score in the label (0 = game result only)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--score-k", a->score_k, "sigmoid scale for the search score (as kibitz tune)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->footer(
      "Example:\n"
      "  kibitz selfplay --games 200 --nodes 5000 --openings "
      "../shared/data/chess/openings/2moves_v1.epd --out selfplay.txt");
  return [a] { return run_selfplay(*a); };
}

}  // namespace kibitz::cli
