// Text: the board diagram and the move notations ("h8", Gomocup's "x,y").
#include "games/gomoku/position.hpp"

#include <fmt/format.h>
#include <string>

#include "games/gomoku/position_detail.hpp"

namespace kibitz::gomoku {

using namespace detail;

// --- text ----------------------------------------------------------------------------------

std::string Position::to_string() const {
  const int n = variant_.size;
  std::string out = "   ";
  for (int x = 0; x < n; ++x) {
    out += static_cast<char>('a' + x);
    out += ' ';
  }
  out += '\n';
  for (int y = 0; y < n; ++y) {
    out += fmt::format("{:>2} ", y + 1);
    for (int x = 0; x < n; ++x) {
      const auto s = board_[square_of(x, y)];
      out += s == kBlack ? 'X' : s == kWhite ? 'O' : '.';
      out += ' ';
    }
    out += '\n';
  }
  out += fmt::format("{} {}", rule_name(variant_.rule),
                     is_terminal() ? (winner() == 0   ? "black won"
                                      : winner() == 1 ? "white won"
                                                      : "draw")
                                   : (side_ == kBlack ? "black to move" : "white to move"));
  if (variant_.rule == Rule::kCapture)
    out += fmt::format(", captured black {} white {}", captures_[0], captures_[1]);
  out += '\n';
  return out;
}

std::string to_text(Move m) {
  if (!m) return "none";
  return fmt::format("{}{}", static_cast<char>('a' + x_of(m.sq)), y_of(m.sq) + 1);
}

std::string to_gomocup(Move m) {
  if (!m) return "none";
  return fmt::format("{},{}", x_of(m.sq), y_of(m.sq));
}

Result<Move> parse_move(const Position& pos, std::string_view text) {
  std::string_view t = text;
  while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
  while (!t.empty() && (t.back() == ' ' || t.back() == '\t' || t.back() == '\r'))
    t.remove_suffix(1);
  const auto number = [](std::string_view s, int& value) {
    if (s.empty() || s.size() > 3) return false;
    value = 0;
    for (char ch : s) {
      if (ch < '0' || ch > '9') return false;
      value = value * 10 + (ch - '0');
    }
    return true;
  };
  int x = -1, y = -1;
  bool ok = false;
  if (const auto comma = t.find(','); comma != std::string_view::npos) {
    std::string_view a = t.substr(0, comma), b = t.substr(comma + 1);
    while (!b.empty() && b.front() == ' ') b.remove_prefix(1);
    while (!a.empty() && a.back() == ' ') a.remove_suffix(1);
    ok = number(a, x) && number(b, y);
  } else if (t.size() >= 2) {
    const char col = static_cast<char>(t.front() | 0x20);  // lower case
    int row = 0;
    if (col >= 'a' && col <= 'z' && number(t.substr(1), row)) {
      x = col - 'a';
      y = row - 1;
      ok = true;
    }
  }
  if (!ok)
    return fail("bad gomoku move '{}' (a column letter and a row number like h8, or x,y)", text);
  const int n = pos.size();
  if (x < 0 || y < 0 || x >= n || y >= n)
    return fail("move '{}' is off the {}x{} board", text, n, n);
  const Move m{static_cast<std::uint16_t>(square_of(x, y))};
  if (pos.stone(m.sq) != kEmpty) return fail("point '{}' is occupied", text);
  return m;
}

}  // namespace kibitz::gomoku
