#pragma once
// Gomoku for `kibitz match` (Gomocup engines and in-process bots; offset openings; SGF).
#include <memory>

#include "match/arena.hpp"

namespace kibitz::match {

// The board size and rule come from the settings (defaults 15x15 freestyle, 19x19 capture).
Result<std::unique_ptr<GameKind>> make_gomoku_kind(const GameSettings& settings);

}  // namespace kibitz::match
