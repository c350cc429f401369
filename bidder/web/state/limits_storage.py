"""The SQLite store as a storage for the `limits` library (Flask-Limiter's counters).

Importing this module registers the ``sqlite`` scheme with `limits`, so Flask-Limiter
counts in the same file as the rest of the state: ``RATELIMIT_STORAGE_URI`` is simply
BIDDER_STATE_URL. (A ``redis://`` URL needs nothing: `limits` has its own Redis storage.)
"""

from __future__ import annotations

from limits.storage import Storage

from .errors import StoreUnavailable
from .sqlite_store import SQLiteStore


class SQLiteLimits(Storage):
    """Fixed-window rate-limit counters in the SQLite state file."""

    STORAGE_SCHEME = ["sqlite"]

    def __init__(self, uri: str, wrap_exceptions: bool = False, **options) -> None:
        super().__init__(uri, wrap_exceptions, **options)
        self.store = SQLiteStore.from_url(uri)

    @property
    def base_exceptions(self) -> type[Exception]:
        """What a broken store raises (Flask-Limiter lets requests through on it)."""
        return StoreUnavailable

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        """Count *amount* more in *key*'s window of *expiry* seconds."""
        return self.store.count(key, amount, expiry)

    def get(self, key: str) -> int:
        """The count in *key*'s window."""
        return self.store.counted(key)[0]

    def get_expiry(self, key: str) -> float:
        """When *key*'s window ends (a Unix time)."""
        return self.store.counted(key)[1]

    def check(self) -> bool:
        """Whether the file can be written."""
        try:
            self.store.prepare()
        except StoreUnavailable:
            return False
        return True

    def reset(self) -> int:
        """End every window."""
        return self.store.forget()

    def clear(self, key: str) -> None:
        """End *key*'s window."""
        self.store.forget(key)
