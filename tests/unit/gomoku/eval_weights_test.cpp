// The gomoku evaluation as data: the weights files, the tuner, and the evaluation they make.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "core/rng.hpp"
#include "games/gomoku/eval_weights.hpp"
#include "games/gomoku/position_detail.hpp"
#include "games/gomoku/tune.hpp"
#include "gomoku_test_util.hpp"

namespace kibitz::gomoku {
namespace {

// Random positions of up to `plies` stones near each other.
std::vector<Position> eval_random_positions(Rule rule, int games, int plies, std::uint64_t seed) {
  std::vector<Position> out;
  Rng rng(seed);
  for (int g = 0; g < games; ++g) {
    Position p(Variant{15, rule});
    for (int ply = 0; ply < plies && !p.is_terminal(); ++ply) {
      MoveList<Position> moves;
      if (p.candidate_moves(moves, 1) == 0) break;
      p.apply(moves[rng.below(moves.size())]);
      if (!p.is_terminal()) out.push_back(p);
    }
  }
  return out;
}

// Every rule's compiled-in file parses (the build would abort otherwise) and names its rule.
TEST(GomokuEvalWeights, BuiltinFilesParse) {
  for (const Rule r : {Rule::kFreestyle, Rule::kExactFive, Rule::kRenju, Rule::kCapture}) {
    const EvalWeights& w = builtin_eval_weights(r);
    EXPECT_TRUE(w.rule == "any" || w.rule == rule_name(r)) << w.rule;
    EXPECT_FALSE(w.made_by.empty());
    EXPECT_GT(w.pattern[static_cast<int>(Pattern::kFive)], 0);
  }
}

// Freestyle, exact five and capture each get their own file (it names that rule); renju falls
// back to the shared eval-default.json ("any"). Catches a rule left on the fallback.
TEST(GomokuEvalWeights, EachRuleGetsItsOwnFile) {
  EXPECT_EQ(builtin_eval_weights(Rule::kFreestyle).rule, "freestyle");
  EXPECT_EQ(builtin_eval_weights(Rule::kExactFive).rule, "exact5");
  EXPECT_EQ(builtin_eval_weights(Rule::kCapture).rule, "capture");
  EXPECT_EQ(builtin_eval_weights(Rule::kRenju).rule, "any");
}

// A file written by format_eval_weights reads back the same; loading it from disk works.
TEST(GomokuEvalWeights, FormatRoundTripsAndLoads) {
  EvalWeights w = builtin_eval_weights(Rule::kFreestyle);
  w.pattern[static_cast<int>(Pattern::kTwo)] = 7;
  w.combination[static_cast<int>(Threat::kThreeThree)] = -40;
  w.to_move[static_cast<int>(Threat::kFlexThree)] = 33;
  w.shape[shape_index(0, 1, 0, 2, 0)] = -17;
  w.shape[shape_index(1, 2, 1, 2, 1)] = 8000;
  w.tempo = -5;
  w.parent_share = 35;
  w.made_by = "a test: \"quoted\"";
  const std::string text = format_eval_weights(w);
  auto back = parse_eval_weights(text);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(*back, w);
  const auto path = std::filesystem::temp_directory_path() / "kibitz_eval_weights_test.json";
  std::ofstream(path) << text;
  auto loaded = load_eval_weights(path.string());
  std::filesystem::remove(path);
  ASSERT_TRUE(loaded) << loaded.error().message;
  EXPECT_EQ(*loaded, w);
}

// Malformed files are refused with one line that names the problem.
TEST(GomokuEvalWeights, MalformedFilesAreRefusedWithOneLine) {
  const std::string good = format_eval_weights(builtin_eval_weights(Rule::kFreestyle));
  const auto replaced = [&](std::string_view from, std::string_view to) {
    std::string s = good;
    const auto at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) s.replace(at, from.size(), to);
    return s;
  };
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{", "not JSON"},
      {"[1, 2]", "not a JSON object"},
      {replaced("kibitz-gomoku-eval", "other"), "format"},
      {replaced("\"version\": 1", "\"version\": 2"), "version"},
      {replaced("\"two\": ", "\"twos\": "), "unknown pattern 'twos'"},
      {replaced("\"five\": 1000", "\"five\": 1e3"), "pattern.five must be an integer"},
      {replaced("\"five\": 1000", "\"five\": -1"), "pattern.five = -1 is outside 0..4000"},
      {replaced("\"five\": 1000", "\"five\": 4E528"), "not JSON (a number out of range)"},
      {replaced("\"four_three\": ", "\"four_three\": 9"), "combination.four_three"},
      {replaced("\"to_move\": {\"none\"", "\"to_move\": {\"nine\""), "unknown to_move 'nine'"},
      {replaced("\"tempo\": ", "\"tempo\": -9"), "tempo = -91000 is outside -3000..3000"},
      {replaced("\"rule\": \"freestyle\"", "\"rule\": \"go\""), "unknown rule 'go'"},
      {replaced("\"combination\": {", "\"combination\": 3, \"x\": {"), "'combination' must be"},
      {replaced("\"tempo\": ", "\"shape\": {\"00300\": 1}, \"tempo\": "), "unknown shape '00300'"},
      {replaced("\"tempo\": ", "\"shape\": {\"01000\": 9000}, \"tempo\": "),
       "shape.01000 = 9000 is outside -8000..8000"},
      {replaced("\"tempo\": ", "\"shape\": {\"01000\": 1.5}, \"tempo\": "),
       "shape.01000 must be an integer"},
      {replaced("\"tempo\": ", "\"shape\": [1], \"tempo\": "), "'shape' must be an object"},
      {replaced("\"tempo\": ", "\"parent_share\": 101, \"tempo\": "),
       "parent_share = 101 is outside 0..100"},
      {replaced("\"tempo\": ", "\"parent_share\": \"half\", \"tempo\": "),
       "\"parent_share\" must be an integer"},
  };
  for (const auto& [text, expected] : cases) {
    auto w = parse_eval_weights(text);
    ASSERT_FALSE(w) << text;
    const std::string& m = w.error().message;
    EXPECT_NE(m.find(expected), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    EXPECT_EQ(m.rfind("gomoku eval weights: ", 0), 0u) << m;
  }
  auto missing = load_eval_weights("/nonexistent/kibitz/eval.json");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message, "cannot read '/nonexistent/kibitz/eval.json'");
}

// The features are the evaluation: with any weights, a quiet position's evaluate() equals the
// weights applied to its counts (so what the tuner fits is what the search uses), with the
// parent's counts blended in by parent_share (evaluate() rounds that term toward zero); and
// the weights set for a rule are the ones new positions evaluate with.
TEST(GomokuEvalWeights, FeaturesReproduceTheEvaluation) {
  EvalWeights w = builtin_eval_weights(Rule::kExactFive);
  const EvalWeights saved = eval_weights(Rule::kExactFive);
  Rng rng(11);
  for (int trial = 0; trial < 6; ++trial) {
    for (auto& v : w.pattern) v = static_cast<int>(rng.below(60));
    for (auto& v : w.combination) v = static_cast<int>(rng.below(200)) - 100;
    for (auto& v : w.to_move) v = static_cast<int>(rng.below(300)) - 100;
    for (auto& v : w.shape) v = static_cast<int>(rng.below(200)) - 100;
    w.tempo = static_cast<int>(rng.below(50));
    w.parent_share = trial < 3 ? 0 : 25 * (trial - 2);
    set_eval_weights(Rule::kExactFive, w);
    int quiet = 0;
    for (int game = 0; game < 6; ++game) {
      Position p(Variant{15, Rule::kExactFive});
      for (int ply = 0; ply < 30 && !p.is_terminal(); ++ply) {
        MoveList<Position> moves;
        if (p.candidate_moves(moves, 1) == 0) break;
        TuneSample sample{};
        sample.parent = parent_features(p);
        p.apply(moves[rng.below(moves.size())]);
        if (p.is_terminal() || !p.quiet_position()) continue;
        ++quiet;
        sample.x = eval_features(p);
        const double e = linear_eval(sample, w);
        if (std::abs(e) >= 9000) continue;  // evaluate() clamps there
        if (w.parent_share == 0) {
          ASSERT_EQ(p.evaluate(), static_cast<int>(e)) << p.to_string();
          ASSERT_EQ(linear_eval(sample.x, w), e);
        } else {
          ASSERT_LT(std::abs(p.evaluate() - e), 1.0) << p.to_string();
        }
      }
    }
    EXPECT_GT(quiet, 20);
  }
  set_eval_weights(Rule::kExactFive, saved);
  EXPECT_EQ(eval_weights(Rule::kExactFive), saved);
}

// The side-to-move terms count only while the opponent threatens nothing: where it has a four
// or a free three on the board the evaluation is the one without them, and where it has none
// they add their weights times the side to move's points.
TEST(GomokuEvalWeights, SideToMoveTermsWaitWhileTheOpponentThreatens) {
  const EvalWeights saved = eval_weights(Rule::kFreestyle);
  EvalWeights without = saved;
  without.to_move = {};
  EvalWeights with = without;
  with.to_move = {0, 7, 30, 60, 90, 500, 45, 800, 0, 0};
  set_eval_weights(Rule::kFreestyle, without);
  const auto plain = eval_random_positions(Rule::kFreestyle, 10, 50, 5);
  set_eval_weights(Rule::kFreestyle, with);
  const auto more = eval_random_positions(Rule::kFreestyle, 10, 50, 5);
  set_eval_weights(Rule::kFreestyle, saved);
  ASSERT_EQ(plain.size(), more.size());
  int threatened = 0, differ = 0;
  for (std::size_t i = 0; i < plain.size(); ++i) {
    const Position& p = more[i];
    ASSERT_EQ(p.to_string(), plain[i].to_string());
    if (p.opponent_can_win() || p.opponent_threatens_open_four()) {
      ++threatened;
      EXPECT_EQ(p.evaluate(), plain[i].evaluate()) << p.to_string();
      continue;
    }
    if (!p.quiet_position()) continue;
    const auto x = eval_features(p);
    int extra = 0;
    for (int t = 1; t < 10; ++t) extra += with.to_move[t] * x[kToMoveFeature + t];
    const int base = plain[i].evaluate();
    if (std::abs(base + extra) >= 9000 || std::abs(base) >= 9000) continue;
    EXPECT_EQ(p.evaluate(), base + extra) << p.to_string();
    if (extra) ++differ;
  }
  EXPECT_GT(threatened, 10);
  EXPECT_GT(differ, 10);
}

// parent_share reads the score of the position before the last move: at 100 the evaluation
// after a move is the score of the position before it seen from the other side (the tempo and
// side-to-move terms aside), at 50 halfway between; a pass averages a position with itself,
// and unmake and unmake_null put the parent's score back.
TEST(GomokuEvalWeights, ParentShareAveragesThePositionBeforeTheLastMove) {
  const EvalWeights saved = eval_weights(Rule::kFreestyle);
  EvalWeights plain = saved;
  plain.to_move = {};
  plain.parent_share = 0;
  EvalWeights full = plain, half = plain;
  full.parent_share = 100;
  half.parent_share = 50;
  const int tempo = plain.tempo;
  Rng rng(23);
  int compared = 0;
  for (int game = 0; game < 8; ++game) {
    // A random game under the plain weights, then each prefix replayed under all three.
    std::vector<std::pair<int, int>> moves;
    Position walk(Variant{15, Rule::kFreestyle});
    for (int ply = 0; ply < 40 && !walk.is_terminal(); ++ply) {
      MoveList<Position> list;
      if (walk.candidate_moves(list, 1) == 0) break;
      const Move m = list[rng.below(list.size())];
      moves.emplace_back(x_of(m.sq), y_of(m.sq));
      walk.apply(m);
    }
    for (std::size_t n = 1; n < moves.size(); ++n) {
      const std::span<const std::pair<int, int>> now(moves.data(), n), before(moves.data(), n - 1);
      set_eval_weights(Rule::kFreestyle, plain);
      const auto p_now = Position::from_moves(Variant{15, Rule::kFreestyle}, now);
      const auto p_before = Position::from_moves(Variant{15, Rule::kFreestyle}, before);
      set_eval_weights(Rule::kFreestyle, full);
      auto q_full = Position::from_moves(Variant{15, Rule::kFreestyle}, now);
      set_eval_weights(Rule::kFreestyle, half);
      const auto q_half = Position::from_moves(Variant{15, Rule::kFreestyle}, now);
      ASSERT_TRUE(p_now && p_before && q_full && q_half);
      if (p_now->is_terminal() || !p_now->quiet_position() || !p_before->quiet_position()) continue;
      const int d_now = p_now->evaluate() - tempo, d_before = p_before->evaluate() - tempo;
      if (std::abs(d_now) >= 4000 || std::abs(d_before) >= 4000) continue;  // clamps aside
      ++compared;
      ASSERT_EQ(q_full->evaluate(), tempo - d_before) << q_full->to_string();
      ASSERT_EQ(q_half->evaluate(), tempo + d_now + 50 * (-d_before - d_now) / 100);
      // A pass: the position's own score twice; its unmake brings the parent's back.
      const Position kept = *q_full;
      Position::Undo u;
      q_full->make_null(u);
      EXPECT_EQ(q_full->evaluate(), tempo - d_now);
      q_full->unmake_null(u);
      EXPECT_TRUE(*q_full == kept);
      EXPECT_EQ(q_full->evaluate(), tempo - d_before);
    }
  }
  set_eval_weights(Rule::kFreestyle, saved);
  EXPECT_GT(compared, 50);
}

// The evaluation with the shipped weights is the same under the 8 board transforms, and so
// are the features the tuner reads.
TEST(GomokuEvalWeights, EvaluationIsSymmetricUnderTheEightTransforms) {
  for (const Rule rule : {Rule::kFreestyle, Rule::kExactFive}) {
    for (const Position& p : eval_random_positions(rule, 4, 40, 7)) {
      const auto x = eval_features(p);
      for (int t = 1; t < Position::kNumSymmetries; ++t) {
        const Position q = p.transformed(t);
        ASSERT_EQ(q.evaluate(), p.evaluate()) << "transform " << t << "\n" << p.to_string();
        ASSERT_EQ(eval_features(q), x) << "transform " << t;
      }
    }
  }
}

// A point's shape is the count of its lines by pattern, read off the four directions: fours,
// free threes, closed threes, flex twos and twos, saturated at 1, 2, 1, 2, 1; none where a line
// makes a five, an overline or an open four, or two lines make fours.
TEST(GomokuEvalWeights, ShapeCountsTheLinesOfAPoint) {
  int shaped = 0;
  std::array<int, kShapes> seen{};
  for (const Rule rule : {Rule::kFreestyle, Rule::kExactFive}) {
    for (const Position& p : eval_random_positions(rule, 10, 60, 31)) {
      for (int sq = 0; sq < kSquares; ++sq) {
        if (p.stone(sq) != kEmpty) continue;
        for (const Color c : {kBlack, kWhite}) {
          std::array<int, 10> n{};
          for (int d = 0; d < 4; ++d) ++n[static_cast<int>(p.pattern(sq, c, d))];
          const auto at = [&](Pattern q) { return n[static_cast<int>(q)]; };
          const bool none = at(Pattern::kFive) || at(Pattern::kOverline) ||
                            at(Pattern::kFlexFour) || at(Pattern::kFour) >= 2;
          const int want =
              none
                  ? kShapes
                  : shape_index(at(Pattern::kFour), std::min(at(Pattern::kFlexThree), 2),
                                std::min(at(Pattern::kThree), 1),
                                std::min(at(Pattern::kFlexTwo), 2), std::min(at(Pattern::kTwo), 1));
          ASSERT_EQ(p.shape(sq, c), want) << p.to_string() << " point " << sq;
          if (want < kShapes) {
            ++shaped;
            ++seen[want];
          }
        }
      }
    }
  }
  EXPECT_GT(shaped, 1000);
  EXPECT_GT(std::count_if(seen.begin(), seen.end(), [](int k) { return k > 0; }), 20);
  EXPECT_EQ(shape_name(shape_index(1, 0, 1, 2, 0)), "10120");
}

// The O(1) queries the search asks at every node agree with the scans they stand for.
TEST(GomokuEvalWeights, QuickQueriesAgreeWithTheScans) {
  for (const Rule rule : {Rule::kFreestyle, Rule::kRenju}) {
    for (const Position& p : eval_random_positions(rule, 8, 60, 21)) {
      // threat_moves skips its scan when the counts say there is nothing: the same list as
      // the points a scan finds.
      MoveList<Position> threats;
      p.threat_moves(threats);
      std::vector<int> scanned;
      for (int sq = 0; sq < kSquares; ++sq)
        if (p.stone(sq) == kEmpty && p.threat(sq, p.side_to_move()) >= Threat::kFlexThree &&
            !p.is_forbidden(Move{static_cast<std::uint16_t>(sq)}))
          scanned.push_back(sq);
      EXPECT_EQ(testing::squares(threats), scanned) << p.to_string();
      bool forcing = false;
      for (int sq = 0; sq < kSquares; ++sq)
        for (const Color c : {kBlack, kWhite})
          if (p.stone(sq) == kEmpty && !p.point_flagged(sq, c) &&
              p.threat(sq, c) >= Threat::kFlexFour)
            forcing = true;
      EXPECT_EQ(p.quiet_position(), !forcing) << p.to_string();
    }
  }
}

// The referee's games log: a draw ("1/2", as the shared referee writes it, or "1/2-1/2") gives
// the same positions as a decided game, each with the result 0.5; a game without a result
// gives none.
TEST(GomokuTune, GamesLogReadsDrawsAsHalfPoints) {
  const auto line = [](std::string_view result) {
    return fmt::format(
        "{{\"board\": 15, \"rule\": 0, \"opening\": \"h8i9\", \"moves\": \"h7i7g9g8\", "
        "\"result\": \"{}\"}}\n",
        result);
  };
  std::vector<TuneSample> won, drawn, pgn_drawn, none;
  std::size_t games = 0;
  ASSERT_TRUE(read_games_log(line("1-0"), Rule::kFreestyle, 0, won, games));
  ASSERT_TRUE(read_games_log(line("1/2"), Rule::kFreestyle, 0, drawn, games));
  ASSERT_TRUE(read_games_log(line("1/2-1/2"), Rule::kFreestyle, 0, pgn_drawn, games));
  ASSERT_TRUE(read_games_log(line("*"), Rule::kFreestyle, 0, none, games));
  EXPECT_EQ(games, 3u);
  ASSERT_GT(won.size(), 3u);
  ASSERT_EQ(drawn.size(), won.size());
  ASSERT_EQ(pgn_drawn.size(), won.size());
  EXPECT_TRUE(none.empty());
  for (std::size_t i = 0; i < won.size(); ++i) {
    EXPECT_EQ(drawn[i].x, won[i].x);
    EXPECT_EQ(drawn[i].result, 0.5f);
    EXPECT_EQ(pgn_drawn[i].result, 0.5f);
    EXPECT_TRUE(won[i].result == 0.0f || won[i].result == 1.0f);
  }
}

// Weights to recover, random counts (each -3..3, the tempo 1), and a start away from the
// truth (the weights the tuner keeps fixed start at it): the synthetic fits below.
EvalWeights synthetic_truth() {
  EvalWeights truth = builtin_eval_weights(Rule::kFreestyle);
  truth.pattern = {0, 0, 8, 30, 20, 90, 120, 400, 900, 0};
  truth.combination = {0, -10, 5, 40, 60, 300, 80, 600, 700, 1200};
  truth.to_move = {0, 15, 120, -30, 250, 90, 400, 1500, 50, 900};
  for (int i = 0; i < kShapes; ++i) truth.shape[i] = (i * 37) % 200 - 100;
  truth.tempo = 30;
  return truth;
}

std::vector<TuneSample> synthetic_counts(Rng& rng, int n) {
  std::vector<TuneSample> data;
  for (int i = 0; i < n; ++i) {
    TuneSample s{};
    for (int f = 0; f < kEvalFeatures - 1; ++f)
      s.x[f] = static_cast<std::int16_t>(static_cast<int>(rng.below(7)) - 3);
    s.x[kEvalFeatures - 1] = 1;
    data.push_back(s);
  }
  return data;
}

EvalWeights synthetic_start(const EvalWeights& truth) {
  EvalWeights start = truth;
  for (auto& v : start.pattern) v = v / 2 + 10;
  for (auto& v : start.combination) v = v / 2;
  for (auto& v : start.to_move) v = -v / 3;
  start.shape = {};
  start.pattern[0] = start.pattern[1] = start.pattern[9] = 0;
  start.combination[0] = start.to_move[0] = 0;
  return start;
}

void expect_recovered(const EvalWeights& got, const EvalWeights& truth) {
  for (int i = 2; i < 9; ++i) EXPECT_NEAR(got.pattern[i], truth.pattern[i], 3) << i;
  for (int i = 1; i < 10; ++i) EXPECT_NEAR(got.combination[i], truth.combination[i], 3) << i;
  for (int i = 1; i < 10; ++i) EXPECT_NEAR(got.to_move[i], truth.to_move[i], 3) << i;
  for (int i = 0; i < kShapes; ++i) EXPECT_NEAR(got.shape[i], truth.shape[i], 3) << i;
}

// The tuner recovers known weights: results drawn as the logistic of a known linear
// evaluation (as probabilities, so the fit's optimum is exactly those weights) on random
// counts, tuned from different starting weights.
// A point's refresh reads its summary and value from one entry (EvalTables::point): they must
// be what the summary tables and the weights give term by term (the pattern values, the
// combination and shape weights, the captures' weight, nothing on a flagged point), for the
// four entries of random points under every rule's weights and every mode.
TEST(GomokuEvalTables, OneEntryGivesTheSummaryAndTheWeightsTermByTerm) {
  Rng rng(23);
  for (const Rule r : {Rule::kFreestyle, Rule::kExactFive, Rule::kRenju, Rule::kCapture}) {
    const detail::EvalTables& t = *detail::eval_tables(r);
    const EvalWeights& w = t.weights;
    int flagged = 0;
    for (int trial = 0; trial < 20000; ++trial) {
      std::uint64_t sum = 0;
      for (int d = 0; d < 4; ++d) {
        // Entries are patterns (0-9) with the two-fours bit and 0-2 captures.
        const int e = static_cast<int>(rng.below(10)) | (rng.below(4) == 0 ? 0x10 : 0) |
                      static_cast<int>(rng.below(r == Rule::kCapture ? 3 : 1)) << 5;
        sum += t.entry_info[e];
      }
      for (int mode = 0; mode < 3; ++mode)
        for (const int capture_weight : {0, detail::kCapturePairValue}) {
          int value = 0, shape = kShapes;
          const std::uint16_t expected = detail::summarise(sum, mode, value, &shape);
          const int caps = detail::summary_captures(expected);
          const int expected_value = (expected & 0x100)
                                         ? 0
                                         : value + w.combination[detail::summary_threat(expected)] +
                                               (shape < kShapes ? w.shape[shape] : 0) +
                                               capture_weight * caps;
          int got_value = 0;
          const std::uint16_t got =
              detail::summarise_valued(sum, t, mode, capture_weight, got_value);
          ASSERT_EQ(got, expected) << rule_name(r) << " mode " << mode << " sum " << sum;
          ASSERT_EQ(got_value, expected_value) << rule_name(r) << " mode " << mode;
          flagged += (got & 0x100) != 0;
        }
    }
    EXPECT_GT(flagged, 0) << rule_name(r);  // renju and capture modes flag some combinations
  }
}

// Make reads a point's summary and value from its four entries at once (EvalTables::direct):
// they must be what the summed path gives, for every combination of entries a table makes
// (patterns, a flex four that is two fours, 0-2 captures a line) under every rule's weights
// and mode, with the captures' weight the rule gives.
TEST(GomokuEvalTables, DirectTablesEqualTheSummedPath) {
  constexpr int kCodes = 11 * 3;  // 10 patterns and the two-fours flex four, 0-2 captures
  for (const Rule r : {Rule::kFreestyle, Rule::kExactFive, Rule::kRenju, Rule::kCapture}) {
    const detail::EvalTables& t = *detail::eval_tables(r);
    for (int mode = 0; mode < 3; ++mode) {
      const int capture_weight = mode == detail::kCaptureRule ? detail::kCapturePairValue : 0;
      const std::array<const std::uint32_t*, 2> tables = {
          t.direct[mode].data(), t.direct[mode == detail::kCaptureRule ? 3 : mode].data()};
      int flagged = 0, capturing = 0;
      for (int combo = 0; combo < kCodes * kCodes * kCodes * kCodes; ++combo) {
        std::uint32_t entries = 0;
        std::uint64_t sum = 0;
        for (int d = 0, rest = combo; d < 4; ++d, rest /= kCodes) {
          const int e = detail::entry_of_code(rest % kCodes % 11) | (rest % kCodes / 11) << 5;
          entries |= static_cast<std::uint32_t>(e) << (8 * d);
          sum += t.entry_info[e];
        }
        int expected_value = 0, got_value = 0;
        const std::uint16_t expected =
            detail::summarise_valued(sum, t, mode, capture_weight, expected_value);
        const std::uint16_t got =
            detail::summarise_direct(entries, tables, capture_weight, got_value);
        ASSERT_EQ(got, expected) << rule_name(r) << " mode " << mode << " entries " << entries;
        ASSERT_EQ(got_value, expected_value) << rule_name(r) << " mode " << mode << " " << entries;
        flagged += (got & 0x100) != 0;
        capturing += detail::summary_captures(got) != 0;
      }
      EXPECT_GT(capturing, 0);
      if (mode != detail::kPlain) {
        EXPECT_GT(flagged, 0) << rule_name(r) << " mode " << mode;
      }
    }
  }
}

TEST(GomokuTune, RecoversKnownWeightsOnSyntheticData) {
  const EvalWeights truth = synthetic_truth();
  const double k = 0.8;
  Rng rng(3);
  std::vector<TuneSample> data = synthetic_counts(rng, 2000);
  for (TuneSample& s : data)
    s.result = static_cast<float>(1 / (1 + std::exp(-k * linear_eval(s.x, truth) / 400)));
  const EvalWeights start = synthetic_start(truth);
  const auto r = tune(data, start, {.epochs = 6000, .learning_rate = 5, .k = k});
  EXPECT_LT(r.final_error, r.initial_error / 100);
  expect_recovered(r.weights, truth);
  // Fitting one group keeps the others as they started.
  EvalWeights partial = truth;
  partial.to_move = start.to_move;
  partial.pattern[2] = 12;  // not the truth, and not fitted
  partial.shape[5] = 77;    // not fitted either
  const auto q = tune(data, partial,
                      {.epochs = 2000,
                       .learning_rate = 5,
                       .k = k,
                       .fit_pattern = false,
                       .fit_combination = false,
                       .fit_shape = false});
  EXPECT_EQ(q.weights.pattern, partial.pattern);
  EXPECT_EQ(q.weights.combination, partial.combination);
  EXPECT_EQ(q.weights.shape, partial.shape);
  for (int i = 1; i < 10; ++i) EXPECT_NEAR(q.weights.to_move[i], truth.to_move[i], 10) << i;
  // fit_k finds the scale the data were drawn with.
  EXPECT_NEAR(fit_k(data, truth), k, 0.01);
}

// Scores as labels: the results carry no information (a fair coin), the search scores are a
// known linear evaluation. Fitted to the scores alone the tuner recovers those weights; fitted
// to the results alone it cannot, and a blend's target is the blend.
TEST(GomokuTune, RecoversKnownWeightsFromScores) {
  const EvalWeights truth = synthetic_truth();
  const double k = 0.8;
  Rng rng(11);
  std::vector<TuneSample> data = synthetic_counts(rng, 2000);
  for (TuneSample& s : data) {
    s.result = rng.below(2) ? 1.0f : 0.0f;
    s.score = static_cast<float>(linear_eval(s.x, truth));
  }
  const EvalWeights start = synthetic_start(truth);
  const auto r = tune(data, start, {.epochs = 6000, .learning_rate = 5, .k = k, .label_weight = 1});
  EXPECT_LT(r.final_error, r.initial_error / 100);
  expect_recovered(r.weights, truth);
  // The coin-flip results alone say nothing of the weights: that fit stays far off.
  const auto noise = tune(data, start, {.epochs = 500, .learning_rate = 5, .k = k});
  int far = 0;
  for (int i = 2; i < 9; ++i) far += std::abs(noise.weights.pattern[i] - truth.pattern[i]) > 10;
  EXPECT_GT(far, 3);
  // The target: the result without a score or without label weight, else the blend.
  TuneSample plain = data[0];
  plain.score = std::nanf("");
  EXPECT_EQ(tune_target(plain, k, 0.5), plain.result);
  EXPECT_EQ(tune_target(data[0], k, 0), data[0].result);
  const double p = 1 / (1 + std::exp(-k * data[0].score / 400));
  EXPECT_NEAR(tune_target(data[0], k, 0.25), 0.75 * data[0].result + 0.25 * p, 1e-9);
}

// With a parent share the evaluation blends each sample's parent counts into its own: the
// tuner, which keeps the share as the starting weights give it, recovers the weights that
// drew the results, and a fit that ignores the parents does not fit as well.
TEST(GomokuTune, RecoversKnownWeightsWithAParentShare) {
  EvalWeights truth = synthetic_truth();
  truth.parent_share = 40;
  const double k = 0.8;
  Rng rng(12);
  std::vector<TuneSample> data = synthetic_counts(rng, 2000);
  for (TuneSample& s : data) {
    for (int f = 0; f < kEvalFeatures - 1; ++f)
      if (f < kToMoveFeature || f >= kShapeFeature)
        s.parent[f] = static_cast<std::int16_t>(static_cast<int>(rng.below(7)) - 3);
    s.result = static_cast<float>(1 / (1 + std::exp(-k * linear_eval(s, truth) / 400)));
  }
  EvalWeights start = synthetic_start(truth);
  const auto r = tune(data, start, {.epochs = 6000, .learning_rate = 5, .k = k});
  EXPECT_EQ(r.weights.parent_share, 40);
  EXPECT_LT(r.final_error, r.initial_error / 100);
  expect_recovered(r.weights, truth);
  start.parent_share = 0;
  const auto blind = tune(data, start, {.epochs = 6000, .learning_rate = 5, .k = k});
  EXPECT_GT(blind.final_error, 10 * r.final_error);
}

// A labeller sees each sampled position once, in game order: here the static evaluation,
// which on a quiet position equals the linear evaluation of the sample's counts.
TEST(GomokuTune, LabellerScoresEverySample) {
  const std::string log =
      "{\"board\": 15, \"rule\": 0, \"opening\": \"h8i9\", \"moves\": \"h7i7g9g8j6k5\", "
      "\"result\": \"0-1\"}\n";
  int calls = 0;
  const SampleLabeler label = [&](const Position& p) {
    ++calls;
    return static_cast<double>(p.evaluate());
  };
  std::vector<TuneSample> plain, labelled;
  std::size_t games = 0;
  ASSERT_TRUE(read_games_log(log, Rule::kFreestyle, 0, plain, games));
  ASSERT_TRUE(read_games_log(log, Rule::kFreestyle, 0, labelled, games, &label));
  ASSERT_GT(labelled.size(), 3u);
  ASSERT_EQ(labelled.size(), plain.size());
  EXPECT_EQ(calls, static_cast<int>(labelled.size()));
  const EvalWeights& w = builtin_eval_weights(Rule::kFreestyle);
  for (std::size_t i = 0; i < labelled.size(); ++i) {
    EXPECT_TRUE(std::isnan(plain[i].score));
    EXPECT_EQ(labelled[i].x, plain[i].x);
    EXPECT_EQ(labelled[i].result, plain[i].result);
    EXPECT_EQ(labelled[i].parent, plain[i].parent);
    EXPECT_NEAR(labelled[i].score, linear_eval(labelled[i], w), 1.0) << i;
  }
}

}  // namespace
}  // namespace kibitz::gomoku
