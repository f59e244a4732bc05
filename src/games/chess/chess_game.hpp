#pragma once
// Chess behind the registry's type-erased AnyState (moves in UCI notation; SAN accepted too).
#include <memory>

#include "api/any_state.hpp"

namespace kibitz::chess {

// The position text's starting position (the registry entry's StateFactory).
Result<std::unique_ptr<AnyState>> new_any_state(std::string_view text);

}  // namespace kibitz::chess
