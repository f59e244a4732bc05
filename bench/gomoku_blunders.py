#!/usr/bin/env python3
"""Where gomoku games against a peer were lost, with the peer as the judge.

Five steps; the first three each read the last one's output (JSON lines):

  trajectory  for each game Kibitz lost in a games log of ../shared/tools/gomoku/gomocup_match.py,
              the peer's own evaluation of the position before each of Kibitz's moves, searched
              from Kibitz's side (MS a position), up to the first one it proves lost;
  positions   the blunders: positions the peer scored at least --floor (not lost) where the
              next one it was asked about is proven lost: Kibitz's move there allowed a forced win;
  check       an engine's move on each blunder position (at MS), then the peer on the position
              after it: "lost" when the peer, now to move, proves a win. The peer itself on the
              same positions is the yardstick of what can be held.
  agree       does more time bring the engine's choices closer to the peer's? On the positions
              before Kibitz's moves FIRST..LAST after the opening of each game in a games log,
              the peer's move (at --peer-ms), the engine's at --ms and at --long-ms: how often
              they agree (two positions searched at once: run it on an otherwise idle machine).
  versus      do two engines (or one at two times) differ where it matters? On --limit
              positions before the moves of --name (after the opening, up to the fifth last,
              each once, shuffled by --seed), each --engine CMD@MS's move and the --reference
              CMD@MS's (typically an engine given several times the time): how often each
              plays the reference's move, and where two engines differ, whose move it is.

The peer must print PentaZen-style MESSAGE lines ("ev N" a score for the side to move,
"ev +vN" / "ev -vN" a win / loss proven N plies away, "nd 1" a move chosen without search).

  bench/gomoku_blunders.py trajectory --games pz_games.txt --peer /tmp/pentazen/pbrain-pentazen --out traj.jsonl
  bench/gomoku_blunders.py positions --trajectory traj.jsonl --out blunders.jsonl
  bench/gomoku_blunders.py check --positions blunders.jsonl --peer /tmp/pentazen/pbrain-pentazen \\
      --engine "build/release/kibitz gomocup" --ms 1000
  bench/gomoku_blunders.py agree --games pz_games.txt --peer /tmp/pentazen/pbrain-pentazen \\
      --engine "build/release/kibitz gomocup" --ms 1000 --long-ms 6000 --limit 80
  bench/gomoku_blunders.py versus --games a.txt b.txt --limit 400 --reference "old gomocup@2000" \\
      --engine "build/release/kibitz gomocup@250" --engine "old gomocup@250"
"""
import argparse
import concurrent.futures
import json
import random
import re
import subprocess
import sys

EV = re.compile(r"\bev (\S+)")
LOST = -10**6
WON = 10**6


def parse_moves(text):
    """The referee's move strings ("h8i9..."): column letter, row from 1."""
    return [(ord(m.group(1)) - 97, int(m.group(2)) - 1) for m in re.finditer(r"([a-z])(\d+)", text)]


def name(move):
    return f"{chr(97 + move[0])}{move[1] + 1}" if move else "-"


def ask(cmd, stones, ms, rule, size=15):
    """The engine's move and MESSAGE lines on the position after `stones` (black first)."""
    p = subprocess.Popen(cmd, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1)
    lines = [f"START {size}", f"INFO timeout_turn {ms}", "INFO timeout_match 1000000000",
             f"INFO rule {rule}", "BOARD"]
    mover = len(stones) % 2
    lines += [f"{x},{y},{1 if i % 2 == mover else 2}" for i, (x, y) in enumerate(stones)]
    lines.append("DONE")
    p.stdin.write("\n".join(lines) + "\n")
    p.stdin.flush()
    messages, move = [], None
    for line in p.stdout:
        line = line.strip()
        if line.startswith(("MESSAGE", "DEBUG")):
            messages.append(line)
            continue
        m = re.fullmatch(r"(-?\d+),(-?\d+)", line)
        if m:
            move = (int(m.group(1)), int(m.group(2)))
            break
    try:
        p.stdin.write("END\n")
        p.stdin.flush()
        p.wait(timeout=5)
    except (OSError, subprocess.TimeoutExpired):
        p.kill()
    return move, messages


def peer_value(messages):
    """(value, forced): the last "ev" as a number (LOST / WON for proofs), None if absent."""
    forced = any(" nd 1 " in m for m in messages)
    found = (EV.search(m) for m in reversed(messages))
    ev = next((f.group(1) for f in found if f), None)
    if ev is None:
        return None, forced
    if ev.startswith("-v"):
        return LOST, forced
    if ev.startswith("+v"):
        return WON, forced
    try:
        return int(ev), forced
    except ValueError:
        return None, forced


def games_of(path, player):
    """(record, colour, moves) for each game of a referee's games log that `player` played."""
    for line in open(path, encoding="utf-8"):
        if not line.strip():
            continue
        r = json.loads(line)
        if player not in (r["black"], r["white"]):
            continue
        yield r, 0 if r["black"] == player else 1, parse_moves(r["opening"]) + parse_moves(r["moves"])


def trajectory(a):
    out = open(a.out, "w", encoding="utf-8")
    for r, me, seq in games_of(a.games, a.name):
        winner = {"1-0": 0, "0-1": 1}.get(r["result"])
        if winner is None or winner == me:
            continue
        rows = []
        for ply in range(r["n_opening"], len(seq)):
            if ply % 2 != me:
                continue
            move, messages = ask(a.peer, seq[:ply], a.ms, r.get("rule", 0))
            value, forced = peer_value(messages)
            rows.append({"ply": ply, "played": name(seq[ply]), "peer": name(move), "value": value,
                         "forced": forced})
            if value == LOST and not forced:
                break
        rec = {"game": r.get("game"), "rule": r.get("rule", 0), "colour": me,
               "moves": "".join(name(m) for m in seq), "rows": rows}
        out.write(json.dumps(rec) + "\n")
        out.flush()
        shown = " ".join(f"{x['ply']}:{'lost' if x['value'] == LOST else x['value']}"
                         f"{'' if x['peer'] == x['played'] else '*'}" for x in rows)
        print(f"game {rec['game']}: {shown}", flush=True)


def positions(a):
    out = open(a.out, "w", encoding="utf-8")
    found = 0
    for line in open(a.trajectory, encoding="utf-8"):
        r = json.loads(line)
        rows = [x for x in r["rows"] if not x["forced"] and x["value"] is not None]
        for x, y in zip(rows, rows[1:]):
            if x["value"] >= a.floor and x["value"] != WON and y["value"] == LOST:
                seq = parse_moves(r["moves"])[:x["ply"]]
                rec = {"game": r["game"], "rule": r["rule"], "ply": x["ply"],
                       "stones": "".join(name(m) for m in seq), "played": x["played"],
                       "peer": x["peer"], "value": x["value"]}
                out.write(json.dumps(rec) + "\n")
                found += 1
    print(f"{found} blunder positions", flush=True)


def check(a):
    held = total = 0
    for line in open(a.positions, encoding="utf-8"):
        r = json.loads(line)
        seq = parse_moves(r["stones"])
        move, messages = ask(a.engine, seq, a.ms, r["rule"])
        if move is None:
            print(f"game {r['game']} ply {r['ply']}: no move from the engine", flush=True)
            total += 1
            continue
        _, peer_messages = ask(a.peer, seq + [move], a.peer_ms, r["rule"])
        value, _ = peer_value(peer_messages)
        lost = value == WON
        total += 1
        held += not lost
        print(f"game {r['game']} ply {r['ply']}: played {r['played']}, now {name(move)}: "
              f"{'lost' if lost else 'holds'} (peer {value})", flush=True)
    print(f"held {held} of {total}")


def agree(a):
    first, last = (int(x) for x in a.moves.split("-"))
    games = []
    for r, me, seq in games_of(a.games, a.name):
        mine = [ply for ply in range(r["n_opening"], len(seq)) if ply % 2 == me]
        games += [(r.get("game"), r.get("rule", 0), seq[:ply]) for ply in mine[first - 1:last]]
    games = games[:a.limit] if a.limit else games
    asks = [(a.peer, a.peer_ms), (a.engine, a.ms), (a.engine, a.long_ms)]
    jobs = [(cmd, stones, ms, rule) for _, rule, stones in games for cmd, ms in asks]
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        moves = [name(m) for m, _ in pool.map(lambda j: ask(*j), jobs)]
    short = long_ = both = 0
    for i, (game, _, stones) in enumerate(games):
        peer, mine_short, mine_long = moves[3 * i:3 * i + 3]
        short += peer == mine_short
        long_ += peer == mine_long
        both += mine_short == mine_long
        print(f"game {game} ply {len(stones)}: peer {peer}, {a.ms} ms {mine_short}, "
              f"{a.long_ms} ms {mine_long}", flush=True)
    n = len(games)
    print(f"{n} positions: the engine at {a.ms} ms plays the peer's move in {short}, at "
          f"{a.long_ms} ms in {long_}; its two choices agree in {both}")


def versus(a):
    def player(text):
        cmd, _, ms = text.rpartition("@")
        if not cmd or not ms.isdigit():
            sys.exit(f"'{text}': expected an engine command, '@' and its milliseconds a move")
        return cmd, int(ms)

    found, seen = [], set()
    for path in a.games:
        for r, me, seq in games_of(path, a.name):
            for ply in range(r["n_opening"], len(seq) - 4):
                if ply % 2 == me and tuple(seq[:ply]) not in seen:
                    seen.add(tuple(seq[:ply]))
                    found.append((r.get("rule", 0), seq[:ply]))
    found.sort()
    random.Random(a.seed).shuffle(found)
    found = found[:a.limit] if a.limit else found
    players = [player(a.reference)] + [player(e) for e in a.engine]
    jobs = [(cmd, stones, ms, rule) for rule, stones in found for cmd, ms in players]
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        moves = [name(m) for m, _ in pool.map(lambda j: ask(*j), jobs)]
    k = len(players)
    rows = [moves[k * i:k * i + k] for i in range(len(found))]
    print(f"{len(found)} positions; the reference: {a.reference}")
    for j, engine in enumerate(a.engine, start=1):
        print(f"  {engine}: plays the reference's move in {sum(r[j] == r[0] for r in rows)}")
    for i in range(1, k):
        for j in range(i + 1, k):
            differ = [r for r in rows if r[i] != r[j]]
            print(f"  {a.engine[i - 1]} / {a.engine[j - 1]}: differ in {len(differ)}; the "
                  f"reference plays the first's move in {sum(r[i] == r[0] for r in differ)}, the "
                  f"second's in {sum(r[j] == r[0] for r in differ)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="step", required=True)
    t = sub.add_parser("trajectory")
    t.add_argument("--games", required=True)
    t.add_argument("--peer", required=True)
    t.add_argument("--name", default="kibitz")
    t.add_argument("--ms", type=int, default=500)
    t.add_argument("--out", required=True)
    p = sub.add_parser("positions")
    p.add_argument("--trajectory", required=True)
    p.add_argument("--floor", type=int, default=-150)
    p.add_argument("--out", required=True)
    c = sub.add_parser("check")
    c.add_argument("--positions", required=True)
    c.add_argument("--engine", required=True)
    c.add_argument("--peer", required=True)
    c.add_argument("--ms", type=int, default=1000)
    c.add_argument("--peer-ms", type=int, default=1000)
    g = sub.add_parser("agree")
    g.add_argument("--games", required=True)
    g.add_argument("--peer", required=True)
    g.add_argument("--engine", required=True)
    g.add_argument("--name", default="kibitz")
    g.add_argument("--moves", default="2-5", help="Kibitz's moves after the opening, FIRST-LAST")
    g.add_argument("--limit", type=int, default=0, help="at most this many positions (0: all)")
    g.add_argument("--ms", type=int, default=1000)
    g.add_argument("--long-ms", type=int, default=6000)
    g.add_argument("--peer-ms", type=int, default=1000)
    v = sub.add_parser("versus")
    v.add_argument("--games", nargs="+", required=True, help="games logs of the referee")
    v.add_argument("--reference", required=True, help="CMD@MS: the engine whose moves count")
    v.add_argument("--engine", action="append", required=True,
                   help="CMD@MS, repeated: each one's agreement, and for two or more where they "
                        "differ")
    v.add_argument("--name", default="kibitz", help="whose positions")
    v.add_argument("--limit", type=int, default=400, help="at most this many positions (0: all)")
    v.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    {"trajectory": trajectory, "positions": positions, "check": check, "agree": agree,
     "versus": versus}[a.step](a)
    return 0


if __name__ == "__main__":
    sys.exit(main())
