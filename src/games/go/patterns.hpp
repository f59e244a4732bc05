#pragma once
// 3x3 shape patterns around an empty point, as MoGo's playouts use them (Gelly, Wang, Munos
// and Teytaud, "Modification of UCT with Patterns in Monte-Carlo Go", 2006, figures 2-5:
// hane, cut, and edge shapes): a move at the centre of a matching shape is "interesting" for
// the side to move. The shapes are written once in patterns.cpp; a 64K table built from them
// on first use answers a lookup of the 8 surrounding points in one read, for all 8 board
// symmetries and both colours.
#include <cstdint>

#include "games/go/board.hpp"

namespace kibitz::go {

// The 8 points around sq as 2 bits each (Color values; kWall off the board), in row order
// south-west, south, south-east, west, east, north-west, north, north-east.
std::uint16_t neighbourhood(const Position& p, int sq);

// A MoGo shape matches around an empty point for colour c to move.
bool shape_matches(std::uint16_t neighbourhood, Color c);

inline bool is_shape_move(const Position& p, int sq, Color c) {
  return shape_matches(neighbourhood(p, sq), c);
}

}  // namespace kibitz::go
