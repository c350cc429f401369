"""A room's worth of phones behind one address, and a phone that opens a thousand
live-update streams, against the app served as `bidder serve` serves it (gunicorn,
gevent workers), on 127.0.0.1 only, every phase bounded in time and in requests.

The class: --students phones (one address, as behind a school's NAT) each join a poll
(GET /live/CODE, which sets the device cookie) and vote (POST /api/polls/CODE/votes),
spread over --spread seconds. Every phone retries whatever fails (a 503, a timeout, a
dropped connection) every half second, with the cookie it was given, as a student
pressing the button again would, until it is answered or --patience runs out. Then the
instructor's GET /api/polls/CODE must count exactly one vote per phone: 0 refused, 0
lost, 0 counted twice. Run on the embedded store (SQLite, one server), on two servers
sharing one Redis (phones alternating between them), and on those two with the Redis
paused (SIGSTOP, then SIGCONT, of the redis-server the bench started) for 3 s and, in
another run, 10 s, starting in the middle of the class's votes. Goal: every phone done
within 10 s of the first (a 10 s pause cannot meet it; its figure says how long it took).

The streams: one phone (one device cookie) opens --streams live-update streams at once
(GET /live/CODE/events): a few must be served (4 a worker), the rest refused with 429
and Retry-After; then a class of --students phones opens one stream each: all served.
Meanwhile another client asks GET /api/bid over and over: its p99 at most 250 ms.

    nice .venv/bin/python bench/bench_room.py [--students 200] [--spread 5] [--streams 1000]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import secrets
import signal
import socket
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from served import GOAL_MS, HOST, Latencies, load_average, serving, start_redis, stop

HAND = "AS KH 10H 8H 7H AD JD 9D 10C 8C 5C 4C 2C"
BIDS = ["1C", "1C", "1C", "1H", "1D", None]
ROOM_SECONDS = 10.0  # every phone joins and votes within this
RETRY_SECONDS = 0.5  # a phone presses again this long after a failure
REQUEST_SECONDS = 5.0  # a phone gives up on one request after this, and retries
BID_PATH = "/api/bid?hand=AS+KH+10H+8H+7H+AD+JD+9D+10C+8C+5C+4C+2C"


def call(port: int, method: str, path: str, body=None, headers=None):
    """One request on a fresh connection: (status, body, Set-Cookie), or (0, b'', None)
    when it got no answer in time."""
    connection = http.client.HTTPConnection(HOST, port, timeout=REQUEST_SECONDS)
    try:
        data = None if body is None else json.dumps(body)
        sent = {**({"Content-Type": "application/json"} if data else {}), **(headers or {})}
        connection.request(method, path, body=data, headers=sent)
        response = connection.getresponse()
        return response.status, response.read(), response.getheader("Set-Cookie")
    except (OSError, http.client.HTTPException):
        return 0, b"", None
    finally:
        connection.close()


class Phone:
    """One student's phone: its device cookie, once a join gave one, and its tries."""

    def __init__(self, number: int, ports: list[int], code: str, patience: float):
        self.number, self.port, self.code = number, ports[number % len(ports)], code
        self.deadline = time.monotonic() + patience
        self.cookie: str | None = None
        self.tries = 0
        self.bid = random.Random(number).choice(BIDS)

    def send(self, method: str, path: str, body=None) -> int:
        """Send until answered 200 or out of patience (keeping any cookie a failed
        answer set, as a browser does): the last status."""
        status = 0
        while time.monotonic() < self.deadline:
            self.tries += 1
            headers = {"Cookie": self.cookie} if self.cookie else {}
            status, _, cookie = call(self.port, method, path, body, headers)
            if cookie and cookie.startswith("bidder_device="):
                self.cookie = cookie.split(";")[0]
            if status == 200:
                return status
            if status in (403, 404, 409, 429):
                return status  # refused: retrying would not help
            time.sleep(RETRY_SECONDS)
        return status

    def join_and_vote(self) -> tuple[int, int]:
        """Join, then vote: the two last statuses."""
        joined = self.send("GET", f"/live/{self.code}")
        if joined != 200:
            return joined, 0
        return joined, self.send("POST", f"/api/polls/{self.code}/votes", {"bid": self.bid})


def paused(process, after: float, seconds: float) -> threading.Thread:
    """A thread that stops *process* (SIGSTOP) *after* seconds, for *seconds*."""
    def pause():
        time.sleep(after)
        process.send_signal(signal.SIGSTOP)
        time.sleep(seconds)
        process.send_signal(signal.SIGCONT)

    thread = threading.Thread(target=pause, daemon=True)
    thread.start()
    return thread


def room(options, ports: list[int], name: str, redis=None, pause: float = 0.0) -> bool:
    """A class of --students on *ports*; with *redis* paused *pause* seconds in the middle.
    Whether every goal was met (a pause longer than the room's time meets all but it)."""
    status, body, _ = call(ports[0], "POST", "/api/polls", {"hand": HAND})
    opened = json.loads(body)
    code, admin = opened["code"], {"Authorization": f"Bearer {opened['admin']}"}
    phones = [Phone(number, ports, code, options.patience) for number in range(options.students)]
    answers: dict[int, tuple[int, int]] = {}
    done: list[float] = []
    start = time.monotonic()
    pauser = paused(redis, options.spread / 2, pause) if redis and pause else None

    def one(phone: Phone) -> None:
        time.sleep(max(0.0, start + options.spread * phone.number / options.students
                       - time.monotonic()))
        answers[phone.number] = phone.join_and_vote()
        done.append(time.monotonic() - start)

    with ThreadPoolExecutor(options.students) as pool:
        list(pool.map(one, phones))
    if pauser:
        pauser.join()
    room_seconds = max(done, default=0.0)
    status, body, _ = call(ports[0], "GET", f"/api/polls/{code}", headers=admin)
    counted = json.loads(body)["votes"] if status == 200 else {}
    voted = [phone for phone in phones if answers[phone.number] == (200, 200)]
    expected: dict[str, int] = {}
    for phone in voted:
        key = "None" if phone.bid is None else phone.bid
        expected[key] = expected.get(key, 0) + 1
    refused = options.students - len(voted)
    lost = sum(max(0, expected[key] - counted.get(key, 0)) for key in expected)
    twice = sum(max(0, counted.get(key, 0) - expected.get(key, 0)) for key in counted)
    tries = sorted(phone.tries for phone in phones)
    print(f"{name}: {options.students} phones done in {room_seconds:.1f} s; "
          f"refused {refused}, lost {lost}, counted twice {twice}; requests per phone "
          f"median {tries[len(tries) // 2]}, max {tries[-1]}; (join, vote) statuses "
          f"{dict(Counter(answers.values()).most_common())}")
    return refused == lost == twice == 0 and (pause >= ROOM_SECONDS or
                                               room_seconds <= ROOM_SECONDS)


def open_stream(port: int, path: str, cookie: str | None) -> tuple[int, socket.socket | None]:
    """Open a live-update stream: its status, and its socket while served (else None)."""
    connection = socket.create_connection((HOST, port), timeout=REQUEST_SECONDS)
    request = (f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\nAccept: text/event-stream\r\n"
               + (f"Cookie: {cookie}\r\n" if cookie else "") + "\r\n")
    try:
        connection.sendall(request.encode())
        line = connection.recv(64).split(b"\r\n")[0].split()
        status = int(line[1]) if len(line) > 1 else 0
    except OSError:
        status = 0
    if status != 200:
        connection.close()
        return status, None
    return status, connection


def bids_meanwhile(port: int, stop_at: threading.Event, latencies: Latencies) -> None:
    """Ask /api/bid one after another until *stop_at* is set, noting each latency."""
    while not stop_at.is_set():
        began = time.monotonic()
        status, _, _ = call(port, "GET", BID_PATH)
        latencies.add(status, time.monotonic() - began, status == 200)


def streams(options, port: int, workers: int) -> bool:
    """--streams streams with one phone's cookie, then one stream each for a class."""
    _, body, _ = call(port, "POST", "/api/polls", {"hand": HAND})
    code = json.loads(body)["code"]
    _, _, cookie = call(port, "GET", f"/live/{code}")
    cookie = cookie.split(";")[0]
    path = f"/live/{code}/events"
    stop_at, latencies = threading.Event(), Latencies()
    bidder = threading.Thread(target=bids_meanwhile, args=(port, stop_at, latencies))
    bidder.start()
    held: list[socket.socket] = []
    try:
        with ThreadPoolExecutor(64) as pool:
            opened = list(pool.map(lambda _: open_stream(port, path, cookie),
                                   range(options.streams)))
        held += [connection for _, connection in opened if connection]
        statuses = [status for status, _ in opened]
        served = statuses.count(200)
        print(f"{options.streams} streams with one phone's cookie: {served} served, "
              f"{statuses.count(429)} refused with 429, others "
              f"{len(statuses) - served - statuses.count(429)}")
        class_cookies = []
        for _ in range(options.students):
            _, _, given = call(port, "GET", f"/live/{code}")
            class_cookies.append(given.split(";")[0])
        with ThreadPoolExecutor(64) as pool:
            class_opened = list(pool.map(lambda given: open_stream(port, path, given),
                                         class_cookies))
        held += [connection for _, connection in class_opened if connection]
        class_served = sum(1 for status, _ in class_opened if status == 200)
        print(f"a class of {options.students}, one stream each: {class_served} served")
        time.sleep(options.hold)
    finally:
        stop_at.set()
        bidder.join()
        for connection in held:
            connection.close()
    print("  meanwhile " + latencies.line("/api/bid"))
    return (0 < served <= 4 * workers and statuses.count(429) == options.streams - served
            and class_served == options.students and latencies.errors == 0
            and latencies.percentile(0.99) <= GOAL_MS)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=200)
    parser.add_argument("--spread", type=float, default=5.0)
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--patience", type=float, default=40.0,
                        help="seconds a phone keeps retrying")
    parser.add_argument("--hold", type=float, default=5.0,
                        help="seconds the streams are held open while /api/bid is asked")
    parser.add_argument("--workers", type=int, default=2)
    options = parser.parse_args()
    options.students = min(options.students, 1000)  # bounded, whatever is asked
    options.streams = min(options.streams, 2000)
    options.patience = min(options.patience, 60.0)
    options.hold = min(options.hold, 30.0)
    print(f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}, load average "
          f"{load_average()}")
    key = secrets.token_hex(32)
    results = []
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        with serving(options.workers, f"sqlite:///{folder / 'room.sqlite3'}", key,
                     folder) as server:
            results.append(room(options, [server.port], "embedded store (SQLite)"))
            results.append(streams(options, server.port, options.workers))
        for pause in (0.0, 3.0, 10.0):
            redis, url = start_redis(folder)
            try:
                with (serving(1, url, key, folder) as first,
                      serving(1, url, key, folder) as second):
                    results.append(room(options, [first.port, second.port],
                                        f"two servers sharing one Redis, paused {pause:g} s",
                                        redis, pause))
            finally:
                redis.send_signal(signal.SIGCONT)
                stop(redis)
    print("goals met" if all(results) else "goals NOT met")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
