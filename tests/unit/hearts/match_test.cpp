// The PPH harness: deal files, configs, duplicate rotation and statistics.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "engine/hearts_match.hpp"
#include "support/suites.hpp"
#include "unit/hearts/hearts_test_util.hpp"

namespace kibitz::hearts {
namespace {

TEST(HeartsDeals, ParsesTheSharedFormatAndNamesErrors) {
  const auto d = parse_deal_line(
      "7\tacross\t2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC\t2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD\t"
      "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS\t2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH");
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_EQ(d->id, "7");
  EXPECT_EQ(d->dir, PassDir::kAcross);
  EXPECT_EQ(d->hands[2], CardSet::suit(kSpades));
  EXPECT_NE(parse_deal_line("1 left 2C").error().message.find("52 cards"), std::string::npos);
  EXPECT_NE(
      parse_deal_line("1 sideways " + std::string(52 * 3, ' ')).error().message.find("fields"),
      std::string::npos);
  std::string twice = "1 none";
  for (int i = 0; i < 52; ++i) twice += " 2C";
  EXPECT_NE(parse_deal_line(twice).error().message.find("twice"), std::string::npos);
  const auto missing = read_deals("/nonexistent/deals.tsv");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("cannot read"), std::string::npos);
}

TEST(HeartsDeals, ReadsTheSharedDealFile) {
  KIBITZ_REQUIRE_SUITE(path, "hearts/deals_10000_v1.tsv");
  const auto deals = read_deals(path);
  ASSERT_TRUE(deals) << deals.error().message;
  EXPECT_EQ(deals->size(), 10000u);
  EXPECT_EQ((*deals)[0].hands[0], testing::cards("2C 3C 4C 7C 3D 7D 9D QD TH JH QH 7S KS"));
  EXPECT_EQ((*deals)[1].dir, PassDir::kRight);
}

TEST(HeartsConfig, TheShippedConfigHoldsTheDefaults) {
  const std::string path = std::string(KIBITZ_TEST_DATA) + "/../../configs/hearts.yaml";
  auto c = Config::load_file(path);
  ASSERT_TRUE(c) << c.error().message;
  SearchCfg other;
  other.worlds = 1;
  other.depth = 7;
  auto s = search_cfg_from(*c, other);
  ASSERT_TRUE(s) << s.error().message;
  const SearchCfg d;
  EXPECT_EQ(s->worlds, d.worlds);
  EXPECT_EQ(s->depth, d.depth);
  EXPECT_EQ(s->beta, d.beta);
  EXPECT_EQ(s->time_budget_ms, d.time_budget_ms);
  EXPECT_EQ(s->analysis_budget_ms, d.analysis_budget_ms);
  EXPECT_EQ(s->paranoid_threshold, d.paranoid_threshold);
  EXPECT_EQ(s->endgame_cards, d.endgame_cards);
  EXPECT_EQ(s->endgame_states, d.endgame_states);
  EXPECT_EQ(s->endgame_max_worlds, d.endgame_max_worlds);
  EXPECT_EQ(s->seed, d.seed);
  EXPECT_EQ(s->rollout.epsilon, d.rollout.epsilon);
  EXPECT_EQ(s->shoot_moon, d.shoot_moon);
  EXPECT_EQ(s->pass_worlds, d.pass_worlds);
  EXPECT_EQ(s->model_epsilon, d.model_epsilon);
  EXPECT_EQ(s->model_draws, d.model_draws);
  Options jd;
  jd.jd_bonus = true;
  auto r = rules_from(*c, jd);
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, Options{});
}

TEST(HeartsConfig, BadKeysAndValuesAreNamed) {
  auto bad = Config::parse("search:\n  worldz: 3\n", "x.yaml");
  ASSERT_TRUE(bad);
  EXPECT_NE(search_cfg_from(*bad).error().message.find("search.worldz"), std::string::npos);
  auto neg = Config::parse("search:\n  worlds: 0\n", "x.yaml");
  EXPECT_NE(search_cfg_from(*neg).error().message.find("worlds"), std::string::npos);
  auto type = Config::parse("rules:\n  jd_bonus: maybe\n", "x.yaml");
  EXPECT_FALSE(rules_from(*type));
}

TEST(HeartsConfig, OneTableOfSettingsForConfigSpecsAndTheEngine) {
  // Every setting is read from its YAML key and from its name, with the same range.
  for (const auto& s : search_settings()) {
    SCOPED_TRACE(std::string(s.name));
    EXPECT_EQ(find_search_setting(s.name), &s);
    EXPECT_EQ(find_search_setting(fmt::format("{}.{}", s.section, s.name)), &s);
    SearchCfg cfg;
    const std::string too_big = s.kind == SearchSetting::Kind::kBool ? "maybe"
                                : s.max >= 1e15                      ? "x"
                                                                     : fmt::format("{}", s.max + 1);
    EXPECT_FALSE(set_search_setting(cfg, s, too_big)) << too_big;
    auto yaml = Config::parse(fmt::format("{}:\n  {}: {}\n", s.section, s.name, too_big), "x.yaml");
    ASSERT_TRUE(yaml);
    EXPECT_FALSE(search_cfg_from(*yaml)) << too_big;
  }
  SearchCfg cfg;
  ASSERT_TRUE(set_search_setting(cfg, *find_search_setting("model_epsilon"), "0.25"));
  EXPECT_EQ(cfg.model_epsilon, 0.25);
  ASSERT_TRUE(set_search_setting(cfg, *find_search_setting("rollout.avoid_queen"), "false"));
  EXPECT_FALSE(cfg.rollout.avoid_queen);
  ASSERT_TRUE(set_search_setting(cfg, *find_search_setting("seed"), "-1"));
  EXPECT_EQ(cfg.seed, ~std::uint64_t{0});  // 64 bits, read as a signed number
  auto bad = set_search_setting(cfg, *find_search_setting("depth"), "9");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "search.depth must be 0 to 8");
  EXPECT_EQ(find_search_setting("search.epsilon"), nullptr);  // rollout's, not the search's
  EXPECT_EQ(find_search_setting("worldz"), nullptr);
}

TEST(HeartsDuplicate, RotatesSeatsAndTheRuleBotBeatsRandom) {
  std::vector<DealRecord> deals;
  Rng rng(42);
  for (int i = 0; i < 30; ++i)
    deals.push_back({std::to_string(i), pass_dir_for_hand(i), random_deal(rng)});
  DuplicateOptions o;
  o.players = {"rule", "random", "random", "random"};
  o.hands = 120;
  const auto rep = run_duplicate(deals, o);
  ASSERT_TRUE(rep) << rep.error().message;
  EXPECT_EQ(rep->deals, 30);
  EXPECT_EQ(rep->rows.size(), 120u);
  // Every hand hands out 26 points (78 on a moon): the four PPH sum to 26..78.
  double sum = 0;
  for (const auto& p : rep->players) sum += p.pph;
  EXPECT_GE(sum, 26.0 - 1e-9);
  EXPECT_LE(sum, 78.0 + 1e-9);
  EXPECT_LT(rep->players[0].pph + 2.0, rep->players[1].pph);
  EXPECT_LT(rep->diff, -2.0);
  // The same seat order with identical bots gives every player the same PPH: each plays
  // every hand of every deal once.
  DuplicateOptions same = o;
  same.players = {"rule", "rule", "rule", "rule"};
  same.hands = 40;
  const auto eq = run_duplicate(deals, same);
  ASSERT_TRUE(eq);
  for (int i = 1; i < 4; ++i) EXPECT_DOUBLE_EQ(eq->players[i].pph, eq->players[0].pph);
  EXPECT_NEAR(eq->diff, 0.0, 1e-9);
  o.hands = 10;
  EXPECT_FALSE(run_duplicate(deals, o));  // not a multiple of 4
  o.hands = 400;
  EXPECT_FALSE(run_duplicate(deals, o));  // more deals than the file has
  o.hands = 4;
  o.players = {"rule", "nobody", "random", "random"};
  EXPECT_NE(run_duplicate(deals, o).error().message.find("nobody"), std::string::npos);
}

}  // namespace
}  // namespace kibitz::hearts
