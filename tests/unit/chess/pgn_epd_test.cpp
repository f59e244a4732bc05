// PGN export and EPD parsing.
#include <gtest/gtest.h>

#include "games/chess/epd.hpp"
#include "games/chess/notation.hpp"
#include "games/chess/pgn.hpp"

namespace kibitz::chess {
namespace {

PgnGame game_from(const char* fen, std::initializer_list<const char*> sans) {
  PgnGame g;
  if (fen) g.start = *Position::from_fen(fen);
  Position p = g.start;
  for (const char* s : sans) {
    const Move m = *parse_san(p, s);
    g.moves.push_back(m);
    p.apply(m);
  }
  return g;
}

TEST(Pgn, FoolsMate) {
  PgnGame g = game_from(nullptr, {"f3", "e5", "g4", "Qh4#"});
  g.tags = {{"White", "A"}, {"Black", "B"}};
  EXPECT_EQ(to_pgn(g),
            "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
            "[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n[Termination \"checkmate\"]\n\n"
            "1. f3 e5 2. g4 Qh4# 0-1\n");
}

TEST(Pgn, CustomStartWithBlackToMove) {
  const PgnGame g = game_from("4k3/8/8/8/8/8/4p3/4K3 b - - 0 40", {"Kd7", "Kxe2"});
  const std::string pgn = to_pgn(g);
  EXPECT_NE(pgn.find("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4p3/4K3 b - - 0 40\"]"),
            std::string::npos);
  EXPECT_NE(pgn.find("\n40... Kd7 41. Kxe2 1/2-1/2\n"), std::string::npos) << pgn;
  EXPECT_NE(pgn.find("[Termination \"insufficient material\"]"), std::string::npos);
}

TEST(Pgn, WrapsAt80ColumnsAndEscapesTags) {
  PgnGame g = game_from(nullptr, {"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8", "Nc3",
                                  "Nc6", "Nb1", "Nb8", "Nc3", "Nc6", "Nb1", "Nb8", "e4"});
  g.tags = {{"Event", "say \"hi\""}};
  const std::string pgn = to_pgn(g);
  EXPECT_NE(pgn.find("[Event \"say \\\"hi\\\"\"]"), std::string::npos);
  std::size_t start = pgn.find("\n\n") + 2, lines = 0;
  while (start < pgn.size()) {
    const std::size_t end = pgn.find('\n', start);
    EXPECT_LE(end - start, 80u);
    start = end + 1;
    ++lines;
  }
  EXPECT_GE(lines, 2u);
  EXPECT_NE(pgn.find(" *\n"), std::string::npos);  // unfinished game
}

TEST(Epd, WacLine) {
  auto r =
      parse_epd("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->position.fen(), "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1");
  EXPECT_EQ(r->op("bm"), "Qg6");
  EXPECT_EQ(r->op("id"), "WAC.001");
  EXPECT_FALSE(r->op("am"));
}

TEST(Epd, PerftSuiteLineWithCounters) {
  auto r = parse_epd("4k3/8/8/8/8/8/8/4K2R w K - 3 9 ;D1 15 ;D2 66 ;D3 1197");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->position.halfmove_clock(), 3);
  EXPECT_EQ(r->position.fullmove_number(), 9);
  ASSERT_EQ(r->ops.size(), 3u);
  EXPECT_EQ(r->op("D3"), "1197");
}

TEST(Epd, SemicolonsInsideQuotesAndErrors) {
  auto r = parse_epd("4k3/8/8/8/8/8/8/4K2R w K - c0 \"a;b\"; bm Rh8+;");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->op("c0"), "a;b");
  EXPECT_EQ(r->op("bm"), "Rh8+");
  EXPECT_FALSE(parse_epd("4k3/8/8/8/8/8/8/4K2R w K"));
  EXPECT_FALSE(parse_epd("4k3/8/8/8/8/8/8/4K2R w K - bm \"open;"));
  EXPECT_FALSE(parse_epd("4k3/8/8/8/8/8/8/4K2R w K - b$m x;"));
  EXPECT_FALSE(load_epd_file("/nonexistent/file.epd"));
}

TEST(PgnRead, MainLineWithCommentsVariationsAndNags) {
  const char* text = R"([Event "book"]
[White "a \"quoted\" name"]
[Result "*"]

1. e4 e5 2. Nf3 {a comment
over two lines} (2. f4 exf4 (2... d5) 3. Nf3) Nc6 3. Bb5 a6 $1 4. Ba4!? *

[Event "from a position"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]

1. e4 Kd7 2.Ke2 ; rest-of-line comment
Kc6 1/2-1/2
)";
  auto games = parse_pgn(text);
  ASSERT_TRUE(games) << games.error().message;
  ASSERT_EQ(games->size(), 2u);
  const auto& a = (*games)[0];
  ASSERT_EQ(a.moves.size(), 7u);
  EXPECT_EQ(to_uci(a.moves[6]), "b5a4");
  EXPECT_EQ(a.result, "*");
  EXPECT_EQ(a.tags[1].second, "a \"quoted\" name");
  const auto& b = (*games)[1];
  EXPECT_EQ(b.start.fen(), "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
  ASSERT_EQ(b.moves.size(), 4u);
  EXPECT_EQ(b.result, "1/2-1/2");
  // Export and import again: the same moves.
  auto again = parse_pgn(to_pgn(b));
  ASSERT_TRUE(again);
  EXPECT_EQ((*again)[0].moves, b.moves);
}

TEST(PgnRead, ErrorsNameTheGameLineAndMove) {
  auto bad = parse_pgn("[Event \"x\"]\n\n1. e4 e5\n2. Ke3 *\n");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("game 1: line 4: move 3 'Ke3'"), std::string::npos)
      << bad.error().message;
  EXPECT_FALSE(parse_pgn("[Event \"x\"\n1. e4 *"));
  EXPECT_FALSE(parse_pgn("1. e4 {open comment"));
  EXPECT_FALSE(parse_pgn("[FEN \"not a fen\"]\n*"));
  EXPECT_FALSE(load_pgn_file("/nonexistent/book.pgn"));
}

TEST(PgnRead, CommentsWrittenPerMove) {
  PgnGame g;
  g.moves = {*parse_uci(Position(), "e2e4")};
  const std::string text = to_pgn(g, {"+0.30/12 {1.2s}"});
  EXPECT_NE(text.find("1. e4 {+0.30/12  1.2s }"), std::string::npos) << text;
  auto back = parse_pgn(text);
  ASSERT_TRUE(back);
  EXPECT_EQ((*back)[0].moves, g.moves);
}

}  // namespace
}  // namespace kibitz::chess
