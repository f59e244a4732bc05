// The generic threat-space search on m,n,k-games (k in a row on an n x n board), where every
// answer can be checked by brute-force minimax: a proven VCF / VCT win must be a real win, its
// first move must keep the win, and positions with a fork must be found.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <unordered_map>

#include "core/rng.hpp"
#include "core/zobrist.hpp"
#include "search/threat/proof_number_search.hpp"
#include "search/threat/threat_search.hpp"

namespace kibitz::search {
namespace {

// Guess: the game offers answers_estimate(), a deliberately poor guess of a threat's answers,
// which the proof-number search then uses as first proof numbers; its answers must not change.
template <int N, int K, bool Guess = false>
class Mnk {
 public:
  struct Move {
    std::uint16_t v = 0;  // cell + 1
    static constexpr Move none() { return Move{}; }
    constexpr explicit operator bool() const { return v != 0; }
    friend constexpr bool operator==(Move, Move) = default;
  };
  struct Undo {};
  static constexpr std::size_t kMaxMoves = N * N;
  static constexpr int kMaxPlayers = 2;
  static constexpr bool kZeroSum = true;

  int current_player() const { return is_terminal() ? kTerminalPlayer : turn_; }
  bool is_terminal() const { return winner_ >= 0 || filled_ == N * N; }
  Returns<Mnk> returns() const {
    if (winner_ < 0) return {0.0, 0.0};
    return winner_ == 0 ? Returns<Mnk>{1.0, -1.0} : Returns<Mnk>{-1.0, 1.0};
  }
  std::size_t legal_moves(MoveList<Mnk>& out) const {
    out.clear();
    if (is_terminal()) return 0;
    for (int c = 0; c < N * N; ++c)
      if (cells_[c] < 0) out.push_back(Move{static_cast<std::uint16_t>(c + 1)});
    return out.size();
  }
  void apply(Move m) {
    Undo u;
    make(m, u);
  }
  void make(Move m, Undo&) {
    const int c = m.v - 1;
    cells_[c] = static_cast<std::int8_t>(turn_);
    key_ ^= kKeys[c * 2 + turn_];
    if (completes(c, turn_)) winner_ = turn_;
    turn_ ^= 1;
    key_ ^= kKeys[2 * N * N];
    ++filled_;
  }
  void unmake(Move m, const Undo&) {
    const int c = m.v - 1;
    turn_ ^= 1;
    key_ ^= kKeys[2 * N * N];
    key_ ^= kKeys[c * 2 + turn_];
    cells_[c] = -1;
    winner_ = -1;  // positions are only made from non-terminal ones
    --filled_;
  }
  std::uint64_t hash() const { return key_; }
  int winner() const { return winner_; }

  // ThreatGame: with K in a row, a "four" is a move after which the mover has a completing
  // point; there is no weaker threat, so threat_moves = four_moves.
  Move winning_move() const { return completing(turn_); }
  bool opponent_can_win() const { return static_cast<bool>(completing(turn_ ^ 1)); }
  std::size_t four_moves(MoveList<Mnk>& out) const {
    out.clear();
    for (int c = 0; c < N * N; ++c) {
      if (cells_[c] >= 0) continue;
      Mnk t = *this;
      t.cells_[c] = static_cast<std::int8_t>(turn_);
      if (t.completing(turn_)) out.push_back(Move{static_cast<std::uint16_t>(c + 1)});
    }
    return out.size();
  }
  std::size_t threat_moves(MoveList<Mnk>& out) const { return four_moves(out); }
  int answers_estimate(Move m) const requires Guess { return 1 + m.v % 3; }
  std::size_t defence_moves(MoveList<Mnk>& out) const {
    out.clear();
    for (int c = 0; c < N * N; ++c)
      if (cells_[c] < 0 && completes_if_placed(c, turn_ ^ 1))
        out.push_back(Move{static_cast<std::uint16_t>(c + 1)});
    return out.size();
  }

 private:
  bool completes(int c, int who) const {
    const int x = c % N, y = c / N;
    static constexpr int kD[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
    for (const auto& d : kD) {
      int run = 1;
      for (int s : {1, -1})
        for (int i = 1; i < K; ++i) {
          const int xx = x + s * i * d[0], yy = y + s * i * d[1];
          if (xx < 0 || yy < 0 || xx >= N || yy >= N || cells_[yy * N + xx] != who) break;
          ++run;
        }
      if (run >= K) return true;
    }
    return false;
  }
  bool completes_if_placed(int c, int who) const { return completes(c, who); }
  Move completing(int who) const {
    for (int c = 0; c < N * N; ++c)
      if (cells_[c] < 0 && completes(c, who)) return Move{static_cast<std::uint16_t>(c + 1)};
    return Move::none();
  }

  static constexpr ZobristTable<2 * N * N + 1> kKeys{0x3A3Aull};
  std::array<std::int8_t, N* N> cells_ = [] {
    std::array<std::int8_t, N * N> a{};
    a.fill(-1);
    return a;
  }();
  int turn_ = 0;
  int filled_ = 0;
  int winner_ = -1;
  std::uint64_t key_ = 0;
};

// Minimax value for the side to move: +1 win, 0 draw, -1 loss (memoised by hash).
template <class G>
int solve(G& s, std::unordered_map<std::uint64_t, int>& memo) {
  if (s.is_terminal()) return s.winner() < 0 ? 0 : -1;  // the mover just won
  if (auto it = memo.find(s.hash()); it != memo.end()) return it->second;
  MoveList<G> moves;
  s.legal_moves(moves);
  int best = -1;
  for (auto m : moves) {
    typename G::Undo u;
    s.make(m, u);
    best = std::max(best, -solve(s, memo));
    s.unmake(m, u);
    if (best == 1) break;
  }
  memo[s.hash()] = best;
  return best;
}

// A position after fewer than `max_plies` random moves, stopping before any move that would end
// the game.
template <class G>
G random_position(Rng& rng, std::uint64_t max_plies) {
  G s;
  const int plies = static_cast<int>(rng.below(max_plies));
  for (int i = 0; i < plies && !s.is_terminal(); ++i) {
    MoveList<G> moves;
    s.legal_moves(moves);
    G t = s;
    t.apply(moves[rng.below(moves.size())]);
    if (t.is_terminal()) break;
    s = t;
  }
  return s;
}

template <class G, template <class> class Search = ThreatSearch>
void check_random_positions(int positions, std::uint64_t seed, int& wins_found) {
  Rng rng(seed);
  std::unordered_map<std::uint64_t, int> memo;
  Search<G> search(12);
  for (int p = 0; p < positions; ++p) {
    G s = random_position<G>(rng, G::kMaxMoves - 2);
    if (s.is_terminal()) continue;
    for (auto kind : {ThreatKind::kVcf, ThreatKind::kVct}) {
      const auto r = search.solve(s, kind, {.max_depth = 8});
      if (!r.win) continue;
      ++wins_found;
      ASSERT_EQ(solve(s, memo), 1) << "a claimed threat win is not a win";
      G after = s;
      after.apply(r.move);
      ASSERT_TRUE(after.is_terminal() ? after.winner() == s.current_player()
                                      : solve(after, memo) == -1)
          << "the first move of the claimed win does not keep it";
      ASSERT_FALSE(r.line.empty());
      EXPECT_EQ(r.line[0], r.move);
    }
  }
}

TEST(ThreatSearch, ClaimedWinsAreRealOnTicTacToe) {
  int found = 0;
  check_random_positions<Mnk<3, 3>>(400, 1, found);
  EXPECT_GT(found, 20);
}

TEST(ThreatSearch, ClaimedWinsAreRealOnFourByFourThreeInARow) {
  int found = 0;
  check_random_positions<Mnk<4, 3>>(300, 2, found);
  EXPECT_GT(found, 50);
}

TEST(ProofNumberSearch, ClaimedWinsAreRealOnTicTacToe) {
  int found = 0;
  check_random_positions<Mnk<3, 3>, ProofNumberSearch>(400, 1, found);
  EXPECT_GT(found, 20);
}

TEST(ProofNumberSearch, ClaimedWinsAreRealOnFourByFourThreeInARow) {
  int found = 0;
  check_random_positions<Mnk<4, 3>, ProofNumberSearch>(300, 2, found);
  EXPECT_GT(found, 50);
}

// Both searches are complete within the depth cap: on random positions (5x5, four in a row,
// where threat lines run several moves) each proves exactly the wins the other proves, and
// the proof-number search's table, kept across solves, changes no answer.
template <class T>
void check_agreement() {
  Rng rng(7);
  ThreatSearch<T> id(14);
  ProofNumberSearch<T> pn(14);
  int wins = 0, compared = 0;
  for (int p = 0; p < 300; ++p) {
    T s = random_position<T>(rng, 14);
    if (s.is_terminal()) continue;
    for (auto kind : {ThreatKind::kVcf, ThreatKind::kVct}) {
      const auto a = id.solve(s, kind, {.max_depth = 12});
      const auto b = pn.solve(s, kind, {.max_depth = 12});
      ASSERT_FALSE(a.aborted || b.aborted);
      ASSERT_EQ(a.win, b.win) << "position " << p << " kind " << static_cast<int>(kind);
      ++compared;
      if (!b.win) continue;
      ++wins;
      ASSERT_FALSE(b.line.empty());
      EXPECT_EQ(b.line[0], b.move);
      // The line ends in the attacker's win when replayed.
      T r = s;
      for (auto m : b.line) r.apply(m);
      EXPECT_TRUE(r.is_terminal() && r.winner() == s.current_player());
    }
  }
  EXPECT_GT(compared, 400);
  EXPECT_GT(wins, 30);
}

TEST(ProofNumberSearch, AgreesWithIterativeDeepening) { check_agreement<Mnk<5, 4>>(); }

// The same with first proof numbers guessed instead of counted.
TEST(ProofNumberSearch, AgreesWithIterativeDeepeningOnGuessedNumbers) {
  check_agreement<Mnk<5, 4, true>>();
}

TEST(ProofNumberSearch, ClaimedWinsAreRealOnGuessedNumbers) {
  int found = 0;
  check_random_positions<Mnk<4, 3, true>, ProofNumberSearch>(300, 2, found);
  EXPECT_GT(found, 50);
}

TEST(ProofNumberSearch, FindsAForkAndStopsAtItsLimits) {
  using T = Mnk<3, 3>;
  T s;
  for (int c : {0, 4, 8, 2}) s.apply(T::Move{static_cast<std::uint16_t>(c + 1)});
  ProofNumberSearch<T> search(10);
  const auto r = search.solve(s, ThreatKind::kVcf, {.max_depth = 4});
  ASSERT_TRUE(r.win);
  EXPECT_EQ(r.move.v - 1, 6);
  EXPECT_GE(r.line.size(), 3u);
  Mnk<4, 3> t;
  t.apply(Mnk<4, 3>::Move{6});
  ProofNumberSearch<Mnk<4, 3>> small(10);
  const auto limited = small.solve(t, ThreatKind::kVct, {.max_depth = 6, .max_nodes = 3});
  EXPECT_LE(limited.nodes, 10u);
}

TEST(ThreatSearch, FindsAFork) {
  // 3x3: X at 0 and 8, O at 4 and 2... X to move plays 6: threatens 3 (0-3-6) and 7 (6-7-8).
  using T = Mnk<3, 3>;
  T s;
  for (int c : {0, 4, 8, 2}) s.apply(T::Move{static_cast<std::uint16_t>(c + 1)});
  // O threatens 6 (2-4-6): X must block at 6, which is also the fork.
  ThreatSearch<T> search(10);
  const auto r = search.solve(s, ThreatKind::kVcf, {.max_depth = 4});
  ASSERT_TRUE(r.win);
  EXPECT_EQ(r.move.v - 1, 6);
  EXPECT_GE(r.line.size(), 3u);  // block-fork, a defence, the win
}

TEST(ThreatSearch, NoWinFromTheStartAndLimitsAbort) {
  Mnk<4, 3> s;
  ThreatSearch<Mnk<4, 3>> search(10);
  const auto r = search.solve(s, ThreatKind::kVcf, {.max_depth = 6});
  EXPECT_FALSE(r.win);  // no forcing sequence exists before any stone is down
  Mnk<4, 3> t;
  t.apply(Mnk<4, 3>::Move{6});
  const auto limited = search.solve(t, ThreatKind::kVct, {.max_depth = 6, .max_nodes = 3});
  EXPECT_LE(limited.nodes, 10u);
}

}  // namespace
}  // namespace kibitz::search
