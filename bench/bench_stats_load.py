"""Load check for /stats: sampled statistics must not hold up the advisor's API.

gunicorn serves the app on 127.0.0.1 as `bidder serve` and `make run` start it (2 gevent
workers; bench_web.start_server). In one run:

1. one sample of the largest size the page deals, on an idle server, --singles times:
   its latency (goal: well under a second);
2. /api/bid alone on --api-clients connections for --seconds: the latency it has
   without load;
3. the same /api/bid clients again while --stats-clients other connections keep a
   sampled /stats request in flight each, every one with a new seed (never cached),
   a new one as soon as the last is answered (after the Retry-After a 503 asks for);
   /api/bid must keep its p99 under 250 ms with no errors, and /stats must answer
   only 200 or 503.

Bounded: each phase stops after --seconds or --max-requests per client, whichever
comes first. Figures go to standard output and bench/results/stats-load-*.json.

    .venv/bin/python bench/bench_stats_load.py [--seconds 20] [--stats-clients 16]
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
import statistics as stats
import sys
import threading
import time
from dataclasses import dataclass, field

from bench_web import HAND, HOST, RESULTS, free_port, start_server

from bidder.web.teach.stats import MAX_SAMPLE

API_PATH = "/api/bid?hand=" + HAND
API_P99_GOAL_MS = 250.0
SINGLE_GOAL_MS = 1000.0
SEEDS = itertools.count(10_000)  # every sampled request gets a seed of its own


@dataclass
class Answers:
    """What one kind of client saw: latencies of answered requests and status counts."""

    latencies_ms: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    errors: int = 0

    def add(self, status: int, milliseconds: float) -> None:
        """Count one answer."""
        self.statuses[status] = self.statuses.get(status, 0) + 1
        self.latencies_ms.append(milliseconds)

    def percentile(self, share: float) -> float:
        """The latency below which *share* of the answers came, in ms."""
        ordered = sorted(self.latencies_ms)
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0

    def summary(self) -> dict:
        """The figures to print and keep."""
        return {"requests": len(self.latencies_ms), "statuses": self.statuses,
                "errors": self.errors, "p50_ms": round(self.percentile(0.50), 1),
                "p99_ms": round(self.percentile(0.99), 1),
                "max_ms": round(max(self.latencies_ms, default=0.0), 1)}


def fetch(connection: http.client.HTTPConnection, path: str) -> tuple[int, float, str]:
    """GET *path* on a kept-alive connection: status, milliseconds, Retry-After."""
    start = time.perf_counter()
    connection.request("GET", path)
    response = connection.getresponse()
    response.read()
    return (response.status, 1000 * (time.perf_counter() - start),
            response.getheader("Retry-After", ""))


def client(port: int, paths, tally: Answers, stop: threading.Event, max_requests: int,
           lock: threading.Lock) -> None:
    """Send the paths *paths* yields, one at a time, until *stop* or *max_requests*."""
    connection = http.client.HTTPConnection(HOST, port, timeout=60)
    for _ in range(max_requests):
        if stop.is_set():
            break
        try:
            status, milliseconds, retry_after = fetch(connection, next(paths))
        except (OSError, http.client.HTTPException):
            with lock:
                tally.errors += 1
            connection.close()
            connection = http.client.HTTPConnection(HOST, port, timeout=60)
            continue
        with lock:
            tally.add(status, milliseconds)
        if retry_after:
            stop.wait(float(retry_after))
    connection.close()


def once(port: int, path: str) -> tuple[int, float, str]:
    """GET *path* on a connection of its own (so the workers take turns)."""
    connection = http.client.HTTPConnection(HOST, port, timeout=60)
    try:
        return fetch(connection, path)
    finally:
        connection.close()


def warm_up(port: int) -> None:
    """Count the exact figures and start the sampling process in every worker."""
    for seed in range(8):
        for path in ("/stats", f"/stats?hands=1&seed={seed}", API_PATH):
            once(port, path)


def sampled_paths():
    """Endless /stats paths for the largest sample, each with a new seed."""
    while True:
        yield f"/stats?hands={MAX_SAMPLE}&seed={next(SEEDS)}"


def run_phase(port: int, groups: list[tuple[int, object, Answers]], seconds: float,
              max_requests: int) -> None:
    """Run every group of clients (count, paths factory, tally) together for *seconds*."""
    stop, lock = threading.Event(), threading.Lock()
    threads = [threading.Thread(target=client, args=(port, paths(), tally, stop,
                                                     max_requests, lock))
               for count, paths, tally in groups for _ in range(count)]
    for thread in threads:
        thread.start()
    stop.wait(seconds)
    stop.set()
    for thread in threads:
        thread.join()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--stats-clients", type=int, default=16)
    parser.add_argument("--api-clients", type=int, default=4)
    parser.add_argument("--singles", type=int, default=5)
    parser.add_argument("--max-requests", type=int, default=20_000,
                        help="per client and phase")
    args = parser.parse_args()
    port = free_port()
    server = start_server(port, threads=4)
    try:
        warm_up(port)
        singles = [once(port, next(sampled_paths()))[1] for _ in range(args.singles)]
        api_alone = Answers()
        run_phase(port, [(args.api_clients, lambda: itertools.repeat(API_PATH), api_alone)],
                  args.seconds, args.max_requests)
        api_loaded, sampled = Answers(), Answers()
        run_phase(port, [(args.stats_clients, sampled_paths, sampled),
                         (args.api_clients, lambda: itertools.repeat(API_PATH), api_loaded)],
                  args.seconds, args.max_requests)
    finally:
        server.terminate()
        server.wait()
    figures = {
        "sample_size": MAX_SAMPLE,
        "single_sample_ms": {"median": round(stats.median(singles), 1),
                             "max": round(max(singles), 1)},
        "api_alone": api_alone.summary(), "api_under_load": api_loaded.summary(),
        "stats_under_load": sampled.summary(), "seconds": args.seconds,
        "stats_clients": args.stats_clients, "api_clients": args.api_clients}
    print(f"One sample of {MAX_SAMPLE:,} hands on an idle server: median "
          f"{figures['single_sample_ms']['median']} ms, slowest "
          f"{figures['single_sample_ms']['max']} ms (goal < {SINGLE_GOAL_MS:.0f} ms)")
    for name, tally in (("/api/bid alone", api_alone), ("/api/bid under load", api_loaded),
                        (f"/stats, {args.stats_clients} in flight", sampled)):
        summary = tally.summary()
        print(f"  {name:<26} {summary['requests']:>6} requests  p50 {summary['p50_ms']:7.1f} ms"
              f"  p99 {summary['p99_ms']:7.1f} ms  max {summary['max_ms']:7.1f} ms  "
              f"statuses {summary['statuses']}  errors {summary['errors']}")
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"stats-load-{time.strftime('%Y%m%d-%H%M%S')}.json").write_text(
        json.dumps(figures, indent=2))
    met = (api_loaded.percentile(0.99) < API_P99_GOAL_MS and api_loaded.errors == 0
           and set(api_loaded.statuses) == {200} and sampled.errors == 0
           and set(sampled.statuses) <= {200, 503} and max(singles) < SINGLE_GOAL_MS)
    print("goals met" if met else "a goal was missed")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
