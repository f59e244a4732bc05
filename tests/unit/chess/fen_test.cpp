// FEN parsing and printing: round-trips, and malformed input rejected with a message that
// names the field.
#include <gtest/gtest.h>

#include "games/chess/position.hpp"

namespace kibitz::chess {
namespace {

TEST(Fen, RoundTrips) {
  for (const char* fen : {
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
           "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
           "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
           "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
           "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
           "rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b Kq d3 0 2",
           "4k3/8/8/8/8/8/8/4K2R b K - 57 130",
       }) {
    auto p = Position::from_fen(fen);
    ASSERT_TRUE(p) << fen << ": " << p.error().message;
    EXPECT_EQ(p->fen(), fen);
  }
}

TEST(Fen, DefaultPositionIsTheStart) {
  EXPECT_EQ(Position().fen(), kStartFen);
  EXPECT_EQ(Position().hash(), Position::from_fen(kStartFen)->hash());
}

TEST(Fen, CountersAreOptionalAsInEpd) {
  auto p = Position::from_fen("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->fen(), "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1");
}

TEST(Fen, HashIncludesEnPassantOnlyWhenACaptureIsPossible) {
  // After 1. e4 no black pawn can take en passant: same key as without the square.
  auto with = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
  auto without = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  ASSERT_TRUE(with && without);
  EXPECT_EQ(with->hash(), without->hash());
  auto live = Position::from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
  auto dead = Position::from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3");
  EXPECT_NE(live->hash(), dead->hash());
}

struct BadFen {
  const char* fen;
  const char* message_part;
};

TEST(Fen, MalformedInputNamesTheField) {
  const BadFen cases[] = {
      {"", "expected at least 4 fields"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", "expected at least 4 fields"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra", "at most 6 fields"},
      {"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "piece placement"},
      {"rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 6 has 7 squares"},
      {"rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "expected 8 ranks"},
      {"rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "more than 8 ranks"},
      {"rnbqkbnr/ppppXppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "unexpected character 'X'"},
      {"rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "black has 0 kings"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBKR w kq - 0 1", "white has 2 kings"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNP w kq - 0 1", "first or eighth rank"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1", "castling"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "castling: right 'K'"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKkq - 0 1", "appears twice"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "en passant"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", "en passant"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", "not on rank 6"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "halfmove clock"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -3", "fullmove number"},
      {"4k3/8/8/8/8/8/8/4K2R w - - 0 1 ", nullptr},                       // trailing space is fine
      {"4k3/8/8/8/8/8/8/4K2R\nw - - 0 1", "unexpected character '\\n'"},  // stays one line
      {"4k2R/8/8/8/8/8/8/4K3 w - - 0 1", "side not to move (black) is in check"},
      {"4k3/pppppppp/pppppppp/8/8/8/8/4K3 w - - 0 1", "black has 17 pieces"},
      {"4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", "black has 9 pawns"},
  };
  for (const auto& c : cases) {
    auto p = Position::from_fen(c.fen);
    if (c.message_part == nullptr) {
      EXPECT_TRUE(p) << c.fen;
      continue;
    }
    ASSERT_FALSE(p) << "accepted: '" << c.fen << "'";
    EXPECT_NE(p.error().message.find(c.message_part), std::string::npos)
        << "'" << c.fen << "' gave: " << p.error().message;
    EXPECT_EQ(p.error().message.find('\n'), std::string::npos);
  }
}

}  // namespace
}  // namespace kibitz::chess
