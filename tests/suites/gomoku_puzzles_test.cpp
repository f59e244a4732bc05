// VCF on the shared gomoku puzzle sets (lfz084/renju, renju rule; every puzzle is a forced
// win by continuous fours for the side to move): each threat search (iterative deepening and
// proof-number) must prove each one, as a VCF and as a VCT (a VCF is a VCT), and its line must
// end in the attacker's win when replayed.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "games/gomoku/position.hpp"
#include "search/threat/proof_number_search.hpp"
#include "search/threat/threat_search.hpp"
#include "support/suites.hpp"

namespace kibitz::gomoku {
namespace {

template <class Search = search::ThreatSearch<Position>>
void check_puzzles(const std::string& path, int limit,
                   search::ThreatKind kind = search::ThreatKind::kVcf) {
  std::ifstream in(path);
  Search threats(20);
  int n = 0, solved = 0;
  for (std::string line; std::getline(in, line) && n < limit;) {
    const auto j = nlohmann::json::parse(line);
    if (j.value("task", "") != "VCF") continue;  // a few entries are other kinds of problem
    std::vector<std::pair<int, int>> black, white;
    for (const auto& s : j["stones"])
      (s[2].get<int>() == 1 ? black : white).emplace_back(s[0].get<int>(), s[1].get<int>());
    const int side = j["side_to_move"].get<int>() == 1 ? 0 : 1;
    auto pos =
        Position::from_setup(Variant{j["size"].get<int>(), Rule::kRenju}, black, white, side);
    ASSERT_TRUE(pos) << j["id"] << ": " << pos.error().message;
    ++n;
    TimeBudget budget(5000, 5000);
    threats.clear();
    const auto r = threats.solve(*pos, kind, {.max_depth = 60, .budget = &budget});
    EXPECT_TRUE(r.win) << j["id"] << (r.aborted ? " (out of time)" : "");
    if (!r.win) continue;
    ++solved;
    Position p = *pos;
    for (const Move m : r.line) {
      ASSERT_TRUE(p.is_legal(m)) << j["id"];
      p.apply(m);
    }
    EXPECT_TRUE(p.is_terminal() && p.winner() == side)
        << j["id"] << ": the line does not end in a win";
  }
  EXPECT_GT(n, 0);
  ::testing::Test::RecordProperty("solved", solved);
}

TEST(GomokuPuzzles, BlackVcf) {
  KIBITZ_REQUIRE_SUITE(path, "gomoku/puzzles/lfz084_black_vcf.jsonl");
  check_puzzles(path, 150);
}

TEST(GomokuPuzzles, WhiteVcf) {
  KIBITZ_REQUIRE_SUITE(path, "gomoku/puzzles/lfz084_white_vcf.jsonl");
  check_puzzles(path, 150);
}

using Pn = search::ProofNumberSearch<Position>;

TEST(GomokuPuzzles, BlackVcfByProofNumbers) {
  KIBITZ_REQUIRE_SUITE(path, "gomoku/puzzles/lfz084_black_vcf.jsonl");
  check_puzzles<Pn>(path, 150);
}

TEST(GomokuPuzzles, WhiteVcfAsVctByProofNumbers) {
  KIBITZ_REQUIRE_SUITE(path, "gomoku/puzzles/lfz084_white_vcf.jsonl");
  check_puzzles<Pn>(path, 150, search::ThreatKind::kVct);
}

TEST(GomokuPuzzles, FourChase) {
  KIBITZ_REQUIRE_SUITE(path, "gomoku/puzzles/lfz084_intro_four_chase.jsonl");
  check_puzzles(path, 201);
}

}  // namespace
}  // namespace kibitz::gomoku
