#pragma once
// Chess behind the registry's type-erased AnyState (moves in UCI notation; SAN accepted too).
#include <memory>

#include "api/registry.hpp"

namespace kibitz::chess {

GameEntry chess_game_entry();

}  // namespace kibitz::chess
