// Compile-time tests of every concept in api/concepts.hpp: a type with the capability
// satisfies it, and a type missing one piece does not.
#include <gtest/gtest.h>

#include <span>

#include "api/concepts.hpp"
#include "games/chess/position.hpp"
#include "support/tictactoe.hpp"

namespace kibitz {
namespace {

using testing::TicTacToe;

// A minimal sequential game; the variants below add or break one capability each.
struct Base {
  using Move = int;
  static constexpr std::size_t kMaxMoves = 4;
  static constexpr int kMaxPlayers = 2;
  int current_player() const { return 0; }
  bool is_terminal() const { return true; }
  std::array<double, 2> returns() const { return {0, 0}; }
  std::size_t legal_moves(FixedVector<int, 4>&) const { return 0; }
  void apply(int) {}
  std::uint64_t hash() const { return 0; }
};
struct ZeroSum : Base {
  static constexpr bool kZeroSum = true;
};
struct GeneralSum : Base {
  static constexpr bool kZeroSum = false;
};
struct ThreePlayers : ZeroSum {
  static constexpr int kMaxPlayers = 3;
  std::array<double, 3> returns() const { return {0, 0, 0}; }
};
struct NoHash : Base {
  void hash() const {}
};
struct MoveNotTrivial : Base {
  struct Move {
    Move() = default;
    Move(const Move&) {}
    bool operator==(const Move&) const = default;
  };
};
struct WithUndo : Base {
  struct Undo {};
  void make(int, Undo&) {}
  void unmake(int, Undo&) {}
};
struct UndoWithoutUnmake : Base {
  struct Undo {};
  void make(int, Undo&) {}
};
struct WithEval : Base {
  int evaluate() const { return 0; }
};
struct WithNull : WithUndo {
  void make_null(Undo&) {}
  void unmake_null(Undo&) {}
  bool in_check() const { return false; }
};
struct NullWithoutCheck : WithUndo {
  void make_null(Undo&) {}
  void unmake_null(Undo&) {}
};
struct WithSymmetry : Base {
  static constexpr int kNumSymmetries = 8;
  std::uint64_t sym_hash() const { return 0; }
};
struct SymmetryWithoutCount : Base {
  std::uint64_t sym_hash() const { return 0; }
};
struct ThreatsWithoutWinQueries : WithUndo {
  std::size_t four_moves(FixedVector<int, 4>&) const { return 0; }
  std::size_t threat_moves(FixedVector<int, 4>&) const { return 0; }
  std::size_t defence_moves(FixedVector<int, 4>&) const { return 0; }
};
struct WithThreats : ThreatsWithoutWinQueries {
  int winning_move() const { return 0; }
  bool opponent_can_win() const { return false; }
  int winner() const { return -1; }
};
struct WithChance : Base {
  bool is_chance_node() const { return false; }
  std::size_t chance_outcomes(FixedVector<int, 4>&, double*) const { return 0; }
};
struct WithHiddenInfo : Base {
  using InfoState = std::uint64_t;
  InfoState information_state(int) const { return 0; }
  WithHiddenInfo sample_world(int, Rng&) const { return *this; }
};
struct HiddenInfoWithoutSampler : Base {
  using InfoState = std::uint64_t;
  InfoState information_state(int) const { return 0; }
};
struct WithJointActions : Base {
  std::size_t legal_actions(int, FixedVector<int, 4>&) const { return 0; }
  void apply_joint(std::span<const int>) {}
};

TEST(Concepts, Game) {
  static_assert(Game<Base>);
  static_assert(!Game<NoHash>);
  static_assert(!Game<MoveNotTrivial>);
  static_assert(!Game<int>);
  static_assert(Game<TicTacToe>);
  static_assert(Game<chess::Position>);
}

TEST(Concepts, TwoPlayerZeroSum) {
  static_assert(TwoPlayerZeroSum<ZeroSum>);
  static_assert(!TwoPlayerZeroSum<Base>);  // no kZeroSum declared
  static_assert(!TwoPlayerZeroSum<GeneralSum>);
  static_assert(!TwoPlayerZeroSum<ThreePlayers>);
  static_assert(TwoPlayerZeroSum<chess::Position>);
}

TEST(Concepts, Undoable) {
  static_assert(Undoable<WithUndo>);
  static_assert(!Undoable<UndoWithoutUnmake>);
  static_assert(!Undoable<Base>);
  static_assert(Undoable<chess::Position>);
}

TEST(Concepts, HasEval) {
  static_assert(HasEval<WithEval>);
  static_assert(!HasEval<Base>);
}

TEST(Concepts, HasNullMove) {
  static_assert(HasNullMove<WithNull>);
  static_assert(!HasNullMove<NullWithoutCheck>);
  static_assert(!HasNullMove<WithUndo>);
  static_assert(HasNullMove<chess::Position>);
}

TEST(Concepts, Symmetric) {
  static_assert(Symmetric<WithSymmetry>);
  static_assert(!Symmetric<SymmetryWithoutCount>);
  static_assert(!Symmetric<chess::Position>);
}

TEST(Concepts, ThreatGame) {
  static_assert(ThreatGame<WithThreats>);
  static_assert(!ThreatGame<ThreatsWithoutWinQueries>);
  static_assert(!ThreatGame<Base>);
}

TEST(Concepts, Stochastic) {
  static_assert(Stochastic<WithChance>);
  static_assert(!Stochastic<Base>);
}

TEST(Concepts, ImperfectInfo) {
  static_assert(ImperfectInfo<WithHiddenInfo>);
  static_assert(!ImperfectInfo<HiddenInfoWithoutSampler>);
  static_assert(!ImperfectInfo<chess::Position>);
}

TEST(Concepts, Simultaneous) {
  static_assert(Simultaneous<WithJointActions>);
  static_assert(!Simultaneous<Base>);
}

}  // namespace
}  // namespace kibitz
