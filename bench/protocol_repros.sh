#!/bin/bash
# The eleven repro commands of issue 22 (protocol compliance) against one kibitz binary, one
# line each: BENCHMARKS.md, "Protocol compliance", compares the build before the fixes with
# this one. Usage: bench/protocol_repros.sh build/release/kibitz
K=$1
t() { timeout 10 "$@"; }
r1=$(printf 'position startpos\ngo wtime 987.5 btime 1000\nisready\n' | t $K uci 2>/dev/null | grep -c '^bestmove')
r2=""; for g in "depth -1" "movetime -5" "movetime 0" "nodes 0"; do printf "position startpos\ngo $g\n" | t $K uci >/dev/null 2>&1; r2="$r2 $?"; done
r3a=$(printf 'position startpos\ngo ponder wtime 3000 btime 3000\nponderhit\n' | t $K uci 2>/dev/null | grep -c '^info depth')
r3b=$(printf 'position startpos\ngo depth 99999\nstop\n' | t $K uci 2>/dev/null | grep -c '^info depth')
r4=$(printf 'position startpos moves e2e4\nposition fen 8/8/8 w - - 0 1\ngo depth 3\n' | t $K uci 2>/dev/null | grep '^bestmove')
r5=$(t $K gtp --visits -1 </dev/null >/dev/null 2>&1; echo $?)
r6=$(printf 'boardsize 9\nplay b pass\nplay w pass\nplay b e5\n' | t $K gtp --visits 50 2>/dev/null | grep -v '^$' | tail -1)
r7=$(printf 'list_commands\n' | t $K gtp 2>/dev/null | grep -c 'kata-analyze\|genmove_analyze')
r8a=$(printf 'INFO rule 4\nSTART 15\nBOARD\n5,7,1\n0,0,2\n6,7,1\n2,0,2\n7,5,1\n4,0,2\n7,6,1\n0,14,2\n7,7,1\n14,14,2\nDONE\n' | t $K gomocup 2>/dev/null | tail -1)
r8b=$(printf 'START 15\nSWAP2BOARD\nDONE\n' | t $K gomocup 2>/dev/null | tail -1)
r8c=$(printf 'START 15\nINFO timeout_turn 3000\nINFO time_left 0\nBEGIN\n' | t $K gomocup 2>/dev/null | grep MESSAGE)
r11=$(printf "START 15\n%s\n" "$(head -c 1000000 /dev/zero | tr '\0' Q)" | t $K gomocup 2>/dev/null | tail -1 | wc -c)
echo "1 bestmoves after 'go wtime 987.5': $r1"
echo "2 exit status (124 = still running after 10 s) for depth -1 / movetime -5 / movetime 0 / nodes 0:$r2"
echo "3 info depth lines: ponder+ponderhit+EOF: $r3a; go depth 99999 + stop: $r3b"
echo "4 go after a refused FEN: $r4"
echo "5 exit status of 'gtp --visits -1' (0 = accepted): $r5"
echo "6 play b e5 after two passes: $r6"
echo "7 analysis commands listed: $r7"
echo "8 renju BOARD out of order: $r8a | SWAP2BOARD: $r8b | time_left 0: $r8c"
echo "11 bytes of the answer to a 1 MB unknown line: $r11"
