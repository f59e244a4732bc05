#include "engine/hearts_engine.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/time_budget.hpp"
#include "games/hearts/search_traits.hpp"
#include "search/imperfect/world_search_impl.hpp"

namespace kibitz::search {
template class EndgameSolver<hearts::State>;
}  // namespace kibitz::search

namespace kibitz::hearts {

namespace {

// The rollout policy with the configured knobs.
struct KnobbedRollout {
  const PolicyKnobs* knobs = nullptr;
  Card operator()(const State& s, Rng& rng) const { return policy_play(s, rng, *knobs); }
};

class RandomBot final : public Bot {
 public:
  explicit RandomBot(std::uint64_t seed) : rng_(seed) {}
  std::string name() const override { return "random"; }
  CardSet choose_pass(const Observation& o) override { return random_pass(o, rng_); }
  Decision choose_play(const Observation& o) override {
    Decision d;
    d.card = random_play(o, rng_);
    d.strategy = "random";
    return d;
  }

 private:
  Rng rng_;
};

class RuleBot final : public Bot {
 public:
  std::string name() const override { return "rule"; }
  CardSet choose_pass(const Observation& o) override { return rule_pass(o); }
  Decision choose_play(const Observation& o) override {
    Decision d;
    d.card = rule_play(o);
    d.strategy = "rule";
    return d;
  }
};

// The seat other than `seat` with the lowest game score before this hand (the leader we
// want to catch); ties go to the lowest seat.
int rival(const State& pub, int seat) {
  int best = -1;
  for (int p = 0; p < kNumPlayers; ++p) {
    if (p == seat) continue;
    if (best < 0 || pub.scores_before()[p] < pub.scores_before()[best]) best = p;
  }
  return best;
}

}  // namespace

struct SearchPlayer::Impl {
  search::EndgameSolver<State> solver{18};
  // Worlds of the last decision (hidden hands then) and the plays made at that point: the
  // ones still consistent are reused at the next decision of the same hand (filtering
  // uniform samples by new hard evidence leaves them uniform under the new belief).
  std::vector<Deal> cache;
  int cache_seat = -1;
  int cache_plays = 0;
  CardSet cache_hand;
};

SearchPlayer::SearchPlayer(SearchCfg cfg) : cfg_(std::move(cfg)), impl_(std::make_unique<Impl>()) {}
SearchPlayer::~SearchPlayer() = default;

std::vector<Deal> SearchPlayer::worlds_for(const Observation& o, const Belief& b, Rng& rng,
                                           const TimeBudget& budget) {
  const State& pub = o.public_state();
  std::vector<Deal> out;
  Impl& m = *impl_;
  // Reuse: the same seat, later in the same hand (our hand then minus our plays since).
  if (m.cache_seat == o.seat() && m.cache_plays <= pub.num_plays()) {
    CardSet mine_then = o.hand();
    for (int i = m.cache_plays; i < pub.num_plays(); ++i)
      if (pub.play_seat(i) == o.seat()) mine_then.add(pub.play(i));
    if (mine_then == m.cache_hand) {
      for (Deal d : m.cache) {
        bool ok = true;
        for (int i = m.cache_plays; i < pub.num_plays() && ok; ++i) {
          const int q = pub.play_seat(i);
          ok = d[q].contains(pub.play(i));
          d[q].remove(pub.play(i));
        }
        for (int p = 0; p < kNumPlayers && ok; ++p)
          ok = p == o.seat() ||
               ((d[p] & o.excluded(p)).empty() && (d[p] & o.known(p)) == o.known(p));
        if (ok) out.push_back(d);
        if (static_cast<int>(out.size()) == cfg_.worlds) break;
      }
    }
  }
  // Sampling takes microseconds a world; a huge K still stops at the budget.
  while (static_cast<int>(out.size()) < cfg_.worlds && !budget.poll(out.size(), 64))
    out.push_back(b.sample(rng));
  m.cache = out;
  m.cache_seat = o.seat();
  m.cache_plays = pub.num_plays();
  m.cache_hand = o.hand();
  return out;
}

Decision SearchPlayer::choose_play(const Observation& o) {
  TimeBudget budget(cfg_.budget_ms(), cfg_.budget_ms());
  const State& pub = o.public_state();
  const int seat = o.seat();
  Decision d;
  const CardSet legal = o.legal_set();
  const Card prior = rule_play(o);
  auto finish = [&](Decision& dec) {
    dec.duration_ms = budget.elapsed_ms();
    if (dec.budget_exceeded && sink_) {
      sink_(nlohmann::json{{"event", "budget_exceeded"},
                           {"trick_idx", pub.tricks_done()},
                           {"strategy", dec.strategy},
                           {"worlds", dec.worlds},
                           {"allocated_ms", cfg_.budget_ms()},
                           {"consumed_ms", dec.duration_ms}}
                .dump());
    }
  };
  if (legal.size() <= 1) {
    d.card = legal.empty() ? prior : legal.lowest();
    d.strategy = "single";
    d.moves.push_back({d.card, 0, 0, 0, true, true, "only legal card"});
    finish(d);
    return d;
  }
  MoveList<State> moves;
  for (const Card c : legal) moves.push_back(c);
  const std::span<const Card> move_span(moves.data(), moves.size());
  const Belief belief(o);
  Rng rng(cfg_.seed ^ pub.hash() ^ (o.hand().bits() * 0x9E3779B97F4A7C15ull) ^
          static_cast<std::uint64_t>(seat));

  const int me = seat;
  const int lead = rival(pub, me);
  const auto& before = pub.scores_before();
  auto score_moves = [&](const auto& values, const std::vector<bool>& forced) {
    d.moves.clear();
    for (std::size_t i = 0; i < values.size(); ++i) {
      const auto& v = values[i];
      ScoredMove sm;
      sm.card = v.move;
      sm.expected_points = -v.mean[me];
      sm.variance = v.variance();
      const double leader_next = before[lead] - v.mean[lead];
      const double me_next = before[me] + sm.expected_points;
      sm.utility = -sm.expected_points + cfg_.beta * (leader_next - me_next);
      sm.prior = v.move == prior;
      sm.forced = !forced.empty() && forced[i];
      d.moves.push_back(sm);
    }
    std::stable_sort(d.moves.begin(), d.moves.end(), [](const ScoredMove& a, const ScoredMove& b) {
      if (a.utility != b.utility) return a.utility > b.utility;
      if (a.variance != b.variance) return a.variance < b.variance;
      return a.prior > b.prior;
    });
    d.card = d.moves.front().card;
  };

  // The exact endgame when few cards or few consistent deals remain.
  int cards_left = 0;
  for (int p = 0; p < kNumPlayers; ++p) cards_left = std::max(cards_left, o.hand_size(p));
  if (cards_left <= cfg_.endgame_cards || belief.count() <= cfg_.endgame_states) {
    std::vector<Deal> deals;
    const bool all = belief.enumerate(static_cast<std::uint64_t>(cfg_.endgame_max_worlds), deals);
    if (!all)
      for (int i = 0; i < cfg_.endgame_max_worlds; ++i) deals.push_back(belief.sample(rng));
    std::vector<State> worlds;
    worlds.reserve(deals.size());
    for (const Deal& deal : deals) worlds.push_back(o.world(deal, rng));
    const auto r = impl_->solver.evaluate(worlds, {}, move_span, me, budget);
    if (r.worlds_done > 0) {
      score_moves(r.moves, r.forced);
      const bool forced = d.moves.front().forced;
      d.strategy = "endgame";
      d.worlds = r.worlds_done;
      d.nodes = r.nodes;
      d.budget_exceeded = r.budget_exceeded;
      if (r.budget_exceeded)
        d.moves.front().note =
            fmt::format("budget exceeded after {} of {} worlds", r.worlds_done, worlds.size());
      finish(d);
      if (sink_)
        sink_(nlohmann::json{{"event", "EndgameLog"},
                             {"cards_left", cards_left},
                             {"strategy", all ? "enumerated" : "sampled"},
                             {"worlds", r.worlds_done},
                             {"nodes_expanded", r.nodes},
                             {"result", forced ? "forced" : "best"},
                             {"move", to_string(d.card)},
                             {"expected_points", d.moves.front().expected_points},
                             {"duration_ms", d.duration_ms}}
                  .dump());
      return d;
    }
    // Nothing solved within the budget: search-lite with what is left.
  }

  // Search-lite over K sampled worlds.
  const std::vector<Deal> deals = worlds_for(o, belief, rng, budget);
  std::vector<State> worlds;
  worlds.reserve(deals.size());
  for (const Deal& deal : deals) worlds.push_back(o.world(deal, rng));
  const int threat = moon_threat(pub, me);
  const double moon_p = threat >= 0 ? pub.raw_points(threat) / 26.0 : 0.0;
  search::WorldSearchOptions wo;
  wo.depth = cfg_.depth;
  wo.mode = moon_p >= cfg_.paranoid_threshold ? search::LookaheadMode::kParanoid
                                              : search::LookaheadMode::kMaxN;
  wo.seed = rng.next();
  search::WorldSearch<State, KnobbedRollout> ws(KnobbedRollout{&cfg_.rollout});
  const auto r = ws.evaluate(worlds, move_span, me, wo, budget);
  d.worlds = r.worlds_done;
  d.nodes = r.nodes;
  // The budget may also have run out before the search (sampling, or the endgame's attempt).
  d.budget_exceeded = r.budget_exceeded || budget.exceeded();
  if (r.worlds_done == 0) {
    d.card = prior;
    d.strategy = "fallback";
    d.moves.push_back({prior, 0, 0, 0, true, false, "budget exceeded before any world: rule bot"});
  } else {
    score_moves(r.moves, std::vector<bool>{});
    d.strategy = wo.mode == search::LookaheadMode::kParanoid ? "paranoid" : "search-lite";
    if (r.budget_exceeded)
      d.moves.front().note =
          fmt::format("budget exceeded after {} of {} worlds", r.worlds_done, worlds.size());
  }
  finish(d);
  if (sink_) {
    const ScoredMove& best = d.moves.front();
    sink_(nlohmann::json{{"event", "SearchLog"},
                         {"trick_idx", pub.tricks_done()},
                         {"move", to_string(d.card)},
                         {"expected_points", best.expected_points},
                         {"variance", best.variance},
                         {"sampled_worlds", d.worlds},
                         {"duration_ms", d.duration_ms},
                         {"strategy", d.strategy},
                         {"nodes", d.nodes}}
              .dump());
  }
  return d;
}

Result<std::unique_ptr<Bot>> make_bot(std::string_view name, const SearchCfg& cfg,
                                      std::uint64_t seed) {
  if (name == "random") return std::unique_ptr<Bot>(std::make_unique<RandomBot>(seed));
  if (name == "rule") return std::unique_ptr<Bot>(std::make_unique<RuleBot>());
  if (name == "search") {
    SearchCfg c = cfg;
    c.seed ^= seed * 0x9E3779B97F4A7C15ull;
    return std::unique_ptr<Bot>(std::make_unique<SearchPlayer>(c));
  }
  return fail("unknown hearts bot '{}' (expected random, rule or search)", name);
}

std::vector<std::string> bot_names() { return {"random", "rule", "search"}; }

}  // namespace kibitz::hearts
