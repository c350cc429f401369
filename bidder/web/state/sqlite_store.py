"""The embedded store: a SQLite file every worker on the machine shares.

WAL journal (readers never wait for the writer) and immediate transactions (a writer
takes the lock at BEGIN, so two writers queue instead of failing with "database is
locked" half-way). Each operation opens its own connection in read-write mode without
create: a file deleted while the server runs is reported, not silently made anew.
Expired entries are pruned as new ones are written.

A write costs a fraction of a millisecond, not tens: synchronous=NORMAL (in WAL mode a
commit survives a crash of the server; only a power cut may lose the last ones), and
each process keeps one idle connection open, so that closing an operation's connection
is never closing the last one, which would checkpoint the journal and sync the disk.
Opening a connection costs more than most operations (a third of a millisecond), so an
operation's connection is put back for the next one, up to IDLE_CONNECTIONS a file and
process; it is used again only while the path still names the file it was opened on (a
stat, microseconds), so a deleted or replaced file is still found out.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlsplit

from .errors import StoreUnavailable

# SQLite's own wait for a lock sleeps in C, and under the gevent worker it holds the
# worker's event loop: so it is short, and a writer waits for the write lock by trying
# again in a loop that sleeps cooperatively (time.sleep is gevent's there), for at most
# LOCK_SECONDS in all; then the store is unavailable (a prompt 503), never 10 s.
WAIT_SECONDS = 0.02  # SQLite's busy timeout, per statement
LOCK_SECONDS = 1.0  # how long a writer queues behind another before giving up
LOCK_STEP_SECONDS = 0.01  # between tries for the write lock
HEADER = b"SQLite format 3\x00"  # how every SQLite file begins
HEADER_BYTES = 100
SCHEMA = ("CREATE TABLE IF NOT EXISTS entries (key TEXT PRIMARY KEY, value TEXT NOT NULL,"
          " expires REAL NOT NULL)",
          "CREATE INDEX IF NOT EXISTS entries_expire ON entries (expires)",
          "CREATE TABLE IF NOT EXISTS counters (key TEXT NOT NULL, field TEXT NOT NULL,"
          " value INTEGER NOT NULL, expires REAL NOT NULL, PRIMARY KEY (key, field))",
          "CREATE INDEX IF NOT EXISTS counters_expire ON counters (expires)",
          "CREATE TABLE IF NOT EXISTS windows (key TEXT PRIMARY KEY, value INTEGER NOT NULL,"
          " expires REAL NOT NULL)",
          "CREATE INDEX IF NOT EXISTS windows_expire ON windows (expires)",
          "CREATE TABLE IF NOT EXISTS fields (key TEXT NOT NULL, field TEXT NOT NULL,"
          " value TEXT NOT NULL, expires REAL NOT NULL, PRIMARY KEY (key, field))",
          "CREATE INDEX IF NOT EXISTS fields_expire ON fields (expires)")
PROBE = "probe:start-up"
PROBE_BYTES = 8192  # two pages and more: a full file fails the probe, as it would an answer
SYNCHRONOUS = "PRAGMA synchronous=NORMAL"
_KEEPERS: dict[tuple[str, int], sqlite3.Connection] = {}  # (path, process): kept open
IDLE_CONNECTIONS = 8  # kept for reuse, per file and process
IDLE_FILES = 4  # files whose connections are kept, per process (a server uses one)
# (path, pragmas, process): [(connection, (device, inode) of the file it was opened on)]
_IDLE: dict[tuple, list[tuple[sqlite3.Connection, tuple[int, int]]]] = {}
_IDLE_LOCK = threading.Lock()


@dataclass(frozen=True)
class SQLiteStore:
    """A store in the SQLite file at *path*; *pragmas* are run on every connection."""

    path: str
    pragmas: tuple[str, ...] = ()

    @property
    def url(self) -> str:
        """The URL that names this store."""
        return f"sqlite:///{self.path}"

    @classmethod
    def from_url(cls, url: str) -> SQLiteStore:
        """The store ``sqlite:///relative`` or ``sqlite:////absolute`` names.

        :raises ValueError: when the URL has no path.
        """
        path = urlsplit(url).path[1:]
        if not path:
            raise ValueError(f"the state URL {url[:60]!r} has no file: write "
                             f"sqlite:////absolute/path/state.sqlite3")
        return cls(path)

    def prepare(self) -> None:
        """Make the file, WAL mode and the tables, then write and delete a probe."""
        try:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            with closing(self._connect(create=True)) as db:
                db.execute("PRAGMA journal_mode=WAL")
                for statement in SCHEMA:
                    db.execute(statement)
                with self._writing(db):
                    db.execute("INSERT OR REPLACE INTO entries VALUES (?, ?, 0)",
                               (PROBE, "x" * PROBE_BYTES))
                    db.execute("DELETE FROM entries WHERE key = ?", (PROBE,))
        except (OSError, sqlite3.Error) as error:
            raise StoreUnavailable(self._trouble(error)) from None

    def persistence_warning(self) -> str:
        """See Store.persistence_warning: a file keeps what is written to it."""
        return ""

    def put_if_absent(self, key: str, value: str, ttl: float) -> str | None:
        """See Store.put_if_absent; prunes what has expired on the way."""
        now = time.time()
        with self._session() as db, self._writing(db):
            db.execute("DELETE FROM entries WHERE expires <= ?", (now,))
            db.execute("DELETE FROM counters WHERE expires <= ?", (now,))
            there = db.execute("SELECT value FROM entries WHERE key = ?", (key,)).fetchone()
            if there:
                return there[0]
            db.execute("INSERT INTO entries VALUES (?, ?, ?)", (key, value, now + ttl))
        return None

    def get(self, key: str) -> str | None:
        """See Store.get."""
        with self._session() as db:
            row = db.execute("SELECT value FROM entries WHERE key = ? AND expires > ?",
                             (key, time.time())).fetchone()
        return row[0] if row else None

    def add(self, key: str, field: str, amount: int, ttl: float) -> int:
        """See Store.add."""
        now = time.time()
        with self._session() as db, self._writing(db):
            db.execute("DELETE FROM counters WHERE key = ? AND expires <= ?", (key, now))
            (value,) = db.execute(
                "INSERT INTO counters VALUES (?, ?, ?, ?) ON CONFLICT (key, field) DO "
                "UPDATE SET value = value + excluded.value, expires = excluded.expires "
                "RETURNING value", (key, field, amount, now + ttl)).fetchone()
        return value

    def tally(self, key: str) -> dict[str, int]:
        """See Store.tally."""
        with self._session() as db:
            rows = db.execute("SELECT field, value FROM counters WHERE key = ? AND "
                              "expires > ? ORDER BY field", (key, time.time())).fetchall()
        return dict(rows)

    def put(self, key: str, value: str, ttl: float) -> None:
        """See Store.put."""
        with self._session() as db, self._writing(db):
            db.execute("INSERT OR REPLACE INTO entries VALUES (?, ?, ?)",
                       (key, value, time.time() + ttl))

    def put_field_by_guard(self, guard: str, suffix: str, prefix: str, field: str,
                           value: str, ttl: float, admit: str = "") -> tuple[str | None, int]:
        """See Store.put_field_by_guard: the guard read, the field written and the fields
        counted in one immediate transaction, so a write that changes the guard waits."""
        now = time.time()
        with self._session() as db, self._writing(db):
            there = db.execute("SELECT value FROM entries WHERE key = ? AND expires > ?",
                               (guard, now)).fetchone()
            if not there or not there[0].endswith(suffix):
                return (there[0] if there else None), 0
            place = there[0][:-len(suffix)]
            if admit and self._field(db, admit, field, now) not in ("*", place):
                return there[0], 0
            key = prefix + place
            db.execute("DELETE FROM fields WHERE expires <= ?", (now,))
            db.execute("INSERT OR REPLACE INTO fields VALUES (?, ?, ?, ?)",
                       (key, field, value, now + ttl))
            (held,) = db.execute("SELECT count(*) FROM fields WHERE key = ?",
                                 (key,)).fetchone()
        return there[0], held

    def put_field_capped(self, key: str, field: str, value: str, cap: int, ttl: float,
                         replace: bool = False) -> tuple[bool, int]:
        """See Store.put_field_capped: read, counted and written in one immediate
        transaction."""
        now = time.time()
        with self._session() as db, self._writing(db):
            there = self._field(db, key, field, now) is not None
            (count,) = db.execute("SELECT count(*) FROM fields WHERE key = ? AND "
                                  "expires > ?", (key, now)).fetchone()
            if not there and count >= cap:
                return False, count
            if there and not replace:
                db.execute("UPDATE fields SET expires = ? WHERE key = ? AND field = ?",
                           (now + ttl, key, field))
            else:
                db.execute("INSERT OR REPLACE INTO fields VALUES (?, ?, ?, ?)",
                           (key, field, value, now + ttl))
        return True, count + (not there)

    @staticmethod
    def _field(db: sqlite3.Connection, key: str, field: str, now: float) -> str | None:
        """The field *field* of *key*, unless it has expired."""
        row = db.execute("SELECT value FROM fields WHERE key = ? AND field = ? AND "
                         "expires > ?", (key, field, now)).fetchone()
        return row[0] if row else None

    def fields(self, key: str) -> dict[str, str]:
        """See Store.fields."""
        with self._session() as db:
            rows = db.execute("SELECT field, value FROM fields WHERE key = ? AND "
                              "expires > ? ORDER BY field", (key, time.time())).fetchall()
        return dict(rows)

    def _connect(self, create: bool = False) -> sqlite3.Connection:
        mode = "rwc" if create else "rw"
        db = sqlite3.connect(f"file:{quote(self.path)}?mode={mode}", uri=True,
                             timeout=WAIT_SECONDS, isolation_level=None,
                             check_same_thread=False)
        for pragma in (SYNCHRONOUS, *self.pragmas):
            db.execute(pragma)
        if not create:
            self._keep_open()
        return db

    def _keep_open(self) -> None:
        """Open this process's idle connection to the file, once; kept for the
        IDLE_FILES files it opened last, the oldest closed."""
        place = (self.path, os.getpid())
        with _IDLE_LOCK:
            if place in _KEEPERS:
                return
            keeper = sqlite3.connect(f"file:{quote(self.path)}?mode=rw", uri=True,
                                     check_same_thread=False)
            keeper.execute("SELECT count(*) FROM sqlite_master").fetchone()
            _KEEPERS[place] = keeper
            for older in [kept for kept in _KEEPERS if kept[1] == place[1]][:-IDLE_FILES]:
                _KEEPERS.pop(older).close()

    def count(self, key: str, amount: int, ttl: float) -> tuple[int, float]:
        """Add *amount* to the window counter *key*, which starts at 0 and ends *ttl*
        seconds after its first count (a fixed window, as rate limits count): its new
        value and when its window ends (a Unix time)."""
        now = time.time()
        with self._session() as db, self._writing(db):
            db.execute("DELETE FROM windows WHERE expires <= ?", (now,))
            value, expires = db.execute(
                "INSERT INTO windows VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET "
                "value = value + excluded.value RETURNING value, expires",
                (key, amount, now + ttl)).fetchone()
        return value, expires

    def counted(self, key: str) -> tuple[int, float]:
        """The window counter *key* and when its window ends: (0, now) when none runs."""
        now = time.time()
        with self._session() as db:
            row = db.execute("SELECT value, expires FROM windows WHERE key = ? AND "
                             "expires > ?", (key, now)).fetchone()
        return row or (0, now)

    def forget(self, key: str | None = None) -> int:
        """End the window counter *key*, or every one (None): how many ended."""
        with self._session() as db, self._writing(db):
            if key is None:
                return db.execute("DELETE FROM windows").rowcount
            return db.execute("DELETE FROM windows WHERE key = ?", (key,)).rowcount

    @contextmanager
    def _session(self):
        """A connection for one operation, put back after it (closed if the operation
        failed); any SQLite or file error becomes StoreUnavailable."""
        try:
            db, inode = self._take()
            try:
                yield db
            except BaseException:
                db.close()
                raise
            self._put_back(db, inode)
        except (OSError, sqlite3.Error) as error:
            raise StoreUnavailable(self._trouble(error)) from None

    def _place(self) -> tuple:
        return self.path, self.pragmas, os.getpid()

    def _take(self) -> tuple[sqlite3.Connection, tuple[int, int]]:
        """An idle connection to the file the path names now, or a new one.

        :raises OSError: when the path names no file (it was deleted).
        """
        found = os.stat(self.path)
        inode = (found.st_dev, found.st_ino)
        check_header(self.path, found.st_size)
        with _IDLE_LOCK:
            idle = _IDLE.get(self._place(), [])
            while idle:
                db, opened_on = idle.pop()
                if opened_on == inode:
                    return db, inode
                db.close()  # the file was replaced since
        return self._connect(), inode

    def _put_back(self, db: sqlite3.Connection, inode: tuple[int, int]) -> None:
        """Keep *db* for the next operation, unless enough are kept already."""
        place = self._place()
        with _IDLE_LOCK:
            if place not in _IDLE:
                while len(_IDLE) >= IDLE_FILES:
                    for other, _ in _IDLE.pop(next(iter(_IDLE))):
                        other.close()
                _IDLE[place] = []
            idle = _IDLE[place]
            if len(idle) < IDLE_CONNECTIONS:
                idle.append((db, inode))
                return
        db.close()

    @staticmethod
    @contextmanager
    def _writing(db: sqlite3.Connection):
        """A transaction that takes the write lock at once (BEGIN IMMEDIATE), waiting
        for it at most LOCK_SECONDS; committed on a clean exit and rolled back otherwise
        (unless SQLite already did)."""
        begin(db)
        try:
            yield
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    def _trouble(self, error: Exception) -> str:
        return f"the state file {self.path} cannot be used ({error})"


def begin(db: sqlite3.Connection, seconds: float = LOCK_SECONDS) -> None:
    """BEGIN IMMEDIATE on *db*, tried again while another holds the write lock, with a
    cooperative sleep between tries, for at most *seconds*.

    :raises sqlite3.OperationalError: when the lock is still held after that.
    """
    deadline = time.monotonic() + seconds
    while True:
        try:
            db.execute("BEGIN IMMEDIATE")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() >= deadline:
                raise
        time.sleep(LOCK_STEP_SECONDS)


def check_header(path: str, size: int) -> None:
    """Check that the file at *path* (*size* bytes) still looks like an SQLite file: its
    header, and a size that is a whole number of its pages. Every worker checks at every
    operation, so a file overwritten while the server runs is reported by each alike,
    not only by those whose connections must read it again.

    :raises sqlite3.DatabaseError: when it does not.
    """
    with open(path, "rb") as file:
        header = file.read(HEADER_BYTES)
    page = int.from_bytes(header[16:18], "big")
    page = 65536 if page == 1 else page
    if not header.startswith(HEADER) or not page or size % page:
        raise sqlite3.DatabaseError("file is not a database: its header or size is wrong")
