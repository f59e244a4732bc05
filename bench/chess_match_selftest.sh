#!/usr/bin/env bash
# Self-test of bench/chess_match.py (the UCI match referee) with Stockfish and with small
# misbehaving fake engines.  Takes about a minute; runs at most two engine processes at a
# time (three for the --concurrency 2 check).  Exit 0 = pass, 1 = fail, 77 = skipped
# (no stockfish or no shared tools).
#
# Usage: bench/chess_match_selftest.sh [-v]
#   STOCKFISH=/path/to/stockfish   (default: stockfish on PATH or /usr/games/stockfish)
#   KIBITZ_TOOLS=DIR               shared tools folder (default ../shared/tools)
#   SELFTEST_GRACE=MS              --grace for the clock test (default 0)
#   KEEP=1                         keep the temporary folder with PGNs and logs
set -uo pipefail
cd "$(dirname "$0")/.."
verbose=${1:-}
stockfish=${STOCKFISH:-$(command -v stockfish || echo /usr/games/stockfish)}
tools=${KIBITZ_TOOLS:-../shared/tools}
grace=${SELFTEST_GRACE:-0}
[ -x "$stockfish" ] || { echo "SKIP: stockfish not found (set STOCKFISH)"; exit 77; }
[ -f "$tools/chess/chesslite.py" ] || { echo "SKIP: $tools/chess/chesslite.py not found (set KIBITZ_TOOLS)"; exit 77; }
tools=$(cd "$tools" && pwd)
export KIBITZ_TOOLS=$tools
data=${KIBITZ_DATA:-$tools/../data/chess/openings}
epd=$data/2moves_v1.epd
pgn=$data/8moves_v3_first5000.pgn
[ -f "$epd" ] && [ -f "$pgn" ] || { echo "SKIP: opening files not found under $data"; exit 77; }

referee="python3 bench/chess_match.py"
tmp=$(mktemp -d /tmp/chess_match_selftest.XXXXXX)
cleanup() { [ "${KEEP:-0}" = 1 ] && echo "kept $tmp" || rm -rf "$tmp"; }
trap cleanup EXIT
fails=0
pass() { echo "ok   $*"; }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

# --- a fake UCI engine that misbehaves on request -------------------------------------
cat > "$tmp/fake_uci.py" <<'EOF'
#!/usr/bin/env python3
"""fake_uci.py TOOLS MODE [N]: random legal moves (random), knight moves back and forth
(repeat); or random moves, then on its Nth go (default 3):
illegal = a pseudo-legal but illegal move (or a1a1), hang = no answer, exit = exits,
slow = answers 300 ms after its clock ran out; nouciok = never says uciok."""
import random, sys, time
sys.path.insert(0, sys.argv[1] + "/chess")
import chesslite
mode, n_bad = sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 3
rng, pos, gos = random.Random(1), chesslite.Position(), 0
def out(s):
    sys.stdout.write(s + "\n"); sys.stdout.flush()
for line in sys.stdin:
    w = line.split()
    if not w:
        continue
    if w[0] == "uci":
        out("id name fake-" + mode)
        if mode != "nouciok":
            out("uciok")
    elif w[0] == "isready":
        out("readyok")
    elif w[0] == "quit":
        break
    elif w[0] == "position":
        pos, rest = (chesslite.Position(), w[2:]) if w[1] == "startpos" else \
                    (chesslite.Position(" ".join(w[2:8])), w[8:])
        hist = rest[1:]
        for u in hist:      # trusts the referee: no legality check, so no legal() per move
            pos = pos.make((chesslite.sqparse(u[:2]), chesslite.sqparse(u[2:4]), u[4:]))
    elif w[0] == "go":
        gos += 1
        legal = pos.legal()
        m = chesslite.Position.uci(rng.choice(legal))
        if mode == "repeat":    # undo its own last move when it can: threefold repetition
            ucis = [chesslite.Position.uci(x) for x in legal]
            back = hist[-2][2:4] + hist[-2][:2] if len(hist) >= 2 else None
            m = back if back in ucis else [u for u, x in zip(ucis, legal) if pos.b[x[0]] in "Nn"][0]
        elif gos >= n_bad and mode != "random":
            if mode == "hang":
                continue
            if mode == "exit":
                sys.exit(3)
            if mode == "slow":
                time.sleep(int(w[w.index("wtime" if pos.white else "btime") + 1]) / 1000 + 0.3)
            if mode == "illegal":
                bad = [x for x in pos.pseudo() if x not in legal]
                m = chesslite.Position.uci(bad[0]) if bad else "a1a1"
        out("info depth 1 score cp 0 nodes 1 pv " + m)
        out("bestmove " + m)
EOF
fake="python3 $tmp/fake_uci.py $tools"
sf="cmd=$stockfish option.Hash=16 option.Threads=1 option.UCI_LimitStrength=true"

run() {  # name, then referee arguments; output in $tmp/name.out, JSON in $tmp/name.json
  local name=$1; shift
  local t0=$SECONDS
  timeout 300 $referee --json "$tmp/$name.json" --pgn "$tmp/$name.pgn" "$@" > "$tmp/$name.out" 2>&1
  local rc=$?
  [ -n "$verbose" ] && cat "$tmp/$name.out"
  echo "     ($name: exit $rc, $((SECONDS - t0)) s)"
  return $rc
}
jcheck() {  # name, description, python expression over j (the JSON object)
  if python3 -c "import json,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if ($3) else 1)" "$tmp/$1.json" 2>/dev/null
  then pass "$1: $2"; else fail "$1: $2"; fi
}
verify() {
  if $referee --verify-pgn "$tmp/$1.pgn" > "$tmp/$1.verify" 2>&1; then
    pass "$1: PGN replays through chesslite ($(head -1 "$tmp/$1.verify" | sed 's/.*: //'))"
  else fail "$1: PGN check"; cat "$tmp/$1.verify"; fi
}

echo "referee self-test: stockfish $stockfish, tools $tools"

# 1. UCI_Elo 1500 against 2500 at fixed nodes, EPD openings
run nodes --nodes 3000 --games 4 --seed 5 --openings "$epd" --resign-moves 4 --resign-score 1000 \
    --engine "name=sf1500 $sf option.UCI_Elo=1500" --engine "name=sf2500 $sf option.UCI_Elo=2500"
jcheck nodes "4 games counted" 'j["games_counted"] == 4 and j["opponents"][0]["games"] == 4'
jcheck nodes "sf1500 scores below 50% against sf2500" 'j["opponents"][0]["score"] < 0.5'
jcheck nodes "no time losses, illegal moves or crashes" \
    'all(e["time_losses"] + e["illegal_moves"] + e["crashes"] == 0 for e in j["engines"].values())'
verify nodes

# 2. real clocks, 2+0.05, PGN openings, two games at once.  Move Overhead 100: on a busy
#    2-core machine Stockfish itself (by its own info time) sometimes overruns by 100+ ms.
run clock --tc 2+0.05 --grace "$grace" --games 2 --concurrency 2 --seed 9 --openings "$pgn" \
    --engine "name=sf1500 $sf option.UCI_Elo=1500 'option.Move Overhead=100'" \
    --engine "name=sf2500 $sf option.UCI_Elo=2500 'option.Move Overhead=100'"
jcheck clock "2 games counted" 'j["games_counted"] == 2'
jcheck clock "no time losses (min clock left > 0)" \
    'all(e["time_losses"] == 0 and e["min_clock_left_ms"] > 0 for e in j["engines"].values())'
verify clock
grep -q '^\[ECO ' "$tmp/clock.pgn" && grep -q 'end of opening' "$tmp/clock.pgn" \
    && pass "clock: PGN opening moves and ECO kept" || fail "clock: PGN opening moves"

# 3. broken engines lose every game, and the referee does not hang
check_fault() {  # mode, counter, extra args...
  local mode=$1 counter=$2; shift 2
  run "$mode" --games 2 --seed 1 --engine "name=fake-$mode cmd=$fake $mode" \
      --engine "name=sf $sf option.UCI_Elo=1500" "$@"
  jcheck "$mode" "fake-$mode loses 2 of 2 with $counter = 2, stockfish clean" \
      "j['opponents'][0]['l'] == 2 and j['engines']['fake-$mode']['$counter'] == 2 \
       and j['engines']['sf']['time_losses'] + j['engines']['sf']['illegal_moves'] + j['engines']['sf']['crashes'] == 0"
  verify "$mode"
}
check_fault illegal illegal_moves --nodes 500
check_fault hang time_losses --nodes 500 --move-timeout 2
check_fault exit crashes --nodes 500
check_fault nouciok crashes --nodes 500 --startup-timeout 2
check_fault slow time_losses --tc 1+0.1

# 4. random movers: long games that end by the draw rules, checked by the PGN replay
run random --movetime 50 --games 6 --seed 2 --openings "$epd" \
    --engine "name=r1 cmd=$fake random" --engine "name=r2 cmd=$fake random"
jcheck random "6 games counted" 'j["games_counted"] == 6'
verify random
grep -q 'Draw by' "$tmp/random.pgn" && pass "random: games drawn by rule ($(grep -ho 'Draw by [a-z0-9 -]*' "$tmp/random.pgn" | sort | uniq -c | sed 's/^ *//' | paste -sd,))" \
    || fail "random: no game drawn by rule"
run repeat --movetime 50 --games 2 --engine "name=k1 cmd=$fake repeat" --engine "name=k2 cmd=$fake repeat"
jcheck repeat "2 games drawn" 'j["opponents"][0]["d"] == 2'
[ "$(grep -c 'Draw by 3-fold repetition' "$tmp/repeat.pgn")" = 2 ] && pass "repeat: threefold repetition found" \
    || fail "repeat: threefold repetition"
verify repeat

# 5. gauntlet: engine 1 against two opponents
run gauntlet --gauntlet --nodes 1000 --games 2 --seed 4 --openings "$epd" \
    --engine "name=sf2000 $sf option.UCI_Elo=2000" --engine "name=rnd cmd=$fake random" \
    --engine "name=sf1400 $sf option.UCI_Elo=1400"
jcheck gauntlet "two opponents and a total, 4 games" \
    '[o["name"] for o in j["opponents"]] == ["rnd", "sf1400", "(all)"] and j["games_counted"] == 4'
jcheck gauntlet "sf2000 beats the random mover" 'j["opponents"][0]["w"] == 2'
verify gauntlet

# 6. Ctrl-C: stops quickly, prints a partial result, leaves no engine behind
$referee --movetime 100 --games 40 --json "$tmp/sigint.json" --pgn "$tmp/sigint.pgn" \
    --engine "name=r1 cmd=$fake random" --engine "name=r2 cmd=$fake random" \
    > "$tmp/sigint.out" 2>&1 &
pid=$!
sleep 4
kill -INT "$pid"
t0=$SECONDS
wait "$pid"
rc=$?
[ "$rc" = 130 ] && [ $((SECONDS - t0)) -le 10 ] && pass "sigint: exit 130 within $((SECONDS - t0)) s" \
    || fail "sigint: exit $rc after $((SECONDS - t0)) s"
jcheck sigint "JSON says interrupted" 'j["interrupted"] is True'
sleep 0.5
if pgrep -f "$tmp/fake_uci.py" > /dev/null; then fail "sigint: engine processes left behind"
else pass "sigint: no engine process left"; fi

# 7. bad arguments
$referee --nodes 10 --engine "name=x cmd=/nonexistent/engine" --engine "name=y $sf" > "$tmp/bad.out" 2>&1
[ $? = 2 ] && pass "missing engine binary: exit 2" || fail "missing engine binary"

if [ "$fails" -gt 0 ]; then echo "chess_match self-test: $fails check(s) FAILED (KEEP=1 keeps $tmp)"; exit 1; fi
echo "chess_match self-test: all checks passed"
