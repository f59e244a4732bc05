// Gomocup transcripts: commands in, the expected lines out; bad input answered with ERROR and
// the session goes on.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "protocol/gomocup/gomocup.hpp"

namespace kibitz::gomocup {
namespace {

// Feeds the lines one by one (waiting for each move, as a manager does); returns the output.
std::vector<std::string> transcript(const std::vector<std::string>& input, std::int64_t ms = 100,
                                    bool messages = false) {
  std::istringstream in;
  std::ostringstream out;
  SessionOptions o;
  o.movetime_ms = ms;
  o.hash_mb = 4;
  o.messages = messages;
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

// "MESSAGE <how> ...; stages a 1.0, b 2.0 ms; answered in 3.5 ms" -> how, the stages in order
// with their times, and the answer's time.
struct Message {
  std::string how;
  std::vector<std::pair<std::string, double>> stages;
  double answered = -1;
};
Message parse_message(const std::string& line) {
  Message m;
  std::istringstream is(line);
  std::string word;
  is >> word >> m.how;
  if (const auto at = line.find("; stages "); at != std::string::npos) {
    std::istringstream st(line.substr(at + 9, line.find(" ms;", at) - at - 9));
    std::string name;
    double ms = 0;
    while (st >> name >> ms) {
      m.stages.emplace_back(name, ms);
      st >> std::ws;
      if (st.peek() == ',') st.get();
    }
  }
  if (const auto at = line.find("answered in "); at != std::string::npos)
    m.answered = std::stod(line.substr(at + 12));
  return m;
}

TEST(GomocupTranscript, TheMessageSaysWhereTheTimeWent) {
  // A quiet opening: every stage runs, in order, and together they take no longer than the
  // answer (each rounded to the tenth).
  const auto quiet = transcript({"START 15", "BEGIN", "TURN 8,8"}, 150, true);
  ASSERT_EQ(quiet.size(), 5u);
  for (const std::size_t i : {1u, 3u}) {
    ASSERT_EQ(quiet[i].rfind("MESSAGE ", 0), 0u) << quiet[i];
    EXPECT_TRUE(is_point(quiet[i + 1], 15)) << quiet[i + 1];
  }
  const Message m = parse_message(quiet[3]);
  ASSERT_EQ(m.stages.size(), 4u) << quiet[3];
  const std::vector<std::string> order = {"vcf", "vct", "defence", "alphabeta"};
  double sum = 0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    EXPECT_EQ(m.stages[i].first, order[i]) << quiet[3];
    EXPECT_GE(m.stages[i].second, 0.0) << quiet[3];
    sum += m.stages[i].second;
  }
  EXPECT_GT(m.stages[3].second, 0.0) << quiet[3];  // the alpha-beta had the move's time
  EXPECT_LE(sum, m.answered + 0.5) << quiet[3];
  // Our four to complete: the win is played at once, before any stage.
  const auto win = transcript({"START 15", "BOARD", "3,5,1", "4,5,1", "5,5,1", "6,5,1", "3,9,2",
                               "4,9,2", "5,9,2", "10,10,2", "DONE"},
                              150, true);
  ASSERT_EQ(win.size(), 3u);
  const Message w = parse_message(win[1]);
  EXPECT_EQ(w.how, "win") << win[1];
  EXPECT_TRUE(w.stages.empty()) << win[1];
  EXPECT_GE(w.answered, 0.0) << win[1];
  EXPECT_TRUE(win[2] == "2,5" || win[2] == "7,5") << win[2];
}

}  // namespace
}  // namespace kibitz::gomocup
