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


# kibitz.run_match: the C++ match runner with Python callables among its players.


def test_run_match_go_both_pass_white_wins_by_komi():
    # Two passes end the game on an empty board: area scoring gives White the komi alone,
    # so whoever plays White wins, and the colours swap within the pair.
    def passer(state):
        return "pass"

    def pass_action(state):
        return state.legal_actions()[-1]  # pass is the last action

    r = kibitz.run_match("go", [passer, pass_action], games=2, board_size=9, komi=6.5, nodes=1)
    assert [g["result"] for g in r["games"]] == ["W+6.5", "W+6.5"]
    p = r["pairings"][0]
    assert (p["wins"], p["draws"], p["losses"]) == (1, 0, 1)
    assert [pl["name"] for pl in r["players"]] == ["passer", "pass_action"]
    assert all(pl["moves"] == 2 for pl in r["players"])
    assert "passer vs pass_action" in r["text"]


def test_run_match_forfeits_name_the_cause():
    def raises(state):
        raise RuntimeError("out of ideas")

    def illegal(state):
        return "e2e5"

    r = kibitz.run_match("chess", [raises, "bot=random"], games=2, movetime_ms=5)
    assert r["pairings"][0]["losses"] == 2
    assert r["players"][0]["crashes"] == 2
    assert all("raised RuntimeError: out of ideas" in g["reason"] for g in r["games"])
    r = kibitz.run_match("chess", [("bad", illegal), "bot=random"], games=2, movetime_ms=5)
    assert r["pairings"][0]["losses"] == 2 and r["players"][0]["illegal_moves"] == 2
    assert all(g["termination"] == "rules infraction" for g in r["games"])


def test_run_match_is_reproducible_and_its_records_replay(tmp_path):
    def first(state):
        return state.legal_actions()[0]

    records = tmp_path / "games.sgf"
    runs = [kibitz.run_match("gomoku", [first, "bot=random"], games=4, seed=7, depth=1,
                             records=str(records)) for _ in range(2)]
    assert [(g["result"], g["plies"]) for g in runs[0]["games"]] == \
        [(g["result"], g["plies"]) for g in runs[1]["games"]]
    assert records.read_text().count("(;") == 8
    assert sum(g["plies"] for g in runs[0]["games"]) > 0


def test_run_match_sprt_stops_early():
    game = kibitz.load_game("gomoku")

    def random_stone(state, rng=__import__("random").Random(3)):
        return rng.choice(state.legal_actions())

    r = kibitz.run_match(game, ["bot=alphabeta", random_stone], games=400, depth=2,
                         sprt=(0, 100))
    assert r["pairings"][0]["sprt"]["decision"] == "H1 accepted"
    assert len(r["games"]) < 400 and r["pairings"][0]["losses"] == 0


def test_run_match_releases_the_gil(other_thread_ticks):
    r, ticks = other_thread_ticks(lambda: kibitz.run_match(
        "gomoku", ["bot=alphabeta", "bot=random"], games=2, movetime_ms=200))
    assert len(r["games"]) == 2 and ticks > 1000


@pytest.mark.parametrize("game,players,kw,message", [
    ("hearts", [lambda s: 0, "bot=random"], {}, "embedded player"),
    ("chess", ["bot=nosuch", "bot=random"], {"movetime_ms": 5}, "no chess bot 'nosuch'"),
    ("chess", ["bot=kibitz", "bot=random"], {}, "no limit for 'kibitz'"),
    ("chess", ["bot=kibitz", "bot=random"], {"tc": "x"}, "time control"),
    ("hearts", ["bot=rule", "bot=random"], {"komi": 5}, "hearts has no komi"),
    ("chess", ["bot=kibitz", 42], {}, "not a player"),
    ("chess", ["bot=kibitz", "bot=random"], {"sprt": (5, 0), "nodes": 10}, "elo0 < elo1"),
    ("nosuch", ["bot=a", "bot=b"], {}, "unknown game"),
])
def test_run_match_errors(game, players, kw, message):
    with pytest.raises(kibitz.KibitzError, match=message):
        kibitz.run_match(game, players, **kw)
