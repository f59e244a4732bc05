// The hand-written Hearts players: positions whose card follows from the rules of thumb
// (each asked of the rule bot and of the rollout policy), legality over random hands, that
// the rollout policy looks at no other hand, and that the rule bot beats random play.
#include <gtest/gtest.h>

#include "games/hearts/policy.hpp"
#include "unit/hearts/hearts_test_util.hpp"

namespace kibitz::hearts {
namespace {

using testing::card;
using testing::cards;
using testing::deal;
using testing::play_all;

// A hand without passing, played up to `seq`.
State policy_position(const Deal& d, std::string_view seq) {
  State s(d, PassDir::kNone);
  play_all(s, seq);
  return s;
}

// The rollout policy's own choice (no random cards).
Card policy_greedy(const State& s, PolicyKnobs knobs = {}) {
  knobs.epsilon = 0.0;
  Rng rng(1);
  return policy_play(s, rng, knobs);
}

// The rule bot and the rollout policy at the player to move.
void policy_expect_both(const State& s, Card want) {
  SCOPED_TRACE(s.to_string());
  EXPECT_EQ(rule_play(s.information_state(s.current_player())), want);
  EXPECT_EQ(policy_greedy(s), want);
}

// E wins the first trick with A♣; S is void in diamonds and holds Q♠.
Deal policy_deal_a() {
  return deal("2C 3C 4C 5C 2D 3D 4D 5D 2S 3S 2H 3H 4H",  //
              "AC 7C 8C 9C 6D 7D 8D 9D 4S 5S 5H 6H 7H",  //
              "TC JC QC KC 6C QS 6S 7S 8H 9H TH JH QH",  //
              "TD JD QD KD AD 8S 9S TS JS KS AS KH AH");
}

// N holds one club; W wins the first trick and holds Q♠ with four more spades.
Deal policy_deal_b() {
  return deal("2C 2D 3D 4D 5D 6D 2S 3S 2H 3H 4H 5H 6H",  //
              "3C 7C 8C KC 7D 8D 9D 4S 5S 6S 7H 8H 9H",  //
              "4C 5C 6C TC JC QC TD JD 7S 8S 9S TH JH",  //
              "9C AC QD KD AD TS JS QS KS AS QH KH AH");
}

TEST(HeartsPolicy, ThrowsTheQueenWhenVoidInTheLedSuit) {
  // E wins the first trick and leads a diamond; S has none.
  const State s = policy_position(policy_deal_a(), "2C AC 6C TD 6D");
  ASSERT_EQ(s.current_player(), 2);
  policy_expect_both(s, kQueenOfSpades);
}

TEST(HeartsPolicy, DucksWithTheHighestLowerCardUnderAHeart) {
  // W leads 9C, N (void) throws a heart; E holds 7C 8C KC: 8C stays under the 9.
  const State s = policy_position(policy_deal_b(), "2C 3C 4C AC 9C 6H");
  ASSERT_EQ(s.current_player(), 1);
  policy_expect_both(s, card("8C"));
}

TEST(HeartsPolicy, DoesNotLeadSpadesHoldingTheQueen) {
  const State s = policy_position(policy_deal_b(), "2C 3C 4C AC");
  ASSERT_EQ(s.current_player(), 3);
  const Card r = rule_play(s.information_state(3));
  const Card p = policy_greedy(s);
  EXPECT_NE(r.suit(), kSpades) << to_string(r);
  EXPECT_NE(p.suit(), kSpades) << to_string(p);
  // 9♣ has four of the eight clubs out above it; Q♦ would win (K♦ A♦ are ours).
  EXPECT_EQ(r, card("9C"));
  EXPECT_EQ(p, card("9C"));
}

TEST(HeartsPolicy, PlaysTheQueenUnderTheAceOfSpades) {
  // S wins the first trick with A♣ and leads A♠; W holds 9♠ T♠ J♠ Q♠ K♠.
  const Deal d = deal("2C 2D 3D 4D 5D 6D 2S 3S 2H 3H 4H 5H 6H",  //
                      "3C 7C 8C KC 7D 8D 9D 4S 5S 6S 7H 8H 9H",  //
                      "4C 5C 6C TC JC AC TD JD 7S 8S AS TH JH",  //
                      "9C QC QD KD AD TS JS QS KS 9S QH KH AH");
  const State s = policy_position(d, "2C 3C AC 9C AS");
  ASSERT_EQ(s.current_player(), 3);
  policy_expect_both(s, kQueenOfSpades);
  // Under a low spade the queen stays home.
  const State low = policy_position(d, "2C 3C AC 9C 8S");
  EXPECT_NE(rule_play(low.information_state(3)), kQueenOfSpades);
  EXPECT_NE(policy_greedy(low), kQueenOfSpades);
}

TEST(HeartsPolicy, WinsAFreeTrickLastButNeverWithTheQueen) {
  // Last to a clean club trick: win it with the highest club.
  const State s = policy_position(policy_deal_b(), "2C 3C 4C AC 9C 2D 7C");
  ASSERT_EQ(s.current_player(), 2);
  policy_expect_both(s, card("QC"));
  // S, last to a clean spade trick with 5♠ Q♠ K♠: K♠ takes it, never Q♠.
  const Deal d = deal("2C 3S 6S 2D 3D 4D 5D 6D 7D 2H 3H 4H 5H",  //
                      "3C 4S 7S 8S 8D 9D TD JD 6H 7H 8H 9H TH",  //
                      "4C 5C 6C 7C 5S QS KS QD KD AD JH QH KH",  //
                      "AC 8C 9C TC JC QC KC 2S 9S TS JS AS AH");
  const State q = policy_position(d, "2C 3C 4C AC 2S 3S 4S");
  ASSERT_EQ(q.current_player(), 2);
  policy_expect_both(q, card("KS"));
}

TEST(HeartsPolicy, PassesTheQueenWithoutEnoughSpadesToGuardIt) {
  const auto pass = [](std::string_view hand) {
    const auto o = Observation::deal(0, cards(hand), PassDir::kLeft, Options{});
    EXPECT_TRUE(o);
    return rule_pass(*o);
  };
  // Q♠ with one low spade goes, with A♠ (no guard) and the ace of hearts.
  EXPECT_EQ(pass("QS AS 3S AH 2H 4C 6C 8C TC 3D 5D 7D 9D"), cards("QS AS AH"));
  // Guarded by four lower spades it stays; the high hearts go.
  EXPECT_EQ(pass("QS 2S 3S 5S 7S AH KH 2H 4C 6C 8C 3D 5D"), cards("AH KH 8C"));
  // Nothing dangerous: a short diamond suit is voided, then the highest card.
  EXPECT_EQ(pass("2S 3S 4S 5S 2H 3H 4H 2C 3C 4C 9C KD 5D"), cards("KD 5D 9C"));
  // Always three cards of the hand.
  Rng rng(5);
  for (int i = 0; i < 200; ++i) {
    const Deal d = random_deal(rng);
    const auto o = Observation::deal(i % 4, d[i % 4], PassDir::kAcross, Options{});
    ASSERT_TRUE(o);
    for (const CardSet p : {rule_pass(*o), random_pass(*o, rng)}) {
      EXPECT_EQ(p.size(), 3);
      EXPECT_EQ(p - d[i % 4], CardSet{});
    }
  }
}

// W takes Q♠ and four hearts in the first four tricks (17 points, all of them); N holds
// 5♥ and A♥.
Deal policy_moon_deal() {
  return deal("2C 3C 4C 5C QS 6S 7S 8S 9S 3H 4H 5H AH",  //
              "6C 7C 8C 9C TC 2H 6H 7H 9H TH TS JS KS",  //
              "JC QC KC 2D 3D 4D 5D 6D 7D AS JH QH KH",  //
              "AC AD KD QD JD TD 9D 8D 8H 2S 3S 4S 5S");
}
constexpr std::string_view kPolicyMoonPlay = "2C 6C JC AC AD QS 7C 2D KD 3H 2H 3D QD 4H 6H 4D";

TEST(HeartsPolicy, MoonDefenceTakesAHeartTrickFromTheShooter) {
  const State s = policy_position(policy_moon_deal(), std::string(kPolicyMoonPlay) + " 8H");
  ASSERT_EQ(s.current_player(), 0);
  EXPECT_EQ(s.raw_points(3), 17);
  EXPECT_EQ(moon_threat(s, 0), 3);
  EXPECT_EQ(moon_threat(s, 3), -1);      // not a threat to itself
  EXPECT_EQ(moon_threat(s, 0, 18), -1);  // below the threshold
  // Without the defence N ducks with 5♥; with it A♥ takes the heart from W.
  policy_expect_both(s, card("AH"));
  PolicyKnobs off;
  off.block_shooter = false;
  EXPECT_EQ(policy_greedy(s, off), card("5H"));

  // Void in W's diamond lead: no heart onto the shooter's trick.
  const State d = policy_position(policy_moon_deal(), std::string(kPolicyMoonPlay) + " JD");
  ASSERT_EQ(d.current_player(), 0);
  EXPECT_NE(rule_play(d.information_state(0)).suit(), kHearts);
  EXPECT_NE(policy_greedy(d).suit(), kHearts);
  EXPECT_EQ(policy_greedy(d, off).suit(), kHearts);

  EXPECT_EQ(moon_threat(State(policy_moon_deal(), PassDir::kNone), 0), -1);  // no points yet
}

// The moon plan (shoot_play) at W, who holds the top spades and hearts.
Deal policy_deal_moon() {
  return deal("2C 5C 6C 7C 3D 4D 5D 2S 3S 4S 2H 3H 4H",  //
              "3C 8C 9C TC 6D 7D 8D 9D 5S 6S 7S 5H 6H",  //
              "4C JC QC KC TD JD QD KD 8S 9S TS 7H 8H",  //
              "AC AD 2D JS QS KS AS 9H TH JH QH KH AH");
}

Card shoot_greedy(const State& s) {
  PolicyKnobs knobs;
  knobs.epsilon = 0.0;
  Rng rng(1);
  return shoot_play(s, rng, knobs);
}

TEST(HeartsPolicy, ShooterLeadsSureWinnersHeartsFirst) {
  // W wins trick 1; hearts are not broken, so it leads from its longest suit of sure
  // winners (spades), not the lone A♦.
  State s = policy_position(policy_deal_moon(), "2C 3C 4C AC");
  EXPECT_EQ(shoot_greedy(s), card("AS"));
  // After A♠ K♠ Q♠ (hearts broken by the queen) the top heart.
  play_all(s, "AS 2S 5S 8S KS 3S 6S 9S QS 4S 7S TS");
  ASSERT_EQ(s.current_player(), 3);
  EXPECT_EQ(shoot_greedy(s), card("AH"));
}

TEST(HeartsPolicy, ShooterWinsPointTricksAndKeepsItsPointsWhenVoid) {
  // W has taken Q♠; S wins a diamond and leads 7♥: W (second to play) takes it with A♥,
  // where the normal policy, which must win too, plays low.
  State s = policy_position(policy_deal_moon(),
                            "2C 3C 4C AC AS 2S 5S 8S KS 3S 6S 9S QS 4S 7S TS 2D 3D 6D KD");
  ASSERT_EQ(s.current_player(), 2);
  State heart = s;
  play_all(heart, "7H");
  EXPECT_EQ(shoot_greedy(heart), card("AH"));
  EXPECT_EQ(policy_greedy(heart), card("9H"));
  // S leads J♣ and W has no club: it sheds its lowest card that is not a point (J♠), where
  // the normal policy throws the high A♦.
  play_all(s, "JC");
  EXPECT_EQ(shoot_greedy(s), card("JS"));
  EXPECT_EQ(policy_greedy(s), card("AD"));
}

TEST(HeartsPolicy, ShooterPlaysNormallyOnceAnotherSeatHasAPoint) {
  // S takes W's Q♠ on a club trick: the moon is gone for W.
  State s = policy_position(policy_deal_moon(), "2C 3C 4C AC 2D 3D 6D KD JC QS 5C 8C");
  EXPECT_FALSE(moon_alive(s, 3));
  EXPECT_TRUE(moon_alive(s, 2));
  play_all(s, "QC");
  ASSERT_EQ(s.current_player(), 3);
  EXPECT_EQ(shoot_greedy(s), policy_greedy(s));
}

TEST(HeartsPolicy, EveryPlayerPicksALegalCard) {
  Rng rng(11);
  PolicyKnobs noisy;
  noisy.epsilon = 0.5;
  Options variants;
  variants.jd_bonus = true;
  variants.no_points_first_trick = false;
  variants.must_break_hearts = false;
  int checked = 0;
  for (int hand = 0; hand < 60; ++hand) {
    State s(random_deal(rng), pass_dir_for_hand(hand), hand % 3 == 2 ? variants : Options{});
    while (!s.is_terminal()) {
      const int p = s.current_player();
      const CardSet legal = s.legal_set();
      const Observation o = s.information_state(p);
      const Card fast = policy_play(s, rng);
      ASSERT_TRUE(legal.contains(fast)) << to_string(fast) << "\n" << s.to_string();
      ASSERT_TRUE(legal.contains(policy_play(s, rng, noisy)));
      if (s.phase() == Phase::kPlay) {
        const Card r = rule_play(o);
        ASSERT_TRUE(legal.contains(r)) << to_string(r) << "\n" << s.to_string();
        ASSERT_TRUE(legal.contains(random_play(o, rng)));
        ++checked;
      }
      // Play on with a mix of the players so every kind of position comes up.
      const int who = static_cast<int>(rng.below(3));
      s.apply(who == 0 || s.phase() == Phase::kPass ? fast
              : who == 1                            ? rule_play(o)
                                                    : random_play(o, rng));
    }
  }
  EXPECT_EQ(checked, 60 * 52);
}

TEST(HeartsPolicy, RuleBotIsDeterministic) {
  Rng rng(21);
  for (int hand = 0; hand < 20; ++hand) {
    State s(random_deal(rng), PassDir::kNone);
    while (!s.is_terminal()) {
      const Observation o = s.information_state(s.current_player());
      const Card c = rule_play(o);
      const Observation again = s.information_state(s.current_player());
      ASSERT_EQ(rule_play(again), c);
      ASSERT_EQ(rule_play(o), c);
      s.apply(c);
    }
  }
}

TEST(HeartsPolicy, RolloutPolicyLooksAtNoOtherHand) {
  // The same public play and own hand with the other hands redrawn: the same card.
  Rng rng(31);
  for (int hand = 0; hand < 40; ++hand) {
    State s(random_deal(rng), PassDir::kNone);
    while (!s.is_terminal()) {
      const int p = s.current_player();
      const Card c = policy_greedy(s);
      for (int k = 0; k < 2; ++k) ASSERT_EQ(policy_greedy(s.sample_world(p, rng)), c);
      s.apply(c);
    }
  }
}

// One hand, duplicate-style: `rule_seat` plays the rule bot (from its own observation), the
// others pass and play uniformly at random. Returns the hand's scores.
std::array<int, kNumPlayers> policy_duplicate_hand(const Deal& d, PassDir dir, int rule_seat,
                                                   Rng& rng) {
  State s(d, dir);
  std::array<CardSet, kNumPlayers> picks{};
  while (!s.is_terminal()) {
    const int p = s.current_player();
    const CardSet legal = s.legal_set();
    if (s.phase() == Phase::kPass) {
      if (picks[p].empty()) {
        const Observation o = s.information_state(p);
        picks[p] = p == rule_seat ? rule_pass(o) : random_pass(o, rng);
      }
      s.apply((picks[p] - s.passed(p)).lowest());
    } else if (p == rule_seat) {
      s.apply(rule_play(s.information_state(p)));
    } else {
      CardSet rest = legal;
      for (auto i = rng.below(static_cast<std::uint64_t>(legal.size())); i > 0; --i)
        rest.pop_lowest();
      s.apply(rest.lowest());
    }
  }
  return s.hand_scores();
}

TEST(HeartsPolicy, RuleBotScoresFarBelowRandomPlayers) {
  double rule_points = 0.0;
  double random_points = 0.0;
  int hands = 0;
  for (std::uint64_t deal_seed = 0; deal_seed < 200; ++deal_seed) {
    Rng deal_rng(1000 + deal_seed);
    const Deal d = random_deal(deal_rng);
    const PassDir dir = pass_dir_for_hand(static_cast<int>(deal_seed));
    for (int seat = 0; seat < kNumPlayers; ++seat) {
      Rng rng(deal_seed * 4 + static_cast<std::uint64_t>(seat));
      const auto scores = policy_duplicate_hand(d, dir, seat, rng);
      for (int p = 0; p < kNumPlayers; ++p) (p == seat ? rule_points : random_points) += scores[p];
      ++hands;
    }
  }
  const double rule_mean = rule_points / hands;
  const double random_mean = random_points / (3.0 * hands);
  RecordProperty("rule_mean", std::to_string(rule_mean));
  RecordProperty("random_mean", std::to_string(random_mean));
  EXPECT_LT(rule_mean, random_mean - 3.0) << "rule " << rule_mean << ", random " << random_mean;
}

}  // namespace
}  // namespace kibitz::hearts
