// The generic alpha-beta on a game it knows nothing about: tic-tac-toe through a 16-bit move
// wrapper. Every technique on or off, the search must return the exact game-theoretic value
// with the exact distance to the end (mate scores), as a brute-force minimax computes it.
#include <gtest/gtest.h>

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
