// The alpha-beta's evaluator seam is real: an evaluator with state of its own (a stack of
// material balances, kept from make / unmake notifications alone) sees every move the search
// makes and takes back, in order, on every thread; the leaf values come from it, not from the
// game; and the default evaluator searches the same tree as before (the bench signatures).
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "games/chess/notation.hpp"
#include "games/chess/position.hpp"
#include "games/chess/search_traits.hpp"
#include "search/alphabeta/alphabeta_impl.hpp"

namespace kibitz::testing {
namespace {

using chess::Position;

int material(const Position& p) {  // White's view, centipawns
  static constexpr int kValue[] = {100, 320, 330, 500, 900, 0};
  int v = 0;
  for (int t = chess::kPawn; t <= chess::kQueen; ++t)
    v += kValue[t] * (chess::popcount(p.pieces(chess::kWhite, static_cast<chess::PieceType>(t))) -
                      chess::popcount(p.pieces(chess::kBlack, static_cast<chess::PieceType>(t))));
  return v;
}

// Keeps the balance of every position on the search's path from the notifications: make
// learns the child's balance from the position before the move and the move, unmake pops.
// evaluate() checks the top against the balance counted on the board it is given.
struct Counters {
  std::uint64_t makes = 0, unmakes = 0, nulls = 0, evals = 0, mismatches = 0;
};
class MaterialStackEval {
 public:
  explicit MaterialStackEval(std::shared_ptr<Counters> c, int sign = 1)
      : counters_(std::move(c)), sign_(sign) {}
  void reset(const Position& s) { stack_.assign(1, material(s)); }
  void make(const Position& s, Position::Move m) {
    Position child = s;
    child.apply(m);
    stack_.push_back(material(child));
    ++counters_->makes;
  }
  void unmake(const Position& s, Position::Move) {
    stack_.pop_back();
    if (stack_.back() != material(s)) ++counters_->mismatches;
    ++counters_->unmakes;
  }
  void make_null(const Position&) {
    stack_.push_back(stack_.back());
    ++counters_->nulls;
  }
  void unmake_null(const Position&) { stack_.pop_back(); }
  int evaluate(const Position& s) {
    ++counters_->evals;
    if (stack_.back() != material(s)) ++counters_->mismatches;
    const int v = sign_ * stack_.back();
    return s.side_to_move() == chess::kWhite ? v : -v;
  }
  std::size_t depth() const { return stack_.size(); }

 private:
  std::shared_ptr<Counters> counters_;  // shared by the threads' copies (one thread here)
  int sign_;
  std::vector<int> stack_;
};
static_assert(search::AlphaBetaEvaluator<MaterialStackEval, Position>);
static_assert(search::AlphaBetaEvaluator<search::GameEval<Position>, Position>);

search::SearchResult<Position::Move> search_with(const Position& root, MaterialStackEval eval,
                                                 int depth) {
  search::TranspositionTable tt(4);
  search::ParallelSearch<Position, MaterialStackEval> ab(tt, search::SearchOptions{}, eval);
  TimeBudget budget;
  search::SearchLimits limits;
  limits.depth = depth;
  return ab.run(root, limits, budget);
}

TEST(EvaluatorSeam, EveryMakeAndUnmakeIsToldInOrder) {
  // "Kiwipete": captures, checks, castling, en passant and null moves to make.
  const auto root = *Position::from_fen(
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  auto c = std::make_shared<Counters>();
  search_with(root, MaterialStackEval(c), 6);
  EXPECT_GT(c->makes, 1000u);
  EXPECT_EQ(c->makes, c->unmakes);  // every move made was taken back
  EXPECT_GT(c->nulls, 0u);          // null-move pruning told it too
  EXPECT_GT(c->evals, 1000u);
  EXPECT_EQ(c->mismatches, 0u);  // the evaluator's own state always matched the board

  // Material alone finds the scholar's mate, Qxf7#.
  const auto mate = *Position::from_fen(
      "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
  const auto r = search_with(mate, MaterialStackEval(c), 3);
  EXPECT_EQ(chess::to_uci(r.best), "h5f7");
  EXPECT_GE(r.score, search::kMateBound);
  EXPECT_EQ(c->mismatches, 0u);
}

TEST(EvaluatorSeam, TheLeafValueIsTheEvaluators) {
  // White can take a loose queen. A material evaluator takes it; the same evaluator with its
  // sign turned (it likes losing material) does not, at every depth.
  const auto root = *Position::from_fen("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1");
  auto c = std::make_shared<Counters>();
  EXPECT_EQ(chess::to_uci(search_with(root, MaterialStackEval(c, 1), 4).best), "d2d5");
  for (int depth = 1; depth <= 4; ++depth) {
    SCOPED_TRACE(depth);
    EXPECT_NE(chess::to_uci(search_with(root, MaterialStackEval(c, -1), depth).best), "d2d5");
  }
  EXPECT_EQ(c->mismatches, 0u);
}

}  // namespace
}  // namespace kibitz::testing
