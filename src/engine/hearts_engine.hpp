#pragma once
// Hearts players: `random`, `rule` (policy.hpp) and `search` — the seed's search-lite (K
// belief-consistent worlds, a depth-2/3 maxn or paranoid lookahead with biased rollouts,
// utility U = -E[points] + beta * E(leader_next - me_next)) with the exact endgame solver
// for the last tricks, under a time budget, reporting JSON-lines telemetry.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "core/time_budget.hpp"
#include "games/hearts/belief.hpp"
#include "games/hearts/policy.hpp"
#include "games/hearts/state.hpp"

namespace kibitz::hearts {

// The seed's SearchCfg plus the endgame and rollout settings (configs/hearts.yaml).
// Defaults: the seed's where measurement did not find better; worlds, depth and the endgame
// trigger are measured choices (BENCHMARKS.md, "Hearts": against rule bots, rollouts straight
// after our card beat the seed's depth-2 maxn by 2.6 PPH, and the exact endgame from 4-6 cards
// on cost points and time).
struct SearchCfg {
  int worlds = 512;          // K sampled worlds per decision (seed: 32)
  int depth = 0;             // maxn / paranoid plies after our card, then rollouts (seed: 2-3)
  double beta = 0.1;         // weight of E(leader_next - me_next) in the utility
  int time_budget_ms = 900;  // per decision (analysis mode: analysis_budget_ms)
  int analysis_budget_ms = 5000;
  bool analysis = false;
  double paranoid_threshold = 0.3;     // moon probability from which the lookahead is paranoid
  int endgame_cards = 3;               // exact solver at this many cards per player or fewer
                                       // (seed: 6),
  std::uint64_t endgame_states = 512;  // or when this few consistent deals remain (seed: 10^5)
  int endgame_max_worlds = 512;        // enumerate up to this many deals, else sample as many
  std::uint64_t seed = 0x48454152ull;
  bool shoot_moon = true;  // also value each card with our rollout moves shooting the moon
  int pass_worlds = 256;   // pass search: worlds for the last candidates (0: the rule pass)
  // Opponent model: a world's weight is the likelihood of the other seats' plays so far if
  // each played the rollout policy's own card with probability 1 - model_epsilon and a
  // uniformly random legal card otherwise (1: no model, every consistent world alike).
  double model_epsilon = 1.0;
  int model_draws = 4;  // with the model: worlds drawn per world kept (resampled by weight)
  PolicyKnobs rollout;  // the rollout policy's knobs
  int budget_ms() const { return analysis ? analysis_budget_ms : time_budget_ms; }
};

// A candidate card with its evaluation.
struct ScoredMove {
  Card card;
  double utility = 0;          // higher is better
  double expected_points = 0;  // our expected points for the rest of the hand and already taken
  double variance = 0;         // of our points over the worlds
  bool prior = false;          // the rule bot's choice (the last tie-break)
  bool forced = false;         // endgame: the same outcome in every world
  std::string note;            // e.g. "budget exceeded after 12 worlds"
  bool moon = false;           // valued with our own rollout moves shooting the moon
};

struct Decision {
  Card card;
  std::vector<ScoredMove> moves;  // best first
  std::string strategy;           // "single", "search-lite", "paranoid", "endgame", "fallback",
                                  // "rule", "random"
  int worlds = 0;                 // worlds evaluated (or solved)
  std::uint64_t nodes = 0;
  std::int64_t duration_ms = 0;
  bool budget_exceeded = false;
};

// One JSON object per line: SearchLog, EndgameLog, PassLog, budget_exceeded.
using TelemetrySink = std::function<void(const std::string& json_line)>;

class Bot {
 public:
  virtual ~Bot() = default;
  virtual std::string name() const = 0;
  virtual CardSet choose_pass(const Observation& o) = 0;
  virtual Decision choose_play(const Observation& o) = 0;
  virtual void set_telemetry(TelemetrySink) {}
};

// "random", "rule" or "search" (the seed varies the random bot and the search's worlds).
Result<std::unique_ptr<Bot>> make_bot(std::string_view name, const SearchCfg& cfg = {},
                                      std::uint64_t seed = 1);
std::vector<std::string> bot_names();

// The search player on its own (tests and tools use it directly).
class SearchPlayer final : public Bot {
 public:
  explicit SearchPlayer(SearchCfg cfg);
  ~SearchPlayer() override;
  std::string name() const override { return "search"; }
  // Every 3-card pass valued by rollouts of the whole hand in sampled deals (the others pass
  // and play by the rollout policy), narrowed by successive halving over common worlds.
  CardSet choose_pass(const Observation& o) override;
  Decision choose_play(const Observation& o) override;
  void set_telemetry(TelemetrySink sink) override { sink_ = std::move(sink); }
  const SearchCfg& config() const { return cfg_; }
  // log P(the other seats' plays so far | deal) under the opponent model of model_epsilon
  // (deal: the hands now, as Belief draws them).
  double model_log_likelihood(const Observation& o, const Deal& deal) const;

 private:
  struct Impl;
  std::vector<Deal> worlds_for(const Observation& o, const Belief& b, Rng& rng,
                               const TimeBudget& budget);

  SearchCfg cfg_;
  TelemetrySink sink_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace kibitz::hearts

namespace kibitz::engine {

class AnyEngine;

// A Hearts engine behind the one contract (engine/any_engine.hpp: make_hearts_any_engine):
// which bot, its settings, the rules a view's hand is played under, its seed and telemetry.
struct HeartsSetup {
  std::string bot = "search";       // random, rule or search
  hearts::SearchCfg search;         // the search bot's settings (options change them)
  hearts::Options rules;            // the rules of the hands a view is played under
  std::uint64_t seed = 1;           // varies the random bot and the search's worlds
  hearts::TelemetrySink telemetry;  // the search's telemetry lines (empty: none)
};
// An error names an unknown bot.
Result<std::unique_ptr<AnyEngine>> make_hearts_any_engine(const HeartsSetup& setup);

}  // namespace kibitz::engine
