// FixedVector: inline fixed-capacity storage with vector-like operations, usable in constexpr.
#include "core/fixed_vector.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <type_traits>

namespace kibitz {
namespace {

constexpr int constexpr_sum() {
  FixedVector<int, 8> v;
  for (int i = 1; i <= 5; ++i) v.push_back(i);
  v.pop_back();        // 1 2 3 4
  v.swap_remove(0);    // 4 2 3
  v.emplace_back(10);  // 4 2 3 10
  int s = 0;
  for (int x : v) s += x;
  return s;
}
static_assert(constexpr_sum() == 19);
static_assert(FixedVector<int, 4>::capacity() == 4);
static_assert(FixedVector<int, 3>{1, 2, 3}.full());
static_assert(FixedVector<int, 3>{1, 2}.contains(2));
static_assert(!FixedVector<int, 3>{1, 2}.contains(3));
static_assert(FixedVector<int, 3>{1, 2} == FixedVector<int, 3>{1, 2});
static_assert(!(FixedVector<int, 3>{1, 2} == FixedVector<int, 3>{2, 1}));

TEST(FixedVector, StartsEmptyWithFixedCapacity) {
  FixedVector<int, 16> v;
  EXPECT_TRUE(v.empty());
  EXPECT_FALSE(v.full());
  EXPECT_EQ(v.size(), 0u);
  EXPECT_EQ(v.capacity(), 16u);
  EXPECT_EQ(v.begin(), v.end());
}

TEST(FixedVector, PushPopAndIndex) {
  FixedVector<int, 4> v;
  v.push_back(7);
  v.push_back(8);
  v.push_back(9);
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0], 7);
  EXPECT_EQ(v[1], 8);
  EXPECT_EQ(v[2], 9);
  EXPECT_EQ(v.back(), 9);
  v.pop_back();
  EXPECT_EQ(v.size(), 2u);
  EXPECT_EQ(v.back(), 8);
  v.push_back(1);
  v.push_back(2);
  EXPECT_TRUE(v.full());
  EXPECT_EQ(v.size(), v.capacity());
  v.clear();
  EXPECT_TRUE(v.empty());
  EXPECT_EQ(v.capacity(), 4u);
}

TEST(FixedVector, EmplaceBackReturnsTheNewElement) {
  struct P {
    int a;
    int b;
    bool operator==(const P&) const = default;
  };
  FixedVector<P, 3> v;
  P& p = v.emplace_back(1, 2);
  EXPECT_EQ(p.a, 1);
  EXPECT_EQ(p.b, 2);
  p.b = 5;
  EXPECT_EQ(v[0].b, 5);
  EXPECT_EQ(v.size(), 1u);
  EXPECT_TRUE(v.contains(P{1, 5}));
}

TEST(FixedVector, InitializerListAndIteration) {
  FixedVector<int, 10> v{3, 1, 4, 1, 5};
  EXPECT_EQ(v.size(), 5u);
  EXPECT_EQ(std::accumulate(v.begin(), v.end(), 0), 14);
  int n = 0;
  for (int& x : v) x *= 2, ++n;
  EXPECT_EQ(n, 5);
  EXPECT_EQ(v, (FixedVector<int, 10>{6, 2, 8, 2, 10}));
  const auto& cv = v;
  EXPECT_EQ(cv.end() - cv.begin(), 5);
  EXPECT_EQ(cv.data(), cv.begin());
}

TEST(FixedVector, ResizeGrowsWithValueInitialisedElementsAndShrinks) {
  FixedVector<int, 8> v{1, 2, 3};
  v.resize(1);
  EXPECT_EQ(v, (FixedVector<int, 8>{1}));
  // Growing again must not resurrect the old 2 and 3.
  v.resize(4);
  EXPECT_EQ(v, (FixedVector<int, 8>{1, 0, 0, 0}));
}

// Elements whose default constructor is not trivial (a member initialiser, as gomoku's and
// Go's Move have): the storage is not constructed up front, but every element the vector
// hands out was written, and resize() gives new elements T's own initial value.
TEST(FixedVector, ElementsWithAMemberInitialiser) {
  struct Point {
    std::uint16_t sq = 7;
    bool operator==(const Point&) const = default;
  };
  static_assert(!std::is_trivially_default_constructible_v<Point>);
  FixedVector<Point, 400> v;
  EXPECT_TRUE(v.empty());
  v.push_back(Point{3});
  v.emplace_back();
  v.resize(4);
  ASSERT_EQ(v.size(), 4u);
  EXPECT_EQ(v[0].sq, 3);
  for (std::size_t i = 1; i < 4; ++i) EXPECT_EQ(v[i].sq, 7);
  FixedVector<Point, 400> copy = v;
  EXPECT_EQ(copy, v);
  copy.swap_remove(0);
  EXPECT_EQ(copy[0].sq, 7);
  EXPECT_EQ(copy.size(), 3u);
  EXPECT_TRUE(v.contains(Point{3}));
  EXPECT_FALSE(copy.contains(Point{3}));
}

TEST(FixedVector, SetSizeAdoptsElementsWrittenThroughData) {
  FixedVector<std::uint16_t, 8> v;
  std::uint16_t* raw = v.data();
  for (std::uint16_t i = 0; i < 5; ++i) raw[i] = static_cast<std::uint16_t>(100 + i);
  v.set_size(5);
  ASSERT_EQ(v.size(), 5u);
  for (std::uint16_t i = 0; i < 5; ++i) EXPECT_EQ(v[i], 100 + i);
  v.set_size(2);
  EXPECT_EQ(v.size(), 2u);
  EXPECT_FALSE(v.contains(102));
}

TEST(FixedVector, SwapRemoveMovesTheLastElementIntoTheHole) {
  FixedVector<int, 8> v{10, 20, 30, 40};
  v.swap_remove(1);
  EXPECT_EQ(v, (FixedVector<int, 8>{10, 40, 30}));
  v.swap_remove(2);  // removing the last element
  EXPECT_EQ(v, (FixedVector<int, 8>{10, 40}));
  v.swap_remove(0);
  EXPECT_EQ(v, (FixedVector<int, 8>{40}));
  v.swap_remove(0);
  EXPECT_TRUE(v.empty());
}

TEST(FixedVector, ContainsOnlyLooksAtLiveElements) {
  FixedVector<int, 8> v{1, 2, 3};
  EXPECT_TRUE(v.contains(1));
  EXPECT_TRUE(v.contains(3));
  EXPECT_FALSE(v.contains(4));
  v.pop_back();
  EXPECT_FALSE(v.contains(3));  // still in storage, but not an element
  EXPECT_FALSE((FixedVector<int, 8>{}.contains(0)));
}

TEST(FixedVector, EqualityComparesSizeAndLiveElementsOnly) {
  FixedVector<int, 8> a{1, 2, 3};
  FixedVector<int, 8> b{1, 2};
  EXPECT_NE(a, b);
  b.push_back(3);
  EXPECT_EQ(a, b);
  b[2] = 4;
  EXPECT_NE(a, b);
  // Different stale storage beyond size() does not matter.
  a.pop_back();
  b.pop_back();
  EXPECT_EQ(a, b);
  EXPECT_EQ((FixedVector<int, 8>{}), (FixedVector<int, 8>{}));
}

TEST(FixedVector, CopiesAreIndependent) {
  FixedVector<int, 4> a{1, 2};
  FixedVector<int, 4> b = a;
  b.push_back(3);
  b[0] = 9;
  EXPECT_EQ(a, (FixedVector<int, 4>{1, 2}));
  EXPECT_EQ(b, (FixedVector<int, 4>{9, 2, 3}));
}

}  // namespace
}  // namespace kibitz
