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

}  // namespace kibitz
