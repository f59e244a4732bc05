#!/usr/bin/env bash
# Does the Go deep search win more games at equal total time? (BENCHMARKS.md "Go deep search")
# Three `kibitz match` runs on 9x9 with the same clock for every Kibitz engine (sudden death,
# time_settings + time_left, so whatever a deep search spends is missing later):
#   1. deep search on (configs/go.yaml, one worker: the same CPU as the plain engine) against
#      deep search off, self-play;
#   2. deep on against GNU Go level 10;   3. deep off against GNU Go level 10.
# Each deep engine starts from an empty database of its own, which grows over the match.
# Openings: ten two-move lines, one per pair of games (colours reversed within the pair).
#   bench/go_deep_match.sh [KIBITZ] [GAMES] [SECONDS_PER_SIDE] [CONCURRENCY]
set -euo pipefail
kibitz=$(realpath "${1:-build/release/kibitz}")
games=${2:-20}
tc=${3:-30}
conc=${4:-2}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sed 's/^  workers: 2 /  workers: 1 /' "$root/configs/go.yaml" > "$work/go.yaml"
# Ten two-move openings (each played with both colours), so the pairs differ.
printf '%s\n' "E5 C3" "E5 G4" "E5 D3" "C3 E5" "C3 G7" "D4 F6" "D4 E6" "C4 F5" "E3 E6" "G3 C6" \
  > "$work/openings.txt"
gnugo=$(command -v gnugo || echo /usr/games/gnugo)
common=(--game go --board-size 9 --komi 7.5 --openings "$work/openings.txt" --tc "$tc+0" --games "$games" -c "$conc" --no-progress)
deep() { echo "name=deep cmd=$kibitz gtp --config $work/go.yaml --db $work/$1.db --quiet-deep"; }
plain="name=plain cmd=$kibitz gtp"
gnu="name=gnugo10 cmd=$gnugo --mode gtp --level 10 tc=3600+0"

echo "== deep on vs deep off, ${tc} s a side"
"$kibitz" match "${common[@]}" --engine "$(deep selfplay)" --engine "$plain"
echo "== deep on vs GNU Go 10"
"$kibitz" match "${common[@]}" --engine "$(deep gnugo)" --engine "$gnu"
echo "== deep off vs GNU Go 10"
"$kibitz" match "${common[@]}" --engine "$plain" --engine "$gnu"
for db in selfplay gnugo; do
  echo "== database after the $db match"
  "$kibitz" go db stats --db "$work/$db.db"
done
