// The generic alpha-beta on a game it knows nothing about: tic-tac-toe through a 16-bit move
// wrapper. Every technique on or off, the search must return the exact game-theoretic value
// with the exact distance to the end (mate scores), as a brute-force minimax computes it.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>

#include "search/alphabeta/alphabeta_impl.hpp"
#include "support/tictactoe.hpp"

namespace kibitz::testing {
namespace {

// Tic-tac-toe with a 16-bit move whose all-zero pattern is "none" (cell + 1), plus a
// zero evaluation: what AlphaBetaGame asks of a game.
class T3 {
 public:
  struct Move {
    std::uint16_t v = 0;
    static constexpr Move none() { return {}; }
    explicit operator bool() const { return v != 0; }
    friend bool operator==(Move, Move) = default;
  };
  struct Undo {};
  static constexpr std::size_t kMaxMoves = 9;
  static constexpr int kMaxPlayers = 2;
  static constexpr bool kZeroSum = true;

  int current_player() const { return g_.current_player(); }
  bool is_terminal() const { return g_.is_terminal(); }
  Returns<T3> returns() const { return g_.returns(); }
  std::size_t legal_moves(MoveList<T3>& out) const {
    MoveList<TicTacToe> inner;
    g_.legal_moves(inner);
    out.clear();
    for (auto c : inner) out.push_back(Move{static_cast<std::uint16_t>(c + 1)});
    return out.size();
  }
  void apply(Move m) { g_.apply(static_cast<TicTacToe::Move>(m.v - 1)); }
  void make(Move m, Undo&) { apply(m); }
  void unmake(Move m, const Undo&) {
    TicTacToe::Undo u;
    g_.unmake(static_cast<TicTacToe::Move>(m.v - 1), u);
  }
  std::uint64_t hash() const { return g_.hash(); }
  int evaluate() const { return 0; }

 private:
  TicTacToe g_;
};
static_assert(search::AlphaBetaGame<T3>);

// Negamax with exact distances: a win n plies from the root scores kMate - n, as in the search.
int exact_value(T3& s, int ply, int root_player) {
  if (s.is_terminal()) {
    const auto r = s.returns();
    const int mover = (root_player + ply) & 1;
    if (r[mover] > 0) return search::mate_in(ply);
    if (r[mover] < 0) return search::mated_in(ply);
    return 0;
  }
  MoveList<T3> moves;
  s.legal_moves(moves);
  int best = -search::kInfinite;
  T3::Undo u;
  for (auto m : moves) {
    s.make(m, u);
    best = std::max(best, -exact_value(s, ply + 1, root_player));
    s.unmake(m, u);
  }
  return best;
}

search::SearchResult<T3::Move> search_with(const T3& root, const search::SearchOptions& o) {
  search::TranspositionTable tt(1);
  search::AlphaBeta<T3> ab(tt, o);
  TimeBudget budget;
  search::SearchLimits limits;
  limits.depth = 10;
  return ab.run(root, limits, budget);
}

TEST(AlphaBetaGeneric, ExactValueWithEveryTechniqueOnAndOff) {
  Rng rng(7);
  int checked = 0;
  for (int game = 0; game < 60; ++game) {
    T3 s;
    const int plies = static_cast<int>(rng.below(6));
    for (int i = 0; i < plies && !s.is_terminal(); ++i) {
      MoveList<T3> moves;
      s.legal_moves(moves);
      s.apply(moves[rng.below(moves.size())]);
    }
    if (s.is_terminal()) continue;
    T3 copy = s;
    const int expected = exact_value(copy, 0, s.current_player() & 1);
    for (const auto& o : {search::SearchOptions{}, search::SearchOptions::plain()}) {
      const auto r = search_with(s, o);
      EXPECT_EQ(r.score, expected) << "plies " << plies;
      // The best move achieves that value.
      T3 after = s;
      after.apply(r.best);
      EXPECT_EQ(-exact_value(after, 1, s.current_player() & 1), expected);
    }
    ++checked;
  }
  EXPECT_GT(checked, 40);
}

TEST(AlphaBetaGeneric, MultiPvLinesAreDistinctAndOrdered) {
  T3 s;
  search::SearchOptions o;
  o.multipv = 9;
  search::TranspositionTable tt(1);
  search::AlphaBeta<T3> ab(tt, o);
  TimeBudget budget;
  search::SearchLimits limits;
  limits.depth = 9;
  std::vector<std::pair<int, T3::Move>> last;  // (multipv, first move) of the final depth
  std::vector<int> scores;
  int final_depth = 0;
  search::InfoCallback<T3::Move> cb = [&](const search::PvInfo<T3::Move>& info) {
    if (info.depth != final_depth) {
      final_depth = info.depth;
      last.clear();
      scores.clear();
    }
    last.emplace_back(info.multipv, info.pv[0]);
    scores.push_back(info.score);
  };
  ab.run(s, limits, budget, {}, &cb);
  ASSERT_EQ(last.size(), 9u);
  for (std::size_t i = 0; i < last.size(); ++i) {
    EXPECT_EQ(last[i].first, static_cast<int>(i) + 1);
    for (std::size_t j = 0; j < i; ++j) EXPECT_FALSE(last[i].second == last[j].second);
    if (i > 0) {
      EXPECT_LE(scores[i], scores[i - 1]);
    }
    // Every first move of tic-tac-toe draws with best play.
    EXPECT_EQ(scores[i], 0);
  }
}

// A two-ply game tree written out: the root's first move looks best at depth 1 and loses at
// depth 2, where its second move is best. Node n's children and its static value for the
// side to move there.
class Tree {
 public:
  struct Move {
    std::uint16_t v = 0;  // child node + 1
    static constexpr Move none() { return {}; }
    explicit operator bool() const { return v != 0; }
    friend bool operator==(Move, Move) = default;
  };
  struct Undo {
    int from = 0;
  };
  static constexpr std::size_t kMaxMoves = 3;
  static constexpr int kMaxPlayers = 2;
  static constexpr bool kZeroSum = true;
  static constexpr int kA = 1, kB = 2, kC = 3;  // the root's moves, as child nodes

  int current_player() const { return ply_ & 1; }
  bool is_terminal() const { return false; }
  Returns<Tree> returns() const { return {0.0, 0.0}; }
  std::size_t legal_moves(MoveList<Tree>& out) const {
    out.clear();
    for (const int c : kChildren[node_])
      if (c) out.push_back(Move{static_cast<std::uint16_t>(c + 1)});
    return out.size();
  }
  void apply(Move m) {
    Undo u;
    make(m, u);
  }
  void make(Move m, Undo& u) {
    u.from = node_;
    node_ = m.v - 1;
    ++ply_;
  }
  void unmake(Move, const Undo& u) {
    node_ = u.from;
    --ply_;
  }
  std::uint64_t hash() const { return 0x9e37'79b9'7f4a'7c15ULL * (node_ + 1); }
  int evaluate() const { return kValue[node_]; }

 private:
  // a (node 1): +100 for the root's side at depth 1, then its reply (node 4) wins: -500;
  // b (node 2): +50, then at worst +40; c (node 3): 0, then 0.
  static constexpr std::array<std::array<int, 3>, 8> kChildren = {
      {{kA, kB, kC}, {4, 0, 0}, {5, 6, 0}, {7, 0, 0}, {}, {}, {}, {}}};
  static constexpr std::array<int, 8> kValue = {0, -100, -50, 0, -500, 40, 60, 0};
  int node_ = 0;
  int ply_ = 0;
};
static_assert(search::AlphaBetaGame<Tree>);

TEST(AlphaBetaGeneric, AnUnfinishedIterationPlaysTheMoveItProvedBetter) {
  // Every node limit: a search stopped inside depth 2 after b was searched there answers b
  // (the first move, a, lost at that depth), not depth 1's a. (Before, an unfinished
  // iteration was thrown away, and every stop inside depth 2 answered a.)
  bool partial_b = false;
  for (std::uint64_t n = 1; n <= 40; ++n) {
    search::SearchOptions o = search::SearchOptions::plain();
    o.pvs = true;
    search::TranspositionTable tt(1);
    search::AlphaBeta<Tree> ab(tt, o);
    TimeBudget budget;
    search::SearchLimits limits;
    limits.depth = 2;
    limits.nodes = n;
    const auto r = ab.run(Tree{}, limits, budget);
    const int best = r.best.v - 1;
    if (r.depth == 2) {
      EXPECT_EQ(best, Tree::kB) << "nodes " << n;
      EXPECT_EQ(r.score, 40);
    } else {
      ASSERT_EQ(r.depth, 1) << "nodes " << n;
      EXPECT_TRUE(best == Tree::kA || best == Tree::kB) << "nodes " << n;
      if (best == Tree::kB) {
        partial_b = true;
        EXPECT_EQ(r.score, 40);  // the new depth's score of b
      } else {
        // Depth 1's score, or depth 2's where the stop came between a and b.
        EXPECT_TRUE(r.score == 100 || r.score == -500) << "nodes " << n << ": " << r.score;
      }
    }
  }
  EXPECT_TRUE(partial_b) << "no node limit stopped depth 2 between b and its end";
}

TEST(TranspositionTable, ResizingToItsOwnSizeKeepsTheEntries) {
  // Gomocup sends max_memory every game: the same size must not reallocate (issue 22: the
  // 64 MB reallocation was charged to the first move of a suspended engine).
  search::TranspositionTable tt(2);
  tt.store(0x1234'5678'9abcULL, std::uint16_t{7}, 50, 10, 5, search::Bound::kExact);
  search::TTData d;
  ASSERT_TRUE(tt.probe(0x1234'5678'9abcULL, d));
  tt.resize(2);
  EXPECT_TRUE(tt.probe(0x1234'5678'9abcULL, d));
  EXPECT_EQ(d.score, 50);
  tt.resize(1);  // another size: a new, empty table
  EXPECT_EQ(tt.megabytes(), 1u);
  EXPECT_FALSE(tt.probe(0x1234'5678'9abcULL, d));
}

}  // namespace
}  // namespace kibitz::testing
