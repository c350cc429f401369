"""The SQLite store under faults, from both sides: a write lock another program holds
is waited out cooperatively for at most LOCK_SECONDS, then the store is unavailable
(never SQLite's own seconds-long wait, which would hold the gevent loop); a file
overwritten while the server runs is reported by every connection, the one already
open included."""

from __future__ import annotations

import re
import sqlite3
import time
from contextlib import closing
from types import SimpleNamespace

import pytest

from bidder.web.state import StoreUnavailable
from bidder.web.state import sqlite_store
from bidder.web.state.sqlite_store import LOCK_SECONDS, LOCK_STEP_SECONDS, SQLiteStore


class Clock:
    """A clock whose sleeps pass at once, noting each; *then* is run at sleep number
    *at* (to release a lock, say)."""

    def __init__(self, at: int = -1, then=None):
        self.now, self.sleeps, self.at, self.then = 0.0, [], at, then

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds
        if len(self.sleeps) == self.at:
            self.then()


@pytest.fixture
def store(tmp_path):
    made = SQLiteStore(str(tmp_path / "state.sqlite3"))
    made.prepare()
    return made


def outside_lock(path: str) -> sqlite3.Connection:
    """Another program's connection holding *path*'s write lock."""
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    return other


@pytest.mark.parametrize("released_after, written", [
    (3, True),  # the lock is let go within the wait: the write goes through
    (-1, False),  # never let go: unavailable once LOCK_SECONDS have passed
], ids=["a lock let go soon is waited for", "a lock held on is a prompt refusal"])
def test_a_writer_waits_for_an_outside_lock_cooperatively_and_briefly(
        store, monkeypatch, released_after, written):
    other = outside_lock(store.path)
    clock = Clock(released_after, lambda: other.execute("ROLLBACK"))
    monkeypatch.setattr(sqlite_store, "time", SimpleNamespace(
        monotonic=clock.monotonic, sleep=clock.sleep, time=time.time))
    try:
        if written:
            assert store.put_if_absent("k", "v", 60) is None
            assert len(clock.sleeps) == released_after
        else:
            with pytest.raises(StoreUnavailable, match="database is locked"):
                store.put_if_absent("k", "v", 60)
            assert set(clock.sleeps) == {LOCK_STEP_SECONDS}
            assert sum(clock.sleeps) == pytest.approx(LOCK_SECONDS, abs=LOCK_STEP_SECONDS)
    finally:
        other.close()
    assert store.get("k") == ("v" if written else None)


def test_sqlites_own_wait_is_a_few_hundredths_of_a_second(store):
    with closing(store._connect()) as db:
        assert db.execute("PRAGMA busy_timeout").fetchone()[0] <= 50


def test_an_error_other_than_a_lock_is_not_waited_for(store, monkeypatch):
    clock = Clock()
    monkeypatch.setattr(sqlite_store, "time", SimpleNamespace(
        monotonic=clock.monotonic, sleep=clock.sleep, time=time.time))
    db = sqlite3.connect(":memory:", isolation_level=None)
    db.execute("BEGIN")
    with pytest.raises(sqlite3.OperationalError, match="within a transaction"):
        sqlite_store.begin(db)
    assert clock.sleeps == []


def overwrite(path: str, how: str) -> None:
    """Break the file at *path* while it is in use, the way *how* names."""
    size = len(open(path, "rb").read())
    if how == "header overwritten":
        with open(path, "r+b") as file:
            file.write(b"garbage" * 20)
    elif how == "emptied":
        open(path, "w").close()
    elif how == "cut mid-page":
        with open(path, "r+b") as file:
            file.truncate(size - 100)
    else:
        assert how == "untouched"


@pytest.mark.parametrize("how, refused", [
    ("header overwritten", True), ("emptied", True), ("cut mid-page", True),
    ("untouched", False)])
def test_a_file_overwritten_while_in_use_is_reported_by_every_connection(
        store, how, refused):
    store.put("k", "v", 60)
    assert store.get("k") == "v"  # this process's connection is open and kept
    overwrite(store.path, how)
    fresh = SQLiteStore(store.path, pragmas=("PRAGMA cache_size=100",))  # opens anew
    for one in (store, fresh):
        if refused:
            with pytest.raises(StoreUnavailable, match="not a database"):
                one.get("k")
        else:
            assert one.get("k") == "v"


# Through the app: a vote and a practice answer, the file locked or not ------------------

HAND = "AS KH 10H 8H 7H AD JD 9D 10C 8C 5C 4C 2C"
STEP = 0.1  # between tries for the write lock, in these tests


def practice_answer(client):
    """Answer the hand on the table with 1C, as the page's form does."""
    page = client.get("/practice").get_data(as_text=True)
    hand = re.search(r'name="hand" value="([^"]+)"', page).group(1)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    return client.post("/practice/answer", data={"csrf_token": token, "hand": hand,
                                                 "bid": "1C"})


def api_vote(client):
    """A vote through the poll API, on a poll opened before the lock."""
    code = client.post("/api/polls", json={"hand": HAND}).get_json()["code"]
    assert client.post(f"/api/polls/{code}/join").status_code == 200
    return lambda: client.post(f"/api/polls/{code}/votes", json={"bid": "1C"})


@pytest.mark.parametrize("door", ["a vote", "a practice answer"])
@pytest.mark.parametrize("locked", [True, False], ids=["locked: 503", "free: counted"])
def test_a_locked_file_is_a_prompt_503_saying_so_at_each_door(app, client, monkeypatch,
                                                             door, locked):
    send = api_vote(client) if door == "a vote" else (lambda: practice_answer(client))
    client.get("/practice")
    clock = Clock()
    monkeypatch.setattr(sqlite_store, "time", SimpleNamespace(
        monotonic=clock.monotonic, sleep=clock.sleep, time=time.time))
    # each try also waits SQLite's own busy timeout, in real time: fewer, longer steps
    monkeypatch.setattr(sqlite_store, "LOCK_STEP_SECONDS", STEP)
    other = outside_lock(app.config["STATE_URL"][len("sqlite:///"):]) if locked else None
    try:
        response = send()
    finally:
        if other:
            other.close()
    if not locked:
        assert response.status_code in (200, 303)
        return
    assert response.status_code == 503
    assert response.headers["Retry-After"]
    text = response.get_data(as_text=True)
    assert "cannot keep polls just now" in text or "Scores cannot be kept just now" in text
    assert sum(clock.sleeps) <= 2 * (LOCK_SECONDS + STEP)  # the limit's, the write's
