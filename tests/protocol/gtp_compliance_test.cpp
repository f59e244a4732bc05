// GTP v2 compliance: each case is a controller's script and the transcript the specification
// (and, for the analysis commands, Leela Zero's and KataGo's formats as GUIs parse them) asks
// for. Every command gets exactly one response, "=" or "?" (the regressions of issue 22 are
// marked "repro").
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "engine/go_engine.hpp"
#include "games/go/board.hpp"
#include "protocol/compliance.hpp"
#include "protocol/gtp/gtp.hpp"

namespace kibitz::gtp {
namespace {

using compliance::Case;

std::string gtp_output(const std::string& input) {
  std::istringstream in(input);
  std::ostringstream out;
  SessionOptions o;
  o.visits = 48;
  o.size = 9;
  o.engine.max_nodes = 1 << 15;
  Session session(in, out, o);
  session.run();
  return out.str();
}

int gtp_commands(const std::string& input) {
  int n = 0;
  for (const auto& line : compliance::lines_of(input)) n += !clean_line(line).empty();
  return n;
}

constexpr const char* kVertex = "[A-HJ-T]([1-9]|1[0-9])";

const std::vector<Case>& gtp_cases() {
  static const std::vector<Case> list = {
      {"administrative commands",
       "protocol_version\n1 name\nversion\nknown_command kata-analyze\nknown_command nope\n",
       {"^= 2$", "^=1 Kibitz$", "^= .+", "^= true$", "^= false$"},
       {}},
      {"list_commands lists the analysis commands",
       "list_commands\n",
       {"^= protocol_version$", "^lz-analyze$", "^lz-genmove_analyze$", "^kata-analyze$",
        "^kata-genmove_analyze$"},
       {}},
      {"errors are answered and the session goes on",
       "boardsize 99\nplay x z9\nplay b Z99\nfrobnicate\nkomi abc\ngenmove\n3 name\n",
       {"^\\? unacceptable size$", "^\\? syntax error$", "^\\? syntax error$",
        "^\\? unknown command$", "^\\? syntax error$", "^\\? syntax error$", "^=3 Kibitz$"},
       {}},
      {"comments, tabs and control characters are cleaned",
       "# a comment\n\tname\t# trailing\n\x01version\n",
       {"^= Kibitz$", "^= .+"},
       {}},
      {"repro 6: play after two passes plays on",
       "play b pass\nplay w pass\nplay b E5\ngenmove w\nshowboard\n",
       {"^= $", "^= $", "^= $", std::string("^= ") + kVertex + "$", "X"},
       {"illegal"}},
      {"repro 6: undo after a move played past two passes",
       "play b pass\nplay w pass\nplay b E5\nundo\nplay b E5\n",
       {"^= $", "^= $", "^= $", "^= $", "^= $"},
       {"^\\?"}},
      {"repro 7: lz-genmove_analyze streams info lines, then play",
       "play b E5\n7 lz-genmove_analyze w 1\nname\n",
       {"^= $", "^=7$",
        std::string("^info move ") + kVertex +
            " visits \\d+ winrate \\d+ prior \\d+ lcb \\d+ order 0 pv ",
        std::string("^play ") + kVertex + "$", "^$", "^= Kibitz$"},
       {}},
      {"repro 7: kata-analyze with ownership",
       "play b E5\n8 kata-analyze w 1 ownership true\nname\n",
       {"^= $", "^=8$",
        std::string("^info move ") + kVertex +
            " visits \\d+ utility -?[0-9.]+ winrate [0-9.]+ prior [0-9.]+ lcb [0-9.]+ utilityLcb "
            "-?[0-9.]+ order 0 pv .* ownership( -?[0-9.]+){81}$",
        "^$", "^= Kibitz$"},
       {}},
      {"repro 7: kata-genmove_analyze plays the move",
       "kata-genmove_analyze b 1\nshowboard\n",
       {"^=$", std::string("^play ") + kVertex + "$", "^$", "^= $", "X"},
       {}},
      {"repro 7: genmove_analyze without a colour is a syntax error",
       "lz-genmove_analyze\nkata-genmove_analyze 10\n",
       {"^\\? syntax error$", "^\\? syntax error$"},
       {}},
      {"handicap and final score",
       "fixed_handicap 2\nfinal_score\nfinal_status_list dead\n",
       {"^= (G7 C3|C3 G7)$", "^= B\\+", "^= $"},
       {}},
      {"time settings",
       "time_settings 0 5 1\ntime_left b 4 1\ngenmove b\n",
       {"^= $", "^= $", std::string("^= (") + kVertex + "|pass)$"},
       {}},
      {"quit ends the session and is answered", "quit\nname\n", {"^= $"}, {"Kibitz"}},
  };
  return list;
}

TEST(GtpCompliance, EveryCaseTranscript) {
  for (const Case& c : gtp_cases()) {
    SCOPED_TRACE(c.name);
    const std::string text = gtp_output(c.input);
    const auto out = compliance::lines_of(text);
    EXPECT_TRUE(compliance::transcript_matches(c, out));
    // One response per command (the commands after quit are not read) and every response
    // ends with an empty line.
    const bool quits = c.input.starts_with("quit");
    EXPECT_EQ(compliance::count_matching(out, "^[=?]"), quits ? 1 : gtp_commands(c.input));
    EXPECT_TRUE(text.ends_with("\n\n")) << c.name;
  }
}

TEST(GtpCompliance, Repro9ClockReserveScalesWithTheClock) {
  // 3 s sudden death on 9x9: the moves must use most of the clock (a fixed 100 ms reserve a
  // move used 12% of it: every share below the reserve fell to the floor).
  engine::GoEngine engine;
  engine::GoClock clock;
  clock.set = true;
  clock.main_ms = 3000;
  go::Position pos(go::Rules{.size = 9, .komi = 7.5});
  std::int64_t left = clock.main_ms;
  for (int move = 0; move < 40; ++move) {
    clock.left_known[go::kBlack] = true;
    clock.left_ms[go::kBlack] = left;
    engine.set_clock(clock);
    const std::int64_t budget = engine.clock_budget_ms(pos);
    ASSERT_GT(budget, 0);
    ASSERT_LT(budget, left);  // never the whole clock
    left -= budget;
  }
  EXPECT_GT(3000 - left, 3000 / 2) << "used " << 3000 - left << " ms of 3000";
  // A long clock keeps the full safety margin.
  clock.left_ms[go::kBlack] = 600000;
  engine.set_clock(clock);
  EXPECT_EQ(engine.clock_budget_ms(pos), 600000 / 27 - engine::GoEngine::kSafetyMs);
}

TEST(GtpCompliance, UnclearMovesMayTakeMoreWithinTheClock) {
  engine::GoEngine engine;
  go::Position pos(go::Rules{.size = 9, .komi = 7.5});
  engine::GoClock clock;
  clock.set = true;
  // Main time, 600 s on the empty board: a share of 600000 / 27, up to three times that.
  clock.main_ms = 600000;
  engine.set_clock(clock);
  auto l = engine.clock_limits_ms(pos);
  EXPECT_EQ(l.target_ms, 600000 / 27 - engine::GoEngine::kSafetyMs);
  EXPECT_EQ(l.most_ms, 3 * (600000 / 27) - engine::GoEngine::kSafetyMs);
  // Nearly out of main time: never more than a sixth of what is left.
  clock.left_known[go::kBlack] = true;
  clock.left_ms[go::kBlack] = 2000;
  engine.set_clock(clock);
  l = engine.clock_limits_ms(pos);
  EXPECT_LE(l.most_ms, 2000 / 6);
  EXPECT_GE(l.most_ms, l.target_ms);
  // Canadian byo-yomi, 10 stones in 60 s: up to twice the share while the 9 other stones
  // keep half of theirs.
  clock.left_ms[go::kBlack] = 60000;
  clock.left_stones[go::kBlack] = 10;
  engine.set_clock(clock);
  l = engine.clock_limits_ms(pos);
  EXPECT_EQ(l.target_ms, 6000 - engine::GoEngine::kSafetyMs);
  EXPECT_EQ(l.most_ms, 12000 - engine::GoEngine::kSafetyMs);
  // The last stone of a period (Japanese byo-yomi): the period, no more.
  clock.left_ms[go::kBlack] = 30000;
  clock.left_stones[go::kBlack] = 1;
  engine.set_clock(clock);
  l = engine.clock_limits_ms(pos);
  EXPECT_EQ(l.target_ms, l.most_ms);
  EXPECT_EQ(l.most_ms, 30000 - engine::GoEngine::kSafetyMs);
}

TEST(GtpCompliance, OwnershipEstimateSeesWhoseAreaIsWhose) {
  // Black walls off the left side of a 9x9 board: those points are black's, so negative
  // from white's side (white to move).
  go::Position pos(go::Rules{.size = 9, .komi = 7.5});
  for (int y = 0; y < 9; ++y) {
    ASSERT_TRUE(pos.place_stone(go::kBlack, go::point_of(2, y)));
    ASSERT_TRUE(pos.place_stone(go::kWhite, go::point_of(6, y)));
  }
  pos.set_to_move(go::kWhite);
  const auto own = engine::estimate_ownership(pos, 64, 7);
  ASSERT_EQ(own.owner.size(), 81u);
  EXPECT_EQ(own.playouts, 64);
  // Row-major from the top: index 4 * 9 + 0 is A5, black's; 4 * 9 + 8 is J5, white's.
  EXPECT_LT(own.owner[4 * 9 + 0], -0.5);
  EXPECT_GT(own.owner[4 * 9 + 8], 0.5);
  // Black's 27 points against white's 27: even on the board, komi for white.
  EXPECT_NEAR(own.score_lead, 7.5, 15.0);
}

}  // namespace
}  // namespace kibitz::gtp
