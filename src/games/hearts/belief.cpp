#include "games/hearts/belief.hpp"

#include <algorithm>
#include <limits>

namespace kibitz::hearts {

namespace {

using u128 = unsigned __int128;
constexpr std::uint64_t kSaturated = std::numeric_limits<std::uint64_t>::max();

// Binomial coefficients up to 52 choose k (exact in 64 bits).
struct Binomials {
  std::array<std::array<std::uint64_t, 53>, 53> c{};
  constexpr Binomials() {
    for (std::size_t n = 0; n < 53; ++n) {
      c[n][0] = 1;
      for (std::size_t k = 1; k <= n; ++k) c[n][k] = c[n - 1][k - 1] + (k < n ? c[n - 1][k] : 0);
    }
  }
};
constexpr Binomials kBinom;

std::uint64_t choose(int n, int k) {
  return kBinom.c[static_cast<std::size_t>(n)][static_cast<std::size_t>(k)];
}

std::uint64_t sat_add(std::uint64_t a, std::uint64_t b) {
  return a > kSaturated - b ? kSaturated : a + b;
}
std::uint64_t sat_mul(std::uint64_t a, std::uint64_t b) {
  const u128 p = static_cast<u128>(a) * b;
  return p > kSaturated ? kSaturated : static_cast<std::uint64_t>(p);
}

// The ways a group of n cards splits into a, b, c = n - a - b for the three other seats,
// honouring which seats may hold them (bit i of allowed).
template <class F>
void for_splits(int n, std::uint8_t allowed, F&& f) {
  for (int a = 0; a <= n; ++a) {
    if (a > 0 && !(allowed & 1)) break;
    for (int b = 0; a + b <= n; ++b) {
      if (b > 0 && !(allowed & 2)) break;
      const int c = n - a - b;
      if (c > 0 && !(allowed & 4)) continue;
      f(a, b, choose(n, a) * choose(n - a, b));
    }
  }
}

// Calls f(subset) for every subset of s with k cards.
template <class F>
void for_subsets(CardSet s, int k, CardSet acc, F&& f) {
  if (k == 0) {
    f(acc);
    return;
  }
  if (s.size() < k) return;
  const Card c = s.lowest();
  const CardSet rest = s - CardSet::of(c);
  for_subsets(rest, k - 1, acc | CardSet::of(c), f);
  for_subsets(rest, k, acc, f);
}

}  // namespace

Belief::Belief(const Observation& o) {
  const int me = o.seat();
  const bool passing = o.phase() == Phase::kPass;
  fixed_[me] = o.hand() | (passing ? o.passed_out() : CardSet{});
  int k = 0;
  for (int p = 0; p < kNumPlayers; ++p)
    if (p != me) others_[static_cast<std::size_t>(k++)] = p;
  const CardSet free = CardSet::deck() - fixed_[me] - o.public_state().played() -
                       (passing ? CardSet{} : o.passed_out());
  int needed = 0;
  bool consistent = true;
  for (int i = 0; i < 3; ++i) {
    const int p = others_[static_cast<std::size_t>(i)];
    fixed_[p] = passing ? CardSet{} : o.known(p);
    need_[static_cast<std::size_t>(i)] = o.hand_size(p) - fixed_[p].size();
    consistent &= need_[static_cast<std::size_t>(i)] >= 0 &&
                  need_[static_cast<std::size_t>(i)] <= kHandSize &&
                  (fixed_[p] & o.excluded(p)).empty();
    needed += need_[static_cast<std::size_t>(i)];
  }
  consistent &= needed == free.size();
  std::array<CardSet, 8> by_mask{};
  for (const Card c : free) {
    std::uint8_t allowed = 0;
    for (int i = 0; i < 3; ++i)
      if (!o.excluded(others_[static_cast<std::size_t>(i)]).contains(c))
        allowed |= static_cast<std::uint8_t>(1 << i);
    consistent &= allowed != 0;
    by_mask[allowed].add(c);
  }
  for (std::uint8_t m = 1; m < 8; ++m)
    if (!by_mask[m].empty()) groups_.push_back({by_mask[m], m, by_mask[m].size()});

  // Completions, from the last group back.
  const std::size_t g_count = groups_.size();
  suffix_.assign(g_count + 1, {});
  if (consistent) {
    if (need_[0] <= 13 && need_[1] <= 13)
      suffix_[g_count][static_cast<std::size_t>(need_[0])][static_cast<std::size_t>(need_[1])] = 1;
    for (std::size_t g = g_count; g-- > 0;) {
      for (int x0 = 0; x0 <= need_[0]; ++x0)
        for (int x1 = 0; x1 <= need_[1]; ++x1) {
          std::uint64_t sum = 0;
          for_splits(groups_[g].n, groups_[g].allowed, [&](int a, int b, std::uint64_t ways) {
            if (x0 + a > need_[0] || x1 + b > need_[1]) return;
            sum = sat_add(sum, sat_mul(ways, suffix_[g + 1][static_cast<std::size_t>(x0 + a)]
                                                    [static_cast<std::size_t>(x1 + b)]));
          });
          suffix_[g][static_cast<std::size_t>(x0)][static_cast<std::size_t>(x1)] = sum;
        }
    }
    total_ = suffix_[0][0][0];
  }

  // Card-location probabilities: forward counts (as doubles) times completions.
  for (int p = 0; p < kNumPlayers; ++p)
    for (const Card c : fixed_[p])
      prob_[static_cast<std::size_t>(p)][static_cast<std::size_t>(c.index())] = 1.0;
  if (total_ == 0) return;
  std::array<std::array<double, 14>, 14> fwd{};
  fwd[0][0] = 1.0;
  const double total = static_cast<double>(total_);
  for (std::size_t g = 0; g < g_count; ++g) {
    std::array<std::array<double, 14>, 14> next{};
    std::array<double, 3> share{};
    for (int x0 = 0; x0 <= need_[0]; ++x0)
      for (int x1 = 0; x1 <= need_[1]; ++x1) {
        const double w = fwd[static_cast<std::size_t>(x0)][static_cast<std::size_t>(x1)];
        if (w == 0.0) continue;
        for_splits(groups_[g].n, groups_[g].allowed, [&](int a, int b, std::uint64_t ways) {
          if (x0 + a > need_[0] || x1 + b > need_[1]) return;
          const double here = w * static_cast<double>(ways);
          next[static_cast<std::size_t>(x0 + a)][static_cast<std::size_t>(x1 + b)] += here;
          const double all =
              here * static_cast<double>(suffix_[g + 1][static_cast<std::size_t>(x0 + a)]
                                                [static_cast<std::size_t>(x1 + b)]);
          share[0] += all * a;
          share[1] += all * b;
          share[2] += all * (groups_[g].n - a - b);
        });
      }
    fwd = next;
    for (int i = 0; i < 3; ++i)
      for (const Card c : groups_[g].cards)
        prob_[static_cast<std::size_t>(others_[static_cast<std::size_t>(i)])]
             [static_cast<std::size_t>(c.index())] =
                 share[static_cast<std::size_t>(i)] / (total * groups_[g].n);
  }
}

double Belief::probability(int seat, Card c) const {
  return prob_[static_cast<std::size_t>(seat)][static_cast<std::size_t>(c.index())];
}

double Belief::void_probability(int seat, Suit s) const {
  if (total_ == 0) return 0.0;
  if (fixed_[seat].has(s)) return 0.0;
  const auto it = std::find(others_.begin(), others_.end(), seat);
  if (it == others_.end()) return fixed_[seat].has(s) ? 0.0 : 1.0;
  const std::size_t i = static_cast<std::size_t>(it - others_.begin());
  // Count the deals with no card of s for that seat: the same table with s removed from
  // the seat's allowed groups.
  std::vector<Group> groups;
  for (const Group& g : groups_) {
    const CardSet in = g.cards.in_suit(s);
    if (in.empty() || !(g.allowed & (1u << i))) {
      groups.push_back(g);
      continue;
    }
    const std::uint8_t without = static_cast<std::uint8_t>(g.allowed & ~(1u << i));
    if (without == 0) return 0.0;
    if (!(g.cards - in).empty()) groups.push_back({g.cards - in, g.allowed, (g.cards - in).size()});
    groups.push_back({in, without, in.size()});
  }
  std::array<std::array<std::uint64_t, 14>, 14> suf{}, prev{};
  suf[static_cast<std::size_t>(need_[0])][static_cast<std::size_t>(need_[1])] = 1;
  for (std::size_t g = groups.size(); g-- > 0;) {
    prev = {};
    for (int x0 = 0; x0 <= need_[0]; ++x0)
      for (int x1 = 0; x1 <= need_[1]; ++x1)
        for_splits(groups[g].n, groups[g].allowed, [&](int a, int b, std::uint64_t ways) {
          if (x0 + a > need_[0] || x1 + b > need_[1]) return;
          auto& cell = prev[static_cast<std::size_t>(x0)][static_cast<std::size_t>(x1)];
          cell = sat_add(
              cell,
              sat_mul(ways,
                      suf[static_cast<std::size_t>(x0 + a)][static_cast<std::size_t>(x1 + b)]));
        });
    suf = prev;
  }
  return static_cast<double>(suf[0][0]) / static_cast<double>(total_);
}

Deal Belief::sample(Rng& rng) const {
  Deal d = fixed_;
  if (total_ == 0) return d;
  int x0 = 0, x1 = 0;
  for (std::size_t g = 0; g < groups_.size(); ++g) {
    const Group& gr = groups_[g];
    std::uint64_t r =
        rng.below(suffix_[g][static_cast<std::size_t>(x0)][static_cast<std::size_t>(x1)]);
    int pa = -1, pb = -1;
    for_splits(gr.n, gr.allowed, [&](int a, int b, std::uint64_t ways) {
      if (pa >= 0 || x0 + a > need_[0] || x1 + b > need_[1]) return;
      const std::uint64_t w = sat_mul(
          ways, suffix_[g + 1][static_cast<std::size_t>(x0 + a)][static_cast<std::size_t>(x1 + b)]);
      if (r < w) {
        pa = a;
        pb = b;
      } else {
        r -= w;
      }
    });
    // A uniformly random ordering of the group's cards: the first pa to the first seat, the
    // next pb to the second, the rest to the third.
    std::array<Card, kNumCards> cards{};
    int n = 0;
    for (const Card c : gr.cards) cards[static_cast<std::size_t>(n++)] = c;
    for (int i = 0; i < pa + pb; ++i) {
      const int j = i + static_cast<int>(rng.below(static_cast<std::uint64_t>(n - i)));
      std::swap(cards[static_cast<std::size_t>(i)], cards[static_cast<std::size_t>(j)]);
    }
    for (int i = 0; i < n; ++i) {
      const int who = i < pa ? 0 : i < pa + pb ? 1 : 2;
      d[static_cast<std::size_t>(others_[static_cast<std::size_t>(who)])].add(
          cards[static_cast<std::size_t>(i)]);
    }
    x0 += pa;
    x1 += pb;
  }
  return d;
}

bool Belief::enumerate(std::uint64_t limit, std::vector<Deal>& out) const {
  if (total_ == 0 || total_ > limit) return total_ == 0;
  out.reserve(out.size() + total_);
  Deal d = fixed_;
  // Depth-first over groups: a split, then the cards of each share.
  auto rec = [&](auto&& self, std::size_t g, int x0, int x1) -> void {
    if (g == groups_.size()) {
      if (x0 == need_[0] && x1 == need_[1]) out.push_back(d);
      return;
    }
    const Group& gr = groups_[g];
    for_splits(gr.n, gr.allowed, [&](int a, int b, std::uint64_t) {
      if (x0 + a > need_[0] || x1 + b > need_[1]) return;
      if (suffix_[g + 1][static_cast<std::size_t>(x0 + a)][static_cast<std::size_t>(x1 + b)] == 0)
        return;
      auto& h0 = d[static_cast<std::size_t>(others_[0])];
      auto& h1 = d[static_cast<std::size_t>(others_[1])];
      auto& h2 = d[static_cast<std::size_t>(others_[2])];
      for_subsets(gr.cards, a, CardSet{}, [&](CardSet s0) {
        for_subsets(gr.cards - s0, b, CardSet{}, [&](CardSet s1) {
          const CardSet s2 = gr.cards - s0 - s1;
          h0 |= s0;
          h1 |= s1;
          h2 |= s2;
          self(self, g + 1, x0 + a, x1 + b);
          h0 -= s0;
          h1 -= s1;
          h2 -= s2;
        });
      });
    });
  };
  rec(rec, 0, 0, 0);
  return true;
}

}  // namespace kibitz::hearts
