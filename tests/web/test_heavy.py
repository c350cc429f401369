"""Heavy requests bounded per worker: a cap on sets and board files at once (503 with
Retry-After beyond it), and a page cache bounded by bytes."""

import sys
from contextlib import ExitStack

import pytest
from hypothesis import given
from hypothesis import strategies as st
from werkzeug.exceptions import ServiceUnavailable

from bidder.web.boards import UPLOADS
from bidder.web.heavy import AT_ONCE, Cap, PageCache
from bidder.web.teach import PAGES, SETS
from test_boards import send


def test_a_cap_takes_its_limit_then_turns_one_more_away_until_a_slot_frees():
    cap = Cap("sets", limit=2)
    with cap.held(), cap.held():
        with pytest.raises(ServiceUnavailable) as raised:
            with cap.held():
                pass  # never reached
        assert raised.value.retry_after == 1
        assert "busy with other sets right now" in raised.value.description
    with cap.held():
        pass


def test_a_slot_is_freed_when_the_work_fails():
    cap = Cap("sets", limit=1)
    with pytest.raises(ValueError):
        with cap.held():
            raise ValueError
    with cap.held():
        pass


def busy(cap: Cap) -> ExitStack:
    """Every slot of *cap* taken, as by other requests running."""
    stack = ExitStack()
    for _ in range(AT_ONCE):
        stack.enter_context(cap.held())
    return stack


def test_a_set_beyond_the_cap_is_a_503_saying_to_retry_and_single_hands_still_deal(client):
    PAGES.clear()
    with busy(SETS):
        refused = client.get("/deal?print=1&seed=11&count=40")
        assert refused.status_code == 503
        assert refused.headers["Retry-After"] == "1"
        page = refused.get_data(as_text=True)
        assert "Server busy" in page
        assert "busy with other printable sets and large deals right now" in page
        assert client.get("/deal?seed=11&bid=1NT").status_code == 200
    assert client.get("/deal?print=1&seed=11&count=40").status_code == 200
    with busy(SETS):  # a set already rendered is served from the cache, no slot needed
        assert client.get("/deal?print=1&seed=11&count=40").status_code == 200


def test_a_board_file_beyond_the_cap_is_a_503(client):
    with busy(UPLOADS):
        refused = send(client, text="[Board \"1\"]\n")
        assert refused.status_code == 503
        assert "busy with other board files right now" in refused.get_data(as_text=True)
    assert send(client, text="nothing").status_code == 400


def test_the_cache_keeps_pages_within_its_byte_budget_dropping_the_oldest():
    page = "x" * 1000
    cost = sys.getsizeof(page)
    cache = PageCache(budget=3 * cost)
    for key in "abc":
        cache.put(key, page)
    assert cache.get("a") == page  # a is now the most recent
    cache.put("d", page)
    assert [cache.get(key) is not None for key in "abcd"] == [True, False, True, True]
    assert cache.size == 3 * cost
    cache.put("d", "y" * 1000)  # kept already: unchanged
    assert cache.get("d") == page
    cache.put("huge", "z" * 10_000)  # larger than the whole budget: never kept
    assert cache.get("huge") is None and cache.size == 3 * cost
    cache.clear()
    assert (cache.size, cache.get("a")) == (0, None)
    assert cache.hits == 5


@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 3000)), max_size=60))
def test_the_cache_never_holds_more_than_its_budget(puts):
    cache = PageCache(budget=20_000)
    for key, length in puts:
        cache.put(key, "p" * length)
        assert cache.size == sum(map(sys.getsizeof, cache.pages.values())) <= 20_000


def test_ten_thousand_distinct_pages_keep_the_cache_within_budget():
    cache = PageCache(budget=1_000_000)
    for seed in range(10_000):
        cache.put(seed, f"{seed}" * 500)
    assert cache.size <= 1_000_000
    assert len(cache.pages) < 10_000
