// The MoGo shapes and their lookup table (see patterns.hpp).
#include "games/go/patterns.hpp"

#include <array>
#include <string_view>

namespace kibitz::go {

namespace {

// A shape: three rows of three cells around the candidate (the centre, always empty). Cells:
// X a stone of one colour, O a stone of the other, . empty, # off the board, ? anything,
// x anything but X, o anything but O. Both colourings count (X black or X white); a shape
// marked x_to_move counts only when X's side is to move.
struct Shape {
  std::string_view rows[3];
  bool x_to_move = false;
};

constexpr std::array<Shape, 13> kShapes = {{
    // Hane: a move diagonal to one of our stones, touching an opponent stone.
    {{"XOX", "...", "???"}},        // enclosing hane
    {{"XO.", "...", "?.?"}},        // hane that leaves no cut
    {{"XO?", "X..", "x.?"}},        // magari (turn)
    {{"XOO", "...", "?.?"}, true},  // thin hane
    // Cuts (and the connections that prevent them).
    {{"XO?", "O.o", "?o?"}},  // unprotected cut
    {{"XO?", "O.X", "???"}},  // cut after a peep
    {{"?X?", "O.O", "ooo"}},  // de: pushing between two stones
    // Edge shapes (the bottom row off the board).
    {{"X.?", "O.?", "###"}},        // chase along the edge
    {{"OX?", "X.O", "###"}},        // block the cut on the edge
    {{"?X?", "x.O", "###"}},        // block the connection on the edge
    {{"?XO", "x.x", "###"}},        // sagari (descend)
    {{"?OX", "o.O", "###"}, true},  // throw-in
    {{"?OX", "X.O", "###"}},        // cut on the edge
}};

// Allowed cell states (bit per Color value) for a pattern character with X = colour a.
unsigned allowed(char ch, Color a) {
  const Color b = opponent(a);
  const unsigned all = 0xF;
  switch (ch) {
    case 'X':
      return 1u << a;
    case 'O':
      return 1u << b;
    case '.':
      return 1u << kEmpty;
    case '#':
      return 1u << kWall;
    case 'x':
      return all & ~(1u << a);
    case 'o':
      return all & ~(1u << b);
    default:
      return all;
  }
}

// Cell (r, c) of the 3x3 (row 0 to 2, column 0 to 2) under symmetry t: bit 0 transposes,
// bit 1 mirrors columns, bit 2 mirrors rows.
std::array<int, 2> transform_cell(int r, int c, int t) {
  if (t & 1) std::swap(r, c);
  if (t & 2) c = 2 - c;
  if (t & 4) r = 2 - r;
  return {r, c};
}

// Bit position in the neighbourhood code of a cell (the centre has none).
int code_index(int r, int c) {
  const int i = r * 3 + c;
  return i < 4 ? i : i - 1;
}

struct Table {
  std::array<std::uint8_t, 1 << 16> bits{};  // bit c: matches for colour c to move

  Table() {
    for (const Shape& s : kShapes)
      for (int t = 0; t < 8; ++t)
        for (const Color a : {kBlack, kWhite}) {
          std::array<unsigned, 8> cells{};
          for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) {
              if (r == 1 && c == 1) continue;
              const auto [tr, tc] = transform_cell(r, c, t);
              cells[code_index(tr, tc)] = allowed(s.rows[r][c], a);
            }
          const std::uint8_t mark = s.x_to_move ? static_cast<std::uint8_t>(1u << a) : 3u;
          expand(cells, 0, 0, mark);
        }
  }

  void expand(const std::array<unsigned, 8>& cells, int i, unsigned code, std::uint8_t mark) {
    if (i == 8) {
      bits[code] |= mark;
      return;
    }
    for (unsigned v = 0; v < 4; ++v)
      if (cells[i] & (1u << v)) expand(cells, i + 1, code | (v << (2 * i)), mark);
  }
};

const Table& table() {
  static const Table t;
  return t;
}

}  // namespace

std::uint16_t neighbourhood(const Position& p, int sq) {
  unsigned code = 0;
  int i = 0;
  for (const int dy : {-kStride, 0, kStride})
    for (const int dx : {-1, 0, 1}) {
      if (dy == 0 && dx == 0) continue;
      code |= static_cast<unsigned>(p.at(sq + dy + dx)) << (2 * i++);
    }
  return static_cast<std::uint16_t>(code);
}

bool shape_matches(std::uint16_t neighbourhood, Color c) {
  return (table().bits[neighbourhood] >> c) & 1u;
}

}  // namespace kibitz::go
