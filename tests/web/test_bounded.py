"""Caches bounded by bytes: pages, and the parts a function renders once for each of its
arguments, the least recently used dropped first."""

import sys

from hypothesis import given
from hypothesis import strategies as st

from bidder.web import render
from bidder.web.bounded import ENTRY_BYTES, PageCache, memo_within


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


@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 3000)), max_size=60),
       st.integers(0, 500))
def test_an_overhead_per_entry_is_counted_too(puts, overhead):
    cache = PageCache(budget=20_000, overhead=overhead)
    for key, length in puts:
        cache.put(key, "p" * length)
        assert cache.size == sum(sys.getsizeof(page) + overhead
                                 for page in cache.pages.values()) <= 20_000


def test_a_memo_computes_once_per_arguments_while_they_are_kept():
    calls = []

    @memo_within(budget=3 * (sys.getsizeof("a-1") + ENTRY_BYTES))
    def drawn(name: str, number: int) -> str:
        """A part drawn for *name* and *number*."""
        calls.append((name, number))
        return f"{name}-{number}"

    assert [drawn("a", 1), drawn("a", 1), drawn("b", 2)] == ["a-1", "a-1", "b-2"]
    assert calls == [("a", 1), ("b", 2)] and drawn.cache.hits == 1
    for number in range(3, 6):  # three more: ("a", 1) and ("b", 2) are dropped
        drawn("c", number)
    drawn("a", 1)
    assert calls[-1] == ("a", 1) and len(calls) == 6
    assert drawn.__doc__ == "A part drawn for *name* and *number*."


def test_the_parts_of_many_distinct_hands_are_kept_within_their_budgets(app):
    with app.test_request_context("/"):
        for code in range(2_000):
            render.suit_by_suit("_hand_suit.html", code * 0x9E3779B1 % (1 << 52))
            render.part("_nav.html", current=f"/{code}")
    for cache, budget in ((render._suit_part.cache, render.SUIT_PARTS_BUDGET),
                          (render._part.cache, render.PARTS_BUDGET)):
        assert 0 < cache.size <= budget


def test_a_class_of_a_thousand_hands_in_turn_is_drawn_from_kept_parts(app):
    """The advisor's page for 1,000 dealt hands in turn, twice: the second time round
    every part is one kept the first time (budgets too small for a class's hands drop
    each part before it is asked for again)."""
    from urllib.parse import quote

    from bidder.dealing import random_hand
    client = app.test_client()
    paths = [f"/?hand={quote(str(random_hand(seed)))}" for seed in range(1_000)]
    for path in paths:
        assert client.get(path).status_code == 200
    caches = (render._suit_part.cache, render._part.cache)
    missed = [cache.misses for cache in caches]
    for path in paths:
        client.get(path)
    assert [cache.misses for cache in caches] == missed
