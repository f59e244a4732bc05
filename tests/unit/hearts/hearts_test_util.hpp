#pragma once
// Helpers the Hearts tests share: cards and hands from text.
#include <gtest/gtest.h>

#include <ostream>
#include <string_view>

#include "games/hearts/cards.hpp"
#include "games/hearts/state.hpp"

namespace kibitz::hearts {
// GoogleTest prints card sets as text.
inline void PrintTo(CardSet s, std::ostream* os) { *os << "{" << to_string(s) << "}"; }
inline void PrintTo(Card c, std::ostream* os) { *os << to_string(c); }
}  // namespace kibitz::hearts

namespace kibitz::hearts::testing {

inline Card card(std::string_view text) {
  auto c = parse_card(text);
  EXPECT_TRUE(c) << text;
  return c ? *c : Card::none();
}

inline CardSet cards(std::string_view text) {
  auto s = parse_cards(text);
  EXPECT_TRUE(s) << text << ": " << (s ? "" : s.error().message);
  return s ? *s : CardSet{};
}

// A deal from four hands of text (seats 0..3).
inline Deal deal(std::string_view n, std::string_view e, std::string_view s, std::string_view w) {
  return Deal{cards(n), cards(e), cards(s), cards(w)};
}

// Plays the cards in order (each must be legal).
inline void play_all(State& st, std::string_view seq) {
  std::size_t i = 0;
  while (i < seq.size()) {
    while (i < seq.size() && seq[i] == ' ') ++i;
    const std::size_t j = seq.find(' ', i);
    const std::string_view word =
        seq.substr(i, j == std::string_view::npos ? seq.size() - i : j - i);
    if (word.empty()) break;
    const Card c = card(word);
    ASSERT_TRUE(st.is_legal(c)) << word << " is not legal in\n" << st.to_string();
    st.apply(c);
    if (j == std::string_view::npos) break;
    i = j;
  }
}

}  // namespace kibitz::hearts::testing
