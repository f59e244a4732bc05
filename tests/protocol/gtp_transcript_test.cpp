// GTP transcripts: commands in, responses out; bad input answered with "?" and the session
// goes on; lz-analyze streams Leela Zero info lines until the next command.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "games/go/board.hpp"
#include "protocol/gtp/gtp.hpp"

namespace kibitz::gtp {
namespace {

// Feeds the lines one by one; returns the responses (each without its final blank line).
std::vector<std::string> transcript(const std::vector<std::string>& input, bool ponder = false,
                                    std::string* raw = nullptr) {
  std::istringstream in;
  std::ostringstream out;
  SessionOptions o;
  o.visits = 64;
  o.engine.max_nodes = 1 << 16;
  o.ponder = ponder;
  {
    Session session(in, out, o);
    for (const auto& line : input)
      if (!session.handle(line)) break;
  }
  if (raw) *raw = out.str();
  std::vector<std::string> responses;
  const std::string text = out.str();
  for (std::size_t at = 0; at < text.size();) {
    const auto end = text.find("\n\n", at);
    if (end == std::string::npos) {
      responses.push_back(text.substr(at));
      break;
    }
    responses.push_back(text.substr(at, end - at));
    at = end + 2;
  }
  return responses;
}

TEST(GtpTranscript, AdministrativeCommands) {
  const auto r = transcript({"protocol_version", "7 name", "known_command play",
                             "known_command frobnicate", "list_commands", "quit", "name"});
  ASSERT_EQ(r.size(), 6u);
  EXPECT_EQ(r[0], "= 2");
  EXPECT_EQ(r[1], "=7 Kibitz");
  EXPECT_EQ(r[2], "= true");
  EXPECT_EQ(r[3], "= false");
  for (const auto c : Session::commands())
    EXPECT_NE(r[4].find(std::string(c)), std::string::npos) << c;
  EXPECT_EQ(r[5], "= ");
}

TEST(GtpTranscript, PlayShowboardIllegalUndo) {
  const auto r = transcript({"boardsize 9", "play b E5", "play w E5", "showboard", "undo", "undo",
                             "boardsize 4", "boardsize 20", "play b J10"});
  ASSERT_EQ(r.size(), 9u);
  EXPECT_EQ(r[0], "= ");
  EXPECT_EQ(r[1], "= ");
  EXPECT_EQ(r[2], "? illegal move");
  EXPECT_EQ(r[3].rfind("= \n", 0), 0u);
  EXPECT_NE(r[3].find(" 5 . . . . X . . . . 5"), std::string::npos) << r[3];
  EXPECT_EQ(r[4], "= ");
  EXPECT_EQ(r[5], "? cannot undo");
  EXPECT_EQ(r[6], "? unacceptable size");
  EXPECT_EQ(r[7], "? unacceptable size");
  EXPECT_EQ(r[8].rfind("? ", 0), 0u);  // off the 9x9 board
}

TEST(GtpTranscript, GenmoveReturnsALegalVertex) {
  const auto r = transcript({"boardsize 9", "play b E5", "genmove w", "showboard"});
  ASSERT_EQ(r.size(), 4u);
  ASSERT_EQ(r[2].rfind("= ", 0), 0u) << r[2];
  const std::string v = r[2].substr(2);
  auto m = go::parse_vertex(v, 9);
  ASSERT_TRUE(m) << v;
  EXPECT_TRUE(m->is_point()) << v;
  EXPECT_NE(v, "E5");
  // The move is on the board: the diagram has a white stone.
  EXPECT_NE(r[3].find('O'), std::string::npos) << r[3];
}

TEST(GtpTranscript, PonderingAddsNothingToTheResponses) {
  // The ponder search runs between the commands and is ended by the next one: every command
  // still gets exactly one response, with no stray empty line, and the game goes on.
  std::string raw;
  const auto r = transcript({"boardsize 9", "genmove b", "play w E5", "genmove b", "genmove w",
                             "undo", "clear_board", "genmove b", "quit"},
                            true, &raw);
  ASSERT_EQ(r.size(), 9u);
  for (std::size_t i = 0; i < 9; ++i) EXPECT_EQ(r[i].substr(0, 1), "=") << i << ": " << r[i];
  EXPECT_EQ(raw.find("\n\n\n"), std::string::npos);
  EXPECT_TRUE(raw.ends_with("\n\n"));
}

TEST(GtpTranscript, FinalScoreByArea) {
  // Black owns columns A-C (15 points), white D-E (10): B+4.5 with komi 0.5, 0 with komi 5.
  std::vector<std::string> in = {"boardsize 5", "komi 0.5"};
  for (int row = 1; row <= 5; ++row) {
    in.push_back("play b C" + std::to_string(row));
    in.push_back("play w D" + std::to_string(row));
  }
  in.insert(in.end(), {"final_score", "komi 5", "final_score", "komi 7.5", "final_score",
                       "final_status_list dead", "final_status_list alive"});
  const auto r = transcript(in);
  ASSERT_EQ(r.size(), in.size());
  EXPECT_EQ(r[12], "= B+4.5");
  EXPECT_EQ(r[14], "= 0");
  EXPECT_EQ(r[16], "= W+2.5");
  EXPECT_EQ(r[17], "= ");
  EXPECT_EQ(r[18], "= C5 C4 C3 C2 C1\nD5 D4 D3 D2 D1") << r[18];
}

TEST(GtpTranscript, Handicap) {
  const auto r = transcript({"boardsize 9", "fixed_handicap 4", "fixed_handicap 2", "clear_board",
                             "fixed_handicap 10", "place_free_handicap 12", "clear_board",
                             "set_free_handicap A1 A1", "set_free_handicap A1 B2", "genmove w"});
  ASSERT_EQ(r.size(), 10u);
  ASSERT_EQ(r[1].rfind("= ", 0), 0u) << r[1];
  std::vector<std::string> pts;
  std::istringstream is(r[1].substr(2));
  for (std::string p; is >> p;) pts.push_back(p);
  std::sort(pts.begin(), pts.end());
  EXPECT_EQ(pts, (std::vector<std::string>{"C3", "C7", "G3", "G7"}));
  EXPECT_EQ(r[2], "? board not empty");
  EXPECT_EQ(r[4], "? invalid number of stones");
  EXPECT_EQ(r[5].rfind("= ", 0), 0u);  // the 9 fixed points
  EXPECT_EQ(r[7], "? bad vertex list");
  EXPECT_EQ(r[8], "= ");
  EXPECT_EQ(r[9].rfind("= ", 0), 0u) << r[9];  // white moves after a handicap
}

TEST(GtpTranscript, BadInputIsAnsweredAndTheSessionGoesOn) {
  const auto r =
      transcript({"frobnicate", "", "   # only a comment", "play", "play b", "play purple D4",
                  "komi seven", "boardsize nine", "genmove", "time_settings 1 2",
                  "time_left b -1 0", "loadsgf /nonexistent/file.sgf", "final_status_list lost",
                  "\x01protocol_version\x7f # trailing comment", "12"});
  ASSERT_EQ(r.size(), 13u);
  EXPECT_EQ(r[0], "? unknown command");
  for (std::size_t i = 1; i < 11; ++i) EXPECT_EQ(r[i].rfind("?", 0), 0u) << i << ": " << r[i];
  EXPECT_EQ(r[11], "= 2");
  EXPECT_EQ(r[12].rfind("?12 ", 0), 0u) << r[12];
}

TEST(GtpTranscript, CleanLine) {
  EXPECT_EQ(clean_line("\tplay\tb D4 # a comment\r"), "play b D4");
  EXPECT_EQ(clean_line("# all comment"), "");
  EXPECT_EQ(clean_line("na\x01me"), "name");
}

TEST(GtpTranscript, AnalyzeStreamsInfoLinesUntilTheNextCommand) {
  const auto r = transcript({"boardsize 9", "play b E5", "5 lz-analyze w 1", "name"});
  ASSERT_EQ(r.size(), 4u);
  // "=5", info lines, then the empty line that ends it; "name" is answered after it.
  ASSERT_EQ(r[2].rfind("=5\ninfo move ", 0), 0u) << r[2];
  EXPECT_NE(r[2].find(" visits "), std::string::npos);
  EXPECT_NE(r[2].find(" winrate "), std::string::npos);
  EXPECT_NE(r[2].find(" prior "), std::string::npos);
  EXPECT_NE(r[2].find(" order 0 pv "), std::string::npos);
  EXPECT_EQ(r[2].find("move E5 "), std::string::npos);  // occupied
  EXPECT_EQ(r[3], "= Kibitz");
}

}  // namespace
}  // namespace kibitz::gtp
