#pragma once
// Generic pieces of searches over sampled worlds (games of imperfect information), written
// once: a belief to draw worlds from, weighted resampling of the draws, reuse of the worlds
// of an earlier decision that are still consistent, and successive halving to choose among
// many candidates with few samples. Hearts' search uses all four (engine/hearts_engine.cpp);
// nothing here knows a game.
#include <algorithm>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/rng.hpp"

namespace kibitz::search {

// What a player believes about the hidden part of the game: sample(rng) draws a world (a
// full deal) consistent with everything that player has seen.
template <class B, class World>
concept Belief = requires(const B& b, Rng& rng) {
  { b.sample(rng) } -> std::convertible_to<World>;
};

// Systematic resampling: k indices into the weights drawn in proportion to exp(log weight)
// with one uniform draw for all of them (an index may come several times; low variance).
inline void systematic_resample(std::span<const double> log_weights, int k, Rng& rng,
                                std::vector<std::size_t>& out) {
  out.clear();
  if (log_weights.empty() || k <= 0) return;
  const double top = *std::max_element(log_weights.begin(), log_weights.end());
  std::vector<double> cum(log_weights.size());
  double total = 0.0;
  for (std::size_t i = 0; i < log_weights.size(); ++i)
    cum[i] = total += std::exp(log_weights[i] - top);
  const double step = total / k;
  double at = rng.uniform01() * step;
  std::size_t j = 0;
  for (int n = 0; n < k; ++n, at += step) {
    while (j + 1 < cum.size() && cum[j] < at) ++j;
    out.push_back(j);
  }
}

// k worlds weighed by a model of the other players: `draws` worlds from the belief (fewer
// when `stop(drawn)` says the budget is spent), each weighed by log_weight(world), then k
// kept by systematic resampling. Empty when nothing could be drawn.
template <class World, class B, class LogWeight, class Stop>
requires Belief<B, World> std::vector<World> weighted_worlds(const B& belief, int k, int draws,
                                                             Rng& rng, LogWeight&& log_weight,
                                                             Stop&& stop) {
  std::vector<World> pool;
  std::vector<double> ll;
  while (static_cast<int>(pool.size()) < draws && !stop(pool.size())) {
    pool.push_back(belief.sample(rng));
    ll.push_back(log_weight(pool.back()));
  }
  std::vector<World> out;
  if (pool.empty()) return out;
  std::vector<std::size_t> keep;
  systematic_resample(ll, k, rng, keep);
  out.reserve(keep.size());
  for (const std::size_t i : keep) out.push_back(pool[i]);
  return out;
}

// Up to k of an earlier decision's worlds that still fit what has been seen since:
// `update(world)` brings a copy up to date and says whether it is still consistent.
template <class World, class Update>
void reuse_worlds(const std::vector<World>& earlier, int k, Update&& update,
                  std::vector<World>& out) {
  for (World w : earlier) {
    if (static_cast<int>(out.size()) >= k) break;
    if (update(w)) out.push_back(w);
  }
}

// Successive halving over candidates sharing one sequence of sampled worlds: every candidate
// is valued on the first `first` worlds, the best quarter (at least `keep_at_least`) on four
// times as many, and so on up to `total`. draw(w) makes world w available (false: the budget
// is spent); value(c, w) adds candidate c's result on world w to it (false: spent); worlds(c)
// is how many worlds c has been valued on, mean(c) its mean so far. The candidates end
// sorted best first (stably). Returns false when the budget cut a round short (the means
// then stand on unequal numbers of worlds, and a candidate may have none).
struct HalvingSchedule {
  int total = 0;  // worlds for the last candidates
  int first = 1;  // worlds for every candidate in the first round
  std::size_t keep_at_least = 2;
};

template <class Cand, class Draw, class Value, class Worlds, class Mean>
bool successive_halving(std::vector<Cand>& cands, const HalvingSchedule& schedule, Draw&& draw,
                        Value&& value, Worlds&& worlds, Mean&& mean) {
  int drawn = 0;
  int upto = std::max(1, schedule.first);
  bool complete = true;
  while (complete) {
    while (drawn < upto && draw(drawn)) ++drawn;
    if (drawn < upto) {
      complete = false;
      upto = drawn;
    }
    for (std::size_t i = 0; i < cands.size() && complete; ++i)
      for (int w = worlds(cands[i]); w < upto; ++w)
        if (!value(cands[i], w)) {
          complete = false;
          break;
        }
    if (!complete) break;
    std::stable_sort(cands.begin(), cands.end(),
                     [&](const Cand& x, const Cand& y) { return mean(x) > mean(y); });
    if (upto >= schedule.total) break;
    cands.resize(std::max<std::size_t>(schedule.keep_at_least, cands.size() / 4));
    upto = std::min(schedule.total, upto * 4);
  }
  if (!complete)
    std::stable_sort(cands.begin(), cands.end(), [&](const Cand& x, const Cand& y) {
      if ((worlds(x) > 0) != (worlds(y) > 0)) return worlds(x) > 0;
      return mean(x) > mean(y);
    });
  return complete;
}

}  // namespace kibitz::search
