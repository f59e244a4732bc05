#include "core/time_budget.hpp"

#include <algorithm>

namespace kibitz {

TimeBudget& TimeBudget::operator=(const TimeBudget& o) {
  start_.store(o.start_.load());
  soft_ms_.store(o.soft_ms_.load());
  hard_ms_.store(o.hard_ms_.load());
  stop_.store(o.stop_.load());
  exceeded_.store(o.exceeded_.load());
  return *this;
}

void TimeBudget::start(Millis soft_ms, Millis hard_ms) {
  retarget(soft_ms, hard_ms);
  stop_.store(false);
  exceeded_.store(false);
}

void TimeBudget::retarget(Millis soft_ms, Millis hard_ms) {
  soft_ms = std::clamp<Millis>(soft_ms, 0, kUnlimited);
  soft_ms_.store(soft_ms, std::memory_order_relaxed);
  hard_ms_.store(std::clamp<Millis>(std::max(hard_ms, soft_ms), 0, kUnlimited),
                 std::memory_order_relaxed);
  start_.store(Clock::now().time_since_epoch().count(), std::memory_order_relaxed);
}

TimeBudget::Millis TimeBudget::elapsed_ms() const {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             Clock::now() -
             Clock::time_point(Clock::duration(start_.load(std::memory_order_relaxed))))
      .count();
}

std::int64_t TimeBudget::elapsed_us() const {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             Clock::now() -
             Clock::time_point(Clock::duration(start_.load(std::memory_order_relaxed))))
      .count();
}

bool TimeBudget::hard_expired() const {
  if (stopped()) return true;
  if (is_unlimited()) return false;
  if (elapsed_ms() >= hard_ms()) {
    exceeded_.store(true, std::memory_order_relaxed);
    return true;
  }
  return false;
}

ClockAllocation allocate_from_clock(TimeBudget::Millis time_left_ms, TimeBudget::Millis inc_ms,
                                    int moves_to_go, TimeBudget::Millis overhead_ms) {
  using M = TimeBudget::Millis;
  const M usable = std::max<M>(1, time_left_ms - overhead_ms);
  // Sudden death: plan for about 30 more moves; with a control, spread over the moves left.
  const M horizon = moves_to_go > 0 ? std::min(moves_to_go, 50) : 30;
  M soft = usable / horizon + inc_ms * 3 / 4;
  // Never plan to use more than 60% of what is left on one move; the hard limit may stretch
  // to 5x the target but stays within 80% of the clock, so the engine never flags.
  soft = std::min<M>(soft, usable * 6 / 10);
  M hard = std::min<M>(soft * 5, usable * 8 / 10);
  if (moves_to_go == 1) hard = std::min<M>(std::max(hard, soft), usable * 9 / 10);
  soft = std::max<M>(1, soft);
  hard = std::max<M>(soft, hard);
  return {soft, hard};
}

}  // namespace kibitz
