"""The heaviest anonymous requests, served as `make run` serves them (gunicorn, gevent
workers, each with its pool of processes for heavy work), on 127.0.0.1 only, bounded
in time and in requests: --clients clients each sending, one after another with no
pause, the heaviest requests the app takes from anyone (a poll on a hand telling any
misreadings apart, a new combination of three misreadings on /variants, a new printable
set of 100 hands), and /api/bid measured beside them by two clients (goal: p99 at most
250 ms, 0 errors). A heavy request refused (503, the pool full) is tried again after
--pause seconds, as an impatient browser would.

Figures go to standard output (docs/speed.md and docs/serving.md quote them).

    .venv/bin/python bench/bench_heavy.py [--seconds 15] [--clients 4] [--workers 2]
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
import os
import random
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench_abuse import api_client
from served import GOAL_MS, HOST, Latencies, load_average, serving

from bidder.misreadings import space

MAX_REQUESTS = 20_000  # per client, whatever --seconds says
LIMITS = {"BIDDER_LIVE_RATE_LIMIT": "1000000 per minute"}  # one address: every client


def combinations(seed: int):
    """Endless new combinations of three generated misreadings, as /variants ids."""
    ids = [variant.id for variant in space()[17:] if not variant.id.endswith("+")]
    chooser = random.Random(seed)
    while True:
        yield "%2B".join(chooser.sample(ids, 3)).replace("+", "%2B")


def heavy_requests(client: int):
    """The requests one heavy client sends, in turn, none the same twice."""
    seeds = itertools.count(3_000_000 + client * 100_000, 100)
    combos = combinations(client)
    kinds = ("apart", "variants", "set")
    for kind in itertools.islice(itertools.cycle(kinds), client % 3, None):
        if kind == "apart":
            yield kind, "POST", "/api/polls", json.dumps({"apart": []})
        elif kind == "variants":
            yield kind, "GET", f"/variants?variant={next(combos)}", None
        else:
            yield kind, "GET", f"/deal?count=100&print=1&seed={next(seeds)}", None


def heavy_client(port: int, client: int, until: float, results: dict[str, Latencies],
                 pause: float) -> None:
    connection = http.client.HTTPConnection(HOST, port, timeout=120)
    requests = heavy_requests(client)
    for _ in range(MAX_REQUESTS):
        if time.monotonic() >= until:
            break
        kind, method, path, body = next(requests)
        try:
            start = time.perf_counter()
            connection.request(method, path, body=body,
                               headers={"Content-Type": "application/json"} if body else {})
            response = connection.getresponse()
            response.read()
            results[kind].add(response.status, time.perf_counter() - start,
                              response.status in (200, 201, 400, 503))
            if response.status == 503:
                time.sleep(pause)
        except (OSError, http.client.HTTPException) as error:
            results[kind].failed(type(error).__name__)
            connection.close()
            connection = http.client.HTTPConnection(HOST, port, timeout=120)


def heavy_phase(options, folder: Path) -> bool:
    with serving(options.workers, f"sqlite:///{folder / 'state.sqlite3'}", folder=folder,
                 environment=LIMITS) as server:
        for path in ("/api/bid?hand=AS+KH+10H+8H+7H+AD+JD+9D+10C+8C+5C+4C+2C",):
            http.client.HTTPConnection(HOST, server.port).request("GET", path)
        until = time.monotonic() + options.seconds
        api = Latencies()
        heavy = {kind: Latencies() for kind in ("apart", "variants", "set")}
        threads = [threading.Thread(target=heavy_client, args=(
            server.port, client, until, heavy, options.pause))
            for client in range(options.clients)]
        threads += [threading.Thread(target=api_client, args=(server.port, until, api))
                    for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        print(f"heaviest requests ({options.workers} gevent workers, {options.clients} "
              f"heavy clients, {options.seconds} s, load average {load_average()}):")
        print("  " + api.line("/api/bid"))
        for kind, name in (("apart", "POST /api/polls {\"apart\": []}"),
                           ("variants", "/variants?variant=A+B+C (new)"),
                           ("set", "/deal?count=100&print=1 (new seeds)")):
            print("  " + heavy[kind].line(name))
        return api.errors == 0 and api.percentile(0.99) <= GOAL_MS


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=15)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--pause", type=float, default=0.05)
    options = parser.parse_args()
    print(f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
    with tempfile.TemporaryDirectory() as folder:
        met = heavy_phase(options, Path(folder))
    print("goals met" if met else "goals NOT met")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
