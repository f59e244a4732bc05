// Gomocup transcripts: commands in, the expected lines out; bad input answered with ERROR and
// the session goes on.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "protocol/gomocup/gomocup.hpp"

namespace kibitz::gomocup {
namespace {

// Feeds the lines one by one (waiting for each move, as a manager does); returns the output.
std::vector<std::string> transcript(const std::vector<std::string>& input, std::int64_t ms = 100) {
  std::istringstream in;
  std::ostringstream out;
  SessionOptions o;
  o.movetime_ms = ms;
  o.hash_mb = 4;
  o.messages = false;
  {
    Session session(in, out, o);
    for (const auto& line : input) {
      if (!session.handle(line)) break;
      session.wait();
    }
  }
  std::vector<std::string> lines;
  std::istringstream read(out.str());
  for (std::string line; std::getline(read, line);) lines.push_back(line);
  return lines;
}

bool is_point(const std::string& s, int size) {
  int x = -1, y = -1;
  char comma = 0;
  std::istringstream is(s);
  is >> x >> comma >> y;
  return comma == ',' && x >= 0 && y >= 0 && x < size && y < size && is.eof();
}

TEST(GomocupTranscript, StartBeginTurnAbout) {
  const auto out = transcript({"START 15", "BEGIN", "TURN 0,0", "ABOUT", "END", "TURN 1,1"});
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0], "OK");
  EXPECT_TRUE(is_point(out[1], 15)) << out[1];
  EXPECT_EQ(out[1], "7,7");  // the centre on an empty board
  EXPECT_TRUE(is_point(out[2], 15)) << out[2];
  EXPECT_NE(out[2], "0,0");
  EXPECT_NE(out[2], "7,7");
  EXPECT_EQ(out[3].rfind("name=\"kibitz\"", 0), 0u) << out[3];
}

TEST(GomocupTranscript, CompletesItsFiveAndBlocksAnOpenFour) {
  // BOARD: our four on row 5 (x 3..6) and the opponent's three elsewhere: we win at once.
  const auto win = transcript({"START 15", "BOARD", "3,5,1", "4,5,1", "5,5,1", "6,5,1", "3,9,2",
                               "4,9,2", "5,9,2", "10,10,2", "DONE"});
  ASSERT_EQ(win.size(), 2u);
  EXPECT_TRUE(win[1] == "2,5" || win[1] == "7,5") << win[1];
  // The opponent has a four (x 3..6 on row 9) and we have nothing: we must block at 2 or 7.
  const auto block = transcript({"START 15", "BOARD", "3,9,2", "4,9,2", "5,9,2", "6,9,2", "0,0,1",
                                 "14,14,1", "0,14,1", "DONE"});
  ASSERT_EQ(block.size(), 2u);
  EXPECT_TRUE(block[1] == "2,9" || block[1] == "7,9") << block[1];
}

TEST(GomocupTranscript, BadInputGetsErrorAndTheSessionGoesOn) {
  const auto out =
      transcript({"TURN 3,3", "START 9", "START 15", "TURN 15,2", "TURN x", "BOARD", "1,1,7",
                  "DONE", "INFO timeout_turn soon", "RECTSTART 15,20", "FROBNICATE", "TURN 7,7"});
  ASSERT_EQ(out.size(), 11u);
  EXPECT_EQ(out[0].rfind("ERROR", 0), 0u) << out[0];  // before START
  EXPECT_EQ(out[1].rfind("ERROR", 0), 0u) << out[1];  // size 9
  EXPECT_EQ(out[2], "OK");
  EXPECT_EQ(out[3].rfind("ERROR", 0), 0u) << out[3];  // off the board
  EXPECT_EQ(out[4].rfind("ERROR", 0), 0u) << out[4];  // not a point
  EXPECT_EQ(out[5].rfind("ERROR", 0), 0u) << out[5];  // field 7
  EXPECT_TRUE(is_point(out[6], 15)) << out[6];        // DONE on an empty board: we open
  EXPECT_EQ(out[7].rfind("ERROR", 0), 0u) << out[7];  // INFO value
  EXPECT_EQ(out[8].rfind("ERROR", 0), 0u) << out[8];  // rectangular
  EXPECT_EQ(out[9].rfind("UNKNOWN", 0), 0u) << out[9];
  // TURN 7,7: occupied if we opened there, else a move.
  EXPECT_TRUE(out[10].rfind("ERROR", 0) == 0 || is_point(out[10], 15)) << out[10];
}

TEST(GomocupTranscript, TakebackAndRestart) {
  const auto out = transcript(
      {"START 15", "TURN 7,7", "TAKEBACK 3,3", "RESTART", "BEGIN", "TAKEBACK 7,7", "BEGIN"});
  ASSERT_EQ(out.size(), 7u);
  EXPECT_TRUE(is_point(out[1], 15));
  EXPECT_EQ(out[2].rfind("ERROR", 0), 0u) << out[2];  // not the last move
  EXPECT_EQ(out[3], "OK");
  EXPECT_EQ(out[4], "7,7");
  EXPECT_EQ(out[5], "OK");
  EXPECT_EQ(out[6], "7,7");  // the board is empty again
}

TEST(GomocupTranscript, RenjuByInfoRejectsBlacksOverline) {
  // We are white (4 own stones, 5 opponent's). Black's row 7 reads XXX_XX: 3,7 would be an
  // overline, forbidden for black under renju (INFO rule 4), and a win under freestyle.
  const std::vector<std::string> board = {"START 15", "BOARD", "0,7,2", "1,7,2", "2,7,2", "4,7,2",
                                          "5,7,2",    "0,0,1", "0,2,1", "0,4,1", "0,6,1", "DONE"};
  auto renju = board;
  renju.insert(renju.begin(), "INFO rule 4");
  renju.push_back("TURN 3,7");
  const auto out = transcript(renju);
  ASSERT_EQ(out.size(), 3u);
  ASSERT_TRUE(is_point(out[1], 15)) << out[1];
  if (out[1] != "3,7") {
    EXPECT_EQ(out[2].rfind("ERROR", 0), 0u) << out[2];
  }
  // Freestyle: the same overline point is black's win, so white must take it.
  const auto free = transcript(board);
  ASSERT_EQ(free.size(), 2u);
  EXPECT_EQ(free[1], "3,7");
}

}  // namespace
}  // namespace kibitz::gomocup
