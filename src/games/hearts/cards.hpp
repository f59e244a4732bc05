#pragma once
// Cards and card sets for Hearts. A card is suit * 16 + rank (rank 0 = two .. 12 = ace), so a
// set of cards is one 64-bit word with each suit in its own 16-bit lane: "the clubs of a
// hand", "the lowest heart above the ten" and "how many spades" are a shift, a mask and a
// popcount. Text is OpenSpiel's notation: rank 23456789TJQKA then suit CDHS ("QS", "TH").
#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/error.hpp"

namespace kibitz::hearts {

enum Suit : std::uint8_t { kClubs = 0, kDiamonds = 1, kSpades = 2, kHearts = 3 };
inline constexpr int kNumSuits = 4;
inline constexpr int kNumRanks = 13;
inline constexpr int kNumCards = 52;
inline constexpr int kNumPlayers = 4;
inline constexpr int kHandSize = 13;
inline constexpr std::uint8_t kNoCardValue = 0xFF;

// A card, the move type of the game (trivially copyable, one byte).
struct Card {
  std::uint8_t v = kNoCardValue;

  constexpr Card() = default;
  constexpr explicit Card(int index) : v(static_cast<std::uint8_t>(index)) {}
  constexpr Card(Suit s, int rank) : v(static_cast<std::uint8_t>(s * 16 + rank)) {}
  static constexpr Card none() { return Card(); }

  constexpr bool valid() const { return v != kNoCardValue; }
  constexpr Suit suit() const { return static_cast<Suit>(v >> 4); }
  constexpr int rank() const { return v & 15; }
  constexpr int index() const { return v; }  // bit index in a CardSet
  constexpr bool operator==(const Card&) const = default;
};

inline constexpr Card kTwoOfClubs{kClubs, 0};
inline constexpr Card kQueenOfSpades{kSpades, 10};
inline constexpr Card kJackOfDiamonds{kDiamonds, 9};

// A set of cards as a bit mask (bit = Card::index()).
class CardSet {
 public:
  constexpr CardSet() = default;
  constexpr explicit CardSet(std::uint64_t bits) : bits_(bits) {}
  static constexpr CardSet of(Card c) { return CardSet(std::uint64_t{1} << c.index()); }
  static constexpr CardSet suit(Suit s) { return CardSet(std::uint64_t{0x1FFF} << (s * 16)); }
  static constexpr CardSet deck() { return CardSet(0x1FFF1FFF1FFF1FFFull); }

  constexpr std::uint64_t bits() const { return bits_; }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr int size() const { return std::popcount(bits_); }
  constexpr bool contains(Card c) const { return (bits_ >> c.index()) & 1; }
  constexpr void add(Card c) { bits_ |= std::uint64_t{1} << c.index(); }
  constexpr void remove(Card c) { bits_ &= ~(std::uint64_t{1} << c.index()); }

  constexpr CardSet in_suit(Suit s) const { return CardSet(bits_ & suit(s).bits_); }
  constexpr int count(Suit s) const { return in_suit(s).size(); }
  constexpr bool has(Suit s) const { return !in_suit(s).empty(); }

  // Lowest / highest card (the set must not be empty).
  constexpr Card lowest() const { return Card(std::countr_zero(bits_)); }
  constexpr Card highest() const { return Card(63 - std::countl_zero(bits_)); }
  constexpr Card pop_lowest() {
    const Card c = lowest();
    bits_ &= bits_ - 1;
    return c;
  }
  // Cards of the same suit as c ranked below / above it.
  constexpr CardSet below(Card c) const {
    return CardSet(bits_ & suit(c.suit()).bits_ & ((std::uint64_t{1} << c.index()) - 1));
  }
  constexpr CardSet above(Card c) const {
    return CardSet(bits_ & suit(c.suit()).bits_ & ~((std::uint64_t{2} << c.index()) - 1));
  }

  constexpr CardSet operator|(CardSet o) const { return CardSet(bits_ | o.bits_); }
  constexpr CardSet operator&(CardSet o) const { return CardSet(bits_ & o.bits_); }
  constexpr CardSet operator-(CardSet o) const { return CardSet(bits_ & ~o.bits_); }
  constexpr CardSet& operator|=(CardSet o) { return bits_ |= o.bits_, *this; }
  constexpr CardSet& operator&=(CardSet o) { return bits_ &= o.bits_, *this; }
  constexpr CardSet& operator-=(CardSet o) { return bits_ &= ~o.bits_, *this; }
  constexpr bool operator==(const CardSet&) const = default;

  // Iteration from the lowest card up.
  struct Iterator {
    std::uint64_t b;
    constexpr Card operator*() const { return Card(std::countr_zero(b)); }
    constexpr Iterator& operator++() { return b &= b - 1, *this; }
    constexpr bool operator!=(const Iterator& o) const { return b != o.b; }
  };
  constexpr Iterator begin() const { return {bits_}; }
  constexpr Iterator end() const { return {0}; }

 private:
  std::uint64_t bits_ = 0;
};

inline constexpr CardSet kHeartsSet = CardSet::suit(kHearts);
// Cards that score (hearts and the queen of spades).
inline constexpr CardSet kPointCards = kHeartsSet | CardSet::of(kQueenOfSpades);

// Points a card scores for the player who takes it (J♦ only under the J♦ variant).
constexpr int card_points(Card c, bool jd_bonus) {
  if (c.suit() == kHearts) return 1;
  if (c == kQueenOfSpades) return 13;
  if (jd_bonus && c == kJackOfDiamonds) return -10;
  return 0;
}

inline constexpr std::string_view kRankChars = "23456789TJQKA";
inline constexpr std::string_view kSuitChars = "CDSH";

// "QS", "TH", "2C".
std::string to_string(Card c);
// Cards from the lowest up, separated by spaces: "2C 7C QD AH".
std::string to_string(CardSet s);
// A hand grouped by suit for people: "S: A Q 4  H: K 9 2  D: -  C: J 8".
std::string to_pretty(CardSet s);

// Reads "QS", "qs", "Qs", "10S", "Q♠" (also ♤♡♢♧ and the coloured glyphs); an error names
// the text and what is wrong with it.
Result<Card> parse_card(std::string_view text);
// Cards separated by blanks or commas; duplicates are an error.
Result<CardSet> parse_cards(std::string_view text);

}  // namespace kibitz::hearts
