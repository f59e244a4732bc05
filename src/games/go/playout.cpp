// The Go playout policy and PUCT priors (see search_traits.hpp for the rules).
#include <algorithm>
#include <array>
#include <cstdlib>

#include "games/go/pattern_model.hpp"
#include "games/go/patterns.hpp"
#include "games/go/playout_model.hpp"
#include "games/go/search_traits.hpp"
#include "games/go/tactics.hpp"

namespace kibitz::go {

namespace {

// The 3x3 around a point, the point itself excluded.
constexpr std::array<int, 8> kAround = {-kStride - 1, -kStride, -kStride + 1, -1, 1,
                                        kStride - 1,  kStride,  kStride + 1};

// Some liberty of the chain through sq (a chain in atari has exactly one), or kNoPoint.
int chain_liberty(const Position& p, int sq) {
  std::array<int, 1> lib{kNoPoint};
  p.chain_liberties(sq, lib);
  return lib[0];
}

// The two liberties of a chain with two liberties.
std::array<int, 2> two_liberties(const Position& p, int sq) {
  std::array<int, 2> libs{kNoPoint, kNoPoint};
  p.chain_liberties(sq, libs);
  return libs;
}

// A few candidate points, without repeats; one is drawn at random among the acceptable ones.
struct Candidates {
  std::array<int, 40> sq{};
  int n = 0;
  void add(int s) {
    if (s == kNoPoint || n == static_cast<int>(sq.size())) return;
    for (int i = 0; i < n; ++i)
      if (sq[i] == s) return;
    sq[n++] = s;
  }
  int pick(const Position& p, Rng& rng) {
    while (n > 0) {
      const int i = static_cast<int>(rng.below(static_cast<std::uint64_t>(n)));
      const int s = sq[i];
      if (playout_acceptable(p, s)) return s;
      sq[i] = sq[--n];
    }
    return kNoPoint;
  }
};

// The number of distinct chains of colour c and of its opponent orthogonally next to sq.
std::array<int, 2> distinct_chains(const Position& p, int sq, Color c) {
  std::array<int, 4> heads{};
  std::array<int, 2> count{};
  int n = 0;
  for (const int nb : neighbours(sq)) {
    const Color col = p.at(nb);
    if (col > kWhite) continue;
    const int h = p.chain_head(nb);
    bool dup = false;
    for (int i = 0; i < n; ++i) dup |= heads[i] == h;
    if (dup) continue;
    heads[n++] = h;
    ++count[col == c ? 0 : 1];
  }
  return count;
}

int empty_neighbours(const Position& p, int sq) {
  int n = 0;
  for (const int nb : neighbours(sq)) n += p.at(nb) == kEmpty;
  return n;
}

int stone_neighbours(const Position& p, int sq) {
  int n = 0;
  for (const int nb : neighbours(sq)) n += p.at(nb) <= kWhite;
  return n;
}

// Prior factor of a move that makes one of MoGo's 3x3 shapes (patterns.hpp).
constexpr float kShapePrior = 2.0f;

Move at_point(int sq) { return Move{static_cast<std::uint16_t>(sq)}; }

Move random_move(const Position& p, Rng& rng);

// The learned local rule (playout_model.hpp): draw among the empty points around the last
// move l and "tenuki" in proportion to their strengths; a drawn point that is not acceptable
// drops out and the draw is repeated. kNoPoint for tenuki.
int learned_local_move(const Position& p, int l, const PlayoutModel& model, Rng& rng) {
  std::array<int, 8> sq{};
  std::array<float, 8> w{};
  int n = 0;
  float total = model.tenuki();
  for (const int d : kAround) {
    const int q = l + d;
    if (p.at(q) != kEmpty) continue;
    const bool diagonal = d != -kStride && d != -1 && d != 1 && d != kStride;
    w[n] = model.weight(local_code(p, q)) * (diagonal ? model.diagonal() : 1.0f);
    total += w[n];
    sq[n++] = q;
  }
  while (n > 0) {
    float r = static_cast<float>(rng.uniform01()) * total;
    int i = 0;
    for (; i < n; ++i) {
      r -= w[i];
      if (r < 0.0f) break;
    }
    if (i == n) return kNoPoint;  // tenuki
    if (playout_acceptable(p, sq[i])) return sq[i];
    total -= w[i];
    w[i] = w[n - 1];
    sq[i] = sq[--n];
  }
  return kNoPoint;
}

}  // namespace

bool playout_acceptable(const Position& p, int sq) {
  if (p.at(sq) != kEmpty) return false;
  const Color me = p.to_move();
  if (p.is_eye(sq, me)) return false;
  if (!p.is_legal(at_point(sq))) return false;
  // Two empty neighbours guarantee two liberties: the common case needs no chain walk.
  if (empty_neighbours(p, sq) >= 2 || p.liberties_after(sq, 2) >= 2) return true;
  return 1 + adjacent_chains(p, sq, me).stones <= kMaxPlayoutSelfAtari;
}

Move playout_move(const Position& p, Rng& rng) {
  const Color me = p.to_move();
  const Color opp = opponent(me);
  const Move last = p.last_move();
  if (last.is_point()) {
    const int l = last.sq;
    Candidates c;
    // 1. Our chains the last move put in atari: capture a neighbour in atari, or extend.
    const AdjacentChains own = adjacent_chains(p, l, me, 1);
    for (int i = 0; i < own.n; ++i) {
      const int h = own.heads[i];
      int s = h;
      do {
        for (const int nb : neighbours(s))
          if (p.at(nb) == opp && p.liberties(nb) == 1) c.add(chain_liberty(p, nb));
        s = p.next_in_chain(s);
      } while (s != h);
      const int lib = chain_liberty(p, h);
      if (lib != kNoPoint && p.liberties_after(lib, 2) >= 2) c.add(lib);
    }
    if (const int sq = c.pick(p, rng)) return at_point(sq);

    // The learned local rule instead of rules 2 and 3 (playout_model.hpp).
    if (const PlayoutModel* model = PlayoutModel::active()) {
      if (const int sq = learned_local_move(p, l, *model, rng)) return at_point(sq);
      return random_move(p, rng);
    }

    // 2. Capture an opponent chain in atari around the last move.
    if (rng.below(10) < 9) {
      if (p.at(l) == opp && p.liberties(l) == 1) c.add(chain_liberty(p, l));
      for (const int d : kAround)
        if (p.at(l + d) == opp && p.liberties(l + d) == 1) c.add(chain_liberty(p, l + d));
      if (const int sq = c.pick(p, rng)) return at_point(sq);
    }

    // 3. Local shape in the 3x3 around the last move (our stone must keep two liberties):
    // atari on the last move's chain when it has two liberties, cut (a point touching two
    // different opponent chains), connect (touching two of ours), contact hane / block (a
    // point touching both the last stone and one of ours). (MoGo's 3x3 shape table in these
    // playouts instead lost 60-80 in 140 games; it serves the priors.)
    if (rng.below(10) < 8) {
      if (p.at(l) == opp && p.liberties(l) == 2)
        for (const int lib : two_liberties(p, l))
          if (lib != kNoPoint && p.liberties_after(lib, 2) >= 2) c.add(lib);
      for (const int d : kAround) {
        const int q = l + d;
        // Every shape touches at least two stones: most points need no chain lookups.
        if (p.at(q) != kEmpty || stone_neighbours(p, q) < 2) continue;
        const auto [ours, theirs] = distinct_chains(p, q, me);
        const bool touches_last = d == -kStride || d == -1 || d == 1 || d == kStride;
        const bool shape = theirs >= 2 || ours >= 2 || (touches_last && ours >= 1);
        if (shape && p.liberties_after(q, 2) >= 2) c.add(q);
      }
      if (const int sq = c.pick(p, rng)) return at_point(sq);
    }
  }

  return random_move(p, rng);
}

namespace {

// 4. A random acceptable point: scan the empty points from a random start.
Move random_move(const Position& p, Rng& rng) {
  const auto empties = p.empty_points();
  const std::size_t n = empties.size();
  if (n == 0) return Move::pass();
  const std::size_t start = rng.below(n);
  for (std::size_t i = start; i < n; ++i)
    if (playout_acceptable(p, empties[i])) return at_point(empties[i]);
  for (std::size_t i = 0; i < start; ++i)
    if (playout_acceptable(p, empties[i])) return at_point(empties[i]);
  return Move::pass();
}

}  // namespace

void pattern_priors(const Position& p, std::span<const Move> moves, std::span<float> out) {
  const PatternModel& model = PatternModel::active();
  if (model.num_patterns() == 0) return move_priors(p, moves, out);
  model.priors(p, moves, out);
}

void move_priors(const Position& p, std::span<const Move> moves, std::span<float> out) {
  const int n = p.size();
  const Color me = p.to_move();
  const Color opp = opponent(me);
  const Move last = p.last_move();
  const bool open = p.stones_on_board() * 4 < n * n;  // the opening: edges are slow
  float sum = 0.0f;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const Move m = moves[i];
    if (!m.is_point()) {
      out[i] = 0.05f;  // pass: last resort, found by the search when nothing else is left
      sum += out[i];
      continue;
    }
    const int sq = m.sq;
    float w = 1.0f;
    if (p.is_eye(sq, me)) w *= 0.02f;
    const int captured = adjacent_chains(p, sq, opp, 1).stones;
    const int in_atari = adjacent_chains(p, sq, me, 1).stones;
    const bool crowded = empty_neighbours(p, sq) < 2;
    const int libs_after = crowded || in_atari > 0 ? p.liberties_after(sq, 3) : 3;
    if (captured > 0) w *= 3.0f + static_cast<float>(std::min(captured, 12));
    const bool gives_atari = libs_after >= 2 && adjacent_chains(p, sq, opp, 2).n > 0;
    // Ladders (tactics.hpp): an extension out of atari that leaves two liberties is worth
    // little when the ladder still works; an atari that wins a ladder is worth a lot.
    const bool ladder_escape = in_atari > 0 && captured == 0 && libs_after == 2;
    bool escapes = true;
    bool ladder_atari = false;
    if (ladder_escape || gives_atari) {
      Position q = p;
      q.apply(m);
      if (ladder_escape) escapes = !ladder_capturable(q, sq);
      for (const int nb : neighbours(sq))
        if (gives_atari && q.at(nb) == opp && q.liberties(nb) == 1 && ladder_dead(q, nb)) {
          ladder_atari = true;
          break;
        }
    }
    if (in_atari > 0 && libs_after >= 2)
      w *= escapes ? (3.0f + static_cast<float>(std::min(in_atari, 12))) *
                         (libs_after >= 3 ? 1.5f : 1.0f)
                   : 0.2f;
    if (ladder_atari) w *= 3.0f;
    if (captured == 0 && libs_after <= 1)
      w *= (1 + adjacent_chains(p, sq, me).stones >= 2) ? 0.05f : 0.3f;  // self-atari
    if (gives_atari) w *= 1.5f;
    if (libs_after >= 2 && is_shape_move(p, sq, me)) w *= kShapePrior;  // MoGo's 3x3 shapes
    if (last.is_point()) {
      const int d =
          std::max(std::abs(x_of(sq) - x_of(last.sq)), std::abs(y_of(sq) - y_of(last.sq)));
      w *= d <= 1 ? 2.5f : d <= 2 ? 1.6f : 1.0f;
    }
    const int line = std::min({x_of(sq), y_of(sq), n - 1 - x_of(sq), n - 1 - y_of(sq)});
    if (n >= 9 && (line == 2 || line == 3)) w *= 1.5f;
    if (open && line == 0) w *= n >= 9 ? 0.15f : 0.5f;
    if (open && line == 1 && n >= 9) w *= 0.5f;
    out[i] = w;
    sum += w;
  }
  if (sum > 0.0f)
    for (std::size_t i = 0; i < moves.size(); ++i) out[i] /= sum;
}

}  // namespace kibitz::go
