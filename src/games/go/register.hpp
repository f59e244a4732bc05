#pragma once
// The game's entry in the registry (games/registry.hpp), listed in games/register_builtin.cpp.
#include "games/registry.hpp"

namespace kibitz::go {

GameEntry registry_entry();

}  // namespace kibitz::go
