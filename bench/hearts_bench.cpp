// Hearts kernels: random full hands (deal, passing, 52 plays) on the rules engine, the
// rollout policy, belief construction and world sampling.
#include <benchmark/benchmark.h>

#include "games/hearts/belief.hpp"
#include "games/hearts/policy.hpp"
#include "games/hearts/state.hpp"

namespace {

using namespace kibitz;
using namespace kibitz::hearts;

void BM_HeartsRandomHand(benchmark::State& st) {
  Rng rng(1);
  for (auto _ : st) {
    State s(random_deal(rng), PassDir::kLeft);
    while (!s.is_terminal()) {
      CardSet legal = s.legal_set();
      int i = static_cast<int>(rng.below(static_cast<std::uint64_t>(legal.size())));
      while (i-- > 0) legal.pop_lowest();
      s.apply(legal.lowest());
    }
    benchmark::DoNotOptimize(s.hand_scores());
  }
  st.SetItemsProcessed(st.iterations());  // hands
}
BENCHMARK(BM_HeartsRandomHand);

void BM_HeartsPolicyHand(benchmark::State& st) {
  Rng rng(2);
  for (auto _ : st) {
    State s(random_deal(rng), PassDir::kNone);
    while (!s.is_terminal()) s.apply(policy_play(s, rng));
    benchmark::DoNotOptimize(s.hand_scores());
  }
  st.SetItemsProcessed(st.iterations());
}
BENCHMARK(BM_HeartsPolicyHand);

void BM_HeartsBeliefSample(benchmark::State& st) {
  Rng rng(3);
  State s(random_deal(rng), PassDir::kNone);
  while (s.num_plays() < 20) s.apply(policy_play(s, rng));
  const Observation o = s.information_state(s.current_player());
  for (auto _ : st) {
    const Belief b(o);
    benchmark::DoNotOptimize(b.sample(rng));
  }
}
BENCHMARK(BM_HeartsBeliefSample);

}  // namespace
