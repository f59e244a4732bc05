#pragma once
// Go behind the registry's type-erased AnyState. Position text: an optional board size (5 to
// 19, default 19) and "komi K" (default 7.5), then the moves played from the empty board as
// GTP vertices or "pass", e.g. "9 komi 6.5 e5 c3 pass". Tromp-Taylor area scoring, positional
// superko, suicide illegal (go::Rules defaults).
#include "api/registry.hpp"

namespace kibitz::go {

GameEntry go_game_entry();

}  // namespace kibitz::go
