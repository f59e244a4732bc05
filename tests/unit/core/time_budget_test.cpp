// TimeBudget deadlines, stop requests and polling, and the time manager's clock-based
// allocation. No test depends on how fast the machine is beyond sleeping a few milliseconds
// past a tiny deadline.
#include "core/time_budget.hpp"

#include "core/time_manager.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace kibitz {
namespace {

using M = TimeBudget::Millis;

void sleep_ms(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

TEST(TimeBudget, UnlimitedNeverExpires) {
  for (const TimeBudget& b : {TimeBudget(), TimeBudget::unlimited(),
                              TimeBudget(TimeBudget::kUnlimited, TimeBudget::kUnlimited)}) {
    EXPECT_TRUE(b.is_unlimited());
    EXPECT_FALSE(b.soft_expired());
    EXPECT_FALSE(b.hard_expired());
    for (std::uint64_t w = 0; w < 4096; w += 1024) EXPECT_FALSE(b.poll(w));
    EXPECT_FALSE(b.exceeded());
    EXPECT_FALSE(b.stopped());
    EXPECT_GT(b.remaining_ms(), M{1} << 50);
  }
}

TEST(TimeBudget, ZeroBudgetIsExpiredAndLatchesExceeded) {
  TimeBudget b(0, 0);
  EXPECT_FALSE(b.is_unlimited());
  EXPECT_EQ(b.soft_ms(), 0);
  EXPECT_EQ(b.hard_ms(), 0);
  EXPECT_FALSE(b.exceeded());  // nothing has checked yet
  EXPECT_TRUE(b.soft_expired());
  EXPECT_TRUE(b.hard_expired());
  EXPECT_TRUE(b.exceeded());
  EXPECT_TRUE(b.exceeded());  // latched
  EXPECT_FALSE(b.stopped());  // ran out, not stopped
  EXPECT_LE(b.remaining_ms(), 0);
}

TEST(TimeBudget, TinyDeadlinePassesAfterSleeping) {
  TimeBudget b(1, 2);
  sleep_ms(10);
  EXPECT_GE(b.elapsed_ms(), 2);
  EXPECT_GE(b.elapsed_us(), 2000);
  EXPECT_TRUE(b.soft_expired());
  EXPECT_TRUE(b.poll(0));
  EXPECT_TRUE(b.exceeded());
}

TEST(TimeBudget, GenerousBudgetIsNotExpired) {
  TimeBudget b(60'000, 120'000);
  EXPECT_FALSE(b.soft_expired());
  EXPECT_FALSE(b.hard_expired());
  EXPECT_FALSE(b.poll(0));
  EXPECT_FALSE(b.exceeded());
  EXPECT_GT(b.remaining_ms(), 100'000);
  EXPECT_LE(b.remaining_ms(), 120'000);
}

TEST(TimeBudget, HardBelowSoftIsRaisedAndNegativesClamp) {
  TimeBudget b(500, 100);
  EXPECT_EQ(b.soft_ms(), 500);
  EXPECT_EQ(b.hard_ms(), 500);
  TimeBudget n(-5, -10);
  EXPECT_EQ(n.soft_ms(), 0);
  EXPECT_EQ(n.hard_ms(), 0);
  TimeBudget big(TimeBudget::kUnlimited * 2, TimeBudget::kUnlimited * 3);
  EXPECT_TRUE(big.is_unlimited());
  EXPECT_FALSE(big.hard_expired());
}

TEST(TimeBudget, RequestStopExpiresEverything) {
  TimeBudget b = TimeBudget::unlimited();
  b.request_stop();
  EXPECT_TRUE(b.stopped());
  EXPECT_TRUE(b.soft_expired());
  EXPECT_TRUE(b.hard_expired());
  EXPECT_TRUE(b.poll(1));  // any work count, not only interval multiples
  EXPECT_TRUE(b.poll(3, 8));
  EXPECT_FALSE(b.exceeded());  // a stop is not a time breach
}

TEST(TimeBudget, RequestStopFromAnotherThread) {
  TimeBudget b(60'000, 60'000);
  std::thread t([&] { b.request_stop(); });
  t.join();
  EXPECT_TRUE(b.poll(1));
}

TEST(TimeBudget, PollReadsTheClockOnlyOnIntervalMultiples) {
  TimeBudget b(0, 0);  // already past its deadline
  EXPECT_FALSE(b.poll(1, 1024));
  EXPECT_FALSE(b.poll(1023, 1024));
  EXPECT_FALSE(b.poll(1025, 1024));
  EXPECT_FALSE(b.exceeded());  // none of those looked at the clock
  EXPECT_TRUE(b.poll(1024, 1024));
  EXPECT_TRUE(b.exceeded());
  EXPECT_TRUE(b.poll(4096));  // default interval is 1024
  EXPECT_TRUE(b.poll(0));
  EXPECT_FALSE(b.poll(5));
  EXPECT_TRUE(b.poll(5, 1));  // interval 1: every call checks
  EXPECT_TRUE(b.poll(8, 8));
  EXPECT_FALSE(b.poll(12, 8));
}

TEST(TimeBudget, RestartResetsFlags) {
  TimeBudget b(0, 0);
  EXPECT_TRUE(b.hard_expired());
  b.request_stop();
  b.start(60'000, 60'000);
  EXPECT_FALSE(b.stopped());
  EXPECT_FALSE(b.exceeded());
  EXPECT_FALSE(b.hard_expired());
  EXPECT_EQ(b.soft_ms(), 60'000);
}

TEST(TimeBudget, CopyKeepsLimitsStartAndFlags) {
  TimeBudget a(1234, 5678);
  TimeBudget b = a;
  EXPECT_EQ(b.soft_ms(), 1234);
  EXPECT_EQ(b.hard_ms(), 5678);
  EXPECT_FALSE(b.is_unlimited());
  EXPECT_FALSE(b.stopped());

  TimeBudget z(0, 0);
  sleep_ms(3);
  EXPECT_TRUE(z.hard_expired());
  z.request_stop();
  TimeBudget c;
  c = z;
  EXPECT_EQ(c.hard_ms(), 0);
  EXPECT_TRUE(c.stopped());
  EXPECT_TRUE(c.exceeded());
  EXPECT_GE(c.elapsed_ms(), 3);  // the copy keeps the original start time

  TimeBudget u = TimeBudget::unlimited();
  TimeBudget d(u);
  EXPECT_TRUE(d.is_unlimited());
  // Copies are independent.
  d.request_stop();
  EXPECT_FALSE(u.stopped());
}

// The time manager with the alpha-beta (chess) engine's policy: a UCI clock.
ClockAllocation allocate_from_clock(M time_left, M inc, int mtg, M overhead) {
  return plan_move_time(MoverClock{.left_ms = time_left,
                                   .increment_ms = inc,
                                   .moves_to_go = mtg,
                                   .period_ms = 0,
                                   .period_moves = 0,
                                   .move_cap_ms = -1},
                        TimePolicy{.reserve_ms = overhead});
}

void expect_sane(M time_left, M inc, int mtg, M overhead) {
  SCOPED_TRACE(::testing::Message() << "time_left=" << time_left << " inc=" << inc << " mtg=" << mtg
                                    << " overhead=" << overhead);
  const ClockAllocation a = allocate_from_clock(time_left, inc, mtg, overhead);
  EXPECT_GE(a.soft_ms, 1);
  EXPECT_GE(a.hard_ms, 1);
  EXPECT_LE(a.soft_ms, a.hard_ms);
  const M usable = time_left - overhead;
  if (usable >= 10) {
    EXPECT_LT(a.hard_ms, time_left);
    const double cap = mtg == 1 ? 0.9 : 0.8;
    EXPECT_LE(static_cast<double>(a.hard_ms), cap * static_cast<double>(usable));
    EXPECT_LE(static_cast<double>(a.soft_ms), 0.6 * static_cast<double>(usable));
  }
}

TEST(TimeBudget, AllocateFromClockBounds) {
  for (M time_left : {1, 2, 5, 10, 50, 100, 1000, 10'000, 60'000, 300'000, 3'600'000}) {
    for (M inc : {0, 100, 1000, 5000, 30'000}) {
      for (int mtg : {0, 1, 2, 5, 40, 100}) {
        for (M overhead : {0, 10, 50, 200}) expect_sane(time_left, inc, mtg, overhead);
      }
    }
  }
}

TEST(TimeBudget, AllocateFromClockTinyClocksStillPositive) {
  for (M time_left : {-100, 0, 1, 3}) {
    const ClockAllocation a = allocate_from_clock(time_left, 0, 0, 50);
    EXPECT_GE(a.soft_ms, 1) << time_left;
    EXPECT_GE(a.hard_ms, a.soft_ms) << time_left;
  }
}

TEST(TimeBudget, AllocateFromClockSpreadsOverMoves) {
  // Sudden death with a minute: roughly 1/30 of it, well under a tenth.
  const ClockAllocation sd = allocate_from_clock(60'000, 0, 0, 0);
  EXPECT_EQ(sd.soft_ms, 2000);
  EXPECT_GT(sd.hard_ms, sd.soft_ms);
  EXPECT_LE(sd.hard_ms, 48'000);
  // With 10 moves to go the target is a tenth.
  EXPECT_EQ(allocate_from_clock(60'000, 0, 10, 0).soft_ms, 6000);
  // Fewer moves to go never means less time per move.
  M prev = 0;
  for (int mtg = 40; mtg >= 1; --mtg) {
    const M soft = allocate_from_clock(60'000, 0, mtg, 0).soft_ms;
    EXPECT_GE(soft, prev) << mtg;
    prev = soft;
  }
}

TEST(TimeBudget, IncrementRaisesTheSoftTarget) {
  const ClockAllocation no_inc = allocate_from_clock(60'000, 0, 0, 50);
  const ClockAllocation inc = allocate_from_clock(60'000, 2000, 0, 50);
  EXPECT_GT(inc.soft_ms, no_inc.soft_ms);
  EXPECT_GE(inc.hard_ms, no_inc.hard_ms);
  EXPECT_LT(inc.hard_ms, 60'000);
}

TEST(TimeBudget, OverheadLowersTheAllocation) {
  const ClockAllocation a = allocate_from_clock(10'000, 0, 0, 0);
  const ClockAllocation b = allocate_from_clock(10'000, 0, 0, 5000);
  EXPECT_LT(b.soft_ms, a.soft_ms);
  EXPECT_LE(b.hard_ms, 4000);  // 80% of the 5000 left after the overhead
}

TEST(TimeManager, NoClockIsUnlimitedAndAMoveCapBinds) {
  const ClockAllocation none = plan_move_time(MoverClock{}, TimePolicy{});
  EXPECT_EQ(none.soft_ms, TimeBudget::kUnlimited);
  EXPECT_EQ(none.hard_ms, TimeBudget::kUnlimited);
  MoverClock capped;
  capped.move_cap_ms = 250;
  EXPECT_EQ(plan_move_time(capped, TimePolicy{}).hard_ms, 250);
  capped.left_ms = 600'000;  // a long clock: the cap still binds both
  const ClockAllocation a = plan_move_time(capped, TimePolicy{});
  EXPECT_EQ(a.soft_ms, 250);
  EXPECT_EQ(a.hard_ms, 250);
}

TEST(TimeManager, APeriodKeepsHalfAShareForEveryOtherMove) {
  // 10 moves in 60 s, stretching up to 5 shares: 30 s, unless every other move keeps half
  // its 6 s share (60 - 9 * 3 = 33 s) and the cap (80%: 48 s) allow less.
  MoverClock c;
  c.left_ms = 60'000;
  c.moves_to_go = 10;
  TimePolicy p;
  p.keep_half = true;
  EXPECT_EQ(plan_move_time(c, p).hard_ms, 30'000);
  c.moves_to_go = 4;  // 15 s shares: 5 shares is 75 s, 80% 48 s, keep-half 60 - 3 * 7.5 = 37.5 s
  EXPECT_EQ(plan_move_time(c, p).soft_ms, 15'000);
  EXPECT_EQ(plan_move_time(c, p).hard_ms, 37'500);
  p.keep_half = false;
  EXPECT_EQ(plan_move_time(c, p).hard_ms, 48'000);
}

TEST(TimeManager, ByoYomiAfterMainTimeAddsItsTimePerMove) {
  // 60 s of main time over 30 moves (2 s), then 30 s per 10 moves: 3 s more per move.
  MoverClock c;
  c.left_ms = 60'000;
  c.period_ms = 30'000;
  c.period_moves = 10;
  TimePolicy p;
  p.increment_percent = 0;
  p.soft_cap = {1, 1};
  const ClockAllocation a = plan_move_time(c, p);
  EXPECT_EQ(a.soft_ms, 5'000);
  EXPECT_EQ(a.hard_ms, 5 * 2'000 + 3'000);
}

}  // namespace
}  // namespace kibitz
