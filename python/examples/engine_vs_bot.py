#!/usr/bin/env python3
"""A Kibitz engine against a bot written in Python: the bot takes a five it can make, blocks
one the engine threatens, and otherwise plays next to the last stone. Gomoku, colours
alternating; prints each game's result. Then the same pairing in Kibitz's C++ match runner
(kibitz.run_match: pairs of games from the Gomocup openings, Elo with its interval).

  PYTHONPATH=build/release/python python3 python/examples/engine_vs_bot.py [GAMES] [MOVETIME_MS]
"""
import os
import pathlib
import random
import sys

import kibitz


def python_bot(state, rng):
    """A move for the side to move, by one-ply lookahead over the legal actions."""
    actions = state.legal_actions()
    me = state.current_player()
    for action in actions:  # a five of our own
        after = state.clone()
        after.apply_action(action)
        if after.is_terminal() and after.returns()[me] > 0:
            return action
    history = state.history()
    if history:  # near the last stone
        size = 15
        x, y = history[-1] % size, history[-1] // size
        near = [a for a in actions if max(abs(a % size - x), abs(a // size - y)) == 1]
        if near:
            return rng.choice(near)
    return rng.choice(actions)


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    movetime = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    game = kibitz.load_game("gomoku")
    engine = game.engine()
    rng = random.Random(7)
    score = 0.0
    for g in range(games):
        engine.new_game()
        state = game.new_state("h8")  # one stone in the centre; the engine is white in even games
        engine_player = 1 if g % 2 == 0 else 0
        while not state.is_terminal():
            if state.current_player() == engine_player:
                state.apply_action(engine.search(state, movetime_ms=movetime)["action"])
            else:
                state.apply_action(python_bot(state, rng))
        result = state.returns()[engine_player]
        score += (result + 1) / 2
        print(f"game {g + 1}: engine as {'white' if engine_player else 'black'}: "
              f"{'won' if result > 0 else 'lost' if result < 0 else 'drawn'} "
              f"in {len(state.history())} moves")
    print(f"engine: {score} of {games}")

    # The match runner of `kibitz match`, the bot as a player beside the engine's spec.
    suites = pathlib.Path(os.environ.get("KIBITZ_SUITES", "../shared/data"))
    book = suites / "gomoku/openings/gomocup2024_freestyle15.txt"
    r = kibitz.run_match("gomoku", ["bot=pipeline", ("python_bot", lambda s: python_bot(s, rng))],
                         games=games, movetime_ms=movetime,
                         openings=str(book) if book.exists() else None)
    p = r["pairings"][0]
    elo = "" if p["elo"] is None else f", Elo {p['elo']:+.0f}"  # None: a clean sweep
    print(f"runner: engine {p['wins']}-{p['draws']}-{p['losses']}, score {p['score']:.2f}{elo}")


if __name__ == "__main__":
    main()
