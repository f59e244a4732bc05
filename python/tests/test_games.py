"""The Python module's games: every game through the API, against answers known independently
(the rules' own outcomes, the action numbering docs/python.md gives, the position texts the
program reads)."""
import copy
import random

import numpy as np
import pytest

import kibitz

GAMES = {
    "chess": {},
    "gomoku": {"rule": "freestyle"},
    "go": {"size": 9, "komi": 7.5},
    "hearts": {"seed": 5},
}


def test_games_listed():
    assert kibitz.games() == ["chess", "gomoku", "go", "hearts", "diplomacy"]
    assert set(kibitz.game_parameters("go")) == {"size", "komi"}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_random_game_from_python(name):
    """A game played by random actions chosen in Python ends; every step keeps the moves and
    the actions in step, and the final text reads back to the same state."""
    game = kibitz.load_game(name, **GAMES[name])
    rng = random.Random(1)
    state = game.new_initial_state()
    plies = 0
    while not state.is_terminal():
        actions = state.legal_actions()
        moves = state.legal_moves()
        assert len(actions) == len(moves) > 0
        i = rng.randrange(len(actions))
        assert state.action_to_string(actions[i]) == moves[i]
        assert state.string_to_action(moves[i]) == actions[i]
        assert 0 <= state.current_player() < game.num_players()
        state.apply_action(actions[i])
        plies += 1
        assert plies < 5000
    assert state.current_player() < 0
    assert len(state.returns()) == game.num_players()
    back = game.deserialize_state(state.serialize())
    assert back.hash() == state.hash() and back.returns() == state.returns()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_play_random_matches_a_replay(name):
    """play_random (in C++) is reproducible by seed, and replaying its moves one by one from
    Python reaches the same end and the same returns."""
    game = kibitz.load_game(name, **GAMES[name])
    a, b = game.new_initial_state(), game.new_initial_state()
    n = a.play_random(seed=11)
    assert n == b.play_random(seed=11) and a.serialize() == b.serialize()
    assert a.is_terminal()
    replay = game.new_initial_state()
    for action in a.history():
        replay.apply_action(action)
    assert replay.serialize() == a.serialize() and replay.history() == a.history()
    assert replay.is_terminal() and replay.returns() == a.returns()


def test_known_outcomes():
    chess = kibitz.load_game("chess").new_initial_state()
    for m in ["f2f3", "e7e5", "g2g4", "d8h4"]:  # fool's mate
        chess.apply_move(m)
    assert chess.is_terminal() and chess.returns() == [-1.0, 1.0]

    gomoku = kibitz.load_game("gomoku").new_initial_state()
    for m in "h8 a1 i8 a2 j8 a3 k8 a4 l8".split():  # black's five
        gomoku.apply_move(m)
    assert gomoku.is_terminal() and gomoku.returns() == [1.0, -1.0]

    go = kibitz.load_game("go", size=9, komi=7.5).new_initial_state()
    go.apply_move("pass")
    go.apply_move("pass")  # an empty board: white wins by komi
    assert go.is_terminal() and go.returns() == [-1.0, 1.0]

    hearts = kibitz.load_game("hearts", seed=2).new_initial_state()
    hearts.play_random(seed=4)
    # 26 points in a hand (13 hearts and the queen of spades), or 78 when one seat takes all.
    assert hearts.is_terminal() and sum(hearts.returns()) in (-26.0, -78.0)


def test_max_game_length():
    # The bounds docs/python.md derives from each game's rules.
    expected = [("chess", {}, 12826), ("gomoku", {}, 225), ("gomoku", {"rule": "renju"}, 225),
                ("gomoku", {"rule": "capture"}, 19 * 19 + 16), ("go", {"size": 9}, 243),
                ("go", {}, 1023), ("hearts", {}, 64), ("hearts", {"pass": "none"}, 52)]
    for name, params, bound in expected:
        assert kibitz.load_game(name, **params).max_game_length() == bound, (name, params)
    # Random games stay within them (Go's cap ends some 9x9 games).
    for name, params in [("go", {"size": 9}), ("gomoku", {"rule": "capture"}), ("hearts", {})]:
        game = kibitz.load_game(name, **params)
        longest = max(game.new_initial_state().play_random(seed) for seed in range(1, 40))
        assert 0 < longest <= game.max_game_length(), (name, longest)


def test_action_numbering():
    """docs/python.md: chess from + 64 to + 4096 promotion; gomoku and Go x + size y from a1,
    Go's pass last; Hearts 13 suit + rank (clubs, diamonds, spades, hearts; 2 .. A)."""
    chess = kibitz.load_game("chess").new_initial_state()
    assert chess.string_to_action("e2e4") == 12 + 64 * 28
    assert chess.action_to_string(4 * 4096 + 48 + 64 * 56) == "a7a8q"
    assert chess.action_to_string(1 * 4096 + 55 + 64 * 63) == "h7h8n"
    gomoku = kibitz.load_game("gomoku", size=19).new_initial_state()
    assert gomoku.string_to_action("a1") == 0 and gomoku.string_to_action("a2") == 19
    assert gomoku.action_to_string(18) == "s1"
    go = kibitz.load_game("go", size=9).new_initial_state()
    assert go.string_to_action("pass") == 81 and go.action_to_string(8) == "J1"
    assert go.num_distinct_actions() == 82 == go.game.num_distinct_actions()
    hearts = kibitz.load_game("hearts", seed=1).new_initial_state()
    assert hearts.action_to_string(0) == "2C" and hearts.action_to_string(51) == "AH"


def test_clone_is_independent():
    state = kibitz.load_game("gomoku").new_initial_state()
    state.apply_move("h8")
    twin = state.clone()
    twin.apply_move("i9")
    deep = copy.deepcopy(state)
    assert state.serialize() == "h8" and twin.serialize() == "h8 i9"
    assert deep.serialize() == "h8" and deep.hash() == state.hash()


def test_parameters_reach_the_game():
    renju = kibitz.load_game("gomoku", rule="renju", size=15)
    assert renju.parameters == {"rule": "renju", "size": 15}
    assert renju.new_initial_state().serialize().startswith("renju 15")
    assert kibitz.load_game("go", size=13).new_initial_state().serialize().startswith("13 ")
    fen = "8/8/8/8/8/8/5k2/7K w - - 0 1"
    assert kibitz.load_game("chess", fen=fen).new_initial_state().serialize() == fen


def test_bad_input_raises():
    with pytest.raises(kibitz.KibitzError, match="unknown game"):
        kibitz.load_game("checkers")
    with pytest.raises(kibitz.KibitzError, match="unknown parameter 'colour'"):
        kibitz.load_game("go", colour="black")
    with pytest.raises(kibitz.KibitzError):
        kibitz.load_game("go", size=42)
    with pytest.raises(kibitz.KibitzError):
        kibitz.load_game("chess", fen="not a fen")
    with pytest.raises(kibitz.KibitzError, match="simultaneous"):
        kibitz.load_game("diplomacy").new_initial_state()
    state = kibitz.load_game("chess").new_initial_state()
    with pytest.raises(kibitz.KibitzError, match="not legal"):
        state.apply_action(12 + 64 * 36)  # e2e5
    with pytest.raises(kibitz.KibitzError, match="outside"):
        state.apply_action(-1)
    with pytest.raises(kibitz.KibitzError, match="outside"):
        state.apply_action(10**12)
    with pytest.raises(OverflowError):
        state.apply_action(10**30)
    for wrong in ("e2e4", 3.0, True, None):
        with pytest.raises(TypeError):
            state.apply_action(wrong)
    with pytest.raises(TypeError):
        state.apply_action()
    with pytest.raises(TypeError):
        state.is_terminal(1)
    with pytest.raises(kibitz.KibitzError):
        state.apply_move("e2e5")
    with pytest.raises(kibitz.KibitzError):
        state.string_to_action("zz")
    assert isinstance(kibitz.KibitzError("x"), ValueError)
    # A failed move leaves the state as it was.
    assert state.serialize() == kibitz.load_game("chess").new_initial_state().serialize()
    # Anything with __index__ is an action (NumPy's integers).
    state.apply_action(np.int64(12 + 64 * 28))
    assert state.serialize().endswith("moves e2e4")
    over = kibitz.load_game("gomoku").new_initial_state()
    over.play_random(seed=1)
    with pytest.raises(kibitz.KibitzError, match="over"):
        over.apply_move("h8")


def test_random_games_release_the_gil(other_thread_ticks):
    """While random_games runs in one thread, another Python thread keeps running."""
    game = kibitz.load_game("go", size=19)
    result, ticks = other_thread_ticks(lambda: kibitz.random_games(game, 300, seed=1))
    assert result["games"] == 300 and result["plies"] > 300 * 100
    assert ticks > 0


def test_observation_tensors():
    """docs/python.md's layouts, checked on positions set up by hand."""
    import numpy as np

    gomoku = kibitz.load_game("gomoku").new_state("h8 i9")
    black, white = gomoku.observation_tensor(0), gomoku.observation_tensor(1)
    assert black.shape == (3, 15, 15) and black.dtype == np.float32
    assert black[0, 7, 7] == 1 and black[1, 8, 8] == 1 and black[0].sum() == black[1].sum() == 1
    assert black[2].sum() == 225 and white[2].sum() == 0  # black is to move
    assert (white[0] == black[1]).all() and (white[1] == black[0]).all()
    assert (gomoku.observation_tensor() == black).all()

    go = kibitz.load_game("go", size=9).new_state("9 komi 7.5 E5")
    t = go.observation_tensor(1)
    assert t.shape == (4, 9, 9) and t[1, 4, 4] == 1 and t[0].sum() == 0 and t[3].sum() == 81

    chess = kibitz.load_game("chess").new_initial_state()
    w, b = chess.observation_tensor(0), chess.observation_tensor(1)
    assert w.shape == (20, 8, 8)
    assert w[0, 1].sum() == 8 and w[0].sum() == 8  # white pawns on rank 2
    assert w[5, 0, 4] == 1 and w[11, 7, 4] == 1  # kings on e1, e8
    assert b[0, 6].sum() == 8 and b[5, 7, 4] == 1  # seen by black, its own pawns on rank 7
    assert w[12].sum() == 64 and b[12].sum() == 0
    assert w[13:17].sum() == 4 * 64 and w[17].sum() == 0 and w[19].sum() == 64
    chess.apply_move("e2e4")
    assert chess.observation_tensor(1)[17, 2, 4] == 1  # en passant on e3

    hearts = kibitz.load_game("hearts", seed=4).new_initial_state()
    h = hearts.observation_tensor(0)
    assert h.shape == (580,) and h[:52].sum() == 13 and h[52:580 - 8].sum() == 0
    assert h[580 - 8] == 1  # passing to the left
    hands = sum(hearts.observation_tensor(p)[:52] for p in range(4))
    assert (hands == 1).all()  # the four hands are the deck, each seat sees only its own
    with pytest.raises(kibitz.KibitzError):
        hearts.observation_tensor(4)


def test_information_state_strings():
    chess = kibitz.load_game("chess").new_initial_state()
    chess.apply_move("e2e4")
    assert chess.information_state_string(0) == chess.serialize()
    hearts = kibitz.load_game("hearts", seed=4).new_initial_state()
    views = {hearts.information_state_string(p) for p in range(4)}
    assert len(views) == 4 and all(v.startswith("view") for v in views)


def test_hearts_deal_as_chance_nodes():
    """Without a seed, a Hearts state starts by dealing: 52 chance nodes, each card once and
    each left card equally likely; card k goes to seat k % 4."""
    game = kibitz.load_game("hearts")
    state = game.new_initial_state()
    assert state.is_chance_node() and state.current_player() == -1
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 52 and abs(sum(p for _, p in outcomes) - 1) < 1e-12
    for k in range(52):
        assert len(state.legal_actions()) == 52 - k
        state.apply_action(51 - k)  # aces of hearts first: seat 0 gets AH, QH, 9H, ...
    assert not state.is_chance_node() and state.current_player() == 0
    assert state.history() == list(range(51, -1, -1))
    hand = state.observation_tensor(0)[:52]
    assert set(hand.nonzero()[0]) == set(range(51, -1, -4))
    with pytest.raises(kibitz.KibitzError):
        game.new_initial_state().apply_action(52)
    dealing = game.new_initial_state()
    dealing.apply_move("AH")
    with pytest.raises(kibitz.KibitzError, match="drawn already"):
        dealing.apply_move("AH")
    with pytest.raises(kibitz.KibitzError, match="chance node"):
        dealing.observation_tensor(0)
    assert dealing.play_random(seed=3) > 0 and dealing.is_terminal()
    assert sum(dealing.returns()) in (-26.0, -78.0)
    assert dealing.history()[0] == 51 and len(dealing.history()) == 52 + 64
