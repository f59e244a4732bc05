#include "cli/hearts_play.hpp"

#include <fmt/format.h>

#include <istream>
#include <memory>
#include <optional>
#include <ostream>
#include <string_view>

#include "core/rng.hpp"
#include "core/text.hpp"
#include "games/hearts/policy.hpp"

namespace kibitz::cli {

using hearts::Card;
using hearts::CardSet;
using hearts::kNumPlayers;
using hearts::Phase;
using hearts::State;

namespace {

constexpr std::array<std::string_view, kNumPlayers> kSeatNames = {"North", "East", "South", "West"};
constexpr std::array<std::string_view, hearts::kNumSuits> kSuitNames = {"clubs", "diamonds",
                                                                        "spades", "hearts"};

// Why `card` may not be played from `hand` now, in the rules' terms (the hand holds it).
std::string illegal_reason(const State& st, CardSet hand, Card card) {
  const std::string c = hearts::to_string(card);
  if (st.num_plays() == 0) return "the first trick is led with 2C";
  if (st.trick_size() > 0) {
    const hearts::Suit led = st.trick_card(0).suit();
    if (hand.has(led) && card.suit() != led)
      return fmt::format("you must follow suit ({})", kSuitNames[led]);
    if (st.is_first_trick() && hearts::kPointCards.contains(card))
      return fmt::format("{}: no points on the first trick while you hold other cards", c);
  } else if (card.suit() == hearts::kHearts && !st.hearts_broken()) {
    return "hearts are not broken yet: lead another suit";
  }
  return fmt::format("{} is not a legal play now", c);
}

class PlaySession {
 public:
  PlaySession(std::istream& in, std::ostream& out, const HeartsPlayOptions& options)
      : in_(in), out_(out), o_(options), human_(options.seat), deals_(options.seed) {}

  Result<void> setup();
  int run();

 private:
  std::string name(int seat) const {
    return seat == human_ ? "You" : std::string(kSeatNames[static_cast<std::size_t>(seat)]);
  }
  std::string seat_list(const std::array<int, kNumPlayers>& v) const;
  // The person's next line (trimmed), or nothing at `quit` or the end of input.
  std::optional<std::string> ask(std::string_view prompt);
  bool play_hand(int index);  // false: the person left
  std::optional<CardSet> ask_pass(const State& st);
  std::optional<Card> ask_card(const State& st);
  Card bot_card(const State& st, int seat);
  CardSet bot_pass(const State& st, int seat);
  hearts::Bot& hint_bot();
  void help();

  std::istream& in_;
  std::ostream& out_;
  HeartsPlayOptions o_;
  int human_;
  Rng deals_;
  std::array<std::unique_ptr<hearts::Bot>, kNumPlayers> bots_;  // none at the person's seat
  std::unique_ptr<hearts::Bot> hint_;
  std::array<int, kNumPlayers> scores_{};
};

Result<void> PlaySession::setup() {
  if (human_ < 0 || human_ >= kNumPlayers) return fail("seat {} (expected 0 to 3)", human_);
  std::size_t next = 0;
  for (int seat = 0; seat < kNumPlayers; ++seat) {
    if (seat == human_) continue;
    // Each seat its own seed: three search bots must not sample the same worlds.
    auto bot = hearts::make_bot(o_.bots[next++], o_.search,
                                o_.seed * 4 + static_cast<std::uint64_t>(seat));
    if (!bot) return tl::unexpected(bot.error());
    bots_[static_cast<std::size_t>(seat)] = std::move(*bot);
  }
  return {};
}

std::string PlaySession::seat_list(const std::array<int, kNumPlayers>& v) const {
  std::string out;
  for (int p = 0; p < kNumPlayers; ++p)
    out += fmt::format("{}{} {}", p ? ", " : "", name(p), v[static_cast<std::size_t>(p)]);
  return out;
}

std::optional<std::string> PlaySession::ask(std::string_view prompt) {
  out_ << prompt << std::flush;
  std::string line;
  if (!std::getline(in_, line)) {
    out_ << '\n';
    return std::nullopt;
  }
  std::string text(trim(line));
  const std::string lower = to_lower(text);
  if (lower == "quit" || lower == "exit") return std::nullopt;
  return text;
}

hearts::Bot& PlaySession::hint_bot() {
  if (!hint_) {
    // "search" always exists; the seed keeps hints apart from the opponents' searches.
    hint_ = std::move(*hearts::make_bot("search", o_.search, o_.seed * 4 + 97));
  }
  return *hint_;
}

void PlaySession::help() {
  out_ << "Type a card as QS, 10h or Q♠ (three of them when passing), 'hint' for the search "
          "bot's suggestion, 'quit' to stop.\n";
}

CardSet PlaySession::bot_pass(const State& st, int seat) {
  const hearts::Observation ob = st.information_state(seat);
  const CardSet cards = bots_[static_cast<std::size_t>(seat)]->choose_pass(ob);
  // A bot's mistake must not end the person's game: the rule bot's pass instead.
  if (cards.size() != 3 || !(cards - st.hand(seat)).empty()) return hearts::rule_pass(ob);
  return cards;
}

Card PlaySession::bot_card(const State& st, int seat) {
  const hearts::Observation ob = st.information_state(seat);
  const Card c = bots_[static_cast<std::size_t>(seat)]->choose_play(ob).card;
  return st.is_legal(c) ? c : hearts::rule_play(ob);
}

std::optional<CardSet> PlaySession::ask_pass(const State& st) {
  const CardSet hand = st.hand(human_);
  const int to = hearts::pass_target(human_, st.pass_dir());
  out_ << "Your hand: " << hearts::to_pretty(hand) << '\n';
  while (true) {
    const auto line = ask(fmt::format("Pass 3 cards to {}> ", name(to)));
    if (!line) return std::nullopt;
    const std::string lower = to_lower(*line);
    if (lower.empty()) continue;
    if (lower == "help" || lower == "?") {
      help();
      continue;
    }
    if (lower == "hint") {
      const CardSet h = hint_bot().choose_pass(st.information_state(human_));
      out_ << "hint: pass " << hearts::to_string(h) << '\n';
      continue;
    }
    const auto cards = hearts::parse_cards(*line);
    if (!cards) {
      out_ << cards.error().message << '\n';
      continue;
    }
    if (cards->size() != 3) {
      out_ << fmt::format("pass exactly 3 cards (got {})\n", cards->size());
      continue;
    }
    if (!(*cards - hand).empty()) {
      out_ << fmt::format("not in your hand: {}\n", hearts::to_string(*cards - hand));
      continue;
    }
    return *cards;
  }
}

std::optional<Card> PlaySession::ask_card(const State& st) {
  const CardSet hand = st.hand(human_);
  const CardSet legal = st.legal_set();
  std::string trick = fmt::format("Trick {}:", st.tricks_done() + 1);
  if (st.trick_size() == 0) trick += " your lead";
  for (int i = 0; i < st.trick_size(); ++i)
    trick += fmt::format("{} {} {}", i ? "," : "", name((st.leader() + i) % kNumPlayers),
                         hearts::to_string(st.trick_card(i)));
  out_ << trick << '\n' << "Your hand: " << hearts::to_pretty(hand) << '\n';
  while (true) {
    const auto line = ask(fmt::format("Your card (legal: {})> ", hearts::to_string(legal)));
    if (!line) return std::nullopt;
    const std::string lower = to_lower(*line);
    if (lower.empty()) continue;
    if (lower == "help" || lower == "?") {
      help();
      continue;
    }
    if (lower == "hint") {
      const hearts::Decision d = hint_bot().choose_play(st.information_state(human_));
      std::string detail;
      for (std::size_t i = 0; i < d.moves.size() && i < 3; ++i)
        detail += fmt::format("{} {} {:.1f} pts", i ? "," : ";", hearts::to_string(d.moves[i].card),
                              d.moves[i].expected_points);
      out_ << fmt::format("hint: {} ({}{})\n", hearts::to_string(d.card), d.strategy, detail);
      continue;
    }
    const auto card = hearts::parse_card(*line);
    if (!card) {
      out_ << card.error().message << '\n';
      continue;
    }
    if (!hand.contains(*card)) {
      out_ << fmt::format("{} is not in your hand\n", hearts::to_string(*card));
      continue;
    }
    if (!legal.contains(*card)) {
      out_ << illegal_reason(st, hand, *card) << '\n';
      continue;
    }
    return *card;
  }
}

bool PlaySession::play_hand(int index) {
  const auto dir = o_.rules.pass_cards ? hearts::pass_dir_for_hand(index) : hearts::PassDir::kNone;
  State st(hearts::random_deal(deals_), dir, o_.rules, scores_);
  out_ << fmt::format("\n=== Hand {} (pass {}) ===\n", index + 1, hearts::to_string(dir));

  if (st.phase() == Phase::kPass) {
    std::array<CardSet, kNumPlayers> passes{};
    for (int p = 0; p < kNumPlayers; ++p) {
      if (p != human_) continue;
      const auto cards = ask_pass(st);
      if (!cards) return false;
      passes[static_cast<std::size_t>(p)] = *cards;
    }
    for (int p = 0; p < kNumPlayers; ++p)
      if (p != human_) passes[static_cast<std::size_t>(p)] = bot_pass(st, p);
    // The state takes the picks seat by seat from North; the exchange follows the twelfth.
    for (int p = 0; p < kNumPlayers; ++p)
      for (const Card c : passes[static_cast<std::size_t>(p)]) st.apply(c);
    int from = human_;
    for (int p = 0; p < kNumPlayers; ++p)
      if (p != human_ && hearts::pass_target(p, dir) == human_) from = p;
    out_ << fmt::format("You receive {} from {}.\n", hearts::to_string(st.received(human_)),
                        name(from));
  }

  while (!st.is_terminal()) {
    const int p = st.current_player();
    Card c;
    if (p == human_) {
      const auto card = ask_card(st);
      if (!card) return false;
      c = *card;
      out_ << fmt::format("You play {}\n", hearts::to_string(c));  // piped input is not echoed
    } else {
      c = bot_card(st, p);
      out_ << fmt::format("{} plays {}\n", name(p), hearts::to_string(c));
    }
    st.apply(c);
    if (st.trick_size() == 0) {
      int points = 0;
      std::string cards;
      for (int i = st.num_plays() - 4; i < st.num_plays(); ++i) {
        points += hearts::card_points(st.play(i), o_.rules.jd_bonus);
        cards += fmt::format("{}{} {}", cards.empty() ? "" : ", ", name(st.play_seat(i)),
                             hearts::to_string(st.play(i)));
      }
      const int w = st.leader();
      const std::string pts =
          points == 0 ? std::string()
                      : fmt::format(", {} point{}", points, points == 1 || points == -1 ? "" : "s");
      out_ << fmt::format("{} {} the trick ({}{})\n", name(w), w == human_ ? "take" : "takes",
                          cards, pts);
    }
  }

  for (int p = 0; p < kNumPlayers; ++p)
    if ((st.taken(p) & hearts::kPointCards) == hearts::kPointCards)
      out_ << fmt::format("{} shot the moon!\n", name(p));
  const auto points = st.hand_scores();
  for (int p = 0; p < kNumPlayers; ++p)
    scores_[static_cast<std::size_t>(p)] += points[static_cast<std::size_t>(p)];
  out_ << "Hand points: " << seat_list(points) << '\n';
  out_ << "Scores: " << seat_list(scores_) << '\n';
  return true;
}

int PlaySession::run() {
  out_ << fmt::format("Hearts to {} points. You are {}", o_.rules.game_target,
                      kSeatNames[static_cast<std::size_t>(human_)]);
  for (int seat = 0; seat < kNumPlayers; ++seat)
    if (seat != human_)
      out_ << fmt::format("; {} is {}", name(seat), bots_[static_cast<std::size_t>(seat)]->name());
  out_ << ".\n";
  help();
  int hands = 0;
  while (!hearts::GameScore{scores_}.over(o_.rules)) {
    if (!play_hand(hands++)) {
      out_ << "Bye.\n" << std::flush;
      return 0;
    }
  }
  const auto winners = hearts::GameScore{scores_}.winners();
  std::string names;
  for (int p = 0; p < kNumPlayers; ++p)
    if (winners[static_cast<std::size_t>(p)]) names += (names.empty() ? "" : " and ") + name(p);
  out_ << fmt::format("\nGame over after {} hands. Final scores: {}. Winner: {}.\n", hands,
                      seat_list(scores_), names)
       << std::flush;
  return 0;
}

}  // namespace

int hearts_play_session(std::istream& in, std::ostream& out, const HeartsPlayOptions& options) {
  PlaySession session(in, out, options);
  if (auto r = session.setup(); !r) {
    out << "error: " << r.error().message << '\n' << std::flush;
    return 2;
  }
  return session.run();
}

}  // namespace kibitz::cli
