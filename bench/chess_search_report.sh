#!/usr/bin/env bash
# Measures the chess search for BENCHMARKS.md, side by side with Stockfish in one run:
#   1. nodes to a fixed depth with each technique on/off (ablation) and the plain M3 baseline,
#      with the first-move cut-off rate and effective branching factor;
#   2. depth reached in 1 s per bench position;
#   3. `kibitz bench` vs `stockfish bench` nodes/second;
#   4. WAC (300) at 1 s per position for both engines (shared tools' epd_solve.py).
# Usage: bench/chess_search_report.sh [sections...]  (default: ablation depth nps wac)
# KIBITZ=path overrides build/release/kibitz; STOCKFISH=path overrides /usr/games/stockfish;
# KIBITZ_SUITES / KIBITZ_TOOLS locate ../shared/data and ../shared/tools; DEPTH sets the
# ablation depth (default 11); MOVETIME the WAC time per position (default 1000 ms).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
kibitz=${KIBITZ:-$root/build/release/kibitz}
stockfish=${STOCKFISH:-/usr/games/stockfish}
suites=${KIBITZ_SUITES:-$root/../shared/data}
tools=${KIBITZ_TOOLS:-$root/../shared/tools}
depth=${DEPTH:-11}
movetime=${MOVETIME:-1000}
sections=("$@")
[ ${#sections[@]} -eq 0 ] && sections=(ablation depth nps wac)

summary() {  # label, bench output
  local label=$1 out=$2
  printf '| %-26s | %12s | %6s | %6s | %6s |\n' "$label" \
    "$(grep -oP 'Nodes searched  : \K\d+' <<<"$out")" \
    "$(grep -oP 'EBF             : \K[\d.]+' <<<"$out")" \
    "$(grep -oP 'First-move cuts : \K[\d.]+' <<<"$out")%" \
    "$(grep -oP 'Total time \(ms\) : \K\d+' <<<"$out")"
}

for s in "${sections[@]}"; do
  case $s in
    ablation)
      echo "## Ablation: nodes to depth $depth over the 12 bench positions"
      echo '| search | nodes | EBF | 1st-move cuts | ms |'
      echo '|---|---|---|---|---|'
      summary "plain (M3 baseline)" "$("$kibitz" bench -v --depth "$depth" --plain)"
      summary "full (all techniques)" "$("$kibitz" bench -v --depth "$depth")"
      for t in mvv_lva killers history see pvs aspiration null_move lmr reverse_futility \
               late_move_pruning iir; do
        summary "full without $t" "$("$kibitz" bench -v --depth "$depth" --disable "$t")"
      done
      # Chess extends no checks by default (issue 29's ninth step): show it switched on.
      summary "full with check_extension" \
        "$("$kibitz" bench -v --depth "$depth" --option check_extension=true)"
      ;;
    depth)
      echo "## Depth reached in 1 s per bench position"
      "$kibitz" bench -v --movetime 1000 | grep -E '^ ?[0-9]+ depth|Mean depth'
      ;;
    nps)
      echo "## Nodes/second: kibitz bench vs stockfish bench (1 thread, 16 MB)"
      k=$("$kibitz" bench | grep -oP 'Nodes/second    : \K\d+')
      s=$("$stockfish" bench 16 1 13 2>&1 | grep -oP 'Nodes/second\s*: \K\d+')
      echo "kibitz $k  stockfish $s  ratio $(python3 -c "print(f'{$k/$s:.2f}')")"
      ;;
    wac)
      echo "## WAC at ${movetime} ms per position"
      for e in "$kibitz uci" "$stockfish"; do
        echo "engine: $e"
        python3 "$tools/chess/epd_solve.py" --engine "$e" --epd "$suites/chess/wac.epd" \
          --movetime "$movetime" --hash 16 --threads 1 --quiet | tail -3
      done
      ;;
    *) echo "unknown section '$s' (ablation depth nps wac)" >&2; exit 2 ;;
  esac
done
