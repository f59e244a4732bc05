#include "games/gomoku/search_traits.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace kibitz {

namespace {

// Quiet moves searched per node by remaining depth d: min(A sqrt(d) - B, C), at least 3, in
// a quiet position, and min(5 sqrt(d) - 2, 8) where someone has a four or a free three (the
// shape of PentaZen's move-count pruning; A, B and C chosen by self-play matches, see
// BENCHMARKS.md, issue 23).
constexpr double kQuietA = 10, kQuietB = 8;
constexpr int kQuietCap = 32;
constexpr double kForcingA = 5, kForcingB = 2;
constexpr int kForcingCap = 8;
constexpr int kLimitDepths = 64;

const std::array<std::array<int, kLimitDepths>, 2> kLateMoveLimit = [] {
  std::array<std::array<int, kLimitDepths>, 2> t{};
  for (int d = 0; d < kLimitDepths; ++d) {
    const double r = std::sqrt(static_cast<double>(std::max(d, 1)));
    t[0][d] = std::clamp(static_cast<int>(std::lround(kQuietA * r - kQuietB)), 3, kQuietCap);
    t[1][d] = std::clamp(static_cast<int>(std::lround(kForcingA * r - kForcingB)), 3, kForcingCap);
  }
  return t;
}();

}  // namespace

int SearchTraits<gomoku::Position>::late_move_limit(const Position& p, int depth) {
  return kLateMoveLimit[p.quiet_position() ? 0 : 1][std::clamp(depth, 0, kLimitDepths - 1)];
}

}  // namespace kibitz
