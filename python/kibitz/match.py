"""Matches between players written in Python and Kibitz's engines: run_match drives the C++
match runner (`kibitz match`: clocks, openings, SPRT, records, external engines); play_match
and play_game referee in Python, for any game and any number of players.

For play_match and play_game:
A player is one of:
  - a kibitz.Engine: it searches each position with the match's limits;
  - a callable f(state) returning an action (int) or a move in the game's notation (str);
  - "random": a uniformly random legal action (seeded by the match).

Seats rotate from game to game (two-player games alternate colours). A player whose answer is
not a legal move, or whose callable raises, loses that game by forfeit; the reason is kept
in the game's record. Chance nodes (Hearts without a seed) are drawn from the match's seed.
"""
import math
import random
import time

import json

from ._kibitz import Engine, KibitzError, _run_match


class Forfeit(Exception):
    """A player's answer that ends the game against it."""


def _move(player, state, rng, limits):
    """The action `player` chooses in `state`, and the seconds it took."""
    start = time.perf_counter()
    try:
        if isinstance(player, Engine):
            answer = player.search(state, **limits)["action"]
        elif player == "random":
            answer = rng.choice(state.legal_actions())
        elif callable(player):
            answer = player(state.clone())
        else:
            raise Forfeit(f"{player!r} is not a player (an Engine, a callable or 'random')")
    except KibitzError as e:
        raise Forfeit(f"its engine failed: {e}") from None
    except Forfeit:
        raise
    except Exception as e:  # a bot's own bug loses its game, not the match
        raise Forfeit(f"it raised {type(e).__name__}: {e}") from None
    spent = time.perf_counter() - start
    if isinstance(answer, str):
        try:
            answer = state.string_to_action(answer)
        except KibitzError as e:
            raise Forfeit(f"answered '{answer}': {e}") from None
    if not isinstance(answer, int) or isinstance(answer, bool) or answer not in state.legal_actions():
        raise Forfeit(f"answered {answer!r}, not a legal action")
    return answer, spent


def play_game(game, players, seed=1, limits=None, start=None, max_plies=100000):
    """One game: players[i] plays seat i. Returns a dict with the returns, the record
    (the actions played), the number of plies, each seat's thinking time and, where the game
    ended by forfeit, the seat that forfeited and why."""
    limits = limits or {}
    rng = random.Random(seed)
    state = game.new_state(start) if start is not None else game.new_initial_state()
    seconds = [0.0] * len(players)
    plies = 0
    forfeit = None
    while not state.is_terminal() and plies < max_plies:
        if state.is_chance_node():
            actions, weights = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, weights)[0])
            continue
        seat = state.current_player()
        try:
            action, spent = _move(players[seat], state, rng, limits)
        except Forfeit as e:
            forfeit = {"seat": seat, "reason": str(e)}
            break
        seconds[seat] += spent
        state.apply_action(action)
        plies += 1
    if forfeit is not None:
        n = len(players)
        returns = [1.0 if s != forfeit["seat"] else -1.0 for s in range(n)]
    elif state.is_terminal():
        returns = state.returns()
    else:
        returns = [0.0] * len(players)  # the ply cap: scored as a draw
    return {"returns": returns, "history": state.history(), "plies": plies,
            "seconds": seconds, "forfeit": forfeit}


def _elo(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def play_match(game, players, games=2, seed=1, movetime_ms=0, nodes=0, depth=0, start=None,
               max_plies=100000):
    """`games` games between `players` (one per seat of the game), the seats rotating each
    game. Engines search with the given limits. Returns a dict: "games" (play_game's result
    for each, with "seats": which player sat where) and "players": per player its total
    return, its mean, wins, draws and losses (a win: the best return of the game, alone) and,
    for two players, the first player's score with its 95% interval and the Elo those give."""
    n = game.num_players()
    if len(players) != n:
        raise KibitzError(f"{game.name} needs {n} players, not {len(players)}")
    if games < 1:
        raise KibitzError("games must be 1 or more")
    limits = {"movetime_ms": movetime_ms, "nodes": nodes, "depth": depth}
    results = []
    totals = [0.0] * n
    wins, draws, losses = [0] * n, [0] * n, [0] * n
    for g in range(games):
        seats = [(g + s) % n for s in range(n)]  # seats[s]: the player at seat s
        for p in set(seats):
            if isinstance(players[p], Engine):
                players[p].new_game()
        r = play_game(game, [players[p] for p in seats], seed=seed + g, limits=limits,
                      start=start, max_plies=max_plies)
        r["seats"] = seats
        results.append(r)
        best = max(r["returns"])
        top = [s for s in range(n) if r["returns"][s] == best]
        for s, p in enumerate(seats):
            totals[p] += r["returns"][s]
            if len(top) == n:
                draws[p] += 1
            elif s in top and len(top) == 1:
                wins[p] += 1
            elif s in top:
                draws[p] += 1
            else:
                losses[p] += 1
    summary = [{"total": totals[p], "mean": totals[p] / games, "wins": wins[p],
                "draws": draws[p], "losses": losses[p]} for p in range(n)]
    out = {"games": results, "players": summary}
    if n == 2:
        w, d, l = wins[0], draws[0], losses[0]
        score = (w + d / 2) / games
        var = (w * (1 - score) ** 2 + d * (0.5 - score) ** 2 + l * score ** 2) / games
        half = 1.96 * math.sqrt(var / games)
        out["score"] = score
        out["score_interval"] = (max(0.0, score - half), min(1.0, score + half))
        out["elo"] = _elo(score)
        out["elo_interval"] = (_elo(max(0.0, score - half)), _elo(min(1.0, score + half)))
    return out


def _run_match_player(p):
    """A player of run_match as the C++ side takes it: a spec string, or (name, callable)."""
    if isinstance(p, str):
        return p
    if isinstance(p, Engine):
        raise KibitzError("run_match: give an engine as a spec string ('bot=kibitz "
                          "option.Hash=64'); a kibitz.Engine plays in play_match")
    if isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], str) and callable(p[1]):
        return p
    if callable(p):
        name = getattr(p, "__name__", "") or type(p).__name__
        return ("python" if name == "<lambda>" else name, p)
    raise KibitzError(f"run_match: {p!r} is not a player (a spec string, a callable or "
                      "(name, callable))")


def _settings(*, games=2, tc=None, movetime_ms=0, nodes=0, depth=0, openings=None,
              openings_format="auto", plies=0, random_openings=False, seed=1, concurrency=1,
              gauntlet=False, sprt=None, alpha=0.05, beta=0.05, records=None, board_size=0,
              rule="", komi=None, max_year=0, max_moves=0, resign_moves=0, resign_score=1000,
              draw_moves=0, draw_score=10, draw_after=40, grace_ms=0, move_timeout_ms=60000,
              start_timeout_ms=10000, event="kibitz.run_match", verbose=False, progress=False,
              report_every=0):
    """run_match's keywords as the dict the C++ side reads (kibitz.cluster sends it on)."""
    if sprt is not None:
        sprt = (float(sprt[0]), float(sprt[1]))
    return {
        "games": int(games), "tc": tc, "movetime_ms": int(movetime_ms), "nodes": int(nodes),
        "depth": int(depth), "openings": None if openings is None else str(openings),
        "openings_format": str(openings_format), "plies": int(plies),
        "random_openings": bool(random_openings), "seed": int(seed),
        "concurrency": int(concurrency), "gauntlet": bool(gauntlet), "sprt": sprt,
        "alpha": float(alpha), "beta": float(beta),
        "records": None if records is None else str(records), "board_size": int(board_size),
        "rule": str(rule), "komi": None if komi is None else float(komi),
        "max_year": int(max_year), "max_moves": int(max_moves),
        "resign_moves": int(resign_moves), "resign_score": int(resign_score),
        "draw_moves": int(draw_moves), "draw_score": int(draw_score),
        "draw_after": int(draw_after), "grace_ms": int(grace_ms),
        "move_timeout_ms": int(move_timeout_ms), "start_timeout_ms": int(start_timeout_ms),
        "event": str(event), "verbose": bool(verbose), "progress": bool(progress),
        "report_every": int(report_every),
    }


def run_match(game, players, *, games=2, tc=None, movetime_ms=0, nodes=0, depth=0,
              openings=None, openings_format="auto", plies=0, random_openings=False, seed=1,
              concurrency=1, gauntlet=False, sprt=None, alpha=0.05, beta=0.05, records=None,
              board_size=0, rule="", komi=None, max_year=0, max_moves=0, resign_moves=0,
              resign_score=1000, draw_moves=0, draw_score=10, draw_after=40, grace_ms=0,
              move_timeout_ms=60000, start_timeout_ms=10000, event="kibitz.run_match",
              verbose=False, progress=False, report_every=0):
    """A match run by Kibitz's C++ match runner, as `kibitz match` runs it (docs/match.md):
    pairs of games from one opening with the colours swapped, clocks and fixed limits,
    adjudication, W/D/L with Elo and its 95% interval, SPRT, records appended to a file,
    `concurrency` games at once, the GIL released while it plays.

    `game` is a game's name ("chess", "gomoku", "go", "hearts", "diplomacy"); the keywords
    are `kibitz match`'s options (tc="10+0.1", movetime_ms, nodes, depth, openings=FILE,
    sprt=(elo0, elo1), records=FILE, board_size, rule, komi, ...). A player is
      - a spec string, as `kibitz match --engine` takes it: "bot=kibitz option.Hash=64",
        "name=sf cmd=stockfish option.Threads=1 tc=10+0.1";
      - a Python callable f(state) -> action (int) or move (str) (chess, gomoku and Go): it
        gets a kibitz.State of the game so far, named by its __name__ or given as
        (name, f). An answer that is not a legal move loses the game as an illegal move;
        one that raises loses it as a crash, with the exception in the game's reason.

    Returns the report (`kibitz match --json`'s) as a dict: "pairings" (wins, draws,
    losses, score, elo with elo_lo / elo_hi, pentanomial pairs, sprt), "players" (moves,
    time losses, illegal moves, crashes), "games" (each one's result, termination and
    reason), "interrupted" (Ctrl-C stops the match; the games finished are reported), and
    "text", the report as `kibitz match` prints it. Errors (a bad spec, an engine that does
    not start, an unreadable opening file) raise KibitzError."""
    settings = _settings(
        games=games, tc=tc, movetime_ms=movetime_ms, nodes=nodes, depth=depth,
        openings=openings, openings_format=openings_format, plies=plies,
        random_openings=random_openings, seed=seed, concurrency=concurrency, gauntlet=gauntlet,
        sprt=sprt, alpha=alpha, beta=beta, records=records, board_size=board_size, rule=rule,
        komi=komi, max_year=max_year, max_moves=max_moves, resign_moves=resign_moves,
        resign_score=resign_score, draw_moves=draw_moves, draw_score=draw_score,
        draw_after=draw_after, grace_ms=grace_ms, move_timeout_ms=move_timeout_ms,
        start_timeout_ms=start_timeout_ms, event=event, verbose=verbose, progress=progress,
        report_every=report_every)
    name = game if isinstance(game, str) else game.name
    report_json, text = _run_match(name, [_run_match_player(p) for p in players], settings)
    report = json.loads(report_json)
    report["text"] = text
    return report


__all__ = ["Forfeit", "play_game", "play_match", "run_match"]
