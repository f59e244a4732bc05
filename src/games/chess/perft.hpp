#pragma once
// Perft: counts the leaf nodes of the legal move tree, the standard move-generator check.
// Leaves are bulk-counted (the number of legal moves at depth 1), as Stockfish does.
#include <cstdint>
#include <utility>
#include <vector>

#include "games/chess/position.hpp"

namespace kibitz::chess {

std::uint64_t perft(Position& pos, int depth);
// Per root move counts ("divide"), in generation order.
std::vector<std::pair<Move, std::uint64_t>> perft_divide(Position& pos, int depth);

}  // namespace kibitz::chess
