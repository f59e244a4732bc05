#include "games/hearts/policy.hpp"

#include <algorithm>
#include <optional>

namespace kibitz::hearts {

namespace {

constexpr CardSet kSpadeSet = CardSet::suit(kSpades);
constexpr Card kKingOfSpades{kSpades, 11};
constexpr Card kAceOfSpades{kSpades, 12};
constexpr CardSet kQueen = CardSet::of(kQueenOfSpades);
constexpr CardSet kBigSpades = CardSet::of(kKingOfSpades) | CardSet::of(kAceOfSpades);
// Spades that duck Q♠ and guard it: 2♠ .. J♠.
constexpr CardSet kLowSpades = kSpadeSet.below(kQueenOfSpades);
// J♥ .. A♥: the hearts worth passing.
constexpr CardSet kHighHearts = kHeartsSet - kHeartsSet.below(Card(kHearts, 9));
// Lower spades that make Q♠ safe to keep. Four beat three by about 0.1 point a hand in
// self-play: with three the queen is too often forced out late.
constexpr int kQueenGuard = 4;
// Moon defence costs points (we take the point tricks ourselves), so it starts only when the
// threat is real: one seat holds every point and at least Q♠ and three hearts. From 10 it
// cost 0.2 point a hand in self-play and did no better against an always-high shooter.
constexpr int kMoonDefencePoints = 16;

// A void-probability estimate counts as "likely void" from here on.
constexpr double kLikelyVoid = 0.4;

// The n-th card of s from the lowest up (n < s.size()).
Card nth(CardSet s, std::uint64_t n) {
  while (n-- > 0) s.pop_lowest();
  return s.lowest();
}

// Points of the cards in s (hearts and Q♠; J♦ ignored: the heuristics only avoid points).
int points_in(CardSet s) {
  const CardSet p = s & kPointCards;
  return p.size() + (p.contains(kQueenOfSpades) ? 12 : 0);
}

// The next card to pass from `hand` with `slots` picks left (rule_pass, one card at a time,
// so the rollout policy can pick during the passing too).
Card next_pass(CardSet hand, int slots) {
  const CardSet spades = hand & kSpadeSet;
  const bool guarded = (spades & kLowSpades).size() >= kQueenGuard;
  const bool has_queen = hand.contains(kQueenOfSpades);
  if (has_queen && !guarded) return kQueenOfSpades;
  // A♠/K♠ catch Q♠ unless we keep the queen ourselves.
  if (!(has_queen && guarded) && !(spades & kBigSpades).empty())
    return (spades & kBigSpades).highest();
  const CardSet high_hearts = hand & kHighHearts;
  if (!high_hearts.empty()) return high_hearts.highest();
  // Void a short minor suit when the remaining picks take all of it.
  int best_len = 99;
  CardSet best;
  for (const Suit s : {kClubs, kDiamonds}) {
    const int len = hand.count(s);
    if (len > 0 && len <= slots && len < best_len) best_len = len, best = hand.in_suit(s);
  }
  if (!best.empty()) return best.highest();
  // Otherwise the highest card, hearts first on a tie; spades stay (low ones duck Q♠, and
  // A♠/K♠ still here guard a queen we keep).
  Card pick = hand.lowest();
  int pick_score = -100;
  for (const Card c : hand) {
    int score = c.rank() * 4 + (c.suit() == kHearts ? 2 : 0);
    if (c.suit() == kSpades) score -= 40;
    if (score >= pick_score) pick = c, pick_score = score;
  }
  return pick;
}

// What the player to move knows, the same for the rule bot and the rollout policy.
struct View {
  const State& pub;  // the public play (other hands may be empty)
  int me;
  CardSet hand;
  CardSet legal;
  CardSet out;  // cards held by the other seats
  int shooter;  // moon_threat, or -1
  PolicyKnobs knobs;
};

// The highest card of s that is not Q♠ when there is one (s not empty).
Card highest_but_queen(CardSet s, bool avoid_queen) {
  if (avoid_queen && s.contains(kQueenOfSpades) && s.size() > 1) s -= kQueen;
  return s.highest();
}
Card lowest_but_queen(CardSet s, bool avoid_queen) {
  if (avoid_queen && s.contains(kQueenOfSpades) && s.size() > 1) s -= kQueen;
  return s.lowest();
}

// Cards seat still holds, from the public play alone.
int hand_size(const State& s, int seat) {
  const bool played_here = (seat - s.leader() + 4) % 4 < s.trick_size();
  return kHandSize - s.tricks_done() - (played_here ? 1 : 0);
}

// Whether points can still land on a trick: they are out, and not barred (first trick).
bool points_can_fall(const View& v) {
  if (v.pub.is_first_trick() && v.pub.options().no_points_first_trick) return false;
  return !(v.out & kPointCards).empty();
}

// Following suit. void_p(seat, suit): the chance that seat holds no card of suit.
template <class VoidP>
Card follow(const View& v, VoidP&& void_p) {
  const State& s = v.pub;
  const Suit led = s.trick_card(0).suit();
  const int n = s.trick_size();
  const CardSet table = s.table();
  const Card win = table.in_suit(led).highest();
  const int win_seat = s.trick_winner();
  const bool last = n == 3;
  const bool table_points = !(table & kPointCards).empty();
  const CardSet duck = v.legal.below(win);
  const CardSet over = v.legal - duck;
  const bool aq = v.knobs.avoid_queen;
  const bool shooter_on = v.knobs.block_shooter && v.shooter >= 0;
  bool shooter_to_play = false;
  for (int i = n + 1; i < 4; ++i) shooter_to_play |= (s.leader() + i) % 4 == v.shooter;

  // Q♠ under A♠/K♠ already on the table (not onto a shooter's trick).
  if (aq && led == kSpades && v.legal.contains(kQueenOfSpades) && win.rank() > 10 &&
      !(shooter_on && win_seat == v.shooter))
    return kQueenOfSpades;
  // Moon defence: take a point trick away from the shooter.
  if (shooter_on && (table_points || led == kHearts) &&
      (win_seat == v.shooter || shooter_to_play) && !over.empty())
    return highest_but_queen(over, true);

  if (last) {
    if (!table_points) return highest_but_queen(v.legal, aq);  // a free trick: shed a high card
    return duck.empty() ? highest_but_queen(v.legal, aq) : duck.highest();
  }
  // Duck with the highest card below the winner, safe or not: playing over it when the
  // trick looks safe lost 0.2 point a hand in self-play (the lead is a burden).
  if (!duck.empty()) return duck.highest();
  if (aq && led == kSpades && v.out.contains(kQueenOfSpades)) {
    // We must win for now: stay below the queen if we can, or she may fall under us.
    const CardSet low = over & kLowSpades;
    return low.empty() ? over.lowest() : low.highest();
  }
  // We must win for now: low when points may still fall on the trick from a later seat void
  // in the suit (a lower card may yet be overtaken), else shed the highest.
  bool danger = table_points;
  if (!danger && points_can_fall(v))
    for (int i = n + 1; i < 4; ++i)
      if (void_p((s.leader() + i) % 4, led) >= kLikelyVoid) danger = true;
  return danger ? lowest_but_queen(v.legal, aq) : highest_but_queen(v.legal, aq);
}

// Cannot follow: throw the most dangerous card we hold.
Card discard(const View& v) {
  const State& s = v.pub;
  CardSet pool = v.legal;
  // Moon defence: no points onto the shooter's trick.
  if (v.knobs.block_shooter && v.shooter >= 0 && s.trick_winner() == v.shooter &&
      !(pool - kPointCards).empty())
    pool -= kPointCards;
  if (pool.contains(kQueenOfSpades)) return kQueenOfSpades;
  if (v.out.contains(kQueenOfSpades) && !(pool & kBigSpades).empty())
    return (pool & kBigSpades).highest();
  // Then the highest card, hearts first, short suits before long ones (a void gives more
  // discards later), low spades kept while Q♠ is out. Weighing hearts against short suits
  // beats throwing every heart first (about 0.1 point a hand in self-play).
  Card pick = pool.lowest();
  int pick_score = -1000;
  for (const Card c : pool) {
    int score = c.rank() * 2 - 5 * v.hand.count(c.suit());
    if (c.suit() == kHearts) score += 5;
    if (c.suit() == kSpades && v.out.contains(kQueenOfSpades)) score -= 6;
    if (score > pick_score) pick = c, pick_score = score;
  }
  return pick;
}

template <class VoidP>
Card lead(const View& v, VoidP&& void_p) {
  const State& s = v.pub;
  if (v.legal.size() == 1) return v.legal.lowest();
  const bool queen_out = v.out.contains(kQueenOfSpades);
  CardSet cand = v.legal;
  if (v.knobs.avoid_queen) {
    if (v.hand.contains(kQueenOfSpades) && !(cand - kSpadeSet).empty()) cand -= kSpadeSet;
    if (queen_out && !(cand - kBigSpades).empty()) cand -= kBigSpades;
  }
  // Moon defence: a heart nobody can beat takes a point from the shooter.
  if (v.knobs.block_shooter && v.shooter >= 0) {
    const CardSet hearts = cand & kHeartsSet;
    const CardSet out_hearts = v.out & kHeartsSet;
    if (!hearts.empty() &&
        (out_hearts.empty() || hearts.highest().rank() > out_hearts.highest().rank()))
      return hearts.highest();
  }
  // Flush Q♠ out with spades that duck it.
  const CardSet spades = v.hand & kSpadeSet;
  if (v.knobs.avoid_queen && queen_out && !spades.empty() && (spades - kLowSpades).empty() &&
      !(cand & spades).empty())
    return (cand & spades).highest();
  // Otherwise the card least likely to win: the largest share of the outstanding cards of its
  // suit above it, away from suits an opponent is void in (points would fall on our trick).
  const bool can_fall = points_can_fall(v);
  std::array<int, kNumSuits> suit_risk{};
  for (const Suit su : {kClubs, kDiamonds, kSpades, kHearts}) {
    if (!cand.has(su) || !can_fall || !v.knobs.shed_void_suits) continue;
    double risk = 0.0;
    for (int p = 0; p < kNumPlayers; ++p)
      if (p != v.me && hand_size(s, p) > 0) risk = std::max(risk, void_p(p, su));
    suit_risk[su] = static_cast<int>(risk * 48.0);
  }
  Card pick = cand.lowest();
  int pick_score = -100000;
  for (const Card c : cand) {
    const CardSet suit_out = v.out.in_suit(c.suit());
    int score = suit_out.above(c).size() * 64 / (suit_out.size() + 1) - suit_risk[c.suit()];
    if (suit_out.empty()) score -= 16;  // a sure winner
    score = score * 16 - c.rank();
    if (score > pick_score) pick = c, pick_score = score;
  }
  return pick;
}

template <class VoidP>
Card choose(const View& v, VoidP&& void_p) {
  const State& s = v.pub;
  if (s.trick_size() == 0) return lead(v, void_p);
  if (v.hand.has(s.trick_card(0).suit())) return follow(v, void_p);
  return discard(v);
}

}  // namespace

CardSet rule_pass(const Observation& o) {
  CardSet hand = o.hand();
  CardSet pass;
  for (int slots = 3; slots > 0 && !hand.empty(); --slots) {
    const Card c = next_pass(hand, slots);
    pass.add(c);
    hand.remove(c);
  }
  return pass;
}

Card rule_play(const Observation& o) {
  const CardSet legal = o.legal_set();
  if (legal.size() <= 1) return legal.empty() ? Card::none() : legal.lowest();
  if (o.phase() == Phase::kPass) return next_pass(o.hand(), 3);
  const State& pub = o.public_state();
  const View v{pub,
               o.seat(),
               o.hand(),
               legal,
               CardSet::deck() - o.hand() - pub.played(),
               moon_threat(pub, o.seat(), kMoonDefencePoints),
               PolicyKnobs{}};
  // Void probabilities from the belief's exact card-location marginals, built only when a
  // choice needs them. The product over the suit's unseen cards is not exact (the cards are
  // dealt without replacement) but honours every shown void and plays as well as
  // Belief::void_probability, which rebuilds the count table on each call (~40 us).
  std::optional<Belief> belief;
  std::array<std::array<double, kNumSuits>, kNumPlayers> cache{};
  std::array<std::array<bool, kNumSuits>, kNumPlayers> cached{};
  const auto void_p = [&](int seat, Suit su) {
    if (!cached[seat][su]) {
      if (!belief) belief.emplace(o);
      double p = 1.0;
      if (o.hand_size(seat) > 0)
        for (const Card c : v.out.in_suit(su)) p *= 1.0 - belief->probability(seat, c);
      cache[seat][su] = p;
      cached[seat][su] = true;
    }
    return cache[seat][su];
  };
  return choose(v, void_p);
}

Card policy_play(const State& s, Rng& rng, const PolicyKnobs& knobs) {
  const CardSet legal = s.legal_set();
  const int me = s.current_player();
  if (legal.size() <= 1) return legal.empty() ? Card::none() : legal.lowest();
  if (knobs.epsilon > 0.0 && rng.uniform01() < knobs.epsilon)
    return nth(legal, rng.below(static_cast<std::uint64_t>(legal.size())));
  if (s.phase() == Phase::kPass) return next_pass(s.hand(me), 3 - s.passed(me).size());
  const CardSet hand = s.hand(me);
  const CardSet out = CardSet::deck() - hand - s.played();
  const View v{s,     me,  hand,
               legal, out, knobs.block_shooter ? moon_threat(s, me, kMoonDefencePoints) : -1,
               knobs};
  // Voids shown by the play, and a counting estimate for the rest: the chance that none of
  // the k outstanding cards of the suit is among the seat's n of the u unseen cards.
  std::uint8_t shown[kNumPlayers] = {};
  bool shown_done = false;
  const auto void_p = [&](int seat, Suit su) {
    if (!shown_done) {
      for (int t = 0; t * 4 < s.num_plays(); ++t) {
        const Suit led = s.play(t * 4).suit();
        for (int i = t * 4 + 1; i < t * 4 + 4 && i < s.num_plays(); ++i)
          if (s.play(i).suit() != led) shown[s.play_seat(i)] |= std::uint8_t(1u << led);
      }
      shown_done = true;
    }
    if (shown[seat] & (1u << su)) return 1.0;
    const int k = out.count(su);
    const int u = out.size();
    const int held = hand_size(s, seat);
    double p = 1.0;
    for (int i = 0; i < held && p > 0.0; ++i) p *= double(u - k - i) / double(u - i);
    return p < 0.0 ? 0.0 : p;
  };
  return choose(v, void_p);
}

bool moon_alive(const State& s, int seat) {
  for (int p = 0; p < kNumPlayers; ++p)
    if (p != seat && !(s.taken(p) & kPointCards).empty()) return false;
  return true;
}

Card shoot_play(const State& s, Rng& rng, const PolicyKnobs& knobs) {
  const int me = s.current_player();
  if (s.phase() != Phase::kPlay || !moon_alive(s, me)) return policy_play(s, rng, knobs);
  const CardSet legal = s.legal_set();
  if (legal.size() <= 1) return legal.empty() ? Card::none() : legal.lowest();
  const CardSet hand = s.hand(me);
  const CardSet out = CardSet::deck() - hand - s.played();
  const auto sure = [&](Card c) { return out.in_suit(c.suit()).above(c).empty(); };
  if (s.trick_size() == 0) {
    CardSet winners;
    for (const Card c : legal)
      if (sure(c)) winners.add(c);
    // A sure winner: hearts first (they draw the others' hearts), else from our longest suit
    // (its lower cards become winners as the others run out).
    if (!(winners & kHeartsSet).empty()) return (winners & kHeartsSet).highest();
    const CardSet pool = winners.empty() ? legal : winners;
    Card pick = pool.highest();
    int best = -1;
    for (const Card c : pool) {
      const int key = hand.count(c.suit()) * 16 + c.rank();
      if (key > best) best = key, pick = c;
    }
    return pick;
  }
  const Suit led = s.trick_card(0).suit();
  if (hand.has(led)) {
    const CardSet over = legal - legal.below(s.table().in_suit(led).highest());
    if (over.empty()) return legal.lowest();
    return s.trick_size() == 3 ? over.lowest() : over.highest();
  }
  // Void: keep the points for our own tricks, shed the lowest other card.
  const CardSet pool = legal - kPointCards;
  if (pool.empty()) return policy_play(s, rng, knobs);
  Card pick = pool.lowest();
  for (const Card c : pool)
    if (c.rank() < pick.rank()) pick = c;
  return pick;
}

Card random_play(const Observation& o, Rng& rng) {
  const CardSet legal = o.legal_set();
  if (legal.empty()) return Card::none();
  return nth(legal, rng.below(static_cast<std::uint64_t>(legal.size())));
}

CardSet random_pass(const Observation& o, Rng& rng) {
  CardSet hand = o.hand();
  CardSet pass;
  for (int i = 0; i < 3 && !hand.empty(); ++i) {
    const Card c = nth(hand, rng.below(static_cast<std::uint64_t>(hand.size())));
    pass.add(c);
    hand.remove(c);
  }
  return pass;
}

int moon_threat(const State& s, int seat, int min_points) {
  int holder = -1;
  int total = 0;
  for (int p = 0; p < kNumPlayers; ++p) {
    const int pts = points_in(s.taken(p));
    if (pts == 0) continue;
    if (holder >= 0) return -1;
    holder = p;
    total = pts;
  }
  return holder >= 0 && holder != seat && total >= min_points ? holder : -1;
}

}  // namespace kibitz::hearts
