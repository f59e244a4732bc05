"""kibitz.cluster: a match whose game pairs run as Dask tasks gives the games and totals of
the single-machine runner, survives a worker killed mid-run, and says which worker lacks an
engine."""
import json
import os
import signal
import threading

import pytest

import kibitz
from kibitz import KibitzError

distributed = pytest.importorskip(
    "distributed", reason="Dask is not installed (python3-distributed; scripts/install-deps)")
import kibitz.cluster as kc  # noqa: E402

OPENINGS = os.path.join(os.environ.get("KIBITZ_SUITES", os.path.join(
    os.path.dirname(__file__), "..", "..", "..", "shared", "data")),
    "chess", "openings", "8moves_v3_first5000.pgn")


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=":0")
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


def settings():
    s = dict(games=16, depth=3, seed=11)
    if os.path.exists(OPENINGS):
        s.update(openings=OPENINGS, random_openings=True)
    return s


def games_by_number(report):
    return {g["number"]: (g["players"], g["result"], g["plies"], g["opening"])
            for g in report["games"]}


def test_the_same_games_and_totals_as_the_single_machine_runner(client, tmp_path):
    players = ["bot=kibitz", "bot=plain"]
    alone = kibitz.run_match("chess", players, concurrency=2, records=str(tmp_path / "a.pgn"),
                             **settings())
    spread = kc.run_match("chess", players, client=client, pairs_per_task=3,
                          records=str(tmp_path / "b.pgn"), **settings())
    assert games_by_number(spread) == games_by_number(alone)
    for key in ("games", "wins", "draws", "losses", "penta", "elo", "elo_lo", "elo_hi"):
        assert spread["pairings"][0][key] == alone["pairings"][0][key], key
    assert [p["moves"] for p in spread["players"]] == [p["moves"] for p in alone["players"]]
    assert spread["tasks"] == 3  # 8 pairs, 3 a task
    # Every game's record, once.
    a = (tmp_path / "a.pgn").read_text().count("[Event ")
    b = (tmp_path / "b.pgn").read_text().count("[Event ")
    assert a == b == 16


def test_a_worker_killed_mid_run_loses_no_game_and_counts_none_twice(client):
    pids = client.run(os.getpid)
    victim = sorted(pids.values())[0]
    killed = threading.Event()

    def status(report):
        # After the first task's result, kill a worker: the tasks it held run again elsewhere.
        if not killed.is_set():
            killed.set()
            os.kill(victim, signal.SIGKILL)

    s = dict(settings(), games=24, depth=4)
    report = kc.run_match("chess", ["bot=kibitz", "bot=plain"], client=client, status=status,
                          **s)
    assert killed.is_set()
    assert report["pairings"][0]["games"] == 24
    assert report["pairings"][0]["pairs"] == 12
    numbers = sorted(g["number"] for g in report["games"])
    assert numbers == list(range(1, 25))
    alone = kibitz.run_match("chess", ["bot=kibitz", "bot=plain"], concurrency=2, **s)
    assert games_by_number(report) == games_by_number(alone)


def test_sprt_stops_the_match_and_cancels_the_rest(client):
    report = kc.run_match("chess", ["bot=kibitz", "bot=random"], client=client, games=400,
                          depth=1, seed=2, sprt=(0, 200))
    p = report["pairings"][0]
    # The games of a task that crossed the bound are all counted, as `kibitz match` counts
    # the games in flight, so the final LLR may lie back inside the bounds.
    assert report["stop_reason"].startswith("SPRT: H1 accepted")
    assert p["games"] < 400
    assert p["sprt"]["llr"] > 0


def test_a_missing_engine_names_the_worker(client):
    with pytest.raises(KibitzError, match=r"on worker tcp://.*no-such-engine"):
        kc.run_match("chess", ["bot=kibitz", "cmd=/nonexistent/no-such-engine"], client=client,
                     games=2, depth=1)


def test_report_from_games_refuses_a_game_given_twice():
    players = ["bot=kibitz", "bot=random"]
    r = kibitz.run_match("chess", players, games=2, depth=1)
    s = kc._settings(games=2, depth=1)
    from kibitz._kibitz import _match_report
    again = json.loads(_match_report("chess", players, s, json.dumps(r["games"]))[0])
    assert again["pairings"][0]["games"] == 2
    with pytest.raises(KibitzError, match="given twice"):
        _match_report("chess", players, s, json.dumps(r["games"] + r["games"][:1]))
    with pytest.raises(KibitzError, match="not scheduled"):
        _match_report("chess", players, s, json.dumps([dict(r["games"][0], number=9)]))


def test_the_command_line(tmp_path, capsys):
    out = tmp_path / "r.json"
    assert kc.main(["match", "--engine", "bot=kibitz", "--engine", "bot=random", "--games", "4",
                    "--depth", "1", "--workers", "1", "--json", str(out), "--quiet"]) == 0
    assert "kibitz vs random" in capsys.readouterr().out
    assert json.loads(out.read_text())["pairings"][0]["games"] == 4
    assert kc.main(["match", "--engine", "bot=kibitz", "--engine", "bot=random",
                    "--sprt", "zero"]) == 2


def test_selfplay_writes_what_the_commands_one_after_another_write(client, tmp_path):
    """Task k is `kibitz selfplay --seed SEED+k`: the training file and the PGN are those of
    the three commands run in turn, whatever order the tasks finish in."""
    args = ["--nodes", "300", "--random-plies", "4"]
    out, pgn = tmp_path / "c.kbd", tmp_path / "c.pgn"
    r = kc.run_selfplay(args, games=7, games_per_task=3, seed=40, out=str(out), pgn=str(pgn),
                        client=client)
    assert r["tasks"] == 3 and r["bytes"] == out.stat().st_size
    from kibitz._kibitz import _selfplay
    expected, expected_pgn = tmp_path / "s.kbd", ""
    for seed, games in ((40, 3), (41, 3), (42, 1)):
        one = tmp_path / f"s{seed}.pgn"
        _selfplay(args + ["--games", str(games), "--seed", str(seed), "--out", str(expected),
                          "--pgn", str(one)])
        expected_pgn += one.read_text()
    assert out.read_bytes() == expected.read_bytes()
    assert pgn.read_text() == expected_pgn
    assert pgn.read_text().count("[Event ") == 7
    # A second run appends its records after the header already there.
    kc.run_selfplay(args, games=1, seed=99, out=str(out), client=client)
    assert out.read_bytes().startswith(expected.read_bytes())
    assert out.read_bytes().count(b"KBZTRAIN") == 1


def test_selfplay_of_another_game_and_its_errors(client, tmp_path):
    out = tmp_path / "g.txt"
    kc.run_selfplay(["--game", "gomoku", "--depth", "2", "--random-plies", "2"], games=2,
                    games_per_task=1, out=str(out), client=client)
    lines = out.read_text().splitlines()
    assert lines and all(" | " in line for line in lines)
    with pytest.raises(KibitzError, match="--nodes"):
        kc.run_selfplay(["--nodes", "many"], games=1, out=str(tmp_path / "x.kbd"), client=client)
    with pytest.raises(KibitzError, match="--start"):
        kc.run_selfplay(["--game", "go", "--start", "30"], games=1, out=str(tmp_path / "y.txt"),
                        client=client)
    with pytest.raises(KibitzError, match="keyword"):
        kc.run_selfplay(["--seed", "3"], games=1, out=str(tmp_path / "z.kbd"), client=client)


def test_a_gauntlet_counts_each_pairing_as_the_single_machine_runner(client):
    players = ["bot=kibitz", "bot=plain", "bot=random"]
    s = dict(games=4, depth=2, seed=5, gauntlet=True)
    alone = kibitz.run_match("chess", players, **s)
    spread = kc.run_match("chess", players, client=client, **s)
    assert games_by_number(spread) == games_by_number(alone)
    assert [(p["opponent"], p["wins"], p["draws"], p["losses"]) for p in spread["pairings"]] == \
        [(p["opponent"], p["wins"], p["draws"], p["losses"]) for p in alone["pairings"]]
    assert len(spread["games"]) == 8
