"""The server under abuse, served as `make run` serves it (gunicorn, gevent workers), on
127.0.0.1 only, every phase bounded in time and in requests:

1. slow + heavy: --slow connections that send half a request and then nothing (opened
   again as the server closes them), --heavy clients each asking for a new printable set
   of 100 hands at once (`/deal?count=100&print=1&seed=N`, never cached), and
   /api/bid measured beside them (goal: p99 at most 250 ms, 0 errors);
2. practice: a class practising at once, as bench/bench_practice.py runs it (its
   --seconds, --students and --workers are this script's; --students 0 skips it).

The servers are started as every server bench starts them (bench/served.py).

Figures go to standard output (and docs/serving.md quotes them).

    .venv/bin/python bench/bench_abuse.py [--seconds 15] [--slow 200] [--heavy 16]
        [--students 32] [--workers 2]
"""

from __future__ import annotations

import argparse
import http.client
import os
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

import bench_practice
from served import GOAL_MS, HOST, Latencies, load_average, serving

HAND = "5C+7H+AS+JD+9D+2C+KH+10H+4C+8H+8C+AD+10C"
MAX_REQUESTS = 20_000  # per client and phase, whatever --seconds says


def get(connection: http.client.HTTPConnection, path: str, headers=None):
    connection.request("GET", path, headers=headers or {})
    response = connection.getresponse()
    return response.status, response.read(), response


# Phase 1 --------------------------------------------------------------------------------

def slow_clients(port: int, count: int, until: float) -> int:
    """Keep *count* half-sent requests open until *until*; how many were opened."""
    opened, connections = 0, []
    while time.monotonic() < until:
        connections = [c for c in connections if c.fileno() != -1]
        while len(connections) < count:
            try:
                connection = socket.create_connection((HOST, port), timeout=5)
                connection.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
                connection.setblocking(False)
                connections.append(connection)
                opened += 1
            except OSError:
                break
        time.sleep(0.5)
        for connection in connections:
            try:
                if connection.recv(1) == b"":
                    connection.close()
            except BlockingIOError:
                pass
            except OSError:
                connection.close()
    for connection in connections:
        connection.close()
    return opened


def heavy_client(port: int, seeds, until: float, results: Latencies) -> None:
    connection = http.client.HTTPConnection(HOST, port, timeout=60)
    for _ in range(MAX_REQUESTS):
        if time.monotonic() >= until:
            break
        try:
            start = time.perf_counter()
            status, _, response = get(connection, f"/deal?count=100&print=1&seed={next(seeds)}")
            results.add(status, time.perf_counter() - start, status in (200, 503))
            if status == 503:
                time.sleep(float(response.headers.get("Retry-After", "1")))
        except (OSError, http.client.HTTPException):
            results.failed()
            connection.close()
            connection = http.client.HTTPConnection(HOST, port, timeout=60)


def api_client(port: int, until: float, results: Latencies) -> None:
    connection = http.client.HTTPConnection(HOST, port, timeout=60)
    for _ in range(MAX_REQUESTS):
        if time.monotonic() >= until:
            break
        try:
            start = time.perf_counter()
            status, _, _ = get(connection, "/api/bid?hand=" + HAND)
            results.add(status, time.perf_counter() - start, status == 200)
        except (OSError, http.client.HTTPException):
            results.failed()
            connection.close()
            connection = http.client.HTTPConnection(HOST, port, timeout=60)
        time.sleep(0.01)


def slow_and_heavy(options, folder: Path) -> bool:
    with serving(options.workers, f"sqlite:///{folder / 'state.sqlite3'}",
                 folder=folder) as server:
        port = server.port
        until = time.monotonic() + options.seconds
        seeds = iter(range(1_000_000, 2_000_000, 100))
        api, heavy = Latencies(), Latencies()
        threads = [threading.Thread(target=heavy_client, args=(port, seeds, until, heavy))
                   for _ in range(options.heavy)]
        threads += [threading.Thread(target=api_client, args=(port, until, api))
                    for _ in range(2)]
        opened = []
        threads.append(threading.Thread(
            target=lambda: opened.append(slow_clients(port, options.slow, until))))
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        print(f"slow + heavy ({options.workers} gevent workers, {options.slow} slow "
              f"connections kept open ({opened[0]} opened in all), {options.heavy} "
              f"heavy clients, {options.seconds} s, load average {load_average()}):")
        print("  " + api.line("/api/bid"))
        print("  " + heavy.line("/deal?count=100&print=1 (new seeds)"))
        return api.errors == 0 and api.percentile(0.99) <= GOAL_MS


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=15)
    parser.add_argument("--slow", type=int, default=200)
    parser.add_argument("--heavy", type=int, default=16)
    parser.add_argument("--students", type=int, default=32)
    parser.add_argument("--workers", type=int, default=2)
    options = parser.parse_args()
    options.double_click = 10
    options.think = bench_practice.THINK_SECONDS
    print(f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
    with tempfile.TemporaryDirectory() as folder:
        first = slow_and_heavy(options, Path(folder))
    second = not options.students or bench_practice.practise_class(options)
    print("goals met" if first and second else "goals NOT met")
    return 0 if first and second else 1


if __name__ == "__main__":
    sys.exit(main())
