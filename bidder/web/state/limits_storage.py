"""The state store as a storage for the `limits` library (Flask-Limiter's counters).

Importing this module registers the ``sqlite`` scheme with `limits`, so Flask-Limiter
counts in the same file as the rest of the state: ``RATELIMIT_STORAGE_URI`` is simply
BIDDER_STATE_URL. It registers ``redis`` and ``rediss`` too, with `limits`' own Redis
storage made to count in one script that also answers when the window ends.

On either, a request that is counted costs one round trip to the store, not three:
Flask-Limiter reads the window back (get, then get_expiry) for its X-RateLimit headers
right after counting, and those two reads are answered from the count this thread (or
greenlet) has just made.
"""

from __future__ import annotations

import threading
import time

from limits.storage import RedisStorage, Storage

from .errors import StoreUnavailable
from .sqlite_store import SQLiteStore

# KEYS: the counter; ARGV: the window in seconds, the amount. `limits`' own count, and
# the milliseconds left in the window.
COUNT_AND_END = """
local current = redis.call('INCRBY', KEYS[1], ARGV[2])
if tonumber(current) == tonumber(ARGV[2]) then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return {current, redis.call('PTTL', KEYS[1])}
"""


class Remembered:
    """Counters whose window, read right after a count, is the one the count gave.

    A storage that mixes this in gives count_window(key, expiry, amount), which counts
    and answers the count and the window's end (a Unix time), and read_window(key), which
    reads both from the store; and it sets ``self.last = threading.local()``.
    """

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        """Count *amount* more in *key*'s window of *expiry* seconds, and remember the
        window for the reads that follow."""
        value, end = self.count_window(key, expiry, amount)
        self.last.window = (key, value, end)
        return value

    def get(self, key: str) -> int:
        """The count in *key*'s window (as this thread's count of it left it)."""
        return self._window(key)[0]

    def get_expiry(self, key: str) -> float:
        """When *key*'s window ends (a Unix time); after it, *key* is read from the store
        again."""
        window = self._window(key)
        self.last.window = None
        return window[1]

    def _window(self, key: str) -> tuple[int, float]:
        """*key*'s count and end: those this thread's count just gave, else the store's."""
        held = getattr(self.last, "window", None)
        if held and held[0] == key:
            return held[1:]
        return self.read_window(key)

    def forget_window(self) -> None:
        """Drop the window remembered (its counter was cleared)."""
        self.last.window = None


class SQLiteLimits(Remembered, Storage):
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

    def count_window(self, key: str, expiry: int, amount: int) -> tuple[int, float]:
        """See Remembered.count_window: one transaction."""
        return self.store.count(key, amount, expiry)

    def read_window(self, key: str) -> tuple[int, float]:
        """See Remembered.read_window."""
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
        self.forget_window()
        return self.store.forget()

    def clear(self, key: str) -> None:
        """End *key*'s window."""
        self.forget_window()
        self.store.forget(key)


class RedisLimits(Remembered, RedisStorage):
    """`limits`' Redis counters, each count one script that also says when its window
    ends."""

    STORAGE_SCHEME = ["redis", "rediss"]

    def initialize_storage(self, uri: str) -> None:
        """`limits`' scripts, and the one that counts and says the window's end."""
        super().initialize_storage(uri)
        self.count_and_end = self.get_connection().register_script(COUNT_AND_END)
        self.last = threading.local()

    def count_window(self, key: str, expiry: int, amount: int) -> tuple[int, float]:
        """See Remembered.count_window: one script."""
        value, left_ms = self.count_and_end([self.prefixed_key(key)], [expiry, amount])
        return int(value), time.time() + max(left_ms, 0) / 1000

    def read_window(self, key: str) -> tuple[int, float]:
        """See Remembered.read_window: `limits`' own reads."""
        return RedisStorage.get(self, key), RedisStorage.get_expiry(self, key)

    def clear(self, key: str) -> None:
        """End *key*'s window."""
        self.forget_window()
        super().clear(key)

    def reset(self) -> int | None:
        """End every window."""
        self.forget_window()
        return super().reset()
