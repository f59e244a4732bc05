#include "games/gomoku/search_traits.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace kibitz {

namespace {

// Quiet moves searched per node by remaining depth d: min(A sqrt(d) - B, C), at least 3, in
// a quiet position, and min(5 sqrt(d) - 2, 8) where someone has a four or a free three (the
// shape of PentaZen's move-count pruning). A = 15, B = 12 are PentaZen's numbers; the earlier
// 10 and 8, chosen by self-play at 40 ms a move, pruned more and, with the old move order,
// scored far worse against PentaZen at 1,000 ms (BENCHMARKS.md, issue 23, tenth step).
constexpr double kQuietA = 15, kQuietB = 12;
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

using gomoku::Move;
using gomoku::Pattern;
using gomoku::Position;
using gomoku::Threat;

constexpr int kNarrowVcfDepth = 10;  // attacker moves
constexpr int kNarrowVcfWidth = 2;   // fours tried per node past the first

// How many points (0, 1, or 2 meaning "more than one") complete a five for colour c on the
// lines through sq within four of it; `where` receives the first.
int five_points_near(const Position& p, int sq, gomoku::Color c, int* where) {
  int n = 0;
  for (const int step : gomoku::kDirections)
    for (int k = -4; k <= 4; ++k) {
      const int q = sq + k * step;
      if (k == 0 || q <= 0 || q >= gomoku::kSquares || p.stone(q) != gomoku::kEmpty) continue;
      if (p.threat(q, c) == Threat::kFive && !p.point_flagged(q, c)) {
        if (n == 0) *where = q;
        if (++n == 2) return n;
      }
    }
  return n;
}

// Side to move attacks; `prev` is its previous four (none at the first). Plies to the five.
int narrow_vcf(Position& p, int prev, int depth) {
  if (p.winning_move()) return 1;
  if (depth <= 0 || p.opponent_can_win()) return 0;
  const gomoku::Color me = p.side_to_move();
  std::array<std::uint16_t, 40> moves{};
  int n = 0;
  const auto consider = [&](int q) {
    if (q <= 0 || q >= gomoku::kSquares || p.stone(q) != gomoku::kEmpty) return;
    const Threat t = p.threat(q, me);
    if (t < Threat::kFour || t == Threat::kFive || p.point_flagged(q, me)) return;
    if (prev == 0) {
      // The first four must build on something: a three on another line (closed or free),
      // unless it is a four-three or a double four already. (Fours from a flex two as well
      // played weaker against Wine: BENCHMARKS.md, issue 23, fourth step.)
      int others = 0;
      for (int d = 0; d < 4; ++d)
        if (p.pattern(q, me, d) >= Pattern::kThree && p.pattern(q, me, d) < Pattern::kFour)
          ++others;
      if (others == 0 && t == Threat::kFour) return;
    }
    // No repeats to check: four_moves lists a point once, and the lines through prev meet
    // only at prev.
    if (n < static_cast<int>(moves.size())) moves[n++] = static_cast<std::uint16_t>(q);
  };
  MoveList<Position> all;
  if (prev == 0) {
    p.four_moves(all);
    for (const Move m : all) consider(m.sq);
  } else {
    for (const int step : gomoku::kDirections)
      for (int k = -4; k <= 4; ++k)
        if (k != 0) consider(prev + k * step);
  }
  // Strongest first (open / double fours, four-threes), ties in list order: an insertion
  // sort, as std::stable_sort may allocate a buffer and this runs at every leaf.
  for (int i = 1; i < n; ++i) {
    const std::uint16_t q = moves[i];
    int j = i;
    for (; j > 0 && p.threat(moves[j - 1], me) < p.threat(q, me); --j) moves[j] = moves[j - 1];
    moves[j] = q;
  }
  if (prev != 0) n = std::min(n, kNarrowVcfWidth);
  for (int i = 0; i < n; ++i) {
    const Move m{moves[i]};
    Position::Undo u;
    p.make(m, u);
    int result = 0;
    if (p.is_terminal()) {
      result = p.winner() == me ? 1 : 0;
    } else if (!p.winning_move()) {  // the defender has no five of its own to make
      int block = 0;
      const int fives = five_points_near(p, m.sq, me, &block);
      if (fives >= 2) {
        result = 3;  // two points to complete: one block is not enough
      } else if (fives == 1) {
        Position::Undo bu;
        p.make(Move{static_cast<std::uint16_t>(block)}, bu);
        if (!p.is_terminal()) {
          const int r = narrow_vcf(p, m.sq, depth - 1);
          if (r) result = 2 + r;
        }
        p.unmake(Move{static_cast<std::uint16_t>(block)}, bu);
      }
    }
    p.unmake(m, u);
    if (result) return result;
  }
  return 0;
}

}  // namespace

int SearchTraits<gomoku::Position>::quiescence_win(Position& p) {
  if (p.rule() == gomoku::Rule::kCapture) return 0;  // a capture can break a four
  return narrow_vcf(p, 0, kNarrowVcfDepth);
}

int SearchTraits<gomoku::Position>::late_move_limit(const Position& p, int depth) {
  return kLateMoveLimit[p.quiet_position() ? 0 : 1][std::clamp(depth, 0, kLimitDepths - 1)];
}

}  // namespace kibitz
