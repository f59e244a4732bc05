#include "engine/diplomacy_search.hpp"

#include <algorithm>
#include <cmath>

#include "games/diplomacy/game.hpp"
#include "games/diplomacy/phase_game.hpp"
#include "search/regret/regret_matching.hpp"

namespace kibitz::diplomacy {

RmSearch::RmSearch(const Map& map)
    : map_(map), candidates_(map), greedy_(map), evaluator_(map), resolver_(map) {}

const State& RmSearch::simulate(const State& s, int movements, Rng& rng) {
  sim_ = s;
  for (int done = 0; done < movements;) {
    if (solo_winner(map_, sim_) || powers_alive(map_, sim_) <= 1) break;
    const bool movement = sim_.phase.type == PhaseType::kMovement;
    effective_.clear();
    for (PowerId w = 0; w < map_.num_powers(); ++w) {
      if (!has_orders(map_, sim_, w)) continue;
      given_.clear();
      greedy_.orders(sim_, w, rng, given_);
      // The heuristic's orders are legal (bots.hpp): no effective_order() needed.
      effective_.insert(effective_.end(), given_.begin(), given_.end());
    }
    sim_ = resolver_.resolve(sim_, effective_);
    ++resolved_;
    done += movement;
  }
  return sim_;
}

namespace {

double entropy(const std::vector<double>& p) {
  double h = 0;
  for (double x : p)
    if (x > 0) h -= x * std::log(x);
  return h;
}

std::vector<double> softmax(const std::vector<double>& r, double temperature) {
  std::vector<double> s(r.size());
  search::softmax(r, temperature, s);
  return s;
}

int scaled(int base, double strength, int at_least) {
  return std::max(at_least, static_cast<int>(std::lround(base * strength)));
}

}  // namespace

RmResult RmSearch::search(PowerId power, const State& s, const RmConfig& cfg,
                          const PolicyHook* policy, const ValueHook* value) {
  const TimeBudget clock(cfg.movetime_ms, cfg.movetime_ms);
  RmResult res;
  Rng rng(cfg.seed);
  resolved_ = 0;
  const bool neural = policy != nullptr && *policy;

  // 1. Candidates for every power with units.
  sets_.assign(static_cast<std::size_t>(map_.num_powers()), {});
  for (PowerId w = 0; w < map_.num_powers(); ++w) {
    const int count =
        scaled(w == power ? cfg.our_candidates : cfg.their_candidates, cfg.strength, 2);
    if (neural) {
      candidates_.generate_neural(s, w, count, *policy, rng, sets_[w]);
    } else {
      candidates_.generate(s, w, count, rng, sets_[w]);
    }
    if (w != power) res.opponents_candidates += static_cast<int>(sets_[w].size());
  }
  res.candidates = sets_[power];
  if (sets_[power].empty()) {
    res.elapsed_ms = clock.elapsed_ms();
    return res;
  }

  // 2. RM+ over the joint candidates; only our regrets learn.
  search::RegretConfig rc;
  rc.discount = cfg.discount;
  rc.strategy = search::RegretStrategy::kSoftmax;
  rc.temperature = cfg.temperature;
  rc.min_iterations =
      scaled(neural ? cfg.min_iterations_policy : cfg.min_iterations, cfg.strength, 8);
  rc.max_iterations = cfg.max_iterations;
  // A fixed count runs exactly that many, whatever the clock says: reproducible.
  if (cfg.max_iterations > 0) rc.min_iterations = cfg.max_iterations;
  rc.seed = cfg.seed ^ 0x524d2bull;
  rc.learners = 1u << power;
  const std::size_t nc = sets_[power].size();
  std::vector<double> value_sum(nc, 0.0);
  std::vector<int> value_count(nc, 0);
  Rng sim_rng(cfg.seed + 1);
  const auto eval = [&](const PhaseGame& g, int p, bool counterfactual) {
    const State& end =
        simulate(g.after(), counterfactual ? cfg.cf_lookahead : cfg.lookahead, sim_rng);
    const auto k = g.chosen(p);
    const double v = evaluator_.blended(end, static_cast<PowerId>(p), value, cfg.value_blend) -
                     evaluator_.cooperation_penalty(s, static_cast<PowerId>(p), sets_[p][k]);
    value_sum[k] += v;
    ++value_count[k];
    return v;
  };
  // The sampled joint action of each iteration is one phase game over the candidates.
  const PhaseContext ctx{&map_, &s, &sets_, &resolver_, &given_, &resolved_};
  search::RegretMatching rm(PhaseGame(ctx), map_.num_powers(), rc, eval);
  if (neural && cfg.policy_init) {
    // The policy's preference as starting regrets: softmax of the set scores x the count.
    std::vector<double> scores(nc);
    for (std::size_t k = 0; k < nc; ++k)
      scores[k] = CandidateGenerator::policy_score(s, power, sets_[power][k], *policy);
    auto init = softmax(scores, 1.0);
    for (double& x : init) x *= static_cast<double>(nc);
    rm.set_initial_regrets(power, init);
  }
  rm.iterate();
  res.entropy_first = entropy(softmax(rm.player(power).regret, cfg.temperature));
  const auto spent = clock.elapsed_ms();
  const auto rm_ms = std::max<TimeBudget::Millis>(
      0, static_cast<TimeBudget::Millis>(cfg.movetime_ms *
                                         (cfg.budget_candidates + cfg.budget_iterations)) -
             spent);
  const auto stats = rm.run(TimeBudget(rm_ms, rm_ms));
  res.iterations = stats.iterations;
  res.nodes = resolved_;

  // 3. Best response: the candidate with the most accumulated weight.
  const auto& me = rm.player(power);
  const int best = me.best();
  res.orders = sets_[power][best];
  res.strategy = me.average();
  res.regrets = me.regret;
  res.entropy_last = entropy(softmax(me.regret, cfg.temperature));
  res.score = value_count[best] ? value_sum[best] / value_count[best] : 0.0;
  res.elapsed_ms = clock.elapsed_ms();
  res.budget_exceeded = res.elapsed_ms > cfg.movetime_ms;
  return res;
}

void RmBot::orders(const State& s, PowerId power, Rng& rng, std::vector<Order>& out) {
  if (s.phase.type != PhaseType::kMovement || count_units(map_, s, power) == 0) {
    heuristic_.orders(s, power, rng, out);
    return;
  }
  RmConfig cfg = cfg_;
  cfg.seed = rng.next();
  last_ = search_.search(power, s, cfg);
  out.insert(out.end(), last_.orders.begin(), last_.orders.end());
}

std::unique_ptr<Bot> make_search_bot(std::string_view name, const Map& map, const RmConfig& cfg) {
  if (name == "rm") return std::make_unique<RmBot>(map, cfg);
  return make_bot(name, map);
}

}  // namespace kibitz::diplomacy
