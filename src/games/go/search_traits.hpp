#pragma once
// Go hooks for the generic MCTS (search/mcts): a fast rule-based playout policy in the spirit
// of Pachi's Moggy and Fuego's playout rules, PUCT priors from the learned move patterns (with
// the hand-made rules as fallback), and the point index used for the AMAF statistics. The
// rules are in playout.cpp.
#include <cstddef>
#include <span>

#include "api/concepts.hpp"
#include "core/rng.hpp"
#include "games/go/board.hpp"

namespace kibitz::go {

// Largest chain a playout may put in atari by its own move (single-stone throw-ins and
// two-stone sacrifices stay possible; bigger self-ataris are almost always blunders and
// would break sekis).
inline constexpr int kMaxPlayoutSelfAtari = 2;

// The playout policy, in order (each local rule takes effect with a high probability, so
// playouts keep some variety):
//  1. atari escape: when the last move left chains of ours next to it in atari, capture an
//     opponent chain in atari that touches them, or extend at their liberty when that gives
//     at least two liberties;
//  2. capture: an opponent chain in atari with a stone in the 3x3 around the last move;
//  3. local shape around the last move: an atari on the last move's chain when it has two
//     liberties, and MoGo's 3x3 shapes (patterns.hpp) at the empty points of its 3x3;
//  4. a random point that is legal, not our own simple eye, and not a self-atari of more
//     than kMaxPlayoutSelfAtari stones; pass when there is none.
// Every candidate passes the test of rule 4, so playouts never fill their own eyes and end.
Move playout_move(const Position& p, Rng& rng);

// A point is a sensible playout move for the side to move (the test of rule 4).
bool playout_acceptable(const Position& p, int sq);

// PUCT priors from the learned move-prediction model (pattern_model.hpp): the active model's
// move strengths normalised to sum 1; move_priors() when the model lists no patterns.
void pattern_priors(const Position& p, std::span<const Move> moves, std::span<float> out);

// The hand-written PUCT priors (any non-negative weights; the search normalises them): captures and
// atari escapes high (more for bigger chains), an escape into a working ladder and an atari that
// wins a ladder read by tactics.hpp (low and high), self-atari and own-eye filling low,
// ataris and MoGo's 3x3 shapes (patterns.hpp) favoured, moves near the last move and on the
// 3rd / 4th lines mildly favoured, the 1st / 2nd lines low while the board is still open,
// pass low. Normalised to sum 1.
void move_priors(const Position& p, std::span<const Move> moves, std::span<float> out);

}  // namespace kibitz::go

namespace kibitz {

template <>
struct SearchTraits<go::Position> : DefaultSearchTraits<go::Position> {
  using Position = go::Position;
  using Move = go::Move;

  static Move playout_move(const Position& p, Rng& rng) { return go::playout_move(p, rng); }
  static void priors(const Position& p, std::span<const Move> moves, std::span<float> out) {
    go::pattern_priors(p, moves, out);
  }
  // AMAF bookkeeping by point (pass and resign included).
  static constexpr std::size_t kMctsMoveIndexSize = go::kNumPoints + 2;
  static std::size_t mcts_move_index(Move m) { return m.sq; }
};

}  // namespace kibitz
