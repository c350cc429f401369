"""A class practising at once, served as `bidder serve` serves it (gunicorn, gevent
workers), on 127.0.0.1 only, bounded in time and in requests:

--students browsers each deal, read the hand for --think seconds (on average: each
pause is drawn between half and one and a half times it), bid and move on, for --seconds
against --workers workers, first with the embedded store (SQLite) and then with two
servers sharing one Redis (each browser's requests alternate between them). Every
--double-click-th answer is posted twice at once (on both servers, when there are two),
as a double click sends it. With --think 0 the browsers never pause: the class is then a
queue as long as the class, and the figures say how many answers a second the server
keeps up with, not how long a student waits.

Nothing is taken on trust: after the run every answer the bench sent is looked up in the
store itself (under its hand's one-time token: present, and the bid sent), the store must
hold no answer the bench did not send, and each browser's signed score must count each
of its hands once (0 lost, 0 counted twice). A cookie from before a wrong answer, replayed
with the right one against the other server, must not score. Goals: 0 errors, 0 lost,
0 counted twice, answer p99 at most 250 ms.

Figures go to standard output (docs/serving.md quotes them).

    .venv/bin/python bench/bench_practice.py [--seconds 60] [--students 128] [--workers 8]
        [--think 2]
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import re
import secrets
import sqlite3
import sys
import tempfile
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

from served import GOAL_MS, HOST, Latencies, load_average, redis_serving, serving

from bidder import explain
from bidder.bids import Bid

MAX_REQUESTS = 5_000  # per browser and run, whatever --seconds says
HAND_FIELD = re.compile(r'name="hand" value="([^"]+)"')
CSRF_FIELD = re.compile(r'name="csrf_token" value="([^"]+)"')
THINK_SECONDS = 2.0  # how long a student reads a hand, on average, by default
ANSWER_KEY = "bid:"  # the store's key for a hand's answer, before its token


@dataclass
class Student:
    """One browser: its cookie, and the answers the server took from it, by token."""

    ports: list[int]
    cookie: str = ""
    seed: int = 0  # of its pauses
    turn: int = 0
    sent: dict[str, str] = field(default_factory=dict)  # token: bid

    def __post_init__(self):
        self.connections = {port: http.client.HTTPConnection(HOST, port, timeout=60)
                            for port in self.ports}

    def request(self, method: str, path: str, body: str = "", port: int | None = None):
        """(status, page) from the next server in turn (or *port*), keeping the cookie."""
        port = port or self.ports[self.turn % len(self.ports)]
        self.turn += 1
        connection = self.connections[port]
        headers = {"Cookie": self.cookie} if self.cookie else {}
        if body:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            connection.request(method, path, body=body or None, headers=headers)
            response = connection.getresponse()
        except (OSError, http.client.HTTPException):
            connection.close()  # reopened by the next request
            raise
        page = response.read().decode()
        cookie = response.headers.get("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        return response.status, page


def fields_of(page: str) -> tuple[str, str]:
    """The hand and CSRF token of a practice page's answer form."""
    return HAND_FIELD.search(page).group(1), CSRF_FIELD.search(page).group(1)


def post_answer(ports: list[int], cookie: str, body: str, number: int):
    """One answer posted on a fresh connection: (status, Set-Cookie, seconds)."""
    connection = http.client.HTTPConnection(HOST, ports[number % len(ports)], timeout=60)
    try:
        start = time.perf_counter()
        connection.request("POST", "/practice/answer", body=body, headers={
            "Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"})
        response = connection.getresponse()
        response.read()
        return response.status, response.headers.get("Set-Cookie"), (
            time.perf_counter() - start)
    finally:
        connection.close()


def double_click(student: Student, body: str, answers: Latencies) -> bool:
    """Post the answer twice at once, as a double click does (on both servers when
    there are two): whether both were taken; the student keeps the later cookie."""
    results: list = [None, None]

    def one(number: int) -> None:
        try:
            results[number] = post_answer(student.ports, student.cookie, body, number)
        except (OSError, http.client.HTTPException) as trouble:
            results[number] = type(trouble).__name__

    twins = [threading.Thread(target=one, args=(number,)) for number in (0, 1)]
    for twin in twins:
        twin.start()
    for twin in twins:
        twin.join()
    taken = True
    for result in results:
        if isinstance(result, str):
            answers.failed(f"double click: {result}")
            taken = False
            continue
        status, cookie, seconds = result
        answers.add(status, seconds, status == 303)
        taken &= status == 303
        if cookie:
            student.cookie = cookie.split(";", 1)[0]
    return taken


def practise(student: Student, until: float, answers: Latencies, reader,
             every: int, think: float = 0.0) -> None:
    """Deal, read the hand for about *think* seconds, bid (every *every*-th answer a
    double click) and move on, until *until*."""
    pauses = random.Random(student.seed)
    for number in range(MAX_REQUESTS):
        if time.monotonic() >= until:
            break
        try:
            status, page = student.request("GET", "/practice")
            if status != 200 or not HAND_FIELD.search(page):
                answers.failed(f"GET /practice: {status}, "
                               f"{'a hand' if HAND_FIELD.search(page) else 'no hand'}")
                continue
            hand, csrf = fields_of(page)
            pause = pauses.uniform(think / 2, think * 3 / 2)
            if time.monotonic() + pause >= until:
                break  # the bell rings while it reads: no answer (not all at once)
            time.sleep(pause)
            token = reader.loads(student.cookie.split("=", 1)[1])["practice"]["token"]
            bid = str(Bid.from_value(explain(hand).bid))
            body = (f"csrf_token={csrf}&hand={urllib.parse.quote(hand)}"
                    f"&bid={urllib.parse.quote(bid)}")
            if every and number % every == every - 1:
                taken = double_click(student, body, answers)
            else:
                start = time.perf_counter()
                status, _ = student.request("POST", "/practice/answer", body)
                answers.add(status, time.perf_counter() - start, status == 303)
                taken = status == 303
            if taken:
                student.sent[token] = bid
            student.request("POST", "/practice/next",
                            f"csrf_token={csrf}&hand={urllib.parse.quote(hand)}")
            if "practice/round" in student.request("GET", "/practice")[1]:
                student.request("POST", "/practice/round", f"csrf_token={csrf}")
        except (OSError, http.client.HTTPException) as trouble:
            answers.failed(type(trouble).__name__)
        except AttributeError:  # a page without its answer form's fields
            answers.failed("a page without its form")


def cookie_reader(key: str):
    """What reads a session cookie signed with *key*, as the app does."""
    from bidder.web import create_app
    app = create_app({"TESTING": True, "SECRET_KEY": key,
                      "STATE_URL": f"sqlite:///{tempfile.mkdtemp()}/unused.sqlite3"})
    return app.session_interface.get_signing_serializer(app)


def kept_answers(url: str) -> dict[str, str]:
    """Every practice answer the store at *url* holds, by token: read from the store
    itself (the SQLite file's table, or Redis's keys), not through the app."""
    if url.startswith("sqlite:"):
        with sqlite3.connect(urllib.parse.urlsplit(url).path[1:]) as db:
            rows = db.execute("SELECT key, value FROM entries WHERE key LIKE ?",
                              (ANSWER_KEY + "%",)).fetchall()
    else:
        import redis
        client = redis.Redis.from_url(url, decode_responses=True)
        keys = list(client.scan_iter(ANSWER_KEY + "*", count=1000))
        rows = list(zip(keys, client.mget(keys))) if keys else []
    return {key[len(ANSWER_KEY):]: value for key, value in rows}


@dataclass(frozen=True)
class Audit:
    """Answers sent and taken, checked against the store and the signed scores."""

    taken: int
    missing: int  # taken, but not in the store
    changed: int  # in the store with another bid than the one sent
    strays: int  # in the store, never sent
    lost: int  # a student's score counts fewer hands than it answered
    doubled: int  # ... or more

    @property
    def clean(self) -> bool:
        """Whether every answer is counted exactly once."""
        return not (self.missing or self.changed or self.strays or self.lost
                    or self.doubled)

    def line(self) -> str:
        return (f"answers taken {self.taken}; in the store: missing {self.missing}, with "
                f"another bid {self.changed}, never sent {self.strays}; scores: lost "
                f"{self.lost}, counted twice {self.doubled}")


def audit(students: list[Student], url: str, reader, before: set[str]) -> Audit:
    """Check every student's answers against the store at *url* (whose answers in
    *before* were there before the run) and against its signed score."""
    kept = {token: bid for token, bid in kept_answers(url).items() if token not in before}
    sent = {token: bid for student in students for token, bid in student.sent.items()}
    lost = doubled = 0
    for student in students:
        score = reader.loads(student.cookie.split("=", 1)[1])["practice"]["answered"]
        lost += max(0, len(student.sent) - score)
        doubled += max(0, score - len(student.sent))
    return Audit(taken=len(sent), missing=len(sent.keys() - kept.keys()),
                 changed=sum(kept[token] != bid for token, bid in sent.items()
                             if token in kept),
                 strays=len(kept.keys() - sent.keys()), lost=lost, doubled=doubled)


def replay_scores(ports: list[int], reader) -> bool:
    """Whether a cookie from before a wrong answer, sent to the other server with the
    right one, scores."""
    student = Student(ports[:1])
    _, page = student.request("GET", "/practice")
    hand, csrf = fields_of(page)
    before = student.cookie
    advice = Bid.from_value(explain(hand).bid)
    wrong = "1C" if str(advice) != "1C" else "1D"
    student.request("POST", "/practice/answer",
                    f"csrf_token={csrf}&hand={urllib.parse.quote(hand)}&bid={wrong}")
    replayer = Student(ports[-1:], cookie=before)
    replayer.request("POST", "/practice/answer", f"csrf_token={csrf}&hand="
                     f"{urllib.parse.quote(hand)}&bid={urllib.parse.quote(str(advice))}")
    state = reader.loads(replayer.cookie.split("=", 1)[1])["practice"]
    return state["right"] != 0 or state["answered"] != 1


def run(options, ports: list[int], url: str, name: str, key: str) -> bool:
    """The class on *ports* (sharing the store at *url*); whether every goal was met."""
    reader = cookie_reader(key)
    before = set(kept_answers(url))
    until = time.monotonic() + options.seconds
    answers = Latencies()
    students = [Student(ports, seed=seed) for seed in range(options.students)]
    threads = [threading.Thread(target=practise, args=(student, until, answers, reader,
                                                       options.double_click,
                                                       options.think))
               for student in students]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    checked = audit(students, url, reader, before)
    replayed = replay_scores(ports, reader)
    print(f"{name} ({options.students} students thinking {options.think} s a hand, "
          f"{len(ports)} x {options.workers} gevent workers, {options.seconds} s, "
          f"{len(answers.values) / options.seconds:.1f} answers a second, load average "
          f"{load_average()}):")
    print("  " + answers.line("POST /practice/answer"))
    print(f"  {checked.line()}; a replayed cookie scored on the other server: {replayed}")
    return (answers.errors == 0 and checked.clean and not replayed
            and answers.percentile(0.99) <= GOAL_MS)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--students", type=int, default=128)
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--think", type=float, default=THINK_SECONDS, metavar="SECONDS",
                        help="how long a student reads a hand before bidding, on average "
                             "(0: never pauses)")
    parser.add_argument("--double-click", type=int, default=10, metavar="N",
                        help="post every N-th answer twice at once (0: never)")
    options = parser.parse_args()
    print(f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}, load average "
          f"{load_average()}")
    met = practise_class(options)
    print("goals met" if met else "goals NOT met")
    return 0 if met else 1


def practise_class(options) -> bool:
    """The class with the embedded store, then on two servers sharing one Redis:
    whether every goal was met in both."""
    options.seconds = min(options.seconds, 600)
    options.students = min(options.students, 1000)
    key = secrets.token_hex(32)
    results = []
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        url = f"sqlite:///{folder / 'practice.sqlite3'}"
        with serving(options.workers, url, key, folder) as server:
            results.append(run(options, [server.port], url, "embedded store (SQLite)",
                               key))
        with (redis_serving(folder) as url,
              serving(options.workers, url, key, folder) as first,
              serving(options.workers, url, key, folder) as second):
            results.append(run(options, [first.port, second.port], url,
                               "two servers sharing one Redis", key))
    return all(results)


if __name__ == "__main__":
    sys.exit(main())
