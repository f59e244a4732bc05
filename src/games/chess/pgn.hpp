#pragma once
// PGN export of a game (the Seven Tag Roster, plus SetUp/FEN for a non-standard start and
// Termination; SAN movetext wrapped at 80 columns; the result) and PGN import: the main line
// of each game, with comments, variations, NAGs and move numbers skipped.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.hpp"
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
// Movetext comments ({...}) are dropped; `comments`, when given, holds one per move of the
// game (empty where none) and is written after each move.
std::string to_pgn(const PgnGame& game, const std::vector<std::string>& comments);

// Every game of a PGN text. Tags are kept in `tags` (Result in `result`); a [FEN] tag sets
// the start. An illegal or unreadable move is an error naming the game and the token.
Result<std::vector<PgnGame>> parse_pgn(std::string_view text);
// The same for a file; errors also name the file.
Result<std::vector<PgnGame>> load_pgn_file(const std::string& path);

}  // namespace kibitz::chess
