// Shared by the chess unit tests: a position from a FEN the test knows to be valid.
#pragma once

#include "games/chess/position.hpp"

namespace kibitz::chess {

inline Position P(const char* fen) { return *Position::from_fen(fen); }

}  // namespace kibitz::chess
