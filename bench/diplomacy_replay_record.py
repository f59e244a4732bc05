#!/usr/bin/env python3
"""Replays a game record of `kibitz diplomacy daide-server --record` through
`kibitz diplomacy adjudicate`, one phase at a time from the standard opening, and checks that
the position reached is the record's final one.

  bench/diplomacy_replay_record.py build/release/kibitz game.json

Each phase's state goes to `adjudicate` as JSON with that phase's orders (one a line, with
their power), and the next state is read from its output. Exits 1 at the first difference.
"""
import json
import os
import subprocess
import sys
import tempfile


def adjudicate(kibitz, state, orders, tmp):
    state_path = os.path.join(tmp, "state.json")
    orders_path = os.path.join(tmp, "orders.txt")
    with open(state_path, "w") as f:
        json.dump(state, f)
    with open(orders_path, "w") as f:
        for power, list_ in orders.items():
            for o in list_:
                f.write(f"{power}: {o}\n")
    out = subprocess.run([kibitz, "diplomacy", "adjudicate", state_path, orders_path],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out[out.index("\n{") + 1:])


def main():
    kibitz, record = sys.argv[1], sys.argv[2]
    with open(record) as f:
        rec = json.load(f)
    with tempfile.TemporaryDirectory() as tmp:
        state = initial_state()
        for i, phase in enumerate(rec["game"]["phases"]):
            if state["phase"] != phase["phase"]:
                sys.exit(f"phase {i}: the replay is in {state['phase']}, the record in {phase['phase']}")
            state = adjudicate(kibitz, state, phase["orders"], tmp)
    final = rec["final_state"]
    same = all(state.get(k) == final.get(k) for k in ("phase", "units", "centres", "dislodged"))
    print(f"{len(rec['game']['phases'])} phases replayed: final position "
          f"{'the same' if same else 'DIFFERENT'} ({state['phase']})")
    return 0 if same else 1


def initial_state():
    """The standard map's opening in the state JSON of docs/diplomacy.md."""
    return {
        "map": "standard", "phase": "S1901M",
        "units": {
            "Austria": ["A bud", "A vie", "F tri"], "England": ["F edi", "F lon", "A lvp"],
            "France": ["F bre", "A mar", "A par"], "Germany": ["F kie", "A ber", "A mun"],
            "Italy": ["F nap", "A rom", "A ven"], "Russia": ["A mos", "F sev", "F stp/sc", "A war"],
            "Turkey": ["F ank", "A con", "A smy"]},
        "centres": {
            "Austria": ["bud", "tri", "vie"], "England": ["edi", "lon", "lvp"],
            "France": ["bre", "mar", "par"], "Germany": ["ber", "kie", "mun"],
            "Italy": ["nap", "rom", "ven"], "Russia": ["mos", "sev", "stp", "war"],
            "Turkey": ["ank", "con", "smy"]},
    }


if __name__ == "__main__":
    sys.exit(main())
