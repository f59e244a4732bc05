// The capture variant (Ninuki): captures, fives a capture can break, and the captures that
// answer a threat.
#include "games/gomoku/position.hpp"

#include <algorithm>

#include "games/gomoku/position_detail.hpp"

namespace kibitz::gomoku {

using namespace detail;

// --- capture variant ------------------------------------------------------------------------

int Position::capture_on(Board& b, int sq, Color c) const {
  const Color o = opponent(c);
  b[sq] = c;
  int taken = 0;
  for (const int e : kEightWays) {
    const int a = sq + e;
    if (b[a] == o && b[a + e] == o && b[a + 2 * e] == c) {
      b[a] = kEmpty;
      b[a + e] = kEmpty;
      taken += 2;
    }
  }
  return taken;
}

// c has just made a five through sq (stones placed, captures made): can the opponent's
// reply break it by a capture, or win by capturing its tenth stone?
bool Position::five_breakable(Color c, int sq) const {
  const Color o = opponent(c);
  if (captures_[o] + 2 >= kCaptureWin && capturable_[o] > 0) return true;
  std::array<int, 4 * kMaxSize> stones{};
  int n = 0;
  for (const int step : kDirections) {
    int a = sq, b = sq;
    while (board_[a - step] == c) a -= step;
    while (board_[b + step] == c) b += step;
    if ((b - a) / step + 1 < 5) continue;
    for (int s = a; s <= b; s += step) stones[n++] = s;
  }
  Board scratch = board_;
  for (int i = 0; i < n; ++i) {
    const int s = stones[i];
    for (const int e : kEightWays) {
      if (board_[s + e] != c || board_[s + 2 * e] != o || board_[s - e] != kEmpty) continue;
      capture_on(scratch, s - e, o);
      const bool stands = has_five_through(scratch, sq, c);
      scratch = board_;
      if (!stands) return true;
    }
  }
  return false;
}

bool Position::breaks_pending(int sq) const {
  if (!pending_) return false;
  Board b = board_;
  if (capture_on(b, sq, side_) == 0) return false;
  return !has_five_through(b, five_sq_, static_cast<Color>(pending_ - 1));
}

std::size_t Position::capture_defences(MoveList<Position>& out) const {
  const Color c = side_, o = opponent(c);
  constexpr int kFive = static_cast<int>(Threat::kFive);
  std::array<bool, kSquares> candidate{};
  const int n = variant_.size;
  const auto mark_around = [&](int s) {
    const int x = x_of(s), y = y_of(s);
    for (int yy = std::max(0, y - 2); yy <= std::min(n - 1, y + 2); ++yy)
      for (int xx = std::max(0, x - 2); xx <= std::min(n - 1, x + 2); ++xx)
        candidate[square_of(xx, yy)] = true;
  };
  // With eight stones taken, any capture we can set up makes the opponent's five
  // breakable: every move is a candidate.
  const bool everything = pending_ != o + 1 && captures_[c] + 2 >= kCaptureWin;
  for (int sq = first_point(); sq <= last_point(); ++sq) {
    if (board_[sq] != kEmpty) continue;
    if (everything || summary_captures(summary_[c][sq]) || summary_captures(summary_[o][sq]) ||
        summary_threat(summary_[c][sq]) == kFive)
      candidate[sq] = true;
    if (pending_ == o + 1 || summary_threat(summary_[o][sq]) != kFive) continue;
    // A five point: block it, or flank a pair of the five it would make.
    mark_around(sq);
    for (int d = 0; d < 4; ++d) {
      if (entry_pattern(entry_[o][sq][d]) != Pattern::kFive) continue;
      for (int side = -1; side <= 1; side += 2)
        for (int s = sq + side * kDirections[d]; board_[s] == o; s += side * kDirections[d])
          mark_around(s);
    }
  }
  Position trial = *this;
  for (int sq = first_point(); sq <= last_point(); ++sq) {
    if (!candidate[sq] || board_[sq] != kEmpty || forbidden_for(sq, c)) continue;
    const Move m{static_cast<std::uint16_t>(sq)};
    Undo u;
    trial.make(m, u);
    const bool ok = trial.winner_ == c || (trial.winner_ != o && !trial.winning_move());
    trial.unmake(m, u);
    if (ok) out.push_back(m);
  }
  if (out.size() > 0) return out.size();
  // Nothing saves the game: list the direct answers anyway (blocks of a five point,
  // captures, occupying the opponent's capture points) so that a search plays on.
  for (int sq = first_point(); sq <= last_point(); ++sq) {
    if (board_[sq] != kEmpty || forbidden_for(sq, c)) continue;
    const bool direct = pending_ == o + 1 ? breaks_pending(sq)
                                          : summary_threat(summary_[o][sq]) == kFive ||
                                                summary_captures(summary_[c][sq]) > 0 ||
                                                summary_captures(summary_[o][sq]) > 0;
    if (direct) out.push_back(Move{static_cast<std::uint16_t>(sq)});
  }
  return out.size();
}

}  // namespace kibitz::gomoku
