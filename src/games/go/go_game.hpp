#pragma once
// Go behind the registry's type-erased AnyState. Position text: an optional board size (5 to
// 19, default 19) and "komi K" (default 7.5), then the moves played from the empty board as
// GTP vertices or "pass", e.g. "9 komi 6.5 e5 c3 pass"; a move prefixed "B:" or "W:" is
// played by that colour whoever is to move (handicap stones played as moves). Tromp-Taylor area
// scoring, positional superko, suicide illegal (go::Rules defaults).
#include "api/any_state.hpp"
#include "games/go/board.hpp"
#include "games/go/sgf.hpp"

namespace kibitz::go {

// The position text's starting position (the registry entry's StateFactory).
Result<std::unique_ptr<AnyState>> new_any_state(std::string_view text);
// The same position text as the game's own Position (the engines read it so).
Result<Position> parse_position_text(std::string_view text);
// The same position text as a game record (size, komi, each move with its colour).
Result<GameRecord> parse_record_text(std::string_view text);

}  // namespace kibitz::go
