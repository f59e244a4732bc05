#!/usr/bin/env python3
"""Load test of `kibitz serve` (BENCHMARKS.md, issue 27): N clients on loopback for a while,
each playing its own game (chess, gomoku and Go 9x9 in turn): a random legal move, then the
engine's reply with a fixed time, polled through the events as the page does, until the game
ends and a new one starts. The server runs as `kibitz serve` does by default: as many engines
at once as the machine has cores, the other thinks waiting their turn. Counts every answer
that is not the expected status; for each engine answer, its own time against its budget and
how long it waited for an engine.

  bench/serve_load.py build/release/kibitz [--clients 100] [--seconds 60] [--movetime 200]
"""
import argparse
import http.client
import json
import random
import statistics
import subprocess
import threading
import time

GAMES = [("chess", {}), ("gomoku", {}), ("go", {"size": 9})]


class Client:
    def __init__(self, port):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def call(self, method, path, body=None):
        data = json.dumps(body) if body is not None else None
        headers = {"Content-Type": "application/json"} if data else {}
        start = time.perf_counter()
        self.conn.request(method, path, body=data, headers=headers)
        res = self.conn.getresponse()
        text = res.read()
        return res.status, (json.loads(text) if text else None), time.perf_counter() - start


def run_client(n, port, stop_at, movetime, stats, lock):
    rng = random.Random(n)
    c = Client(port)
    local = {"requests": 0, "errors": [], "latency": [], "late_ms": [], "waited_ms": [],
             "total_ms": [], "thinks": 0, "moves": 0, "games": 0}

    def expect(status, want, what, body):
        local["requests"] += 1
        if status != want:
            local["errors"].append(f"{what}: {status} {body}")
            return False
        return True

    try:
        game, params = GAMES[n % len(GAMES)]
        view = None
        while time.time() < stop_at:
            if view is None or view["terminal"]:
                if view is not None:
                    s, b, t = c.call("DELETE", f"/api/sessions/{view['id']}")
                    expect(s, 204, "delete", b)
                s, view, t = c.call("POST", "/api/sessions", {"game": game, "params": params})
                local["latency"].append(t)
                if not expect(s, 201, "create", view):
                    return
                local["games"] += 1
                continue
            sid = view["id"]
            s, view, t = c.call("POST", f"/api/sessions/{sid}/move",
                                {"move": rng.choice(view["legal"])})
            local["latency"].append(t)
            if not expect(s, 200, "move", view):
                return
            local["moves"] += 1
            if view["terminal"]:
                continue
            begun = time.perf_counter()
            s, view, t = c.call("POST", f"/api/sessions/{sid}/think", {"movetime_ms": movetime})
            local["latency"].append(t)
            if not expect(s, 202, "think", view):
                return
            local["thinks"] += 1
            after = view["events"]
            answer = None
            while view["thinking"] or answer is None:
                s, data, t = c.call("GET", f"/api/sessions/{sid}/events?after={after}")
                if not expect(s, 200, "events", data):
                    return
                for e in data["events"]:
                    after = max(after, e["seq"])
                    if e["type"] == "think":
                        local["waited_ms"].append(e["waited_ms"])
                    if e["type"] == "answer":
                        answer = e
                view = data["view"]
            if "error" in answer or not answer.get("played"):
                local["errors"].append(f"answer: {answer}")
                return
            local["late_ms"].append(answer["time_ms"] - movetime)
            local["total_ms"].append((time.perf_counter() - begun) * 1000)
    except Exception as e:  # a refused connection, a timeout: an error of the server's
        local["errors"].append(f"{type(e).__name__}: {e}")
    finally:
        with lock:
            for k, v in local.items():
                stats[k] = stats.get(k, 0 if not isinstance(v, list) else []) + v


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kibitz")
    ap.add_argument("--clients", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--movetime", type=int, default=200)
    args = ap.parse_args()
    server = subprocess.Popen([args.kibitz, "serve", "--port", "0", "--max-games",
                               str(2 * args.clients), "--threads", str(args.clients + 8)],
                              stdout=subprocess.PIPE, text=True)
    port = int(server.stdout.readline().split()[2].rstrip("/").rsplit(":", 1)[1])
    stats, lock = {}, threading.Lock()
    stop_at = time.time() + args.seconds
    start = time.perf_counter()
    threads = [threading.Thread(target=run_client,
                                args=(i, port, stop_at, args.movetime, stats, lock))
               for i in range(args.clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - start
    alive = server.poll() is None
    server.terminate()
    server.wait(timeout=10)
    lat = sorted(stats["latency"])
    late = sorted(stats["late_ms"])
    waited = sorted(stats["waited_ms"])
    total = sorted(stats["total_ms"])

    def pct(xs, p):
        return xs[min(len(xs) - 1, int(p * len(xs)))] if xs else float("nan")

    print(f"clients {args.clients}, {wall:.0f} s, movetime {args.movetime} ms; server alive "
          f"at the end: {alive}")
    print(f"requests {stats['requests']:,} ({stats['requests'] / wall:,.0f}/s), games "
          f"{stats['games']}, moves {stats['moves']:,}, engine answers {len(late):,}")
    print(f"errors {len(stats['errors'])}" + "".join(f"\n  {e}" for e in stats["errors"][:10]))
    print(f"create/move/think latency ms: median {1000 * statistics.median(lat):.1f}, "
          f"p99 {1000 * pct(lat, 0.99):.1f}, max {1000 * lat[-1]:.1f}")
    print(f"engine's own time past its budget, ms: median {statistics.median(late):.0f}, "
          f"p99 {pct(late, 0.99):.0f}, max {late[-1]:.0f}")
    print(f"wait for a free engine, ms: median {statistics.median(waited):.0f}, "
          f"p99 {pct(waited, 0.99):.0f}, max {waited[-1]:.0f}")
    print(f"think asked to answer seen by the client, ms: median {statistics.median(total):.0f}, "
          f"p99 {pct(total, 0.99):.0f}, max {total[-1]:.0f}")
    return 0 if not stats["errors"] and alive else 1


if __name__ == "__main__":
    raise SystemExit(main())
