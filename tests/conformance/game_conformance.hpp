#pragma once
// The conformance checks every game runs (OpenSpiel's basic_tests are the model):
// random playouts reach a terminal state legally; make/unmake agrees with copy-make;
// the incremental hash equals the hash recomputed from scratch; zero-sum returns sum to 0.
// Instantiate with check_game_conformance<MyGame>(start_state, options) in a test.
#include <gtest/gtest.h>

#include <cmath>

#include "api/concepts.hpp"
#include "core/rng.hpp"

namespace kibitz::testing {

struct ConformanceOptions {
  int playouts = 50;
  int max_plies = 20000;  // a playout longer than this has failed to terminate
  std::uint64_t seed = 1;
};

template <Game G>
void check_game_conformance(const G& start, const ConformanceOptions& o = {}) {
  Rng rng(o.seed);
  for (int game = 0; game < o.playouts; ++game) {
    G s = start;
    int plies = 0;
    while (!s.is_terminal()) {
      ASSERT_LT(plies, o.max_plies) << "playout " << game << " did not terminate";
      MoveList<G> moves;
      const std::size_t n = s.legal_moves(moves);
      ASSERT_EQ(n, moves.size());
      ASSERT_GT(n, 0u) << "a non-terminal state has no legal move (playout " << game << ", ply "
                       << plies << ")";
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j)
          ASSERT_FALSE(moves[i] == moves[j]) << "a legal move is listed twice";
      const int player = s.current_player();
      if constexpr (!Simultaneous<G>) {
        ASSERT_GE(player, 0);
        ASSERT_LT(player, G::kMaxPlayers);
      }
      const typename G::Move m = moves[rng.below(n)];

      G copied = s;
      copied.apply(m);
      if constexpr (Undoable<G>) {
        const G before = s;
        typename G::Undo undo;
        s.make(m, undo);
        ASSERT_EQ(s.hash(), copied.hash()) << "make and apply disagree";
        if constexpr (std::equality_comparable<G>) {
          ASSERT_TRUE(s == copied);
        }
        s.unmake(m, undo);
        ASSERT_EQ(s.hash(), before.hash()) << "unmake did not restore the hash";
        if constexpr (std::equality_comparable<G>) {
          ASSERT_TRUE(s == before);
        }
        s.make(m, undo);
        if constexpr (HasNullMove<G>) {
          if (!s.in_check() && !s.is_terminal()) {
            const G at = s;
            typename G::Undo nu;
            s.make_null(nu);
            ASSERT_NE(s.hash(), at.hash()) << "a null move must change the hash (side to move)";
            if constexpr (requires { s.compute_hash(); }) {
              ASSERT_EQ(s.hash(), s.compute_hash());
            }
            s.unmake_null(nu);
            ASSERT_EQ(s.hash(), at.hash());
            if constexpr (std::equality_comparable<G>) {
              ASSERT_TRUE(s == at);
            }
          }
        }
      } else {
        s = copied;
      }
      if constexpr (requires { s.compute_hash(); }) {
        ASSERT_EQ(s.hash(), s.compute_hash()) << "incremental hash differs after ply " << plies;
      }
      ++plies;
    }
    const auto r = s.returns();
    if constexpr (requires { G::kZeroSum; }) {
      if constexpr (G::kZeroSum) {
        double sum = 0;
        for (double v : r) sum += v;
        EXPECT_NEAR(sum, 0.0, 1e-9) << "returns of a zero-sum game must sum to zero";
      }
    }
  }
}

}  // namespace kibitz::testing
