// `kibitz match` pieces: time controls and clocks, player specs, and whole chess matches
// between in-process bots and misbehaving external engines (tests/data/engines/fake_uci.sh).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "games/chess/pgn.hpp"
#include "games/registry.hpp"
#include "match/arena.hpp"
#include "match/match.hpp"
#include "match/player_spec.hpp"
#include "match/time_control.hpp"

namespace kibitz::match {
namespace {

const std::string kFake = std::string(KIBITZ_TEST_DATA) + "/engines/fake_uci.sh";

// A game won because the other player could not start is written in the game's notation.
TEST(MatchGames, ForfeitResultsInEachGamesNotation) {
  const std::vector<std::pair<std::string, std::array<std::string, 2>>> expected = {
      {"chess", {"1-0", "0-1"}}, {"gomoku", {"B+", "W+"}}, {"go", {"B+F", "W+F"}}};
  for (const auto& [name, results] : expected) {
    auto kind = make_game_kind(name, GameSettings{});
    ASSERT_TRUE(kind) << name;
    EXPECT_EQ((*kind)->forfeit_result(0), results[0]) << name;
    EXPECT_EQ((*kind)->forfeit_result(1), results[1]) << name;
  }
}

TEST(MatchTimeControl, ParsesTheUsualForms) {
  auto a = TimeControl::parse("10+0.1");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->moves, 0);
  EXPECT_EQ(a->base_ms, 10000);
  EXPECT_EQ(a->increment_ms, 100);
  EXPECT_EQ(a->to_string(), "10+0.1");
  auto b = TimeControl::parse("40/1:30+0.5");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->moves, 40);
  EXPECT_EQ(b->base_ms, 90000);
  EXPECT_EQ(b->increment_ms, 500);
  EXPECT_EQ(b->pgn(), "40/90");
  EXPECT_EQ(TimeControl::parse("60")->base_ms, 60000);
  for (const char* bad : {"", "x", "10+", "0", "-5", "40/", "/60", "1:xx", "10+0.1+2"})
    EXPECT_FALSE(TimeControl::parse(bad)) << bad;
}

TEST(MatchTimeControl, ClocksChargeIncrementAndRepeatPeriods) {
  MoveLimits l;
  l.clock = *TimeControl::parse("2/1+0.5");  // 2 moves in 1 s, +0.5 s a move
  GameClocks clocks({l, l}, 0, 1000);
  EXPECT_EQ(clocks.view(0).moves_to_go, 2);
  EXPECT_EQ(clocks.budget_ms(0), 1000);
  EXPECT_TRUE(clocks.charge(0, 400));  // 1000 - 400 + 500
  EXPECT_DOUBLE_EQ(clocks.remaining_ms(0), 1100);
  EXPECT_EQ(clocks.view(0).moves_to_go, 1);
  EXPECT_TRUE(clocks.charge(0, 100));  // 1100 - 100 + 500, then the next period's 1000
  EXPECT_DOUBLE_EQ(clocks.remaining_ms(0), 2500);
  EXPECT_EQ(clocks.view(0).moves_to_go, 2);
  EXPECT_EQ(clocks.view(1).remaining_ms[0], 2500);
  EXPECT_EQ(clocks.view(1).remaining_ms[1], 1000);
  EXPECT_FALSE(clocks.charge(1, 1000.5));  // past the clock: a forfeit
}

TEST(MatchTimeControl, FixedLimitsWaitForMovetimePlusTimeout) {
  MoveLimits l;
  l.movetime_ms = 200;
  GameClocks clocks({l, l}, 0, 1000);
  EXPECT_EQ(clocks.view(0).remaining_ms[0], -1);
  EXPECT_EQ(clocks.budget_ms(0), 1200);
  EXPECT_TRUE(clocks.charge(0, 1100));
  EXPECT_FALSE(clocks.charge(0, 1300));
}

TEST(MatchPlayerSpec, ParsesWordsOptionsAndArguments) {
  auto s = parse_player_spec(
      "name=sf cmd=/usr/games/stockfish --flag 'option.Skill Level=5' option.Hash=64 nodes=500");
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->name, "sf");
  ASSERT_EQ(s->command.size(), 2u);
  EXPECT_EQ(s->command[1], "--flag");
  ASSERT_EQ(s->options.size(), 2u);
  EXPECT_EQ(s->options[0].first, "Skill Level");
  EXPECT_EQ(s->options[0].second, "5");
  EXPECT_EQ(s->limits.nodes, 500u);
  auto b = parse_player_spec("bot=kibitz");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->name, "kibitz");
  EXPECT_FALSE(b->external());
  EXPECT_EQ(parse_player_spec("cmd=/x/y/engine arg=uci")->name, "engine");
  EXPECT_FALSE(parse_player_spec("name=x"));              // neither cmd nor bot
  EXPECT_FALSE(parse_player_spec("cmd=a bot=b"));         // both
  EXPECT_FALSE(parse_player_spec("bot=a frobnicate"));    // stray word
  EXPECT_FALSE(parse_player_spec("bot=a nodes=-3"));      // bad number
  EXPECT_FALSE(parse_player_spec("bot=a proto=xboard"));  // unknown protocol
  EXPECT_FALSE(parse_player_spec("cmd='unterminated"));   // quote
}

MatchConfig config_for(std::vector<std::string> specs) {
  MatchConfig c;
  for (const auto& s : specs) {
    auto p = parse_player_spec(s);
    EXPECT_TRUE(p) << s;
    if (p) c.players.push_back(*p);
  }
  c.settings.move_timeout_ms = 2000;
  c.settings.start_timeout_ms = 3000;
  return c;
}

MatchReport play(MatchConfig c) {
  Match m(std::move(c), std::move(*make_game_kind("chess", {})));
  std::atomic<bool> stop{false};
  auto r = m.run(stop);
  EXPECT_TRUE(r) << (r ? "" : r.error().message);
  return r ? *r : MatchReport{};
}

TEST(MatchChess, StrongerBotWinsAgainstRandom) {
  auto c = config_for({"name=search bot=kibitz option.Hash=1", "bot=random"});
  c.settings.limits.depth = 3;
  c.settings.adjudication.max_moves = 150;
  c.games = 4;
  c.concurrency = 2;
  const auto r = play(c);
  ASSERT_EQ(r.pairings.size(), 1u);
  const auto& t = r.pairings[0].tally;
  EXPECT_EQ(t.games(), 4);
  EXPECT_EQ(t.pairs(), 2);
  EXPECT_GE(t.wins, 3);
  EXPECT_EQ(t.losses, 0);
  EXPECT_GT(r.pairings[0].elo.elo, 200);
  for (const auto& g : r.games) EXPECT_EQ(g.outcome.fault, Fault::kNone);
}

TEST(MatchChess, ColoursAlternateAndRecordsAreValidPgn) {
  const std::string pgn = ::testing::TempDir() + "match_records.pgn";
  std::remove(pgn.c_str());
  auto c = config_for({"name=a bot=random", "name=b bot=random"});
  c.settings.limits.depth = 1;
  c.settings.adjudication.max_moves = 30;
  c.games = 4;
  c.records_file = pgn;
  const auto r = play(c);
  ASSERT_EQ(r.games.size(), 4u);
  int a_white = 0;
  for (const auto& g : r.games) a_white += g.job.seats[0] == 0;
  EXPECT_EQ(a_white, 2);
  std::ifstream in(pgn);
  std::stringstream text;
  text << in.rdbuf();
  auto games = chess::parse_pgn(text.str());
  ASSERT_TRUE(games) << games.error().message;
  ASSERT_EQ(games->size(), 4u);
  for (const auto& g : *games) EXPECT_NE(g.result, "*");
}

struct FaultCase {
  const char* mode;
  Fault fault;
  const char* reason;
};

class MatchFaults : public ::testing::TestWithParam<FaultCase> {};

TEST_P(MatchFaults, BadEngineLosesWithTheReason) {
  const auto& f = GetParam();
  auto c = config_for({"bot=random", "name=fake cmd=sh " + kFake + " " + f.mode});
  if (f.fault == Fault::kTime)
    c.settings.limits.clock = *TimeControl::parse("0.3");
  else
    c.settings.limits.depth = 1;
  c.games = 2;
  const auto r = play(c);
  const auto& t = r.pairings[0].tally;
  EXPECT_EQ(t.wins, 2) << f.mode;  // the random bot wins both games
  ASSERT_EQ(r.games.size(), 2u);
  for (const auto& g : r.games) {
    EXPECT_EQ(g.outcome.fault, f.fault);
    const int fake_seat = g.job.seats[0] == 1 ? 0 : 1;
    EXPECT_EQ(g.outcome.fault_seat, fake_seat);
    EXPECT_NE(g.outcome.reason.find(f.reason), std::string::npos) << g.outcome.reason;
  }
  const auto& faults = r.players[1].faults;
  EXPECT_EQ(faults.time_losses + faults.illegal_moves + faults.crashes, 2);
}

INSTANTIATE_TEST_SUITE_P(
    All, MatchFaults,
    ::testing::Values(FaultCase{"illegal", Fault::kIllegal, "illegal move 'e1e8'"},
                      FaultCase{"crash", Fault::kCrash, "exited with status 3"},
                      FaultCase{"slow", Fault::kTime, "loses on time"},
                      FaultCase{"silent", Fault::kTime, "loses on time"}),
    [](const auto& param_info) { return std::string(param_info.param.mode); });

TEST(MatchChess, BadPlayersFailBeforeAnyGame) {
  std::atomic<bool> stop{false};
  auto run = [&](std::vector<std::string> specs) {
    auto c = config_for(specs);
    c.settings.limits.depth = 1;
    c.settings.start_timeout_ms = 500;
    Match m(std::move(c), std::move(*make_game_kind("chess", {})));
    auto r = m.run(stop);
    return r ? std::string() : r.error().message;
  };
  EXPECT_NE(run({"bot=random", "cmd=/nonexistent/engine"}).find("cannot run"), std::string::npos);
  EXPECT_NE(run({"bot=random", "cmd=sh " + kFake + " mute"}).find("no uciok"), std::string::npos);
  EXPECT_NE(
      run({"bot=random", "cmd=sh " + kFake + " illegal option.Foo=1"}).find("no UCI option 'Foo'"),
      std::string::npos);
  EXPECT_NE(run({"bot=random", "bot=nosuchbot"}).find("no chess bot"), std::string::npos);
  EXPECT_NE(run({"bot=random", "bot=kibitz option.nonsense=true"}).find("no option"),
            std::string::npos);
  EXPECT_NE(run({"bot=random", "bot=random"}).find("named"), std::string::npos);
}

// Shards of the schedule (kibitz.cluster's tasks) play exactly the games of the whole
// match, and counting their JSON entries again gives the whole match's report.
TEST(MatchChess, ShardsPlayTheWholeMatchAndCountTheSame) {
  auto c = config_for({"name=search bot=kibitz option.Hash=1", "name=plain bot=plain"});
  c.settings.limits.depth = 2;
  c.settings.adjudication.max_moves = 60;
  c.games = 8;
  const auto whole = play(c);
  std::string all = "[";
  std::vector<int> numbers;
  for (const auto& [begin, end] : std::vector<std::pair<int, int>>{{0, 1}, {1, 3}, {3, -1}}) {
    auto shard = c;
    shard.pair_begin = begin;
    shard.pair_end = end;
    const auto r = play(shard);
    const auto j = nlohmann::json::parse(report_json(r, shard));
    EXPECT_EQ(r.scheduled, 2 * ((end < 0 ? 4 : end) - begin));
    for (const auto& g : j["games"]) {
      numbers.push_back(g["number"].get<int>());
      all += (all.size() > 1 ? "," : "") + g.dump();
    }
  }
  all += "]";
  std::sort(numbers.begin(), numbers.end());
  EXPECT_EQ(numbers, (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8}));
  auto kind = make_game_kind("chess", {});
  const auto again = report_from_games(c, **kind, all);
  ASSERT_TRUE(again) << again.error().message;
  const auto& a = again->pairings[0].tally;
  const auto& w = whole.pairings[0].tally;
  EXPECT_EQ(a.wins, w.wins);
  EXPECT_EQ(a.draws, w.draws);
  EXPECT_EQ(a.losses, w.losses);
  EXPECT_EQ(a.penta, w.penta);
  EXPECT_EQ(again->players[0].faults.moves, whole.players[0].faults.moves);
  EXPECT_EQ(again->pairings[0].elo.elo, whole.pairings[0].elo.elo);
  // The same game twice, a game outside the schedule and broken text are refused.
  EXPECT_FALSE(report_from_games(
      c, **kind, "[" + all.substr(1, all.size() - 2) + "," + all.substr(1, all.size() - 2) + "]"));
  EXPECT_FALSE(report_from_games(c, **kind, "[{\"number\": 99}]"));
  EXPECT_FALSE(report_from_games(c, **kind, "{not json"));
}

TEST(MatchChess, SprtStopsOnceDecided) {
  auto c = config_for({"name=search bot=kibitz option.Hash=1", "bot=random"});
  c.settings.limits.depth = 2;
  c.settings.adjudication.max_moves = 100;
  c.games = 200;
  c.sprt = SprtParams{0, 100, 0.05, 0.05};
  const auto r = play(c);
  ASSERT_TRUE(r.pairings[0].sprt);
  EXPECT_EQ(r.pairings[0].sprt->decision, SprtDecision::kAcceptH1);
  EXPECT_LT(r.pairings[0].tally.games(), 200);
  EXPECT_NE(r.stop_reason.find("H1 accepted"), std::string::npos);

  // Games that finish after the decision (they were running alongside) do not reopen it,
  // even when they go the other way: here ten more pairs, all lost by the stronger side.
  auto games = nlohmann::json::parse(report_json(r, c))["games"];
  const int n = static_cast<int>(games.size());
  nlohmann::json first_of_pair, second_of_pair;  // templates with the scheduled seats
  for (const auto& g : games) (g["number"].get<int>() % 2 ? first_of_pair : second_of_pair) = g;
  for (int m = n + 1; m <= n + 20; ++m) {
    auto g = m % 2 ? first_of_pair : second_of_pair;
    g["number"] = m;
    const bool search_first = g["seats"][0].get<int>() == 0;
    g["first_score"] = search_first ? 0.0 : 1.0;
    g["result"] = search_first ? "0-1" : "1-0";
    games.push_back(g);
  }
  auto kind = make_game_kind("chess", {});
  const auto later = report_from_games(c, **kind, games.dump());
  ASSERT_TRUE(later) << later.error().message;
  EXPECT_EQ(later->pairings[0].tally.games(), n + 20);
  ASSERT_TRUE(later->pairings[0].sprt);
  EXPECT_EQ(later->pairings[0].sprt->decision, SprtDecision::kAcceptH1);
  EXPECT_EQ(later->pairings[0].sprt->llr, r.pairings[0].sprt->llr);
}

MatchReport play_gomoku(MatchConfig c) {
  auto kind = make_game_kind("gomoku", c.settings);
  EXPECT_TRUE(kind) << (kind ? "" : kind.error().message);
  Match m(std::move(c), std::move(*kind));
  std::atomic<bool> stop{false};
  auto r = m.run(stop);
  EXPECT_TRUE(r) << (r ? "" : r.error().message);
  return r ? *r : MatchReport{};
}

TEST(MatchGomoku, PipelineBeatsRandomAndRecordsAreSgf) {
  const std::string sgf = ::testing::TempDir() + "match_records.sgf";
  std::remove(sgf.c_str());
  auto c = config_for({"name=engine bot=pipeline option.Hash=1", "bot=random"});
  c.settings.limits.movetime_ms = 30;
  c.games = 2;
  c.records_file = sgf;
  const auto r = play_gomoku(c);
  ASSERT_EQ(r.pairings.size(), 1u);
  EXPECT_EQ(r.pairings[0].tally.wins, 2);
  std::ifstream in(sgf);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("(;FF[4]GM[4]"), std::string::npos);
  EXPECT_NE(text.str().find("RE[B+]"), std::string::npos);
  EXPECT_NE(text.str().find("RE[W+]"), std::string::npos);
}

TEST(MatchGomoku, GomocupEngineProcessPlaysCleanly) {
  // Kibitz's own Gomocup engine as an external process, from an opening of the offset form.
  const std::string book = ::testing::TempDir() + "gomoku_openings.txt";
  {
    std::ofstream out(book);
    out << "0,0, 1,1, -1,1\n";
  }
  auto c = config_for(
      {"name=gomocup cmd=" + std::string(KIBITZ_BINARY) + " gomocup --hash 1", "bot=random"});
  c.settings.limits.movetime_ms = 120;  // the engine keeps 60 ms of it (its safety margin)
  // The default handshake time: the whole binary under ASan, started while the other core
  // runs tests, once took over 3 s to answer START.
  c.settings.start_timeout_ms = 10'000;
  c.openings.file = book;
  c.games = 2;
  const auto r = play_gomoku(c);
  ASSERT_EQ(r.players.size(), 2u);
  const auto& f = r.players[0].faults;
  EXPECT_EQ(f.time_losses + f.illegal_moves + f.crashes, 0);
  EXPECT_EQ(r.pairings[0].tally.wins, 2);
  for (const auto& g : r.games) EXPECT_EQ(g.outcome.opening, book + "#1");
}

TEST(MatchGomoku, BadSettingsAndPlayers) {
  GameSettings s;
  s.rule = "hexagonal";
  EXPECT_FALSE(make_game_kind("gomoku", s));
  s.rule = "renju";
  s.board_size = 9;
  EXPECT_FALSE(make_game_kind("gomoku", s));
  EXPECT_FALSE(make_game_kind("chess", s));
  EXPECT_FALSE(make_game_kind("checkers", {}));
  auto kind = make_game_kind("gomoku", {});
  ASSERT_TRUE(kind);
  EXPECT_FALSE((*kind)->check(*parse_player_spec("bot=kibitz")));
  EXPECT_FALSE((*kind)->check(*parse_player_spec("cmd=x proto=uci")));
}

}  // namespace
}  // namespace kibitz::match
