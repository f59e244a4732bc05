// `kibitz match --game go`: verdicts of hand-made final boards, the GTP clock commands, whole
// matches between the in-process bots, Kibitz's own GTP engine and GNU Go as processes, and
// misbehaving GTP engines (tests/data/engines/fake_gtp.sh) that lose with the reason.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "games/go/sgf.hpp"
#include "games/registry.hpp"
#include "match/go_arena.hpp"
#include "match/match.hpp"
#include "match/player_spec.hpp"

namespace kibitz::match {
namespace {

const std::string kGoFake = std::string(KIBITZ_TEST_DATA) + "/engines/fake_gtp.sh";
constexpr const char* kGnuGo = "/usr/games/gnugo";

MatchConfig go_config(const std::vector<std::string>& specs, int size = 9) {
  MatchConfig c;
  for (const auto& s : specs) {
    auto p = parse_player_spec(s);
    EXPECT_TRUE(p) << s;
    if (p) c.players.push_back(*p);
  }
  c.settings.board_size = size;
  c.settings.move_timeout_ms = 5000;
  c.settings.start_timeout_ms = 3000;
  return c;
}

MatchReport play_go(MatchConfig c) {
  auto kind = make_game_kind("go", c.settings);
  EXPECT_TRUE(kind) << (kind ? "" : kind.error().message);
  if (!kind) return {};
  Match m(std::move(c), std::move(*kind));
  std::atomic<bool> stop{false};
  auto r = m.run(stop);
  EXPECT_TRUE(r) << (r ? "" : r.error().message);
  return r ? *r : MatchReport{};
}

// The games of a records file (each starts with the root node write_sgf writes).
std::vector<go::GameRecord> read_go_records(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  std::vector<go::GameRecord> out;
  for (std::size_t at = text.find("(;FF[4]GM[1]"); at != std::string::npos;) {
    const std::size_t next = text.find("(;FF[4]GM[1]", at + 1);
    auto r = go::read_sgf(text.substr(at, next == std::string::npos ? next : next - at));
    EXPECT_TRUE(r) << (r ? "" : r.error().message);
    if (r) out.push_back(*r);
    at = next;
  }
  return out;
}

go::Position with_columns(int black_x, int white_x, double komi) {
  go::Position p(go::Rules{.size = 5, .komi = komi});
  for (int y = 0; y < 5; ++y) {
    EXPECT_TRUE(p.place_stone(go::kBlack, go::point_of(black_x, y)));
    EXPECT_TRUE(p.place_stone(go::kWhite, go::point_of(white_x, y)));
  }
  p.apply(go::Move::pass());
  p.apply(go::Move::pass());
  return p;
}

TEST(MatchGo, VerdictsOfFinalBoards) {
  go::Position empty(go::Rules{.size = 9, .komi = 7.5});
  empty.apply(go::Move::pass());
  empty.apply(go::Move::pass());
  auto v = go_verdict(empty);
  EXPECT_EQ(v.result, "W+7.5");
  EXPECT_EQ(v.black_score, 0.0);
  EXPECT_EQ(v.reason, "two passes: area B 0 W 0, komi 7.5");

  // Black on column B, White on column D: 10 points each, C neutral; integer komi 0 ties.
  v = go_verdict(with_columns(1, 3, 0));
  EXPECT_EQ(v.result, "0");
  EXPECT_EQ(v.black_score, 0.5);
  // Black on C (A..C: 15), White on D (D..E: 10).
  EXPECT_EQ(go_verdict(with_columns(2, 3, 4.5)).result, "B+0.5");
  EXPECT_EQ(go_verdict(with_columns(2, 3, 4.5)).black_score, 1.0);
  EXPECT_EQ(go_verdict(with_columns(2, 3, 5)).result, "0");
  EXPECT_EQ(go_verdict(with_columns(2, 3, 7.5)).result, "W+2.5");
  EXPECT_EQ(go_verdict(with_columns(2, 3, -2)).result, "B+7");

  go::Position resigned(go::Rules{.size = 9});
  resigned.apply(go::Move::at(4, 4));
  resigned.apply(go::Move::resign());  // White resigns
  v = go_verdict(resigned);
  EXPECT_EQ(v.result, "B+R");
  EXPECT_EQ(v.black_score, 1.0);
}

TEST(MatchGo, GtpClockCommands) {
  MoveLimits l;
  EXPECT_EQ(gtp_time_settings(l), "");
  l.nodes = 100;
  EXPECT_EQ(gtp_time_settings(l), "");
  l.movetime_ms = 1500;
  EXPECT_EQ(gtp_time_settings(l), "time_settings 0 2 1");
  l.clock = *TimeControl::parse("60+2");
  EXPECT_EQ(gtp_time_settings(l), "time_settings 60 2 1");
  l.clock = *TimeControl::parse("10+0.1");  // an increment under a second: absolute time
  EXPECT_EQ(gtp_time_settings(l), "time_settings 10 0 0");
  l.clock = *TimeControl::parse("40/60");
  EXPECT_EQ(gtp_time_settings(l), "time_settings 0 60 40");

  ClockView v;
  EXPECT_EQ(gtp_time_left(v, 0), "");
  v.remaining_ms = {59'999, 1'000};
  v.moves_to_go = 0;
  EXPECT_EQ(gtp_time_left(v, 0), "time_left b 59 0");
  v.moves_to_go = 7;
  EXPECT_EQ(gtp_time_left(v, 1), "time_left w 1 7");
}

TEST(MatchGo, MctsBeatsRandomAndRecordsAreSgf) {
  const std::string sgf = ::testing::TempDir() + "go_match_records.sgf";
  std::remove(sgf.c_str());
  auto c = go_config({"name=mcts bot=mcts", "bot=random"});
  c.settings.limits.nodes = 300;
  c.games = 4;
  c.concurrency = 2;
  c.records_file = sgf;
  const auto r = play_go(c);
  ASSERT_EQ(r.pairings.size(), 1u);
  EXPECT_EQ(r.pairings[0].tally.wins, 4);
  ASSERT_EQ(r.games.size(), 4u);
  int mcts_black = 0;
  for (const auto& g : r.games) {
    EXPECT_EQ(g.outcome.fault, Fault::kNone);
    EXPECT_EQ(g.outcome.termination, "normal") << g.outcome.reason;
    const bool black = g.job.seats[0] == 0;
    mcts_black += black;
    EXPECT_TRUE(g.outcome.result.starts_with(black ? "B+" : "W+")) << g.outcome.result;
  }
  EXPECT_EQ(mcts_black, 2);

  // Every record reads back, replays legally to its end, and names its players and result.
  const auto records = read_go_records(sgf);
  ASSERT_EQ(records.size(), 4u);
  for (const auto& rec : records) {
    EXPECT_EQ(rec.size, 9);
    EXPECT_EQ(rec.komi, 7.5);
    EXPECT_TRUE(rec.black == "mcts" || rec.white == "mcts");
    EXPECT_TRUE(rec.result.starts_with(rec.black == "mcts" ? "B+" : "W+")) << rec.result;
    auto end = go::replay(rec);
    ASSERT_TRUE(end) << end.error().message;
    if (!rec.result.ends_with("+R")) {  // ended by two passes: the score is the result
      EXPECT_TRUE(end->is_terminal());
      EXPECT_EQ(go_verdict(*end).result, rec.result);
    }
  }
}

struct GoFaultCase {
  const char* mode;
  Fault fault;
  const char* reason;
};

class MatchGoFaults : public ::testing::TestWithParam<GoFaultCase> {};

TEST_P(MatchGoFaults, BadEngineLosesWithTheReason) {
  const auto& f = GetParam();
  auto c = go_config({"bot=random", "name=fake cmd=sh " + kGoFake + " " + f.mode});
  if (f.fault == Fault::kTime)
    c.settings.limits.clock = *TimeControl::parse("0.5");
  else
    c.settings.limits.nodes = 10;
  c.games = 2;
  const auto r = play_go(c);
  ASSERT_EQ(r.pairings.size(), 1u);
  EXPECT_EQ(r.pairings[0].tally.wins, 2) << f.mode;  // the random bot wins both games
  ASSERT_EQ(r.games.size(), 2u);
  for (const auto& g : r.games) {
    EXPECT_EQ(g.outcome.fault, f.fault);
    const int fake_seat = g.job.seats[0] == 1 ? 0 : 1;
    EXPECT_EQ(g.outcome.fault_seat, fake_seat);
    EXPECT_NE(g.outcome.reason.find(f.reason), std::string::npos) << g.outcome.reason;
    EXPECT_EQ(g.outcome.result,
              std::string(fake_seat == 0 ? "W+" : "B+") + (f.fault == Fault::kTime ? "T" : "F"));
  }
  const auto& faults = r.players[1].faults;
  EXPECT_EQ(faults.time_losses + faults.illegal_moves + faults.crashes, 2);
  EXPECT_EQ(r.players[0].faults.time_losses + r.players[0].faults.illegal_moves +
                r.players[0].faults.crashes,
            0);
}

INSTANTIATE_TEST_SUITE_P(
    All, MatchGoFaults,
    ::testing::Values(GoFaultCase{"illegal", Fault::kIllegal, "' (occupied)"},
                      GoFaultCase{"garbage", Fault::kIllegal, "illegal move 'Z99'"},
                      GoFaultCase{"crash", Fault::kCrash, "exited with status 3"},
                      GoFaultCase{"refuse", Fault::kIllegal, "(? cannot score)"},
                      GoFaultCase{"slow", Fault::kTime, "loses on time"}),
    [](const auto& param_info) { return std::string(param_info.param.mode); });

TEST(MatchGo, IllegalMoveReasonNamesThePoint) {
  // As White, the fake answers the point Black just played: occupied at once.
  auto c = go_config({"bot=random", "name=fake cmd=sh " + kGoFake + " illegal"});
  c.settings.limits.nodes = 10;
  c.games = 1;
  const auto r = play_go(c);
  ASSERT_EQ(r.games.size(), 1u);
  EXPECT_EQ(r.games[0].outcome.plies, 1);
  EXPECT_NE(r.games[0].outcome.reason.find("White (fake) plays an illegal move"), std::string::npos)
      << r.games[0].outcome.reason;
}

TEST(MatchGo, GtpEngineProcessFromTextOpenings) {
  // Kibitz's own GTP engine as a process; every game starts from the book's line.
  const std::string book = ::testing::TempDir() + "go_openings.txt";
  {
    std::ofstream out(book);
    out << "# a comment, then a 19x19 line that does not fit 9x9\nQ16 D4\nE5 C3 G4\n";
  }
  const std::string sgf = ::testing::TempDir() + "go_process_records.sgf";
  std::remove(sgf.c_str());
  auto c =
      go_config({"name=gtp cmd=" + std::string(KIBITZ_BINARY) + " gtp --visits 150", "bot=random"});
  c.settings.limits.nodes = 1;  // the random bot's limit; the process has its own
  c.openings.file = book;
  c.games = 2;
  c.records_file = sgf;
  const auto r = play_go(c);
  ASSERT_EQ(r.pairings.size(), 1u);
  const auto& f = r.players[0].faults;
  EXPECT_EQ(f.time_losses + f.illegal_moves + f.crashes, 0);
  EXPECT_EQ(r.pairings[0].tally.wins, 2);
  for (const auto& g : r.games) EXPECT_EQ(g.outcome.opening, book + ":3");
  const auto records = read_go_records(sgf);
  ASSERT_EQ(records.size(), 2u);
  for (const auto& rec : records) {
    ASSERT_GE(rec.moves.size(), 3u);
    EXPECT_EQ(go::to_vertex(rec.moves[0].second, 9), "E5");
    EXPECT_EQ(go::to_vertex(rec.moves[1].second, 9), "C3");
    EXPECT_EQ(go::to_vertex(rec.moves[2].second, 9), "G4");
    EXPECT_EQ(rec.moves[3].first, go::kWhite);
  }
}

TEST(MatchGo, GtpEngineKeepsToTheClock) {
  // 3 s a game: without time_settings / time_left the engine would think 1 s a move and
  // lose on time within a few moves.
  auto c = go_config({"name=gtp cmd=" + std::string(KIBITZ_BINARY) + " gtp", "bot=random"});
  c.settings.limits.clock = *TimeControl::parse("3");
  c.settings.grace_ms = 50;
  c.games = 2;
  const auto r = play_go(c);
  ASSERT_EQ(r.games.size(), 2u);
  const auto& f = r.players[0].faults;
  EXPECT_EQ(f.time_losses + f.illegal_moves + f.crashes, 0);
  EXPECT_GT(f.moves, 20);
  EXPECT_GT(f.min_clock_left_ms, 0);
  EXPECT_EQ(r.pairings[0].tally.wins, 2);
}

TEST(MatchGo, OpeningsFromSgfCutByPlies) {
  const std::string dir = ::testing::TempDir() + "go_sgf_openings";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  {
    std::ofstream(dir + "/a.sgf") << "(;GM[1]SZ[9]KM[6.5];B[ee];W[cc];B[gg];W[gc])";
    std::ofstream(dir + "/b.sgf") << "(;GM[1]SZ[9];B[cg];W[gg](;B[cc])(;B[dd]))";
    std::ofstream(dir + "/big.sgf") << "(;GM[1]SZ[19];B[pd])";  // another board: skipped
  }
  auto c = go_config({"bot=random", "name=other bot=random"});
  c.settings.limits.nodes = 1;
  c.settings.adjudication.max_moves = 10;  // scored as it stands after 10 moves each
  c.openings.file = dir;
  c.openings.plies = 3;
  c.games = 4;
  const auto r = play_go(c);
  ASSERT_EQ(r.games.size(), 4u);
  int first_book = 0;
  for (const auto& g : r.games) {
    EXPECT_EQ(g.outcome.termination, "adjudication") << g.outcome.reason;
    EXPECT_EQ(g.outcome.plies, 20);
    first_book += g.outcome.opening == dir + "/a.sgf";
  }
  EXPECT_EQ(first_book, 2);  // a pair per opening, the colours reversed

  // The whole main line of a.sgf is 4 moves: --plies 0 keeps them; bad files are errors.
  auto kind = make_game_kind("go", c.settings);
  ASSERT_TRUE(kind);
  EXPECT_TRUE((*kind)->load_openings({dir + "/a.sgf", "auto", 0, false}));
  EXPECT_EQ((*kind)->opening_count(), 1u);
  {
    std::ofstream(dir + "/bad.txt") << "E5 E5\n";
    std::ofstream(dir + "/junk.txt") << "E5 hello\n";
  }
  auto bad = (*kind)->load_openings({dir + "/bad.txt", "auto", 0, false});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("bad.txt:1: move 2 (W E5): illegal: occupied"),
            std::string::npos)
      << bad.error().message;
  auto junk = (*kind)->load_openings({dir + "/junk.txt", "auto", 0, false});
  ASSERT_FALSE(junk);
  EXPECT_NE(junk.error().message.find("junk.txt:1: bad vertex 'hello'"), std::string::npos)
      << junk.error().message;
  EXPECT_FALSE((*kind)->load_openings({dir + "/big.sgf", "auto", 0, false}));
}

TEST(MatchGo, GnuGoPlaysCleanly) {
  if (!std::filesystem::exists(kGnuGo)) GTEST_SKIP() << kGnuGo << " is not installed";
  auto c = go_config({"name=kibitz cmd=" + std::string(KIBITZ_BINARY) + " gtp --visits 100",
                      std::string("name=gnugo cmd=") + kGnuGo + " --mode gtp --level 0"});
  c.settings.limits.nodes = 1;
  c.settings.move_timeout_ms = 30'000;  // GNU Go takes a second or two on some moves
  c.games = 2;
  const auto r = play_go(c);
  ASSERT_EQ(r.games.size(), 2u);
  for (const auto& p : r.players)
    EXPECT_EQ(p.faults.time_losses + p.faults.illegal_moves + p.faults.crashes, 0) << p.name;
  for (const auto& g : r.games) {
    EXPECT_TRUE(g.outcome.finished());
    EXPECT_EQ(g.outcome.termination, "normal") << g.outcome.reason;
  }
}

TEST(MatchGo, BadSettingsAndPlayers) {
  GameSettings s;
  for (int size : {4, 20}) {
    s.board_size = size;
    auto k = make_game_kind("go", s);
    ASSERT_FALSE(k);
    EXPECT_EQ(k.error().message, fmt::format("--board-size {}: Go boards are 5 to 19", size));
  }
  s.board_size = 9;
  s.rule = "japanese";
  EXPECT_FALSE(make_game_kind("go", s));
  s.rule = "Tromp-Taylor";
  EXPECT_TRUE(make_game_kind("go", s));
  s = {};
  s.komi = 6.5;
  EXPECT_TRUE(make_game_kind("go", s));
  EXPECT_FALSE(make_game_kind("chess", s));
  EXPECT_FALSE(make_game_kind("gomoku", s));

  auto kind = make_game_kind("go", {});
  ASSERT_TRUE(kind);
  EXPECT_FALSE((*kind)->check(*parse_player_spec("bot=kibitz")));
  EXPECT_FALSE((*kind)->check(*parse_player_spec("cmd=x proto=uci")));
  EXPECT_FALSE((*kind)->check(*parse_player_spec("cmd=x option.Hash=1")));
  EXPECT_FALSE((*kind)->check(*parse_player_spec("bot=random option.Threads=2")));
  EXPECT_FALSE((*kind)->check(*parse_player_spec("bot=mcts option.Threads=0")));
  EXPECT_TRUE((*kind)->check(*parse_player_spec("bot=mcts option.Threads=2 option.resign=false")));
  EXPECT_TRUE((*kind)->check(*parse_player_spec("cmd=x proto=gtp")));

  // An engine that never answers the handshake stops the match with the cause.
  auto c = go_config({"bot=random", "cmd=sh " + kGoFake + " mute"});
  c.settings.limits.nodes = 1;
  c.settings.start_timeout_ms = 300;
  auto mute_kind = make_game_kind("go", c.settings);
  ASSERT_TRUE(mute_kind);
  Match m(std::move(c), std::move(*mute_kind));
  std::atomic<bool> stop{false};
  auto r = m.run(stop);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("does not answer 'protocol_version' within 300 ms"),
            std::string::npos)
      << r.error().message;
}

}  // namespace
}  // namespace kibitz::match
