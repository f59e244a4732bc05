// `kibitz match --game diplomacy`: one power against the other six, swapped within a pair;
// the heuristic bot beats the random bot from either side, the RM+ bot plays under a fixed
// iteration count, records are the game's JSON with the match's fields, and players or
// settings Diplomacy does not have are one-line errors.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "games/registry.hpp"
#include "match/match.hpp"
#include "match/player_spec.hpp"

namespace kibitz::match {
namespace {

MatchConfig dip_config(const std::vector<std::string>& specs, int max_year) {
  MatchConfig c;
  for (const auto& s : specs) {
    auto p = parse_player_spec(s);
    EXPECT_TRUE(p) << s;
    if (p) c.players.push_back(*p);
  }
  c.settings.max_year = max_year;
  return c;
}

Result<MatchReport> run_dip(MatchConfig c) {
  auto kind = make_game_kind("diplomacy", c.settings);
  if (!kind) return tl::unexpected(kind.error());
  Match m(std::move(c), std::move(*kind));
  std::atomic<bool> stop{false};
  return m.run(stop);
}

TEST(MatchDiplomacy, HeuristicBeatsRandomAndRecordsAreGames) {
  const std::string path = ::testing::TempDir() + "diplomacy_match_records.jsonl";
  std::remove(path.c_str());
  auto c = dip_config({"bot=heuristic", "bot=random"}, 1906);
  c.games = 4;
  c.concurrency = 2;
  c.seed = 3;
  c.records_file = path;
  auto r = run_dip(c);
  ASSERT_TRUE(r) << r.error().message;
  const auto& p = r->pairings[0];
  // Alone against six random bots the heuristic bot grows; as six against one random bot
  // it holds far more than the random power's handful (BENCHMARKS.md: 0.09 centres by 1930).
  EXPECT_EQ(p.tally.wins, 4) << format_report(*r, c);
  EXPECT_EQ(p.measure.games, 4);
  EXPECT_GT(p.measure.mean_diff(), 1.0);
  EXPECT_NE(format_report(*r, c).find("centres per power: heuristic "), std::string::npos);

  std::map<int, std::string> opening_of_pair;
  for (const auto& g : r->games) {
    EXPECT_EQ(g.outcome.termination, "normal") << g.outcome.reason;
    EXPECT_EQ(g.outcome.fault, Fault::kNone);
    EXPECT_GT(g.outcome.stats[0].moves, 0);
    EXPECT_GT(g.outcome.stats[1].moves, 0);
    // Pair k: power k (Austria, England) with game seed 3 + k, in both of its games.
    EXPECT_EQ(g.outcome.opening, g.job.pair == 0 ? "Austria seed 3" : "England seed 4");
    const bool heuristic_alone = g.job.seats[0] == 0;
    EXPECT_TRUE(
        g.outcome.result.starts_with(fmt::format("{}({})", g.job.pair == 0 ? "Austria" : "England",
                                                 heuristic_alone ? "heuristic" : "random")))
        << g.outcome.result;
  }

  std::ifstream in(path);
  int n = 0;
  for (std::string line; std::getline(in, line); ++n) {
    const auto rec = nlohmann::json::parse(line, nullptr, false);
    ASSERT_FALSE(rec.is_discarded()) << line;
    const std::string power = rec["power"];
    const std::string alone = rec["players"][power];
    const std::string others = rec["players"]["others"];
    EXPECT_NE(alone, others);
    // The power's own bot and six of the other player's, in map order (Austria first).
    ASSERT_EQ(rec["bots"].size(), 7u);
    int alone_seats = 0;
    for (const auto& b : rec["bots"]) alone_seats += b.get<std::string>() == alone;
    EXPECT_EQ(alone_seats, 1);
    const auto& game = rec["game"];
    ASSERT_TRUE(game.contains("phases"));
    EXPECT_EQ(game["phases"][0]["phase"], "S1901M");
    EXPECT_LE(game["last_phase"].get<std::string>().substr(1, 4), "1906");
    // The result names the power's centres at the end of the game.
    const int centres = game["centres"][power];
    EXPECT_TRUE(rec["result"].get<std::string>().starts_with(
        fmt::format("{}({}) {}", power, alone, centres)))
        << rec["result"];
  }
  EXPECT_EQ(n, 4);
}

TEST(MatchDiplomacy, RmBotWithFixedIterations) {
  auto c = dip_config({"name=rm bot=rm option.strength=0.5", "bot=random"}, 1902);
  c.settings.limits.nodes = 4;  // iterations: reproducible and quick
  c.games = 2;
  auto r = run_dip(c);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->games.size(), 2u);
  for (const auto& g : r->games) {
    EXPECT_EQ(g.outcome.termination, "normal") << g.outcome.reason;
    EXPECT_GE(g.outcome.plies, 4) << g.outcome.reason;  // phases: two years' movements at least
    EXPECT_TRUE(g.outcome.reason.starts_with("year limit")) << g.outcome.reason;
  }
}

TEST(MatchDiplomacy, PlayersAndSettingsDiplomacyDoesNotHave) {
  GameSettings s;
  auto kind = make_game_kind("diplomacy", s);
  ASSERT_TRUE(kind);
  EXPECT_EQ((*kind)->check(*parse_player_spec("cmd=some-engine")).error().message,
            "diplomacy has no engine protocol in kibitz match: use an in-process bot "
            "(bot=random, heuristic or rm)");
  EXPECT_EQ((*kind)->check(*parse_player_spec("bot=search")).error().message,
            "no diplomacy bot 'search' (bots: random, heuristic, rm)");
  EXPECT_FALSE((*kind)->check(*parse_player_spec("bot=heuristic option.strength=2")));
  EXPECT_FALSE((*kind)->check(*parse_player_spec("bot=rm option.strength=0")));
  EXPECT_FALSE((*kind)->check(*parse_player_spec("bot=rm option.depth=3")));
  EXPECT_TRUE((*kind)->check(*parse_player_spec("bot=rm option.strength=2 option.iterations=9")));
  GameSettings tc;
  tc.limits.clock = TimeControl{0, 10'000, 100};
  EXPECT_FALSE((*kind)->open(*parse_player_spec("bot=rm"), tc));
  OpeningOptions book;
  book.file = "openings.txt";
  EXPECT_FALSE((*kind)->load_openings(book));

  s.max_year = 1800;
  EXPECT_EQ(make_game_kind("diplomacy", s).error().message, "--max-year 1800: from 1901 to 9999");
  s = {};
  s.adjudication.max_moves = 10;
  EXPECT_FALSE(make_game_kind("diplomacy", s));
  s = {};
  s.komi = 6.5;
  EXPECT_FALSE(make_game_kind("diplomacy", s));
  s = {};
  s.max_year = 1910;
  EXPECT_EQ(make_game_kind("chess", s).error().message,
            "chess has no --max-year (only Diplomacy has)");
}

}  // namespace
}  // namespace kibitz::match
