#!/usr/bin/env python3
"""Cross-checks Kibitz's legal move generation against an independent generator:
chesslite.py from the shared measurement tools (written outside this project). Plays seeded
random games with chesslite and, at every position, compares the set of legal moves with
`kibitz perft --depth 1 --divide`. Exits 77 (skipped) when the tools are absent.

Usage: chess_crosscheck.py KIBITZ_BINARY [--games N] [--seed S]
Tools are found through KIBITZ_TOOLS (default: ../shared/tools next to the checkout).
"""
import argparse
import os
import random
import subprocess
import sys

from suite_tools import SKIPPED, tools_dir



def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kibitz")
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-plies", type=int, default=250)
    args = ap.parse_args()

    tools = tools_dir()
    if not os.path.isfile(os.path.join(tools, "chess", "chesslite.py")):
        print(f"skipped: chesslite.py not found under KIBITZ_TOOLS={tools}")
        return SKIPPED
    sys.path.insert(0, os.path.join(tools, "chess"))
    import chesslite  # noqa: E402

    rng = random.Random(args.seed)
    checked = 0
    for game in range(args.games):
        pos = chesslite.Position()
        for _ in range(args.max_plies):
            fen = pos.fen()
            theirs = sorted(chesslite.Position.uci(m) for m in pos.legal())
            out = subprocess.run([args.kibitz, "perft", "--depth", "1", "--divide", "--fen", fen],
                                 capture_output=True, text=True, check=False)
            if out.returncode != 0:
                print(f"FAIL kibitz rejected {fen}: {out.stderr.strip()}")
                return 1
            ours = sorted(line.split(":")[0] for line in out.stdout.splitlines()
                          if ":" in line and not line.startswith(("Nodes", "Time")))
            if ours != theirs:
                print(f"FAIL {fen}\n  only kibitz: {sorted(set(ours) - set(theirs))}"
                      f"\n  only chesslite: {sorted(set(theirs) - set(ours))}")
                return 1
            checked += 1
            if not theirs:
                break
            moves = pos.legal()
            pos = pos.make(moves[rng.randrange(len(moves))])  # chesslite's make is copy-make
    print(f"ok: {checked} positions from {args.games} random games agree with chesslite")
    return 0


if __name__ == "__main__":
    sys.exit(main())
