#pragma once
// Chess for `kibitz match` (UCI engines and in-process bots; EPD / PGN openings; PGN records).
#include <memory>

#include "match/arena.hpp"

namespace kibitz::match {

std::unique_ptr<GameKind> make_chess_kind();

}  // namespace kibitz::match
