#pragma once
// The conformance checks of a registry entry, through its type-erased AnyState only (what the
// CLI, `kibitz match` and the bindings see): random playouts from the standard start reach a
// terminal state by legal moves written in the game's notation; every listed move applies;
// a clone is equal and independent; the position text reads back to the same state; the
// returns have one value per player; a move that is not legal (or any move once the game is
// over) is refused with a one-line error. Every entry of the registry runs them
// (registry_conformance_test.cpp).
#include <gtest/gtest.h>

#include <string>

#include "core/rng.hpp"
#include "games/registry.hpp"

namespace kibitz::testing {

inline void check_entry_conformance(const GameEntry& g, int playouts, std::uint64_t seed = 1,
                                    int max_plies = 5000) {
  SCOPED_TRACE(g.name);
  ASSERT_TRUE(g.new_state) << g.name << " has no state factory";
  Rng rng(seed);
  for (int game = 0; game < playouts; ++game) {
    auto made = g.new_state("");
    ASSERT_TRUE(made) << made.error().message;
    AnyState& s = **made;
    int plies = 0;
    while (!s.is_terminal()) {
      ASSERT_LT(plies, max_plies) << "playout " << game << " did not terminate";
      const auto moves = s.legal_moves();
      ASSERT_FALSE(moves.empty()) << "a non-terminal state has no legal move";
      const int player = s.current_player();
      ASSERT_GE(player, 0);
      ASSERT_LT(player, g.num_players);
      // The position text reads back to a state with the same key and the same moves.
      if (plies % 7 == 0) {
        auto back = g.new_state(s.to_string());
        ASSERT_TRUE(back) << s.to_string() << ": " << back.error().message;
        EXPECT_EQ((*back)->hash(), s.hash()) << s.to_string();
        EXPECT_EQ((*back)->legal_moves(), moves) << s.to_string();
      }
      const std::string& m = moves[rng.below(moves.size())];
      auto copy = s.clone();
      ASSERT_TRUE(s.apply(m)) << "listed move " << m << " does not apply";
      // The clone is untouched and plays the same move to the same state.
      EXPECT_EQ(copy->legal_moves(), moves);
      ASSERT_TRUE(copy->apply(m));
      EXPECT_EQ(copy->hash(), s.hash());
      EXPECT_EQ(copy->to_string(), s.to_string());
      ++plies;
    }
    EXPECT_EQ(s.returns().size(), static_cast<std::size_t>(g.num_players));
    auto late = s.apply("no-such-move");
    ASSERT_FALSE(late);
    EXPECT_EQ(late.error().message.find('\n'), std::string::npos) << late.error().message;
  }
  auto start = g.new_state("");
  ASSERT_TRUE(start);
  auto bad = (*start)->apply("no-such-move");
  ASSERT_FALSE(bad) << "a nonsense move applies";
  EXPECT_EQ(bad.error().message.find('\n'), std::string::npos) << bad.error().message;
}

}  // namespace kibitz::testing
