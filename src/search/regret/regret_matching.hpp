#pragma once
// Regret matching (RM+) at the root of a simultaneous-move game: every player has a list of
// actions (for Diplomacy: candidate order sets); each iteration samples one action per player
// from the current strategies, evaluates the joint action, and for each learning player the
// counterfactual value of each of its other actions against the same opponent sample; the
// regrets (cf - base) accumulate, clipped at zero (the "+" of RM+), and the strategies follow
// them. The average strategy converges to an equilibrium of the sampled game when every
// player learns (tested on matrix games); with one learner it is a best response to the
// others' fixed strategies (the Diplomacy seed's use).
//
// Written against the Simultaneous concept: the state's legal_actions(player, buf) are the
// actions, apply_joint(joint) resolves them, and a caller's evaluator scores the result for a
// player. Tables are dense arrays indexed by action (sized once per search); an iteration
// allocates nothing beyond what apply_joint and the evaluator do.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "api/concepts.hpp"
#include "core/rng.hpp"
#include "core/time_budget.hpp"

namespace kibitz::search {

enum class RegretStrategy : std::uint8_t {
  kPositive,  // proportional to the positive regrets (regret matching; uniform when none)
  kSoftmax,   // softmax of the regrets / temperature (the Diplomacy seed; uniform when all 0)
};

struct RegretConfig {
  double discount = 1.0;  // cumulative regrets are multiplied by this before each iteration
  RegretStrategy strategy = RegretStrategy::kPositive;
  double temperature = 1.0;  // kSoftmax only
  int min_iterations = 48;   // run at least this many, whatever the budget says
  int max_iterations = 0;    // 0: as many as the budget allows
  std::uint64_t seed = 1;
  // Bit p set: player p's regrets are updated. Others keep the strategy of their initial
  // regrets (uniform unless set_initial_regrets() says otherwise).
  std::uint32_t learners = ~0u;
};

// out[a] = exp((r[a] - max r) / temperature), normalised: the kSoftmax strategy (also what
// callers use to read a strategy off regrets). out.size() == r.size().
inline void softmax(std::span<const double> r, double temperature, std::span<double> out) {
  if (r.empty()) return;
  const double top = *std::max_element(r.begin(), r.end());
  double sum = 0;
  for (std::size_t a = 0; a < r.size(); ++a) sum += out[a] = std::exp((r[a] - top) / temperature);
  for (double& s : out) s /= sum;
}

template <Simultaneous G>
struct RegretPlayer {
  std::vector<typename G::Move> actions;
  std::vector<double> regret;    // cumulative, >= 0 after each update
  std::vector<double> strategy;  // the current iteration's
  std::vector<double> weight;    // sum of the strategies over the iterations
  // The average strategy (weight normalised); uniform before any iteration.
  std::vector<double> average() const {
    std::vector<double> a(weight);
    double sum = 0;
    for (double w : a) sum += w;
    for (double& w : a) w = sum > 0 ? w / sum : 1.0 / static_cast<double>(a.size());
    return a;
  }
  // The action with the largest accumulated weight (the first on ties).
  int best() const {
    return static_cast<int>(std::max_element(weight.begin(), weight.end()) - weight.begin());
  }
};

struct RegretStats {
  int iterations = 0;
  std::uint64_t nodes = 0;  // joint actions resolved (apply_joint calls)
  bool budget_exceeded = false;
};

// Eval: double(const G& after, int player, bool counterfactual): the value for `player` of the
// state after a joint action (counterfactual: one of the player's alternatives against the
// sampled opponents; the Diplomacy seed looks less far ahead for those).
template <Simultaneous G, class Eval>
class RegretMatching {
 public:
  using Move = typename G::Move;

  RegretMatching(const G& root, int num_players, RegretConfig cfg, Eval eval)
      : root_(root), cfg_(cfg), eval_(std::move(eval)), rng_(cfg.seed), players_(num_players) {
    MoveList<G> buf;
    for (int p = 0; p < num_players; ++p) {
      buf.clear();
      root_.legal_actions(p, buf);
      auto& pl = players_[p];
      pl.actions.assign(buf.begin(), buf.end());
      const std::size_t n = pl.actions.size();
      pl.regret.assign(n, 0.0);
      pl.strategy.assign(n, n ? 1.0 / static_cast<double>(n) : 0.0);
      pl.weight.assign(n, 0.0);
    }
    joint_.resize(num_players);
    sampled_.resize(num_players);
  }

  // Starting regrets of a player (e.g. from a policy network's scores of its actions).
  void set_initial_regrets(int player, std::span<const double> r) {
    auto& pl = players_[player];
    for (std::size_t a = 0; a < pl.regret.size() && a < r.size(); ++a)
      pl.regret[a] = std::max(0.0, r[a]);
  }

  // Runs iterations until min_iterations are done and then until the budget's soft limit or
  // max_iterations (whichever first).
  RegretStats run(const TimeBudget& budget) {
    while (true) {
      if (cfg_.max_iterations > 0 && stats_.iterations >= cfg_.max_iterations) break;
      if (stats_.iterations >= cfg_.min_iterations && budget.soft_expired()) {
        stats_.budget_exceeded = budget.exceeded();
        break;
      }
      iterate();
    }
    return stats_;
  }

  // One RM+ iteration.
  void iterate() {
    const int np = static_cast<int>(players_.size());
    for (int p = 0; p < np; ++p) {
      auto& pl = players_[p];
      if (learns(p) && cfg_.discount != 1.0)
        for (double& r : pl.regret) r *= cfg_.discount;
      update_strategy(pl);
      sampled_[p] = sample(pl.strategy);
      if (!pl.actions.empty()) joint_[p] = pl.actions[sampled_[p]];
    }
    for (int p = 0; p < np; ++p) {
      auto& pl = players_[p];
      if (!learns(p) || pl.actions.size() < 2) continue;
      const double base = value(p, false);
      const int mine = sampled_[p];
      for (std::size_t a = 0; a < pl.actions.size(); ++a) {
        if (static_cast<int>(a) == mine) continue;  // its regret is cf - base = 0
        joint_[p] = pl.actions[a];
        const double cf = value(p, true);
        pl.regret[a] = std::max(0.0, pl.regret[a] + cf - base);
      }
      joint_[p] = pl.actions[mine];
    }
    for (auto& pl : players_)
      for (std::size_t a = 0; a < pl.strategy.size(); ++a) pl.weight[a] += pl.strategy[a];
    ++stats_.iterations;
  }

  const RegretPlayer<G>& player(int p) const { return players_[p]; }
  const RegretStats& stats() const { return stats_; }

 private:
  bool learns(int p) const { return p < 32 && ((cfg_.learners >> p) & 1u); }

  double value(int p, bool counterfactual) {
    G next = root_;
    next.apply_joint(std::span<const Move>(joint_));
    ++stats_.nodes;
    return eval_(next, p, counterfactual);
  }

  void update_strategy(RegretPlayer<G>& pl) const {
    const std::size_t n = pl.regret.size();
    if (n == 0) return;
    if (cfg_.strategy == RegretStrategy::kPositive) {
      double sum = 0;
      for (std::size_t a = 0; a < n; ++a) sum += pl.regret[a] = std::max(0.0, pl.regret[a]);
      for (std::size_t a = 0; a < n; ++a)
        pl.strategy[a] = sum > 0 ? pl.regret[a] / sum : 1.0 / static_cast<double>(n);
      return;
    }
    softmax(pl.regret, cfg_.temperature, pl.strategy);
  }

  int sample(const std::vector<double>& strategy) {
    double u = rng_.uniform01();
    for (std::size_t a = 0; a + 1 < strategy.size(); ++a) {
      if (u < strategy[a]) return static_cast<int>(a);
      u -= strategy[a];
    }
    return strategy.empty() ? 0 : static_cast<int>(strategy.size()) - 1;
  }

  G root_;
  RegretConfig cfg_;
  Eval eval_;
  Rng rng_;
  std::vector<RegretPlayer<G>> players_;
  std::vector<Move> joint_;
  std::vector<int> sampled_;
  RegretStats stats_;
};

}  // namespace kibitz::search
