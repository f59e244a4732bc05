// Hearts rules: hand-made cases with answers worked out from the rules, and every legal-move
// set and score of 244 hands played by OpenSpiel's hearts (external suite, skipped when absent).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "games/hearts/state.hpp"
#include "support/suites.hpp"
#include "unit/hearts/hearts_test_util.hpp"

namespace kibitz::hearts {
namespace {

using testing::card;
using testing::cards;
using testing::deal;
using testing::play_all;

// One suit per seat: N clubs, E diamonds, S spades, W hearts.
Deal suits_deal() {
  return {CardSet::suit(kClubs), CardSet::suit(kDiamonds), CardSet::suit(kSpades),
          CardSet::suit(kHearts)};
}

TEST(HeartsCards, TextRoundTripsAndErrorsNameTheProblem) {
  for (const Card c : CardSet::deck()) EXPECT_EQ(*parse_card(to_string(c)), c);
  EXPECT_EQ(*parse_card("10h"), Card(kHearts, 8));
  EXPECT_EQ(*parse_card("Q\xE2\x99\xA0"), kQueenOfSpades);     // Q♠
  EXPECT_EQ(*parse_card("q\xE2\x99\xA5"), Card(kHearts, 10));  // Q♥
  EXPECT_FALSE(parse_card("1S"));
  EXPECT_NE(parse_card("QX").error().message.find("suit"), std::string::npos);
  EXPECT_NE(parse_card("ZS").error().message.find("rank"), std::string::npos);
  EXPECT_NE(parse_cards("QS 2C qs").error().message.find("twice"), std::string::npos);
  EXPECT_EQ(cards("2C, 3C  AH").size(), 3);
  EXPECT_EQ(to_string(cards("AH 2C QS")), "2C QS AH");
  EXPECT_EQ(to_pretty(cards("AS QS 4S KH 2C")), "S: A Q 4  H: K  D: -  C: 2");
}

TEST(HeartsRules, PassingMovesThreeCardsInTheRightDirection) {
  Rng rng(3);
  for (const PassDir dir : {PassDir::kLeft, PassDir::kRight, PassDir::kAcross}) {
    const Deal d = random_deal(rng);
    State s(d, dir);
    ASSERT_EQ(s.phase(), Phase::kPass);
    std::array<CardSet, 4> picks{};
    for (int i = 0; i < 12; ++i) {
      const int p = s.current_player();
      EXPECT_EQ(p, i / 3);
      const Card c = s.hand(p).highest();
      picks[p].add(c);
      s.apply(c);
    }
    ASSERT_EQ(s.phase(), Phase::kPlay);
    for (int p = 0; p < 4; ++p) {
      const int to = pass_target(p, dir);
      EXPECT_EQ(s.hand(to), (d[to] - picks[to]) | picks[p]);
      EXPECT_EQ(s.received(to), picks[p]);
      EXPECT_EQ(s.passed(p), picks[p]);
    }
    EXPECT_TRUE(s.hand(s.current_player()).contains(kTwoOfClubs));
  }
  EXPECT_EQ(pass_target(0, PassDir::kLeft), 1);
  EXPECT_EQ(pass_target(0, PassDir::kRight), 3);
  EXPECT_EQ(pass_target(1, PassDir::kAcross), 3);
  EXPECT_EQ(pass_dir_for_hand(5), PassDir::kRight);
}

TEST(HeartsRules, FirstTrickAllowsPointsOnlyToAHandOfNothingElse) {
  State s(suits_deal(), PassDir::kNone);
  EXPECT_EQ(s.current_player(), 0);
  EXPECT_EQ(s.legal_set(), CardSet::of(kTwoOfClubs));  // 2C leads
  s.apply(kTwoOfClubs);
  EXPECT_EQ(s.legal_set(), CardSet::suit(kDiamonds));  // E cannot follow: any diamond
  s.apply(card("AD"));
  // S holds only spades: everything but the queen (no points on the first trick).
  EXPECT_EQ(s.legal_set(), CardSet::suit(kSpades) - CardSet::of(kQueenOfSpades));
  s.apply(card("KS"));
  // W holds only hearts: nothing else to play, so hearts are allowed.
  EXPECT_EQ(s.legal_set(), kHeartsSet);
  EXPECT_FALSE(s.hearts_broken());
  s.apply(card("2H"));
  EXPECT_TRUE(s.hearts_broken());
  // Clubs were led and only N followed: N takes the trick (and the heart) and leads again.
  EXPECT_EQ(s.current_player(), 0);
  EXPECT_EQ(s.raw_points(0), 1);
  EXPECT_EQ(s.tricks_won(0), 1);
  EXPECT_EQ(s.legal_set(), CardSet::suit(kClubs) - CardSet::of(kTwoOfClubs));
}

TEST(HeartsRules, HeartsCannotBeLedUntilBrokenUnlessTheHandHasNothingElse) {
  // N: clubs 2-9 and hearts; the hearts stay unled while N has clubs.
  const Deal d =
      deal("2C 3C 4C 5C 6C 7C 8C 9C 2H 3H 4H 5H 6H", "TC JC QC KC 2D 3D 4D 5D 6D 7D 8D 9D TD",
           "AC JD QD KD AD 2S 3S 4S 5S 6S 7S 8S 9S", "TS JS QS KS AS 7H 8H 9H TH JH QH KH AH");
  State s(d, PassDir::kNone);
  play_all(s, "2C TC AC TS");  // S wins with AC
  EXPECT_EQ(s.current_player(), 2);
  EXPECT_EQ(s.legal_set(), s.hand(2) - kHeartsSet);  // S has no hearts anyway
  play_all(s, "2S JS 3C 3D");                        // W wins with JS, nothing broken
  EXPECT_EQ(s.current_player(), 3);
  EXPECT_FALSE(s.hearts_broken());
  EXPECT_EQ(s.legal_set(), cards("QS KS AS"));  // W: spades only, hearts not yet
  play_all(s, "QS 4C 4D 3S");                   // Q♠ breaks hearts; W takes its own queen
  EXPECT_TRUE(s.hearts_broken());
  EXPECT_EQ(s.raw_points(3), 13);
  EXPECT_EQ(s.legal_set(), cards("KS AS 7H 8H 9H TH JH QH KH AH"));
}

TEST(HeartsRules, QueenOfSpadesBreaksHeartsOnlyWhenTheOptionSaysSo) {
  const Deal d =
      deal("2C 3C 4C 5C 6C 7C 8C 9C 2H 3H 4H 5H 6H", "TC JC QC KC 2D 3D 4D 5D 6D 7D 8D 9D TD",
           "AC JD QD KD AD 2S 3S 4S 5S 6S 7S 8S 9S", "TS JS QS KS AS 7H 8H 9H TH JH QH KH AH");
  State s(d, PassDir::kNone, Options{.qs_breaks_hearts = false});
  play_all(s, "2C TC AC TS 2S JS 3C 3D QS 4C 4D 3S");
  EXPECT_FALSE(s.hearts_broken());
  EXPECT_EQ(s.legal_set(), cards("KS AS"));
}

TEST(HeartsRules, AHandOfOnlyHeartsMayLeadThemBeforeTheyAreBroken) {
  // W ends up holding only hearts while they are unbroken.
  const Deal d =
      deal("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC", "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
           "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS", "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH");
  State s(d, PassDir::kNone, Options{.no_points_first_trick = false});
  play_all(s, "2C AD AS AH");  // hearts break on the first trick under this option
  EXPECT_TRUE(s.hearts_broken());
  State t(d, PassDir::kNone);
  play_all(t, "2C AD AS 2H");
  EXPECT_EQ(t.current_player(), 0);
}

TEST(HeartsRules, ScoresTheMoonTheJackOfDiamondsAndTheMinusVariant) {
  // E holds every club: it leads 2C, wins every trick with clubs from the top while the
  // others throw their point cards first, and takes every point (and J♦).
  const Deal d =
      deal("3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH QS", "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
           "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD", "2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS 2H");
  for (const auto& [opts, expected] : std::vector<std::pair<Options, std::array<int, 4>>>{
           {Options{}, {26, 0, 26, 26}},
           {Options{.moon_minus = true}, {0, -26, 0, 0}},
           {Options{.jd_bonus = true}, {26, -10, 26, 26}}}) {
    State s(d, PassDir::kNone, opts);
    Rng rng(1);
    // E leads 2C and wins every club trick; the others discard. Play greedily so that E
    // takes every point: E plays clubs from the top, others discard points first.
    while (!s.is_terminal()) {
      const CardSet legal = s.legal_set();
      const int p = s.current_player();
      Card c = legal.highest();
      if (p == 1) c = legal.has(kClubs) ? legal.in_suit(kClubs).highest() : legal.highest();
      if (p != 1) {
        const CardSet pts = legal & kPointCards;
        c = pts.empty() ? (legal.contains(kJackOfDiamonds) ? kJackOfDiamonds : legal.lowest())
                        : pts.highest();
      }
      s.apply(c);
    }
    EXPECT_EQ(s.taken(1) & kPointCards, kPointCards);
    EXPECT_EQ(s.hand_scores(), expected);
    const auto r = s.returns();
    for (int p = 0; p < 4; ++p) EXPECT_EQ(r[p], -expected[p]);
  }
}

TEST(HeartsRules, HashIsIncrementalAndSeesTheTrickOnTheTable) {
  Rng rng(11);
  for (int game = 0; game < 20; ++game) {
    State s(random_deal(rng), pass_dir_for_hand(game));
    while (!s.is_terminal()) {
      ASSERT_EQ(s.hash(), s.compute_hash());
      MoveList<State> moves;
      s.legal_moves(moves);
      ASSERT_FALSE(moves.empty());
      s.apply(moves[rng.below(moves.size())]);
    }
    ASSERT_EQ(s.hash(), s.compute_hash());
    const auto sc = s.hand_scores();
    int total = 0;
    for (int v : sc) total += v;
    EXPECT_TRUE(total == 26 || total == 78) << total;
  }
}

// OpenSpiel's hands: same deal, same passes and plays; every legal set and the final points
// must agree.
TEST(HeartsRules, AgreeWithOpenSpielOn244Hands) {
  KIBITZ_REQUIRE_SUITE(path, "hearts/openspiel_hearts_vectors.jsonl");
  std::ifstream in(path);
  std::string line;
  int hands = 0, moons = 0;
  while (std::getline(in, line)) {
    const auto j = nlohmann::json::parse(line);
    SCOPED_TRACE("hand " + std::to_string(j["id"].get<int>()));
    Deal d{};
    for (int p = 0; p < 4; ++p)
      for (const auto& c : j["hands"][p]) d[p].add(*parse_card(c.get<std::string>()));
    ASSERT_TRUE(check_deal(d));
    State s(d, *parse_pass_dir(j["pass_dir"].get<std::string>()));
    for (const auto& step : j["steps"]) {
      ASSERT_EQ(s.current_player(), step["p"].get<int>());
      ASSERT_EQ(s.phase() == Phase::kPass, step["ph"].get<std::string>() == "pass");
      CardSet legal;
      for (const auto& c : step["legal"]) legal.add(*parse_card(c.get<std::string>()));
      ASSERT_EQ(s.legal_set(), legal) << s.to_string();
      s.apply(*parse_card(step["card"].get<std::string>()));
    }
    ASSERT_TRUE(s.is_terminal());
    const auto pts = s.hand_scores();
    for (int p = 0; p < 4; ++p) EXPECT_EQ(pts[p], j["points"][p].get<int>());
    moons += pts[0] + pts[1] + pts[2] + pts[3] == 78;
    ++hands;
  }
  EXPECT_EQ(hands, 244);
  EXPECT_EQ(moons, 45);
}

}  // namespace
}  // namespace kibitz::hearts
