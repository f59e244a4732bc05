// The MCTS leaf is a seam: an evaluator with a value head (here tic-tac-toe's exact minimax
// value, computed by brute force) replaces the playouts and plays nothing (RAVE stays off);
// its priors shape the tree; each thread has its own copy; and the default playout
// evaluator keeps the search as it was (the Go bench signature).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <span>
#include <vector>

#include "search/mcts/mcts_impl.hpp"
#include "support/tictactoe.hpp"

namespace kibitz::search::evaluator_test {
namespace {

using kibitz::testing::TicTacToe;

TicTacToe ttt(std::initializer_list<int> moves) {
  TicTacToe s;
  for (const int m : moves) s.apply(static_cast<TicTacToe::Move>(m));
  return s;
}

// The game-theoretic value for the player to move: +1, 0, -1.
int minimax(const TicTacToe& s) {
  if (s.is_terminal()) {
    const int w = s.winner();
    return w < 0 ? 0 : -1;  // a finished game was won by the player who moved last
  }
  MoveList<TicTacToe> moves;
  s.legal_moves(moves);
  int best = -2;
  for (auto m : moves) {
    TicTacToe c = s;
    c.apply(m);
    best = std::max(best, c.is_terminal() ? (c.winner() < 0 ? 0 : 1) : -minimax(c));
  }
  return best;
}

struct Calls {
  std::atomic<int> values{0}, priors{0};
};

// A value head: the exact value, no playout. Optional priors: all weight on one cell.
struct OracleEval {
  static constexpr bool kPlayout = false;
  std::shared_ptr<Calls> calls;
  int favourite = -1;
  Returns<TicTacToe> value(TicTacToe& s, Rng&, PlayoutLog<TicTacToe>&) {
    ++calls->values;
    const double v = minimax(s);
    return s.current_player() == 0 ? Returns<TicTacToe>{v, -v} : Returns<TicTacToe>{-v, v};
  }
  void priors(const TicTacToe&, std::span<const TicTacToe::Move> moves, std::span<float> out) {
    ++calls->priors;
    for (std::size_t i = 0; i < moves.size(); ++i)
      out[i] = favourite < 0 ? 1.0f : (moves[i] == favourite ? 1.0f : 0.0f);
  }
};
static_assert(MctsEvaluator<OracleEval, TicTacToe>);
static_assert(MctsEvaluator<PlayoutEval<TicTacToe>, TicTacToe>);

MctsOptions with_playouts(std::uint64_t n) {
  MctsOptions o;
  o.max_playouts = n;
  o.max_nodes = 1 << 16;
  return o;
}

// Cells:  0 1 2 / 3 4 5 / 6 7 8.
TEST(MctsEvaluator, AValueHeadReplacesThePlayouts) {
  auto calls = std::make_shared<Calls>();
  // X: 0 1, O: 3 4, X to move: 2 wins. O to move after X 0 1 / O 3: O must block at 2.
  Mcts<TicTacToe, OracleEval> win(ttt({0, 3, 1, 4}), with_playouts(200), OracleEval{calls});
  const auto r = win.search();
  EXPECT_EQ(r.best, 2);
  EXPECT_GT(r.value, 0.9);
  // One value per simulation that did not end on a finished game; no playout, so no AMAF.
  EXPECT_GT(calls->values.load(), 0);
  EXPECT_LE(calls->values.load(), 200);
  EXPECT_GT(calls->priors.load(), 0);
  for (const auto& m : r.moves) EXPECT_EQ(m.amaf_visits, 0);

  Mcts<TicTacToe, OracleEval> block(ttt({0, 3, 1}), with_playouts(300), OracleEval{calls});
  EXPECT_EQ(block.search().best, 2);
}

TEST(MctsEvaluator, PriorsShapeTheTree) {
  // From the empty board every move draws with best play: the visits follow the priors, and
  // a prior of 1 on cell 7 puts most of them there (uniform priors favour the centre).
  auto calls = std::make_shared<Calls>();
  Mcts<TicTacToe, OracleEval> m(TicTacToe{}, with_playouts(400), OracleEval{calls, 7});
  const auto r = m.search();
  EXPECT_EQ(r.best, 7);
  EXPECT_GT(r.moves.front().visits, 300);
}

TEST(MctsEvaluator, EveryThreadHasItsOwnCopy) {
  auto calls = std::make_shared<Calls>();
  MctsOptions o = with_playouts(2000);
  o.threads = 2;
  Mcts<TicTacToe, OracleEval> m(ttt({0, 3, 1}), o, OracleEval{calls});
  const auto r = m.search();
  EXPECT_EQ(r.best, 2);
  EXPECT_EQ(r.playouts, 2000u);
  EXPECT_GT(calls->values.load(), 0);
}

// The same value head in batches: values() gets up to kBatch leaves at once, virtual loss
// spreads one thread's batch over different leaves, every playout is evaluated exactly once,
// and the search still finds the win and the block (and is the same every run).
struct BatchCalls {
  std::atomic<int> batches{0}, leaves{0}, largest{0};
};
struct BatchOracleEval {
  static constexpr bool kPlayout = false;
  static constexpr int kBatch = 8;
  std::shared_ptr<BatchCalls> calls;
  Returns<TicTacToe> value(TicTacToe& s, Rng& rng, PlayoutLog<TicTacToe>& log) {
    return OracleEval{std::make_shared<Calls>()}.value(s, rng, log);
  }
  void values(std::span<TicTacToe> leaves, std::span<Returns<TicTacToe>> out) {
    ++calls->batches;
    calls->leaves += static_cast<int>(leaves.size());
    calls->largest = std::max<int>(calls->largest, static_cast<int>(leaves.size()));
    Rng rng;
    std::vector<TicTacToe::Move> seq;
    std::vector<std::uint8_t> players;
    PlayoutLog<TicTacToe> log{&seq, &players};
    for (std::size_t i = 0; i < leaves.size(); ++i) out[i] = value(leaves[i], rng, log);
  }
};
static_assert(BatchEvaluator<BatchOracleEval, TicTacToe>);
static_assert(!BatchEvaluator<OracleEval, TicTacToe>);

TEST(MctsEvaluator, ABatchEvaluatorGetsItsLeavesTogether) {
  auto calls = std::make_shared<BatchCalls>();
  Mcts<TicTacToe, BatchOracleEval> win(ttt({0, 3, 1, 4}), with_playouts(203),
                                       BatchOracleEval{calls});
  const auto r = win.search();
  EXPECT_EQ(r.best, 2);
  EXPECT_EQ(r.playouts, 203u);
  EXPECT_EQ(win.root_visits(), 203u);
  // 25 batches of 8 simulations and one of 3; the leaves that are finished games need no
  // evaluation, so a batch holds at most 8 leaves.
  EXPECT_LE(calls->largest.load(), 8);
  EXPECT_GE(calls->largest.load(), 2);
  EXPECT_GT(calls->batches.load(), 1);
  EXPECT_LE(calls->leaves.load(), 203);
  EXPECT_GT(calls->leaves.load(), calls->batches.load());  // batches of more than one leaf

  // From the empty board no leaf is a finished game: 8 leaves a batch, 8 batches.
  auto open_calls = std::make_shared<BatchCalls>();
  Mcts<TicTacToe, BatchOracleEval> open(TicTacToe{}, with_playouts(64),
                                        BatchOracleEval{open_calls});
  open.search();
  EXPECT_EQ(open_calls->batches.load(), 8);
  EXPECT_EQ(open_calls->leaves.load(), 64);
  EXPECT_EQ(open_calls->largest.load(), 8);

  auto again = std::make_shared<BatchCalls>();
  Mcts<TicTacToe, BatchOracleEval> same(ttt({0, 3, 1, 4}), with_playouts(203),
                                        BatchOracleEval{again});
  const auto r2 = same.search();
  ASSERT_EQ(r2.moves.size(), r.moves.size());
  for (std::size_t i = 0; i < r.moves.size(); ++i) EXPECT_EQ(r2.moves[i].visits, r.moves[i].visits);

  Mcts<TicTacToe, BatchOracleEval> block(ttt({0, 3, 1}), with_playouts(300),
                                         BatchOracleEval{calls});
  EXPECT_EQ(block.search().best, 2);
  MctsOptions two = with_playouts(1000);
  two.threads = 2;
  Mcts<TicTacToe, BatchOracleEval> threads(ttt({0, 3, 1}), two, BatchOracleEval{calls});
  const auto rt = threads.search();
  EXPECT_EQ(rt.best, 2);
  EXPECT_EQ(rt.playouts, 1000u);
  // After the search no simulation is in flight: the virtual loss was all taken back.
  for (const auto& n : threads.nodes()) EXPECT_EQ(n.in_flight, 0u);
}

}  // namespace
}  // namespace kibitz::search::evaluator_test
