#!/usr/bin/env bash
# Perft speed, Kibitz against Stockfish, in one run on the same machine, single thread.
# Runs the two engines alternately REPEAT times per position and prints the median nodes/s
# of each and their ratio. Kibitz times itself (perft only); Stockfish is timed by
# ../shared/tools/chess/uci_perft.py from `go perft` to its count line (CPU seconds of the
# engine process over that span, which is robust on a loaded machine).
#
# Usage: bench/perft_vs_stockfish.sh [REPEAT]   (default 5)
# KIBITZ=build/release-portable/kibitz measures the build without -march=native.
set -euo pipefail
cd "$(dirname "$0")/.."
repeat=${1:-5}
kibitz=${KIBITZ:-build/release/kibitz}
stockfish=${STOCKFISH:-$(command -v stockfish || echo /usr/games/stockfish)}
tools=${KIBITZ_TOOLS:-../shared/tools}
[ -x "$kibitz" ] || { echo "build first: make build" >&2; exit 1; }
[ -x "$stockfish" ] || { echo "stockfish not found (scripts/install-deps installs it)" >&2; exit 1; }
[ -f "$tools/chess/uci_perft.py" ] || { echo "$tools/chess/uci_perft.py not found" >&2; exit 1; }

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

run() {  # name fen depth
  local name=$1 fen=$2 depth=$3 k=() s=()
  for ((i = 0; i < repeat; i++)); do
    if [ "$fen" = startpos ]; then out=$("$kibitz" perft --depth "$depth")
    else out=$("$kibitz" perft --depth "$depth" --fen "$fen"); fi
    k+=("$(echo "$out" | awk '/Nodes\/second/ {print $2}')")
    s+=("$(python3 "$tools/chess/uci_perft.py" --engine "$stockfish" --fen "$fen" --depth "$depth" \
           --repeat 1 | awk '/^median/ {for (i=1;i<=NF;i++) if ($i=="nodes/cpu-s") {gsub(",","",$(i+1)); print $(i+1)}}')")
  done
  local km sm
  km=$(printf '%s\n' "${k[@]}" | median)
  sm=$(printf '%s\n' "${s[@]}" | median)
  awk -v n="$name" -v d="$depth" -v k="$km" -v s="$sm" 'BEGIN {
    printf "%-10s depth %d  kibitz %6.1f Mnps  stockfish %6.1f Mnps  ratio %.2f\n",
           n, d, k / 1e6, s / 1e6, k / s }'
}

echo "stockfish: $("$stockfish" quit 2>/dev/null | head -1)"
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
run startpos startpos 6
run kiwipete "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1" 5
