// Context selection and pruning (store/position_store.hpp), against values worked by hand.
#include <gtest/gtest.h>

#include <vector>

#include "store/position_store.hpp"

namespace kibitz::store {
namespace {

constexpr std::int64_t kCtxNow = 1'700'000'000;
constexpr std::int64_t kCtxHalfLife = 30LL * 24 * 3600;  // ContextPolicy's default

PositionContext ctx_make(int game_phase, std::uint32_t visits, std::int64_t age_s) {
  PositionContext c;
  c.game_phase = game_phase;
  c.deep_visits = visits;
  c.timestamp = kCtxNow - age_s;
  return c;
}

TEST(ContextSelection, PhaseDecides) {
  // Same visits, all stored now: quality 1 and recency 1 for each, so the scores are
  // 0.5 * phase + 0.3 + 0.2. Query at 50 stones on a 100-point board:
  //   phase 10: 1 - 40/100 = 0.60 -> 0.800
  //   phase 45: 1 -  5/100 = 0.95 -> 0.975
  //   phase 95: 1 - 45/100 = 0.55 -> 0.775
  const std::vector<PositionContext> cs = {ctx_make(10, 1000, 0), ctx_make(45, 1000, 0),
                                           ctx_make(95, 1000, 0)};
  const ContextPolicy p;
  EXPECT_NEAR(context_score(cs, 0, 50, 100, kCtxNow, p), 0.800, 1e-12);
  EXPECT_NEAR(context_score(cs, 1, 50, 100, kCtxNow, p), 0.975, 1e-12);
  EXPECT_NEAR(context_score(cs, 2, 50, 100, kCtxNow, p), 0.775, 1e-12);
  EXPECT_EQ(select_context(cs, 50, 100, kCtxNow, p), 1u);
}

TEST(ContextSelection, QualityDecides) {
  // Same phase as the query (phase term 1) and all new (recency 1): 0.5 + 0.3 * q + 0.2 with
  // q = visits / 10000: 2000 -> 0.76, 10000 -> 1.00, 5000 -> 0.85.
  const std::vector<PositionContext> cs = {ctx_make(30, 2000, 0), ctx_make(30, 10000, 0),
                                           ctx_make(30, 5000, 0)};
  const ContextPolicy p;
  EXPECT_NEAR(context_score(cs, 0, 30, 361, kCtxNow, p), 0.76, 1e-12);
  EXPECT_NEAR(context_score(cs, 1, 30, 361, kCtxNow, p), 1.00, 1e-12);
  EXPECT_NEAR(context_score(cs, 2, 30, 361, kCtxNow, p), 0.85, 1e-12);
  EXPECT_EQ(select_context(cs, 30, 361, kCtxNow, p), 1u);
}

TEST(ContextSelection, RecencyDecides) {
  // Same phase and visits: 0.5 + 0.3 + 0.2 * 0.5^(age / half-life), ages 2, 1 and 0
  // half-lives: 0.85, 0.90, 1.00.
  const std::vector<PositionContext> cs = {ctx_make(80, 5000, 2 * kCtxHalfLife),
                                           ctx_make(80, 5000, kCtxHalfLife), ctx_make(80, 5000, 0)};
  const ContextPolicy p;
  EXPECT_NEAR(context_score(cs, 0, 80, 361, kCtxNow, p), 0.85, 1e-12);
  EXPECT_NEAR(context_score(cs, 1, 80, 361, kCtxNow, p), 0.90, 1e-12);
  EXPECT_NEAR(context_score(cs, 2, 80, 361, kCtxNow, p), 1.00, 1e-12);
  EXPECT_EQ(select_context(cs, 80, 361, kCtxNow, p), 2u);
}

TEST(ContextSelection, PhaseOutweighsQuality) {
  // Query at 20 on 100 points. Context 0: exact phase, 1000 visits (q 0.1):
  //   0.5 * 1 + 0.3 * 0.1 + 0.2 = 0.73.
  // Context 1: 80 stones away (phase 0.2), 10000 visits (q 1): 0.5 * 0.2 + 0.3 + 0.2 = 0.60.
  const std::vector<PositionContext> cs = {ctx_make(20, 1000, 0), ctx_make(100, 10000, 0)};
  const ContextPolicy p;
  EXPECT_NEAR(context_score(cs, 0, 20, 100, kCtxNow, p), 0.73, 1e-12);
  EXPECT_NEAR(context_score(cs, 1, 20, 100, kCtxNow, p), 0.60, 1e-12);
  EXPECT_EQ(select_context(cs, 20, 100, kCtxNow, p), 0u);
}

TEST(ContextSelection, EdgeCases) {
  const ContextPolicy p;
  // Phase distance beyond the board clamps to 0; a future timestamp counts as age 0; no
  // visits anywhere gives quality 0 rather than a division by zero.
  std::vector<PositionContext> cs = {ctx_make(0, 0, -500)};
  EXPECT_NEAR(context_score(cs, 0, 500, 100, kCtxNow, p), 0.2, 1e-12);
  // Equal scores: the newer context wins, by timestamp first, then by position in the list.
  ContextPolicy no_recency = p;
  no_recency.recency_weight = 0;
  cs = {ctx_make(10, 100, 0), ctx_make(10, 100, 50)};
  EXPECT_EQ(select_context(cs, 10, 81, kCtxNow, no_recency), 0u);
  cs = {ctx_make(10, 100, 0), ctx_make(10, 100, 0)};
  EXPECT_EQ(select_context(cs, 10, 81, kCtxNow, no_recency), 1u);
}

TEST(ContextSelection, PruneKey) {
  const ContextPolicy p;
  EXPECT_DOUBLE_EQ(prune_key(ctx_make(0, 10000, 0), kCtxNow, p), 10000.0);
  EXPECT_DOUBLE_EQ(prune_key(ctx_make(0, 10000, 3 * kCtxHalfLife), kCtxNow, p), 1250.0);
}

// Eight contexts, keys deep_visits * 0.5^(age in half-lives):
//   0: 10000 x 1/8 = 1250   1:  800 x 1 = 800    2: 4000 x 1/2 = 2000   3: 1000 x 1 = 1000
//   4:  6000 x 1/4 = 1500   5:  500 x 1 = 500    6: 3000 x 1   = 3000   7: 1200 x 1/2 = 600
// The best five: 6, 2, 4, 0, 3. (By visits alone 7 would beat 3; by age alone 1 and 5 would
// stay.)
std::vector<PositionContext> ctx_eight() {
  return {ctx_make(0, 10000, 3 * kCtxHalfLife),
          ctx_make(0, 800, 0),
          ctx_make(0, 4000, kCtxHalfLife),
          ctx_make(0, 1000, 0),
          ctx_make(0, 6000, 2 * kCtxHalfLife),
          ctx_make(0, 500, 0),
          ctx_make(0, 3000, 0),
          ctx_make(0, 1200, kCtxHalfLife)};
}

TEST(ContextSelection, KeepsBestFiveOfEight) {
  const ContextPolicy p;
  EXPECT_EQ(contexts_to_keep(ctx_eight(), kCtxNow, p), (std::vector<std::size_t>{0, 2, 3, 4, 6}));
  ContextPolicy unlimited = p;
  unlimited.max_contexts = 0;
  EXPECT_EQ(contexts_to_keep(ctx_eight(), kCtxNow, unlimited).size(), 8u);
}

TEST(ContextSelection, KeepTiesPreferNewer) {
  ContextPolicy p;
  p.max_contexts = 2;
  // Equal keys 1000: 1000 visits now and 2000 one half-life ago; the newer stays.
  const std::vector<PositionContext> cs = {ctx_make(0, 1000, 0), ctx_make(0, 2000, kCtxHalfLife),
                                           ctx_make(0, 5000, 0)};
  EXPECT_EQ(contexts_to_keep(cs, kCtxNow, p), (std::vector<std::size_t>{0, 2}));
  // All equal, same time: the later ones in the list.
  const std::vector<PositionContext> same(4, ctx_make(0, 100, 0));
  EXPECT_EQ(contexts_to_keep(same, kCtxNow, p), (std::vector<std::size_t>{2, 3}));
}

}  // namespace
}  // namespace kibitz::store
