#include "games/hearts/cards.hpp"

#include <fmt/format.h>

#include <cctype>
#include <optional>

#include "core/text.hpp"

namespace kibitz::hearts {

std::string to_string(Card c) {
  if (!c.valid() || c.rank() >= kNumRanks) return "??";
  return {kRankChars[static_cast<std::size_t>(c.rank())], kSuitChars[c.suit()]};
}

std::string to_string(CardSet s) {
  std::string out;
  for (const Card c : s) {
    if (!out.empty()) out += ' ';
    out += to_string(c);
  }
  return out;
}

std::string to_pretty(CardSet s) {
  static constexpr std::array<Suit, 4> kOrder = {kSpades, kHearts, kDiamonds, kClubs};
  static constexpr std::array<const char*, 4> kGlyph = {"S", "H", "D", "C"};
  std::string out;
  for (std::size_t i = 0; i < kOrder.size(); ++i) {
    if (i) out += "  ";
    out += kGlyph[i];
    out += ':';
    const CardSet in = s.in_suit(kOrder[i]);
    if (in.empty()) out += " -";
    for (int r = kNumRanks - 1; r >= 0; --r)
      if (in.contains(Card(kOrder[i], r))) {
        out += ' ';
        out += kRankChars[static_cast<std::size_t>(r)];
      }
  }
  return out;
}

namespace {

// A suit from its letter or one of the Unicode suit glyphs (UTF-8, 3 bytes each).
std::optional<Suit> parse_suit(std::string_view t) {
  if (t.size() == 1) {
    switch (std::toupper(static_cast<unsigned char>(t[0]))) {
      case 'C':
        return kClubs;
      case 'D':
        return kDiamonds;
      case 'S':
        return kSpades;
      case 'H':
        return kHearts;
      default:
        return std::nullopt;
    }
  }
  // U+2660..U+2667: ♠ ♡ ♢ ♣ ♤ ♥ ♦ ♧ (E2 99 A0..A7).
  if (t.size() == 3 && t[0] == '\xE2' && t[1] == '\x99') {
    switch (static_cast<unsigned char>(t[2])) {
      case 0xA0:
      case 0xA4:
        return kSpades;
      case 0xA1:
      case 0xA5:
        return kHearts;
      case 0xA2:
      case 0xA6:
        return kDiamonds;
      case 0xA3:
      case 0xA7:
        return kClubs;
      default:
        return std::nullopt;
    }
  }
  return std::nullopt;
}

}  // namespace

Result<Card> parse_card(std::string_view text) {
  const std::string_view t = trim(text);
  if (t.empty()) return fail("empty card (expected e.g. QS, TH, 2C)");
  std::size_t rank_len = 1;
  int rank = -1;
  if (t.size() >= 2 && t[0] == '1' && t[1] == '0') {
    rank = 8;
    rank_len = 2;
  } else {
    const char r = static_cast<char>(std::toupper(static_cast<unsigned char>(t[0])));
    const auto pos = kRankChars.find(r);
    if (pos != std::string_view::npos) rank = static_cast<int>(pos);
  }
  if (rank < 0) return fail("card '{}': unknown rank (expected one of 23456789TJQKA)", t);
  const auto suit = parse_suit(t.substr(rank_len));
  if (!suit) return fail("card '{}': unknown suit (expected C, D, S or H)", t);
  return Card(*suit, rank);
}

Result<CardSet> parse_cards(std::string_view text) {
  CardSet out;
  std::string_view rest = text;
  while (true) {
    const auto b = rest.find_first_not_of(" \t\r\n,");
    if (b == std::string_view::npos) break;
    rest = rest.substr(b);
    const auto e = rest.find_first_of(" \t\r\n,");
    const std::string_view word = rest.substr(0, e);
    auto c = parse_card(word);
    if (!c) return tl::unexpected(c.error());
    if (out.contains(*c)) return fail("card {} appears twice", to_string(*c));
    out.add(*c);
    if (e == std::string_view::npos) break;
    rest = rest.substr(e);
  }
  return out;
}

}  // namespace kibitz::hearts
