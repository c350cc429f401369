"""The SQLite store puts each operation's connection back for the next, a few per file
and process, and uses one again only while the path still names its file."""

import os
from contextlib import ExitStack

import pytest

from bidder.web.state import StoreUnavailable
from bidder.web.state import sqlite_store
from bidder.web.state.sqlite_store import IDLE_CONNECTIONS, IDLE_FILES, SQLiteStore


def prepared(path) -> SQLiteStore:
    store = SQLiteStore(str(path))
    store.prepare()
    return store


def idle(store: SQLiteStore) -> list:
    return sqlite_store._IDLE.get((store.path, store.pragmas, os.getpid()), [])


def test_an_operation_reuses_the_connection_the_last_one_put_back(tmp_path):
    store = prepared(tmp_path / "s.sqlite3")
    store.put("k", "v", 60)
    (kept,) = [db for db, _ in idle(store)]
    assert store.get("k") == "v"
    assert [db for db, _ in idle(store)] == [kept]


def test_a_deleted_file_is_reported_and_one_made_anew_is_read_anew(tmp_path):
    store = prepared(tmp_path / "s.sqlite3")
    store.put("k", "in the old file", 60)
    for suffix in ("", "-wal", "-shm"):
        os.remove(store.path + suffix)
    with pytest.raises(StoreUnavailable, match="No such file"):
        store.get("k")
    store.prepare()  # a worker starting again makes the file anew
    assert store.get("k") is None


def test_at_most_idle_connections_are_kept_however_many_ran_at_once(tmp_path):
    store = prepared(tmp_path / "s.sqlite3")
    with ExitStack() as stack:
        for _ in range(IDLE_CONNECTIONS + 2):
            stack.enter_context(store._session())
    assert len(idle(store)) == IDLE_CONNECTIONS
    assert store.put_if_absent("k", "v", 60) is None


def test_connections_are_kept_for_a_few_files_only_the_latest_used(tmp_path):
    stores = [prepared(tmp_path / f"s{number}.sqlite3") for number in range(IDLE_FILES + 1)]
    for store in stores:
        store.put("k", store.path, 60)
    assert idle(stores[0]) == [] and all(idle(store) for store in stores[1:])
    assert [store.get("k") for store in stores] == [store.path for store in stores]


def test_a_process_keeps_a_file_open_for_a_few_files_only_the_latest_opened(tmp_path):
    stores = [prepared(tmp_path / f"k{number}.sqlite3") for number in range(IDLE_FILES + 2)]
    for store in stores:
        store.put("k", store.path, 60)
    kept = [path for path, process in sqlite_store._KEEPERS if process == os.getpid()]
    assert kept[-IDLE_FILES:] == [store.path for store in stores[-IDLE_FILES:]]
    assert len(kept) == IDLE_FILES
    assert [store.get("k") for store in stores] == [store.path for store in stores]
