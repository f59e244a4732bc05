#!/usr/bin/env python3
"""A short 9x9 match of `kibitz gtp` against GNU Go, refereed by the shared tools' gtp_match.py
(which checks every move against its own board and GNU Go, and scores the end with GNU Go).
Passes when every game ends by the rules (two passes, resignation or the move cap) with no
illegal move, protocol error or time loss on either side; the result itself is a measurement
(BENCHMARKS.md), not a test. Exits 77 (skipped) without gnugo or the shared tools.

Usage: go_gnugo_match.py KIBITZ_BINARY [--games N] [--visits V]
Tools are found through KIBITZ_TOOLS (default: ../shared/tools next to the checkout).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

import tempfile

from suite_tools import SKIPPED, tools_dir


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kibitz")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--visits", type=int, default=200)
    args = ap.parse_args()

    tools = tools_dir()
    referee = os.path.join(tools, "go", "gtp_match.py")
    if not os.path.isfile(referee):
        print(f"skipped: gtp_match.py not found under KIBITZ_TOOLS={tools}")
        return SKIPPED
    gnugo = shutil.which("gnugo") or ("/usr/games/gnugo" if os.path.exists("/usr/games/gnugo") else None)
    if not gnugo:
        print("skipped: gnugo is not installed (scripts/install-deps installs it)")
        return SKIPPED

    with tempfile.TemporaryDirectory() as out:
        cmd = [sys.executable, referee,
               "-a", f"{args.kibitz} gtp --visits {args.visits} --seed 1", "--name-a", "kibitz",
               "-b", f"{gnugo} --mode gtp --level 0", "--name-b", "gnugo",
               "--size", "9", "--komi", "7.5", "--games", str(args.games),
               "--move-timeout", "60", "--out", out]
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        print(run.stdout)
        if run.returncode != 0:
            print(run.stderr)
            print(f"FAIL: gtp_match.py exited {run.returncode}")
            return 1
        with open(os.path.join(out, "games.jsonl")) as f:
            games = [json.loads(line) for line in f if line.strip()]
    bad = []
    if len(games) != args.games:
        bad.append(f"{len(games)} games recorded, {args.games} expected")
    for g in games:
        reason = str(g.get("reason", ""))
        result = str(g.get("result", ""))
        if result.endswith("+F") or result.endswith("+T") or "error" in reason or "illegal" in reason \
                or "time" in reason or g.get("outcome_a") == "error":
            bad.append(f"game {g.get('game')}: {result} ({reason})")
    if bad:
        print("FAIL: " + "; ".join(bad))
        return 1
    print(f"ok: {len(games)} games ended by the rules")
    return 0


if __name__ == "__main__":
    sys.exit(main())
