// Forbidden points: renju black's double three (real threes, checked recursively), double four
// and overline, and the capture variant's double free three.
#include "games/gomoku/position.hpp"

#include <algorithm>

#include "games/gomoku/position_detail.hpp"

namespace kibitz::gomoku {

using namespace detail;

// --- forbidden moves -----------------------------------------------------------------------

bool Position::flagged_forbidden(int sq, Color c) const {
  if (variant_.rule == Rule::kCapture) return true;  // a double free-three without a capture
  // Renju black (a five was already excluded by the flag): overline and double four at once.
  int fours = 0;
  for (int d = 0; d < 4; ++d) {
    const auto e = entry_[c][sq][d];
    if (entry_pattern(e) == Pattern::kOverline) return true;
    fours += entry_fours(e);
  }
  if (fours >= 2) return true;
  Board b = board_;
  return renju_forbidden(b, sq, 0);
}

// Renju black at sq on board b (the stone not yet placed): overline, double four, or double
// three where a three counts only if a point completing its straight four is not itself
// forbidden (checked recursively to kRenjuDepth; deeper completions are taken as allowed).
bool Position::renju_forbidden(Board& b, int sq, int depth) const {
  std::array<std::uint16_t, 4> keys{};
  std::array<std::uint8_t, 4> e{};
  for (int d = 0; d < 4; ++d) {
    keys[d] = scan_key(b.data(), sq, kDirections[d], kBlack);
    e[d] = table_[kBlack][keys[d]];
    if (entry_pattern(e[d]) == Pattern::kFive) return false;
  }
  int fours = 0, threes = 0;
  for (int d = 0; d < 4; ++d) {
    if (entry_pattern(e[d]) == Pattern::kOverline) return true;
    fours += entry_fours(e[d]);
    threes += entry_pattern(e[d]) == Pattern::kFlexThree;
  }
  if (fours >= 2) return true;
  if (threes < 2) return false;
  b[sq] = kBlack;
  int real = 0;
  for (int d = 0; d < 4 && real < 2; ++d) {
    if (entry_pattern(e[d]) != Pattern::kFlexThree) continue;
    for (int offset = -4; offset <= 4; ++offset) {
      if (offset == 0) continue;
      const int digit = detail::digit_of(offset);
      if ((keys[d] / kPow3[digit]) % 3 != detail::kCellEmpty) continue;
      if (!entry_straight_four(table_[kBlack][keys[d] + kPow3[digit]])) continue;
      const int completion = sq + offset * kDirections[d];
      if (depth + 1 >= kRenjuDepth || !renju_forbidden(b, completion, depth + 1)) {
        ++real;
        break;
      }
    }
  }
  b[sq] = kEmpty;
  return real >= 2;
}

bool Position::is_forbidden(Move m) const {
  if (!on_board(m.sq) || board_[m.sq] != kEmpty) return false;
  return forbidden_for(m.sq, side_);
}

bool Position::is_legal(Move m) const {
  return on_board(m.sq) && board_[m.sq] == kEmpty && !is_terminal() && !forbidden_for(m.sq, side_);
}

}  // namespace kibitz::gomoku
