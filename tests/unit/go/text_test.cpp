// GTP vertices (parse, print, errors) and the board diagram.
#include <gtest/gtest.h>

#include "unit/go/go_test_util.hpp"

namespace kibitz::go {
namespace {

TEST(GoText, ParsesVertices) {
  EXPECT_EQ(*parse_vertex("A1", 9), Move::at(0, 0));
  EXPECT_EQ(*parse_vertex("d4", 19), Move::at(3, 3));
  EXPECT_EQ(*parse_vertex("J9", 9), Move::at(8, 8));  // I is skipped: J is the 9th column
  EXPECT_EQ(*parse_vertex("T19", 19), Move::at(18, 18));
  EXPECT_EQ(*parse_vertex("H8", 9), Move::at(7, 7));
  EXPECT_EQ(*parse_vertex("pass", 9), Move::pass());
  EXPECT_EQ(*parse_vertex("PASS", 19), Move::pass());
  EXPECT_EQ(*parse_vertex("Resign", 19), Move::resign());
}

TEST(GoText, VertexRoundTripsOnEveryPoint) {
  for (const int n : {5, 9, 13, 19})
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        const Move m = Move::at(x, y);
        const auto back = parse_vertex(to_vertex(m, n), n);
        ASSERT_TRUE(back) << back.error().message;
        ASSERT_EQ(*back, m);
      }
  EXPECT_EQ(to_vertex(Move::pass(), 9), "pass");
  EXPECT_EQ(to_vertex(Move::resign(), 9), "resign");
  EXPECT_EQ(to_vertex(Move::at(18, 18), 19), "T19");
}

TEST(GoText, VertexErrorsNameTheProblem) {
  const auto err = [](std::string_view text, int size) {
    const auto r = parse_vertex(text, size);
    EXPECT_FALSE(r) << text;
    return r ? std::string() : r.error().message;
  };
  EXPECT_EQ(err("", 9), "empty vertex");
  EXPECT_EQ(err("I5", 9), "bad vertex 'I5': there is no column I");
  EXPECT_EQ(err("i5", 9), "bad vertex 'i5': there is no column I");
  EXPECT_EQ(err("5D", 9), "bad vertex '5D': column must be a letter");
  EXPECT_EQ(err("K5", 9), "bad vertex 'K5': column K is off a 9x9 board");
  EXPECT_EQ(err("D0", 9), "bad vertex 'D0': row 0 is off a 9x9 board");
  EXPECT_EQ(err("D10", 9), "bad vertex 'D10': row 10 is off a 9x9 board");
  EXPECT_EQ(err("D", 9), "bad vertex 'D': row must be a number");
  EXPECT_EQ(err("D4x", 9), "bad vertex 'D4x': row must be a number");
  EXPECT_EQ(err("D1234", 19), "bad vertex 'D1234': row must be a number");
  EXPECT_EQ(err("D\n4", 19), "bad vertex 'D\\n4': row must be a number");  // one line
  EXPECT_EQ(err("D4", 20), "bad board size 20");
}

TEST(GoText, Diagram) {
  Position p(Rules{.size = 5});
  p.apply(*parse_vertex("C3", 5));
  p.apply(*parse_vertex("A1", 5));
  p.apply(*parse_vertex("E5", 5));
  EXPECT_EQ(p.to_string(),
            "   A B C D E\n"
            " 5 . . . . X 5\n"
            " 4 . . . . . 4\n"
            " 3 . . X . . 3\n"
            " 2 . . . . . 2\n"
            " 1 O . . . . 1\n"
            "   A B C D E\n");
  Position big(Rules{.size = 19});
  const std::string text = big.to_string();
  EXPECT_NE(text.find("   A B C D E F G H J K L M N O P Q R S T\n19 . "), std::string::npos);
}

TEST(GoText, PlayReportsIllegalMoves) {
  Position p(Rules{.size = 9});
  ASSERT_TRUE(p.play(*parse_vertex("E5", 9)));
  const auto r = p.play(*parse_vertex("E5", 9));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "illegal move E5 for white: occupied");
  EXPECT_EQ(p.check(Move{0}), Illegal::kOffBoard);
  EXPECT_EQ(p.check(Move::at(9, 0)), Illegal::kOffBoard);
  EXPECT_EQ(illegal_text(Illegal::kKo), "ko");
}

}  // namespace
}  // namespace kibitz::go
