// Conformance against the external chess suites in KIBITZ_SUITES (skipped when absent):
// the 126-position perft suite to depth 4, SAN round-trips of every legal move in those
// positions, and the SAN solutions of WAC and Bratko-Kopec resolving to legal moves.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "games/chess/epd.hpp"
#include "games/chess/notation.hpp"
#include "games/chess/perft.hpp"
#include "support/suites.hpp"

namespace kibitz::chess {
namespace {

TEST(PerftSuite, EveryPositionToDepth4) {
  KIBITZ_REQUIRE_SUITE(path, "chess/perftsuite.epd");
  auto records = load_epd_file(path);
  ASSERT_TRUE(records) << records.error().message;
  ASSERT_EQ(records->size(), 126u);
  int checked = 0;
  for (auto& rec : *records) {
    for (int d = 1; d <= 4; ++d) {
      const auto expected = rec.op(fmt::format("D{}", d));
      if (!expected) continue;
      Position p = rec.position;
      EXPECT_EQ(std::to_string(perft(p, d)), *expected) << rec.position.fen() << " depth " << d;
      ++checked;
    }
  }
  EXPECT_GE(checked, 126 * 4 - 10);
}

TEST(PerftSuite, CpwCountsToDepth5) {
  KIBITZ_REQUIRE_SUITE(path, "chess/perft_cpw.epd");
  auto records = load_epd_file(path);
  ASSERT_TRUE(records) << records.error().message;
  ASSERT_GE(records->size(), 6u);
  for (auto& rec : *records)
    for (int d = 1; d <= 5; ++d)
      if (const auto expected = rec.op(fmt::format("D{}", d))) {
        Position p = rec.position;
        EXPECT_EQ(std::to_string(perft(p, d)), *expected) << rec.position.fen() << " depth " << d;
      }
}

TEST(SanSuite, EveryLegalMoveRoundTripsInPerftSuitePositions) {
  KIBITZ_REQUIRE_SUITE(path, "chess/perftsuite.epd");
  auto records = load_epd_file(path);
  ASSERT_TRUE(records) << records.error().message;
  std::size_t total = 0, expected_total = 0;
  for (const auto& rec : *records) {
    // Moves checked = the suite's own depth-1 plus depth-2 counts.
    expected_total +=
        std::stoull(rec.op("D1").value_or("0")) + std::stoull(rec.op("D2").value_or("0"));
    // The position and every position one ply later, so both sides and replies are covered.
    MoveList<Position> roots;
    rec.position.legal_moves(roots);
    std::vector<Position> positions{rec.position};
    for (Move m : roots) {
      Position next = rec.position;
      next.apply(m);
      positions.push_back(next);
    }
    for (const Position& p : positions) {
      MoveList<Position> moves;
      p.legal_moves(moves);
      for (Move m : moves) {
        const std::string san = to_san(p, m);
        auto back = parse_san(p, san);
        ASSERT_TRUE(back) << p.fen() << " " << san << ": " << back.error().message;
        EXPECT_EQ(*back, m) << p.fen() << " " << san;
        auto uci = parse_uci(p, to_uci(m));
        ASSERT_TRUE(uci) << p.fen() << " " << to_uci(m);
        EXPECT_EQ(*uci, m);
        ++total;
      }
    }
  }
  EXPECT_EQ(total, expected_total);
}

void expect_solutions_resolve(const std::string& path, std::size_t expected_count) {
  auto records = load_epd_file(path);
  ASSERT_TRUE(records) << records.error().message;
  EXPECT_EQ(records->size(), expected_count);
  for (const auto& rec : *records) {
    for (const char* opcode : {"bm", "am"}) {
      const auto moves = rec.op(opcode);
      if (!moves) continue;
      std::size_t start = 0;
      while (start < moves->size()) {
        std::size_t end = moves->find(' ', start);
        if (end == std::string::npos) end = moves->size();
        const std::string san = moves->substr(start, end - start);
        start = end + 1;
        if (san.empty()) continue;
        auto m = parse_san(rec.position, san);
        EXPECT_TRUE(m) << rec.op("id").value_or("?") << " " << opcode << " " << san << ": "
                       << (m ? "" : m.error().message);
      }
    }
  }
}

TEST(EpdSuite, WinAtChessSolutionsAreLegalSan) {
  KIBITZ_REQUIRE_SUITE(path, "chess/wac.epd");
  expect_solutions_resolve(path, 300);
}

TEST(EpdSuite, BratkoKopecSolutionsAreLegalSan) {
  KIBITZ_REQUIRE_SUITE(path, "chess/bk.epd");
  expect_solutions_resolve(path, 24);
}

}  // namespace
}  // namespace kibitz::chess
