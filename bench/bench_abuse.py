"""The server under abuse, served as `make run` serves it (gunicorn, gevent workers), on
127.0.0.1 only, every phase bounded in time and in requests:

1. slow + heavy: --slow connections that send half a request and then nothing (opened
   again as the server closes them), --heavy clients each asking for a new printable set
   of 100 hands at once (`/deal?count=100&print=1&seed=N`, never cached), and
   /api/bid measured beside them (goal: p99 at most 250 ms, 0 errors);
2. practice: --students each dealing, bidding and moving on for --seconds against
   --workers workers, with the embedded store (SQLite) and then with two servers sharing
   one Redis (each student's requests alternate between them); every student's score
   is then read back: answers counted must equal answers sent (0 lost, 0 counted twice),
   and a cookie replayed against the other server must not score (goal: answer p99 at
   most 250 ms, 0 errors).

Figures go to standard output (and docs/serving.md quotes them).

    .venv/bin/python bench/bench_abuse.py [--seconds 15] [--slow 200] [--heavy 16]
        [--students 32] [--workers 2]
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from bidder import explain
from bidder.bids import Bid
from bidder.cli.serve import gunicorn_command

HOST = "127.0.0.1"
HAND = "5C+7H+AS+JD+9D+2C+KH+10H+4C+8H+8C+AD+10C"
GOAL_MS = 250.0
MAX_REQUESTS = 20_000  # per client and phase, whatever --seconds says
HAND_FIELD = re.compile(r'name="hand" value="([^"]+)"')
CSRF_FIELD = re.compile(r'name="csrf_token" value="([^"]+)"')
SCORE = re.compile(r"Bids right: (\d+) of (\d+)")


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def serve(port: int, workers: int, state_url: str, key: str, folder: Path):
    """`bidder serve`'s gunicorn on *port*, answering once it does."""
    environment = {**os.environ, "BIDDER_SECRET_KEY": key, "BIDDER_STATE_URL": state_url,
                   # every student of the bench comes from 127.0.0.1: one address
                   "BIDDER_PRACTICE_RATE_LIMIT": "1000000 per minute"}
    command = gunicorn_command(HOST, port, workers)
    server = subprocess.Popen(command[:-1] + ["--log-level", "warning", command[-1]],
                              cwd=folder, env=environment)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://{HOST}:{port}/api/ping", timeout=2):
                return server
        except OSError:
            time.sleep(0.2)
    server.terminate()
    raise SystemExit(f"gunicorn did not answer on port {port}")


def start_redis(folder: Path):
    """A redis-server on a free loopback port in *folder*; (process, URL)."""
    port = free_port()
    server = subprocess.Popen(
        [shutil.which("redis-server") or "/usr/bin/redis-server", "--port", str(port),
         "--bind", HOST, "--dir", str(folder), "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((HOST, port), timeout=1) as connection:
                connection.sendall(b"PING\r\n")
                if connection.recv(16).startswith(b"+PONG"):
                    return server, f"redis://{HOST}:{port}/0"
        except OSError:
            time.sleep(0.1)
    server.terminate()
    raise SystemExit("redis-server did not answer")


class Latencies:
    """Latencies in ms and an error count, added to from many threads."""

    def __init__(self):
        self.lock = threading.Lock()
        self.values: list[float] = []
        self.errors = 0
        self.statuses: dict[int, int] = {}

    def add(self, status: int, seconds: float, ok: bool = True) -> None:
        with self.lock:
            self.values.append(seconds * 1000)
            self.statuses[status] = self.statuses.get(status, 0) + 1
            self.errors += not ok

    def failed(self) -> None:
        with self.lock:
            self.errors += 1

    def percentile(self, share: float) -> float:
        ordered = sorted(self.values)
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0

    def line(self, name: str) -> str:
        return (f"{name}: {len(self.values)} requests, p50 {self.percentile(0.5):.1f} ms, "
                f"p99 {self.percentile(0.99):.1f} ms, max {max(self.values, default=0):.0f}"
                f" ms, errors {self.errors}, statuses {dict(sorted(self.statuses.items()))}")


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
    port = free_port()
    server = serve(port, options.workers, f"sqlite:///{folder / 'state.sqlite3'}",
                   secrets.token_hex(32), folder)
    try:
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
              f"heavy clients, {options.seconds} s):")
        print("  " + api.line("/api/bid"))
        print("  " + heavy.line("/deal?count=100&print=1 (new seeds)"))
        return api.errors == 0 and api.percentile(0.99) <= GOAL_MS
    finally:
        server.terminate()
        server.wait()


# Phase 2 --------------------------------------------------------------------------------

class Student:
    """One browser: its cookie, and the answers it sent that the server took."""

    def __init__(self, ports: list[int]):
        self.connections = [http.client.HTTPConnection(HOST, port, timeout=60)
                            for port in ports]
        self.turn = 0
        self.cookie = ""
        self.sent = 0

    def request(self, method: str, path: str, body: str = ""):
        connection = self.connections[self.turn % len(self.connections)]
        self.turn += 1
        headers = {"Cookie": self.cookie} if self.cookie else {}
        if body:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        connection.request(method, path, body=body or None, headers=headers)
        response = connection.getresponse()
        data = response.read().decode()
        cookie = response.headers.get("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        return response.status, data


def form(page: str) -> tuple[str, str]:
    return HAND_FIELD.search(page).group(1), CSRF_FIELD.search(page).group(1)


def practise(student: Student, until: float, answers: Latencies) -> None:
    for _ in range(MAX_REQUESTS):
        if time.monotonic() >= until:
            break
        try:
            status, page = student.request("GET", "/practice")
            if status != 200 or not HAND_FIELD.search(page):
                answers.failed()
                continue
            hand, token = form(page)
            bid = str(Bid.from_value(explain(hand).bid))
            body = (f"csrf_token={token}&hand={urllib.request.quote(hand)}"
                    f"&bid={urllib.request.quote(bid)}")
            start = time.perf_counter()
            status, _ = student.request("POST", "/practice/answer", body)
            answers.add(status, time.perf_counter() - start, status == 303)
            student.sent += status == 303
            student.request("POST", "/practice/next",
                            f"csrf_token={token}&hand={urllib.request.quote(hand)}")
            if "practice/round" in student.request("GET", "/practice")[1]:
                student.request("POST", "/practice/round", f"csrf_token={token}")
        except (OSError, http.client.HTTPException, AttributeError):
            answers.failed()


def answered(student: Student, reader) -> int:
    """How many answers the student's signed cookie counts."""
    value = student.cookie.split("=", 1)[1]
    return reader.loads(value)["practice"]["answered"]


def cookie_reader(key: str):
    """What reads a session cookie signed with *key*, as the app does."""
    from bidder.web import create_app
    app = create_app({"TESTING": True, "SECRET_KEY": key,
                      "STATE_URL": f"sqlite:///{tempfile.mkdtemp()}/unused.sqlite3"})
    return app.session_interface.get_signing_serializer(app)


def practice_run(options, ports: list[int], name: str, key: str) -> bool:
    until = time.monotonic() + options.seconds
    answers = Latencies()
    students = [Student(ports) for _ in range(options.students)]
    threads = [threading.Thread(target=practise, args=(student, until, answers))
               for student in students]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    reader = cookie_reader(key)
    lost = sum(max(0, student.sent - answered(student, reader)) for student in students)
    doubled = sum(max(0, answered(student, reader) - student.sent) for student in students)
    replay_scored = replay_scores(ports, reader)
    print(f"practice, {name} ({options.students} students, {options.workers} workers, "
          f"{options.seconds} s):")
    print("  " + answers.line("POST /practice/answer"))
    print(f"  answers taken {sum(student.sent for student in students)}, lost {lost}, "
          f"counted twice {doubled}; a replayed cookie scored on the other server: "
          f"{replay_scored}")
    return (answers.errors == 0 and lost == doubled == 0 and not replay_scored
            and answers.percentile(0.99) <= GOAL_MS)


def replay_scores(ports: list[int], reader) -> bool:
    """Whether a cookie from before a wrong answer, sent to the other server with the
    right one, scores."""
    student = Student(ports[:1])
    _, page = student.request("GET", "/practice")
    hand, token = form(page)
    before = student.cookie
    advice = Bid.from_value(explain(hand).bid)
    wrong = "1C" if str(advice) != "1C" else "1D"
    student.request("POST", "/practice/answer",
                    f"csrf_token={token}&hand={urllib.request.quote(hand)}&bid={wrong}")
    replayer = Student(ports[-1:])
    replayer.cookie = before
    replayer.request("POST", "/practice/answer", f"csrf_token={token}&hand="
                     f"{urllib.request.quote(hand)}&bid={urllib.request.quote(str(advice))}")
    state = reader.loads(replayer.cookie.split("=", 1)[1])["practice"]
    return state["right"] != 0 or state["answered"] != 1


def practice_phase(options, folder: Path) -> bool:
    key = secrets.token_hex(32)
    port = free_port()
    server = serve(port, options.workers, f"sqlite:///{folder / 'practice.sqlite3'}", key,
                   folder)
    try:
        embedded = practice_run(options, [port], "embedded store (SQLite)", key)
    finally:
        server.terminate()
        server.wait()
    redis, url = start_redis(folder)
    servers = []
    try:
        ports = [free_port(), free_port()]
        servers = [serve(port, options.workers, url, key, folder) for port in ports]
        shared = practice_run(options, ports, "two servers sharing one Redis", key)
    finally:
        for server in servers:
            server.terminate()
            server.wait()
        redis.terminate()
        redis.wait()
    return embedded and shared


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=15)
    parser.add_argument("--slow", type=int, default=200)
    parser.add_argument("--heavy", type=int, default=16)
    parser.add_argument("--students", type=int, default=32)
    parser.add_argument("--workers", type=int, default=2)
    options = parser.parse_args()
    print(f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
    with tempfile.TemporaryDirectory() as folder:
        first = slow_and_heavy(options, Path(folder))
        second = practice_phase(options, Path(folder))
    print("goals met" if first and second else "goals NOT met")
    return 0 if first and second else 1


if __name__ == "__main__":
    sys.exit(main())
