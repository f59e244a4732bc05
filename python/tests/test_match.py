"""Matches refereed in Python between engines, Python callables and random players."""
import pytest

import kibitz


def test_engine_beats_random_at_gomoku():
    game = kibitz.load_game("gomoku")
    result = kibitz.play_match(game, [game.engine(), "random"], games=4, movetime_ms=20)
    engine = result["players"][0]
    assert engine["wins"] == 4 and engine["losses"] == 0
    assert [g["seats"] for g in result["games"]] == [[0, 1], [1, 0], [0, 1], [1, 0]]
    assert result["score"] == 1.0 and result["elo"] > 400
    for g in result["games"]:
        replay = game.new_initial_state()
        for action in g["history"]:
            replay.apply_action(action)
        assert replay.is_terminal() and replay.returns() == g["returns"]


def test_callables_by_action_and_by_move_text():
    game = kibitz.load_game("go", size=9)
    first_action = lambda state: state.legal_actions()[0]  # noqa: E731
    last_move = lambda state: state.legal_moves()[-1]  # "pass" comes last  # noqa: E731
    result = kibitz.play_match(game, [first_action, last_move], games=2)
    for g in result["games"]:
        assert g["forfeit"] is None
    # Seat s plays the history's moves s, s + 2, ...: the player answering by text always
    # passes (action 81 on 9x9), the other takes the first legal point, a1, b1, c1, ...
    for g in result["games"]:
        passer = g["seats"].index(1)
        assert set(g["history"][passer::2]) == {81}
        assert g["history"][1 - passer::2][:10] == list(range(10))


def test_forfeits():
    game = kibitz.load_game("gomoku")

    def illegal(state):
        return 10**6

    def broken(state):
        raise RuntimeError("bug in the bot")

    r = kibitz.play_game(game, [illegal, "random"])
    assert r["forfeit"]["seat"] == 0 and "not a legal action" in r["forfeit"]["reason"]
    assert r["returns"] == [-1.0, 1.0]
    r = kibitz.play_game(game, ["random", broken])
    assert r["forfeit"]["seat"] == 1 and "RuntimeError: bug in the bot" in r["forfeit"]["reason"]
    r = kibitz.play_game(game, [lambda s: "z99", "random"])
    assert r["forfeit"]["seat"] == 0 and "z99" in r["forfeit"]["reason"]


def test_hearts_four_seats_with_chance_deals():
    game = kibitz.load_game("hearts")  # no seed: each game's deal is drawn as chance nodes
    players = ["random", lambda s: s.legal_actions()[0], "random", "random"]
    result = kibitz.play_match(game, players, games=4, seed=5)
    assert len(result["players"]) == 4 and "elo" not in result
    for g in result["games"]:
        assert len(g["history"]) == 52 + 64 and sum(g["returns"]) in (-26.0, -78.0)
    assert sum(p["total"] for p in result["players"]) in [-26.0 * k for k in range(4, 13)]


def test_bad_matches():
    game = kibitz.load_game("chess")
    with pytest.raises(kibitz.KibitzError, match="needs 2 players"):
        kibitz.play_match(game, ["random"])
    with pytest.raises(kibitz.KibitzError):
        kibitz.play_match(game, ["random", "random"], games=0)
