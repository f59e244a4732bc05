#!/bin/sh
# A misbehaving UCI engine for the match tests. $1 picks the fault shown on `go`:
#   illegal  answers a move no position allows      crash  exits without answering
#   slow     answers after 3 s                      mute   never completes the handshake
#   silent   ignores go; answers stop (timeouts)
mode="$1"
while read -r line; do
  case "$line" in
    uci)
      [ "$mode" = mute ] && continue
      echo "id name fake-$mode"
      echo "option name Hash type spin default 16 min 1 max 1024"
      echo "uciok" ;;
    isready) echo "readyok" ;;
    go*)
      case "$mode" in
        illegal) echo "info depth 1 score cp 5"; echo "bestmove e1e8" ;;
        crash) exit 3 ;;
        slow) sleep 3; echo "bestmove 0000" ;;
        silent) ;;
      esac ;;
    stop) echo "bestmove 0000" ;;
    quit) exit 0 ;;
  esac
done
