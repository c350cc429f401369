"""The store's text fields and guarded writes (the live poll's votes), for the SQLite
file and a real Redis alike."""

import threading
import time
import uuid

import pytest

from bidder.web.state import StoreUnavailable, open_store
from bidder.web.state.redis_store import RedisStore
from bidder.web.state.sqlite_store import SQLiteStore


@pytest.fixture(params=["sqlite", "redis"])
def store(request, tmp_path):
    """A prepared, empty store of each kind."""
    if request.param == "sqlite":
        store = open_store(f"sqlite:///{tmp_path / 'state.sqlite3'}")
    else:
        store = open_store(request.getfixturevalue("redis_url"))
        store.client.flushdb()
    store.prepare()
    return store


def key() -> str:
    return f"test:{uuid.uuid4().hex}"


def test_put_overwrites_what_the_key_held(store):
    name = key()
    store.put(name, "open", 60)
    store.put(name, "closed", 60)
    assert store.get(name) == "closed"
    assert store.put_if_absent(name, "again", 60) == "closed"


@pytest.mark.parametrize("guard_holds, written", [
    ("0:open", True), ("0:closed", False), ("1:open", False), (None, False)])
def test_a_field_is_written_only_while_the_guard_holds_the_value(store, guard_holds, written):
    votes, guard = key(), key()
    if guard_holds is not None:
        store.put(guard, guard_holds, 60)
    assert store.put_field_if(votes, "device", "1C", 60, guard, "0:open") is written
    assert store.fields(votes) == ({"device": "1C"} if written else {})


def test_a_second_write_of_a_field_replaces_the_first(store):
    votes, guard = key(), key()
    store.put(guard, "0:open", 60)
    assert store.put_field_if(votes, "a", "1C", 60, guard, "0:open")
    assert store.put_field_if(votes, "b", "1NT", 60, guard, "0:open")
    assert store.put_field_if(votes, "a", "None", 60, guard, "0:open")
    assert store.fields(votes) == {"a": "None", "b": "1NT"}
    assert store.fields(key()) == {}


def test_fields_expire_with_their_key(store):
    votes, guard = key(), key()
    store.put(guard, "0:open", 60)
    store.put_field_if(votes, "a", "1C", 0.05, guard, "0:open")
    deadline = time.monotonic() + 5
    while store.fields(votes):
        assert time.monotonic() < deadline
        time.sleep(0.02)


def test_threads_voting_while_another_closes_leave_no_vote_after_the_close(store):
    votes, guard, taken = key(), key(), []
    store.put(guard, "0:open", 60)

    def vote(device):
        if store.put_field_if(votes, device, "1C", 60, guard, "0:open"):
            taken.append(device)

    threads = [threading.Thread(target=vote, args=(str(n),)) for n in range(12)]
    for thread in threads[:6]:
        thread.start()
    store.put(guard, "0:closed", 60)
    for thread in threads[6:]:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(store.fields(votes)) == sorted(taken)
    assert not set(taken) & {str(n) for n in range(6, 12)}


def test_many_threads_voting_lose_no_vote(store):
    votes, guard = key(), key()
    store.put(guard, "0:open", 60)
    threads = [threading.Thread(target=store.put_field_if,
                                args=(votes, str(n), "2C", 60, guard, "0:open"))
               for n in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(store.fields(votes)) == 16


def test_a_broken_file_or_an_absent_redis_fails_the_new_calls_as_store_unavailable(tmp_path):
    from redis_server import free_port
    for store in (SQLiteStore(str(tmp_path / "never-made.sqlite3")),
                  RedisStore(f"redis://127.0.0.1:{free_port()}/0")):
        for call in (lambda: store.put("k", "v", 1), lambda: store.fields("k"),
                     lambda: store.put_field_if("k", "f", "v", 1, "g", "x")):
            with pytest.raises(StoreUnavailable):
                call()
