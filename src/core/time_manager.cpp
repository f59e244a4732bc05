#include "core/time_manager.hpp"

#include <algorithm>
#include <limits>

namespace kibitz {

TimePolicy even_share_policy(int expected_moves) {
  return TimePolicy{.expected_moves = expected_moves,
                    .max_horizon = std::numeric_limits<int>::max(),
                    .reserve_ms = 0,
                    .reserve_divisor = 0,
                    .margin_ms = 0,
                    .increment_percent = 75,
                    .soft_cap = {1, 1},
                    .stretch = 1,
                    .hard_cap = {1, 1},
                    .period_stretch = 1,
                    .period_cap = {1, 1},
                    .keep_half = true};
}

ClockAllocation plan_move_time(const MoverClock& c, const TimePolicy& p) {
  using M = TimeBudget::Millis;
  if (c.left_ms < 0 && c.move_cap_ms < 0) return {TimeBudget::kUnlimited, TimeBudget::kUnlimited};
  M soft = TimeBudget::kUnlimited, hard = TimeBudget::kUnlimited;
  if (c.left_ms >= 0) {
    const M left = c.left_ms;
    const M reserve =
        p.reserve_divisor > 0 ? std::min<M>(p.reserve_ms, left / p.reserve_divisor) : p.reserve_ms;
    const M usable = std::max<M>(1, left - reserve);
    const bool period = c.moves_to_go > 0;
    const int horizon = period ? std::min(c.moves_to_go, p.max_horizon) : p.expected_moves;
    const M share = usable / std::max(1, horizon);
    soft = std::min<M>(share + c.increment_ms * p.increment_percent / 100, p.soft_cap.of(usable));
    if (period) {
      hard = std::min<M>(soft * p.period_stretch, p.period_cap.of(usable));
      if (p.keep_half) hard = std::min<M>(hard, usable - (c.moves_to_go - 1) * (share / 2));
    } else {
      hard = std::min<M>(soft * p.stretch, p.hard_cap.of(usable));
      if (c.period_moves > 0) {
        // Main time with byo-yomi to come: each move's byo-yomi time on top.
        soft += c.period_ms / c.period_moves;
        hard += c.period_ms / c.period_moves;
      }
    }
    hard = std::max(hard, soft);
    const M margin = std::min<M>(p.margin_ms, soft / 5);
    soft -= margin;
    hard -= margin;
  }
  if (c.move_cap_ms >= 0) {
    soft = std::min(soft, c.move_cap_ms);
    hard = std::min(hard, c.move_cap_ms);
  }
  soft = std::max<M>(1, soft);
  return {soft, std::max(soft, hard)};
}

}  // namespace kibitz
