#pragma once
// The one time-budget type every search uses: when it started, what it was allocated (a soft
// target and a hard limit), what it has consumed, cooperative deadline checks, and a latched
// "budget exceeded" flag so callers can report a breach after returning the best answer.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>

namespace kibitz {

class TimeBudget {
 public:
  using Clock = std::chrono::steady_clock;
  using Millis = std::int64_t;
  static constexpr Millis kUnlimited = INT64_MAX / 4;

  TimeBudget() { start(kUnlimited, kUnlimited); }
  TimeBudget(Millis soft_ms, Millis hard_ms) { start(soft_ms, hard_ms); }
  TimeBudget(const TimeBudget& o) { *this = o; }
  TimeBudget& operator=(const TimeBudget& o);

  // (Re)starts the clock with a soft target (stop starting new work) and a hard limit (abort
  // work in progress). hard < soft is raised to soft.
  void start(Millis soft_ms, Millis hard_ms);
  static TimeBudget unlimited() { return TimeBudget(); }

  // Restarts the clock with new limits without clearing a stop request: UCI `ponderhit`,
  // where the engine's own time starts while its search keeps running. Safe while another
  // thread polls.
  void retarget(Millis soft_ms, Millis hard_ms);

  Millis soft_ms() const { return soft_ms_.load(std::memory_order_relaxed); }
  Millis hard_ms() const { return hard_ms_.load(std::memory_order_relaxed); }  // the allocation
  Millis elapsed_ms() const;                                                   // consumed so far
  std::int64_t elapsed_us() const;
  Millis remaining_ms() const { return hard_ms() - elapsed_ms(); }
  bool is_unlimited() const { return hard_ms() >= kUnlimited; }

  // Past the soft target: do not start another iteration.
  bool soft_expired() const { return stopped() || elapsed_ms() >= soft_ms(); }
  // Past the hard limit or stopped: abort now. Latches exceeded() when the clock ran out.
  bool hard_expired() const;
  // Cooperative check for search loops: reads the clock only every `interval` calls' worth of
  // work (interval must be a power of two), so it is cheap enough to call at every node.
  bool poll(std::uint64_t work_done, std::uint64_t interval = 1024) const {
    if (stop_.load(std::memory_order_relaxed)) return true;
    if ((work_done & (interval - 1)) != 0) return false;
    return hard_expired();
  }

  // An external stop request (UCI `stop`, Gomocup END); safe from any thread.
  void request_stop() { stop_.store(true, std::memory_order_relaxed); }
  bool stopped() const { return stop_.load(std::memory_order_relaxed); }
  // True once a deadline check found the hard limit passed.
  bool exceeded() const { return exceeded_.load(std::memory_order_relaxed); }

 private:
  // Atomics (relaxed) so retarget() may run while a search thread reads them.
  std::atomic<Clock::rep> start_{0};
  std::atomic<Millis> soft_ms_{kUnlimited};
  std::atomic<Millis> hard_ms_{kUnlimited};
  std::atomic<bool> stop_{false};
  mutable std::atomic<bool> exceeded_{false};
};

}  // namespace kibitz
