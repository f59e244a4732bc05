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
from ._kibitz import (  # noqa: F401
    Game,
    KibitzError,
    State,
    game_parameters,
    games,
    load_game,
    random_games,
)

__all__ = ["Game", "KibitzError", "State", "game_parameters", "games", "load_game", "random_games"]
