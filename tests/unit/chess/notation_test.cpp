// SAN and UCI notation: known spellings, disambiguation, check and mate marks, tolerant
// input, and errors that say why a move was rejected.
#include <gtest/gtest.h>

#include "games/chess/notation.hpp"
#include "unit/chess/fen.hpp"

namespace kibitz::chess {
namespace {

std::string san(const Position& p, const char* uci) {
  auto m = parse_uci(p, uci);
  return m ? to_san(p, *m) : "illegal: " + m.error().message;
}

TEST(San, KnownSpellings) {
  const Position start;
  EXPECT_EQ(san(start, "e2e4"), "e4");
  EXPECT_EQ(san(start, "g1f3"), "Nf3");
  const Position kiwi = P("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  EXPECT_EQ(san(kiwi, "e1g1"), "O-O");
  EXPECT_EQ(san(kiwi, "e1c1"), "O-O-O");
  EXPECT_EQ(san(kiwi, "e2a6"), "Bxa6");
  EXPECT_EQ(san(kiwi, "d5e6"), "dxe6");
  EXPECT_EQ(san(kiwi, "g2h3"), "gxh3");
  EXPECT_EQ(san(kiwi, "f3f6"), "Qxf6");
  // Promotions, with capture and check.
  const Position promo = P("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1");
  EXPECT_EQ(san(promo, "g2g1q"), "g1=Q");
  EXPECT_EQ(san(promo, "g2h1n"), "gxh1=N");
  EXPECT_EQ(san(promo, "g2f1q"), "gxf1=Q+");
  // En passant.
  const Position ep = P("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
  EXPECT_EQ(san(ep, "e5f6"), "exf6");
}

TEST(San, Disambiguation) {
  // Knights on b1 and f3 can both reach d2; rooks on a1 and a5 both reach a3; three queens.
  const Position p = P("4k3/8/8/R7/8/8/8/RN2KN2 w - - 0 1");
  EXPECT_EQ(san(p, "b1d2"), "Nbd2");
  EXPECT_EQ(san(p, "f1d2"), "Nfd2");
  EXPECT_EQ(san(p, "a1a3"), "R1a3");
  EXPECT_EQ(san(p, "a5a3"), "R5a3");
  const Position q = P("7k/8/8/8/Q1Q5/8/Q7/4K3 w - - 0 1");
  EXPECT_EQ(san(q, "a4b3"), "Qa4b3");
  EXPECT_EQ(san(q, "c4b3"), "Qcb3");
  EXPECT_EQ(san(q, "a2b3"), "Q2b3");
  const Position q3 = P("7k/8/8/8/Q1Q5/8/Q1Q5/4K3 w - - 0 1");
  EXPECT_EQ(san(q3, "a4b3"), "Qa4b3");
}

TEST(San, CheckAndMate) {
  const Position scholar = P("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 4");
  EXPECT_EQ(san(scholar, "f3f7"), "Qxf7#");
  const Position check = P("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
  EXPECT_EQ(san(check, "a1a8"), "Ra8+");
}

TEST(San, ParsesTolerantInput) {
  const Position start;
  EXPECT_EQ(*parse_san(start, "Nf3"), *parse_uci(start, "g1f3"));
  EXPECT_EQ(*parse_san(start, "Ng1f3"), *parse_uci(start, "g1f3"));
  EXPECT_EQ(*parse_san(start, "e4!?"), *parse_uci(start, "e2e4"));
  const Position kiwi = P("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  EXPECT_EQ(*parse_san(kiwi, "0-0"), *parse_uci(kiwi, "e1g1"));
  EXPECT_EQ(*parse_san(kiwi, "O-O-O+"), *parse_uci(kiwi, "e1c1"));
  const Position promo = P("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1");
  EXPECT_EQ(*parse_san(promo, "g1Q"), *parse_uci(promo, "g2g1q"));
  EXPECT_EQ(*parse_san(promo, "gxh1=n"), *parse_uci(promo, "g2h1n"));
}

TEST(San, RejectsWithReasons) {
  const Position start;
  auto check = [&](const Position& p, const char* text, const char* part) {
    auto m = parse_san(p, text);
    ASSERT_FALSE(m) << text;
    EXPECT_NE(m.error().message.find(part), std::string::npos) << m.error().message;
  };
  check(start, "", "not a SAN move");
  check(start, "Nf4", "not legal");
  check(start, "O-O", "castling is not legal");
  check(start, "Zf3", "not a SAN move");
  check(start, "e9", "no destination");
  const Position p = P("4k3/8/8/R7/8/8/8/RN2KN2 w - - 0 1");
  check(p, "Nd2", "ambiguous");
  check(p, "Ra3", "ambiguous");
  const Position promo = P("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1");
  check(promo, "g1", "must name its promotion");
}

TEST(Uci, RoundTripAndErrors) {
  const Position promo = P("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1");
  EXPECT_EQ(to_uci(*parse_uci(promo, "g2h1q")), "g2h1q");
  EXPECT_EQ(to_uci(Move::none()), "0000");
  EXPECT_FALSE(parse_uci(promo, "g2h1"));   // promotion piece missing
  EXPECT_FALSE(parse_uci(promo, "g2h1k"));  // cannot promote to a king
  EXPECT_FALSE(parse_uci(promo, "e2e4"));
  EXPECT_FALSE(parse_uci(promo, "zz"));
  EXPECT_NE(parse_uci(Position(), "e2e5").error().message.find("not legal"), std::string::npos);
}

}  // namespace
}  // namespace kibitz::chess
