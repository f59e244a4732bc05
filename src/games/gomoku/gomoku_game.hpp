#pragma once
// Gomoku behind the registry's type-erased AnyState. Position text: an optional rule name
// (freestyle, exact5, renju, capture) and board size, then the moves played from the start,
// e.g. "renju 15 h8 i9 j10" or "" (freestyle 15x15, empty board); moves as "h8" or "7,7".
// Stones of a board whose order is unknown come first, colour-prefixed and placed with no
// rule checked ("b:h8 w:h9 b:i9", black to move when the colours are even), e.g. from
// Gomocup's BOARD; moves may follow them.
#include "api/any_state.hpp"
#include "games/gomoku/position.hpp"

namespace kibitz::gomoku {

// The position text's starting position (the registry entry's StateFactory).
Result<std::unique_ptr<AnyState>> new_any_state(std::string_view text);
// The same position text as the game's own Position (the engines read it so).
Result<Position> parse_position_text(std::string_view text);

}  // namespace kibitz::gomoku
