// The type-erased registry: games are found by name and play through AnyState.
#include "games/registry.hpp"

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

  // A colour prefix plays out of turn (handicap stones as moves); the text keeps it.
  auto two = go->new_state("9 B:e5 B:c3 e7");
  ASSERT_TRUE(two) << two.error().message;
  EXPECT_EQ((*two)->to_string(), "9 komi 7.5 E5 B:C3 E7");
  EXPECT_EQ((*two)->current_player(), 0);  // black, after white's E7
  auto back = go->new_state((*two)->to_string());
  ASSERT_TRUE(back);
  EXPECT_EQ((*back)->hash(), (*two)->hash());
  EXPECT_FALSE(go->new_state("9 X:e5"));
  EXPECT_FALSE(go->new_state("9 e5 W:e5"));  // occupied, whoever plays it

  EXPECT_FALSE(go->new_state("4"));
  EXPECT_FALSE(go->new_state("9 komi"));
  auto bad = go->new_state("9 e5 z99");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("move 2"), std::string::npos) << bad.error().message;
}

// The first deal of the shared deal file (deals_10000_v1.tsv), North's hand first.
constexpr const char* kDeal =
    "2C 3C 4C 7C 3D 7D 9D QD TH JH QH 7S KS 9C 2D 4D 6D KD 3H 5H 9H AH 5S 9S JS AS "
    "5C 6C TC QC 8D AD 2H 4H 8H 4S 6S TS QS 8C JC KC AC 5D TD JD 6H 7H KH 2S 3S 8S";

TEST(Registry, BuiltinHeartsPlaysThroughAnyState) {
  const GameEntry* hearts = builtin_registry().find("hearts");
  ASSERT_NE(hearts, nullptr);
  EXPECT_EQ(hearts->num_players, 4);

  // No passing: North holds the two of clubs and must lead it; East follows in clubs.
  auto state = hearts->new_state(std::string("none ") + kDeal);
  ASSERT_TRUE(state) << state.error().message;
  auto& s = **state;
  EXPECT_EQ(s.current_player(), 0);
  EXPECT_EQ(s.legal_moves(), std::vector<std::string>{"2C"});
  auto wrong = s.apply("3C");
  ASSERT_FALSE(wrong);
  EXPECT_NE(wrong.error().message.find("not legal"), std::string::npos) << wrong.error().message;
  ASSERT_TRUE(s.apply("2C"));
  EXPECT_EQ(s.current_player(), 1);
  EXPECT_EQ(s.legal_moves(), (std::vector<std::string>{"9C"}));  // East's only club
  ASSERT_TRUE(s.apply("9C"));
  // The text: the direction, each hand in card order (clubs, diamonds, spades, hearts), the
  // cards played; it reads back to the same state.
  EXPECT_TRUE(s.to_string().starts_with("none 2C 3C 4C 7C 3D 7D 9D QD 7S KS TH JH QH 9C "))
      << s.to_string();
  EXPECT_TRUE(s.to_string().ends_with(" 2C 9C")) << s.to_string();
  auto again = hearts->new_state(s.to_string());
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ((*again)->hash(), s.hash());

  // Passing left: each seat picks three of its own cards, North first.
  auto passing = hearts->new_state(std::string("left ") + kDeal);
  ASSERT_TRUE(passing);
  EXPECT_EQ((*passing)->legal_moves().size(), 13u);
  ASSERT_FALSE((*passing)->apply("9C"));  // East's card, not North's
  for (const char* c : {"QD", "KS", "QH"}) ASSERT_TRUE((*passing)->apply(c)) << c;
  EXPECT_EQ((*passing)->current_player(), 1);

  // A drawn deal and the default start read back from their text.
  for (const char* text : {"", "across seed 42"}) {
    auto d = hearts->new_state(text);
    ASSERT_TRUE(d) << text;
    auto back = hearts->new_state((*d)->to_string());
    ASSERT_TRUE(back) << (*d)->to_string();
    EXPECT_EQ((*back)->hash(), (*d)->hash());
  }
  for (const char* bad :
       {"left 2C 3C", "seed", "seed x", "left 2C 2C 4C 7C 3D 7D 9D QD TH JH QH 7S KS"}) {
    auto r = hearts->new_state(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(r.error().message.find('\n'), std::string::npos);
  }
  auto dup = hearts->new_state(std::string("none 3C ") + std::string(kDeal).substr(3));
  ASSERT_FALSE(dup);
  EXPECT_NE(dup.error().message.find("dealt twice"), std::string::npos) << dup.error().message;
}

TEST(Registry, GameKindRefusesWhatTheGameDoesNotTake) {
  const Registry& r = builtin_registry();
  match::GameSettings s;
  EXPECT_EQ(r.game_kind("checkers", s).error().message,
            "unknown game 'checkers' (known: chess, gomoku, go, hearts, diplomacy)");
  s.board_size = 9;
  EXPECT_EQ(r.game_kind("hearts", s).error().message, "hearts has no --board-size or --rule");
  EXPECT_TRUE(r.game_kind("go", s));
  s = {};
  s.komi = 5.5;
  EXPECT_EQ(r.game_kind("gomoku", s).error().message, "gomoku has no --komi (only Go has)");
  s = {};
  s.max_year = 1910;
  EXPECT_TRUE(r.game_kind("diplomacy", s));
  EXPECT_EQ(r.game_kind("go", s).error().message, "go has no --max-year (only Diplomacy has)");
}

TEST(Registry, AddReplacesAnEntryOfTheSameName) {
  Registry r;
  const auto entry = [](std::string name, std::string summary) {
    GameEntry e;
    e.name = std::move(name);
    e.summary = std::move(summary);
    return e;
  };
  r.add(entry("x", "first"));
  r.add(entry("y", "other"));
  r.add(entry("x", "second"));
  ASSERT_EQ(r.games().size(), 2u);
  EXPECT_EQ(r.find("x")->summary, "second");
}

}  // namespace
}  // namespace kibitz
