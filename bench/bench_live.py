"""The live poll under a room's load, served as `bidder serve` serves it (gunicorn,
gevent workers), on 127.0.0.1 only, every phase bounded in time and in requests:

--students phones each join (GET /live/CODE) and vote (POST /api/polls/CODE/votes), spread
over --spread seconds; one in five votes a second time, replacing its first. A projector
follows the poll's server-sent events (/live/CODE/events) meanwhile. Then the admin's
GET /api/polls/CODE must count exactly one vote per phone, its last (0 lost, 0 counted
twice). Goals: every phone done within 10 s, 0 errors, vote p99 at most 250 ms, and the
projector sees each vote within 1 s of its answer.

Run once with the embedded store (SQLite) and once with two servers sharing one Redis
(each phone joins one server and votes again on the other; the projector listens to the
second). Figures go to standard output (docs/live-poll.md quotes them).

    .venv/bin/python bench/bench_live.py [--students 500] [--spread 5] [--workers 2]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import secrets
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from served import GOAL_MS, HOST, Latencies, load_average, redis_serving, serving

HAND = "AS KH 10H 8H 7H AD JD 9D 10C 8C 5C 4C 2C"
BIDS = ["1C", "1C", "1C", "1H", "1D", None]
ROOM_SECONDS = 10.0  # every phone joins and votes within this
SEEN_SECONDS = 1.0  # the projector sees each vote within this
PHASE_LIMIT = 60.0  # seconds, whatever happens
THREADS = 64


def call(port: int, method: str, path: str, body=None, headers=None):
    """One request on a fresh connection: (status, body, Set-Cookie)."""
    connection = http.client.HTTPConnection(HOST, port, timeout=10)
    try:
        data = None if body is None else json.dumps(body)
        sent = {"Content-Type": "application/json", **(headers or {})} if data else (
            headers or {})
        connection.request(method, path, body=data, headers=sent)
        response = connection.getresponse()
        return response.status, response.read(), response.getheader("Set-Cookie")
    finally:
        connection.close()


class Projector(threading.Thread):
    """Listens to a poll's events, noting when each count of answers first arrived."""

    def __init__(self, port: int, code: str):
        super().__init__(daemon=True)
        self.port, self.code = port, code
        self.seen: list[tuple[float, int]] = []
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            connection = http.client.HTTPConnection(HOST, self.port, timeout=1)
            try:
                connection.request("GET", f"/live/{self.code}/events")
                response = connection.getresponse()
                while not self.stop.is_set():
                    line = response.fp.readline()
                    if not line:
                        break
                    if line.startswith(b"data: "):
                        answered = json.loads(line[6:])["answered"]
                        self.seen.append((time.monotonic(), answered))
            except (OSError, http.client.HTTPException):
                pass  # a read timed out: look at the stop flag, then listen on
            finally:
                connection.close()

    def when(self, count: int) -> float | None:
        """When the projector first saw at least *count* answers."""
        return next((moment for moment, answered in self.seen if answered >= count), None)


def phone(ports: list[int], code: str, number: int, when: float, votes: Latencies,
          done: list, finals: dict) -> None:
    """One phone: wait until *when*, join, vote; one in five votes again on the other
    server, replacing its first vote."""
    time.sleep(max(0.0, when - time.monotonic()))
    own, other = ports[number % len(ports)], ports[(number + 1) % len(ports)]
    status, _, cookie = call(own, "GET", f"/live/{code}")  # the join sets the cookie
    if status != 200 or not cookie:
        votes.failed()
        return
    device = {"Cookie": cookie.split(";")[0]}
    bid = random.Random(number).choice(BIDS)
    began = time.monotonic()
    status, _, _ = call(own, "POST", f"/api/polls/{code}/votes", {"bid": bid}, device)
    votes.add(status, time.monotonic() - began, status == 200)
    if status != 200:
        return
    done.append(time.monotonic())
    finals[number] = bid
    if number % 5 == 0:
        again = random.Random(-number).choice(BIDS)
        began = time.monotonic()
        status, _, _ = call(other, "POST", f"/api/polls/{code}/votes", {"bid": again},
                            device)
        votes.add(status, time.monotonic() - began, status == 200)
        if status == 200:
            finals[number] = again


def room(options, ports: list[int], name: str) -> bool:
    """A room of --students phones on *ports*; whether every goal was met."""
    status, body, _ = call(ports[0], "POST", "/api/polls", {"hand": HAND})
    opened = json.loads(body)
    code, admin = opened["code"], {"Authorization": f"Bearer {opened['admin']}"}
    projector = Projector(ports[-1], code)
    projector.start()
    time.sleep(0.5)  # the projector is listening before the room votes
    votes, done, finals = Latencies(), [], {}
    start = time.monotonic()
    with ThreadPoolExecutor(THREADS) as pool:
        for number in range(options.students):
            when = start + options.spread * number / options.students
            pool.submit(phone, ports, code, number, when, votes, done, finals)
    room_seconds = time.monotonic() - start
    deadline = time.monotonic() + SEEN_SECONDS + 1
    while projector.when(len(done)) is None and time.monotonic() < deadline:
        time.sleep(0.05)
    projector.stop.set()
    lags = [(projector.when(count) or float("inf")) - moment
            for count, moment in enumerate(sorted(done), start=1)]
    status, body, _ = call(ports[0], "GET", f"/api/polls/{code}", headers=admin)
    counted = json.loads(body)["votes"]
    expected: dict[str, int] = {}
    for bid in finals.values():
        key = "None" if bid is None else bid
        expected[key] = expected.get(key, 0) + 1
    lost = sum(expected.values()) - sum(counted.values())
    worst = max(lags, default=0.0)
    print(f"{name}: {options.students} phones in {room_seconds:.1f} s; "
          + votes.line("votes"))
    print(f"  counted {sum(counted.values())} of {len(done)} phones that voted "
          f"({'exactly' if counted == expected else 'NOT'} their last votes); "
          f"projector lag p50 {sorted(lags)[len(lags) // 2] * 1000 if lags else 0:.0f} ms, "
          f"max {worst * 1000:.0f} ms")
    return (votes.errors == 0 and len(done) == options.students and counted == expected
            and lost == 0 and room_seconds <= ROOM_SECONDS
            and votes.percentile(0.99) <= GOAL_MS and worst <= SEEN_SECONDS)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=500)
    parser.add_argument("--spread", type=float, default=5.0)
    parser.add_argument("--workers", type=int, default=2)
    options = parser.parse_args()
    options.students = min(options.students, 5000)  # bounded, whatever is asked
    print(f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}, load average "
          f"{load_average()}")
    key = secrets.token_hex(32)
    results = []
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        with serving(options.workers, f"sqlite:///{folder / 'live.sqlite3'}", key,
                     folder) as server:
            results.append(room(options, [server.port], "embedded store (SQLite)"))
        with (redis_serving(folder) as url,
              serving(options.workers, url, key, folder) as first,
              serving(options.workers, url, key, folder) as second):
            results.append(room(options, [first.port, second.port],
                                "two servers sharing one Redis"))
    print("goals met" if all(results) else "goals NOT met")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
