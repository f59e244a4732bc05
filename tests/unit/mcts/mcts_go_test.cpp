// The MCTS with the Go hooks: tactical answers on a small board (the capture that saves a big
// chain, the capture of a big chain), determinism, tree reuse, and the playout policy and
// priors themselves.
#include <gtest/gtest.h>

#include <numeric>
#include <string>

#include "games/go/search_traits.hpp"
#include "search/mcts/mcts_impl.hpp"
#include "unit/go/go_test_util.hpp"

namespace kibitz::go {
namespace {

using search::Mcts;
using search::MctsOptions;
using testing::diagram;
using testing::mv;
using testing::pt;

MctsOptions go_options(std::uint64_t playouts, std::uint64_t seed = 1) {
  MctsOptions o;
  o.max_playouts = playouts;
  o.seed = seed;
  o.max_nodes = 1 << 19;
  return o;
}

// Black's six stones (B3 B4 C4 D4 E4 E3) have one liberty, E2; white's C3 D3 have one, D2.
// Black saves them by capturing at D2 (extending at E2 is a self-atari); white to move
// captures them at E2.
Position semeai(Color to_move, double komi = 0.5) {
  return diagram({".......",  //
                  ".......",  //
                  ".OOOO..",  //
                  "OXXXXO.",  //
                  "OXOOXO.",  //
                  ".OX..O.",  //
                  "....O.."},
                 to_move, Rules{.komi = komi});
}

TEST(MctsGo, SemeaiPreconditions) {
  const Position p = semeai(kBlack);
  EXPECT_EQ(p.chain_size(pt("B4", 7)), 6);
  EXPECT_EQ(p.liberties(pt("B4", 7)), 1);
  EXPECT_EQ(p.liberties(pt("C3", 7)), 1);
  EXPECT_TRUE(p.captures(mv("D2", 7)));
  EXPECT_TRUE(p.is_self_atari(mv("E2", 7)));
}

TEST(MctsGo, CapturesToSaveABigChain) {
  // Black's group stays weak after the capture (white's walls keep the board), so all
  // moves lose in the end; the search must still spend its visits on the local answer.
  Mcts<Position> mcts(semeai(kBlack), go_options(3000));
  const auto r = mcts.search();
  EXPECT_EQ(to_vertex(r.best, 7), "D2");
  ASSERT_GE(r.moves.size(), 2u);
  EXPECT_GT(r.moves[0].visits, 3 * r.moves[1].visits / 2);
}

TEST(MctsGo, CapturesABigChainInAtari) {
  // White wins the semeai either by taking the six stones at E2 at once or by saving its own
  // two at D2 (an atari on C2 too), after which black's six cannot escape; anything else
  // lets black capture at D2.
  Mcts<Position> mcts(semeai(kWhite), go_options(3000));
  const auto r = mcts.search();
  const std::string best = to_vertex(r.best, 7);
  EXPECT_TRUE(best == "E2" || best == "D2") << best;
  EXPECT_GT(r.value, 0.8);
  int winning = 0;
  for (const auto& m : r.moves)
    if (to_vertex(m.move, 7) == "E2" || to_vertex(m.move, 7) == "D2") winning += m.visits;
  EXPECT_GT(winning, 3000 / 2);
}

TEST(MctsGo, StopsOnceTheBestMoveCannotBeOvertaken) {
  // White's capture of six stones: the most visited move pulls ahead and stays ahead, so a
  // search told to stop when decided ends well before its visit limit, with the same move.
  MctsOptions o = go_options(0);
  o.max_visits = 6000;
  Mcts<Position> full(semeai(kWhite), o);
  const auto a = full.search();
  EXPECT_EQ(a.root_visits, 6000u);
  o.stop_when_decided = true;
  Mcts<Position> early(semeai(kWhite), o);
  const auto b = early.search();
  EXPECT_EQ(b.best, a.best);
  EXPECT_LT(b.root_visits, 6000u);
  // Decided means the lead is larger than the visits left.
  ASSERT_GE(b.moves.size(), 2u);
  EXPECT_GT(b.moves[0].visits - b.moves[1].visits, 6000 - b.root_visits);
}

TEST(MctsGo, AnOpenRaceGoesPastTheSoftTarget) {
  // Two white stones in atari at mirror-image points: the two captures are equally good and
  // share the visits, so the race at the root stays open and the search uses the time up to
  // its hard limit; without the option it stops at the soft target.
  const Position p = diagram({".........",  //
                              ".........",  //
                              ".........",  //
                              ".X.....X.",  //
                              "XO.....OX",  //
                              ".X.....X.",  //
                              ".........",  //
                              ".........",  //
                              "........."});
  MctsOptions o = go_options(0);
  o.extend_when_unclear = true;
  o.unclear_visit_ratio = 0.3;
  Mcts<Position> mcts(p, o);
  TimeBudget budget(10, 300);
  const auto r = mcts.search(budget);
  EXPECT_GE(budget.elapsed_ms(), 250) << r.root_visits << " visits";
  o.extend_when_unclear = false;
  Mcts<Position> plain(p, o);
  TimeBudget short_budget(10, 300);
  plain.search(short_budget);
  EXPECT_LT(short_budget.elapsed_ms(), 250);
}

TEST(MctsGo, SameSeedSameStatistics) {
  auto run = [](std::uint64_t seed) {
    Mcts<Position> mcts(Position(Rules{.size = 9}), go_options(600, seed));
    return mcts.search();
  };
  const auto a = run(11), b = run(11);
  ASSERT_EQ(a.moves.size(), b.moves.size());
  for (std::size_t i = 0; i < a.moves.size(); ++i) {
    EXPECT_EQ(a.moves[i].move, b.moves[i].move);
    EXPECT_EQ(a.moves[i].visits, b.moves[i].visits);
    EXPECT_EQ(a.moves[i].value, b.moves[i].value);
    EXPECT_EQ(a.moves[i].amaf_visits, b.moves[i].amaf_visits);
  }
  EXPECT_EQ(a.pv, b.pv);
  EXPECT_EQ(a.nodes, b.nodes);
  const auto c = run(12);
  bool differs = c.moves.size() != a.moves.size();
  for (std::size_t i = 0; !differs && i < a.moves.size(); ++i)
    differs = a.moves[i].visits != c.moves[i].visits || a.moves[i].move != c.moves[i].move;
  EXPECT_TRUE(differs);  // the seed matters
}

TEST(MctsGo, TreeReuseKeepsThePlayedChild) {
  Mcts<Position> mcts(Position(Rules{.size = 9}), go_options(800));
  const auto r = mcts.search();
  const auto kept = static_cast<std::uint64_t>(r.moves.front().visits);
  ASSERT_GT(kept, 1u);
  ASSERT_GE(r.pv.size(), 2u);
  EXPECT_TRUE(mcts.advance(r.best));
  EXPECT_EQ(mcts.root_visits(), kept);
  EXPECT_EQ(mcts.root_state().moves_played(), 1);
  // The reply the PV expected is still the most visited child.
  EXPECT_EQ(mcts.result().best, r.pv[1]);
  mcts.set_options(go_options(200));
  const auto next = mcts.search();
  EXPECT_EQ(next.root_visits, kept + 200);
  EXPECT_EQ(next.playouts, 200u);
}

TEST(MctsGo, TwoThreads) {
  MctsOptions o = go_options(400);
  o.threads = 2;
  Mcts<Position> mcts(Position(Rules{.size = 9}), o);
  const auto r = mcts.search();
  EXPECT_EQ(r.playouts, 400u);
  EXPECT_EQ(r.root_visits, 400u);
  EXPECT_TRUE(mcts.root_state().is_legal(r.best));
  for (const auto& n : mcts.nodes()) EXPECT_EQ(n.in_flight, 0u);
}

TEST(MctsGo, PlayoutsAreLegalNeverFillEyesAndEnd) {
  Rng rng(5);
  for (const int n : {7, 9, 19}) {
    for (int game = 0; game < 6; ++game) {
      Position p(Rules{.size = n});
      while (!p.is_terminal()) {
        const Move m = playout_move(p, rng);
        ASSERT_TRUE(p.is_legal(m));
        if (m.is_point()) {
          ASSERT_FALSE(p.is_eye(m.sq, p.to_move())) << p.to_string();
        }
        p.apply(m);
      }
      // Ended by two passes, not by the move cap.
      EXPECT_EQ(p.passes(), 2) << n;
      EXPECT_LT(p.moves_played(), p.max_moves());
    }
  }
}

TEST(MctsGo, PlayoutEscapesAndCaptures) {
  // Rule 1: white's E3 puts D3 in atari; black extends at D2 (three liberties) every time.
  Position e = diagram({".......",  //
                        ".......",  //
                        ".......",  //
                        "...O...",  //
                        "..OX...",  //
                        ".......",  //
                        "......."},
                       kWhite, Rules{.size = 7});
  e.apply(mv("E3", 7));
  ASSERT_EQ(e.liberties(pt("D3", 7)), 1);
  Rng rng(1);
  for (int i = 0; i < 50; ++i) EXPECT_EQ(to_vertex(playout_move(e, rng), 7), "D2");

  // Rule 2: white's D4 is in atari and white's last move E3 is next to it: black takes at D3
  // (nine times in ten by rule 2, and sometimes by the later rules).
  Position c = diagram({".......",  //
                        ".......",  //
                        "...X...",  //
                        "..XOX..",  //
                        ".......",  //
                        ".......",  //
                        "......."},
                       kWhite, Rules{.size = 7});
  c.apply(mv("E3", 7));
  ASSERT_EQ(c.liberties(pt("D4", 7)), 1);
  int captures = 0;
  for (int i = 0; i < 100; ++i) captures += playout_move(c, rng) == mv("D3", 7);
  EXPECT_GT(captures, 80);
}

TEST(MctsGo, PriorsFavourCapturesAndSumToOne) {
  Position p = diagram({".......",  //
                        ".......",  //
                        "...X...",  //
                        "..XOX..",  //
                        ".......",  //
                        ".......",  //
                        "......."},
                       kBlack, Rules{.size = 7});
  MoveList<Position> moves;
  p.legal_moves(moves);
  std::vector<float> pr(moves.size());
  move_priors(p, std::span<const Move>(moves.data(), moves.size()), pr);
  EXPECT_NEAR(std::accumulate(pr.begin(), pr.end(), 0.0), 1.0, 1e-5);
  std::size_t best = 0;
  for (std::size_t i = 0; i < pr.size(); ++i)
    if (pr[i] > pr[best]) best = i;
  EXPECT_EQ(to_vertex(moves[best], 7), "D3");
}

}  // namespace
}  // namespace kibitz::go
