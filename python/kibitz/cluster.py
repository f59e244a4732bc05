"""Matches spread over a Dask cluster: the games of `kibitz match` split into shards of game
pairs, each shard a Dask task that runs Kibitz's C++ match runner on a worker, the results
counted by the same C++ code as a single-machine match (so the same seed and openings give the
same games, and at fixed depth or nodes the same totals). docs/scale.md has the details.

    python -m kibitz.cluster match --game chess --engine "bot=kibitz" --engine "bot=plain" \\
        --depth 4 --games 400 --workers 2
    python -m kibitz.cluster match ... --scheduler tcp://10.0.0.5:8786
    python -m kibitz.cluster selfplay --games 100000 --games-per-task 500 --seed 1000 \
        --nodes 5000 --openings ../shared/data/chess/openings/2moves_v1.epd --out train.kbd

From Python: kibitz.cluster.run_match(game, players, workers=2, **run_match's settings) and
kibitz.cluster.run_selfplay(args, games=..., games_per_task=..., seed=..., out=...).

A worker that dies mid-shard loses nothing: the scheduler runs the shard again elsewhere, and
a shard's games are counted once, when its result arrives. External engines (cmd=...) must
exist on every worker; each worker starts every player once before any game is sent, and a
player that does not start there stops the match with the worker's name and the engine's
error.
"""
import argparse
import contextlib
import json
import os
import sys
import tempfile
import time

from ._kibitz import KibitzError, _MatchCount, _run_match, _selfplay
from .match import _run_match_player, _settings

try:  # Dask is optional: only this module needs it
    import distributed
except ImportError:  # pragma: no cover - reported when a match is asked for
    distributed = None


def _need_dask():
    if distributed is None:
        raise KibitzError("kibitz.cluster needs Dask (Debian: python3-dask python3-distributed; "
                          "scripts/install-deps installs them)")


@contextlib.contextmanager
def _dask_client(client, scheduler, workers):
    """`client` as given; else one on `scheduler`, or on a new LocalCluster of `workers`
    single-threaded processes, closed (with its cluster) on the way out."""
    if client is not None:
        yield client
        return
    cluster = None
    if scheduler:
        own = distributed.Client(scheduler)
    else:
        cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1,
                                           processes=True, dashboard_address=":0")
        own = distributed.Client(cluster)
    try:
        yield own
    finally:
        own.close()
        if cluster is not None:
            cluster.close()


def _play_shard(game, players, settings, begin, end):
    """On a worker: the pairs [begin, end) of the match, with their records. Returns
    (begin, the games' report entries, the records text)."""
    shard = dict(settings, pair_begin=begin, pair_end=end, concurrency=1, progress=False,
                 report_every=0, sprt=None)
    records_text = ""
    with tempfile.TemporaryDirectory(prefix="kibitz-shard-") as tmp:
        path = os.path.join(tmp, "records")
        if settings.get("records"):
            shard["records"] = path
        report_json, _ = _run_match(game, [_run_match_player(p) for p in players], shard)
        if settings.get("records") and os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                records_text = f.read()
    return begin, json.loads(report_json)["games"], records_text


def _check_worker(game, players, settings):
    """On a worker: starts every player once (no game); the error text, or None."""
    try:
        _run_match(game, [_run_match_player(p) for p in players],
                   dict(settings, pair_begin=0, pair_end=0, records=None, progress=False))
    except KibitzError as e:
        return str(e)
    return None


def _report(count, seconds):
    report_json, text = count.report(seconds)
    report = json.loads(report_json)
    report["text"] = text
    return report


def run_match(game, players, *, workers=2, scheduler=None, pairs_per_task=1, client=None,
              status=None, **settings):
    """A match as kibitz.run_match plays it (the same players and keywords), its game pairs
    run as Dask tasks: on a LocalCluster of `workers` single-threaded processes, on the
    cluster whose scheduler is at `scheduler` ("tcp://host:8786"), or through `client`, a
    distributed.Client of your own. Each task plays `pairs_per_task` consecutive pairs.
    `status`, if given, is called with the report so far after each task. An SPRT decision
    cancels the tasks not yet finished. Returns the report dict of kibitz.run_match, with
    "tasks" (how many ran) and "workers" (the cluster's worker count)."""
    _need_dask()
    name = game if isinstance(game, str) else game.name
    settings = _settings(**settings)
    if pairs_per_task < 1:
        raise KibitzError("pairs_per_task must be at least 1")
    if len(players) < 2:
        raise KibitzError("a match needs at least two players")
    if len(players) > 2 and not settings["gauntlet"]:
        raise KibitzError(f"{len(players)} players: more than two need gauntlet (player 1 "
                          "against each other one)")
    if settings["sprt"] is not None and settings["gauntlet"]:
        raise KibitzError("sprt needs a match of two players")
    pairs = (settings["games"] + 1) // 2
    # The settings check themselves here first (a bad option fails before any worker runs).
    count = _MatchCount(name, [_run_match_player(p) for p in players], settings)

    with _dask_client(client, scheduler, workers) as client:
        worker_errors = client.run(_check_worker, name, players, settings)
        bad = {w: e for w, e in worker_errors.items() if e}
        if bad:
            w, e = sorted(bad.items())[0]
            raise KibitzError(f"on worker {w}: {e}" +
                              (f" (and {len(bad) - 1} more workers)" if len(bad) > 1 else ""))
        start = time.monotonic()
        futures = [client.submit(_play_shard, name, players, settings, b,
                                 min(pairs, b + pairs_per_task), pure=False)
                   for b in range(0, pairs, pairs_per_task)]
        done = set()
        records = None
        if settings["records"]:
            records = open(settings["records"], "a", encoding="utf-8")
        try:
            for future in distributed.as_completed(futures):
                begin, shard_games, text = future.result()
                if begin in done:  # never counted twice, whatever the scheduler does
                    continue
                done.add(begin)
                count.add(json.dumps(shard_games))
                if records is not None and text:
                    records.write(text)
                    records.flush()
                if status is not None:  # the whole report only when someone reads it
                    status(_report(count, time.monotonic() - start))
                if count.stop_reason().startswith("SPRT"):
                    for f in futures:
                        f.cancel()
                    break
        finally:
            if records is not None:
                records.close()
        report = _report(count, time.monotonic() - start)
        report["tasks"] = len(done)
        report["workers"] = len(client.scheduler_info()["workers"])
        return report


_KBD_HEADER = 16  # "KBZTRAIN", version, record size (training_data.hpp)


def _selfplay_task(args, games, seed, out_name, pgn):
    """On a worker: `kibitz selfplay ARGS --games G --seed S` into temporary files; returns
    (seed, the positions file's bytes, the PGN text)."""
    with tempfile.TemporaryDirectory(prefix="kibitz-selfplay-") as tmp:
        out = os.path.join(tmp, out_name)  # the same name: .kbd picks the binary format
        words = list(args) + ["--games", str(games), "--seed", str(seed), "--out", out]
        if pgn:
            words += ["--pgn", os.path.join(tmp, "games.pgn")]
        _selfplay(words)
        with open(out, "rb") as f:
            data = f.read()
        text = ""
        if pgn:
            with open(os.path.join(tmp, "games.pgn"), encoding="utf-8") as f:
                text = f.read()
    return seed, data, text


def _append_positions(path, data, binary):
    """Appends one task's file to `path`: a training file's header is written once, and an
    existing file must carry the same header."""
    if binary and os.path.exists(path) and os.path.getsize(path) > 0:
        with open(path, "rb") as f:
            head = f.read(_KBD_HEADER)
        if head != data[:_KBD_HEADER]:
            raise KibitzError(f"{path}: not a training file of this format (its header differs)")
        data = data[_KBD_HEADER:]
    with open(path, "ab") as f:
        f.write(data)
    return len(data)


def run_selfplay(args, *, games, out, seed=1, games_per_task=100, pgn=None, workers=2,
                 scheduler=None, client=None, status=None):
    """`kibitz selfplay` spread over a Dask cluster: task k plays
    `kibitz selfplay ARGS --games G --seed SEED+k` (G = games_per_task, the last task the
    rest), and the tasks' files are appended to `out` (and their games to `pgn`) in task order,
    so the result is the file those commands run one after another would write. `args` are
    the command's other words (["--nodes", "5000", "--openings", FILE], ["--game", "go",
    ...]); files they name must exist on the workers. A training file (.kbd) gets its header
    once; an existing one is appended to. Returns {"games", "tasks", "bytes", "seconds"}."""
    _need_dask()
    if games < 1 or games_per_task < 1:
        raise KibitzError("games and games_per_task must be at least 1")
    for w in ("--games", "-n", "--seed", "--out", "-o", "--pgn"):
        if w in args:
            raise KibitzError(f"run_selfplay: give {w} as a keyword, not in args")
    out_name = os.path.basename(out) or "positions"
    fmt = "auto"
    if "--format" in args and args.index("--format") + 1 < len(args):
        fmt = args[args.index("--format") + 1]
    binary = fmt == "binary" or (fmt == "auto" and out.endswith(".kbd"))
    with _dask_client(client, scheduler, workers) as client:
        start = time.monotonic()
        sizes = [min(games_per_task, games - b) for b in range(0, games, games_per_task)]
        futures = [client.submit(_selfplay_task, list(args), n, seed + k, out_name, bool(pgn),
                                 pure=False) for k, n in enumerate(sizes)]
        pending, next_seed, written, done = {}, seed, 0, 0
        for future in distributed.as_completed(futures):
            task_seed, data, text = future.result()
            pending[task_seed] = (data, text)
            # In task order: hold a task's file until those before it are written.
            while next_seed in pending:
                data, text = pending.pop(next_seed)
                written += _append_positions(out, data, binary)
                if pgn and text:
                    with open(pgn, "a", encoding="utf-8") as f:
                        f.write(text)
                done += 1
                next_seed += 1
                if status is not None:
                    status({"tasks": done, "of": len(sizes),
                            "games": sum(sizes[:done]), "bytes": written})
        return {"games": games, "tasks": len(sizes), "bytes": written,
                "seconds": round(time.monotonic() - start, 3)}


def _parser():
    p = argparse.ArgumentParser(prog="python -m kibitz.cluster",
                                description="Kibitz matches on a Dask cluster (docs/scale.md)")
    sub = p.add_subparsers(dest="command", required=True)
    m = sub.add_parser("match", help="a match whose game pairs run as Dask tasks "
                       "(the options of `kibitz match`)")
    m.add_argument("--game", default="chess")
    m.add_argument("-e", "--engine", action="append", required=True,
                   help="a player, as `kibitz match --engine` takes it (at least two)")
    m.add_argument("-n", "--games", type=int, default=2)
    m.add_argument("--tc")
    m.add_argument("--movetime", type=int, default=0)
    m.add_argument("--nodes", type=int, default=0)
    m.add_argument("--depth", type=int, default=0)
    m.add_argument("--openings")
    m.add_argument("--openings-format", default="auto")
    m.add_argument("--plies", type=int, default=0)
    m.add_argument("--random-openings", action="store_true")
    m.add_argument("--seed", type=int, default=1)
    m.add_argument("--board-size", type=int, default=0)
    m.add_argument("--rule", default="")
    m.add_argument("--komi", type=float)
    m.add_argument("--max-year", type=int, default=0)
    m.add_argument("--resign-moves", type=int, default=0)
    m.add_argument("--resign-score", type=int, default=1000)
    m.add_argument("--draw-moves", type=int, default=0)
    m.add_argument("--draw-score", type=int, default=10)
    m.add_argument("--draw-after", type=int, default=40)
    m.add_argument("--max-moves", type=int, default=0)
    m.add_argument("--grace", type=int, default=0)
    m.add_argument("--move-timeout", type=int, default=60000)
    m.add_argument("--start-timeout", type=int, default=10000)
    m.add_argument("--sprt", help="ELO0,ELO1")
    m.add_argument("--alpha", type=float, default=0.05)
    m.add_argument("--beta", type=float, default=0.05)
    m.add_argument("--pgn", "--records", dest="records")
    m.add_argument("--json", help="write the report as JSON to this file")
    m.add_argument("--event", default="kibitz.cluster")
    m.add_argument("--gauntlet", action="store_true",
                   help="the first player against each other one")
    m.add_argument("--workers", type=int, default=2,
                   help="LocalCluster worker processes (without --scheduler)")
    m.add_argument("--scheduler", help="a running Dask scheduler, tcp://host:8786")
    m.add_argument("--pairs-per-task", type=int, default=1)
    m.add_argument("--quiet", action="store_true", help="no status line per finished task")
    sp = sub.add_parser("selfplay", help="`kibitz selfplay` in tasks of games, each its own "
                        "seed; any other option is passed to every task")
    sp.add_argument("-n", "--games", type=int, required=True)
    sp.add_argument("--games-per-task", type=int, default=100)
    sp.add_argument("--seed", type=int, default=1, help="task k plays seed SEED+k")
    sp.add_argument("-o", "--out", required=True)
    sp.add_argument("--pgn")
    sp.add_argument("--workers", type=int, default=2)
    sp.add_argument("--scheduler")
    sp.add_argument("--quiet", action="store_true")
    return p


def _selfplay_main(a, rest):
    def status(s):
        if not a.quiet:
            print(f"[{s['tasks']}/{s['of']}] {s['games']} games, {s['bytes']} bytes written",
                  file=sys.stderr, flush=True)

    try:
        r = run_selfplay(rest, games=a.games, out=a.out, seed=a.seed,
                         games_per_task=a.games_per_task, pgn=a.pgn, workers=a.workers,
                         scheduler=a.scheduler, status=status)
    except (KibitzError, OSError) as e:
        print(f"kibitz.cluster: error: {e}", file=sys.stderr)
        return 1
    print(f"{r['games']} games in {r['tasks']} tasks, {r['bytes']} bytes appended to {a.out} "
          f"in {r['seconds']:.1f} s")
    return 0


def main(argv=None):
    p = _parser()
    a, rest = p.parse_known_args(argv)
    if a.command == "selfplay":
        return _selfplay_main(a, rest)
    if rest:
        p.error(f"unrecognized arguments: {' '.join(rest)}")
    sprt = None
    if a.sprt:
        try:
            elo0, elo1 = (float(x) for x in a.sprt.split(","))
        except ValueError:
            print(f"kibitz.cluster: error: --sprt: expected ELO0,ELO1, got '{a.sprt}'",
                  file=sys.stderr)
            return 2
        sprt = (elo0, elo1)

    def status(r):
        done = sum(p["games"] + p["unfinished"] for p in r["pairings"])
        line = "  ".join(f"{p['player']} vs {p['opponent']}: +{p['wins']} ={p['draws']} "
                         f"-{p['losses']}" for p in r["pairings"])
        print(f"[{done}/{r['scheduled']}] {line}", file=sys.stderr, flush=True)

    try:
        report = run_match(
            a.game, a.engine, workers=a.workers, scheduler=a.scheduler,
            pairs_per_task=a.pairs_per_task, status=None if a.quiet else status,
            games=a.games, tc=a.tc,
            movetime_ms=a.movetime, nodes=a.nodes, depth=a.depth, openings=a.openings,
            openings_format=a.openings_format, plies=a.plies,
            random_openings=a.random_openings, seed=a.seed, sprt=sprt, alpha=a.alpha,
            beta=a.beta, records=a.records, board_size=a.board_size, rule=a.rule,
            komi=a.komi, max_year=a.max_year, max_moves=a.max_moves,
            resign_moves=a.resign_moves, resign_score=a.resign_score,
            draw_moves=a.draw_moves, draw_score=a.draw_score, draw_after=a.draw_after,
            grace_ms=a.grace, move_timeout_ms=a.move_timeout,
            start_timeout_ms=a.start_timeout, event=a.event, gauntlet=a.gauntlet)
    except (KibitzError, OSError) as e:
        print(f"kibitz.cluster: error: {e}", file=sys.stderr)
        return 1
    print(report["text"], end="")
    if a.json:
        text = dict(report)
        del text["text"]
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump(text, f, indent=2)
    return 0


if __name__ == "__main__":
    # Run as kibitz.cluster, not __main__: Dask sends the task functions to the workers by
    # name, and a worker imports them from the installed module.
    from kibitz.cluster import main as _main

    sys.exit(_main())
