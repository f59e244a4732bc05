// `kibitz match --game hearts`: duplicate hands between the in-process bots (the rule bot
// beats the random bot), records that replay by the rules to their points, deal files as
// openings, and one-line errors for players and settings Hearts does not have.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "core/rng.hpp"
#include "games/hearts/state.hpp"
#include "games/registry.hpp"
#include "match/match.hpp"
#include "match/player_spec.hpp"

namespace kibitz::match {
namespace {

MatchConfig hearts_config(const std::vector<std::string>& specs) {
  MatchConfig c;
  for (const auto& s : specs) {
    auto p = parse_player_spec(s);
    EXPECT_TRUE(p) << s;
    if (p) c.players.push_back(*p);
  }
  return c;
}

Result<MatchReport> run_hearts(MatchConfig c) {
  auto kind = make_game_kind("hearts", c.settings);
  if (!kind) return tl::unexpected(kind.error());
  Match m(std::move(c), std::move(*kind));
  std::atomic<bool> stop{false};
  return m.run(stop);
}

std::vector<nlohmann::json> read_json_lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<nlohmann::json> out;
  for (std::string line; std::getline(in, line);) {
    auto j = nlohmann::json::parse(line, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << line;
    out.push_back(j);
  }
  return out;
}

int seat_index(const std::string& name) {
  const std::string seats = "NESW";
  return static_cast<int>(seats.find(name));
}

// Replays a hand record by the rules: the passes, then every trick's cards in turn (each
// legal, led and won by the seats the record names); the points must be the record's.
void replay_hand(const nlohmann::json& rec) {
  hearts::Deal deal{};
  for (int h = 0; h < 4; ++h) {
    auto cards = hearts::parse_cards(rec["hands"][std::string(1, "NESW"[h])].get<std::string>());
    ASSERT_TRUE(cards);
    deal[h] = *cards;
  }
  auto dir = hearts::parse_pass_dir(rec["pass"].get<std::string>());
  ASSERT_TRUE(dir);
  hearts::State s(deal, *dir);
  if (*dir != hearts::PassDir::kNone)
    for (int h = 0; h < 4; ++h) {
      auto cards = hearts::parse_cards(rec["passes"][std::string(1, "NESW"[h])].get<std::string>());
      ASSERT_TRUE(cards);
      ASSERT_EQ(cards->size(), 3);
      for (const auto c : *cards) {
        ASSERT_EQ(s.current_player(), h);
        ASSERT_TRUE(s.is_legal(c));
        s.apply(c);
      }
    }
  ASSERT_EQ(rec["tricks"].size(), 13u);
  for (const auto& t : rec["tricks"]) {
    EXPECT_EQ(s.current_player(), seat_index(t["leader"].get<std::string>()));
    // The cards in playing order (a set would lose the order).
    std::string text = t["cards"].get<std::string>();
    for (std::size_t at = 0; at < text.size(); at += 3) {
      auto c = hearts::parse_card(text.substr(at, 2));
      ASSERT_TRUE(c);
      ASSERT_TRUE(s.is_legal(*c)) << text;
      s.apply(*c);
    }
    if (s.is_terminal()) continue;
    EXPECT_EQ(s.current_player(), seat_index(t["winner"].get<std::string>()));
  }
  ASSERT_TRUE(s.is_terminal());
  const auto points = s.hand_scores();
  for (int h = 0; h < 4; ++h)
    EXPECT_EQ(rec["points"][std::string(1, "NESW"[h])].get<int>(), points[h]);
  EXPECT_EQ(rec["result"].get<std::string>(),
            fmt::format("NS {} - EW {}", points[0] + points[2], points[1] + points[3]));
}

TEST(MatchHearts, RuleBeatsRandomAndRecordsReplay) {
  const std::string path = ::testing::TempDir() + "hearts_match_records.jsonl";
  std::remove(path.c_str());
  auto c = hearts_config({"bot=rule", "bot=random"});
  c.games = 100;
  c.concurrency = 2;
  c.records_file = path;
  auto r = run_hearts(c);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->pairings.size(), 1u);
  const auto& p = r->pairings[0];
  EXPECT_EQ(p.tally.games(), 100);
  // Over 2,000 hands the rule side scores 87% and takes 8.3 points a hand fewer than the
  // random side (per pair: score SD 0.22, PPH difference SD 4.7); these thresholds lie more
  // than 5 standard errors of 50 pairs below that.
  EXPECT_GT(p.tally.score(), 0.7) << p.tally.wins << " " << p.tally.draws << " " << p.tally.losses;
  EXPECT_GT(p.elo.lo, 0);
  EXPECT_EQ(p.measure.games, 100);
  EXPECT_EQ(p.measure.pairs, 50);
  EXPECT_LT(p.measure.mean_diff(), -3.0);
  EXPECT_LT(p.measure.mean_player(), p.measure.mean_opponent());
  EXPECT_LT(p.measure.mean_diff() + p.measure.ci95(), 0);
  const std::string text = format_report(*r, c);
  EXPECT_NE(text.find("PPH (lower is better): rule "), std::string::npos) << text;
  EXPECT_NE(report_json(*r, c).find("\"measure\""), std::string::npos);

  // Both games of a pair deal the same cards with the players swapped.
  std::map<int, std::vector<const GameSummary*>> by_pair;
  for (const auto& g : r->games) {
    EXPECT_EQ(g.outcome.fault, Fault::kNone);
    EXPECT_EQ(g.outcome.termination, "normal");
    EXPECT_EQ(g.outcome.plies, 52);
    ASSERT_TRUE(g.outcome.measure);
    by_pair[g.job.pair].push_back(&g);
  }
  for (const auto& [pair, games] : by_pair) {
    ASSERT_EQ(games.size(), 2u);
    EXPECT_EQ(games[0]->outcome.opening, games[1]->outcome.opening);
    EXPECT_EQ(games[0]->job.seats[0], games[1]->job.seats[1]);
  }

  const auto records = read_json_lines(path);
  ASSERT_EQ(records.size(), 100u);
  std::map<std::string, std::vector<std::string>> ns_by_deal;
  for (const auto& rec : records) {
    replay_hand(rec);
    ns_by_deal[rec["deal"].get<std::string>()].push_back(rec["players"]["NS"].get<std::string>());
  }
  ASSERT_EQ(ns_by_deal.size(), 50u);
  for (const auto& [deal, ns] : ns_by_deal) {
    ASSERT_EQ(ns.size(), 2u);
    EXPECT_NE(ns[0], ns[1]) << deal;
  }
}

TEST(MatchHearts, DealFileAndSearchBot) {
  // Two deals in the shared file's format; the match wraps around them in file order.
  const std::string path = ::testing::TempDir() + "hearts_match_deals.tsv";
  {
    std::ofstream out(path);
    Rng rng(5);
    out << "# two deals\n";
    for (const char* dir : {"across", "none"}) {
      const auto d = hearts::random_deal(rng);
      out << "d-" << dir << '\t' << dir;
      for (const auto& hand : d) out << '\t' << hearts::to_string(hand);
      out << '\n';
    }
  }
  auto c = hearts_config({"name=search bot=search option.worlds=8", "bot=rule"});
  c.settings.limits.movetime_ms = 20;
  c.games = 6;
  c.openings.file = path;
  auto r = run_hearts(c);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->games.size(), 6u);
  for (const auto& g : r->games) {
    EXPECT_EQ(g.outcome.termination, "normal") << g.outcome.reason;
    EXPECT_EQ(g.outcome.opening,
              g.job.pair % 2 == 0 ? "deal d-across (across)" : "deal d-none (none)");
    EXPECT_LE(g.outcome.stats[0].max_move_ms, 1000);
  }
  c.openings.file = "/nonexistent/deals.tsv";
  auto bad = run_hearts(c);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "cannot read deal file '/nonexistent/deals.tsv'");
}

TEST(MatchHearts, PlayersAndSettingsHeartsDoesNotHave) {
  GameSettings s;
  auto kind = make_game_kind("hearts", s);
  ASSERT_TRUE(kind);
  EXPECT_EQ((*kind)->check(*parse_player_spec("cmd=kibitz hearts serve")).error().message,
            "hearts has no engine protocol in kibitz match: use an in-process bot (bot=random, "
            "rule or search)");
  EXPECT_EQ((*kind)->check(*parse_player_spec("bot=kibitz")).error().message,
            "no hearts bot 'kibitz' (bots: random, rule, search)");
  EXPECT_FALSE((*kind)->check(*parse_player_spec("bot=rule option.worlds=8")));
  EXPECT_FALSE((*kind)->check(*parse_player_spec("bot=search option.worlds=0")));
  EXPECT_FALSE((*kind)->check(*parse_player_spec("bot=search option.speed=9")));
  EXPECT_TRUE((*kind)->check(*parse_player_spec("bot=search option.depth=1 option.beta=0.2")));
  GameSettings tc;
  tc.limits.clock = TimeControl{0, 10'000, 100};
  EXPECT_FALSE((*kind)->open(*parse_player_spec("bot=search"), tc));
  EXPECT_TRUE((*kind)->open(*parse_player_spec("bot=search"), s));

  s.board_size = 15;
  EXPECT_FALSE(make_game_kind("hearts", s));
  s = {};
  s.adjudication.max_moves = 10;
  EXPECT_FALSE(make_game_kind("hearts", s));
  s = {};
  s.max_year = 1910;
  EXPECT_EQ(make_game_kind("hearts", s).error().message,
            "hearts has no --max-year (only Diplomacy has)");

  // An external player stops the match before any game, naming the player.
  auto c = hearts_config({"bot=rule", "name=serve cmd=kibitz hearts serve"});
  auto r = run_hearts(c);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message.rfind("player 2 'serve': hearts has no engine protocol", 0), 0u)
      << r.error().message;
}

}  // namespace
}  // namespace kibitz::match
