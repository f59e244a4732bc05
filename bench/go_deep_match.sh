#!/usr/bin/env bash
# Does the Go deep search win more games at equal total time? (BENCHMARKS.md "Go deep search")
# Three `kibitz match` runs on 9x9 (or 19x19) with the same clock for every Kibitz engine (sudden death,
# time_settings + time_left, so whatever a deep search spends is missing later):
#   1. deep search on (configs/go.yaml, one worker: the same CPU as the plain engine) against
#      deep search off, self-play;
#   2. deep on against GNU Go level 10;   3. deep off against GNU Go level 10.
# Each deep engine starts from an empty database of its own, which grows over the match.
# Openings: ten two-move lines, one per pair of games (colours reversed within the pair).
#   bench/go_deep_match.sh [KIBITZ] [GAMES] [SECONDS_PER_SIDE] [CONCURRENCY] [SIZE] [MATCHES]
# SIZE is 9 (default) or 19; MATCHES picks the runs (default "123"; "1": the self-play only).
set -euo pipefail
kibitz=$(realpath "${1:-build/release/kibitz}")
games=${2:-20}
tc=${3:-30}
conc=${4:-2}
size=${5:-9}
matches=${6:-123}
case $size in 9 | 19) ;; *) echo "go_deep_match.sh: SIZE must be 9 or 19" >&2; exit 2 ;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sed 's/^  workers: 2 /  workers: 1 /' "$root/configs/go.yaml" > "$work/go.yaml"
# Ten two-move openings (each played with both colours), so the pairs differ.
if [ "$size" = 9 ]; then
  printf '%s\n' "E5 C3" "E5 G4" "E5 D3" "C3 E5" "C3 G7" "D4 F6" "D4 E6" "C4 F5" "E3 E6" "G3 C6" \
    > "$work/openings.txt"
else
  printf '%s\n' "Q16 D4" "Q16 D16" "R16 D4" "Q4 D16" "Q16 C4" "R4 D16" "Q16 Q4" "D4 Q16" \
    "K10 Q16" "Q17 D4" > "$work/openings.txt"
fi
gnugo=$(command -v gnugo || echo /usr/games/gnugo)
common=(--game go --board-size "$size" --komi 7.5 --openings "$work/openings.txt" --tc "$tc+0" --games "$games" -c "$conc" --no-progress)
deep() { echo "name=deep cmd=$kibitz gtp --config $work/go.yaml --db $work/$1.db --quiet-deep"; }
plain="name=plain cmd=$kibitz gtp"
gnu="name=gnugo10 cmd=$gnugo --mode gtp --level 10 tc=3600+0"

if [[ $matches == *1* ]]; then
  echo "== deep on vs deep off, ${size}x${size}, ${tc} s a side"
  "$kibitz" match "${common[@]}" --engine "$(deep selfplay)" --engine "$plain"
fi
if [[ $matches == *2* ]]; then
  echo "== deep on vs GNU Go 10"
  "$kibitz" match "${common[@]}" --engine "$(deep gnugo)" --engine "$gnu"
fi
if [[ $matches == *3* ]]; then
  echo "== deep off vs GNU Go 10"
  "$kibitz" match "${common[@]}" --engine "$plain" --engine "$gnu"
fi
for db in selfplay gnugo; do
  [ -f "$work/$db.db" ] || continue
  echo "== database after the $db match"
  "$kibitz" go db stats --db "$work/$db.db"
done
