#!/usr/bin/env python3
"""How gomoku games against a peer engine were lost, from the shared referee's logs.

Reads the --io-log and --games-log of ../shared/tools/gomoku/gomocup_match.py and, for each
game Kibitz lost, prints when each side first announced the result in its MESSAGE lines:
Kibitz's score at or past the evaluation's decided level (|score| >= 13000: a five or an open
four to come, or a proven mate; ordinary evaluations stay below 9000; "vcf", "vct" and "defence" stages name the threat search), the peer's PentaZen-style "ev +vN" / "ev -vN" (a proven win or loss
N plies away). The summary counts how many of Kibitz's own moves passed between the peer's
announcement and Kibitz's, and Kibitz's score when the peer announced (blind or not).

  bench/gomoku_loss_report.py --io pz_io.txt --games pz_games.txt [--name kibitz]
"""
import argparse
import json
import re
import statistics
import sys

KIBITZ_MSG = re.compile(r"MESSAGE (\w+) depth (-?\d+) score (-?\d+) nodes (\d+) time (\d+) ms")
PEER_WIN = re.compile(r"\bev \+v(\d+)")
PEER_LOSS = re.compile(r"\bev -v(\d+)")
DRAWS = ("1/2", "1/2-1/2")  # the shared referee writes "1/2"
MATE = 13000  # kWinSoon in src/games/gomoku/position.cpp: ordinary evaluations stay below 9000


def sessions(io_path, name):
    """Per engine, the list of its games, each a list of (message or None) per move it made."""
    games = {}
    current = {}
    pending = {}
    for line in open(io_path, encoding="utf-8", errors="replace"):
        parts = line.rstrip("\n").split(" ", 3)
        if len(parts) < 4:
            continue
        _, engine, direction, text = parts
        if direction == ">" and text.startswith("START"):
            current[engine] = []
            games.setdefault(engine, []).append(current[engine])
            pending[engine] = None
        elif direction == "<" and engine in current:
            if text.startswith("MESSAGE"):
                pending[engine] = text
            elif re.fullmatch(r"-?\d+,-?\d+", text.strip()):
                current[engine].append(pending[engine])
                pending[engine] = None
    return games


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--io", required=True)
    ap.add_argument("--games", required=True)
    ap.add_argument("--name", default="kibitz")
    a = ap.parse_args()
    records = [json.loads(l) for l in open(a.games, encoding="utf-8") if l.strip()]
    per_engine = sessions(a.io, a.name)
    peer = next((e for e in per_engine if e != a.name), None)
    if peer is None or a.name not in per_engine:
        print("no games of both engines in the io log", file=sys.stderr)
        return 2
    lags, blind_scores, stages = [], [], {}
    never, ours_first, ours_win = 0, 0, 0
    print(f"{'game':>4} {'colour':>6} {'result':>6} {'plies':>5}  {'peer announces':>16}  "
          f"{'kibitz sees':>14}  lag  kibitz score then")
    for i, g in enumerate(records):
        if i >= len(per_engine[a.name]) or i >= len(per_engine[peer]):
            break
        ours, theirs = per_engine[a.name][i], per_engine[peer][i]
        colour = "black" if g["black"] == a.name else "white"
        won = (g["result"] == "1-0") == (colour == "black") and g["result"] not in DRAWS
        # Our moves and the peer's alternate; index k of ours follows index k (or k-1) of theirs.
        peer_win = next((k for k, m in enumerate(theirs) if m and PEER_WIN.search(m)), None)
        our_loss = next((k for k, m in enumerate(ours)
                         if m and (mm := KIBITZ_MSG.search(m)) and int(mm.group(3)) <= -MATE),
                        None)
        our_win = next((k for k, m in enumerate(ours)
                        if m and (mm := KIBITZ_MSG.search(m)) and int(mm.group(3)) >= MATE), None)
        if won:
            ours_win += 1
        if won or peer_win is None:
            print(f"{i:>4} {colour:>6} {g['result']:>6} {g['n_moves']:>5}  "
                  f"{'-':>16}  {('win at ' + str(our_win)) if our_win is not None else '-':>14}")
            continue
        # The peer's k-th move came before our k-th move when the peer moved first.
        peer_first = (g["n_opening"] % 2 == 0) == (colour == "white")
        announce_our_index = peer_win + (1 if peer_first else 0)
        score_then = None
        if announce_our_index < len(ours) and ours[announce_our_index]:
            mm = KIBITZ_MSG.search(ours[announce_our_index])
            if mm:
                score_then = int(mm.group(3))
                stages[mm.group(1)] = stages.get(mm.group(1), 0) + 1
        if our_loss is None:
            never += 1
            lag = None
        else:
            lag = our_loss - announce_our_index
            lags.append(lag)
            if lag < 0:
                ours_first += 1
        if score_then is not None and score_then > -MATE:
            blind_scores.append(score_then)
        v = PEER_WIN.search(theirs[peer_win]).group(1)
        print(f"{i:>4} {colour:>6} {g['result']:>6} {g['n_moves']:>5}  "
              f"{'move ' + str(peer_win + 1) + ' (+v' + v + ')':>16}  "
              f"{('move ' + str(our_loss + 1)) if our_loss is not None else 'never':>14}  "
              f"{lag if lag is not None else '-':>3}  {score_then if score_then is not None else '-'}")
    lost = sum(1 for g in records[:len(per_engine[a.name])]
               if not ((g["result"] == "1-0") == (g["black"] == a.name)) and g["result"] not in DRAWS)
    print()
    print(f"games {min(len(records), len(per_engine[a.name]))}, kibitz won {ours_win}, lost {lost}")
    if lags:
        print(f"peer's forced-win announcement to kibitz's own: median {statistics.median(lags)} of "
              f"kibitz's moves later (min {min(lags)}, max {max(lags)}); kibitz never saw it in "
              f"{never} lost games")
    if blind_scores:
        print(f"kibitz's score when the peer announced: median {statistics.median(blind_scores)} "
              f"(positive: it thought it stood better) over {len(blind_scores)} games")
    if stages:
        print("kibitz's deciding stage at that move: " +
              ", ".join(f"{k} {v}" for k, v in sorted(stages.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
