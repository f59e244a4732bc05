"""The engines from Python: each game's search on positions whose answer is known (a mate in
one, a five to complete), the options, and bad input."""
import pytest

import kibitz


def test_chess_finds_mate_in_one():
    game = kibitz.load_game("chess")
    state = game.new_state("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    result = game.engine().search(state, depth=4)
    assert result["move"] == "a1a8" and result["decided"]
    assert result["action"] == state.string_to_action("a1a8")
    state.apply_action(result["action"])
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


def test_gomoku_completes_its_five():
    game = kibitz.load_game("gomoku")
    state = game.new_state("h8 a1 i8 a2 j8 a3 k8 b5")  # black: four in a row, open
    result = game.engine().search(state, movetime_ms=200)
    assert result["move"] in ("g8", "l8")
    state.apply_move(result["move"])
    assert state.returns() == [1.0, -1.0]


@pytest.mark.parametrize(
    "name,params,limits",
    [
        ("go", {"size": 9}, {"nodes": 500}),
        ("hearts", {"seed": 3}, {"movetime_ms": 100}),
        ("chess", {}, {"nodes": 2000}),
    ],
)
def test_search_gives_a_legal_move(name, params, limits):
    game = kibitz.load_game(name, **params)
    state = game.new_initial_state()
    state.play_random(seed=2, max_plies=9)
    result = game.engine().search(state, **limits)
    assert result["move"] in state.legal_moves()
    assert result["action"] in state.legal_actions()


def test_options():
    engine = kibitz.load_game("go", size=9).engine(seed=3)
    names = [o["name"] for o in engine.options()]
    assert "seed" in names and "Threads" in names
    engine.set_option("resign", False)
    with pytest.raises(kibitz.KibitzError):
        engine.set_option("no_such_option", 1)
    with pytest.raises(kibitz.KibitzError):
        kibitz.load_game("chess").engine(Hash=-5)


def test_search_bad_input():
    chess = kibitz.load_game("chess")
    engine = chess.engine()
    with pytest.raises(kibitz.KibitzError, match="gomoku state"):
        engine.search(kibitz.load_game("gomoku").new_initial_state(), depth=1)
    over = chess.new_initial_state()
    for m in ["f2f3", "e7e5", "g2g4", "d8h4"]:
        over.apply_move(m)
    with pytest.raises(kibitz.KibitzError, match="over"):
        engine.search(over, depth=1)


def test_search_releases_the_gil(other_thread_ticks):
    """A search of 300 ms in one thread leaves the interpreter to another thread."""
    game = kibitz.load_game("gomoku")
    state = game.new_state("h8 i9 h9")
    result, ticks = other_thread_ticks(lambda: game.engine().search(state, movetime_ms=300))
    assert result["move"] in state.legal_moves() and ticks > 0


def test_generic_mcts_finds_immediate_wins():
    """The MCTS written once for every game, with random playouts: a move that ends the game
    at once in the mover's favour (a mate in one, a five) is found with a few thousand
    playouts."""
    chess = kibitz.load_game("chess").new_state("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    r = kibitz.mcts(chess, playouts=3000, seed=2)
    assert r["move"] == "a1a8" and r["action"] == chess.string_to_action("a1a8")
    assert r["playouts"] == 3000 and r["value"] > 0.9
    gomoku = kibitz.load_game("gomoku").new_state("h8 a1 i8 a2 j8 a3 k8 b5")
    r = kibitz.mcts(gomoku, playouts=3000, puct=False, c=0.7, seed=2)
    assert r["move"] in ("g8", "l8")
    assert sum(m["visits"] for m in r["moves"]) >= 2999


def test_generic_mcts_is_reproducible_and_checks_its_input():
    go = kibitz.load_game("go", size=9).new_initial_state()
    a = kibitz.mcts(go, playouts=500, seed=4)
    b = kibitz.mcts(go, playouts=500, seed=4)
    assert a["moves"] == b["moves"] and a["move"] in go.legal_moves()
    with pytest.raises(kibitz.KibitzError, match="not offered for hearts"):
        kibitz.mcts(kibitz.load_game("hearts", seed=1).new_initial_state())
    with pytest.raises(kibitz.KibitzError, match="playouts or movetime_ms"):
        kibitz.mcts(go, playouts=0)
