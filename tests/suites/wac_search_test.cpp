// WAC (Win At Chess, 300 tactical positions) as a conformance test of the search: a fixed node
// budget per position (deterministic: one thread, cleared table), solved = the engine's move is
// one of the `bm` moves and none of the `am` moves. The floor is a regression guard set a little
// under the measured count (BENCHMARKS.md has the timed runs next to Stockfish).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <sstream>
#include <string>

#include "engine/chess_engine.hpp"
#include "games/chess/epd.hpp"
#include "games/chess/notation.hpp"
#include "support/suites.hpp"

namespace kibitz::chess {
namespace {

constexpr std::uint64_t kNodesPerPosition = 200000;
constexpr int kMinimumSolved = 265;  // measured 274 (BENCHMARKS.md); a guard, not a goal

bool listed(const Position& pos, const std::optional<std::string>& moves, Move m) {
  if (!moves) return false;
  std::istringstream words(*moves);
  for (std::string san; words >> san;) {
    auto parsed = parse_san(pos, san);
    if (parsed && *parsed == m) return true;
  }
  return false;
}

TEST(WacSearch, SolvedAtAFixedNodeBudget) {
  KIBITZ_REQUIRE_SUITE(path, "chess/wac.epd");
  auto records = load_epd_file(path);
  ASSERT_TRUE(records) << records.error().message;
  ASSERT_EQ(records->size(), 300u);
  engine::ChessEngine engine(16);
  int solved = 0;
  std::string failed;
  for (const auto& rec : *records) {
    engine.new_game();
    engine::GoParams params;
    params.limits.nodes = kNodesPerPosition;
    const auto r = engine.search(rec.position, params);
    const auto bm = rec.op("bm");
    const auto am = rec.op("am");
    const bool ok = (!bm || listed(rec.position, bm, r.best)) && !listed(rec.position, am, r.best);
    if (ok) {
      ++solved;
    } else {
      failed += fmt::format(" {}", rec.op("id").value_or("?"));
    }
  }
  RecordProperty("solved", solved);
  std::printf("WAC: %d / 300 solved at %llu nodes per position; missed:%s\n", solved,
              static_cast<unsigned long long>(kNodesPerPosition), failed.c_str());
  EXPECT_GE(solved, kMinimumSolved);
}

}  // namespace
}  // namespace kibitz::chess
