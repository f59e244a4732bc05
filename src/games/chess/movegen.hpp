#pragma once
// Legal move generation in stages. kTactical = captures (en passant included) and every
// promotion; kQuiet = all other moves (castling included); kAll = both; kEvasions = every
// legal reply to a check (precondition: in check). The stages partition the legal moves, and
// in check each yields only evasions (king moves, captures of the checker, blocks), so a
// search can take tactical moves first and generate quiets only when no cut-off came.
#include <cstddef>

#include "games/chess/position.hpp"

namespace kibitz::chess {

enum class GenType { kTactical, kQuiet, kAll, kEvasions };

// Writes the legal moves of the given stage to out (room for Position::kMaxMoves) and returns
// the end pointer. No allocation.
template <GenType T>
Move* generate(const Position& pos, Move* out);

template <GenType T>
std::size_t generate(const Position& pos, MoveList<Position>& list) {
  list.set_size(static_cast<std::size_t>(generate<T>(pos, list.data()) - list.data()));
  return list.size();
}

// Number of legal moves, without keeping them (perft's bulk count at the leaves).
std::size_t count_legal(const Position& pos);

}  // namespace kibitz::chess
