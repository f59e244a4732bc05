#!/usr/bin/env python3
"""Random playouts two ways: a loop in Python over legal_actions() / apply_action(), and
kibitz.random_games() (the same loop in C++). Prints games a second and the mean returns.

  PYTHONPATH=build/release/python python3 python/examples/random_playouts.py [GAME] [GAMES]
"""
import random
import sys
import time

import kibitz


def main():
    name = sys.argv[1] if len(sys.argv) > 1 else "gomoku"
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    game = kibitz.load_game(name)
    rng = random.Random(1)
    totals = [0.0] * game.num_players()
    start = time.perf_counter()
    for _ in range(n):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        totals = [t + r for t, r in zip(totals, state.returns())]
    python_s = time.perf_counter() - start
    print(f"{name}: {n} random games from Python in {python_s:.2f} s "
          f"({n / python_s:,.0f} a second); mean returns {[round(t / n, 3) for t in totals]}")
    r = kibitz.random_games(game, n, seed=1)
    print(f"{name}: {r['games']} random games in C++ in {r['seconds']:.3f} s "
          f"({r['games'] / max(r['seconds'], 1e-9):,.0f} a second, {r['plies'] / r['games']:.0f} plies a game)")


if __name__ == "__main__":
    main()
