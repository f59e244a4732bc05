// kibitz selfplay: games of a game's engine against itself (any registry entry with a
// position text and an engine), through the one engine contract. Chess writes "FEN | result"
// lines (the input of `kibitz tune`) and optionally PGN: each engine move contributes the
// position at the end of its principal variation (quiet: quiescence ended there), not in
// check and not yet decided, so the static evaluation is meant to explain it. The other games
// write "position text | returns" lines: every position an engine move was chosen in, with
// each player's return at the end of the game (training data for a learned evaluation).
#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "core/progress.hpp"
#include "core/rng.hpp"
#include "engine/any_engine.hpp"
#include "games/chess/epd.hpp"
#include "games/chess/notation.hpp"
#include "games/chess/pgn.hpp"
#include "games/chess/training_data.hpp"
#include "search/common/score.hpp"

namespace kibitz::cli {

namespace {

// Positions already decided say little about the evaluation's balance.
constexpr int kMaxSampleScore = 800;

struct SelfplayArgs {
  std::string game = "chess";
  std::string start;  // the other games: the start position text ("" = the standard start)
  std::int64_t movetime_ms = 0;
  int depth = 0;
  int games = 100;
  std::uint64_t nodes = 0;  // 0: chess 5000, the other games their engine's default time
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
  bool hash_set = false;  // --hash given (the other games keep their engine's table otherwise)
  // chess: "text" (FEN | label lines), "binary" (training_data.hpp, appended, score and result
  // kept apart) or "auto" (binary when --out ends in .kbd).
  std::string format = "auto";
};

bool binary_output(const SelfplayArgs& a) {
  return a.format == "binary" ||
         (a.format == "auto" && a.out.size() > 4 && a.out.ends_with(".kbd"));
}

constexpr std::uint64_t kChessNodes = 5000;
// A game longer than this many engine moves is cut (written with the returns of the
// position reached).
constexpr int kMaxEngineMoves = 1000;

int run_chess_selfplay(const SelfplayArgs& a) {
  std::vector<chess::Position> book;
  if (!a.openings.empty()) {
    auto records = chess::load_epd_file(a.openings);
    if (!records) return report_error(records.error().message);
    for (const auto& r : *records) book.push_back(r.position);
    if (book.empty()) return report_error(fmt::format("{}: no positions", a.openings));
  }
  const bool binary = binary_output(a);
  if (binary && a.score_weight != 0.0)
    return report_error("selfplay: --score-weight is for text output (binary keeps both)", 2);
  std::ofstream out;
  std::optional<chess::TrainingDataWriter> writer;
  if (binary) {
    auto w = chess::TrainingDataWriter::open(a.out);
    if (!w) return report_error(w.error().message);
    if (w->dropped_tail())
      fmt::print(stderr, "{}: dropped a torn last chunk of {} bytes (a run cut off mid-write)\n",
                 a.out, w->dropped_tail());
    writer.emplace(std::move(*w));
  } else {
    out.open(a.out);
    if (!out) return report_error(fmt::format("cannot write '{}'", a.out));
  }
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
    std::vector<std::pair<std::string, double>> sampled;       // FEN, white's search expectation
    std::vector<std::pair<chess::Position, int>> sampled_bin;  // position, white's score
    double result = 0.5;                                       // white's view
    int decisive_streak = 0, ply = 0;
    std::string text = game.start.fen() + " moves";
    for (const chess::Move m : game.moves) text += " " + chess::to_uci(m);
    while (!pos.is_terminal() && ply < 400) {
      if (!engine->set_position(text)) break;  // cannot happen: the game's own moves
      const auto r = engine->think({.nodes = a.nodes ? a.nodes : kChessNodes});
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
        if (!leaf.in_check() && !leaf.is_terminal()) {
          if (binary)
            sampled_bin.emplace_back(leaf, white_score);
          else
            sampled.emplace_back(leaf.fen(),
                                 1.0 / (1.0 + std::exp(-a.score_k * white_score / 400.0)));
        }
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
    if (writer) {
      const int white_result = result == 1.0 ? 1 : result == 0.0 ? -1 : 0;
      for (const auto& [leaf, score] : sampled_bin)
        writer->add(chess::pack_training_record(leaf, score, white_result));
      if (auto ok = writer->flush(); !ok) return report_error(ok.error().message);
      written += sampled_bin.size();
    }
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

// The other games: every position an engine move was chosen in, and the game's returns.
int run_state_selfplay(const GameEntry& g, const SelfplayArgs& a) {
  if (!g.new_state || !g.engine)
    return report_error(fmt::format("selfplay: {} has {}", g.name,
                                    !g.new_state ? "no position text to play from" : "no engine"),
                        2);
  if (!a.openings.empty() || !a.pgn.empty() || a.score_weight != 0.0)
    return report_error("selfplay: --openings, --pgn and --score-weight are chess's", 2);
  auto start = g.new_state(a.start);
  if (!start) return report_error(fmt::format("--start: {}", start.error().message), 2);
  std::ofstream out(a.out);
  if (!out) return report_error(fmt::format("cannot write '{}'", a.out));
  auto engine = g.engine();
  if (a.hash_set) {
    if (auto ok = engine->set_option("Hash", std::to_string(a.hash_mb)); !ok)
      return report_error(ok.error().message, 2);
  }
  engine::EngineLimits limits;
  limits.nodes = a.nodes;
  limits.movetime_ms = a.movetime_ms;
  limits.depth = a.depth;
  Rng rng(a.seed);
  Progress progress("selfplay", static_cast<std::size_t>(a.games));
  std::size_t written = 0;
  for (int n = 0; n < a.games; ++n) {
    auto s = (*start)->clone();
    // Random plies for variety (not written: they are not the engine's choices).
    for (int i = 0; i < a.random_plies && !s->is_terminal(); ++i) {
      const auto moves = s->legal_moves();
      if (moves.empty() || !s->apply(moves[rng.below(moves.size())])) break;
    }
    engine->new_game();
    std::vector<std::string> positions;
    for (int ply = 0; ply < kMaxEngineMoves && !s->is_terminal(); ++ply) {
      const std::string text = s->to_string();
      if (auto ok = engine->set_position(text); !ok)
        return report_error(fmt::format("game {}: {}", n + 1, ok.error().message));
      const auto r = engine->think(limits);
      if (!r) return report_error(fmt::format("game {}: {}", n + 1, r.error().message));
      if (auto ok = s->apply(r->move); !ok)
        return report_error(
            fmt::format("game {}: the engine's move: {}", n + 1, ok.error().message));
      positions.push_back(text);
    }
    std::string returns;
    for (const double v : s->returns()) returns += fmt::format(" {}", v);
    for (const auto& p : positions) out << p << " |" << returns << '\n';
    written += positions.size();
    progress.update(static_cast<std::size_t>(n + 1));
  }
  progress.finish();
  fmt::print("{} {} games, {} positions written to {}\n", a.games, g.name, written, a.out);
  return 0;
}

}  // namespace

Runner add_selfplay(CLI::App& root, const Registry& registry) {
  auto a = std::make_shared<SelfplayArgs>();
  auto* cmd = root.add_subcommand(
      "selfplay", "A game's engine against itself; writes positions with the game's result");
  std::vector<std::string> games;
  for (const auto& g : registry.games())
    if (g.engine && g.new_state) games.push_back(g.name);
  cmd->add_option("--game,-g", a->game,
                  fmt::format("the game: {}", registry.names([](const GameEntry& g) {
                    return g.engine && g.new_state;
                  })))
      ->capture_default_str()
      ->check(CLI::IsMember(games));
  cmd->add_option("--start", a->start,
                  "the start position text, other games than chess (e.g. \"9\" for 9x9 Go, "
                  "\"renju 15\")");
  cmd->add_option("--games,-n", a->games, "games to play")
      ->capture_default_str()
      ->check(CLI::Range(1, 10000000));
  cmd->add_option(
      "--nodes", a->nodes,
      fmt::format("nodes (MCTS playouts, Hearts worlds) per move (chess default {})", kChessNodes));
  cmd->add_option("--movetime", a->movetime_ms, "ms per move (other games than chess)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{3'600'000}));
  cmd->add_option("--depth", a->depth, "alpha-beta depth per move (other games than chess)")
      ->check(CLI::Range(1, 64));
  cmd->add_option("--seed", a->seed, "random seed (openings, random plies)")->capture_default_str();
  cmd->add_option("--random-plies", a->random_plies, "random moves after the opening")
      ->capture_default_str()
      ->check(CLI::Range(0, 40));
  cmd->add_option("--openings", a->openings, "chess: EPD/FEN file of start positions")
      ->check(CLI::ExistingFile);
  cmd->add_option("--out,-o", a->out, "positions file to write")->required();
  cmd->add_option("--pgn", a->pgn, "chess: also write the games as PGN");
  cmd->add_option("--format", a->format,
                  "chess: text (FEN | label), binary (appends training records: the search "
                  "score and the result) or auto (binary for a .kbd file)")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "text", "binary"}));
  cmd->add_option("--hash", a->hash_mb, "transposition table MB")
      ->capture_default_str()
      ->each([a](const std::string&) { a->hash_set = true; });
  cmd->add_option("--score-weight", a->score_weight,
                  "chess: weight of the search score in the label (0 = game result only)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--score-k", a->score_k,
                  "chess: sigmoid scale for the search score (as kibitz tune)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->footer(
      "Examples:\n"
      "  kibitz selfplay --games 200 --nodes 5000 --openings "
      "../shared/data/chess/openings/2moves_v1.epd --out selfplay.txt\n"
      "  kibitz selfplay --games 1000 --nodes 5000 --seed 7 --openings "
      "../shared/data/chess/openings/2moves_v1.epd --out train.kbd\n"
      "  kibitz selfplay --game gomoku --movetime 100 --random-plies 4 --games 50 --out "
      "gomoku.txt\n"
      "  kibitz selfplay --game go --start 9 --nodes 400 --games 10 --out go9.txt");
  return [a, &registry] {
    if (a->game == "chess") {
      if (!a->start.empty() || a->movetime_ms || a->depth)
        return report_error(
            "selfplay: chess plays --nodes from --openings (no --start, "
            "--movetime or --depth)",
            2);
      return run_chess_selfplay(*a);
    }
    return run_state_selfplay(*registry.find(a->game), *a);
  };
}

}  // namespace kibitz::cli
