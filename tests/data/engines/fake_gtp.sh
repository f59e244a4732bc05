#!/bin/sh
# A misbehaving GTP engine for the match tests. $1 picks the fault shown on genmove:
#   illegal  answers the last point played (occupied)   garbage  answers "Z99"
#   crash    exits with status 3                        refuse   answers "? cannot score"
#   slow     answers after 3 s                          mute     never answers protocol_version
#   passer   always passes (legal: a weak engine, no fault)
# Other commands get an empty success; a game's first genmove as black (nothing played yet)
# answers E5 in illegal mode, so that the fault comes with a point that is then occupied.
mode="$1"
last=""
while read -r cmd arg1 arg2 rest; do
  case "$cmd" in
    protocol_version)
      [ "$mode" = mute ] && continue
      printf '= 2\n\n' ;;
    name) printf '= fake-%s\n\n' "$mode" ;;
    clear_board) last=""; printf '= \n\n' ;;
    play) last="$arg2"; printf '= \n\n' ;;
    genmove)
      case "$mode" in
        illegal) [ -z "$last" ] && last=E5; printf '= %s\n\n' "$last" ;;
        garbage) printf '= Z99\n\n' ;;
        crash) exit 3 ;;
        refuse) printf '? cannot score\n\n' ;;
        slow) sleep 3; printf '= pass\n\n' ;;
        *) printf '= pass\n\n' ;;
      esac ;;
    quit) printf '= \n\n'; exit 0 ;;
    *) printf '= \n\n' ;;
  esac
done
