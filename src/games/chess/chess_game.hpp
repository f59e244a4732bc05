#pragma once
// Chess behind the registry's type-erased AnyState (moves in UCI notation; SAN accepted too).
// Position text: a FEN ("" or "startpos": the standard start), then optionally "moves" and
// the moves played from it, which make the game's history (repetitions count as in the game),
// e.g. "startpos moves e2e4 e7e5".
#include <memory>

#include "api/any_state.hpp"
#include "games/chess/pgn.hpp"
#include "games/chess/position.hpp"

namespace kibitz::chess {

// The position text's starting position (the registry entry's StateFactory).
Result<std::unique_ptr<AnyState>> new_any_state(std::string_view text);
// The same position text as the game's own Position (the engines read it so).
Result<Position> parse_position_text(std::string_view text);
// The same position text as a game: its start and the moves played from it (UCI or SAN read).
Result<PgnGame> parse_game_text(std::string_view text);

}  // namespace kibitz::chess
