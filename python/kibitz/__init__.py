"""Kibitz's games from Python: chess, gomoku, Go and Hearts behind one interface.

    import kibitz
    game = kibitz.load_game("gomoku", rule="renju")
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(random.choice(state.legal_actions()))
    print(state.returns())

See docs/python.md for the games' parameters, the action numbering of each game and the
figures of speed.
"""
import json as _json

from ._kibitz import _diplomacy_adjudicate, _diplomacy_initial_state
from ._kibitz import (  # noqa: F401
    Engine,
    Game,
    KibitzError,
    State,
    game_parameters,
    games,
    load_game,
    mcts,
    random_games,
)
from .match import play_game, play_match, run_match  # noqa: F401

__all__ = ["adjudicate", "diplomacy_initial_state", "play_game", "play_match", "run_match", "Engine", "Game", "KibitzError", "State", "game_parameters", "games", "load_game", "mcts", "random_games"]


def diplomacy_initial_state():
    """Diplomacy's standard opening (spring 1901) as a state dict (docs/diplomacy.md's JSON)."""
    return _json.loads(_diplomacy_initial_state())


def adjudicate(state, orders):
    """One Diplomacy phase adjudicated: `state` a state dict (or its JSON text), `orders` order
    lines ("England: A LON - NTH", "F BRE - MAO"). Returns a dict: "lines", the report as
    `kibitz diplomacy adjudicate` prints it; "succeeded", one bool per order; "next", the
    state after the phase. A malformed order or state raises KibitzError."""
    text = state if isinstance(state, str) else _json.dumps(state)
    lines, succeeded, next_state = _diplomacy_adjudicate(text, list(orders))
    return {"lines": lines, "succeeded": succeeded, "next": _json.loads(next_state)}
