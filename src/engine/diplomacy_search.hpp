#pragma once
// The Diplomacy RM+ search bot (seed 000): RegretMatchingSearch(power, state, movetime,
// policy, value, strength) -> {orders, score, nodes}, in three phases with the seed's budgets:
//   1. candidates (15% of the time): order sets for every power alive (candidates.hpp);
//   2. RM+ (60%): search::RegretMatching over the joint candidates, our power learning with
//      the seed's discount 0.95 and softmax strategy, the others sampled from theirs; each
//      sample is resolved, looked ahead 2 movement phases (1 for our counterfactual
//      alternatives) with every power playing the greedy heuristic, and evaluated for us
//      (Evaluator::blended - cooperation_penalty); at least 48 iterations (128 with a policy);
//   3. best response: our candidate with the most accumulated strategy weight.
// Retreat and adjustment phases are left to the heuristic bot (RmBot).
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/time_budget.hpp"
#include "games/diplomacy/bots.hpp"
#include "games/diplomacy/candidates.hpp"
#include "games/diplomacy/evaluation.hpp"
#include "games/diplomacy/phases.hpp"

namespace kibitz::diplomacy {

struct RmConfig {
  int movetime_ms = 5000;
  // Scales iterations and candidates: candidates per power are round(base * strength) (at
  // least 2), and the minimum iteration count too (at least 8).
  double strength = 1.0;
  int our_candidates = 8;
  int their_candidates = 4;
  int min_iterations = 48;
  int min_iterations_policy = 128;
  int max_iterations = 0;  // 0: as the time allows (fixed counts make runs reproducible)
  double discount = 0.95;
  double temperature = 1.0;  // of the softmax over regrets (in centres)
  int lookahead = 2;         // movement phases after the sampled one
  int cf_lookahead = 1;      // the same for our counterfactual alternatives
  double budget_candidates = 0.15;
  double budget_iterations = 0.60;
  double value_blend = 0.5;  // weight of the value network when one is given
  bool policy_init = true;   // initial regrets from the policy's scores of our candidates
  std::uint64_t seed = 0x44495031ull;
  EvalWeights weights;
};

struct RmResult {
  std::vector<Order> orders;  // ours, one per unit
  double score = 0;           // expected value of the chosen candidate (centres)
  std::uint64_t nodes = 0;    // phases resolved (the sampled one, then the lookahead's)
  int iterations = 0;
  std::vector<OrderSet> candidates;  // ours
  std::vector<double> strategy;      // the average strategy over our candidates
  std::vector<double> regrets;       // the final cumulative regrets
  double entropy_first = 0;          // of the strategy after the first iteration (nats)
  double entropy_last = 0;           // of the final average strategy
  int opponents_candidates = 0;      // over all other powers
  std::int64_t elapsed_ms = 0;
  bool budget_exceeded = false;
};

class RmSearch {
 public:
  explicit RmSearch(const Map& map);

  RmResult search(PowerId power, const State& s, const RmConfig& cfg,
                  const PolicyHook* policy = nullptr, const ValueHook* value = nullptr);

 private:
  // Plays `movements` movement phases from s (with the retreats and adjustments between)
  // with every power on the greedy heuristic; returns the state reached.
  const State& simulate(const State& s, int movements, Rng& rng);

  const Map& map_;
  CandidateGenerator candidates_;
  HeuristicBot greedy_;
  Evaluator evaluator_;
  PhaseResolver resolver_;
  State sim_;
  std::vector<Order> given_, effective_;
  std::vector<std::vector<OrderSet>> sets_;  // by power
  std::uint64_t resolved_ = 0;               // phases resolved in this search
};

// The RM+ bot: RmSearch in movement phases, the heuristic bot otherwise.
class RmBot final : public Bot {
 public:
  RmBot(const Map& map, RmConfig cfg) : map_(map), cfg_(cfg), search_(map), heuristic_(map) {}
  std::string_view name() const override { return "rm"; }
  void orders(const State& s, PowerId power, Rng& rng, std::vector<Order>& out) override;
  const RmResult& last() const { return last_; }

 private:
  const Map& map_;
  RmConfig cfg_;
  RmSearch search_;
  HeuristicBot heuristic_;
  RmResult last_;
};

// The bots by name, the RM+ bot ("rm", with `cfg`) included; nullptr for an unknown name.
std::unique_ptr<Bot> make_search_bot(std::string_view name, const Map& map,
                                     const RmConfig& cfg = {});

}  // namespace kibitz::diplomacy
