#include "engine/hearts_engine.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/time_budget.hpp"
#include "games/hearts/search_traits.hpp"
#include "search/imperfect/world_search_impl.hpp"
#include "search/imperfect/worlds.hpp"

namespace kibitz::search {
template class EndgameSolver<hearts::State>;
}  // namespace kibitz::search

namespace kibitz::hearts {

namespace {

// Worlds of the sampled answer kept before the exact endgame is tried (its anytime answer).
constexpr int kQuickWorlds = 24;

// The rollout policy with the configured knobs; variant 1 has the searching seat shoot the
// moon (WorldSearchOptions::variants).
struct KnobbedRollout {
  const PolicyKnobs* knobs = nullptr;
  int root = -1;
  int variant = 0;
  void set_variant(int r, int v) { root = r, variant = v; }
  Card operator()(const State& s, Rng& rng) const {
    if (variant == 1 && s.current_player() == root) return shoot_play(s, rng, *knobs);
    return policy_play(s, rng, *knobs);
  }
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

// U = -E[points] + beta * (leader_next - me_next) from (mean) returns: linear in them, so it
// may be taken per rollout or of the means.
double hand_utility(const std::array<double, kNumPlayers>& r, int me, int lead,
                    const std::array<int, kNumPlayers>& before, double beta) {
  return r[me] + beta * ((before[lead] - r[lead]) - (before[me] - r[me]));
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

double SearchPlayer::model_log_likelihood(const Observation& o, const Deal& deal) const {
  const State& pub = o.public_state();
  // The hands as play began: today's plus what each seat has played since.
  Deal start = deal;
  for (int i = 0; i < pub.num_plays(); ++i) start[pub.play_seat(i)].add(pub.play(i));
  State st(start, PassDir::kNone, pub.options(), pub.scores_before());
  PolicyKnobs greedy = cfg_.rollout;
  greedy.epsilon = 0.0;
  Rng unused(1);
  const double eps = cfg_.model_epsilon;
  double ll = 0.0;
  for (int i = 0; i < pub.num_plays(); ++i) {
    const Card c = pub.play(i);
    const int q = pub.play_seat(i);
    if (st.current_player() != q || !st.is_legal(c)) return -1e300;  // cannot happen here
    if (q != o.seat()) {
      const double n = st.legal_set().size();
      if (n > 1) ll += std::log((policy_play(st, unused, greedy) == c ? 1.0 - eps : 0.0) + eps / n);
    }
    st.apply(c);
  }
  return ll;
}

static_assert(search::Belief<Belief, Deal>);  // games/hearts/belief.hpp

std::vector<Deal> SearchPlayer::worlds_for(const Observation& o, const Belief& b, Rng& rng,
                                           const TimeBudget& budget) {
  const State& pub = o.public_state();
  std::vector<Deal> out;
  Impl& m = *impl_;
  if (cfg_.model_epsilon < 1.0 && pub.num_plays() > 0) {
    // Draw uniformly among the consistent deals, weigh each by the opponent model and keep
    // K by systematic resampling (a deal may be kept several times).
    return search::weighted_worlds<Deal>(
        b, cfg_.worlds, cfg_.worlds * std::max(1, cfg_.model_draws), rng,
        [&](const Deal& d) { return model_log_likelihood(o, d); },
        [&](std::size_t drawn) { return budget.poll(drawn, 16); });
  }
  // Reuse: the same seat, later in the same hand (our hand then minus our plays since).
  if (m.cache_seat == o.seat() && m.cache_plays <= pub.num_plays()) {
    CardSet mine_then = o.hand();
    for (int i = m.cache_plays; i < pub.num_plays(); ++i)
      if (pub.play_seat(i) == o.seat()) mine_then.add(pub.play(i));
    if (mine_then == m.cache_hand) {
      // A world stays when every card played since was in its player's hand there, and the
      // hands still fit what each seat is known to hold or lack.
      search::reuse_worlds(
          m.cache, cfg_.worlds,
          [&](Deal& d) {
            bool ok = true;
            for (int i = m.cache_plays; i < pub.num_plays() && ok; ++i) {
              const int q = pub.play_seat(i);
              ok = d[q].contains(pub.play(i));
              d[q].remove(pub.play(i));
            }
            for (int p = 0; p < kNumPlayers && ok; ++p)
              ok = p == o.seat() ||
                   ((d[p] & o.excluded(p)).empty() && (d[p] & o.known(p)) == o.known(p));
            return ok;
          },
          out);
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

CardSet SearchPlayer::choose_pass(const Observation& o) {
  const CardSet rule = rule_pass(o);
  const State& pub = o.public_state();
  if (cfg_.pass_worlds <= 0 || o.phase() != Phase::kPass || o.hand().size() != kHandSize ||
      !o.passed_out().empty())
    return rule;
  TimeBudget budget(cfg_.budget_ms(), cfg_.budget_ms());
  const int me = o.seat();
  const Belief belief(o);
  Rng rng(cfg_.seed ^ (o.hand().bits() * 0x9E3779B97F4A7C15ull) ^ static_cast<std::uint64_t>(me));
  const int lead = rival(pub, me);
  const auto& before = pub.scores_before();
  // The utility of one finished hand (linear in the returns, so means may be taken after).
  const auto utility = [&](const Returns<State>& r) {
    return hand_utility(r, me, lead, before, cfg_.beta);
  };
  const int nv = cfg_.shoot_moon ? 2 : 1;  // our plans: normal play, and the moon
  struct Cand {
    CardSet pass;
    double sum[2] = {0, 0};
    int n = 0;
    int plans = 1;
    // The better plan's mean (a plan chosen before the deal is known).
    double value() const {
      return (plans > 1 ? std::max(sum[0], sum[1]) : sum[0]) / std::max(n, 1);
    }
  };
  std::vector<Cand> cands;
  const CardSet hand = o.hand();
  for (const Card a : hand)
    for (const Card b : hand)
      for (const Card c : hand)
        if (a.index() < b.index() && b.index() < c.index())
          cands.push_back({CardSet::of(a) | CardSet::of(b) | CardSet::of(c), {0, 0}, 0, nv});
  const int total = cfg_.pass_worlds;
  // Deals and rollout seeds, drawn as the rounds need them (the same for every candidate).
  std::vector<Deal> deals;
  std::vector<std::uint64_t> seeds;
  KnobbedRollout policy{&cfg_.rollout};
  Rng roll;
  const auto play_out = [&](const Cand& cand, int w, int v) {
    roll.reseed(seeds[static_cast<std::size_t>(w)]);
    policy.set_variant(me, v);
    State st(deals[static_cast<std::size_t>(w)], pub.pass_dir(), pub.options(), before);
    CardSet mine = cand.pass;
    while (!st.is_terminal()) {
      if (st.phase() == Phase::kPass && st.current_player() == me)
        st.apply(mine.pop_lowest());
      else
        st.apply(policy(st, roll));
    }
    return utility(st.returns());
  };
  // Successive halving: every candidate on the first worlds, then a quarter of them on four
  // times as many, until a few remain on all of them.
  int done = 0;
  const bool out_of_time = !search::successive_halving(
      cands,
      search::HalvingSchedule{.total = total, .first = std::max(1, total / 64), .keep_at_least = 2},
      [&](int) {
        if (budget.poll(deals.size(), 16)) return false;
        deals.push_back(belief.sample(rng));
        seeds.push_back(rng.next());
        return true;
      },
      [&](Cand& cand, int w) {
        if (budget.poll(static_cast<std::uint64_t>(++done), 32)) return false;
        for (int v = 0; v < nv; ++v) cand.sum[v] += play_out(cand, w, v);
        ++cand.n;
        return true;
      },
      [](const Cand& c) { return c.n; }, [](const Cand& c) { return c.value(); });
  if (out_of_time) {
    // A round cut short: the means so far (over unequal world counts), unvalued ones last;
    // with none valued, the rule bot's pass.
    if (sink_)
      sink_(nlohmann::json{{"event", "budget_exceeded"},
                           {"trick_idx", -1},
                           {"strategy", "pass"},
                           {"worlds", cands.front().n},
                           {"allocated_ms", cfg_.budget_ms()},
                           {"consumed_ms", budget.elapsed_ms()}}
                .dump());
    if (cands.front().n == 0) return rule;
  }
  if (sink_)
    sink_(nlohmann::json{{"event", "PassLog"},
                         {"pass", to_string(cands.front().pass)},
                         {"rule_pass", to_string(rule)},
                         {"expected_utility", cands.front().value()},
                         {"moon", cfg_.shoot_moon && cands.front().sum[1] > cands.front().sum[0]},
                         {"worlds", cands.front().n},
                         {"duration_ms", budget.elapsed_ms()}}
              .dump());
  return cands.front().pass;
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
      sm.utility = hand_utility(v.mean, me, lead, before, cfg_.beta);
      sm.prior = v.move == prior;
      sm.moon = v.variant == 1;
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
    // With the opponent model, each deal weighs by the likelihood of the play so far.
    std::vector<double> weights;
    if (cfg_.model_epsilon < 1.0) {
      for (const Deal& deal : deals) weights.push_back(model_log_likelihood(o, deal));
      const double top = *std::max_element(weights.begin(), weights.end());
      for (double& w : weights) w = std::exp(w - top);
    }
    // Anytime: a sampled answer first, from a small share of the budget, so that an endgame
    // that solves no world in time still answers from search, never from the rule bot. Its
    // own random stream keeps the main one (and so every solved endgame) as it was.
    const TimeBudget::Millis quick_ms =
        budget.is_unlimited() ? TimeBudget::kUnlimited
                              : std::max<TimeBudget::Millis>(1, budget.remaining_ms() / 10);
    TimeBudget quick(quick_ms, quick_ms);
    Rng quick_rng(cfg_.seed ^ pub.hash() ^ 0xA5A5F00Dull);
    std::vector<State> quick_worlds;
    for (int i = 0; i < kQuickWorlds && !quick.poll(static_cast<std::uint64_t>(i), 8); ++i)
      quick_worlds.push_back(o.world(belief.sample(quick_rng), quick_rng));
    search::WorldSearchOptions qo;
    qo.seed = quick_rng.next();
    search::WorldSearch<State, KnobbedRollout> quick_search(KnobbedRollout{&cfg_.rollout});
    const auto sampled = quick_search.evaluate(quick_worlds, move_span, me, qo, quick);

    const auto r = impl_->solver.evaluate(worlds, weights, move_span, me, budget);
    if (r.worlds_done > 0 || sampled.worlds_done > 0) {
      const char* log_strategy = nullptr;
      if (r.worlds_done > 0) {
        score_moves(r.moves, r.forced);
        d.strategy = "endgame";
        d.worlds = r.worlds_done;
        d.nodes = r.nodes;
        d.budget_exceeded = r.budget_exceeded;
        if (r.budget_exceeded)
          d.moves.front().note =
              fmt::format("budget exceeded after {} of {} worlds", r.worlds_done, worlds.size());
        log_strategy = all ? "enumerated" : "sampled";
      } else {
        score_moves(sampled.moves, std::vector<bool>{});
        d.strategy = "search-lite";
        d.worlds = sampled.worlds_done;
        d.nodes = sampled.nodes + r.nodes;
        d.budget_exceeded = true;
        d.moves.front().note = fmt::format(
            "exact endgame solved none of {} worlds in time: the answer of {} sampled worlds",
            worlds.size(), sampled.worlds_done);
        log_strategy = "sampled-fallback";
      }
      const bool forced = d.moves.front().forced;
      finish(d);
      if (sink_)
        sink_(nlohmann::json{{"event", "EndgameLog"},
                             {"cards_left", cards_left},
                             {"strategy", log_strategy},
                             {"worlds", d.worlds},
                             {"nodes_expanded", d.nodes},
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
  wo.variants = cfg_.shoot_moon && moon_alive(pub, me) ? 2 : 1;
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
                         {"moon", best.moon},
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
