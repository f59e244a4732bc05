#pragma once
// Tic-tac-toe: the smallest complete Game, used to test the concepts and the conformance
// template against known answers (255,168 distinct games: 131,184 won by X, 77,904 by O,
// 46,080 drawn).
#include <array>
#include <cstdint>

#include "api/concepts.hpp"
#include "core/zobrist.hpp"

namespace kibitz::testing {

class TicTacToe {
 public:
  using Move = std::uint8_t;  // cell 0..8
  struct Undo {};
  static constexpr std::size_t kMaxMoves = 9;
  static constexpr int kMaxPlayers = 2;
  static constexpr bool kZeroSum = true;

  int current_player() const { return is_terminal() ? kTerminalPlayer : turn_; }
  bool is_terminal() const { return winner() >= 0 || filled_ == 9; }
  Returns<TicTacToe> returns() const {
    const int w = winner();
    if (w < 0) return {0.0, 0.0};
    return w == 0 ? Returns<TicTacToe>{1.0, -1.0} : Returns<TicTacToe>{-1.0, 1.0};
  }
  std::size_t legal_moves(MoveList<TicTacToe>& out) const {
    out.clear();
    if (is_terminal()) return 0;
    for (std::uint8_t c = 0; c < 9; ++c)
      if (cells_[c] < 0) out.push_back(c);
    return out.size();
  }
  void apply(Move m) {
    Undo u;
    make(m, u);
  }
  void make(Move m, Undo&) {
    cells_[m] = static_cast<std::int8_t>(turn_);
    key_ ^= kKeys[m * 2 + turn_];
    turn_ ^= 1;
    ++filled_;
  }
  void unmake(Move m, const Undo&) {
    turn_ ^= 1;
    key_ ^= kKeys[m * 2 + turn_];
    cells_[m] = -1;
    --filled_;
  }
  std::uint64_t hash() const { return key_; }
  std::uint64_t compute_hash() const {
    std::uint64_t k = 0;
    for (int c = 0; c < 9; ++c)
      if (cells_[c] >= 0) k ^= kKeys[c * 2 + cells_[c]];
    return k;
  }
  int winner() const {
    static constexpr int kLines[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                                         {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};
    for (const auto& l : kLines)
      if (cells_[l[0]] >= 0 && cells_[l[0]] == cells_[l[1]] && cells_[l[1]] == cells_[l[2]])
        return cells_[l[0]];
    return -1;
  }
  friend bool operator==(const TicTacToe&, const TicTacToe&) = default;

 private:
  static constexpr ZobristTable<18> kKeys{0x7474748ull};
  std::array<std::int8_t, 9> cells_{-1, -1, -1, -1, -1, -1, -1, -1, -1};
  int turn_ = 0;
  int filled_ = 0;
  std::uint64_t key_ = 0;
};

static_assert(Game<TicTacToe>);
static_assert(TwoPlayerZeroSum<TicTacToe>);
static_assert(Undoable<TicTacToe>);

}  // namespace kibitz::testing
