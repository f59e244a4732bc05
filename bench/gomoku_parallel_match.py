#!/usr/bin/env python3
"""Many games at once against a peer: the shared Gomocup referee, one process per chunk of openings.

A 40-game match at 1,000 ms a turn takes about 15 minutes on two cores and its score has a 95%
interval about 30 points wide, too wide to tell versions apart. On a machine with many cores
this splits an opening file into --jobs chunks and runs ../shared/tools/gomoku/gomocup_match.py
on each at once (colours swapped on every opening; the referee stops the idle engine, so a game
keeps about one core busy), then merges the games logs and prints the score.

  run        play: every opening that fits the board, both colours, --jobs referees at once
  summary    the score of one or more games logs (Wilson 95% interval), by colour, with the
             named engine's slowest move and overtime count
  compare    two runs game for game on the same openings and colours: where the second did
             better, worse, the same

  bench/gomoku_parallel_match.py run --engine "build/release/kibitz gomocup" \\
      --peer /tmp/pentazen/pbrain-pentazen --openings openings.txt --jobs 16 --turn-ms 1000 \\
      --time-limit 530 --out games.txt
  bench/gomoku_parallel_match.py run ... --turn-ms 100 --engine-turn-ms 400 ...   # time odds
  bench/gomoku_parallel_match.py summary games.txt
  bench/gomoku_parallel_match.py compare base.txt new.txt
  bench/gomoku_parallel_match.py compare base.txt new.txt --name base,new   # run --name base / new
"""
import argparse
import json
import math
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

REFEREE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "tools",
                       "gomoku", "gomocup_match.py")
OFFSET = re.compile(r"^\s*-?\d+\s*,\s*-?\d+")


def fits(line, board):
    """An opening in the offset format ("dx,dy, dx,dy, ...", from the centre) that fits the
    board. The referee skips one that does not and wraps round its list, which would play an
    opening twice; other formats are passed on as they are."""
    if not OFFSET.match(line):
        return True
    nums = [int(x) for x in re.findall(r"-?\d+", line)]
    half = (board - 1) // 2
    return all(-half <= v <= board - 1 - half for v in nums)


def score_of(game, name):
    """The named engine's score in one games-log record: 1, 0.5 or 0."""
    if game["result"] not in ("1-0", "0-1"):
        return 0.5
    as_black = game["black"] == name
    return 1.0 if (game["result"] == "1-0") == as_black else 0.0


def wilson(p, n, z=1.96):
    if n == 0:
        return 0.0, 0.0
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def load(paths):
    games = []
    for path in paths:
        with open(path) as f:
            for n, line in enumerate(f, 1):
                line = line.strip()
                if not line:
                    continue
                try:
                    games.append(json.loads(line))
                except json.JSONDecodeError as e:
                    sys.exit(f"{path}:{n}: not a games-log line ({e.msg})")
    return games


def summary(games, name):
    if not games:
        return "no games"
    w = sum(1 for g in games if score_of(g, name) == 1.0)
    d = sum(1 for g in games if score_of(g, name) == 0.5)
    n = len(games)
    p = (w + d / 2) / n
    lo, hi = wilson(p, n)
    lines = [f"{name}: {w}-{d}-{n - w - d} over {n} games, {100 * p:.1f}% "
             f"[{100 * lo:.1f}, {100 * hi:.1f}] (Wilson 95%)"]
    for colour in ("black", "white"):
        mine = [g for g in games if (g["black"] == name) == (colour == "black")]
        if mine:
            s = sum(score_of(g, name) for g in mine)
            lines.append(f"  as {colour}: {s:g} of {len(mine)}")
    slowest, overtime = 0.0, 0
    for g in games:
        as_black = g["black"] == name
        # The side to move after the opening plays the first recorded move.
        black_first = g.get("n_opening", 0) % 2 == 0
        start = 0 if black_first == as_black else 1
        slowest = max([slowest] + [t for t in g.get("times_ms", [])[start::2] if t is not None])
        overtime += g.get("overtime", [0, 0])[0 if as_black else 1]
    lines.append(f"  slowest move {slowest:.0f} ms, overtime {overtime}")
    return "\n".join(lines)


def compare(a, b, name):
    # Kibitz's name in both runs, or "FIRST,SECOND" where the runs named it differently.
    first, _, second = name.partition(",")
    second = second or first
    for games, n in ((a, first), (b, second)):
        if games and not any(n in (g["black"], g["white"]) for g in games):
            sys.exit(f"no game has a player named '{n}' (give --name, or FIRST,SECOND)")

    def by_key(games, n):
        return {(g["opening"], g["black"] == n): score_of(g, n) for g in games}
    ka, kb = by_key(a, first), by_key(b, second)
    common = [k for k in ka if k in kb]
    better = sum(1 for k in common if kb[k] > ka[k])
    worse = sum(1 for k in common if kb[k] < ka[k])
    return (f"{len(common)} games on the same opening and colour: the second run better in "
            f"{better}, worse in {worse}, the same in {len(common) - better - worse}")


def run(args):
    if not os.path.exists(args.referee):
        sys.exit(f"referee not found: {args.referee} (give --referee)")
    with open(args.openings) as f:
        openings = [l for l in f if l.strip() and fits(l, args.board)]
    if args.limit:
        openings = openings[:args.limit]
    if not openings:
        sys.exit(f"{args.openings}: no opening fits a {args.board}x{args.board} board")
    jobs = max(1, min(args.jobs, len(openings)))
    work = tempfile.mkdtemp(prefix="gomoku_parallel_")
    procs = []
    for j in range(jobs):
        chunk = openings[j::jobs]
        op = os.path.join(work, f"openings_{j:02d}.txt")
        with open(op, "w") as f:
            f.writelines(chunk)
        cmd = [sys.executable, args.referee, "--engine1", args.engine, "--name1", args.name,
               "--engine2", args.peer, "--name2", args.peer_name, "--games", str(2 * len(chunk)),
               "--board", str(args.board), "--rule", str(args.rule), "--turn-ms", str(args.turn_ms),
               "--openings", op, "--games-log", os.path.join(work, f"games_{j:02d}.txt"), "--quiet"]
        if args.io_log:
            # Every line each way, time-stamped (MESSAGE lines say where an answer's time went).
            cmd += ["--io-log", os.path.join(work, f"io_{j:02d}.txt")]
        if args.engine_turn_ms:
            # Time odds: Kibitz is told its own turn time after the referee's, and the grace
            # before a timeout loss covers it. Its moves past --turn-ms count as overtime.
            cmd += ["--info1", f"timeout_turn {args.engine_turn_ms}", "--tolerance-ms",
                    str(max(1000, args.engine_turn_ms - args.turn_ms + 1000))]
        out = open(os.path.join(work, f"referee_{j:02d}.txt"), "w")
        # Its own process group: at the time limit the referee goes with its engines.
        procs.append((subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT,
                                       start_new_session=True), out))
    deadline = time.monotonic() + args.time_limit if args.time_limit else None
    unfinished = 0
    for p, out in procs:
        try:
            p.wait(timeout=max(0.1, deadline - time.monotonic()) if deadline else None)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)  # its finished games are in its log already
            p.wait()
            unfinished += 1
        out.close()
    logs = sorted(os.path.join(work, f) for f in os.listdir(work) if f.startswith("games_"))
    games = load(logs)
    with open(args.out, "w") as f:
        for g in games:
            f.write(json.dumps(g) + "\n")
    print(f"{len(games)} of {2 * len(openings)} games finished ({jobs} referees, "
          f"{unfinished} stopped at the time limit); logs in {work}")
    print(summary(games, args.name))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--engine", required=True, help="Kibitz's command line")
    r.add_argument("--name", default="kibitz")
    r.add_argument("--peer", required=True, help="the peer's command line")
    r.add_argument("--peer-name", default="peer")
    r.add_argument("--openings", required=True)
    r.add_argument("--limit", type=int, default=0, help="only the first N openings that fit")
    r.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    r.add_argument("--board", type=int, default=15)
    r.add_argument("--rule", type=int, default=0)
    r.add_argument("--turn-ms", type=int, default=1000)
    r.add_argument("--engine-turn-ms", type=int, default=0,
                   help="time odds: Kibitz's own turn time (default: --turn-ms)")
    r.add_argument("--time-limit", type=float, default=0,
                   help="seconds; referees still playing then are stopped (0: none)")
    r.add_argument("--io-log", action="store_true",
                   help="keep each referee's protocol log (io_NN.txt beside the games logs)")
    r.add_argument("--referee", default=REFEREE)
    r.add_argument("--out", required=True, help="the merged games log")
    s = sub.add_parser("summary")
    s.add_argument("logs", nargs="+")
    s.add_argument("--name", default="kibitz")
    c = sub.add_parser("compare")
    c.add_argument("first")
    c.add_argument("second")
    c.add_argument("--name", default="kibitz",
                   help="Kibitz's name in both runs, or FIRST,SECOND (--name of each run)")
    args = ap.parse_args()
    if args.cmd == "run":
        run(args)
    elif args.cmd == "summary":
        print(summary(load(args.logs), args.name))
    else:
        print(compare(load([args.first]), load([args.second]), args.name))


if __name__ == "__main__":
    main()
