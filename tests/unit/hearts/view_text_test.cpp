// A seat's view as text (hearts_game.hpp: view_text, parse_view_text): every view of random
// hands survives the round trip with what the seat knows intact, bad texts get one line, and
// the engine decides from a view (a pass of three cards, a legal card).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/rng.hpp"
#include "engine/any_engine.hpp"
#include "engine/hearts_engine.hpp"
#include "games/hearts/hearts_game.hpp"

namespace kibitz::hearts {
namespace {

void expect_same_view(const Observation& a, const Observation& b) {
  EXPECT_EQ(a.seat(), b.seat());
  EXPECT_EQ(a.hand(), b.hand());
  EXPECT_EQ(a.phase(), b.phase());
  EXPECT_EQ(a.legal_set(), b.legal_set());
  EXPECT_EQ(a.passed_out(), b.passed_out());
  EXPECT_EQ(a.received(), b.received());
  EXPECT_EQ(a.public_state().played(), b.public_state().played());
  EXPECT_EQ(a.public_state().scores_before(), b.public_state().scores_before());
  for (int p = 0; p < kNumPlayers; ++p) {
    EXPECT_EQ(a.excluded(p), b.excluded(p)) << p;
    EXPECT_EQ(a.known(p), b.known(p)) << p;
    EXPECT_EQ(a.hand_size(p), b.hand_size(p)) << p;
  }
}

TEST(HeartsView, EveryViewOfRandomHandsRoundTrips) {
  Rng rng(11);
  int views = 0;
  // Two hands of each passing direction (each view's plays are checked against an exact count
  // of the deals consistent with them, so views are not cheap under the sanitizer).
  for (int hand = 0; hand < 8; ++hand) {
    const auto dir = static_cast<PassDir>(hand % 4);
    State s(random_deal(rng), dir, {}, {hand, 0, 3 * hand, 26});
    while (true) {
      for (int seat = 0; seat < kNumPlayers; ++seat) {
        const Observation o = s.information_state(seat);
        // Mid-passing a seat's view has no pass yet (the pass is one event of three cards).
        if (s.phase() == Phase::kPass && !s.passed(seat).empty()) continue;
        const std::string text = view_text(o);
        auto back = parse_view_text(text);
        ASSERT_TRUE(back) << text << ": " << back.error().message;
        EXPECT_EQ(view_text(*back), text);
        expect_same_view(o, *back);
        ++views;
      }
      if (s.is_terminal()) break;
      MoveList<State> moves;
      s.legal_moves(moves);
      s.apply(moves[rng.below(moves.size())]);
    }
  }
  EXPECT_GT(views, 8 * 4 * 52);
}

TEST(HeartsView, BadTextsGetOneLine) {
  const std::string hand = "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC";
  for (const std::string& bad : std::vector<std::string>{
           "", "view", "view X left hand " + hand, "view N sideways hand " + hand,
           "view N left hand 2C 3C", "view N left hand " + hand + " plays N:2D",
           "view N left hand " + hand + " plays E:2C", "view N left hand " + hand + " scores 1 2",
           "view N left hand " + hand + " passed 2C 3C 4C received 2C 3D 4D",
           "view N none hand " + hand + " plays N2C", "view N none hand " + hand + " extra"}) {
    auto v = parse_view_text(bad);
    ASSERT_FALSE(v) << bad;
    EXPECT_EQ(v.error().message.find('\n'), std::string::npos);
  }
  // North leads 2C and East discards: East is void in clubs (the queen is not there).
  auto v =
      parse_view_text("view N none hand 2C 3C 4C 5C 6C 7C 8C 9C TC JC 2D 3D 4D plays N:2C E:5D");
  ASSERT_TRUE(v) << v.error().message;
  EXPECT_TRUE(v->excluded(1).contains(Card(kClubs, 10)));
  EXPECT_FALSE(v->excluded(2).contains(Card(kClubs, 10)));
}

TEST(HeartsView, TheEngineDecidesFromAView) {
  for (const char* bot : {"search", "rule", "random"}) {
    SCOPED_TRACE(bot);
    engine::HeartsSetup setup;
    setup.bot = bot;
    setup.search.worlds = 16;
    auto e = engine::make_hearts_any_engine(setup);
    ASSERT_TRUE(e);
    Rng rng(5);
    State s(random_deal(rng), PassDir::kLeft);
    // The pass: one move of three of the hand's cards.
    ASSERT_TRUE((*e)->set_position(view_text(s.information_state(2))));
    auto pass = (*e)->think({});
    ASSERT_TRUE(pass);
    auto cards = parse_cards(pass->move);
    ASSERT_TRUE(cards) << pass->move;
    EXPECT_EQ(cards->size(), 3);
    EXPECT_EQ((*cards - s.hand(2)).size(), 0);
    // After the passing, the seat to play gets a legal card; the others have no move.
    MoveList<State> moves;
    while (s.phase() == Phase::kPass) {
      moves.clear();
      s.legal_moves(moves);
      s.apply(moves[0]);
    }
    const int seat = s.current_player();
    ASSERT_TRUE((*e)->set_position(view_text(s.information_state(seat))));
    auto card = (*e)->think({});
    ASSERT_TRUE(card);
    auto c = parse_card(card->move);
    ASSERT_TRUE(c);
    EXPECT_TRUE(s.is_legal(*c));
    ASSERT_TRUE((*e)->set_position(view_text(s.information_state((seat + 1) % 4))));
    EXPECT_FALSE((*e)->think({}));
  }
  engine::HeartsSetup unknown;
  unknown.bot = "oracle";
  EXPECT_FALSE(engine::make_hearts_any_engine(unknown));
}

}  // namespace
}  // namespace kibitz::hearts
