// The Go engine's bench positions and a bench run's figures.
#include <gtest/gtest.h>

#include "core/text.hpp"
#include "engine/go_engine.hpp"

namespace kibitz::engine {
namespace {

// Every bench position replays legally and leaves a game in progress: both sizes, an empty
// board and a middle game of each.
TEST(GoEngineBench, PositionsReplayAsGamesInProgress) {
  int middle_games = 0;
  for (const GoBenchPosition& b : go_bench_positions()) {
    go::Position p(go::Rules{.size = b.size});
    for (const auto& word : split_blanks(b.moves)) {
      const auto m = go::parse_vertex(word, b.size);
      ASSERT_TRUE(m) << word << ": " << m.error().message;
      ASSERT_TRUE(p.is_legal(*m)) << b.size << "x" << b.size << ": " << word;
      p.apply(*m);
    }
    EXPECT_FALSE(p.is_terminal());
    middle_games += p.stones_on_board() > 0;
  }
  EXPECT_EQ(middle_games, 2);
}

// A small bench: the playouts asked for, and the same tree on a second run.
TEST(GoEngineBench, DeterministicWithOneThread) {
  BenchOptions o;
  o.playouts = 200;
  const BenchReport a = run_go_bench(o);
  const BenchReport b = run_go_bench(o);
  ASSERT_EQ(a.positions.size(), go_bench_positions().size());
  EXPECT_EQ(a.nodes, 200 * a.positions.size());
  EXPECT_GT(a.signature, a.nodes);  // each expansion adds all legal moves
  EXPECT_EQ(a.signature, b.signature);
  for (std::size_t i = 0; i < a.positions.size(); ++i)
    EXPECT_EQ(a.positions[i].best, b.positions[i].best);
}

}  // namespace
}  // namespace kibitz::engine
