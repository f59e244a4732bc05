// The generic pieces of the sampled-world searches (search/imperfect/worlds.hpp) on cases
// whose answers are known: resampling counts, the schedule of successive halving, reuse.
#include "search/imperfect/worlds.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace kibitz::search {
namespace {

TEST(Worlds, SystematicResamplingKeepsTheProportions) {
  // Weights 1 and 3, four draws: one offset in [0, 1) of a step of 1 gives exactly 1 and 3.
  const std::vector<double> lw = {std::log(1.0), std::log(3.0)};
  std::vector<std::size_t> out;
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    Rng rng(seed);
    systematic_resample(lw, 4, rng, out);
    ASSERT_EQ(out.size(), 4u);
    EXPECT_EQ(std::count(out.begin(), out.end(), 0u), 1) << seed;
    EXPECT_EQ(std::count(out.begin(), out.end(), 1u), 3) << seed;
  }
  // Large log weights do not overflow (they are taken relative to the largest).
  Rng rng(3);
  systematic_resample(std::vector<double>{1000.0, 1000.0 + std::log(2.0)}, 3, rng, out);
  EXPECT_EQ(std::count(out.begin(), out.end(), 1u), 2);
  systematic_resample(std::vector<double>{}, 3, rng, out);
  EXPECT_TRUE(out.empty());
}

struct Counter {  // a belief whose worlds are the numbers 0, 1, 2, ... in turn
  mutable int next = 0;
  int sample(Rng&) const { return next++; }
};
static_assert(Belief<Counter, int>);

TEST(Worlds, WeightedWorldsKeepOnlyWhatTheModelAllows) {
  Counter belief;
  Rng rng(7);
  // Odd worlds have weight 0 (log -inf): only even ones are kept, k of them.
  const auto kept = weighted_worlds<int>(
      belief, 5, 20, rng, [](int w) { return w % 2 ? -INFINITY : 0.0; },
      [](std::size_t) { return false; });
  ASSERT_EQ(kept.size(), 5u);
  for (int w : kept) EXPECT_EQ(w % 2, 0) << w;
  EXPECT_EQ(belief.next, 20);
  // A budget spent after 3 draws: three drawn, still k kept (with repeats).
  Counter b2;
  const auto few = weighted_worlds<int>(
      b2, 4, 100, rng, [](int) { return 0.0; }, [](std::size_t n) { return n >= 3; });
  EXPECT_EQ(b2.next, 3);
  EXPECT_EQ(few.size(), 4u);
  Counter b3;
  EXPECT_TRUE(weighted_worlds<int>(
                  b3, 4, 100, rng, [](int) { return 0.0; }, [](std::size_t) { return true; })
                  .empty());
}

TEST(Worlds, ReuseKeepsTheConsistentOnes) {
  const std::vector<int> earlier = {1, 2, 3, 4, 5, 6, 7, 8};
  std::vector<int> out;
  // Keep the even ones, brought up to date (+100); at most 3.
  reuse_worlds(
      earlier, 3, [](int& w) { return w % 2 == 0 && (w += 100); }, out);
  EXPECT_EQ(out, (std::vector<int>{102, 104, 106}));
}

struct Arm {
  int id = 0;
  double sum = 0;
  int n = 0;
};

TEST(Worlds, SuccessiveHalvingFollowsItsSchedule) {
  // 64 arms whose value on every world is their id: the best is 63. Worlds 1, then the best
  // 16 on 4, the best 4 on 16, the best 2 on 64: 64 + 16*3 + 4*12 + 2*48 values.
  std::vector<Arm> arms(64);
  for (int i = 0; i < 64; ++i) arms[i].id = i;
  int drawn = 0, valued = 0;
  const bool complete = successive_halving(
      arms, HalvingSchedule{.total = 64, .first = 1, .keep_at_least = 2},
      [&](int w) { return w == drawn++; },
      [&](Arm& a, int) {
        ++valued;
        a.sum += a.id;
        ++a.n;
        return true;
      },
      [](const Arm& a) { return a.n; }, [](const Arm& a) { return a.n ? a.sum / a.n : 0.0; });
  EXPECT_TRUE(complete);
  EXPECT_EQ(drawn, 64);
  EXPECT_EQ(valued, 64 + 16 * 3 + 4 * 12 + 2 * 48);
  ASSERT_EQ(arms.size(), 2u);
  EXPECT_EQ(arms[0].id, 63);
  EXPECT_EQ(arms[0].n, 64);
  EXPECT_EQ(arms[1].id, 62);
}

TEST(Worlds, SuccessiveHalvingCutShortRanksTheValuedFirst) {
  std::vector<Arm> arms(10);
  for (int i = 0; i < 10; ++i) arms[i].id = i;
  int budget = 4;  // four values, then the budget is spent
  const bool complete = successive_halving(
      arms, HalvingSchedule{.total = 16, .first = 1, .keep_at_least = 2}, [](int) { return true; },
      [&](Arm& a, int) {
        if (budget-- <= 0) return false;
        a.sum += a.id;
        ++a.n;
        return true;
      },
      [](const Arm& a) { return a.n; }, [](const Arm& a) { return a.n ? a.sum / a.n : 0.0; });
  EXPECT_FALSE(complete);
  ASSERT_EQ(arms.size(), 10u);
  // Arms 0..3 were valued (in order); the best of them, 3, leads; the unvalued come last.
  EXPECT_EQ(arms[0].id, 3);
  EXPECT_EQ(arms[3].id, 0);
  for (std::size_t i = 4; i < arms.size(); ++i) EXPECT_EQ(arms[i].n, 0);
}

}  // namespace
}  // namespace kibitz::search
