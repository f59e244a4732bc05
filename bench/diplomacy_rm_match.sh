#!/bin/sh
# The RM+ bot (issue 10) as one power against six heuristic bots: each power played GAMES times
# (seeds 1..GAMES), beside the heuristic bot in the same seat on the same seeds. Prints, per
# seat and overall, the centres at the end and the solos / draws / eliminations.
# Usage: bench/diplomacy_rm_match.sh [MOVETIME_MS] [GAMES] [MAX_YEAR]   (defaults 300 5 1930;
# GAMES at least 2)
# Runs two games at a time (the development machine has 2 cores).
set -eu
KIBITZ=${KIBITZ:-build/release/kibitz}
MOVETIME=${1:-300}
GAMES=${2:-5}
MAX_YEAR=${3:-1930}
OUT=$(mktemp -d)
powers="Austria England France Germany Italy Russia Turkey"
i=0
for p in $powers; do
  bots=""
  j=0
  for q in $powers; do
    if [ "$j" = "$i" ]; then b=rm; else b=heuristic; fi
    bots="${bots:+$bots,}$b"
    j=$((j + 1))
  done
  "$KIBITZ" diplomacy play --bots "$bots" --movetime "$MOVETIME" --games "$GAMES" \
    --max-year "$MAX_YEAR" --quiet --json "$OUT/rm_$p.json" > /dev/null &
  if [ $((i % 2)) = 1 ]; then wait; fi
  i=$((i + 1))
done
wait
"$KIBITZ" diplomacy play --bots heuristic --games "$GAMES" --max-year "$MAX_YEAR" --quiet \
  --json "$OUT/heuristic.json" > /dev/null
python3 - "$OUT" "$GAMES" <<'PY'
import json, sys
out, games = sys.argv[1], int(sys.argv[2])
powers = "Austria England France Germany Italy Russia Turkey".split()
base = [g["game"] for g in json.load(open(f"{out}/heuristic.json"))["games"]]
tot = {"rm": [0, 0, 0, 0, 0], "heuristic": [0, 0, 0, 0, 0]}  # centres, solos, draws, lost, n
per_game = {"rm": [], "heuristic": []}
print(f"{'seat':8} {'rm centres':>10} {'heur. centres':>13}   rm solo/draw/out")
for p in powers:
    rm = [g["game"] for g in json.load(open(f"{out}/rm_{p}.json"))["games"]]
    c_rm = sum(g["centres"][p] for g in rm) / len(rm)
    c_h = sum(g["centres"][p] for g in base) / len(base)
    def tally(gs, key):
        t = tot[key]
        for g in gs:
            t[0] += g["centres"][p]; t[4] += 1
            per_game[key].append(g["centres"][p])
            w = g["result"]["winner"]
            if w == p: t[1] += 1
            elif w is None and p in g["result"]["survivors"]: t[2] += 1
            elif p not in g["result"]["survivors"]: t[3] += 1
    tally(rm, "rm"); tally(base, "heuristic")
    s = sum(1 for g in rm if g["result"]["winner"] == p)
    d = sum(1 for g in rm if g["result"]["winner"] is None and p in g["result"]["survivors"])
    o = sum(1 for g in rm if p not in g["result"]["survivors"])
    print(f"{p:8} {c_rm:10.2f} {c_h:13.2f}   {s}/{d}/{o}")
for k, t in tot.items():
    n = t[4]
    xs = per_game[k]
    mean = sum(xs) / n
    sd = (sum((x - mean) ** 2 for x in xs) / (n - 1)) ** 0.5 if n > 1 else 0.0
    ci = 1.96 * sd / n ** 0.5
    print(f"{k:9}: {mean:.2f} +- {ci:.2f} (95%) centres a game over {n} games (fair share "
          f"34/7 = 4.86: {mean/(34/7):.2f}x); solos {t[1]}, draws {t[2]}, eliminated or lost {t[3]}")
PY
rm -rf "$OUT"
