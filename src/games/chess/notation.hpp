#pragma once
// Move notation both ways: UCI long algebraic ("e2e4", "e7e8q") and SAN ("Nf3", "exd5",
// "O-O", "e8=Q+"). Parsers check the move against the legal moves of the position and say
// why a move is rejected.
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "games/chess/position.hpp"

namespace kibitz::chess {

std::string square_name(Square s);
Result<Square> parse_square(std::string_view s);

std::string to_uci(Move m);
Result<Move> parse_uci(const Position& pos, std::string_view text);

std::string to_san(const Position& pos, Move m);
// Accepts the usual variations: missing or extra check marks, "!?" annotations, "0-0",
// promotions with or without '=', and lower-case promotion letters.
Result<Move> parse_san(const Position& pos, std::string_view text);

}  // namespace kibitz::chess
