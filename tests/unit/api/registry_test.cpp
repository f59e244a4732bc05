// The type-erased registry: games are found by name and play through AnyState.
#include "api/registry.hpp"

#include <gtest/gtest.h>

namespace kibitz {
namespace {

TEST(Registry, BuiltinChessPlaysThroughAnyState) {
  Registry registry;
  register_builtin_games(registry);
  const GameEntry* chess = registry.find("chess");
  ASSERT_NE(chess, nullptr);
  EXPECT_EQ(chess->num_players, 2);
  EXPECT_EQ(registry.find("tiddlywinks"), nullptr);

  auto state = chess->new_state("");
  ASSERT_TRUE(state) << state.error().message;
  auto& s = **state;
  EXPECT_EQ(s.legal_moves().size(), 20u);
  EXPECT_EQ(s.current_player(), 0);
  ASSERT_TRUE(s.apply("e2e4"));  // UCI
  ASSERT_TRUE(s.apply("e5"));    // SAN
  EXPECT_EQ(s.to_string(), "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2");
  auto bad = s.apply("e4e5");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("not legal"), std::string::npos) << bad.error().message;
  EXPECT_FALSE(s.apply("Qxf9"));

  auto copy = s.clone();
  ASSERT_TRUE(copy->apply("Qh5"));
  EXPECT_NE(copy->hash(), s.hash());
  for (const char* m : {"Nc6", "Bc4", "Nf6", "Qxf7#"}) ASSERT_TRUE(copy->apply(m)) << m;
  EXPECT_TRUE(copy->is_terminal());
  EXPECT_EQ(copy->returns(), (std::vector<double>{1.0, -1.0}));

  auto bad_fen = chess->new_state("not a fen");
  ASSERT_FALSE(bad_fen);
  EXPECT_NE(bad_fen.error().message.find("FEN"), std::string::npos);
}

TEST(Registry, BuiltinGoPlaysThroughAnyState) {
  Registry registry;
  register_builtin_games(registry);
  const GameEntry* go = registry.find("go");
  ASSERT_NE(go, nullptr);
  auto state = go->new_state("9 komi 6.5");
  ASSERT_TRUE(state) << state.error().message;
  auto& s = **state;
  EXPECT_EQ(s.legal_moves().size(), 82u);  // 81 points and pass
  // Black takes white's A1 stone, white passes.
  for (const char* m : {"b1", "a1", "a2", "pass"}) ASSERT_TRUE(s.apply(m)) << m;
  EXPECT_EQ(s.to_string(), "9 komi 6.5 B1 A1 A2 pass");
  auto occupied = s.apply("A2");
  ASSERT_FALSE(occupied);
  EXPECT_NE(occupied.error().message.find("occupied"), std::string::npos);
  ASSERT_TRUE(s.apply("pass"));  // two passes in a row end the game
  EXPECT_TRUE(s.is_terminal());
  EXPECT_FALSE(s.apply("e5"));
  // Black: B1, A2 and the whole empty board it alone touches; white has no stone left.
  EXPECT_EQ(s.returns(), (std::vector<double>{1.0, -1.0}));

  EXPECT_FALSE(go->new_state("4"));
  EXPECT_FALSE(go->new_state("9 komi"));
  auto bad = go->new_state("9 e5 z99");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("move 2"), std::string::npos) << bad.error().message;
}

TEST(Registry, AddReplacesAnEntryOfTheSameName) {
  Registry r;
  r.add({"x", "first", 2, nullptr});
  r.add({"y", "other", 3, nullptr});
  r.add({"x", "second", 2, nullptr});
  ASSERT_EQ(r.games().size(), 2u);
  EXPECT_EQ(r.find("x")->summary, "second");
}

}  // namespace
}  // namespace kibitz
