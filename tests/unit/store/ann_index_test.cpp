// The ANN index over policy embeddings: Hellinger geometry, save / load / rebuild, growth.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "store/ann/ann_index.hpp"
#include "store/sqlite/sqlite_store.hpp"

namespace kibitz::store {
namespace {

namespace fs = std::filesystem;

class AnnTempDir {
 public:
  AnnTempDir() {
    static std::atomic<int> counter{0};
    dir_ = fs::path(::testing::TempDir()) /
           ("kibitz_ann_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  ~AnnTempDir() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string file(const std::string& name) const { return (dir_ / name).string(); }

 private:
  fs::path dir_;
};

float ann_l2(const std::vector<float>& a, const std::vector<float>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += double(a[i] - b[i]) * double(a[i] - b[i]);
  return static_cast<float>(std::sqrt(s));
}

// A peaked random 9x9 policy (82 values summing to 1).
std::vector<float> ann_random_policy(std::mt19937& rng) {
  std::exponential_distribution<float> e(1.0f);
  std::vector<float> p(82);
  float sum = 0;
  for (auto& v : p) sum += (v = std::pow(e(rng), 3.0f));
  for (auto& v : p) v /= sum;
  return p;
}

// Fills a store with `n` 9x9 positions, one context each, and returns their policies by id.
std::vector<std::pair<std::int64_t, std::vector<float>>> ann_fill(PositionStore& s, int n,
                                                                  std::mt19937& rng,
                                                                  std::uint64_t first_hash = 1) {
  std::vector<std::pair<std::int64_t, std::vector<float>>> out;
  for (int i = 0; i < n; ++i) {
    PositionKey k;
    k.sym_hash = first_hash + std::uint64_t(i);
    k.board_size = 9;
    PositionContext c;
    c.policy = ann_random_policy(rng);
    c.timestamp = 1000 + i;
    auto r = s.add_context(k, c, ContextPolicy{}, 2000);
    EXPECT_TRUE(r) << r.error().message;
    out.emplace_back(r->position_id, c.policy);
  }
  return out;
}

TEST(AnnEmbedding, HellingerIdentity) {
  // p = (1/2, 1/2, 0, 0), q uniform over 4: BC = 2 * sqrt(1/2 * 1/4) = sqrt(1/2) = 0.70711,
  // so the distance is sqrt(2 - 2 * 0.70711) = sqrt(0.58579) = 0.76537.
  const std::vector<float> p = {0.5f, 0.5f, 0.0f, 0.0f};
  const std::vector<float> q = {0.25f, 0.25f, 0.25f, 0.25f};
  const double bc = 2 * std::sqrt(0.5 * 0.25);
  EXPECT_NEAR(ann_l2(policy_embedding(p), policy_embedding(q)), std::sqrt(2 - 2 * bc), 1e-6);
  EXPECT_NEAR(ann_l2(policy_embedding(p), policy_embedding(q)), 0.765367, 1e-6);
  // Scale does not matter (the policy is normalised first); disjoint supports are sqrt(2)
  // apart; bad entries count as 0.
  EXPECT_NEAR(ann_l2(policy_embedding(p), policy_embedding(std::vector<float>{3, 3, 0, 0})), 0,
              1e-7);
  EXPECT_NEAR(ann_l2(policy_embedding(p), policy_embedding(std::vector<float>{0, 0, 1, 1})),
              std::sqrt(2.0), 1e-6);
  EXPECT_NEAR(ann_l2(policy_embedding(p), policy_embedding(std::vector<float>{1, 1, -5, NAN})), 0,
              1e-7);
}

TEST(AnnIndex, NearestOfAStoredPolicyIsItself) {
  auto s = open_sqlite_store(":memory:");
  ASSERT_TRUE(s);
  std::mt19937 rng(1);
  const auto stored = ann_fill(**s, 30, rng);
  auto ann = AnnIndex::open(**s, 9);
  ASSERT_TRUE(ann) << ann.error().message;
  EXPECT_TRUE((*ann)->rebuilt());
  EXPECT_TRUE((*ann)->file().empty());
  EXPECT_EQ((*ann)->count(), 30u);
  EXPECT_EQ((*ann)->dimension(), 82u);
  for (const auto& [id, policy] : stored) {
    auto near = (*ann)->nearest(policy, 3);
    ASSERT_TRUE(near) << near.error().message;
    ASSERT_EQ(near->size(), 3u);
    EXPECT_EQ((*near)[0].position_id, id);
    EXPECT_NEAR((*near)[0].distance, 0.0f, 1e-3);
    EXPECT_LE((*near)[0].distance, (*near)[1].distance);
    EXPECT_LE((*near)[1].distance, (*near)[2].distance);
  }
  EXPECT_TRUE((*ann)->save());  // nothing to write for an in-memory store
  EXPECT_FALSE((*ann)->nearest(std::vector<float>(5, 0.2f), 1));
  EXPECT_FALSE((*ann)->add(1, std::vector<float>(5, 0.2f)));
  EXPECT_TRUE((*ann)->nearest(stored[0].second, 0)->empty());
}

TEST(AnnIndex, ReplaceAndGrow) {
  auto s = open_sqlite_store(":memory:");
  ASSERT_TRUE(s);
  AnnOptions o;
  o.initial_capacity = 4;
  auto ann = AnnIndex::open(**s, 9, o);
  ASSERT_TRUE(ann);
  EXPECT_EQ((*ann)->count(), 0u);
  std::mt19937 rng(2);
  std::vector<std::vector<float>> policies;
  for (int id = 1; id <= 50; ++id) {
    policies.push_back(ann_random_policy(rng));
    ASSERT_TRUE((*ann)->add(id, policies.back()));
  }
  EXPECT_EQ((*ann)->count(), 50u);
  EXPECT_EQ((*(*ann)->nearest(policies[37], 1))[0].position_id, 38);
  // Replacing id 5's embedding: the count stays, the new policy finds it.
  const std::vector<float> fresh = ann_random_policy(rng);
  ASSERT_TRUE((*ann)->add(5, fresh));
  EXPECT_EQ((*ann)->count(), 50u);
  auto near = (*ann)->nearest(fresh, 1);
  ASSERT_TRUE(near);
  EXPECT_EQ((*near)[0].position_id, 5);
  EXPECT_NEAR((*near)[0].distance, 0.0f, 1e-3);
}

TEST(AnnIndex, SavesLoadsAndRebuilds) {
  AnnTempDir dir;
  const std::string db = dir.file("go.db");
  auto s = open_sqlite_store(db);
  ASSERT_TRUE(s);
  std::mt19937 rng(3);
  const auto stored = ann_fill(**s, 40, rng);
  const std::string file = db + ".9x9.ann";
  std::vector<std::int64_t> answers;
  {
    auto ann = AnnIndex::open(**s, 9);
    ASSERT_TRUE(ann);
    EXPECT_TRUE((*ann)->rebuilt());  // no file yet
    EXPECT_EQ((*ann)->file(), file);
    for (const auto& [id, policy] : stored)
      answers.push_back((*(*ann)->nearest(policy, 1))[0].position_id);
    ASSERT_TRUE((*ann)->save());
  }
  ASSERT_TRUE(fs::exists(file));
  EXPECT_EQ(AnnIndex::file_count(file, 9).value_or(0), 40u);
  {
    auto ann = AnnIndex::open(**s, 9);
    ASSERT_TRUE(ann);
    EXPECT_FALSE((*ann)->rebuilt());  // loaded from the file
    EXPECT_EQ((*ann)->count(), 40u);
    for (std::size_t i = 0; i < stored.size(); ++i)
      EXPECT_EQ((*(*ann)->nearest(stored[i].second, 1))[0].position_id, answers[i]);
  }
  // Deleted: rebuilt, same count.
  fs::remove(file);
  {
    auto ann = AnnIndex::open(**s, 9);
    ASSERT_TRUE(ann);
    EXPECT_TRUE((*ann)->rebuilt());
    EXPECT_EQ((*ann)->count(), 40u);
    ASSERT_TRUE((*ann)->save());
  }
  // Truncated, then garbage, then one neighbour id corrupted: rebuilt each time, no crash.
  const std::string good = [&] {
    std::ifstream in(file, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }();
  auto rewrite_and_open = [&](const std::string& bytes) {
    std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
    auto ann = AnnIndex::open(**s, 9);
    ASSERT_TRUE(ann) << ann.error().message;
    EXPECT_TRUE((*ann)->rebuilt());
    EXPECT_EQ((*ann)->count(), 40u);
    EXPECT_EQ((*(*ann)->nearest(stored[3].second, 1))[0].position_id, stored[3].first);
  };
  rewrite_and_open(good.substr(0, good.size() / 2));
  rewrite_and_open(good.substr(0, 50));
  std::mt19937 junk_rng(4);
  std::string junk(good.size(), '\0');
  for (auto& b : junk) b = static_cast<char>(junk_rng());
  rewrite_and_open(junk);
  std::string bad_link = good;
  const std::size_t first_link = 96 + 4;  // element 0's first level-0 neighbour
  bad_link[first_link + 3] = '\x7f';
  rewrite_and_open(bad_link);
  EXPECT_FALSE(AnnIndex::file_count(file, 9));  // the last rewrite is still there, still bad
  std::ofstream(file, std::ios::binary | std::ios::trunc) << good;
  // The database gained a position the file does not have: rebuilt with it.
  ann_fill(**s, 1, rng, 1000);
  auto ann = AnnIndex::open(**s, 9);
  ASSERT_TRUE(ann);
  EXPECT_TRUE((*ann)->rebuilt());
  EXPECT_EQ((*ann)->count(), 41u);
  // Other board sizes have their own (empty) index.
  auto other = AnnIndex::open(**s, 19);
  ASSERT_TRUE(other);
  EXPECT_EQ((*other)->count(), 0u);
  EXPECT_EQ((*other)->dimension(), 362u);
  EXPECT_FALSE(AnnIndex::open(**s, 1));
}

TEST(AnnIndex, RebuildUsesTheNewestPolicy) {
  auto s = open_sqlite_store(":memory:");
  ASSERT_TRUE(s);
  std::mt19937 rng(5);
  PositionKey k;
  k.board_size = 9;
  k.sym_hash = 77;
  PositionContext old_c, new_c;
  old_c.policy = ann_random_policy(rng);
  old_c.timestamp = 100;
  new_c.policy = ann_random_policy(rng);
  new_c.timestamp = 200;
  ASSERT_TRUE((*s)->add_context(k, old_c, ContextPolicy{}, 300));
  auto r = (*s)->add_context(k, new_c, ContextPolicy{}, 300);
  ASSERT_TRUE(r);
  // A position with no policy at all is embedded by its move (one-hot).
  PositionContext no_policy;
  no_policy.move = 40;
  k.sym_hash = 78;
  auto r2 = (*s)->add_context(k, no_policy, ContextPolicy{}, 300);
  ASSERT_TRUE(r2);
  auto ann = AnnIndex::open(**s, 9);
  ASSERT_TRUE(ann);
  EXPECT_EQ((*ann)->count(), 2u);
  auto near = (*ann)->nearest(new_c.policy, 1);
  ASSERT_TRUE(near);
  EXPECT_EQ((*near)[0].position_id, r->position_id);
  EXPECT_NEAR((*near)[0].distance, 0.0f, 1e-3);
  std::vector<float> one_hot(82, 0.0f);
  one_hot[40] = 1.0f;
  near = (*ann)->nearest(one_hot, 1);
  ASSERT_TRUE(near);
  EXPECT_EQ((*near)[0].position_id, r2->position_id);
}

}  // namespace
}  // namespace kibitz::store

namespace kibitz::store {
namespace {

// Another process (here another connection to the same file) adds positions: the index
// finds them at its next catch-up, both when it was rebuilt and when it was loaded.
TEST(AnnIndex, CatchesUpWithOtherWriters) {
  AnnTempDir dir;
  const std::string db = dir.file("shared.db");
  auto mine = open_sqlite_store(db);
  auto theirs = open_sqlite_store(db);
  ASSERT_TRUE(mine && theirs);
  std::mt19937 rng(11);
  ann_fill(**mine, 10, rng);
  for (const bool from_file : {false, true}) {
    auto ann = AnnIndex::open(**mine, 9);
    ASSERT_TRUE(ann);
    EXPECT_EQ((*ann)->rebuilt(), !from_file);
    const std::size_t before = (*ann)->count();
    const auto added = ann_fill(**theirs, 5, rng, 1000 + (from_file ? 100 : 0));
    auto n = (*ann)->catch_up(**mine);
    ASSERT_TRUE(n) << n.error().message;
    EXPECT_EQ(*n, 5u);
    EXPECT_EQ((*ann)->count(), before + 5);
    for (const auto& [id, policy] : added)
      EXPECT_EQ((*(*ann)->nearest(policy, 1))[0].position_id, id);
    // Nothing new: nothing added.
    EXPECT_EQ((*ann)->catch_up(**mine).value_or(99), 0u);
    ASSERT_TRUE((*ann)->save());
  }
}

}  // namespace
}  // namespace kibitz::store
