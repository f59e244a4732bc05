"""Diplomacy from Python: the adjudicator on cases whose answer the rules give (DATC's
basics), and the engine on a position text."""
import pytest

import kibitz


def test_initial_state():
    state = kibitz.diplomacy_initial_state()
    assert state["phase"] == "S1901M"
    assert sum(len(units) for units in state["units"].values()) == 22


def test_bounce_and_a_move():
    state = kibitz.diplomacy_initial_state()
    result = kibitz.adjudicate(state, ["France: A PAR - BUR", "Germany: A MUN - BUR",
                                       "England: F LON - NTH"])
    assert result["succeeded"] == [False, False, True]
    units = {power: [u.upper() for u in us] for power, us in result["next"]["units"].items()}
    assert "A PAR" in units["France"] and "A MUN" in units["Germany"]
    assert "F NTH" in units["England"] and "F LON" not in units["England"]
    assert result["next"]["phase"] == "F1901M"
    # The JSON text of a state is taken as well.
    import json

    again = kibitz.adjudicate(json.dumps(state), ["A PAR - BUR"])
    assert again["succeeded"] == [True]


def test_bad_orders_and_states():
    state = kibitz.diplomacy_initial_state()
    with pytest.raises(kibitz.KibitzError, match="order 'Germnay: A MUN H'"):
        kibitz.adjudicate(state, ["Germnay: A MUN H"])
    with pytest.raises(kibitz.KibitzError):
        kibitz.adjudicate({"phase": "S1901M", "units": {"France": ["F PAR"]}}, [])
    with pytest.raises(kibitz.KibitzError, match="no State"):
        kibitz.load_game("diplomacy").new_initial_state()


def test_engine_orders_for_a_power():
    game = kibitz.load_game("diplomacy")
    result = game.engine(seed=2, iterations=50).search("France", movetime_ms=2000)
    orders = [o.strip() for o in result["move"].split(",")]
    assert len(orders) == 3 and result["action"] is None
    outcome = kibitz.adjudicate(kibitz.diplomacy_initial_state(), ["France: " + o for o in orders])
    assert len(outcome["succeeded"]) == 3
