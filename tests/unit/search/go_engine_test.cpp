// The Go engine's bench positions and a bench run's figures.
#include <gtest/gtest.h>

#include "core/text.hpp"
#include "engine/go_engine.hpp"

namespace kibitz::engine {
namespace {

// Every bench position replays legally and leaves a game in progress: both sizes, an empty
// board and a middle game of each.
TEST(GoEngineBench, PositionsReplayAsGamesInProgress) {
  int middle_games = 0;
  for (const GoBenchPosition& b : go_bench_positions()) {
    go::Position p(go::Rules{.size = b.size});
    for (const auto& word : split_blanks(b.moves)) {
      const auto m = go::parse_vertex(word, b.size);
      ASSERT_TRUE(m) << word << ": " << m.error().message;
      ASSERT_TRUE(p.is_legal(*m)) << b.size << "x" << b.size << ": " << word;
      p.apply(*m);
    }
    EXPECT_FALSE(p.is_terminal());
    middle_games += p.stones_on_board() > 0;
  }
  EXPECT_EQ(middle_games, 2);
}

// A small bench: the playouts asked for, and the same tree on a second run.
TEST(GoEngineBench, DeterministicWithOneThread) {
  BenchOptions o;
  o.playouts = 200;
  const BenchReport a = run_go_bench(o);
  const BenchReport b = run_go_bench(o);
  ASSERT_EQ(a.positions.size(), go_bench_positions().size());
  EXPECT_EQ(a.nodes, 200 * a.positions.size());
  EXPECT_GT(a.signature, a.nodes);  // each expansion adds all legal moves
  EXPECT_EQ(a.signature, b.signature);
  for (std::size_t i = 0; i < a.positions.size(); ++i)
    EXPECT_EQ(a.positions[i].best, b.positions[i].best);
}

// Plays n moves on the even rows (odd rows stay empty, so nothing is ever captured).
void play_moves(go::Position& p, int n) {
  for (int y = 0, played = 0; y < p.size() && played < n; y += 2)
    for (int x = 0; x < p.size() && played < n; ++x)
      if (const go::Move m = go::Move::at(x, y); p.is_legal(m)) {
        p.apply(m);
        ++played;
      }
}

// Linear dynamic komi: 7 points a handicap stone against the side that got them at the
// start, back to the real komi by move 200 on 19x19 (scaled by the board's area).
TEST(GoEngineDynamicKomi, StartsAgainstTheHandicapAndComesBack) {
  go::Position p(go::Rules{.size = 19, .komi = 0.5});
  ASSERT_TRUE(p.set_fixed_handicap(4));  // white to move
  GoEngine engine;
  EXPECT_EQ(engine.search_komi(p), 0.5);  // an even game until told otherwise
  engine.set_handicap(4);
  EXPECT_EQ(engine.search_komi(p), 0.5 - 28);  // white gives four stones: komi for white
  go::Position q = p;
  q.apply(go::Move::at(9, 9));                 // black to move at move 1
  EXPECT_EQ(engine.search_komi(q), 0.5 + 28);  // black must win by more than the stones
  play_moves(q, 99);
  ASSERT_EQ(q.moves_played(), 100);
  EXPECT_EQ(engine.search_komi(q), 0.5 - 14);  // half way, white to move
  GoEngine off(GoEngineOptions{.dynamic_komi = false});
  off.set_handicap(4);
  EXPECT_EQ(off.search_komi(p), 0.5);
  // 9x9: back to the real komi by move 200 * 81 / 361 (about 45).
  go::Position small(go::Rules{.size = 9, .komi = 0.5});
  ASSERT_TRUE(small.set_fixed_handicap(2));
  engine.set_handicap(2);
  EXPECT_EQ(engine.search_komi(small), 0.5 - 14);
  play_moves(small, 40);
  EXPECT_NE(engine.search_komi(small), 0.5);
  play_moves(small, 3);
  small.apply(go::Move::pass());
  small.apply(go::Move::at(4, 1));
  ASSERT_EQ(small.moves_played(), 45);
  EXPECT_EQ(engine.search_komi(small), 0.5);
}

// A lost position: black's wall of three rows across the middle of the 9x9 board. The engine
// resigns only when its previous own move also looked lost.
TEST(GoEngineResign, OnlyOnTheSecondLostMoveInARow) {
  go::Position p(go::Rules{.size = 9, .komi = 0.5});
  for (int y = 3; y <= 5; ++y)
    for (int x = 0; x < 9; ++x) ASSERT_TRUE(p.place_stone(go::kBlack, go::point_of(x, y)));
  p.set_to_move(go::kWhite);
  GoEngine engine;
  engine.new_game(p.rules());
  const GoLimits limits{.visits = 2000};
  const GoDecision first = engine.genmove(p, limits);
  ASSERT_LT(first.value, 0.1);
  EXPECT_FALSE(first.move.is_resign());
  go::Position q = p;
  q.apply(first.move);
  q.apply(go::Move::pass());
  const GoDecision second = engine.genmove(q, limits);
  EXPECT_TRUE(second.move.is_resign());
  // At once when told so.
  GoEngine eager(GoEngineOptions{.resign_moves = 1});
  EXPECT_TRUE(eager.genmove(p, limits).move.is_resign());
}

// rave_k 0 turns RAVE off: no AMAF statistics are gathered; the default gathers them.
TEST(GoEngineRave, ZeroWeightGathersNoAmafStatistics) {
  const go::Position p(go::Rules{.size = 9, .komi = 7.5});
  const GoLimits limits{.visits = 300};
  const auto amaf_total = [&](double k) {
    GoEngine engine(GoEngineOptions{.rave_k = k});
    engine.new_game(p.rules());
    const GoDecision d = engine.genmove(p, limits);
    EXPECT_TRUE(d.move.is_point());
    long total = 0;
    for (const auto& m : d.result.moves) total += m.amaf_visits;
    return total;
  };
  EXPECT_EQ(amaf_total(0.0), 0);
  EXPECT_GT(amaf_total(GoEngineOptions{}.rave_k), 0);
}

// The engine's own tally of its clock when the controller sends no time_left.
TEST(GoEngineClock, ChargesSuddenDeathCanadianAndByoYomi) {
  GoClock none;
  charge_clock(none, 0, 5000);
  EXPECT_FALSE(none.left_known[0]);  // no time_settings: no clock

  GoClock sudden{.main_ms = 10000, .set = true};
  charge_clock(sudden, 0, 3000);
  EXPECT_TRUE(sudden.left_known[0]);
  EXPECT_FALSE(sudden.left_known[1]);  // each side its own clock
  EXPECT_EQ(sudden.left_ms[0], 7000);
  EXPECT_EQ(sudden.left_stones[0], 0);
  charge_clock(sudden, 0, 8000);
  EXPECT_EQ(sudden.left_ms[0], 0);  // flagged: nothing left, never negative

  // Canadian: 2 s main, then 3 stones in 3 s.
  GoClock canadian{.main_ms = 2000, .byo_ms = 3000, .byo_stones = 3, .set = true};
  charge_clock(canadian, 1, 1500);
  EXPECT_EQ(canadian.left_ms[1], 500);
  charge_clock(canadian, 1, 800);  // 300 ms into the first period, and its first stone
  EXPECT_EQ(canadian.left_ms[1], 2700);
  EXPECT_EQ(canadian.left_stones[1], 2);
  charge_clock(canadian, 1, 1000);
  EXPECT_EQ(canadian.left_ms[1], 1700);
  EXPECT_EQ(canadian.left_stones[1], 1);
  charge_clock(canadian, 1, 1000);  // the period's last stone: a fresh period
  EXPECT_EQ(canadian.left_ms[1], 3000);
  EXPECT_EQ(canadian.left_stones[1], 3);

  // Byo-yomi from the start, one stone a period: every move starts a fresh period.
  GoClock byo{.byo_ms = 2000, .byo_stones = 1, .set = true};
  charge_clock(byo, 0, 1500);
  EXPECT_EQ(byo.left_ms[0], 2000);
  EXPECT_EQ(byo.left_stones[0], 1);

  // GTP's "no time limit" (byo-yomi time, no stones) is left alone; a time_left is counted on.
  GoClock unlimited{.main_ms = 0, .byo_ms = 1000, .byo_stones = 0, .set = true};
  charge_clock(unlimited, 0, 1500);
  EXPECT_FALSE(unlimited.left_known[0]);
  GoClock told{.main_ms = 60000, .set = true};
  told.left_ms[0] = 5000;
  told.left_known[0] = true;
  charge_clock(told, 0, 1000);
  EXPECT_EQ(told.left_ms[0], 4000);
}

}  // namespace
}  // namespace kibitz::engine
