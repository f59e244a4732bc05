// The Texel tuner: data-line parsing and loading, and recovery of known weights from
// synthetic results drawn from those weights' evaluation.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "games/chess/movegen.hpp"
#include "games/chess/tune.hpp"

namespace kibitz::chess {
namespace {

TEST(TuneData, ParsesLines) {
  auto a = parse_tune_line("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 1.0");
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_EQ(a->second, 1.0);
  auto b = parse_tune_line("4k3/8/8/8/8/8/8/4K3 b - - |0.5");  // EPD-style four fields
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_EQ(b->second, 0.5);
  EXPECT_EQ(parse_tune_line("4k3/8/8/8/8/8/8/4K3 w - - 0 1 | 0-1")->second, 0.0);
  EXPECT_EQ(parse_tune_line("4k3/8/8/8/8/8/8/4K3 w - - 0 1 | 1/2-1/2")->second, 0.5);

  EXPECT_EQ(parse_tune_line("4k3/8/8/8/8/8/8/4K3 w - - 0 1 1.0").error().message,
            "expected 'FEN | result', found no '|'");
  EXPECT_EQ(parse_tune_line("4k3/8/8/8/8/8/8/4K3 w - - 0 1 | 2").error().message,
            "result '2' is not 1.0, 0.5 or 0.0");
  EXPECT_EQ(parse_tune_line("4k3/8/8/8/8/8/8/4K3 w - - 0 1 | win").error().message,
            "result 'win' is not 1.0, 0.5 or 0.0");
  EXPECT_EQ(parse_tune_line(" | 1.0").error().message, "missing FEN before '|'");
  EXPECT_EQ(parse_tune_line("4k3/8/8/8/8/8/8/4K3 w - - 0 1 |").error().message,
            "missing result after '|'");
  EXPECT_NE(parse_tune_line("4k3/8/8/8/8/8/8/4K4 w - - 0 1 | 1.0").error().message.find("FEN"),
            std::string::npos);
}

TEST(TuneData, LoadSkipsAndReportsMalformedLines) {
  const std::string path = ::testing::TempDir() + "kibitz_tune_data.txt";
  {
    std::ofstream f(path);
    f << "# a comment\n"
      << "4k3/8/8/8/8/8/8/3QK3 w - - 0 1 | 1.0\n"
      << "\n"
      << "4k3/8/8/8/8/8/8/3QK3 w - - 0 1 1.0\n"
      << "4k3/8/8/8/8/8/8/3qK3 w - - 0 1 | 0.0\r\n"
      << "4k3/8/8/8/8/8/8/3qK3 w - - 0 1 | 7\n";
  }
  TuneLoadReport report;
  std::vector<std::string> warnings;
  auto data = load_tune_data(path, report, [&](const std::string& w) { warnings.push_back(w); });
  ASSERT_TRUE(data) << data.error().message;
  EXPECT_EQ(data->size(), 2u);
  EXPECT_EQ(report.lines, 6u);
  EXPECT_EQ(report.loaded, 2u);
  EXPECT_EQ(report.skipped, 2u);
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[0], path + ":4: expected 'FEN | result', found no '|'");
  EXPECT_EQ(warnings[1], path + ":6: result '7' is not 1.0, 0.5 or 0.0");
  EXPECT_EQ(data->result(1), 0.0);

  auto missing = load_tune_data(path + ".absent", report, {});
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message, "cannot open data file '" + path + ".absent'");
  {
    std::ofstream f(path);
    f << "nonsense\n";
  }
  auto empty = load_tune_data(path, report, {});
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error().message,
            "data file '" + path + "' has no usable position (1 lines, 1 malformed)");
  std::remove(path.c_str());
}

TEST(TuneData, DatasetKeepsTheTrace) {
  TuneDataset data;
  const Position pos =
      *Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  data.add(pos, 0.5);
  EvalTrace t;
  eval_trace(pos, t);
  int nonzero = 0;
  for (auto c : t.coeff) nonzero += c != 0;
  EXPECT_EQ(data.terms(), static_cast<std::size_t>(nonzero));
  for (const auto* term = data.begin(0); term != data.end(0); ++term)
    EXPECT_EQ(term->coeff, t.coeff[term->index]);
  EXPECT_EQ(data.phase(0), t.phase);
  // With the default weights the tuner's error equals the one of evaluate()'s own scores.
  const int white = pos.side_to_move() == kWhite ? pos.evaluate() : -pos.evaluate();
  const double s = 1.0 / (1.0 + std::exp(-white / 400.0));
  EXPECT_NEAR(tune_error(data, kDefaultEvalParams, 1.0), (s - 0.5) * (s - 0.5), 1e-5);
}

// Positions from random playouts, kept when the evaluation is not lopsided (so the results
// carry information about the weights).
std::vector<Position> playout_positions(std::size_t count, std::uint64_t seed) {
  const char* fens[] = {
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
  };
  Rng rng(seed);
  std::vector<Position> out;
  while (out.size() < count) {
    Position pos = *Position::from_fen(fens[rng.below(std::size(fens))]);
    for (int ply = 0; ply < 120 && out.size() < count; ++ply) {
      MoveList<Position> moves;
      if (pos.legal_moves(moves) == 0) break;
      pos.apply(moves[rng.below(moves.size())]);
      if (ply % 3 == 0 && std::abs(pos.evaluate()) < 1200) out.push_back(pos);
    }
  }
  return out;
}

TEST(Tune, RecoversKnownWeightsFromSyntheticResults) {
  namespace ep = eval_param;
  // The "true" weights: the defaults with a handful of clear changes.
  EvalParams truth = kDefaultEvalParams;
  const int changed[] = {ep::kMaterial + kKnight,
                         ep::kMaterial + kBishop,
                         ep::kMaterial + kRook,
                         ep::kMaterial + kQueen,
                         ep::kMaterial + kPawn,
                         ep::kBishopPair,
                         ep::kDoubled,
                         ep::kRookOpenFile};
  const ScorePair delta[] = {{80, 60}, {-50, -40}, {60, 70},   {-120, -90},
                             {25, 20}, {40, 30},   {-30, -30}, {30, 20}};
  for (std::size_t i = 0; i < std::size(changed); ++i) {
    truth[changed[i]].mg += delta[i].mg;
    truth[changed[i]].eg += delta[i].eg;
  }
  constexpr double kTrueK = 1.2;
  const std::vector<Position> positions = playout_positions(30000, 99);
  TuneDataset data;
  Rng rng(2024);
  EvalTrace t;
  // Each result is the score of 8 games drawn from the true win probability: the expectation
  // of a single game, with less noise for 308 weights to be fitted to.
  for (const Position& pos : positions) {
    eval_trace(pos, t);
    const double p = 1.0 / (1.0 + std::exp(-kTrueK * evaluate_trace(t, truth) / 400.0));
    int wins = 0;
    for (int game = 0; game < 8; ++game) wins += rng.uniform01() < p;
    data.add(t, wins / 8.0);
  }

  // K fitted to the true weights lands near the K the results were drawn with.
  EXPECT_NEAR(fit_k(data, truth), kTrueK, 0.15);

  TuneOptions options;
  options.k = kTrueK;
  options.epochs = 100;
  options.learning_rate = 1.0;
  options.threads = 2;
  std::vector<double> errors;
  const TuneResult r =
      tune(data, kDefaultEvalParams, options, [&](int, double e) { errors.push_back(e); });
  ASSERT_EQ(errors.size(), 100u);
  EXPECT_LT(r.final_error, r.initial_error);
  EXPECT_LT(errors.back(), errors.front());
  EXPECT_GT(r.initial_error, tune_error(data, truth, kTrueK));

  // The evaluation moves most of the way towards the true one. (Material and piece-square
  // weights overlap, so single weights are not compared; the evaluations are.)
  double before = 0, after = 0;
  for (std::size_t i = 0; i < positions.size(); ++i) {
    eval_trace(positions[i], t);
    const int want = evaluate_trace(t, truth);
    before += std::abs(evaluate_trace(t, kDefaultEvalParams) - want);
    after += std::abs(evaluate_trace(t, r.params) - want);
  }
  EXPECT_LT(after, 0.5 * before) << "mean |eval - true eval| " << before / data.size() << " -> "
                                 << after / data.size();
  // Weights no other term overlaps move towards their true values.
  double before_w = 0, after_w = 0;
  for (int i : {ep::kBishopPair, ep::kDoubled, ep::kRookOpenFile}) {
    before_w += std::abs(kDefaultEvalParams[i].mg - truth[i].mg) +
                std::abs(kDefaultEvalParams[i].eg - truth[i].eg);
    after_w += std::abs(r.params[i].mg - truth[i].mg) + std::abs(r.params[i].eg - truth[i].eg);
  }
  EXPECT_LT(after_w, before_w);

  // Deterministic, and independent of the number of threads.
  options.threads = 1;
  options.epochs = 20;
  const TuneResult a = tune(data, kDefaultEvalParams, options);
  options.threads = 3;
  const TuneResult b = tune(data, kDefaultEvalParams, options);
  EXPECT_EQ(a.params.v, b.params.v);
  EXPECT_EQ(a.final_error, b.final_error);
}

}  // namespace
}  // namespace kibitz::chess
