// SGF FF[4]: the general parser (escapes, soft line breaks, variations, deep nesting), Go
// records (points, compressed lists, passes, handicap, setup inside the game), writing and
// reading back, replay with its errors, one-line errors with line:column for every kind of
// malformed input, and the shared SGF suites (skipped when absent).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "games/go/sgf.hpp"
#include "support/suites.hpp"
#include "unit/go/go_test_util.hpp"

namespace kibitz::go {
namespace {

using testing::mv;
using testing::pt;

GameRecord read_ok(std::string_view text) {
  auto r = read_sgf(text);
  EXPECT_TRUE(r) << r.error().message;
  return r ? *r : GameRecord{};
}

// The error of a parse or read that must fail; checks it is one line starting with "sgf:".
std::string read_error(std::string_view text) {
  const auto r = read_sgf(text);
  EXPECT_FALSE(r) << "accepted: " << text;
  if (r) return "";
  const std::string& m = r.error().message;
  EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  EXPECT_EQ(m.rfind("sgf:", 0), 0u) << m;
  return m;
}

std::string replay_error(const GameRecord& rec, Rules rules = {}) {
  const auto p = replay(rec, rules);
  EXPECT_FALSE(p);
  return p ? "" : p.error().message;
}

// --- the syntax ----------------------------------------------------------------------------

TEST(Sgf, ParsesTreesNodesAndProperties) {
  const auto trees = parse_sgf(" (;FF[4]C[root]\n;B[aa] ;W[bb] [cc])\n(;GM[1])\n");
  ASSERT_TRUE(trees) << trees.error().message;
  ASSERT_EQ(trees->size(), 2u);
  const SgfTree& t = (*trees)[0];
  ASSERT_EQ(t.nodes.size(), 3u);
  EXPECT_EQ(t.nodes[0].properties.size(), 2u);
  EXPECT_EQ(t.nodes[0].find("C")->values, std::vector<std::string>{"root"});
  EXPECT_EQ(t.nodes[2].find("W")->values, (std::vector<std::string>{"bb", "cc"}));
  EXPECT_EQ(t.nodes[2].find("B"), nullptr);
  EXPECT_EQ(t.nodes[1].parent, 0);
  EXPECT_EQ(t.nodes[1].line, 2);
  EXPECT_EQ(t.nodes[1].column, 1);
  EXPECT_EQ(t.nodes[2].find("W")->column, 9);
  EXPECT_EQ(t.main_line(), (std::vector<int>{0, 1, 2}));
}

TEST(Sgf, EscapesAndSoftLineBreaks) {
  const auto trees =
      parse_sgf("(;C[a \\] b \\\\ c \\: d]GC[soft\\\nbreak, soft\\\r\nbreak, hard\nbreak]N[\\x])");
  ASSERT_TRUE(trees) << trees.error().message;
  const SgfNode& n = (*trees)[0].nodes[0];
  EXPECT_EQ(n.find("C")->values[0], "a ] b \\ c : d");
  EXPECT_EQ(n.find("GC")->values[0], "softbreak, softbreak, hard\nbreak");
  EXPECT_EQ(n.find("N")->values[0], "x");  // any escaped character is itself
}

TEST(Sgf, OldStyleIdentifiersKeepTheirCapitals) {
  const auto rec = read_ok("(;GaMe[1]SiZe[9]PlayerBlack[Old];Black[ee])");
  EXPECT_EQ(rec.size, 9);
  EXPECT_EQ(rec.black, "Old");
  ASSERT_EQ(rec.moves.size(), 1u);
  EXPECT_EQ(rec.moves[0].second, mv("E5"));
}

TEST(Sgf, VariationsFollowTheFirstBranch) {
  const auto text = "(;SZ[9];B[ee](;W[cc];B[gg](;W[gc])(;W[cg]))(;W[gg];B[cc]))";
  const auto trees = parse_sgf(text);
  ASSERT_TRUE(trees) << trees.error().message;
  const SgfTree& t = (*trees)[0];
  EXPECT_EQ(t.nodes.size(), 8u);
  EXPECT_EQ(t.nodes[1].children.size(), 2u);
  const auto rec = read_ok(text);
  ASSERT_EQ(rec.moves.size(), 4u);
  EXPECT_EQ(rec.moves[0], std::pair(kBlack, mv("E5")));
  EXPECT_EQ(rec.moves[1], std::pair(kWhite, mv("C7")));
  EXPECT_EQ(rec.moves[2], std::pair(kBlack, mv("G3")));
  EXPECT_EQ(rec.moves[3], std::pair(kWhite, mv("G7")));
}

TEST(Sgf, DeepNestingNeedsNoRecursion) {
  // 200000 nested variations: parsing and destroying the tree must not use the stack.
  const int depth = 200000;
  std::string text = "(;SZ[9]";
  for (int i = 0; i < depth; ++i) text += i % 2 ? "(;B[aa]" : "(;W[aa]";
  text += std::string(depth + 1, ')');
  const auto trees = parse_sgf(text);
  ASSERT_TRUE(trees) << trees.error().message;
  EXPECT_EQ((*trees)[0].nodes.size(), static_cast<std::size_t>(depth + 1));
  EXPECT_EQ((*trees)[0].main_line().size(), static_cast<std::size_t>(depth + 1));
  // One ')' short: the outermost '(' is the one left open.
  text.resize(text.size() - 1);
  EXPECT_EQ(parse_sgf(text).error().message, "sgf:1:1: unterminated game tree (missing ')')");
}

// --- records -------------------------------------------------------------------------------

TEST(Sgf, ReadsGameInformation) {
  const auto rec = read_ok(
      "(;GM[1]FF[4]SZ[13]KM[6.5]RE[W+R]PB[Black\nPlayer]PW[Wh\\]te]DT[2024-01-02]"
      "RU[Japanese]EV[Cup]C[ignored];B[dd])");
  EXPECT_EQ(rec.size, 13);
  EXPECT_DOUBLE_EQ(rec.komi, 6.5);
  EXPECT_EQ(rec.result, "W+R");
  EXPECT_EQ(rec.black, "Black Player");  // SimpleText: a line break reads as a space
  EXPECT_EQ(rec.white, "Wh]te");
  EXPECT_EQ(rec.date, "2024-01-02");
  EXPECT_EQ(rec.rules, "Japanese");
  EXPECT_EQ(rec.event, "Cup");
  EXPECT_EQ(rec.first_player, kBlack);
  ASSERT_EQ(rec.moves.size(), 1u);
  EXPECT_EQ(rec.moves[0].second, mv("D10", 13));
}

TEST(Sgf, DefaultsWithoutGameInformation) {
  const auto rec = read_ok("(;)");
  EXPECT_EQ(rec, GameRecord{});
  EXPECT_EQ(read_ok("(;FF[4]SZ[19:19]KM[-3])").komi, -3.0);
}

TEST(Sgf, CompressedPointLists) {
  const auto rec = read_ok("(;SZ[9]AB[aa:bb][ee]AW[ca:cc][ii:hh])");
  EXPECT_EQ(rec.black_setup, (std::vector<Move>{mv("A9"), mv("B9"), mv("A8"), mv("B8"), mv("E5")}));
  EXPECT_EQ(rec.white_setup, (std::vector<Move>{mv("C9"), mv("C8"), mv("C7"), mv("H2"), mv("J2"),
                                                mv("H1"), mv("J1")}));
}

TEST(Sgf, PassEncodings) {
  for (const int size : {9, 19}) {
    const auto rec = read_ok(fmt::format("(;SZ[{}];B[];W[tt];B[ab];W[aa])", size));
    ASSERT_EQ(rec.moves.size(), 4u);
    EXPECT_TRUE(rec.moves[0].second.is_pass());
    EXPECT_TRUE(rec.moves[1].second.is_pass());
    EXPECT_FALSE(rec.moves[3].second.is_pass());
  }
  // A padded point is not a point; "tt" as a setup stone is not a pass.
  EXPECT_NE(read_error("(;SZ[19]AB[tt])").find("point off the 19x19 board"), std::string::npos);
  const std::string written = write_sgf(read_ok("(;SZ[9];B[tt];W[])"));
  EXPECT_NE(written.find(";B[];W[]"), std::string::npos) << written;
}

TEST(Sgf, HandicapGame) {
  const auto rec = read_ok("(;GM[1]SZ[19]HA[4]KM[0.5]AB[dd][pd][dp][pp];W[qf];B[nc])");
  EXPECT_EQ(rec.handicap, 4);
  EXPECT_EQ(rec.black_setup.size(), 4u);
  EXPECT_EQ(rec.first_player, kWhite);
  // No moves: white still plays first after handicap stones.
  EXPECT_EQ(read_ok("(;SZ[9]HA[2]AB[cc][gg])").first_player, kWhite);
  const auto p = replay(rec);
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->at(pt("D4", 19)), kBlack);
  EXPECT_EQ(p->at(pt("Q16", 19)), kBlack);
  EXPECT_EQ(p->at(pt("R14", 19)), kWhite);
  EXPECT_EQ(p->at(pt("O17", 19)), kBlack);
  EXPECT_EQ(p->to_move(), kWhite);
  EXPECT_DOUBLE_EQ(p->komi(), 0.5);
  EXPECT_EQ(p->moves_played(), 2);
  // HA alone places nothing (KGS puts the stones down as black moves).
  const auto kgs = replay(read_ok("(;SZ[9]HA[2];B[cc];B[gg];W[ee])"));
  ASSERT_TRUE(kgs) << kgs.error().message;
  EXPECT_EQ(kgs->stones_on_board(), 3);
  EXPECT_EQ(kgs->to_move(), kBlack);
}

TEST(Sgf, PlayerToMoveAndSetupLaterInTheGame) {
  auto rec = read_ok("(;SZ[9]PL[W]AB[ee];AW[cc];W[gg];B[cg];AB[aa]AE[ee]AW[bb];W[ga])");
  EXPECT_EQ(rec.first_player, kWhite);
  EXPECT_EQ(rec.white_setup, std::vector<Move>{mv("C7")});  // before the first move: setup
  ASSERT_EQ(rec.later_setup.size(), 2u);
  EXPECT_EQ(rec.later_setup[0], (SetupStone{2, kBlack, mv("A9")}));
  EXPECT_EQ(rec.later_setup[1], (SetupStone{2, kWhite, mv("B8")}));
  const auto p = replay(rec);
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->at(pt("A9")), kBlack);
  EXPECT_EQ(p->at(pt("E5")), kBlack);  // AE is not applied (documented)
  EXPECT_EQ(p->at(pt("G9")), kWhite);
  EXPECT_EQ(p->to_move(), kBlack);
  // Two black moves in a row: the second is still black's.
  const auto twice = replay(read_ok("(;SZ[9];B[aa];B[bb])"));
  ASSERT_TRUE(twice) << twice.error().message;
  EXPECT_EQ(twice->at(pt("B8")), kBlack);
  EXPECT_EQ(twice->to_move(), kWhite);
}

TEST(Sgf, ReplayUpToAMove) {
  const auto rec = read_ok("(;SZ[9];B[ee];W[cc];B[gg];W[];B[])");
  const auto p = replay(rec, {}, 2);
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->moves_played(), 2);
  EXPECT_EQ(p->to_move(), kBlack);
  EXPECT_EQ(p->at(pt("G3")), kEmpty);
  const auto all = replay(rec);
  ASSERT_TRUE(all) << all.error().message;
  EXPECT_TRUE(all->is_terminal());
  EXPECT_EQ(replay(rec, {}, 99)->moves_played(), 5);
  // GNU Go's third pass after the game ended is skipped; a stone is not.
  EXPECT_TRUE(replay(read_ok("(;SZ[9];B[];W[];B[])")));
  EXPECT_EQ(replay_error(read_ok("(;SZ[9];B[];W[];B[aa])")),
            "move 3 (B A9): illegal: the game is over");
}

TEST(Sgf, ReplayErrorsNameTheMove) {
  EXPECT_EQ(replay_error(read_ok("(;SZ[9];B[ee];W[ee])")), "move 2 (W E5): illegal: occupied");
  // A ko: black D3 takes C3, white may not retake at once.
  const auto ko = read_ok("(;SZ[5]AB[bc][cb][cd]AW[cc][db][dd][ec];B[dc];W[cc])");
  EXPECT_EQ(replay_error(ko), "move 2 (W C3): illegal: ko");
  EXPECT_EQ(replay_error(read_ok("(;SZ[5]AB[ab][ba];W[aa])")), "move 1 (W A5): illegal: suicide");
  // Allowed by the rules given (a one-stone suicide repeats the position: no superko).
  EXPECT_TRUE(
      replay(read_ok("(;SZ[5]AB[ab][ba];W[aa])"), Rules{.allow_suicide = true, .superko = false}));
  const std::string setup = replay_error(read_ok("(;SZ[9]AB[ee]AW[ee])"));
  EXPECT_EQ(setup.rfind("setup: ", 0), 0u) << setup;
  EXPECT_NE(setup.find("occupied"), std::string::npos) << setup;
  const std::string later = replay_error(read_ok("(;SZ[9];B[ee];AW[ee];W[aa])"));
  EXPECT_EQ(later.rfind("setup before move 2: ", 0), 0u) << later;
}

TEST(Sgf, ReplayTakesSizeAndKomiFromTheRecordAndTheRestFromTheRules) {
  const auto p = replay(read_ok("(;SZ[7]KM[2.5];B[dd])"),
                        Rules{.size = 19, .komi = 7.5, .superko = false, .max_moves = 5});
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->size(), 7);
  EXPECT_DOUBLE_EQ(p->komi(), 2.5);
  EXPECT_FALSE(p->rules().superko);
  // A record longer than the rules' move limit still replays to its end.
  std::string text = "(;SZ[5]";
  for (int i = 0; i < 8; ++i)
    text += fmt::format(";B[];W[{}{}]", char('a' + i % 5), char('a' + i / 5));
  EXPECT_TRUE(replay(read_ok(text + ")"), Rules{.max_moves = 5}));
}

// --- writing -------------------------------------------------------------------------------

GameRecord sample_record() {
  GameRecord r;
  r.size = 9;
  r.komi = 5.5;
  r.handicap = 2;
  r.black_setup = {mv("C3"), mv("G7")};
  r.white_setup = {mv("E5")};
  r.first_player = kWhite;
  r.moves = {{kWhite, mv("C7")}, {kBlack, mv("G3")}, {kWhite, Move::pass()}, {kBlack, mv("A1")}};
  r.later_setup = {{1, kBlack, mv("J9")}, {1, kWhite, mv("J8")}, {4, kWhite, mv("A9")}};
  r.result = "B+3.5";
  r.black = "Back\\slash";
  r.white = "Bra]cket [x]";
  r.date = "2024-05-01";
  r.rules = "Chinese";
  r.event = "Test";
  return r;
}

TEST(Sgf, WritesFF4) {
  const std::string s = write_sgf(sample_record());
  EXPECT_EQ(s.rfind("(;FF[4]GM[1]CA[UTF-8]AP[kibitz]SZ[9]KM[5.5]HA[2]RE[B+3.5]PB[Back\\\\slash]"
                    "PW[Bra\\]cket [x\\]]DT[2024-05-01]RU[Chinese]EV[Test]AB[cg][gc]AW[ee]\n",
                    0),
            0u)
      << s;
  EXPECT_NE(s.find(";W[cc];AB[ia]AW[ib]\n;B[gg];W[];B[ai];AW[aa]\n)"), std::string::npos) << s;
}

TEST(Sgf, WriteThenReadGivesTheSameRecord) {
  const GameRecord r = sample_record();
  EXPECT_EQ(read_ok(write_sgf(r)), r);
  GameRecord plain;
  EXPECT_EQ(read_ok(write_sgf(plain)), plain);
  GameRecord black_first;
  black_first.size = 5;
  black_first.first_player = kBlack;
  black_first.handicap = 3;
  black_first.black_setup = {mv("B2", 5)};
  EXPECT_EQ(read_ok(write_sgf(black_first)), black_first);  // PL[B] written: not inferred
  EXPECT_NE(write_sgf(black_first).find("PL[B]"), std::string::npos);
}

TEST(Sgf, ReadWriteReadIsStable) {
  for (const char* text :
       {"(;FF[3]GM[1]SZ[19]HA[2]KM[0.5]PB[a\\\\b]AW[pp]AB[dd][pd];W[qq];B[]AB[aa];W[tt])",
        "(;SZ[9]C[x];AW[ee]AB[cc];B[dd](;W[ff])(;W[gg]))", "(;SZ[7]PL[W]AB[aa:cc];B[dd];B[ee])",
        "(;SZ[13]KM[7.00]RE[W+Resign]DT[2001-02-03,04];B[aa];W[ab];AE[aa];B[ac])"}) {
    const auto first = read_ok(text);
    const std::string written = write_sgf(first);
    const auto second = read_ok(written);
    EXPECT_EQ(second, first) << text << "\n" << written;
    EXPECT_EQ(write_sgf(second), written);
  }
}

// --- malformed input -----------------------------------------------------------------------

TEST(Sgf, MalformedInputGivesOneLineErrors) {
  const std::pair<const char*, const char*> cases[] = {
      {"", "sgf:1:1: no game tree (expected '(')"},
      {" \n ", "sgf:2:2: no game tree (expected '(')"},
      {"x", "sgf:1:1: expected '(' to start a game tree, found 'x'"},
      {"(;B[aa])junk", "sgf:1:9: expected '(' to start a game tree, found 'j'"},
      {"(;B[aa]))", "sgf:1:9: expected '(' to start a game tree, found ')'"},
      {"(;B[aa]", "sgf:1:1: unterminated game tree (missing ')')"},
      {"(;FF[4]\nSZ[9]\n;B[aa]C[unterminated", "sgf:3:8: unterminated property value"},
      {"(;C[ends in escape\\", "sgf:1:4: unterminated property value"},
      {"(B[aa])", "sgf:1:2: unexpected 'B' (expected ';', '(' or ')')"},
      {"()", "sgf:1:1: empty game tree (expected ';' after '(')"},
      {"((;B[aa]))", "sgf:1:2: variation before any node (expected ';' after '(')"},
      {"(;B[aa](;W[bb]);B[cc])", "sgf:1:16: node after a variation (nodes must come before '(')"},
      {"(;B)", "sgf:1:3: property B has no value"},
      {"(;B [aa] C)", "sgf:1:10: property C has no value"},
      {"(;b[aa])", "sgf:1:3: property identifier 'b' has no upper-case letter"},
      {"(;B[aa]#)", "sgf:1:8: unexpected '#' (expected ';', '(' or ')')"},
      {"(;B[aa]\x01)", "sgf:1:8: unexpected byte 0x01 (expected ';', '(' or ')')"},
      {"(;GM[2])", "sgf:1:3: GM[2]: not a Go record (GM[1] expected)"},
      {"(;GM[go])", "sgf:1:3: GM[go]: bad game number"},
      {"(;SZ[25])", "sgf:1:3: SZ[25]: board size must be 5..19"},
      {"(;SZ[4])", "sgf:1:3: SZ[4]: board size must be 5..19"},
      {"(;SZ[nine])", "sgf:1:3: SZ[nine]: bad board size"},
      {"(;SZ[9:13])", "sgf:1:3: SZ[9:13]: rectangular boards are not supported"},
      {"(;SZ[9];B[jj])", "sgf:1:9: B[jj]: point off the 9x9 board"},
      {"(;SZ[9];W[a])", "sgf:1:9: W[a]: bad point (two letters a..s expected)"},
      {"(;B[AA])", "sgf:1:3: B[AA]: bad point (two letters a..s expected)"},
      {"(;B[aa]W[bb])", "sgf:1:8: W[bb]: a second move in the same node"},
      {"(;B[aa][bb])", "sgf:1:3: B[bb]: one value only"},
      {"(;AB[])", "sgf:1:3: AB[]: empty point"},
      {"(;SZ[9]AB[aa:zz])", "sgf:1:8: AB[zz]: point off the 9x9 board"},
      {"(;PL[X])", "sgf:1:3: PL[X]: colour must be B or W"},
      {"(;KM[six])", "sgf:1:3: KM[six]: bad komi"},
      {"(;KM[nan])", "sgf:1:3: KM[nan]: bad komi"},
      {"(;KM[inf])", "sgf:1:3: KM[inf]: bad komi"},
      {"(;HA[-1])", "sgf:1:3: HA[-1]: bad handicap"},
      {"(;SZ[5]HA[25])", "sgf:1:8: HA[25]: bad handicap"},
  };
  for (const auto& [text, expected] : cases) EXPECT_EQ(read_error(text), expected) << text;
  // The parser alone reports the same syntax errors.
  EXPECT_EQ(parse_sgf("(;C[x").error().message, "sgf:1:4: unterminated property value");
}

TEST(Sgf, SizeLimits) {
  const std::string huge(kMaxSgfBytes + 1, ' ');
  EXPECT_EQ(
      parse_sgf(huge).error().message,
      fmt::format("sgf: input of {} bytes is over the limit of {}", huge.size(), kMaxSgfBytes));
  const std::string many = "(" + std::string(kMaxSgfItems + 1, ';') + ")";
  const auto r = parse_sgf(many);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message,
            fmt::format("sgf:1:{}: over {} nodes and values", kMaxSgfItems + 2, kMaxSgfItems));
}

TEST(Sgf, FileErrorsNameTheFile) {
  const auto missing = read_sgf_file("/nonexistent/x.sgf");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message, "/nonexistent/x.sgf: cannot open");
}

// --- the shared suites ---------------------------------------------------------------------

// Every .sgf under the shared Go data must read, and its main line replay (simple ko: the
// GNU Go records were played under it). Boards under 5x5 are out of the rules' range.
TEST(SgfSuite, ReadsAndReplaysTheSharedRecords) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(kibitz::testing::suites_dir()) / "go";
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    GTEST_SKIP() << "no Go suites at " << dir.string() << " (set KIBITZ_SUITES to the shared data)";
  int files = 0, read = 0, too_small = 0, replayed = 0;
  std::vector<std::string> failures;
  for (const auto& e : fs::recursive_directory_iterator(dir, ec)) {
    if (!e.is_regular_file() || e.path().extension() != ".sgf") continue;
    ++files;
    const auto rec = read_sgf_file(e.path().string());
    if (!rec) {
      if (rec.error().message.find("board size must be") != std::string::npos)
        ++too_small;
      else
        failures.push_back(rec.error().message);
      continue;
    }
    ++read;
    const auto p = replay(*rec, Rules{.superko = false});
    if (p)
      ++replayed;
    else
      failures.push_back(e.path().string() + ": " + p.error().message);
  }
  std::string report;
  for (const auto& f : failures) report += f + "\n";
  RecordProperty("files", files);
  RecordProperty("replayed", replayed);
  EXPECT_GT(files, 0) << "no .sgf files under " << dir.string();
  EXPECT_LE(too_small, 8);
  EXPECT_EQ(read + too_small, files) << report;
  EXPECT_GE(replayed, read - read / 100) << report;  // at most 1% may fail to replay
  // The summary and any failures go to the log (stderr: stdout is gtest's).
  std::fprintf(stderr, "SGF suite: %d files, %d read, %d boards under 5x5, %d replayed\n%s", files,
               read, too_small, replayed, report.c_str());
}

}  // namespace
}  // namespace kibitz::go
