#include "games/hearts/state.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/zobrist.hpp"
#include "games/hearts/belief.hpp"

namespace kibitz::hearts {

namespace {

constexpr ZobristTable<64 * 13 + 8> kKeys(0x4EA27500C0FFEEull);
constexpr std::array<std::string_view, 4> kDirNames = {"left", "right", "across", "none"};

}  // namespace

std::string_view to_string(PassDir d) { return kDirNames[static_cast<std::size_t>(d)]; }

Result<PassDir> parse_pass_dir(std::string_view text) {
  for (std::size_t i = 0; i < kDirNames.size(); ++i)
    if (text == kDirNames[i]) return static_cast<PassDir>(i);
  if (text == "hold" || text == "keep") return PassDir::kNone;
  return fail("pass direction '{}' (expected left, right, across or none)", text);
}

Deal random_deal(Rng& rng) {
  std::array<Card, kNumCards> deck{};
  int n = 0;
  for (const Card c : CardSet::deck()) deck[static_cast<std::size_t>(n++)] = c;
  for (int i = kNumCards - 1; i > 0; --i)
    std::swap(deck[static_cast<std::size_t>(i)],
              deck[rng.below(static_cast<std::uint64_t>(i + 1))]);
  Deal d{};
  for (int i = 0; i < kNumCards; ++i)
    d[static_cast<std::size_t>(i / kHandSize)].add(deck[static_cast<std::size_t>(i)]);
  return d;
}

Result<void> check_deal(const Deal& d) {
  CardSet all;
  for (int p = 0; p < kNumPlayers; ++p) {
    if (d[p].size() != kHandSize)
      return fail("seat {} holds {} cards (expected {})", p, d[p].size(), kHandSize);
    if (!(all & d[p]).empty())
      return fail("card {} is dealt twice", to_string((all & d[p]).lowest()));
    all |= d[p];
  }
  return {};
}

Result<Deal> parse_deal(std::span<const std::string_view> cards) {
  if (cards.size() != kNumCards) return fail("a deal needs 52 cards (found {})", cards.size());
  Deal d{};
  for (std::size_t i = 0; i < cards.size(); ++i) {
    auto c = parse_card(cards[i]);
    if (!c) return tl::unexpected(c.error());
    if (d[0].contains(*c) || d[1].contains(*c) || d[2].contains(*c) || d[3].contains(*c))
      return fail("card {} is dealt twice", to_string(*c));
    d[i / kHandSize].add(*c);
  }
  if (auto ok = check_deal(d); !ok) return tl::unexpected(ok.error());
  return d;
}

State::State(const Deal& deal, PassDir dir, const Options& options,
             std::array<int, kNumPlayers> scores_before)
    : options_(options), hands_(deal), scores_before_(scores_before) {
  dir_ = options.pass_cards ? dir : PassDir::kNone;
  picks_ = dir_ == PassDir::kNone ? 12 : 0;
  for (int p = 0; p < kNumPlayers; ++p)
    if (hands_[p].contains(kTwoOfClubs)) current_ = leader_ = static_cast<std::uint8_t>(p);
  hash_ = compute_hash() ^ turn_key();
}

std::uint64_t State::key(Card c, int loc) {
  return kKeys[static_cast<std::size_t>(c.index() * 13 + loc)];
}

std::uint64_t State::turn_key() const {
  if (is_terminal()) return kKeys[64 * 13 + 5];
  return kKeys[static_cast<std::size_t>(64 * 13 + current_player())] ^
         (phase() == Phase::kPass ? kKeys[64 * 13 + 4] : 0);
}

std::uint64_t State::compute_hash() const {
  std::uint64_t h = 0;
  for (int p = 0; p < kNumPlayers; ++p) {
    for (const Card c : hands_[p]) h ^= key(c, kHandLoc + p);
    if (picks_ < 12)
      for (const Card c : passed_[p]) h ^= key(c, kPassLoc + p);
    for (const Card c : taken_[p]) h ^= key(c, kTakenLoc + p);
  }
  for (const Card c : table()) h ^= key(c, kTableLoc);
  return h ^ turn_key();
}

Phase State::phase() const {
  if (num_plays_ == kNumCards) return Phase::kOver;
  return picks_ < 12 ? Phase::kPass : Phase::kPlay;
}

int State::current_player() const {
  if (is_terminal()) return kTerminalPlayer;
  if (picks_ < 12) return picks_ / 3;
  return current_;
}

CardSet State::table() const {
  CardSet t;
  for (int i = 0; i < trick_size(); ++i) t.add(trick_card(i));
  return t;
}

int State::trick_winner() const {
  const int n = trick_size();
  const Suit led = trick_card(0).suit();
  int best = 0;
  for (int i = 1; i < n; ++i)
    if (trick_card(i).suit() == led && trick_card(i).rank() > trick_card(best).rank()) best = i;
  return (leader_ + best) % 4;
}

CardSet State::received(int seat) const {
  if (picks_ < 12 || dir_ == PassDir::kNone) return {};
  for (int p = 0; p < kNumPlayers; ++p)
    if (pass_target(p, dir_) == seat) return passed_[p];
  return {};
}

CardSet State::legal_for(CardSet hand) const {
  if (picks_ < 12) return hand;  // passing: any card still held
  const int n = trick_size();
  if (num_plays_ == 0) return hand.contains(kTwoOfClubs) ? CardSet::of(kTwoOfClubs) : hand;
  if (n > 0) {
    const CardSet follow = hand.in_suit(trick_card(0).suit());
    if (!follow.empty()) return follow;
    if (is_first_trick() && options_.no_points_first_trick) {
      const CardSet safe = hand - kPointCards;
      if (!safe.empty()) return safe;
    }
    return hand;
  }
  if (options_.must_break_hearts && !hearts_broken_) {
    const CardSet others = hand - kHeartsSet;
    if (!others.empty()) return others;
  }
  return hand;
}

CardSet State::legal_set() const {
  if (is_terminal()) return {};
  return legal_for(hands_[current_player()]);
}

std::size_t State::legal_moves(MoveList<State>& out) const {
  out.clear();
  for (const Card c : legal_set()) out.push_back(c);
  return out.size();
}

void State::apply(Card c) {
  if (picks_ < 12) {
    const int p = picks_ / 3;
    hands_[p].remove(c);
    passed_[p].add(c);
    hash_ ^= key(c, kHandLoc + p) ^ key(c, kPassLoc + p);
    if (++picks_ == 12) exchange_passes();
    return;
  }
  const int p = current_;
  const bool leading = trick_size() == 0;
  if (leading) leader_ = current_;
  hands_[p].remove(c);
  hash_ ^= key(c, kHandLoc + p) ^ key(c, kTableLoc);
  plays_[num_plays_] = c;
  play_seat_[num_plays_] = static_cast<std::uint8_t>(p);
  ++num_plays_;
  played_.add(c);
  if (c.suit() == kHearts || (options_.qs_breaks_hearts && c == kQueenOfSpades))
    hearts_broken_ = true;
  if (trick_size() == 0) {  // the trick is complete
    // trick_card() indexes the finished trick through num_plays_ - 4.
    const Suit led = plays_[num_plays_ - 4].suit();
    int best = 0;
    for (int i = 1; i < 4; ++i) {
      const Card t = plays_[num_plays_ - 4 + i];
      if (t.suit() == led && t.rank() > plays_[num_plays_ - 4 + best].rank()) best = i;
    }
    const int w = (leader_ + best) % 4;
    for (int i = 0; i < 4; ++i) {
      const Card t = plays_[num_plays_ - 4 + i];
      taken_[w].add(t);
      raw_points_[w] =
          static_cast<std::int16_t>(raw_points_[w] + card_points(t, options_.jd_bonus));
      hash_ ^= key(t, kTableLoc) ^ key(t, kTakenLoc + w);
    }
    ++tricks_won_[w];
    current_ = leader_ = static_cast<std::uint8_t>(w);
  } else {
    current_ = static_cast<std::uint8_t>((current_ + 1) % 4);
  }
}

void State::exchange_passes() {
  for (int p = 0; p < kNumPlayers; ++p) {
    const int t = pass_target(p, dir_);
    hands_[t] |= passed_[p];
    for (const Card c : passed_[p]) hash_ ^= key(c, kPassLoc + p) ^ key(c, kHandLoc + t);
  }
  for (int p = 0; p < kNumPlayers; ++p)
    if (hands_[p].contains(kTwoOfClubs)) current_ = leader_ = static_cast<std::uint8_t>(p);
}

std::array<int, kNumPlayers> State::hand_scores() const {
  std::array<int, kNumPlayers> s{};
  int moon = -1;
  for (int p = 0; p < kNumPlayers; ++p)
    if ((taken_[p] & kPointCards) == kPointCards) moon = p;
  for (int p = 0; p < kNumPlayers; ++p) {
    const int jd = options_.jd_bonus && taken_[p].contains(kJackOfDiamonds) ? -10 : 0;
    if (moon < 0)
      s[p] = raw_points_[p];
    else if (options_.moon_minus)
      s[p] = (p == moon ? -26 : 0) + jd;
    else
      s[p] = (p == moon ? 0 : 26) + jd;
  }
  return s;
}

Returns<State> State::returns() const {
  const auto s = hand_scores();
  Returns<State> r{};
  for (int p = 0; p < kNumPlayers; ++p) r[p] = -static_cast<double>(s[p]);
  return r;
}

int State::points_played() const {
  return (played_ & kHeartsSet).size() + (played_.contains(kQueenOfSpades) ? 13 : 0);
}

void State::set_hands(const Deal& hands, int seat, Rng& rng) {
  for (int p = 0; p < kNumPlayers; ++p) {
    if (p == seat) continue;
    for (const Card c : hands_[p]) hash_ ^= key(c, kHandLoc + p);
    CardSet h = hands[p];
    if (picks_ < 12) {
      for (const Card c : passed_[p]) hash_ ^= key(c, kPassLoc + p);
      // Picks of other seats are hidden: redraw as many from the new hand.
      const int picked = passed_[p].size();
      passed_[p] = {};
      for (int k = 0; k < picked; ++k) {
        int i = static_cast<int>(rng.below(static_cast<std::uint64_t>(h.size())));
        CardSet rest = h;
        while (i-- > 0) rest.pop_lowest();
        const Card c = rest.lowest();
        h.remove(c);
        passed_[p].add(c);
        hash_ ^= key(c, kPassLoc + p);
      }
    }
    hands_[p] = h;
    for (const Card c : hands_[p]) hash_ ^= key(c, kHandLoc + p);
  }
  if (num_plays_ == 0 && picks_ == 12)
    for (int p = 0; p < kNumPlayers; ++p)
      if (hands_[p].contains(kTwoOfClubs)) current_ = leader_ = static_cast<std::uint8_t>(p);
}

Observation State::information_state(int seat) const {
  Observation o;
  o.seat_ = seat;
  // Replay the hand from the deal as seat saw it.
  Deal start{};
  start[seat] = hands_[seat] | passed_[seat];
  for (int i = 0; i < num_plays_; ++i)
    if (play_seat_[i] == seat) start[seat].add(plays_[i]);
  const bool exchanged = picks_ == 12 && dir_ != PassDir::kNone;
  if (exchanged) start[seat] -= received(seat);
  o.pub_ = State(Deal{}, dir_, options_, scores_before_);
  o.pub_.hands_[seat] = start[seat];
  o.pub_.picks_ = 12;
  o.pub_.current_ = o.pub_.leader_ = 0;
  o.hand_size_.fill(kHandSize);
  o.passing_done_ = dir_ == PassDir::kNone;
  if (dir_ != PassDir::kNone) {
    if (exchanged || passed_[seat].size() == 3) {
      o.passed_out_ = passed_[seat];
      o.pub_.hands_[seat] -= o.passed_out_;
      o.pub_.passed_[seat] = o.passed_out_;
    }
    if (exchanged) {
      o.received_ = received(seat);
      o.pub_.hands_[seat] |= o.received_;
      o.known_[pass_target(seat, dir_)] = o.passed_out_;
      o.passing_done_ = true;
    } else {
      o.pub_.picks_ = 0;  // still passing (picks short of three are not shown)
    }
  }
  if (o.passing_done_ && o.pub_.hands_[seat].contains(kTwoOfClubs))
    o.pub_.current_ = o.pub_.leader_ = static_cast<std::uint8_t>(seat);
  o.pub_.hash_ = o.pub_.compute_hash() ^ o.pub_.turn_key();
  for (int i = 0; i < num_plays_; ++i) {
    if (i == 0) o.set_first_leader(play_seat_[0]);
    const State before = o.pub_;
    o.note_play(play_seat_[i], plays_[i], before);
  }
  return o;
}

State State::sample_world(int seat, Rng& rng) const {
  const Observation o = information_state(seat);
  const Belief b(o);
  State w = *this;
  w.set_hands(b.sample(rng), seat, rng);
  return w;
}

std::string State::to_string() const {
  static constexpr std::array<const char*, 4> kSeat = {"N", "E", "S", "W"};
  std::string out = fmt::format("pass {}, trick {}, hearts {}\n", hearts::to_string(dir_),
                                tricks_done() + 1, hearts_broken_ ? "broken" : "not broken");
  const auto s = hand_scores();
  for (int p = 0; p < kNumPlayers; ++p)
    out += fmt::format("{} {:2} pts  {}\n", kSeat[static_cast<std::size_t>(p)], s[p],
                       to_pretty(hands_[p]));
  if (trick_size() > 0) {
    out += "table:";
    for (int i = 0; i < trick_size(); ++i)
      out += fmt::format(" {}:{}", kSeat[static_cast<std::size_t>((leader_ + i) % 4)],
                         hearts::to_string(trick_card(i)));
    out += '\n';
  }
  return out;
}

// --- Observation ----------------------------------------------------------------------

Result<Observation> Observation::deal(int seat, CardSet hand, PassDir dir, const Options& options,
                                      std::array<int, kNumPlayers> scores_before) {
  if (seat < 0 || seat >= kNumPlayers) return fail("seat {} (expected 0 to 3)", seat);
  if (hand.size() != kHandSize)
    return fail("a hand holds {} cards (expected {})", hand.size(), kHandSize);
  Observation o;
  o.seat_ = seat;
  o.pub_ = State(Deal{}, dir, options, scores_before);
  o.pub_.hands_[seat] = hand;
  o.pub_.picks_ = o.pub_.dir_ == PassDir::kNone ? 12 : 0;
  o.pub_.current_ = o.pub_.leader_ = 0;
  if (hand.contains(kTwoOfClubs) && o.pub_.picks_ == 12)
    o.pub_.current_ = o.pub_.leader_ = static_cast<std::uint8_t>(seat);
  o.pub_.hash_ = o.pub_.compute_hash() ^ o.pub_.turn_key();
  o.hand_size_.fill(kHandSize);
  o.passing_done_ = o.pub_.picks_ == 12;
  return o;
}

Phase Observation::phase() const {
  if (pub_.is_terminal()) return Phase::kOver;
  return passing_done_ ? Phase::kPlay : Phase::kPass;
}

int Observation::current_player() const {
  if (phase() != Phase::kPlay) return phase() == Phase::kOver ? kTerminalPlayer : seat_;
  return pub_.current_;
}

CardSet Observation::legal_set() const {
  if (phase() == Phase::kPass) return passed_out_.empty() ? hand() : CardSet{};
  if (phase() != Phase::kPlay || current_player() != seat_) return {};
  if (pub_.num_plays_ == 0 && !hand().contains(kTwoOfClubs)) return {};
  return pub_.legal_for(hand());
}

CardSet Observation::unseen() const {
  // Our passed cards not played yet are known to be with the seat we passed them to.
  return CardSet::deck() - hand() - pub_.played() - passed_out_;
}

Result<void> Observation::pass(CardSet cards) {
  if (phase() != Phase::kPass) return fail("no passing now");
  if (!passed_out_.empty()) return fail("cards already passed this hand");
  if (cards.size() != 3) return fail("pass exactly 3 cards (got {})", cards.size());
  if ((cards - hand()) != CardSet{})
    return fail("cannot pass {}: not in the hand", to_string(cards - hand()));
  passed_out_ = cards;
  pub_.hands_[seat_] -= cards;
  pub_.passed_[seat_] = cards;
  return {};
}

Result<void> Observation::receive(CardSet cards) {
  if (phase() != Phase::kPass) return fail("no passing now");
  if (passed_out_.empty()) return fail("pass 3 cards before receiving");
  if (cards.size() != 3) return fail("3 cards are received (got {})", cards.size());
  if (!(cards & (pub_.hands_[seat_] | passed_out_)).empty())
    return fail("received {} already held", to_string(cards & (pub_.hands_[seat_] | passed_out_)));
  pub_.hands_[seat_] |= cards;
  received_ = cards;
  known_[pass_target(seat_, pub_.dir_)] = passed_out_;
  passing_done_ = true;
  pub_.picks_ = 12;
  pub_.current_ = pub_.leader_ = 0;
  if (pub_.hands_[seat_].contains(kTwoOfClubs))
    pub_.current_ = pub_.leader_ = static_cast<std::uint8_t>(seat_);
  pub_.hash_ = pub_.compute_hash() ^ pub_.turn_key();
  return {};
}

Result<void> Observation::play(int seat, Card card) {
  if (seat < 0 || seat >= kNumPlayers) return fail("seat {} (expected 0 to 3)", seat);
  if (!card.valid() || card.rank() >= kNumRanks) return fail("not a card");
  if (phase() == Phase::kPass) return fail("the passing is not finished");
  if (phase() == Phase::kOver) return fail("the hand is over");
  const std::string c = to_string(card);
  if (pub_.played().contains(card)) return fail("{} was already played", c);
  if (pub_.num_plays_ == 0) {
    if (card != kTwoOfClubs) return fail("{}: the first trick is led with 2C", c);
    if (hand().contains(kTwoOfClubs) && seat != seat_)
      return fail("2C is in our hand, not seat {}'s", seat);
    set_first_leader(seat);
  } else if (seat != pub_.current_) {
    return fail("seat {} plays out of turn (seat {} is to play)", seat, pub_.current_);
  }
  if (seat == seat_) {
    if (!hand().contains(card)) return fail("{} is not in our hand", c);
    if (!pub_.legal_for(hand()).contains(card)) return fail("{} is not a legal play now", c);
  } else {
    if (hand().contains(card)) return fail("{} is in our hand, seat {} cannot play it", c, seat);
    if (hand_size_[seat] == 0) return fail("seat {} has no cards left", seat);
    if (excluded_[seat].contains(card))
      return fail("seat {} cannot hold {} (seen earlier)", seat, c);
    for (int p = 0; p < kNumPlayers; ++p)
      if (p != seat && known_[p].contains(card))
        return fail("{} is known to be held by seat {}", c, p);
    // The play must be legal for some hand consistent with what we know: a heart led
    // before hearts are broken needs a hand of hearts, so the seat must not hold a card we
    // know of that is not a heart.
    const State before = pub_;
    Observation trial = *this;
    trial.note_play(seat, card, before);
    if (!(trial.excluded_[seat] & trial.known_[seat]).empty())
      return fail("seat {} cannot play {} holding {} (known)", seat, c,
                  to_string(trial.excluded_[seat] & trial.known_[seat]));
    if (Belief(trial).count() == 0)
      return fail("{} by seat {} contradicts the cards seen so far", c, seat);
    *this = trial;
    return {};
  }
  const State before = pub_;
  note_play(seat, card, before);
  return {};
}

void Observation::note_play(int seat, Card c, const State& before) {
  const Options& o = before.options_;
  if (before.trick_size() > 0) {
    const Suit led = before.trick_card(0).suit();
    if (c.suit() != led) excluded_[seat] |= CardSet::suit(led);
    if (before.is_first_trick() && o.no_points_first_trick && kPointCards.contains(c))
      excluded_[seat] |= CardSet::deck() - kPointCards;
  } else if (!before.is_first_trick() && o.must_break_hearts && !before.hearts_broken_ &&
             c.suit() == kHearts) {
    excluded_[seat] |= CardSet::deck() - kHeartsSet;
  }
  known_[seat].remove(c);
  --hand_size_[seat];
  if (seat != seat_) {  // State::apply takes it out of the hand again
    pub_.hands_[seat].add(c);
    pub_.hash_ ^= State::key(c, State::kHandLoc + seat);
  }
  pub_.apply(c);
}

void Observation::set_first_leader(int seat) {
  pub_.current_ = pub_.leader_ = static_cast<std::uint8_t>(seat);
}

State Observation::world(const Deal& hands, Rng& rng) const {
  State w = pub_;
  w.set_hands(hands, seat_, rng);
  return w;
}

bool GameScore::over(const Options& o) const {
  return std::any_of(scores.begin(), scores.end(), [&](int s) { return s >= o.game_target; });
}

std::array<bool, kNumPlayers> GameScore::winners() const {
  const int best = *std::min_element(scores.begin(), scores.end());
  std::array<bool, kNumPlayers> w{};
  for (int p = 0; p < kNumPlayers; ++p) w[p] = scores[p] == best;
  return w;
}

}  // namespace kibitz::hearts
