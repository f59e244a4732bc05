#pragma once
// PGN export of a game: the Seven Tag Roster (plus SetUp/FEN for a non-standard start and
// Termination), SAN movetext wrapped at 80 columns, and the result.
#include <string>
#include <utility>
#include <vector>

#include "games/chess/position.hpp"

namespace kibitz::chess {

struct PgnGame {
  Position start;  // the standard start unless set from a FEN
  std::vector<Move> moves;
  // Tags beyond the roster, or overrides of it ("Event", "White", ...), in output order.
  std::vector<std::pair<std::string, std::string>> tags;
  std::string result;  // "1-0", "0-1", "1/2-1/2" or "*"; empty = from the final position
};

// "1-0", "0-1", "1/2-1/2" for a finished position, "*" otherwise.
std::string result_string(const Position& final_position);
std::string to_pgn(const PgnGame& game);

}  // namespace kibitz::chess
