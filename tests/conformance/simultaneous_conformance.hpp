#pragma once
// The conformance checks of a simultaneous-move game (api/concepts.hpp: Simultaneous):
// random joint actions reach a terminal state; while actions are due current_player() is
// kSimultaneousPlayer, then kTerminalPlayer; no player lists an action twice; the same joint
// action applied to two copies gives the same state (hash and returns); returns are finite,
// and sum to zero in a zero-sum game.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "api/concepts.hpp"
#include "core/rng.hpp"

namespace kibitz::testing {

template <Simultaneous G>
void check_simultaneous_conformance(const G& start, int playouts, std::uint64_t seed = 1,
                                    int max_steps = 1000) {
  Rng rng(seed);
  for (int game = 0; game < playouts; ++game) {
    G s = start;
    int steps = 0;
    while (!s.is_terminal()) {
      ASSERT_LT(steps, max_steps) << "playout " << game << " did not terminate";
      ASSERT_EQ(s.current_player(), kSimultaneousPlayer);
      std::vector<typename G::Move> joint(G::kMaxPlayers);
      for (int p = 0; p < G::kMaxPlayers; ++p) {
        MoveList<G> actions;
        const std::size_t n = s.legal_actions(p, actions);
        ASSERT_EQ(n, actions.size());
        for (std::size_t i = 0; i < n; ++i)
          for (std::size_t j = i + 1; j < n; ++j)
            ASSERT_FALSE(actions[i] == actions[j]) << "player " << p << " lists an action twice";
        if (n > 0) joint[static_cast<std::size_t>(p)] = actions[rng.below(n)];
      }
      G twin = s;
      s.apply_joint(joint);
      twin.apply_joint(joint);
      EXPECT_EQ(s.hash(), twin.hash());
      EXPECT_EQ(s.returns(), twin.returns());
      ++steps;
    }
    EXPECT_EQ(s.current_player(), kTerminalPlayer);
    const auto r = s.returns();
    double sum = 0;
    for (double v : r) {
      EXPECT_TRUE(std::isfinite(v));
      sum += v;
    }
    if constexpr (requires { G::kZeroSum; }) {
      if (G::kZeroSum) {
        EXPECT_NEAR(sum, 0.0, 1e-9);
      }
    }
  }
}

}  // namespace kibitz::testing
