"""The SQLite store as a storage for the `limits` library (Flask-Limiter's counters).

Importing this module registers the ``sqlite`` scheme with `limits`, so Flask-Limiter
counts in the same file as the rest of the state: ``RATELIMIT_STORAGE_URI`` is simply
BIDDER_STATE_URL. (A ``redis://`` URL needs nothing: `limits` has its own Redis storage.)

A request that is counted costs one transaction, not three: Flask-Limiter reads the
window back (get, then get_expiry) for its X-RateLimit headers right after counting, and
those two reads are answered from the count this thread has just made.
"""

from __future__ import annotations

import threading

from limits.storage import Storage

from .errors import StoreUnavailable
from .sqlite_store import SQLiteStore


class SQLiteLimits(Storage):
    """Fixed-window rate-limit counters in the SQLite state file."""

    STORAGE_SCHEME = ["sqlite"]

    def __init__(self, uri: str, wrap_exceptions: bool = False, **options) -> None:
        super().__init__(uri, wrap_exceptions, **options)
        self.store = SQLiteStore.from_url(uri)
        self.last = threading.local()  # .window: (key, value, end) of this thread's count

    @property
    def base_exceptions(self) -> type[Exception]:
        """What a broken store raises (Flask-Limiter lets requests through on it)."""
        return StoreUnavailable

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        """Count *amount* more in *key*'s window of *expiry* seconds, and remember the
        window for the reads that follow."""
        value, end = self.store.count(key, amount, expiry)
        self.last.window = (key, value, end)
        return value

    def get(self, key: str) -> int:
        """The count in *key*'s window (as this thread's count of it left it)."""
        return self._window(key)[0]

    def get_expiry(self, key: str) -> float:
        """When *key*'s window ends (a Unix time); after it, *key* is read from the file
        again."""
        window = self._window(key)
        self.last.window = None
        return window[1]

    def _window(self, key: str) -> tuple[int, float]:
        """*key*'s count and end: those this thread's count just gave, else the file's."""
        held = getattr(self.last, "window", None)
        if held and held[0] == key:
            return held[1:]
        return self.store.counted(key)

    def check(self) -> bool:
        """Whether the file can be written."""
        try:
            self.store.prepare()
        except StoreUnavailable:
            return False
        return True

    def reset(self) -> int:
        """End every window."""
        self.last.window = None
        return self.store.forget()

    def clear(self, key: str) -> None:
        """End *key*'s window."""
        self.last.window = None
        self.store.forget(key)
