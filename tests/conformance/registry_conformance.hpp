#pragma once
// The conformance checks of a registry entry, through its type-erased AnyState only (what the
// CLI, `kibitz match` and the bindings see): random playouts from the standard start reach a
// terminal state by legal moves written in the game's notation; every listed move applies;
// a clone is equal and independent; the position text reads back to the same state; the
// returns have one value per player; a move that is not legal (or any move once the game is
// over) is refused with a one-line error; the numbered actions name the same moves. Every entry of
// the registry runs them (registry_conformance_test.cpp).
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
      // Numbered actions: one per listed move, in range, each naming its move both ways.
      const auto actions = s.legal_actions();
      ASSERT_EQ(actions.size(), moves.size());
      for (std::size_t i = 0; i < actions.size(); ++i) {
        ASSERT_GE(actions[i], 0);
        ASSERT_LT(actions[i], s.num_distinct_actions());
        const auto text = s.action_to_string(actions[i]);
        ASSERT_TRUE(text) << text.error().message;
        EXPECT_EQ(*text, moves[i]);
        const auto back = s.string_to_action(moves[i]);
        ASSERT_TRUE(back) << moves[i] << ": " << back.error().message;
        EXPECT_EQ(*back, actions[i]) << moves[i];
      }
      const std::size_t pick = rng.below(moves.size());
      const std::string& m = moves[pick];
      // Played by its action, the move reaches the state its text does.
      auto by_action = s.clone();
      ASSERT_TRUE(by_action->apply_action(actions[pick]));
      auto copy = s.clone();
      ASSERT_TRUE(s.apply(m)) << "listed move " << m << " does not apply";
      // The clone is untouched and plays the same move to the same state.
      EXPECT_EQ(copy->legal_moves(), moves);
      ASSERT_TRUE(copy->apply(m));
      EXPECT_EQ(copy->hash(), s.hash());
      EXPECT_EQ(copy->to_string(), s.to_string());
      EXPECT_EQ(by_action->to_string(), s.to_string());
      ++plies;
    }
    EXPECT_EQ(s.returns().size(), static_cast<std::size_t>(g.num_players));
    // The game's bound on its length (where it states one) holds.
    if (s.max_game_length() > 0) {
      EXPECT_LE(plies, s.max_game_length());
    }
    auto late = s.apply("no-such-move");
    ASSERT_FALSE(late);
    EXPECT_EQ(late.error().message.find('\n'), std::string::npos) << late.error().message;
  }
  auto start = g.new_state("");
  ASSERT_TRUE(start);
  auto bad = (*start)->apply("no-such-move");
  ASSERT_FALSE(bad) << "a nonsense move applies";
  EXPECT_EQ(bad.error().message.find('\n'), std::string::npos) << bad.error().message;
  // Actions out of range are refused; a random playout from the start ends the game (or
  // reaches the cap) by legal moves.
  EXPECT_FALSE((*start)->apply_action(-1));
  EXPECT_FALSE((*start)->apply_action((*start)->num_distinct_actions()));
  const int plies = (*start)->play_random(seed, max_plies);
  EXPECT_GT(plies, 0);
  EXPECT_TRUE((*start)->is_terminal() || plies == max_plies);
  auto replay = g.new_state((*start)->to_string());
  ASSERT_TRUE(replay) << replay.error().message;
  EXPECT_EQ((*replay)->hash(), (*start)->hash());
}

}  // namespace kibitz::testing
