#!/usr/bin/env bash
# The seed's per-move time table for the Go deep search (BENCHMARKS.md "Go deep search"):
# `kibitz go selfplay` on a fresh database with recursion limited to 0, 1 and 2, then the
# depth-2 game replayed on its own database (every uncertain move a cache hit). Prints the
# median and range of the per-move times of each kind of move, the cache hit rate of each
# run and the database size per 1,000 positions.
#   bench/go_deep_table.sh [KIBITZ] [SIZE] [MOVES]
set -euo pipefail
kibitz=${1:-build/kibitz}
size=${2:-9}
moves=${3:-40}
config=$(dirname "$0")/../configs/go.yaml
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

summarise() {  # file label
  python3 - "$1" "$2" <<'PY'
import re, statistics, sys
path, label = sys.argv[1], sys.argv[2]
kinds = {}
hits = queries = 0
for line in open(path):
    m = re.match(r"Move \d+: plays \S+ \[unc=[0-9.]+, (.*), (\d+)ms\]", line)
    if m:
        kind = m.group(1)
        kind = re.sub(r"CACHED\(\d+\)", "CACHED", kind)
        kind = "DEEP, depth 0" if kind == "DEEP" else kind
        kinds.setdefault(kind, []).append(int(m.group(2)))
    m = re.match(r"\s+RAG queries: (\d+)", line)
    if m: queries = int(m.group(1))
    m = re.match(r"\s+RAG hits: (\d+)", line)
    if m: hits = int(m.group(1))
for kind in sorted(kinds):
    t = kinds[kind]
    print(f"{label:24} {kind:16} moves {len(t):3}  median {statistics.median(t):7.0f} ms"
          f"  min {min(t):6} ms  max {max(t):6} ms")
print(f"{label:24} cache hit rate {100.0 * hits / queries if queries else 0:.1f}% ({hits}/{queries})")
PY
}

for depth in 0 1 2; do
  sed "s/max_recursion_depth: 2 /max_recursion_depth: $depth /" "$config" > "$work/d$depth.yaml"
  "$kibitz" go selfplay --config "$work/d$depth.yaml" --db "$work/d$depth.db" --size "$size" \
    --moves "$moves" > /dev/null 2> "$work/d$depth.log"
  summarise "$work/d$depth.log" "max depth $depth, new db"
done
"$kibitz" go selfplay --config "$work/d2.yaml" --db "$work/d2.db" --size "$size" \
  --moves "$moves" > /dev/null 2> "$work/again.log"
summarise "$work/again.log" "max depth 2, replayed"
"$kibitz" go db stats --db "$work/d2.db"
