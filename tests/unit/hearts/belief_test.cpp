// Beliefs: the exact count, probabilities and sampler of belief.hpp against brute force
// (every assignment of the unseen cards, kept when the whole hand replays legally from it),
// and Observation built from events against the one built from the full state.
#include <gtest/gtest.h>

#include <map>

#include "games/hearts/belief.hpp"
#include "unit/hearts/hearts_test_util.hpp"

namespace kibitz::hearts {
namespace {

// Plays a random hand up to `plays` cards, with a bias to throw off-suit cards high so
// voids and points appear.
State random_state(std::uint64_t seed, int plays, PassDir dir) {
  Rng rng(seed);
  State s(random_deal(rng), dir);
  while (!s.is_terminal() && (s.phase() == Phase::kPass || s.num_plays() < plays)) {
    const CardSet legal = s.legal_set();
    MoveList<State> moves;
    s.legal_moves(moves);
    s.apply(rng.below(3) == 0 ? legal.highest() : moves[rng.below(moves.size())]);
  }
  return s;
}

// Whether the hand so far replays legally when the other seats hold `hands` now.
bool replays(const State& s, const Deal& now) {
  Deal start = now;
  for (int i = 0; i < s.num_plays(); ++i) start[s.play_seat(i)].add(s.play(i));
  State r(start, PassDir::kNone, s.options());
  for (int i = 0; i < s.num_plays(); ++i) {
    if (r.current_player() != s.play_seat(i) || !r.is_legal(s.play(i))) return false;
    r.apply(s.play(i));
  }
  return true;
}

// Every assignment of `cards` to the seats in `seats` with the given sizes.
void assign(std::vector<Card>& cards, std::size_t i, const std::array<int, 3>& seats,
            std::array<int, 3>& room, Deal& d, const std::function<void(const Deal&)>& f) {
  if (i == cards.size()) {
    f(d);
    return;
  }
  for (int k = 0; k < 3; ++k) {
    if (room[k] == 0) continue;
    --room[k];
    d[seats[k]].add(cards[i]);
    assign(cards, i + 1, seats, room, d, f);
    d[seats[k]].remove(cards[i]);
    ++room[k];
  }
}

struct Brute {
  std::uint64_t count = 0;
  std::map<std::pair<int, int>, std::uint64_t> holds;  // (seat, card) -> deals
};

Brute brute_force(const State& s, int me) {
  const Observation o = s.information_state(me);
  std::array<int, 3> seats{}, room{};
  int k = 0;
  for (int p = 0; p < 4; ++p)
    if (p != me) {
      seats[k] = p;
      room[k] = s.hand(p).size() - o.known(p).size();
      ++k;
    }
  std::vector<Card> cards;
  for (const Card c : o.unseen()) cards.push_back(c);
  Deal d{};
  d[me] = s.hand(me);
  for (int p = 0; p < 4; ++p)
    if (p != me) d[p] = o.known(p);
  Brute b;
  assign(cards, 0, seats, room, d, [&](const Deal& w) {
    if (!replays(s, w)) return;
    ++b.count;
    for (int p = 0; p < 4; ++p)
      for (const Card c : w[p]) ++b.holds[{p, c.index()}];
  });
  return b;
}

TEST(HeartsBelief, CountsAndProbabilitiesEqualBruteForce) {
  int checked = 0;
  for (std::uint64_t seed = 1; seed <= 16; ++seed) {
    const PassDir dir = seed % 2 ? PassDir::kNone : PassDir::kLeft;
    const State s = random_state(seed, 35 + static_cast<int>(seed % 7), dir);
    for (int me = 0; me < 4; ++me) {
      SCOPED_TRACE(::testing::Message() << "seed " << seed << " seat " << me << "\n"
                                        << s.to_string());
      const Belief b(s.information_state(me));
      const Brute bf = brute_force(s, me);
      ASSERT_GT(bf.count, 0u);  // the true deal is one of them
      ASSERT_EQ(b.count(), bf.count);
      for (int p = 0; p < 4; ++p)
        for (const Card c : CardSet::deck() - s.played()) {
          const auto it = bf.holds.find({p, c.index()});
          const double want = it == bf.holds.end() ? 0.0 : double(it->second) / double(bf.count);
          EXPECT_NEAR(b.probability(p, c), want, 1e-9) << "seat " << p << " " << to_string(c);
        }
      ++checked;
    }
  }
  EXPECT_EQ(checked, 64);
}

TEST(HeartsBelief, EnumerationListsEveryConsistentDealOnce) {
  for (std::uint64_t seed = 30; seed < 36; ++seed) {
    const State s = random_state(seed, 36, PassDir::kAcross);
    const Observation o = s.information_state(1);
    const Belief b(o);
    std::vector<Deal> all;
    ASSERT_TRUE(b.enumerate(1'000'000, all));
    ASSERT_EQ(all.size(), b.count());
    std::set<std::array<std::uint64_t, 4>> seen;
    bool truth = false;
    for (const Deal& d : all) {
      seen.insert({d[0].bits(), d[1].bits(), d[2].bits(), d[3].bits()});
      EXPECT_TRUE(replays(s, d));
      truth |= d == Deal{s.hand(0), s.hand(1), s.hand(2), s.hand(3)};
    }
    EXPECT_EQ(seen.size(), all.size());
    EXPECT_TRUE(truth);
    std::vector<Deal> none;
    EXPECT_FALSE(b.enumerate(b.count() - 1, none));
    EXPECT_TRUE(none.empty());
  }
}

TEST(HeartsBelief, SamplesAreConsistentAndUniform) {
  const State s = random_state(7, 24, PassDir::kRight);
  for (int me = 0; me < 4; ++me) {
    const Observation o = s.information_state(me);
    const Belief b(o);
    Rng rng(5);
    constexpr int kSamples = 20000;
    std::array<std::array<int, 64>, 4> freq{};
    for (int i = 0; i < kSamples; ++i) {
      const Deal d = b.sample(rng);
      ASSERT_TRUE(replays(s, d));
      ASSERT_EQ(d[me], s.hand(me));
      for (int p = 0; p < 4; ++p) {
        ASSERT_EQ(d[p].size(), s.hand(p).size());
        ASSERT_TRUE((d[p] & o.excluded(p)).empty()) << "a shown void was sampled";
        ASSERT_EQ(d[p] & o.known(p), o.known(p)) << "a passed card moved";
        for (const Card c : d[p]) ++freq[p][c.index()];
      }
    }
    // Frequencies within 4 standard errors of the exact probabilities.
    for (int p = 0; p < 4; ++p)
      for (const Card c : o.unseen()) {
        const double q = b.probability(p, c);
        EXPECT_NEAR(freq[p][c.index()] / double(kSamples), q,
                    4 * std::sqrt(q * (1 - q) / kSamples) + 1e-9);
      }
  }
}

TEST(HeartsBelief, PassedCardsStayWithTheSeatTheyWerePassedTo) {
  Rng rng(9);
  State s(random_deal(rng), PassDir::kLeft);
  for (int i = 0; i < 12; ++i) s.apply(s.hand(s.current_player()).highest());
  const Observation o = s.information_state(2);
  EXPECT_EQ(o.known(3), s.passed(2));
  EXPECT_EQ(o.received(), s.passed(1));
  const Belief b(o);
  for (const Card c : s.passed(2)) EXPECT_EQ(b.probability(3, c), 1.0);
  // 39 cards, three of them placed: 36! / (13! 13! 10!) ways for the rest.
  EXPECT_EQ(b.count(), 2'643'695'814'513'600ull);
  EXPECT_NEAR(b.probability(0, s.hand(1).lowest()) + b.probability(1, s.hand(1).lowest()) +
                  b.probability(3, s.hand(1).lowest()),
              1.0, 1e-12);
}

TEST(HeartsBelief, VoidProbabilityMatchesCounting) {
  for (std::uint64_t seed = 40; seed < 46; ++seed) {
    const State s = random_state(seed, 38, PassDir::kNone);
    const Belief b(s.information_state(0));
    for (int p = 1; p < 4; ++p)
      for (int su = 0; su < 4; ++su) {
        std::vector<Deal> all;
        ASSERT_TRUE(b.enumerate(10'000'000, all));
        std::uint64_t voids = 0;
        for (const Deal& d : all) voids += !d[p].has(static_cast<Suit>(su));
        EXPECT_NEAR(b.void_probability(p, static_cast<Suit>(su)),
                    double(voids) / double(all.size()), 1e-12);
      }
  }
}

// An Observation fed event by event equals the one computed from the full state, and
// inconsistent events are refused with a reason.
TEST(HeartsObservation, EventsGiveTheSameKnowledgeAsTheState) {
  for (std::uint64_t seed = 50; seed < 58; ++seed) {
    Rng rng(seed);
    const PassDir dir = pass_dir_for_hand(static_cast<int>(seed));
    State s(random_deal(rng), dir);
    const int me = static_cast<int>(seed % 4);
    auto o = Observation::deal(me, s.hand(me), dir, s.options());
    ASSERT_TRUE(o);
    while (s.phase() == Phase::kPass) {
      MoveList<State> moves;
      s.legal_moves(moves);
      s.apply(moves[rng.below(moves.size())]);
    }
    if (dir != PassDir::kNone) {
      ASSERT_TRUE(o->pass(s.passed(me)));
      ASSERT_TRUE(o->receive(s.received(me)));
    }
    while (!s.is_terminal()) {
      const int p = s.current_player();
      if (p == me) {
        ASSERT_EQ(o->legal_set(), s.legal_set());
      }
      const CardSet legal = s.legal_set();
      const Card c = rng.below(2) ? legal.highest() : legal.lowest();
      s.apply(c);
      ASSERT_TRUE(o->play(p, c)) << o->play(p, c).error().message;
      const Observation want = s.information_state(me);
      for (int q = 0; q < 4; ++q) {
        ASSERT_EQ(o->excluded(q), want.excluded(q));
        ASSERT_EQ(o->known(q), want.known(q));
        ASSERT_EQ(o->hand_size(q), s.hand(q).size());
      }
      ASSERT_EQ(o->unseen(), want.unseen());
      ASSERT_EQ(o->public_state().hash(), want.public_state().hash());
      ASSERT_EQ(Belief(*o).count(), Belief(want).count());
    }
    EXPECT_EQ(o->phase(), Phase::kOver);
  }
}

TEST(HeartsObservation, RefusesEventsThatContradictWhatIsKnown) {
  const Deal d = testing::deal(
      "2C 3C 4C 5C 6C 7C 8C 9C 2H 3H 4H 5H 6H", "TC JC QC KC 2D 3D 4D 5D 6D 7D 8D 9D TD",
      "AC JD QD KD AD 2S 3S 4S 5S 6S 7S 8S 9S", "TS JS QS KS AS 7H 8H 9H TH JH QH KH AH");
  auto o = *Observation::deal(0, d[0], PassDir::kNone, {});
  EXPECT_FALSE(o.play(1, testing::card("TC")));  // 2C leads
  ASSERT_TRUE(o.play(0, testing::card("2C")));
  EXPECT_NE(o.play(2, testing::card("AC")).error().message.find("out of turn"), std::string::npos);
  EXPECT_NE(o.play(1, testing::card("3C")).error().message.find("our hand"), std::string::npos);
  EXPECT_NE(o.play(1, testing::card("2C")).error().message.find("already played"),
            std::string::npos);
  ASSERT_TRUE(o.play(1, testing::card("TC")));
  ASSERT_TRUE(o.play(2, testing::card("AC")));
  ASSERT_TRUE(o.play(3, testing::card("TS")));  // W shows a club void
  EXPECT_EQ(o.excluded(3), CardSet::suit(kClubs));
  ASSERT_TRUE(o.play(2, testing::card("2S")));
  ASSERT_TRUE(o.play(3, testing::card("JS")));
  ASSERT_TRUE(o.play(0, testing::card("3C")));
  ASSERT_TRUE(o.play(1, testing::card("3D")));
  // W won with JS and leads; it cannot lead a club.
  EXPECT_NE(o.play(3, testing::card("KC")).error().message.find("cannot hold"), std::string::npos);
  EXPECT_NE(o.play(0, testing::card("4C")).error().message.find("out of turn"), std::string::npos);
}

}  // namespace
}  // namespace kibitz::hearts
