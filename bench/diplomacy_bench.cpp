// Diplomacy kernels: adjudicating Spring 1901 (22 units, random legal orders generated
// beforehand, so only the resolution is timed), enumerating legal orders, and whole random
// games (bot orders + effective_order + resolution of every phase), counted in phases: the
// figure peers report (dipcc, godip).
#include <benchmark/benchmark.h>

#include <vector>

#include "games/diplomacy/adjudicator.hpp"
#include "games/diplomacy/bots.hpp"
#include "games/diplomacy/game.hpp"

namespace {

using namespace kibitz;
using namespace kibitz::diplomacy;

// Order sets for every unit of the opening position, picked by the random bot.
std::vector<std::vector<Order>> spring_1901_orders(int sets) {
  const Map& m = standard_map();
  const State s = initial_state(m);
  RandomBot bot(m);
  Rng rng(1);
  std::vector<std::vector<Order>> out(static_cast<std::size_t>(sets));
  for (auto& orders : out) {
    std::vector<Order> given;
    for (int p = 0; p < m.num_powers(); ++p) {
      given.clear();
      bot.orders(s, static_cast<PowerId>(p), rng, given);
      for (Order o : given) {
        o.power = static_cast<PowerId>(p);
        if (auto e = effective_order(m, s, o.power, o)) orders.push_back(*e);
      }
    }
  }
  return out;
}

void BM_DiplomacyAdjudicateSpring1901(benchmark::State& st) {
  const Map& m = standard_map();
  const State s = initial_state(m);
  const auto sets = spring_1901_orders(1024);
  Adjudicator adj(m);
  MovementResult result;
  std::size_t i = 0, orders = 0;
  for (auto _ : st) {
    const auto& o = sets[i++ & 1023];
    adj.resolve_movement(s, o, result);
    orders += o.size();
    benchmark::DoNotOptimize(result.next.phase);
  }
  st.SetItemsProcessed(st.iterations());  // adjudications
  st.counters["orders/s"] =
      benchmark::Counter(static_cast<double>(orders), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_DiplomacyAdjudicateSpring1901);

// set_state() and every unit's legal orders in the opening position. Two positions (A PAR
// or A BUR) alternate, so set_state() recomputes its tables every time.
void BM_DiplomacyLegalOrdersSpring1901(benchmark::State& st) {
  const Map& m = standard_map();
  State s[2] = {initial_state(m), initial_state(m)};
  const ProvinceId par = *m.find_province("par"), bur = *m.find_province("bur");
  s[1].units[bur] = s[1].units[par];
  s[1].units[bur].location = m.location(bur);
  s[1].remove(par);
  OrderGenerator gen(m);
  std::vector<Order> out;
  std::size_t listed = 0, i = 0;
  for (auto _ : st) {
    gen.set_state(s[i++ & 1]);
    out.clear();
    for (int p = 0; p < m.num_provinces(); ++p) gen.unit_orders(static_cast<ProvinceId>(p), out);
    listed += out.size();
    benchmark::DoNotOptimize(out.data());
  }
  st.SetItemsProcessed(st.iterations());
  st.counters["orders/s"] =
      benchmark::Counter(static_cast<double>(listed), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_DiplomacyLegalOrdersSpring1901);

// Whole games to the default last year (1930) or a solo, one game per iteration; items are
// phases.
void games(benchmark::State& st, Bot& bot) {
  const Map& m = standard_map();
  GameRunner runner(m);
  std::vector<Bot*> bots(static_cast<std::size_t>(m.num_powers()), &bot);
  GameOptions opt;
  opt.record = false;
  std::uint64_t seed = 1;
  std::int64_t phases = 0;
  for (auto _ : st) {
    const GameRecord r = runner.play(bots, seed++, opt);
    phases += r.num_phases;
    benchmark::DoNotOptimize(r.centres.data());
  }
  st.SetItemsProcessed(phases);
  st.counters["phases/game"] =
      static_cast<double>(phases) / static_cast<double>(std::max<std::int64_t>(1, st.iterations()));
}

void BM_DiplomacyRandomGamePhases(benchmark::State& st) {
  RandomBot bot(standard_map());
  games(st, bot);
}
BENCHMARK(BM_DiplomacyRandomGamePhases)->Unit(benchmark::kMillisecond);

void BM_DiplomacyHeuristicGamePhases(benchmark::State& st) {
  HeuristicBot bot(standard_map());
  games(st, bot);
}
BENCHMARK(BM_DiplomacyHeuristicGamePhases)->Unit(benchmark::kMillisecond);

}  // namespace
