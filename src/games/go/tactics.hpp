#pragma once
// Local tactical reading for the priors: ladders. A ladder is read by trying every sensible
// move of both sides (the attacker ataris at either liberty, the defender extends or captures
// a chain next to it), so it also reads the ladders that a ladder breaker or a capturable
// attacking stone spoils. The reading stops after kLadderNodeLimit positions and then counts
// the chain as escaped (the search learns the rest).
#include <array>

#include "games/go/board.hpp"

namespace kibitz::go {

inline constexpr int kLadderNodeLimit = 200;

// The chain through sq belongs to the side to move and is in atari: true when it cannot be
// saved by extending at its liberty or by capturing a chain next to it (each ends with the
// attacker still able to capture it the same way, the opponent always in atari).
bool ladder_dead(const Position& p, int sq);

// The chain through sq belongs to the opponent of the side to move and has two liberties:
// true when an atari at one of them wins the ladder (ladder_dead after it).
bool ladder_capturable(const Position& p, int sq);

// Distinct chains (by head) of colour c orthogonally next to sq, with exactly `only_libs`
// liberties (0: any), and their total stones. Inline: the playouts call it for every move.
struct AdjacentChains {
  std::array<int, 4> heads{};
  int n = 0;
  int stones = 0;
};
inline AdjacentChains adjacent_chains(const Position& p, int sq, Color c, int only_libs = 0) {
  AdjacentChains a;
  for (const int nb : neighbours(sq)) {
    if (p.at(nb) != c) continue;
    if (only_libs > 0 && p.liberties(nb) != only_libs) continue;
    const int h = p.chain_head(nb);
    bool dup = false;
    for (int i = 0; i < a.n; ++i) dup |= a.heads[i] == h;
    if (dup) continue;
    a.heads[a.n++] = h;
    a.stones += p.chain_size(nb);
  }
  return a;
}

}  // namespace kibitz::go
