// The RM+ search bot (issue 10): candidate order sets, the evaluation, and the search on the
// standard opening: legal orders for every power, the minimum iterations under any budget,
// a strategy that concentrates, determinism under a seed and an iteration count.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "engine/diplomacy_search.hpp"
#include "games/diplomacy/game.hpp"

namespace kibitz::diplomacy {
namespace rm_search_test {

const Map& sm() { return standard_map(); }
PowerId power(const char* name) { return *sm().find_power(name); }

// Every order legal for the power and exactly one per unit.
void expect_full_legal_set(const State& s, PowerId w, const std::vector<Order>& orders) {
  std::set<ProvinceId> ordered;
  for (const Order& o : orders) {
    const auto c = check_order(sm(), s, w, o);
    EXPECT_TRUE(c) << format_order(sm(), o) << ": " << (c ? "" : c.error().message);
    EXPECT_TRUE(ordered.insert(sm().province_of(o.location)).second) << format_order(sm(), o);
  }
  EXPECT_EQ(static_cast<int>(ordered.size()), count_units(sm(), s, w));
}

TEST(DiplomacyCandidates, LegalDistinctAndHeuristicFirst) {
  const State s = initial_state(sm());
  CandidateGenerator gen(sm());
  HeuristicBot heuristic(sm());
  for (PowerId w = 0; w < sm().num_powers(); ++w) {
    Rng rng(11 + w);
    std::vector<OrderSet> sets;
    gen.generate(s, w, 8, rng, sets);
    ASSERT_GE(sets.size(), 4u) << sm().power_name(w);
    EXPECT_LE(sets.size(), 8u);
    for (const auto& set : sets) expect_full_legal_set(s, w, set);
    for (std::size_t i = 0; i < sets.size(); ++i)
      for (std::size_t j = i + 1; j < sets.size(); ++j) EXPECT_NE(sets[i], sets[j]);
    // The first candidate is the heuristic bot's plan (same orders, province order).
    Rng rng2(11 + w);
    std::vector<Order> plan;
    heuristic.orders(s, w, rng2, plan);
    std::sort(plan.begin(), plan.end(),
              [](const Order& a, const Order& b) { return a.location < b.location; });
    EXPECT_EQ(sets[0], plan) << sm().power_name(w);
    // No set sends two own units into one province.
    for (const auto& set : sets) {
      ProvinceSet entered;
      for (const Order& o : set) {
        if (o.type != OrderType::kMove) continue;
        EXPECT_FALSE(entered.test(sm().province_of(o.target))) << format_order(sm(), o);
        entered.set(sm().province_of(o.target));
      }
    }
  }
}

// A policy that likes holds: the most likely set (all holds) comes first.
TEST(DiplomacyCandidates, NeuralCandidatesFollowThePolicy) {
  const State s = initial_state(sm());
  CandidateGenerator gen(sm());
  const PolicyHook policy = [](const State&, PowerId, const Order& o) {
    return o.type == OrderType::kHold ? 2.0 : 0.0;
  };
  Rng rng(3);
  std::vector<OrderSet> sets;
  gen.generate_neural(s, power("Russia"), 6, policy, rng, sets);
  ASSERT_FALSE(sets.empty());
  for (const Order& o : sets[0]) EXPECT_EQ(o.type, OrderType::kHold);
  for (const auto& set : sets) expect_full_legal_set(s, power("Russia"), set);
  EXPECT_GT(CandidateGenerator::policy_score(s, power("Russia"), sets[0], policy),
            CandidateGenerator::policy_score(s, power("Russia"), sets.back(), policy));
}

TEST(DiplomacyEvaluation, CentresThreatsAndCooperation) {
  Evaluator eval(sm());
  State s = initial_state(sm());
  const PowerId fra = power("France"), ger = power("Germany");
  const double start = eval.heuristic(s, fra);
  // Owning one more centre (Spain, not held by anyone) is worth about a centre more.
  State more = s;
  more.owner[*sm().find_province("spa")] = fra;
  EXPECT_GT(eval.heuristic(more, fra), start + 0.5);
  // A German army next to an empty French centre is a threat.
  State threatened = s;
  threatened.remove(*sm().find_province("par"));
  const double no_threat = eval.heuristic(threatened, fra);
  threatened.remove(*sm().find_province("mun"));
  threatened.place(Unit{UnitType::kArmy, ger, *sm().find_location("bur")}, sm());
  EXPECT_LT(eval.heuristic(threatened, fra), no_threat);
  // Solo and elimination dominate everything else.
  State solo = s;
  int owned = 0;
  for (int p = 0; p < sm().num_provinces(); ++p)
    if (sm().is_supply_centre(static_cast<ProvinceId>(p)) && owned++ < 18) solo.owner[p] = fra;
  EXPECT_GT(eval.heuristic(solo, fra), 40);
  // Supporting a German unit costs the cooperation weight; supporting our own does not.
  const std::vector<Order> orders = {*parse_order(sm(), "A par S A mun - bur"),
                                     *parse_order(sm(), "A mar S A par - bur")};
  EXPECT_DOUBLE_EQ(eval.cooperation_penalty(s, fra, orders), eval.weights().cooperation);
}

RmConfig fixed(int iterations, std::uint64_t seed = 5) {
  RmConfig cfg;
  cfg.max_iterations = iterations;
  cfg.seed = seed;
  return cfg;
}

TEST(DiplomacyRmSearch, Spring1901LegalOrdersForEveryPower) {
  const State s = initial_state(sm());
  RmSearch search(sm());
  for (PowerId w = 0; w < sm().num_powers(); ++w) {
    const RmResult r = search.search(w, s, fixed(20));
    EXPECT_EQ(r.iterations, 20);
    EXPECT_GT(r.nodes, 20u);
    EXPECT_GE(r.candidates.size(), 2u);
    EXPECT_EQ(r.strategy.size(), r.candidates.size());
    expect_full_legal_set(s, w, r.orders);
  }
}

// The budget: at least the minimum iterations, even with no time at all; with time, the
// iterations stop at the budget's share (15% + 60%) of it, not much later.
TEST(DiplomacyRmSearch, MinimumIterationsWithinTheBudget) {
  const State s = initial_state(sm());
  RmSearch search(sm());
  RmConfig cfg;
  cfg.movetime_ms = 1;
  const RmResult rushed = search.search(power("Italy"), s, cfg);
  EXPECT_EQ(rushed.iterations, 48);
  cfg.movetime_ms = 300;
  const RmResult r = search.search(power("Italy"), s, cfg);
  EXPECT_GE(r.iterations, 48);
  // Generous: one minimum-iteration run's time on top, for slow (sanitizer) builds.
  EXPECT_LE(r.elapsed_ms, 300 + rushed.elapsed_ms + 100);
  cfg.strength = 0.5;
  cfg.movetime_ms = 1;
  EXPECT_EQ(search.search(power("Italy"), s, cfg).iterations, 24);
}

// On a fixed position the regrets settle on a few candidates: the strategy's entropy falls
// from the first iteration to the last, and the chosen candidate has the largest weight.
TEST(DiplomacyRmSearch, StrategyConcentrates) {
  const State s = initial_state(sm());
  RmSearch search(sm());
  const RmResult r = search.search(power("France"), s, fixed(300));
  EXPECT_LT(r.entropy_last, r.entropy_first);
  const auto best = std::max_element(r.strategy.begin(), r.strategy.end()) - r.strategy.begin();
  EXPECT_EQ(r.orders, r.candidates[best]);
  EXPECT_GT(r.strategy[best], 1.5 / static_cast<double>(r.strategy.size()));
}

// The regrets settle: the average strategy moves less and less. Runs with one seed share
// their first iterations, so these are points on one trajectory.
TEST(DiplomacyRmSearch, AverageStrategyStabilises) {
  const State s = initial_state(sm());
  RmSearch search(sm());
  std::vector<std::vector<double>> avg;
  for (int n : {100, 200, 400, 800})
    avg.push_back(search.search(power("France"), s, fixed(n, 5)).strategy);
  const auto l1 = [](const std::vector<double>& a, const std::vector<double>& b) {
    double d = 0;
    for (std::size_t k = 0; k < a.size(); ++k) d += std::abs(a[k] - b[k]);
    return d;
  };
  const double early = l1(avg[0], avg[1]), late = l1(avg[2], avg[3]);
  EXPECT_LT(late, early / 2);
  EXPECT_LT(late, 0.1);
}

TEST(DiplomacyRmSearch, DeterministicUnderSeedAndIterations) {
  const State s = initial_state(sm());
  RmSearch a(sm()), b(sm());
  const RmResult r1 = a.search(power("Turkey"), s, fixed(60, 9));
  const RmResult r2 = b.search(power("Turkey"), s, fixed(60, 9));
  EXPECT_EQ(r1.orders, r2.orders);
  EXPECT_EQ(r1.strategy, r2.strategy);
  EXPECT_EQ(r1.nodes, r2.nodes);
  // The same object again gives the same answer (nothing carried over between searches).
  const RmResult r3 = a.search(power("Turkey"), s, fixed(60, 9));
  EXPECT_EQ(r1.strategy, r3.strategy);
}

// The bot plays whole games: RM+ in movement phases, the heuristic otherwise; every order it
// gives is legal.
TEST(DiplomacyRmSearch, RmBotPlaysLegalGames) {
  RmConfig cfg = fixed(8);
  RmBot rm(sm(), cfg);
  HeuristicBot heuristic(sm());
  std::vector<Bot*> bots(static_cast<std::size_t>(sm().num_powers()), &heuristic);
  bots[power("England")] = &rm;
  GameRunner runner(sm());
  GameOptions opts;
  opts.max_year = 1903;
  int checked = 0;
  opts.observer = [&](const State& before, std::span<const Order> orders, const State&) {
    for (const Order& o : orders)
      if (o.power == power("England")) {
        EXPECT_TRUE(check_order(sm(), before, power("England"), o)) << format_order(sm(), o);
        ++checked;
      }
  };
  const GameRecord g = runner.play(bots, 4, opts);
  EXPECT_GT(checked, 10);
  EXPECT_FALSE(g.survivors.empty());
}

}  // namespace rm_search_test
}  // namespace kibitz::diplomacy
