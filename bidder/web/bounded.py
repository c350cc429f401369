"""Caches bounded by bytes, not by count: rendered pages (``PageCache``) and the parts of
pages a function renders once for each of its arguments (``memo_within``).

A cache bounded by count grows with the size of what it keeps: 256 deal pages of up to
500 KB each let 600 seeds grow a worker by 330 MB, and 65,536 rendered parts of a hand
would take 30 to 60 MB. Bounded by bytes, a worker's memory stops growing once its
caches are full, whatever is asked for; the least recently used entry goes first.
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from functools import wraps

# What an entry costs beyond its value, in a function's memo: the key's tuple and the
# ordered dict's node (measured with tracemalloc: about 200 bytes for a part's key).
ENTRY_BYTES = 200


class PageCache:
    """Rendered pages by key, the least recently used dropped once the pages together
    (each counted as its own size plus *overhead* bytes) take more than *budget*."""

    def __init__(self, budget: int, overhead: int = 0):
        self.budget = budget
        self.overhead = overhead
        self.pages: OrderedDict = OrderedDict()
        self.size = 0
        self.hits = self.misses = 0
        self.lock = threading.Lock()

    def get(self, key) -> str | None:
        """The page kept for *key*, or None (each counted, a hit or a miss)."""
        with self.lock:
            page = self.pages.get(key)
            if page is None:
                self.misses += 1
            else:
                self.pages.move_to_end(key)
                self.hits += 1
            return page

    def cost(self, page: str) -> int:
        """The bytes *page* is counted as."""
        return sys.getsizeof(page) + self.overhead

    def put(self, key, page: str) -> None:
        """Keep *page* for *key*, dropping the oldest pages to stay within the budget (a
        page larger than the whole budget is not kept)."""
        cost = self.cost(page)
        with self.lock:
            if cost > self.budget or key in self.pages:
                return
            self.pages[key] = page
            self.size += cost
            while self.size > self.budget:
                _, dropped = self.pages.popitem(last=False)
                self.size -= self.cost(dropped)

    def clear(self) -> None:
        """Forget every page."""
        with self.lock:
            self.pages.clear()
            self.size = 0


def memo_within(budget: int):
    """A decorator keeping a function's results (text, by its hashable positional
    arguments) within *budget* bytes; the cache is the function's ``cache``."""
    def decorate(function):
        cache = PageCache(budget, ENTRY_BYTES)

        @wraps(function)
        def remembered(*args):
            found = cache.get(args)
            if found is None:
                found = function(*args)
                cache.put(args, found)
            return found

        remembered.cache = cache
        return remembered
    return decorate
