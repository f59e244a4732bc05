// The searches over sampled worlds on Hearts: the endgame solver against brute force, the
// touching-card pruning, determinism, the search player's time budget, telemetry and golden
// move orders (tests/data/hearts/search_golden.json; KIBITZ_UPDATE_GOLDEN=1 rewrites it).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "engine/hearts_engine.hpp"
#include "games/hearts/search_traits.hpp"
#include "search/imperfect/world_search_impl.hpp"
#include "unit/hearts/hearts_test_util.hpp"

namespace kibitz::hearts {
namespace {

using Solver = search::EndgameSolver<State>;

// A hand played at random (biased to high cards) up to `plays` cards.
State search_test_state(std::uint64_t seed, int plays, PassDir dir = PassDir::kNone) {
  Rng rng(seed);
  State s(random_deal(rng), dir);
  while (!s.is_terminal() && (s.phase() == Phase::kPass || s.num_plays() < plays)) {
    MoveList<State> moves;
    s.legal_moves(moves);
    s.apply(rng.below(3) == 0 ? moves[moves.size() - 1] : moves[rng.below(moves.size())]);
  }
  return s;
}

TEST(HeartsEndgame, SolverEqualsBruteForce) {
  Solver solver(16);
  int positions = 0;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const State s = search_test_state(seed, 36 + static_cast<int>(seed % 5));  // 3-4 cards each
    for (const int root : {-1, 0, 2}) {
      const auto want = Solver::brute_force(s, root);
      const auto got = solver.solve(s, root);
      for (int p = 0; p < 4; ++p)
        ASSERT_EQ(got[p], want[p]) << "seed " << seed << " root " << root << "\n" << s.to_string();
    }
    ++positions;
  }
  EXPECT_EQ(positions, 60);
}

TEST(HeartsEndgame, TouchingCardsArePrunedOnlyWhenInterchangeable) {
  // N holds 5H 6H 8H; 7H is still out (E holds it): 5H-6H touch, 8H does not.
  const Deal d = testing::deal(
      "2C 3C 4C 5C 6C 7C 8C 9C TC JC 5H 6H 8H", "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD 7H KH",
      "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KD AD", "KS AS KC AC 2H 3H 4H 9H TH JH QH AH QC");
  State s(d, PassDir::kNone);
  testing::play_all(s, "2C 2D 2S KC");  // W wins and leads
  testing::play_all(s, "AC 3C 3D 3S");  // W again
  testing::play_all(s, "QC 4C KH 4S");  // E breaks hearts; W again
  testing::play_all(s, "2H");           // N must follow with 5H, 6H or 8H
  MoveList<State> all;
  s.legal_moves(all);
  ASSERT_EQ(all.size(), 3u);
  MoveList<State> pruned = all;
  SearchTraits<State>::prune_equivalent(s, pruned);
  ASSERT_EQ(pruned.size(), 2u);
  EXPECT_EQ(pruned[0], testing::card("5H"));
  EXPECT_EQ(pruned[1], testing::card("8H"));
  // Whatever is pruned, the solver's values match brute force (checked on the last cards).
  State late = s;
  while (late.num_plays() < 40) {
    MoveList<State> m;
    late.legal_moves(m);
    late.apply(m[0]);
  }
  EXPECT_EQ(Solver(14).solve(late), Solver::brute_force(late));
}

TEST(HeartsEndgame, EvaluateCombinesWorldsAndFlagsForcedOutcomes) {
  const State s = search_test_state(77, 40);
  const int me = s.current_player();
  const Observation o = s.information_state(me);
  const Belief b(o);
  std::vector<Deal> deals;
  ASSERT_TRUE(b.enumerate(100000, deals));
  Rng rng(1);
  std::vector<State> worlds;
  for (const Deal& d : deals) worlds.push_back(o.world(d, rng));
  MoveList<State> moves;
  s.legal_moves(moves);
  Solver solver(16);
  TimeBudget budget;
  const auto r =
      solver.evaluate(worlds, {}, std::span<const Card>(moves.data(), moves.size()), me, budget);
  ASSERT_EQ(r.worlds_done, static_cast<int>(worlds.size()));
  for (std::size_t i = 0; i < moves.size(); ++i) {
    double sum = 0;
    double first = 0;
    bool same = true;
    for (std::size_t w = 0; w < worlds.size(); ++w) {
      State c = worlds[w];
      c.apply(moves[i]);
      const double v = Solver::brute_force(c, me)[me];
      if (w == 0) first = v;
      same &= v == first;
      sum += v;
    }
    EXPECT_NEAR(r.moves[i].mean[me], sum / worlds.size(), 1e-9);
    EXPECT_EQ(r.forced[i], same);
  }
}

// A position after `plays` cards, k worlds drawn from what its player to move knows, and that
// player's legal cards.
struct WorldsFixture {
  State s;
  int me;
  std::vector<State> worlds;
  MoveList<State> moves;
  std::span<const Card> span() const { return {moves.data(), moves.size()}; }
};
WorldsFixture worlds_fixture(std::uint64_t seed, int plays, std::uint64_t world_seed, int k) {
  WorldsFixture f{search_test_state(seed, plays), 0, {}, {}};
  f.me = f.s.current_player();
  Rng rng(world_seed);
  f.worlds = search::sample_worlds(f.s, f.me, k, rng);
  f.s.legal_moves(f.moves);
  return f;
}

TEST(HeartsWorldSearch, SameSeedSameValues) {
  const WorldsFixture f = worlds_fixture(5, 9, 3, 8);
  search::WorldSearchOptions o{.depth = 2, .mode = search::LookaheadMode::kMaxN, .seed = 9};
  TimeBudget b1, b2;
  const auto r1 = search::WorldSearch<State>().evaluate(f.worlds, f.span(), f.me, o, b1);
  const auto r2 = search::WorldSearch<State>().evaluate(f.worlds, f.span(), f.me, o, b2);
  ASSERT_EQ(r1.worlds_done, 8);
  EXPECT_EQ(r1.nodes, r2.nodes);
  for (std::size_t i = 0; i < f.moves.size(); ++i) EXPECT_EQ(r1.moves[i].mean, r2.moves[i].mean);
}

// A rollout policy with two plans for the root: variant 0 plays uniformly at random, variant
// 1 the rollout policy; the others always play the rollout policy.
struct TwoPlans {
  int root = -1;
  int variant = 0;
  int fixed = -1;  // >= 0: ignore set_variant's plan, always this one
  void set_variant(int r, int v) { root = r, variant = fixed >= 0 ? fixed : v; }
  Card operator()(const State& s, Rng& rng) const {
    if (s.current_player() == root && variant == 0) {
      const CardSet legal = s.legal_set();
      CardSet rest = legal;
      for (auto i = rng.below(static_cast<std::uint64_t>(legal.size())); i > 0; --i)
        rest.pop_lowest();
      return rest.lowest();
    }
    return policy_play(s, rng);
  }
};

TEST(HeartsWorldSearch, CommonRandomNumbersGiveAMoveListedTwiceTheSameValue) {
  const WorldsFixture f = worlds_fixture(8, 6, 4, 16);
  ASSERT_GE(f.moves.size(), 2u);
  const std::array<Card, 3> twice{f.moves[0], f.moves[1], f.moves[0]};
  search::WorldSearchOptions o{.depth = 0, .mode = search::LookaheadMode::kMaxN, .seed = 5};
  TimeBudget b;
  const auto r = search::WorldSearch<State>().evaluate(f.worlds, twice, f.me, o, b);
  ASSERT_EQ(r.worlds_done, 16);
  EXPECT_EQ(r.moves[0].mean, r.moves[2].mean);
  EXPECT_EQ(r.moves[0].m2, r.moves[2].m2);
}

TEST(HeartsWorldSearch, EachMoveTakesItsBestRootPlanOverAllWorlds) {
  const WorldsFixture f = worlds_fixture(12, 9, 6, 24);
  const int me = f.me;
  const auto& worlds = f.worlds;
  const auto& moves = f.moves;
  const std::span<const Card> span = f.span();
  search::WorldSearchOptions one{.depth = 0, .mode = search::LookaheadMode::kMaxN, .seed = 7};
  search::WorldSearchOptions two = one;
  two.variants = 2;
  TimeBudget b0, b1, b2;
  const auto r0 = search::WorldSearch<State, TwoPlans>(TwoPlans{.fixed = 0})
                      .evaluate(worlds, span, me, one, b0);
  const auto r1 = search::WorldSearch<State, TwoPlans>(TwoPlans{.fixed = 1})
                      .evaluate(worlds, span, me, one, b1);
  const auto both = search::WorldSearch<State, TwoPlans>().evaluate(worlds, span, me, two, b2);
  // Common random numbers: the two-plan search sees exactly the one-plan values and keeps
  // the better mean for each move (a plan chosen over all worlds, not per world).
  int random_better = 0;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const bool second = r1.moves[i].mean[me] > r0.moves[i].mean[me];
    EXPECT_EQ(both.moves[i].variant, second ? 1 : 0);
    EXPECT_EQ(both.moves[i].mean, (second ? r1 : r0).moves[i].mean);
    random_better += second ? 0 : 1;
  }
  EXPECT_LT(random_better, static_cast<int>(moves.size()));  // the policy plan wins somewhere
}

TEST(HeartsSearchPlayer, PassSearchPassesThreeOfOurCardsDeterministically) {
  SearchCfg cfg;
  cfg.pass_worlds = 64;
  cfg.time_budget_ms = 1'000'000;
  Rng rng(77);
  const State s(random_deal(rng), PassDir::kLeft);
  const Observation o = s.information_state(1);
  SearchPlayer a(cfg), b(cfg);
  std::vector<std::string> events;
  a.set_telemetry([&](const std::string& line) { events.push_back(line); });
  const CardSet pass = a.choose_pass(o);
  EXPECT_EQ(pass.size(), 3);
  EXPECT_EQ(pass & o.hand(), pass);
  EXPECT_EQ(b.choose_pass(o), pass);
  ASSERT_EQ(events.size(), 1u);
  const auto j = nlohmann::json::parse(events[0]);
  EXPECT_EQ(j["event"], "PassLog");
  EXPECT_EQ(j["worlds"], 64);
  EXPECT_EQ(j["pass"], to_string(pass));
  // Without the pass search, the rule bot's pass.
  cfg.pass_worlds = 0;
  EXPECT_EQ(SearchPlayer(cfg).choose_pass(o), rule_pass(o));
  // Under a 1 ms budget: still three of our cards.
  cfg.pass_worlds = 100000;
  cfg.time_budget_ms = 1;
  SearchPlayer hurried(cfg);
  events.clear();
  hurried.set_telemetry([&](const std::string& line) { events.push_back(line); });
  const CardSet quick = hurried.choose_pass(o);
  EXPECT_EQ(quick.size(), 3);
  EXPECT_EQ(quick & o.hand(), quick);
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(nlohmann::json::parse(events[0])["event"], "budget_exceeded");
}

TEST(HeartsSearchPlayer, PassSearchWithoutTheMoonPlanShedsAnUnguardedQueen) {
  // Q♠ with one low spade and five high hearts: keeping the queen costs points in most deals.
  SearchCfg cfg;
  cfg.shoot_moon = false;
  cfg.time_budget_ms = 1'000'000;
  const CardSet hand = testing::cards("QS 2S AH KH QH JH TH 2C 3C 4C 2D 3D 4D");
  const auto o = Observation::deal(0, hand, PassDir::kLeft, Options{});
  ASSERT_TRUE(o) << o.error().message;
  SearchPlayer player(cfg);
  double utility = 0;
  player.set_telemetry([&](const std::string& line) {
    const auto j = nlohmann::json::parse(line);
    if (j["event"] == "PassLog") utility = j["expected_utility"].get<double>();
  });
  const CardSet pass = player.choose_pass(*o);
  EXPECT_TRUE(pass.contains(kQueenOfSpades)) << to_string(pass);
  // One plan: its own mean (negative: points are expected), not a max with an unused plan.
  EXPECT_LT(utility, 0.0);
}

// W holds the top spades and the top hearts, has taken every point so far and nothing is
// left that it cannot win or duck safely: the search values the moon plan and plays for it.
TEST(HeartsSearchPlayer, PlansTheMoonWithALockHand) {
  // Trick 1: N 2C, E 3C, S 4C, W AC. W then holds only winners but for 2D.
  const Deal d = testing::deal("2C 5C 6C 7C 3D 4D 5D 2S 3S 4S 2H 3H 4H",  //
                               "3C 8C 9C TC 6D 7D 8D 9D 5S 6S 7S 5H 6H",  //
                               "4C JC QC KC TD JD QD KD 8S 9S TS 7H 8H",  //
                               "AC AD 2D JS QS KS AS 9H TH JH QH KH AH");
  State s(d, PassDir::kNone);
  testing::play_all(s, "2C 3C 4C AC");
  ASSERT_EQ(s.current_player(), 3);
  SearchCfg cfg;
  cfg.time_budget_ms = 1'000'000;
  cfg.endgame_cards = 0;
  cfg.endgame_states = 0;
  const Decision plan = SearchPlayer(cfg).choose_play(s.information_state(3));
  EXPECT_TRUE(plan.moves.front().moon) << to_string(plan.card);
  // Taking every point is worth far more than the points of the hand: the expected score is
  // low although W takes every point in the moon plan.
  EXPECT_LT(plan.moves.front().expected_points, 3.0);
  cfg.shoot_moon = false;
  const Decision plain = SearchPlayer(cfg).choose_play(s.information_state(3));
  EXPECT_FALSE(plain.moves.front().moon);
  EXPECT_GT(plain.moves.front().expected_points, plan.moves.front().expected_points);
}

TEST(HeartsSearchPlayer, OpponentModelWeighsTheOthersPlays) {
  // A hand in which every seat plays the rollout policy's own card: under the model each of
  // the others' plays with n legal cards has probability 1 - e + e/n, and with e = 1 it is 1/n.
  Rng rng(31);
  State s(random_deal(rng), PassDir::kNone);
  PolicyKnobs greedy;
  greedy.epsilon = 0.0;
  const int me = 2;
  const double e = 0.25;
  double want = 0.0, uniform = 0.0;
  while (s.num_plays() < 23) {
    const double n = s.legal_set().size();
    if (s.current_player() != me) {
      want += std::log(1.0 - e + e / n);
      uniform += std::log(1.0 / n);
    }
    s.apply(policy_play(s, rng, greedy));
  }
  const Observation o = s.information_state(me);
  const Deal truth{s.hand(0), s.hand(1), s.hand(2), s.hand(3)};
  SearchCfg cfg;
  cfg.model_epsilon = e;
  EXPECT_NEAR(SearchPlayer(cfg).model_log_likelihood(o, truth), want, 1e-9);
  cfg.model_epsilon = 1.0;
  EXPECT_NEAR(SearchPlayer(cfg).model_log_likelihood(o, truth), uniform, 1e-9);
  // Other deals consistent with what seat 2 saw are never likelier than the truth here, and
  // some are less likely (a play the policy would not have made in them).
  cfg.model_epsilon = e;
  const SearchPlayer model(cfg);
  const Belief belief(o);
  int lower = 0;
  for (int i = 0; i < 200; ++i) {
    const double ll = model.model_log_likelihood(o, belief.sample(rng));
    EXPECT_LE(ll, want + 1e-9);
    lower += ll < want - 1e-9 ? 1 : 0;
  }
  EXPECT_GT(lower, 0);
}

TEST(HeartsSearchPlayer, StopsAtTheBudgetWithALegalCardAndReportsIt) {
  SearchCfg cfg;
  cfg.worlds = 100000;  // far more than 1 ms allows
  cfg.time_budget_ms = 1;
  cfg.endgame_cards = 0;
  cfg.endgame_states = 0;
  SearchPlayer player(cfg);
  std::vector<std::string> events;
  player.set_telemetry([&](const std::string& line) { events.push_back(line); });
  const State s = search_test_state(21, 5);
  const Observation o = s.information_state(s.current_player());
  const Decision d = player.choose_play(o);
  EXPECT_TRUE(s.is_legal(d.card));
  EXPECT_TRUE(d.budget_exceeded);
  EXPECT_LT(d.worlds, 100000);
  bool exceeded = false, search_log = false;
  for (const auto& e : events) {
    const auto j = nlohmann::json::parse(e);
    exceeded |= j["event"] == "budget_exceeded";
    if (j["event"] == "SearchLog") {
      search_log = true;
      for (const char* k :
           {"trick_idx", "move", "expected_points", "variance", "sampled_worlds", "duration_ms"})
        EXPECT_TRUE(j.contains(k)) << k;
    }
  }
  EXPECT_TRUE(exceeded);
  EXPECT_TRUE(search_log);
}

TEST(HeartsSearchPlayer, UsesTheExactSolverAtTheEndAndLogsIt) {
  SearchCfg cfg;
  cfg.time_budget_ms = 60000;
  SearchPlayer player(cfg);
  std::vector<std::string> events;
  player.set_telemetry([&](const std::string& line) { events.push_back(line); });
  const State s = search_test_state(31, 41);
  const Observation o = s.information_state(s.current_player());
  const Decision d = player.choose_play(o);
  EXPECT_TRUE(s.is_legal(d.card));
  if (o.legal_set().size() > 1) {
    EXPECT_EQ(d.strategy, "endgame");
    ASSERT_FALSE(events.empty());
    const auto j = nlohmann::json::parse(events.back());
    EXPECT_EQ(j["event"], "EndgameLog");
    for (const char* k : {"cards_left", "strategy", "nodes_expanded", "result"})
      EXPECT_TRUE(j.contains(k)) << k;
  }
}

TEST(HeartsSearchPlayer, AnEndgameSolvedInNoWorldAnswersFromItsSampledSearch) {
  // Issue 22 repro: an exact endgame that finished no world in time fell back to the rule
  // bot's card. Exact from the second trick on (11 cards each, far beyond any budget): the
  // answer must come from the sampled search kept before the solver ran.
  SearchCfg cfg;
  cfg.endgame_cards = 13;
  cfg.time_budget_ms = 200;
  SearchPlayer player(cfg);
  std::vector<std::string> events;
  player.set_telemetry([&](const std::string& line) { events.push_back(line); });
  const State s = search_test_state(5, 8);
  const Observation o = s.information_state(s.current_player());
  ASSERT_GT(o.legal_set().size(), 1);
  const Decision d = player.choose_play(o);
  EXPECT_TRUE(s.is_legal(d.card));
  EXPECT_EQ(d.strategy, "search-lite");
  EXPECT_GT(d.worlds, 0);
  EXPECT_NE(d.moves.front().note.find("exact endgame solved none"), std::string::npos)
      << d.moves.front().note;
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(nlohmann::json::parse(events.back())["strategy"], "sampled-fallback");
}

// Golden move orders: fixed seed, 32 worlds, no time limit.
TEST(HeartsSearchPlayer, MoveOrdersMatchTheGoldenSnapshots) {
  const std::string path = std::string(KIBITZ_TEST_DATA) + "/hearts/search_golden.json";
  const bool update = std::getenv("KIBITZ_UPDATE_GOLDEN") != nullptr;
  nlohmann::json golden = nlohmann::json::array();
  if (!update) {
    std::ifstream in(path);
    ASSERT_TRUE(in) << "missing " << path;
    golden = nlohmann::json::parse(in);
  } else {
    // Positions: early, middle and late in hands with each passing direction.
    for (std::uint64_t seed = 1; seed <= 8; ++seed) {
      const int plays = static_cast<int>((seed * 13) % 44);
      const State s =
          search_test_state(seed * 101, plays, pass_dir_for_hand(static_cast<int>(seed)));
      nlohmann::json p;
      Rng rng(seed * 101);
      const Deal deal = random_deal(rng);
      for (int q = 0; q < 4; ++q) p["deal"].push_back(to_string(deal[q]));
      p["pass"] = std::string(to_string(pass_dir_for_hand(static_cast<int>(seed))));
      std::string passes;
      for (int q = 0; q < 4; ++q)
        for (const Card c : s.passed(q)) passes += to_string(c) + " ";
      p["passes"] = passes;
      std::string plays_text;
      for (int i = 0; i < s.num_plays(); ++i) plays_text += to_string(s.play(i)) + " ";
      p["plays"] = plays_text;
      golden.push_back(p);
    }
  }
  SearchCfg cfg;
  cfg.worlds = 32;
  cfg.depth = 2;  // the maxn lookahead path (the default, 0, goes straight to rollouts)
  cfg.endgame_cards = 6;
  cfg.time_budget_ms = 1'000'000;
  cfg.seed = 2024;
  for (auto& p : golden) {
    Deal deal{};
    for (int q = 0; q < 4; ++q) deal[q] = testing::cards(p["deal"][q].get<std::string>());
    State s(deal, *parse_pass_dir(p["pass"].get<std::string>()));
    // Passing picks are in seat order (seat 0's three first), as the State takes them.
    const CardSet passes = testing::cards(p["passes"].get<std::string>());
    for (int i = 0; i < 12 && s.phase() == Phase::kPass; ++i) {
      const CardSet mine = passes & s.hand(s.current_player());
      ASSERT_FALSE(mine.empty());
      s.apply(mine.lowest());
    }
    testing::play_all(s, p["plays"].get<std::string>());
    SearchPlayer player(cfg);
    const Decision d = player.choose_play(s.information_state(s.current_player()));
    std::vector<std::string> order;
    for (const auto& m : d.moves) order.push_back(to_string(m.card));
    if (update)
      p["order"] = order;
    else
      EXPECT_EQ(order, p["order"].get<std::vector<std::string>>()) << p.dump();
  }
  if (update) std::ofstream(path) << golden.dump(1) << "\n";
}

}  // namespace
}  // namespace kibitz::hearts
