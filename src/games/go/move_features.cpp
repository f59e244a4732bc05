// Move features and shape-pattern keys (see move_features.hpp).
#include "games/go/move_features.hpp"

#include <algorithm>
#include <cstdlib>

#include "core/zobrist.hpp"
#include "games/go/tactics.hpp"

namespace kibitz::go {

namespace {

struct Offset {
  int dx, dy;
};

constexpr int gridcular(int dx, int dy) {
  dx = dx < 0 ? -dx : dx;
  dy = dy < 0 ? -dy : dy;
  return dx + dy + (dx > dy ? dx : dy);
}

// The pattern points (the centre excluded), sorted by gridcular distance, and for each of the
// 8 symmetries the index each point maps to: the symmetries keep distances, so every nested
// size is a prefix of the list that each symmetry permutes within itself.
struct PatternGeometry {
  static constexpr int kMaxPoints = 80;
  std::array<Offset, kMaxPoints> offset{};
  int points = 0;
  std::array<int, kNumPatternSizes> end{};  // points of size i: [0, end[i])
  std::array<std::array<std::uint8_t, kMaxPoints>, 8> image{};

  constexpr PatternGeometry() {
    const int reach = kPatternDistance.back() / 2;
    for (int d = 1; d <= kPatternDistance.back(); ++d)
      for (int dy = -reach; dy <= reach; ++dy)
        for (int dx = -reach; dx <= reach; ++dx)
          if (gridcular(dx, dy) == d) offset[points++] = {dx, dy};
    for (int s = 0; s < kNumPatternSizes; ++s) {
      int n = 0;
      while (n < points && gridcular(offset[n].dx, offset[n].dy) <= kPatternDistance[s]) ++n;
      end[s] = n;
    }
    for (int t = 0; t < 8; ++t)
      for (int i = 0; i < points; ++i) {
        int x = offset[i].dx, y = offset[i].dy;
        if (t & 1) std::swap(x, y);
        if (t & 2) x = -x;
        if (t & 4) y = -y;
        for (int j = 0; j < points; ++j)
          if (offset[j].dx == x && offset[j].dy == y) image[t][i] = static_cast<std::uint8_t>(j);
      }
  }
};

constexpr PatternGeometry kGeometry{};
static_assert(kGeometry.end.back() == 72, "d <= 10 holds 72 points around the centre");
static_assert(kGeometry.end.front() == 8, "d <= 3 is the 3x3");

// Point states relative to the side to move; empty points add nothing to a key.
enum : int { kStateEmpty = 0, kStateOwn = 1, kStateOpponent = 2, kStateOff = 3 };
constexpr ZobristTable<PatternGeometry::kMaxPoints * 4> kPatternZobrist{0x9a77e2f5c3d1b4a1ULL};
constexpr ZobristTable<kNumPatternSizes> kSizeSalt{0x5eed0f5a17e5ULL};

int line_of(int sq, int n) {
  return std::min({x_of(sq), y_of(sq), n - 1 - x_of(sq), n - 1 - y_of(sq)});
}

// The chain through `head` touches a chain of colour c in atari.
bool touches_atari(const Position& p, int head, Color c) {
  int s = head;
  do {
    for (const int nb : neighbours(s))
      if (p.at(nb) == c && p.liberties(nb) == 1) return true;
    s = p.next_in_chain(s);
  } while (s != head);
  return false;
}

std::int32_t distance_value(int sq, Move other) {
  if (!other.is_point()) return kNoFeature;
  return std::min(gridcular_distance(sq, other.sq), 17) - 2;
}

}  // namespace

int gridcular_distance(int a, int b) { return gridcular(x_of(a) - x_of(b), y_of(a) - y_of(b)); }

namespace {

// Reads the pattern points of the sizes from..to-1 into the 8 symmetric hashes.
struct PatternReader {
  const Position& p;
  int x0, y0, n;
  Color me;
  std::array<std::uint64_t, 8> h{};
  int next = 0;  // the next point to read

  PatternReader(const Position& pos, int sq)
      : p(pos), x0(x_of(sq)), y0(y_of(sq)), n(pos.size()), me(pos.to_move()) {}

  std::uint64_t key(int size) {
    for (; next < kGeometry.end[size]; ++next) {
      const int x = x0 + kGeometry.offset[next].dx, y = y0 + kGeometry.offset[next].dy;
      int state = kStateOff;
      if (x >= 0 && y >= 0 && x < n && y < n) {
        const Color c = p.at(point_of(x, y));
        if (c == kEmpty) continue;
        state = c == me ? kStateOwn : kStateOpponent;
      }
      for (int t = 0; t < 8; ++t) h[t] ^= kPatternZobrist[kGeometry.image[t][next] * 4 + state];
    }
    return *std::min_element(h.begin(), h.end()) ^ kSizeSalt[size];
  }
};

}  // namespace

PatternKeys pattern_keys(const Position& p, int sq) {
  PatternReader r(p, sq);
  PatternKeys out;
  for (int s = 0; s < kNumPatternSizes; ++s) out.key[s] = r.key(s);
  return out;
}

std::int32_t listed_pattern(const Position& p, int sq, const PatternTableView& table) {
  PatternReader r(p, sq);
  std::int32_t best = 0;
  for (int s = 0; s < kNumPatternSizes; ++s) {
    const std::int32_t v = table.find(r.key(s));
    if (v == 0) break;
    best = v;
  }
  return best;
}

MoveFeatures move_features(const Position& p, Move m, bool read_ladders) {
  MoveFeatures f;
  f.value.fill(kNoFeature);
  if (m.is_pass()) {
    f.value[kPassGroup] = p.last_move().is_pass() ? 1 : 0;
    return f;
  }
  if (!m.is_point()) return f;
  const int sq = m.sq;
  const Color me = p.to_move();
  const Color opp = opponent(me);

  // Captures: the best kind among the chains taken, the size of all of them.
  const AdjacentChains taken = adjacent_chains(p, sq, opp, 1);
  if (taken.n > 0) {
    const Move last = p.last_move();
    int kind = 2;
    for (int i = 0; i < taken.n; ++i) {
      if (touches_atari(p, taken.heads[i], me))
        kind = 0;
      else if (last.is_point() && p.at(last.sq) == opp && p.chain_head(last.sq) == taken.heads[i])
        kind = std::min(kind, 1);
    }
    const int size = taken.stones == 1 ? 0 : taken.stones <= 3 ? 1 : 2;
    f.value[kCaptureGroup] = kind * 3 + size;
  }

  const AdjacentChains in_atari = adjacent_chains(p, sq, me, 1);
  // Two empty neighbours already rule out a self-atari; the exact count (up to 3) matters only
  // then and for an extension.
  int empty = 0;
  for (const int nb : neighbours(sq)) empty += p.at(nb) == kEmpty;
  const int libs_after = empty < 2 || in_atari.n > 0 ? p.liberties_after(sq, 3) : empty;
  const AdjacentChains two_libs = adjacent_chains(p, sq, opp, 2);
  bool caught = false, ladder_atari = false;
  if (read_ladders && ((in_atari.n > 0 && libs_after == 2) || two_libs.n > 0)) {
    Position q = p;
    q.apply(m);
    if (in_atari.n > 0 && libs_after == 2) caught = ladder_capturable(q, sq);
    for (int i = 0; i < two_libs.n && !ladder_atari; ++i)
      ladder_atari = q.at(two_libs.heads[i]) == opp && q.liberties(two_libs.heads[i]) == 1 &&
                     ladder_dead(q, two_libs.heads[i]);
  }
  if (in_atari.n > 0 && libs_after >= 2)
    f.value[kExtensionGroup] = (in_atari.stones == 1 ? 0 : 3) + (libs_after >= 3 ? 2
                                                                 : caught        ? 0
                                                                                 : 1);
  if (libs_after == 1 && taken.n == 0) {
    const int size = 1 + adjacent_chains(p, sq, me).stones;
    f.value[kSelfAtariGroup] = size == 1 ? 0 : size <= 4 ? 1 : 2;
  }
  if (two_libs.n > 0) f.value[kAtariGroup] = ladder_atari ? 0 : p.ko_point() != kNoPoint ? 1 : 2;
  const int line = line_of(sq, p.size());
  if (line < 4) f.value[kEdgeGroup] = line;
  f.value[kLastDistanceGroup] = distance_value(sq, p.last_move());
  f.value[kPreviousDistanceGroup] = distance_value(sq, p.previous_move());
  return f;
}

}  // namespace kibitz::go
