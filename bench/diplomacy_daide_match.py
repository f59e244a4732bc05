#!/usr/bin/env python3
"""Kibitz's Diplomacy bot as one power against six DAIDE bots (DumbBot, say), over DAIDE.

Each game is hosted by `kibitz diplomacy daide-server` (or, with --server CMD, by another DAIDE
server started by that command), with the power of game g (map order, g mod 7) kept for the
Kibitz client (`kibitz diplomacy daide --name Kibitz`) and the six other seats for copies of
the opponent program. Another server seats Kibitz by its name ("FRA:Kibitz": the python
`diplomacy` package's convention) where it can; the report gives the power it got. It reports the centres Kibitz's power held at the end of each game
(a solo, or the winter of --max-year), their mean with a 95% interval, and the mean as a
multiple of the fair share (34 / 7 centres).

  bench/diplomacy_daide_match.py build/release/kibitz /path/to/dumbbot --games 35 --bot rm

The opponent program is started as `PROGRAM -i127.0.0.1 -pPORT` (DumbBot's command line);
nothing of it is part of Kibitz. One game at a time; each process is one thread. An opponent
that spins in a loop of its own (DumbBot's movement generation sometimes does) is stopped once
it has used --hang-cpu seconds of CPU; its power is then in civil disorder, and the report
counts such games.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time

POWERS = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]


def play(args, g, port, record):
    power = g % 7
    name = "Kibitz"
    if args.server:
        # Another server: started by the command given, which prints "ready PORT" once it
        # listens and, at the end, a JSON line with the centres by power. Kibitz asks for its
        # power by the "FRA:name" convention of the python package's server.
        server = subprocess.Popen(args.server.format(port=port, max_year=args.max_year, game=g),
                                  shell=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                  text=True)
        line = server.stdout.readline()
        if not line.startswith("ready"):
            server.kill()
            sys.exit(f"the server did not start: {line!r}")
        port = int(line.split()[1])
        name = POWERS[power][:3].upper() + ":Kibitz"
    else:
        seats = ["daide"] * 7
        seats[power] = "daide=Kibitz"
        server = subprocess.Popen(
            [args.kibitz, "diplomacy", "daide-server", "--port", str(port), "--seats", ",".join(seats),
             "--max-year", str(args.max_year), "--movement", "60", "--retreat", "30", "--build", "30",
             "--seed", str(args.seed + g), "--record", record],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        line = server.stdout.readline()
        if "listening" not in line:
            server.kill()
            sys.exit(f"the server did not start: {line!r}")
    procs = [subprocess.Popen(
        [args.kibitz, "diplomacy", "daide", "--port", str(port), "--name", name, "--bot", args.bot,
         "--movetime", str(args.movetime), "--seed", str(args.seed + g), "--log", record + ".log"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    # Kibitz first, so that a server that seats in order of arrival gives it its power.
    time.sleep(1.5 if args.server else 0.2)
    for _ in range(6):
        procs.append(subprocess.Popen([args.opponent, "-i127.0.0.1", f"-p{port}"],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                      cwd=args.workdir))
    # A watchdog: an opponent that has used --hang-cpu seconds of CPU (DumbBot takes well
    # under one second a game) is stuck in a loop of its own; it is stopped, and the server
    # puts its power in civil disorder for the rest of the game.
    hung = 0
    start = time.time()
    stalled = False
    log_size, log_time = -1, time.time()
    while server.poll() is None:
        time.sleep(0.5)
        if time.time() - start > args.timeout:
            server.kill()
            break
        # Nothing said to Kibitz for --stall seconds: the server waits for something that will
        # not come (it has no deadline); the game is stopped where it stands.
        size = os.path.getsize(record + ".log") if os.path.exists(record + ".log") else 0
        if size != log_size:
            log_size, log_time = size, time.time()
        elif time.time() - log_time > args.stall:
            stalled = True
            server.kill()
            break
        for p in procs[1:]:
            if p.poll() is None and cpu_seconds(p.pid) > args.hang_cpu:
                p.kill()
                hung += 1
    tail, _ = server.communicate()
    for p in procs:
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
    if args.server:
        # The power Kibitz got (its log's HLO), and the centres the server printed, or (a game
        # stopped) the last SCO Kibitz was sent.
        abbrs = [p[:3].upper() for p in POWERS]
        got, sco = power, None
        with open(record + ".log") as f:
            for l in f:
                if l.startswith("< HLO ("):
                    got = abbrs.index(l[7:10])
                if l.startswith("< SCO "):
                    sco = l
        ends = [l for l in (tail or "").splitlines() if l.startswith("{")]
        if ends and not stalled:
            end = json.loads(ends[-1])
            centres = {k.capitalize(): v for k, v in end["centres"].items()}
            phase = end.get("phase", "")
        else:
            centres = {p: 0 for p in POWERS}
            for group in (sco or "").split("(")[1:]:
                words = group.strip(" )\n").split()
                if words and words[0] in abbrs:
                    centres[POWERS[abbrs.index(words[0])]] = len(words) - 1
            phase = "stalled" if stalled else "timed out"
        winner = next((p for p, n in centres.items() if n > 17), None)
        return POWERS[got], centres[POWERS[got]], winner, phase, hung
    with open(record) as f:
        rec = json.load(f)
    name = POWERS[power]
    game = rec["game"]
    return name, game["centres"][name], game["result"]["winner"], game.get("last_phase", ""), hung


def cpu_seconds(pid):
    """The CPU time a process has used (Linux /proc), 0 when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kibitz")
    ap.add_argument("opponent", help="the DAIDE bot program (started with -i<ip> -p<port>)")
    ap.add_argument("--games", type=int, default=35)
    ap.add_argument("--bot", default="rm", help="Kibitz's bot: rm, heuristic or random")
    ap.add_argument("--movetime", type=int, default=300)
    ap.add_argument("--max-year", type=int, default=1930)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--port", type=int, default=17300)
    ap.add_argument("--timeout", type=int, default=1800, help="seconds a game may take")
    ap.add_argument("--stall", type=float, default=60.0,
                    help="--server: seconds without a message to Kibitz after which the game stops")
    ap.add_argument("--hang-cpu", type=float, default=20.0,
                    help="CPU seconds after which an opponent counts as hung")
    ap.add_argument("--records", help="a directory for the games' records and the opponents' "
                                       "logs (default: a new one under the temporary directory)")
    ap.add_argument("--server", help="a command starting another DAIDE server ({port}, {max_year}, "
                                      "{game}); it prints 'ready PORT', then the centres as JSON")
    args = ap.parse_args()
    if not args.records:  # never the working directory: a checkout would collect them
        args.records = tempfile.mkdtemp(prefix="kibitz-daide-")
    os.makedirs(args.records, exist_ok=True)
    print(f"records and logs in {args.records}", file=sys.stderr)
    args.workdir = args.records  # the opponents' log files land there
    centres, solos, lost, hangs = [], 0, 0, 0
    for g in range(args.games):
        record = os.path.join(args.records, f"game{g}.json")
        name, n, winner, last, hung = play(args, g, args.port + g % 50, record)
        centres.append(n)
        hangs += hung
        solos += winner == name
        lost += winner is not None and winner != name
        print(f"game {g}: Kibitz ({args.bot}) as {name}: {n} centres, "
              f"{'solo ' + winner if winner else 'no solo'}, last phase {last}"
              + (f", {hung} opponent(s) hung and stopped" if hung else ""), flush=True)
    k = len(centres)
    mean = sum(centres) / k
    sd = math.sqrt(sum((c - mean) ** 2 for c in centres) / (k - 1)) if k > 1 else 0.0
    half = 1.96 * sd / math.sqrt(k)
    fair = 34 / 7
    print(f"{k} games, Kibitz ({args.bot}) against six {os.path.basename(args.opponent)}: "
          f"mean {mean:.2f} centres (95% {mean - half:.2f} to {mean + half:.2f}), "
          f"{mean / fair:.2f}x the fair share (interval {(mean - half) / fair:.2f} to "
          f"{(mean + half) / fair:.2f}); {solos} solos, {lost} solos by an opponent; "
          f"{hangs} opponent(s) hung in their own move generation and were stopped")


if __name__ == "__main__":
    main()
