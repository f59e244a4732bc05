// The static evaluation from the incremental pattern state (weights: eval_weights.hpp).
#include "games/gomoku/position.hpp"

#include <algorithm>

#include "games/gomoku/position_detail.hpp"

namespace kibitz::gomoku {

using namespace detail;

// --- evaluation ----------------------------------------------------------------------------

int Position::evaluate() const {
  const Color me = side_, op = opponent(me);
  if (is_terminal()) return winner_ == me ? kDecided : winner_ == op ? -kDecided : 0;
  constexpr int kFive = static_cast<int>(Threat::kFive);
  constexpr int kFlexFour = static_cast<int>(Threat::kFlexFour);
  int s = score_[me] - score_[op] + eval_->tempo;
  if (const int share = eval_->parent_share)
    s += share * (parent_score_[me] - parent_score_[op] - score_[me] + score_[op]) / 100;
  // The side to move's threats count double only where the opponent threatens nothing (no
  // four or free three on the board): otherwise the answer comes first.
  if (!count_[op][kFive] && !count_[op][kFlexFour])
    for (int t = 1; t < 10; ++t) s += eval_->to_move[t] * count_[me][t];
  if (variant_.rule != Rule::kCapture) {
    if (count_[me][kFive]) return kWinNow;
    if (count_[op][kFive] >= 2) return -kLossNext;
    if (!count_[op][kFive] && count_[me][kFlexFour]) return kWinSoon;
  } else {
    if (captures_[me] + 2 >= kCaptureWin && capturable_[me] > 0) return kWinNow;
    if (pending_ == op + 1) s -= 3000;
    if (count_[me][kFive]) s += 3000;
    if (count_[op][kFive] >= 2) s -= 2500;
    s += kCapturedValue[std::min(captures_[me], 9)] - kCapturedValue[std::min(captures_[op], 9)];
    if (captures_[op] + 2 >= kCaptureWin && capturable_[op] > 0) s -= 1500;
  }
  return std::clamp(s, -kEvalCap, kEvalCap);
}

}  // namespace kibitz::gomoku
