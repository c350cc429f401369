"""The server's one piece of shared state, chosen by a URL (BIDDER_STATE_URL).

``sqlite:///path`` (the default, a file in the instance folder) serves the workers of
one machine; ``redis://host:port/db`` a Redis that several machines share. Both give
the same small API (see ``Store``): put-if-absent with an expiry, get, and counters
grouped under a key, each atomic; and for the live poll, a value overwritten, a
table of text fields under a key, and a field written only while a guard key holds a
given suffix, in a key the guard's value names (so a vote is taken, in the round on
the table, only while its poll is open and from a device that joined it: one round trip
a vote), and a field added only while its key holds fewer than a cap (a class's size). Every failure of the store, whatever its cause,
comes out as ``StoreUnavailable``, so a caller handles one error.
"""

from __future__ import annotations

from typing import Protocol
from urllib.parse import urlsplit

from .errors import StoreUnavailable

__all__ = ["Store", "StoreUnavailable", "open_store", "init_app", "store_of", "SCHEMES",
           "URL_VARIABLE", "persistence_warning"]

SCHEMES = ("sqlite", "redis", "rediss")


class Store(Protocol):
    """What every store offers; keys and values are text, expiries in seconds."""

    url: str

    def prepare(self) -> None:
        """Create what the store needs and write a probe to prove it can be written.

        :raises StoreUnavailable: saying why not.
        """

    def persistence_warning(self) -> str:
        """'' when what the store holds outlives a restart of it, else a sentence saying
        what would be lost and how to keep it.

        :raises StoreUnavailable: when the store cannot be asked.
        """

    def put_if_absent(self, key: str, value: str, ttl: float) -> str | None:
        """Keep *value* under *key* for *ttl* seconds unless the key holds a value
        already: None when it was kept, else the value there first."""

    def get(self, key: str) -> str | None:
        """The value under *key*, or None (never kept, or expired)."""

    def add(self, key: str, field: str, amount: int, ttl: float) -> int:
        """Add *amount* to the counter *field* of *key* (kept *ttl* seconds from now):
        the counter's new value."""

    def tally(self, key: str) -> dict[str, int]:
        """Every counter of *key*, by field; empty when there are none."""

    def put(self, key: str, value: str, ttl: float) -> None:
        """Keep *value* under *key* for *ttl* seconds, whatever it held before."""

    def put_field_by_guard(self, guard: str, suffix: str, prefix: str, field: str,
                           value: str, ttl: float, admit: str = "") -> tuple[str | None, int]:
        """Read *guard* and, when its value ends with *suffix* (not empty), write *value*
        to the text field *field* of the key *prefix* + that value less the suffix (kept
        at least *ttl* seconds from now: the field in SQLite, the whole key in Redis), in
        one atomic step: the guard's value (None when it holds none) and how many fields
        the written key holds (0 when nothing was written). With *admit* (a key), the
        write is made only when the field *field* of *admit* holds '*' or the guard's
        value less the suffix (a device admitted to every round, or to this one)."""

    def put_field_capped(self, key: str, field: str, value: str, cap: int, ttl: float,
                         replace: bool = False) -> tuple[bool, int]:
        """Write *value* to the field *field* of *key* when the key holds fewer than *cap*
        fields; a field there already is kept as it is (overwritten with *replace*), in
        one atomic step, the key kept at least *ttl* seconds from now: whether the field
        is there now, and how many fields the key holds."""

    def fields(self, key: str) -> dict[str, str]:
        """Every text field of *key*; empty when there are none."""


def open_store(url: str) -> Store:
    """The store *url* names.

    :raises ValueError: for a URL of no known scheme, or a sqlite URL without a path,
        saying what to write instead.
    """
    scheme = urlsplit(url).scheme
    if scheme == "sqlite":
        from .sqlite_store import SQLiteStore
        return SQLiteStore.from_url(url)
    if scheme in SCHEMES:
        from .redis_store import RedisStore
        return RedisStore(url)
    raise ValueError(
        f"the state URL {url[:60]!r} names no store this server knows: write "
        f"sqlite:////absolute/path/state.sqlite3 for a file on this machine, or "
        f"redis://host:6379/0 for a Redis that several machines share")


EXTENSION = "bidder.state"
URL_VARIABLE = "BIDDER_STATE_URL"


def init_app(app) -> None:
    """Open the store the app's STATE_URL names and check that it takes writes.

    A store that fails the check does not stop the app: the advisor, the rules, the
    deals and the API need none, and practice says that scores cannot be kept until
    the store answers again; the log says why, and what to do.

    :raises RuntimeError: for a URL that names no store, naming the variable.
    """
    try:
        store = open_store(app.config["STATE_URL"])
    except ValueError as error:
        raise RuntimeError(f"{URL_VARIABLE}: {error}") from None
    app.extensions[EXTENSION] = store
    try:
        store.prepare()
    except StoreUnavailable as trouble:
        app.logger.warning("%s: practice scores cannot be kept until it can; set %s to a "
                           "store the server may write", trouble, URL_VARIABLE)
        return
    warning = persistence_warning(store)
    if warning:
        app.logger.warning("%s", warning)


def persistence_warning(store: Store) -> str:
    """What *store* would lose if it restarted, and how to keep it ('' for nothing, or
    for a store that cannot be asked: its trouble is said elsewhere)."""
    try:
        return store.persistence_warning()
    except StoreUnavailable:
        return ""


def store_of(app) -> Store:
    """The store init_app opened for *app*."""
    return app.extensions[EXTENSION]
