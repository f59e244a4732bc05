// Ladder reading (see tactics.hpp).
#include "games/go/tactics.hpp"

#include <array>

namespace kibitz::go {

namespace {

bool attacker_wins(const Position& p, int sq, int& budget);

// Defender to move, its chain through sq in atari: does every defence fail?
bool defender_loses(const Position& p, int sq, int& budget) {
  if (--budget < 0) return false;
  const Color me = p.to_move();
  // Defences: extend at the liberty, or capture an attacking chain in atari next to ours.
  std::array<int, 8> moves{};
  int n = 0;
  std::array<int, 4> libs{};
  if (p.chain_liberties(sq, libs) != 1) return false;
  moves[n++] = libs[0];
  int s = sq;
  do {
    for (const int nb : neighbours(s))
      if (p.at(nb) == opponent(me) && p.liberties(nb) == 1 && n < static_cast<int>(moves.size())) {
        std::array<int, 4> l{};
        p.chain_liberties(nb, l);
        bool dup = false;
        for (int i = 0; i < n; ++i) dup |= moves[i] == l[0];
        if (!dup) moves[n++] = l[0];
      }
    s = p.next_in_chain(s);
  } while (s != sq);
  for (int i = 0; i < n; ++i) {
    const Move m{static_cast<std::uint16_t>(moves[i])};
    if (!p.is_legal(m)) continue;
    Position q = p;
    q.apply(m);
    const int libs_now = q.liberties(sq);
    if (libs_now >= 3) return false;
    if (libs_now == 2 && !attacker_wins(q, sq, budget)) return false;
  }
  return true;  // no defence leaves the chain alive
}

// Attacker to move, the defender's chain through sq with two liberties: can an atari win?
bool attacker_wins(const Position& p, int sq, int& budget) {
  if (--budget < 0) return false;
  std::array<int, 4> libs{};
  if (p.chain_liberties(sq, libs) != 2) return false;
  for (int i = 0; i < 2; ++i) {
    const Move m{static_cast<std::uint16_t>(libs[i])};
    if (!p.is_legal(m)) continue;
    Position q = p;
    q.apply(m);
    // An atari stone that is itself in atari is answered by its capture (defender_loses
    // tries captures), so the atari needs no check of its own.
    if (q.liberties(sq) == 1 && defender_loses(q, sq, budget)) return true;
  }
  return false;
}

}  // namespace

bool ladder_dead(const Position& p, int sq) {
  if (p.at(sq) != p.to_move() || p.liberties(sq) != 1) return false;
  int budget = kLadderNodeLimit;
  return defender_loses(p, sq, budget) && budget >= 0;
}

bool ladder_capturable(const Position& p, int sq) {
  if (p.at(sq) != opponent(p.to_move()) || p.liberties(sq) != 2) return false;
  int budget = kLadderNodeLimit;
  return attacker_wins(p, sq, budget) && budget >= 0;
}

}  // namespace kibitz::go
