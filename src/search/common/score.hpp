#pragma once
// Search scores: centipawn-like integers from the side to move's point of view, with mate
// scores at the extremes. A mate found `ply` plies from the root scores kMate - ply, so
// shorter mates are preferred; the transposition table stores mate scores relative to the
// node (score_to_tt / score_from_tt) so they stay correct when reached at another ply.
#include <cstdint>

namespace kibitz::search {

using Score = int;

inline constexpr Score kInfinite = 32001;
inline constexpr Score kMate = 32000;
inline constexpr int kMaxSearchPly = 128;
// Scores beyond this are mates (the loser is mated within kMaxSearchPly plies).
inline constexpr Score kMateBound = kMate - 2 * kMaxSearchPly;
inline constexpr Score kNoScore = -32002;

constexpr Score mate_in(int ply) { return kMate - ply; }
constexpr Score mated_in(int ply) { return -kMate + ply; }
constexpr bool is_mate(Score s) { return s >= kMateBound || s <= -kMateBound; }

// Moves to mate (positive: the side to move mates; negative: it is mated), as UCI's
// `score mate N` wants.
constexpr int mate_moves(Score s) { return s > 0 ? (kMate - s + 1) / 2 : -(kMate + s) / 2; }

constexpr Score score_to_tt(Score s, int ply) {
  return s >= kMateBound ? s + ply : s <= -kMateBound ? s - ply : s;
}
constexpr Score score_from_tt(Score s, int ply) {
  return s >= kMateBound ? s - ply : s <= -kMateBound ? s + ply : s;
}

}  // namespace kibitz::search
