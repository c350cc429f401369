"""The store's text fields and guarded writes (the live poll's votes), for the SQLite
file and a real Redis alike."""

import threading
import time

import pytest

from helpers import unique_key as key

from bidder.web.state import StoreUnavailable
from bidder.web.state.redis_store import RedisStore
from bidder.web.state.sqlite_store import SQLiteStore


def test_put_overwrites_what_the_key_held(store):
    name = key()
    store.put(name, "open", 60)
    store.put(name, "closed", 60)
    assert store.get(name) == "closed"
    assert store.put_if_absent(name, "again", 60) == "closed"


def vote(store, guard, device, bid="1C", ttl=60):
    """Write *device*'s field in the votes of the round *guard* says is open."""
    return store.put_field_by_guard(guard, ":open", "votes:", device, bid, ttl)


@pytest.mark.parametrize("guard_holds, written", [
    ("0:open", "votes:0"), ("3:open", "votes:3"), ("0:closed", None), ("0:opener", None),
    ("open", None), (":open", "votes:"), (None, None)])
def test_a_field_is_written_only_while_the_guard_ends_with_the_suffix(
        store, guard_holds, written):
    guard = key()
    if guard_holds is not None:
        store.put(guard, guard_holds, 60)
    assert vote(store, guard, "device") == (guard_holds, 1 if written else 0)
    for round_ in ("votes:0", "votes:3", "votes:"):
        assert store.fields(round_) == ({"device": "1C"} if round_ == written else {})


def test_a_second_write_of_a_field_replaces_the_first_and_counts_once(store):
    guard = key()
    store.put(guard, "0:open", 60)
    assert vote(store, guard, "a") == ("0:open", 1)
    assert vote(store, guard, "b", "1NT") == ("0:open", 2)
    assert vote(store, guard, "a", "None") == ("0:open", 2)
    assert store.fields("votes:0") == {"a": "None", "b": "1NT"}
    assert store.fields(key()) == {}


@pytest.mark.parametrize("admitted, written", [
    (None, False), ("*", True), ("0", True), ("1", False), ("-", False), ("", False)],
    ids=["a-device-never-admitted-is-refused", "admitted-to-every-round",
         "admitted-to-this-round", "admitted-to-another-round", "admitted-to-none",
         "an-empty-admission-admits-nothing"])
def test_a_field_is_written_only_for_a_field_the_admitting_key_admits_to_the_round(
        store, admitted, written):
    guard, devices = key(), key()
    store.put(guard, "0:open", 60)
    store.put_field_capped(devices, "other", "*", 10, 60)
    if admitted is not None:
        store.put_field_capped(devices, "device", admitted, 10, 60)
    assert store.put_field_by_guard(guard, ":open", "votes:", "device", "1C", 60,
                                    admit=devices) == ("0:open", int(written))
    assert store.fields("votes:0") == ({"device": "1C"} if written else {})


@pytest.mark.parametrize("held, field, cap, replace, answer, after", [
    ({}, "a", 1, False, (True, 1), {"a": "new"}),
    ({}, "a", 0, False, (False, 0), {}),
    ({"b": "x"}, "a", 1, False, (False, 1), {"b": "x"}),
    ({"b": "x"}, "a", 2, False, (True, 2), {"a": "new", "b": "x"}),
    ({"a": "x", "b": "x"}, "a", 2, False, (True, 2), {"a": "x", "b": "x"}),
    ({"a": "x", "b": "x"}, "a", 1, False, (True, 2), {"a": "x", "b": "x"}),
    ({"a": "x"}, "a", 0, True, (True, 1), {"a": "new"}),
    ({"b": "x"}, "a", 0, True, (False, 1), {"b": "x"}),
], ids=["added-below-the-cap", "refused-at-a-cap-of-none", "refused-at-the-cap",
        "added-one-below-the-cap", "a-field-there-is-kept-as-it-is",
        "a-field-there-is-kept-above-the-cap", "replaced-when-asked",
        "never-added-by-a-replace-at-a-cap-of-none"])
def test_a_capped_field_is_added_only_below_the_cap(store, held, field, cap, replace,
                                                    answer, after):
    name = key()
    for there, value in held.items():
        store.put_field_capped(name, there, value, 10, 60)
    assert store.put_field_capped(name, field, "new", cap, 60, replace) == answer
    assert store.fields(name) == after


def test_threads_joining_at_once_never_pass_the_cap(store):
    name, taken = key(), []
    threads = [threading.Thread(target=lambda n=n: taken.append(
        store.put_field_capped(name, str(n), "*", 5, 60)[0])) for n in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert taken.count(True) == 5 and len(store.fields(name)) == 5


def test_fields_expire_with_their_key(store):
    guard = key()
    store.put(guard, "0:open", 60)
    vote(store, guard, "a", ttl=0.05)
    deadline = time.monotonic() + 5
    while store.fields("votes:0"):
        assert time.monotonic() < deadline
        time.sleep(0.02)


def test_threads_voting_while_another_closes_leave_no_vote_after_the_close(store):
    guard, taken = key(), []
    store.put(guard, "0:open", 60)

    def one(device):
        if vote(store, guard, device)[1]:
            taken.append(device)

    threads = [threading.Thread(target=one, args=(str(n),)) for n in range(12)]
    for thread in threads[:6]:
        thread.start()
    store.put(guard, "0:closed", 60)
    for thread in threads[6:]:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(store.fields("votes:0")) == sorted(taken)
    assert not set(taken) & {str(n) for n in range(6, 12)}


def test_many_threads_voting_lose_no_vote(store):
    guard = key()
    store.put(guard, "0:open", 60)
    threads = [threading.Thread(target=vote, args=(store, guard, str(n), "2C"))
               for n in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(store.fields("votes:0")) == 16


def test_a_broken_file_or_an_absent_redis_fails_the_new_calls_as_store_unavailable(tmp_path):
    from ports import free_port
    for store in (SQLiteStore(str(tmp_path / "never-made.sqlite3")),
                  RedisStore(f"redis://127.0.0.1:{free_port()}/0")):
        for call in (lambda: store.put("k", "v", 1), lambda: store.fields("k"),
                     lambda: store.put_field_by_guard("g", ":x", "k", "f", "v", 1),
                     lambda: store.put_field_capped("k", "f", "v", 1, 1)):
            with pytest.raises(StoreUnavailable):
                call()
