#!/usr/bin/env bash
# Per-move time of the Go deep search by kind of move (BENCHMARKS.md "Go deep search"), the
# seed's table: standard search only, cached, and deep searches whose recursion reached depth
# 0, 1 and 2; plus the cache hit rate of a second run and the database size.
#   bench/go_deep_report.sh [KIBITZ] [MOVES] [SIZE] [GAMES]
# GAMES (default 3) is for the depth-2 runs: their per-game statistics give the hit rate as the
# database grows over games; the other runs play one game.
# Runs, each from a fresh database except where said:
#   --no-deep                      -> STANDARD
#   max_recursion_depth 0, 1, 2    -> DEEP at depth 0 / 1 / 2 (a depth-2 run also has moves
#                                     whose children stayed below the threshold)
#   the depth-2 run again, same seeds, on its own database -> CACHED, the hit rate
set -euo pipefail
kibitz=$(realpath "${1:-build/release/kibitz}")
moves=${2:-30}
size=${3:-9}
games=${4:-3}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
common=(go selfplay --moves "$moves" --size "$size")

run() {  # run NAME DEPTH [extra args]: the per-move lines of the run go to $work/NAME.log
  local name=$1 depth=$2
  shift 2
  sed "s/^  max_recursion_depth: 2 /  max_recursion_depth: $depth /" "$root/configs/go.yaml" \
    > "$work/$name.yaml"
  "$kibitz" "${common[@]}" --config "$work/$name.yaml" --db "$work/${DB:-$name}.db" "$@" \
    2> "$work/$name.log" > "$work/$name.out"
  echo "$name: $(tr '\n' ' ' < "$work/$name.out")"
}

run standard 2 --no-deep --games 1
run depth0 0 --games 1
run depth1 1 --games 1
run depth2 2 --games "$games"
DB=depth2 run cached 2 --games "$games"

echo
echo "kind          moves  median ms  mean ms  x standard"
cat "$work"/{standard,depth0,depth1,depth2,cached}.log | awk '
  /^Move [0-9]+: plays / {
    k = $0; sub(/.*\[unc=[0-9.]+, /, "", k); sub(/\]$/, "", k)
    ms = k; sub(/.*, /, "", ms); sub(/ms$/, "", ms)
    kind = k; sub(/, [0-9]+ms$/, "", kind)
    if (kind ~ /^CACHED/) kind = "CACHED"
    else if (kind == "DEEP") kind = "DEEP depth 0"
    else if (kind ~ /^DEEP, depth/) { sub(/, /, " ", kind) }
    n[kind]++; t[kind, n[kind]] = ms + 0; sum[kind] += ms
  }
  END {
    split("STANDARD|CACHED|DEEP depth 0|DEEP depth 1|DEEP depth 2", order, "|")
    for (i = 1; i <= 5; i++) {
      k = order[i]; c = n[k]
      if (!c) { printf "%-13s %5d\n", k, 0; continue }
      for (a = 1; a <= c; a++) v[a] = t[k, a]
      for (a = 2; a <= c; a++) { x = v[a]; b = a - 1; while (b >= 1 && v[b] > x) { v[b+1] = v[b]; b-- } v[b+1] = x }
      med = (c % 2) ? v[(c + 1) / 2] : (v[c / 2] + v[c / 2 + 1]) / 2
      mean = sum[k] / c
      if (k == "STANDARD") base = mean
      printf "%-13s %5d %10.0f %8.0f %11.1f\n", k, c, med, mean, base ? mean / base : 0
    }
  }'

echo
for name in depth2 cached; do
  echo "cache hit rate per game, $name run:"
  grep -E '^Game [0-9]+ Statistics|Cache hit rate' "$work/$name.log" | paste - - |
    sed -E 's/Game ([0-9]+) Statistics:[[:space:]]+Cache hit rate:/  game \1:/'
done
echo "database after the depth-2 run and its second run:"
"$kibitz" go db stats --db "$work/depth2.db" | sed 's/^/  /'
