// Gomocup (piskvork) compliance: each case is a manager's script and the transcript the
// protocol asks for, with the time-limit values read as the protocol defines them
// (timeout_turn 0: as fast as possible; timeout_match 0: no limit; time_left: what is left)
// and the swap2 extension (SWAP2BOARD). The regressions of issue 22 are marked "repro".
#include <gtest/gtest.h>

#include <algorithm>

#include <sstream>
#include <string>

#include "engine/gomoku_engine.hpp"
#include "protocol/compliance.hpp"
#include "protocol/gomocup/gomocup.hpp"

namespace kibitz::gomocup {
namespace {

using compliance::Case;

// Line by line, waiting for each answer as a manager does.
std::vector<std::string> gomocup_output(const std::string& input) {
  std::istringstream in;
  std::ostringstream out;
  SessionOptions o;
  o.hash_mb = 4;
  o.messages = false;
  {
    Session session(in, out, o);
    for (const auto& line : compliance::lines_of(input)) {
      if (!session.handle(line)) break;
      session.wait();
    }
  }
  return compliance::lines_of(out.str());
}

constexpr const char* kPoint = "^\\d+,\\d+$";
const std::string kGomocupLongJunk(100000, 'Q');

const std::vector<Case>& gomocup_cases() {
  static const std::vector<Case> list = {
      {"start, begin, turn, about",
       "START 15\nINFO timeout_turn 200\nBEGIN\nTURN 0,0\nABOUT\n",
       {"^OK$", kPoint, kPoint, "^name=\"kibitz\", version=\""},
       {"^ERROR"}},
      {"board of a continued game",
       "START 15\nINFO timeout_turn 200\nBOARD\n7,7,2\n8,8,1\n7,8,2\nDONE\n",
       {"^OK$", kPoint},
       {"^ERROR"}},
      {"repro 8: a renju board in any order is a position",
       // Black's last stone (7,7) would be a double-three if played last: as a position it is
       // one black could have reached (7,7 played before the others).
       "INFO rule 4\nSTART 15\nINFO timeout_turn 200\nBOARD\n5,7,1\n0,0,2\n6,7,1\n2,0,2\n7,5,1\n"
       "4,0,2\n7,6,1\n0,14,2\n7,7,1\n14,14,2\nDONE\n",
       {"^OK$", kPoint},
       {"^ERROR"}},
      {"repro 8: takeback after a board rebuilds the position",
       "INFO rule 4\nSTART 15\nINFO timeout_turn 200\nBOARD\n5,7,1\n0,0,2\n6,7,1\n2,0,2\n7,5,1\n"
       "4,0,2\n7,6,1\n0,14,2\n7,7,1\n14,14,2\nDONE\nTAKEBACK 14,14\n",
       {"^OK$", kPoint, "^ERROR TAKEBACK"},  // our own move was the last, not 14,14
       {}},
      {"repro 8: swap2, the first three stones",
       "INFO rule 1\nSTART 15\nINFO timeout_turn 300\nSWAP2BOARD\nDONE\n",
       {"^OK$", "^\\d+,\\d+ \\d+,\\d+ \\d+,\\d+$"},
       {"^ERROR"}},
      {"repro 8: swap2 with three stones: swap or white's fourth",
       "INFO rule 1\nSTART 15\nINFO timeout_turn 300\nSWAP2BOARD\n7,7\n8,7\n9,9\nDONE\n",
       {"^OK$", "^(SWAP|\\d+,\\d+)$"},
       {"^ERROR"}},
      {"repro 8: swap2 with five stones: swap or white's sixth",
       "INFO rule 1\nSTART 15\nINFO timeout_turn 300\nSWAP2BOARD\n7,7\n8,7\n9,9\n8,8\n8,6\nDONE\n",
       {"^OK$", "^(SWAP|\\d+,\\d+)$"},
       {"^ERROR"}},
      {"repro 8: swap2 takes black when black stands far better",
       // Black's three in a row against a white stone in the corner.
       "START 15\nINFO timeout_turn 300\nSWAP2BOARD\n7,7\n0,0\n8,7\n1,14\n9,7\nDONE\n",
       {"^OK$", "^SWAP$"},
       {}},
      {"repro 8: swap2 refuses four stones",
       "START 15\nSWAP2BOARD\n7,7\n8,7\n9,9\n8,8\nDONE\nSWAP2BOARD\n7,7\nnonsense\nDONE\n",
       {"^OK$", "^ERROR SWAP2BOARD: 4 stones", "^ERROR bad SWAP2BOARD line 'nonsense'",
        "^ERROR SWAP2BOARD: not answered"},
       {"SWAP$"}},
      {"repro 11: an over-long unknown command is not echoed back whole",
       "START 15\n" + kGomocupLongJunk + "\n",
       {"^OK$", "^UNKNOWN command 'Q{80}\\.\\.\\. \\(100000 bytes\\)'$"},
       {}},
      {"negative times are refused",
       "START 15\nINFO timeout_turn -5\nINFO time_left -1\n",
       {"^OK$", "^ERROR INFO timeout_turn -5", "^ERROR INFO time_left -1"},
       {}},
      {"commands before START",
       "BEGIN\nTURN 1,1\n",
       {"^ERROR BEGIN before START", "^ERROR TURN"},
       {}},
  };
  return list;
}

TEST(GomocupCompliance, EveryCaseTranscript) {
  for (const Case& c : gomocup_cases()) {
    SCOPED_TRACE(c.name);
    EXPECT_TRUE(compliance::transcript_matches(c, gomocup_output(c.input)));
  }
}

TEST(GomocupCompliance, Repro8TimeLimitsAsTheProtocolDefinesThem) {
  std::istringstream in;
  std::ostringstream out;
  Session s(in, out, {});
  ASSERT_TRUE(s.handle("START 15"));
  EXPECT_EQ(s.move_budget_ms(), 450);  // nothing given: the seed's default
  s.handle("INFO timeout_turn 5000");
  EXPECT_EQ(s.move_budget_ms(), 4940);  // the turn less the safety margin
  s.handle("INFO time_left 0");         // no time left: answer at once
  EXPECT_EQ(s.move_budget_ms(), 1);
  s.handle("INFO time_left 50");  // a little: a share of it, never all
  EXPECT_GE(s.move_budget_ms(), 1);
  EXPECT_LE(s.move_budget_ms(), 5);
  s.handle("INFO time_left 600000");  // a long match clock: the turn limit binds
  EXPECT_EQ(s.move_budget_ms(), 4940);
  s.handle("INFO timeout_match 0");  // no match limit: time_left is not a limit
  s.handle("INFO time_left 0");
  EXPECT_EQ(s.move_budget_ms(), 4940);
  s.handle("INFO timeout_turn 0");  // as fast as possible
  EXPECT_EQ(s.move_budget_ms(), 1);
}

TEST(GomocupCompliance, TheEngineIsGivenTheBoardAsSetupAndThenTheMoves) {
  std::istringstream in;
  std::ostringstream out;
  SessionOptions o;
  o.movetime_ms = 5;
  o.messages = false;
  Session s(in, out, o);
  ASSERT_TRUE(s.handle("START 15"));
  for (const char* line : {"BOARD", "7,7,2", "8,8,1", "6,6,2", "DONE"}) s.handle(line);
  s.wait();
  // Two opponent stones and one own: we are white; the BOARD's stones carry no order.
  const std::string text = s.position_text();
  EXPECT_EQ(text.rfind("freestyle 15 b:h8 w:i9 b:g7 ", 0), 0u) << text;
  EXPECT_EQ(std::count(text.begin(), text.end(), ' '), 5) << text;  // and our move, as a move
  EXPECT_EQ(text.find(':', text.rfind(' ')), std::string::npos) << text;
}

TEST(GomocupCompliance, Swap2OpeningsAreTheClassical26) {
  const auto openings = engine::swap2_openings(15);
  ASSERT_EQ(openings.size(), 26u);
  for (const auto& o : openings) {
    // All distinct, inside the centre's 5x5, white touching black.
    EXPECT_NE(o[0], o[1]);
    EXPECT_NE(o[0], o[2]);
    EXPECT_NE(o[1], o[2]);
    for (const auto m : o) {
      EXPECT_LE(std::abs(gomoku::x_of(m.sq) - 7), 2);
      EXPECT_LE(std::abs(gomoku::y_of(m.sq) - 7), 2);
    }
    EXPECT_LE(std::abs(gomoku::x_of(o[1].sq) - 7), 1);
    EXPECT_LE(std::abs(gomoku::y_of(o[1].sq) - 7), 1);
  }
}

}  // namespace
}  // namespace kibitz::gomocup
