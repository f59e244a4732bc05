"""Issue 30's match figures (BENCHMARKS.md, "Scale out"): a kibitz.cluster match against the
single-machine runner on the same seed and openings, the same with a worker killed mid-run,
and games per minute with 1 and 2 workers.

    PYTHONPATH=build/release/python /usr/bin/python3 bench/cluster_match.py --games 400

Fixed depth, so both runners play the same games; nothing else should run on the machine.
"""
import argparse
import os
import signal
import threading
import time

import distributed

import kibitz
import kibitz.cluster as kc


def totals(report):
    p = report["pairings"][0]
    return (p["games"], p["wins"], p["draws"], p["losses"], tuple(p["penta"]))


def same_games(a, b):
    key = lambda r: {g["number"]: (g["result"], g["plies"]) for g in r["games"]}  # noqa: E731
    return key(a) == key(b)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--seed", type=int, default=30)
    ap.add_argument("--openings", default=os.path.join(
        os.environ.get("KIBITZ_SUITES", "../shared/data"), "chess", "openings",
        "8moves_v3_first5000.pgn"))
    a = ap.parse_args()
    players = ["bot=kibitz", "bot=plain"]
    s = dict(games=a.games, depth=a.depth, seed=a.seed, openings=a.openings,
             random_openings=True)
    print(f"{a.games} games, chess, kibitz vs plain at depth {a.depth}, seed {a.seed}, "
          f"{os.path.basename(a.openings)} shuffled")

    t = time.monotonic()
    alone = kibitz.run_match("chess", players, concurrency=2, **s)
    t_alone = time.monotonic() - t
    print(f"kibitz.run_match, 2 threads: {totals(alone)} in {t_alone:.1f} s, "
          f"{60 * a.games / t_alone:.0f} games/min")

    for workers in (1, 2):
        cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1,
                                           processes=True, dashboard_address=":0")
        client = distributed.Client(cluster)
        t = time.monotonic()
        r = kc.run_match("chess", players, client=client, **s)
        dt = time.monotonic() - t
        print(f"kibitz.cluster, {workers} worker(s): {totals(r)} in {dt:.1f} s, "
              f"{60 * a.games / dt:.0f} games/min, {r['tasks']} tasks, same games as "
              f"run_match: {same_games(r, alone)}")
        if workers == 2:
            # The coordination cost per game: the wall time beyond what the games took on the
            # workers, which each game's own seconds measure.
            busy = sum(g["seconds"] for g in r["games"])
            print(f"  games' own time {busy:.1f} s over 2 workers = {busy / 2:.1f} s; "
                  f"overhead {(dt - busy / 2) / a.games * 1000:.1f} ms a game")
            pids = client.run(os.getpid)
            victim = sorted(pids.values())[0]
            killed = []

            def status(report):
                if not killed and report["pairings"][0]["games"] >= a.games // 4:
                    killed.append(report["pairings"][0]["games"])
                    os.kill(victim, signal.SIGKILL)

            t = time.monotonic()
            r = kc.run_match("chess", players, client=client, status=status, **s)
            dt = time.monotonic() - t
            print(f"kibitz.cluster, 2 workers, one killed (SIGKILL, pid {victim}) after "
                  f"{killed[0]} games: {totals(r)} in {dt:.1f} s, games counted "
                  f"{len(r['games'])}, distinct numbers {len({g['number'] for g in r['games']})}"
                  f", same games as run_match: {same_games(r, alone)}")
        client.close()
        cluster.close()
    threading.Event().wait(0.1)


if __name__ == "__main__":
    main()
