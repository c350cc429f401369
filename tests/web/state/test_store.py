"""The state store, the same table of behaviour for the SQLite file and a real Redis."""

import os
import sqlite3
import threading
import time
from contextlib import closing

import pytest
import redis

from helpers import unique_key as key

from bidder.web.state import StoreUnavailable, open_store
from bidder.web.state.redis_store import RedisStore, milliseconds, without_password
from bidder.web.state.sqlite_store import SQLiteStore


def test_put_if_absent_keeps_the_first_value_and_hands_it_back(store):
    name = key()
    assert store.put_if_absent(name, "1C", 60) is None
    assert store.put_if_absent(name, "2NT", 60) == "1C"
    assert store.get(name) == "1C"
    assert store.get(key()) is None


def test_a_value_is_forgotten_once_it_expires(store):
    name = key()
    assert store.put_if_absent(name, "first", 0.05) is None
    deadline = time.monotonic() + 5
    while store.get(name) is not None:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    assert store.put_if_absent(name, "second", 60) is None
    assert store.get(name) == "second"


def test_counters_add_up_under_their_key_and_expire_with_it(store):
    poll = key()
    assert store.tally(poll) == {}
    assert store.add(poll, "1NT", 1, 60) == 1
    assert store.add(poll, "1NT", 2, 60) == 3
    assert store.add(poll, "Pass", 1, 60) == 1
    assert store.tally(poll) == {"1NT": 3, "Pass": 1}
    short = key()
    store.add(short, "1C", 1, 0.05)
    deadline = time.monotonic() + 5
    while store.tally(short):
        assert time.monotonic() < deadline
        time.sleep(0.02)
    assert store.add(short, "1C", 1, 60) == 1


def test_many_threads_putting_one_key_agree_on_a_single_first(store):
    name, results = key(), []

    def put(value):
        results.append(store.put_if_absent(name, value, 60))

    threads = [threading.Thread(target=put, args=(str(n),)) for n in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    firsts = [value for value in results if value is not None]
    assert results.count(None) == 1
    assert len(set(firsts)) == 1 and len(firsts) == 15
    assert store.get(name) == firsts[0]


def test_many_threads_counting_lose_no_count(store):
    poll = key()
    threads = [threading.Thread(target=lambda: [store.add(poll, "1S", 1, 60)
                                                for _ in range(10)]) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert store.tally(poll) == {"1S": 80}


# The SQLite file -----------------------------------------------------------------------

def test_the_file_is_in_wal_mode_and_pruned_as_it_is_written(tmp_path):
    store = SQLiteStore(str(tmp_path / "s.sqlite3"))
    store.prepare()
    store.put_if_absent("old", "x", 0.001)
    store.add("old-poll", "1C", 1, 0.001)
    time.sleep(0.01)
    store.put_if_absent("new", "y", 60)
    with sqlite3.connect(store.path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert db.execute("SELECT key FROM entries").fetchall() == [("new",)]
        assert db.execute("SELECT count(*) FROM counters").fetchone() == (0,)


@pytest.mark.parametrize("url, path", [("sqlite:////tmp/x/state.db", "/tmp/x/state.db"),
                                       ("sqlite:///state.db", "state.db")])
def test_a_sqlite_url_names_an_absolute_or_a_relative_file(url, path):
    store = open_store(url)
    assert store == SQLiteStore(path)
    assert store.url == url


@pytest.mark.parametrize("url, words", [
    ("sqlite://", "has no file"), ("sqlite:///", "has no file"),
    ("postgres://db/state", "names no store"), ("/var/state.db", "names no store"),
])
def test_a_url_of_no_store_is_refused_saying_what_to_write(url, words):
    with pytest.raises(ValueError, match=words) as raised:
        open_store(url)
    assert "sqlite:////" in str(raised.value)


def broken(store: SQLiteStore, how: str) -> SQLiteStore:
    """*store*, prepared, then broken in the way *how* names."""
    store.prepare()
    path = store.path
    if how == "deleted":
        for suffix in ("", "-wal", "-shm"):
            open(path + suffix, "a").close()
            os.remove(path + suffix)
        return store
    if how == "corrupt":
        with open(path, "r+b") as file:
            file.write(b"this is not a database, it was overwritten" * 200)
        for suffix in ("-wal", "-shm"):
            if os.path.exists(path + suffix):
                os.remove(path + suffix)
        return store
    if how == "read-only":  # as root, file modes do not stop writes: SQLite's own switch
        return SQLiteStore(path, pragmas=("PRAGMA query_only=ON",))
    assert how == "full"  # no room for one more page, and none free inside (VACUUM)
    with closing(sqlite3.connect(path)) as db:
        db.execute("VACUUM")
        pages = db.execute("PRAGMA page_count").fetchone()[0]
    return SQLiteStore(path, pragmas=(f"PRAGMA max_page_count={pages}",))


@pytest.mark.parametrize("how", ["deleted", "corrupt", "read-only", "full"])
def test_a_broken_file_raises_store_unavailable_naming_it(tmp_path, how):
    store = broken(SQLiteStore(str(tmp_path / "s.sqlite3")), how)
    calls = [lambda: store.put_if_absent("k" * 3000, "v" * 30000, 60),
             lambda: store.add("poll" * 500, "f" * 30000, 1, 60)]
    if how in ("deleted", "corrupt"):
        calls += [lambda: store.get("k"), lambda: store.tally("poll")]
    for call in calls:
        with pytest.raises(StoreUnavailable) as raised:
            call()
        assert str(raised.value).startswith(f"the state file {store.path} cannot be used (")


@pytest.mark.parametrize("how", ["corrupt", "read-only", "full"])
def test_the_start_up_check_writes_so_a_broken_file_fails_it(tmp_path, how):
    store = broken(SQLiteStore(str(tmp_path / "s.sqlite3")), how)
    with pytest.raises(StoreUnavailable, match="cannot be used"):
        store.prepare()


def test_the_start_up_check_fails_where_no_file_can_be_made(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    for place in (blocker / "state.sqlite3", tmp_path):
        with pytest.raises(StoreUnavailable, match=f"the state file {place} cannot be used"):
            SQLiteStore(str(place)).prepare()


# Redis --------------------------------------------------------------------------------

def test_a_redis_that_is_not_there_raises_store_unavailable_quickly():
    from ports import free_port
    store = RedisStore(f"redis://:secret@127.0.0.1:{free_port()}/0")
    for call in (store.prepare, lambda: store.get("k"), lambda: store.tally("k"),
                 lambda: store.put_if_absent("k", "v", 1), lambda: store.add("k", "f", 1, 1)):
        with pytest.raises(StoreUnavailable) as raised:
            call()
        assert str(raised.value).startswith("the Redis at redis://:***@127.0.0.1:")
        assert "secret" not in str(raised.value)


@pytest.mark.parametrize("url, shown", [
    ("redis://h:6379/0", "redis://h:6379/0"),
    ("redis://user:pw@h:6379/0", "redis://user:***@h:6379/0"),
    ("rediss://:pw@h/1", "rediss://:***@h/1"),
])
def test_a_password_never_shows_in_a_message(url, shown):
    assert without_password(url) == shown


@pytest.mark.parametrize("seconds, expected", [(0, 1), (0.0004, 1), (0.0006, 1), (1, 1000),
                                               (2.5, 2500)])
def test_expiries_are_whole_milliseconds_never_zero(seconds, expected):
    assert milliseconds(seconds) == expected


def test_redis_errors_are_the_redis_kind(redis_url):
    assert isinstance(open_store(redis_url).client, redis.Redis)
