#include "games/hearts/hearts_game.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <memory>
#include <span>
#include <vector>

#include "api/game_state.hpp"
#include "core/rng.hpp"
#include "core/text.hpp"
#include "games/hearts/state.hpp"

namespace kibitz::hearts {

namespace {

class HeartsState final : public GameState<HeartsState, State> {
 public:
  HeartsState(const Deal& deal, PassDir dir) : GameState(State(deal, dir)), deal_(deal) {}
  std::string move_text(Card c) const { return hearts::to_string(c); }
  Result<Card> parse(std::string_view text) const {
    if (pos_.is_terminal()) return fail("card '{}': the hand is over", text);
    auto c = parse_card(text);
    if (!c) return tl::unexpected(c.error());
    if (!pos_.is_legal(*c))
      return fail("card {} is not legal for seat {} now", hearts::to_string(*c),
                  pos_.current_player());
    return *c;
  }
  void play(Card c) {
    pos_.apply(c);
    played_.push_back(c);
  }
  // 13 suit + rank: the clubs 2..A are 0..12, then diamonds, spades, hearts (the Suit order).
  int num_actions() const { return 52; }
  int action_of(Card c) const { return c.suit() * 13 + c.rank(); }
  std::string action_text(int a) const {
    return hearts::to_string(Card(static_cast<Suit>(a / 13), a % 13));
  }
  // What a seat knows, flat, 580 floats: card sets of 52 (cards in action order) for its
  // hand, the cards it passed, the cards it received, the cards each seat has taken in
  // tricks and the card each seat has on the table (seats from this one clockwise:
  // itself, left, across, right), then the pass direction (left, right, across, none) and
  // each seat's points taken / 26, in the same seat order. Other seats' hands are not in it.
  static constexpr int kSets = 11;
  std::vector<int> observation_layout() const { return {kSets * 52 + 8}; }
  void observe(int player, std::span<float> out) const {
    std::fill(out.begin(), out.end(), 0.0f);
    if (player < 0 || player >= kNumPlayers) return;
    const auto set = [&](int block, CardSet cards) {
      for (std::uint64_t b = cards.bits(); b; b &= b - 1) {
        const Card c(std::countr_zero(b));
        out[static_cast<std::size_t>(block * 52 + action_of(c))] = 1;
      }
    };
    const auto rel = [player](int seat) { return (seat - player + kNumPlayers) % kNumPlayers; };
    set(0, pos_.hand(player));
    set(1, pos_.passed(player));
    set(2, pos_.received(player));
    for (int seat = 0; seat < kNumPlayers; ++seat) set(3 + rel(seat), pos_.taken(seat));
    for (int i = 0; i < pos_.trick_size(); ++i) {
      CardSet one;
      one.add(pos_.trick_card(i));
      set(7 + rel((pos_.leader() + i) % kNumPlayers), one);
    }
    out[static_cast<std::size_t>(kSets * 52 + static_cast<int>(pos_.pass_dir()))] = 1;
    for (int seat = 0; seat < kNumPlayers; ++seat)
      out[static_cast<std::size_t>(kSets * 52 + 4 + rel(seat))] =
          static_cast<float>(pos_.raw_points(seat)) / 26.0f;
  }
  // The seat's own view (hearts::view_text), which the Hearts engine also reads.
  std::string information(int player) const {
    if (player < 0 || player >= kNumPlayers) return {};
    return view_text(pos_.information_state(player));
  }
  // 52 cards played, and before them 3 cards picked by each seat unless the hand keeps them.
  int max_game_length() const override {
    return kNumCards + (pos_.pass_dir() == PassDir::kNone ? 0 : 3 * kNumPlayers);
  }
  std::string to_string() const override {
    std::string out(hearts::to_string(pos_.pass_dir()));
    for (const CardSet& hand : deal_) out += " " + hearts::to_string(hand);
    for (Card c : played_) out += " " + hearts::to_string(c);
    return out;
  }

 private:
  Deal deal_;
  std::vector<Card> played_;
};

Result<std::unique_ptr<HeartsState>> parse_state(std::string_view text) {
  const auto tokens = split_blanks(text);
  std::size_t i = 0;
  PassDir dir = PassDir::kLeft;
  if (i < tokens.size()) {
    if (auto d = parse_pass_dir(tokens[i])) {
      dir = *d;
      ++i;
    }
  }
  Deal deal{};
  if (i == tokens.size() || tokens[i] == "seed") {
    std::uint64_t seed = 1;
    if (i < tokens.size()) {
      if (i + 1 == tokens.size()) return fail("hearts position: 'seed' needs a number");
      const auto t = tokens[i + 1];
      const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), seed);
      if (ec != std::errc{} || end != t.data() + t.size())
        return fail("hearts position: seed '{}' is not a number", t);
      i += 2;
    }
    Rng rng(seed);
    deal = random_deal(rng);
  } else {
    if (tokens.size() - i < 52)
      return fail("hearts position: a deal needs 52 cards (found {} words)", tokens.size() - i);
    auto d = parse_deal(std::span<const std::string_view>(tokens).subspan(i, 52));
    if (!d) return with_context(d.error(), "hearts position");
    deal = *d;
    i += 52;
  }
  auto state = std::make_unique<HeartsState>(deal, dir);
  for (std::size_t first = i; i < tokens.size(); ++i)
    if (auto r = state->apply(tokens[i]); !r)
      return with_context(r.error(), fmt::format("hearts position, card {}", i - first + 1));
  return state;
}

}  // namespace

Result<std::unique_ptr<AnyState>> new_any_state(std::string_view text) {
  return as_any_state(parse_state(text));
}

Result<State> parse_position_text(std::string_view text) { return as_position(parse_state(text)); }

namespace {

constexpr std::string_view kSeatLetters = "NESW";

Result<int> parse_seat_letter(std::string_view t) {
  const auto at = t.size() == 1 ? kSeatLetters.find(t[0]) : std::string_view::npos;
  if (at == std::string_view::npos) return fail("hearts view: seat '{}' is not N, E, S or W", t);
  return static_cast<int>(at);
}

}  // namespace

std::string view_text(const Observation& o) {
  const State& pub = o.public_state();
  const int seat = o.seat();
  // The hand as dealt: what is held now, what the seat played and passed, less what it got.
  CardSet played_by_us;
  for (int i = 0; i < pub.num_plays(); ++i)
    if (pub.play_seat(i) == seat) played_by_us.add(pub.play(i));
  const CardSet dealt = ((o.hand() | played_by_us) - o.received()) | o.passed_out();
  std::string out = fmt::format("view {} {} hand {}", kSeatLetters[static_cast<std::size_t>(seat)],
                                hearts::to_string(pub.pass_dir()), hearts::to_string(dealt));
  const auto& scores = pub.scores_before();
  if (scores != std::array<int, kNumPlayers>{})
    out += fmt::format(" scores {} {} {} {}", scores[0], scores[1], scores[2], scores[3]);
  if (!o.passed_out().empty()) out += " passed " + hearts::to_string(o.passed_out());
  if (!o.received().empty()) out += " received " + hearts::to_string(o.received());
  if (pub.num_plays() > 0) {
    out += " plays";
    for (int i = 0; i < pub.num_plays(); ++i)
      out += fmt::format(" {}:{}", kSeatLetters[static_cast<std::size_t>(pub.play_seat(i))],
                         hearts::to_string(pub.play(i)));
  }
  return out;
}

Result<Observation> parse_view_text(std::string_view text, const Options& rules) {
  const auto t = split_blanks(text);
  if (t.size() < 4 || t[0] != "view" || t[3] != "hand")
    return fail("hearts view: expected 'view SEAT DIR hand CARDS ...'");
  auto seat = parse_seat_letter(t[1]);
  if (!seat) return tl::unexpected(seat.error());
  auto dir = parse_pass_dir(t[2]);
  if (!dir) return with_context(dir.error(), "hearts view");
  // The cards after a keyword, up to the next keyword.
  std::size_t i = 4;
  const auto is_keyword = [](std::string_view w) {
    return w == "scores" || w == "passed" || w == "received" || w == "plays";
  };
  const auto cards_until_keyword = [&](std::string_view what) -> Result<CardSet> {
    std::string words;
    for (; i < t.size() && !is_keyword(t[i]); ++i) words += std::string(t[i]) + " ";
    auto c = parse_cards(words);
    if (!c) return with_context(c.error(), fmt::format("hearts view, {}", what));
    return *c;
  };
  auto hand = cards_until_keyword("hand");
  if (!hand) return tl::unexpected(hand.error());
  std::array<int, kNumPlayers> scores{};
  if (i < t.size() && t[i] == "scores") {
    if (i + kNumPlayers >= t.size()) return fail("hearts view: scores needs 4 numbers");
    for (int p = 0; p < kNumPlayers; ++p) {
      const auto w = t[i + 1 + static_cast<std::size_t>(p)];
      int v = 0;
      const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
      if (ec != std::errc{} || end != w.data() + w.size() || v < -1000000 || v > 1000000)
        return fail("hearts view: score '{}' is not a number from -1000000 to 1000000", w);
      scores[static_cast<std::size_t>(p)] = v;
    }
    i += 1 + kNumPlayers;
  }
  auto o = Observation::deal(*seat, *hand, *dir, rules, scores);
  if (!o) return with_context(o.error(), "hearts view");
  if (i < t.size() && t[i] == "passed") {
    ++i;
    auto c = cards_until_keyword("passed");
    if (!c) return tl::unexpected(c.error());
    if (auto r = o->pass(*c); !r) return with_context(r.error(), "hearts view, passed");
  }
  if (i < t.size() && t[i] == "received") {
    ++i;
    auto c = cards_until_keyword("received");
    if (!c) return tl::unexpected(c.error());
    if (auto r = o->receive(*c); !r) return with_context(r.error(), "hearts view, received");
  }
  if (i < t.size() && t[i] == "plays") {
    for (++i; i < t.size(); ++i) {
      const auto w = t[i];
      const auto colon = w.find(':');
      if (colon == std::string_view::npos)
        return fail("hearts view: play '{}' is not SEAT:CARD", w);
      auto by = parse_seat_letter(w.substr(0, colon));
      if (!by) return tl::unexpected(by.error());
      auto card = parse_card(w.substr(colon + 1));
      if (!card) return with_context(card.error(), "hearts view, plays");
      if (auto r = o->play(*by, *card); !r)
        return with_context(r.error(), fmt::format("hearts view, play {}", w));
    }
  }
  if (i < t.size()) return fail("hearts view: unexpected word '{}'", t[i]);
  return std::move(*o);
}

}  // namespace kibitz::hearts
