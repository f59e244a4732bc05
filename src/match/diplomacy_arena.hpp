#pragma once
// Diplomacy in `kibitz match`: seven powers mapped onto the two-player arena. Opening k is a
// power (k mod 7, map order) and a game seed (--seed + k); the first seat of a game
// (GameJob::seats[0]) plays that power and the second seat the other six, and the two games
// of a pair swap the players. A game is a whole game (GameRunner::play, to --max-year, 1930 by
// default); a solo (or the last power standing) wins it for the player who holds that power,
// otherwise the player with more centres per power at the end wins. Players are the
// in-process bots (random, heuristic, rm); Diplomacy has no engine protocol here.
#include <memory>

#include "match/arena.hpp"

namespace kibitz::match {

// Refuses the board games' settings (--board-size, --rule, --komi, --max-moves).
Result<std::unique_ptr<GameKind>> make_diplomacy_kind(const GameSettings& settings);

}  // namespace kibitz::match
