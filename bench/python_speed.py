#!/usr/bin/env python3
"""Speed of the Python module (BENCHMARKS.md, issue 26): full random games per second for each
game, played by kibitz.random_games (the loop in C++) and by a Python loop over
legal_actions() / apply_action(); the cost of one call of each; and two searches in two
Python threads against one (the GIL is released while an engine searches).

  PYTHONPATH=build/release/python /usr/bin/python3 bench/python_speed.py [--seconds 2]
"""
import argparse
import random
import threading
import time

import kibitz

GAMES = [
    ("chess", {}),
    ("gomoku", {}),
    ("go", {"size": 9}),
    ("go", {"size": 19}),
    ("hearts", {}),
]


def per_second(fn, seconds):
    """Runs fn() until `seconds` have passed; calls per second of process CPU time."""
    n = 0
    start = time.process_time()
    while True:
        fn()
        n += 1
        spent = time.process_time() - start
        if spent >= seconds:
            return n / spent


def ns_per_call(fn, seconds):
    """CPU nanoseconds a call of fn(), timed over batches of 1,000 calls so that reading the
    clock does not count."""
    calls = 0
    start = time.process_time()
    while True:
        for _ in range(1000):
            fn()
        calls += 1000
        spent = time.process_time() - start
        if spent >= seconds:
            return spent / calls * 1e9


def python_loop_game(game, rng, seed):
    # A Hearts game without a fixed seed deals anew each game, as random_games() does.
    state = game.new_state(f"seed {seed}") if game.name == "hearts" else game.new_initial_state()
    plies = 0
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        plies += 1
    return plies


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per measurement")
    args = ap.parse_args()
    print("| game | plies a game | random_games (C++ loop), games / CPU-s | Python loop, games / CPU-s |")
    print("|---|---|---|---|")
    for name, params in GAMES:
        game = kibitz.load_game(name, **params)
        batch = 200 if name != "hearts" else 5000
        start = time.process_time()
        total_plies = 0
        games = 0
        while time.process_time() - start < args.seconds:
            r = kibitz.random_games(game, batch, seed=games + 1)
            total_plies += r["plies"]
            games += batch
        c_rate = games / (time.process_time() - start)
        rng = random.Random(1)
        seed = [0]

        def one():
            seed[0] += 1
            python_loop_game(game, rng, seed[0])

        py_rate = per_second(one, args.seconds)
        label = name + "".join(f" {k}={v}" for k, v in params.items())
        print(f"| {label} | {total_plies / games:.0f} | {c_rate:,.0f} | {py_rate:,.0f} |")

    print()
    print("| call (chess, the start position) | ns a call |")
    print("|---|---|")
    state = kibitz.load_game("chess").new_initial_state()
    for label, fn in [
        ("legal_actions()", state.legal_actions),
        ("legal_moves()", state.legal_moves),
        ("is_terminal()", state.is_terminal),
        ("current_player()", state.current_player),
        ("clone()", state.clone),
        ("clone() + apply_action(e2e4)", lambda: state.clone().apply_action(12 + 64 * 28)),
        ("(an empty Python function, for scale)", lambda: None),
    ]:
        print(f"| {label} | {ns_per_call(fn, args.seconds / 2):,.0f} |")

    print()
    print("| searches (wall clock) | one | two in two threads | ratio |")
    print("|---|---|---|---|")
    for name, params, limits in [
        ("chess", {}, {"depth": 17}),
        ("gomoku", {}, {"depth": 13}),
        ("go", {"size": 9}, {"nodes": 20000}),
    ]:
        game = kibitz.load_game(name, **params)
        state = game.new_initial_state()
        if name == "gomoku":
            state = game.new_state("h8 i9 h9")

        def search():
            game.engine().search(state, **limits)

        start = time.perf_counter()
        search()
        one = time.perf_counter() - start
        threads = [threading.Thread(target=search) for _ in range(2)]
        start = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        two = time.perf_counter() - start
        label = name + "".join(f" {k}={v}" for k, v in limits.items())
        print(f"| {label} | {one:.2f} s | {two:.2f} s | {two / one:.2f} |")


if __name__ == "__main__":
    main()
