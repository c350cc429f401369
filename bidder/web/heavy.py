"""Work whose cost grows with what a stranger sends, run off the event loop.

Every request has a CPU budget (BUDGET_MS). Under the gevent worker a request that
computes holds the worker's one event loop, and nothing else on that worker moves, not
even a thread of gevent's pool (the interpreter lock). So work that can exceed the
budget (searching hands that tell misreadings apart, counting a new combination of
misreadings, dealing a large set, reading a board file) is handed to ``run``, which
runs it in a bounded pool of worker *processes*, one pool per web worker, started when
first needed:

- a result already computed is served from a cache bounded by bytes;
- each client address has at most PER_CLIENT jobs in the pool at once;
- at most PROCESSES jobs run at once and QUEUE more wait; one more gets 503 with
  Retry-After, as does a client past its quota;
- the request waits for its job on the process's pipe, which under gevent is a wait
  on the event loop like any socket's: the loop serves every other request meanwhile.

A job is a module-level function and picklable arguments; it returns a picklable value
(or raises an exception the caller handles, re-raised in the request). The processes
are made by ``multiprocessing``'s spawn context (a fresh interpreter: gevent's
monkey-patching never reaches them, and gevent supports starting a Process directly,
not ProcessPoolExecutor's queues), and each ends when its pipe closes, so with its web
worker. With PROCESSES set to 0 (the tests' default) the job runs in the request
itself: the same quota, queue and cache, no process.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import threading
from collections import Counter
from dataclasses import dataclass

from flask import current_app, has_app_context, has_request_context, request
from gevent.socket import wait_read
from werkzeug.exceptions import ServiceUnavailable

from .bounded import PageCache

BUDGET_MS = 50  # CPU a request may take on the event loop; more goes to the pool
PROCESSES = 1  # per web worker: jobs running at once (config HEAVY_PROCESSES)
QUEUE = 6  # per web worker: jobs waiting for a process beyond those running
PER_CLIENT = 2  # jobs of one client address in a worker's pool at once
JOB_SECONDS = 60  # a job still running after this is ended, its process replaced
RETRY_SECONDS = 1
NICENESS = 5  # a pool process's priority below its web worker's
CACHE_BYTES = 16 * 1024 * 1024  # results kept, per web worker, pickled
BUSY = ("This server is busy with other long requests right now, so this one ({what}) "
        "was not started: try again in a moment (the advisor, the rules and single hands "
        "are not affected).")
YOURS = ("This address has {count} long requests running on this server already, so "
         "this one ({what}) was not started: wait for them, then try again.")
LOST = ("The process computing this ({what}) stopped before it finished: try again in a "
        "moment.")


class Busy(ServiceUnavailable):
    """503 with Retry-After: the pool, or this client's share of it, is full."""

    def __init__(self, message: str):
        super().__init__(message, retry_after=RETRY_SECONDS)


@dataclass(frozen=True)
class Failed:
    """What a job raised, sent back to be raised again in the request."""

    error: BaseException


def serve_jobs(connection, niceness: int = NICENESS) -> None:
    """In a pool process: run each (function, args) received and send back its result
    or what it raised, pickled, until the web worker closes the pipe; at a lower
    priority (*niceness* more) than the web workers, whose light requests come first."""
    os.nice(niceness)
    while True:
        try:
            function, args = connection.recv()
        except (EOFError, OSError):
            return
        try:
            outcome = pickle.dumps(function(*args))
        except Exception as error:  # re-raised in the request that asked
            outcome = pickle.dumps(Failed(error))
        connection.send_bytes(outcome)


class Child:
    """One pool process and the web worker's end of its pipe."""

    def __init__(self):
        context = multiprocessing.get_context("spawn")
        self.connection, theirs = context.Pipe()
        for end in (self.connection, theirs):  # gevent's socketpair leaves them non-blocking
            os.set_blocking(end.fileno(), True)
        self.process = context.Process(target=serve_jobs, args=(theirs,), daemon=True,
                                       name="bidder-heavy")
        self.process.start()
        theirs.close()

    def call(self, function, args: tuple, seconds: float = JOB_SECONDS) -> bytes:
        """*function(*args)* run in the process: the pickled outcome.

        :raises OSError: when the process is gone or took longer than *seconds*.
        """
        self.connection.send((function, args))
        # gevent's wait: cooperative in a gevent worker, and unlike select() it takes a
        # descriptor of any number (a process with over 1,024 open has them)
        wait_read(self.connection.fileno(), timeout=seconds,
                  timeout_exc=TimeoutError(f"no answer in {seconds} s"))
        try:
            return self.connection.recv_bytes()
        except EOFError as error:
            raise OSError("the process ended") from error

    def end(self) -> None:
        """Stop the process and close the pipe."""
        self.connection.close()
        self.process.kill()
        self.process.join()


class Pool:
    """A web worker's pool of *processes* (0: run in the request), with its queue, its
    per-client quota and its cache of results."""

    def __init__(self, processes: int = PROCESSES, queue: int = QUEUE,
                 per_client: int = PER_CLIENT, cache_bytes: int = CACHE_BYTES):
        self.processes, self.queue, self.per_client = processes, queue, per_client
        self.cache = PageCache(cache_bytes)
        self.lock = threading.Lock()
        self.turns = threading.Semaphore(max(processes, 1))
        self.children: list[Child] = []
        self.admitted = 0
        self.by_client: Counter = Counter()

    def run(self, what: str, client: str, function, *args):
        """*function(*args)*'s result: cached, or computed in the pool for *client*.

        :raises Busy: when the pool's queue or the client's quota is full.
        """
        key = (function.__module__, function.__qualname__, args)
        kept = self.cache.get(key)
        if kept is not None:
            return outcome(kept)
        self.admit(what, client)
        try:
            with self.turns:
                computed = self.compute(what, function, args)
        finally:
            self.leave(client)
        result = outcome(computed)  # raises what the job raised, keeping nothing
        self.cache.put(key, computed)
        return result

    def admit(self, what: str, client: str) -> None:
        """Count a job in for *client*.

        :raises Busy: past the queue or the client's quota.
        """
        with self.lock:
            if self.by_client[client] >= self.per_client:
                raise Busy(YOURS.format(count=self.by_client[client], what=what))
            if self.admitted >= max(self.processes, 1) + self.queue:
                raise Busy(BUSY.format(what=what))
            self.admitted += 1
            self.by_client[client] += 1

    def leave(self, client: str) -> None:
        """Count *client*'s job out."""
        with self.lock:
            self.admitted -= 1
            self.by_client[client] -= 1
            if not self.by_client[client]:
                del self.by_client[client]

    def compute(self, what: str, function, args: tuple) -> bytes:
        """The pickled outcome of *function(*args)*: in a free process of the pool
        (started if none is idle), or here when the pool has no processes.

        :raises Busy: when the process died or ran out of time (it is replaced).
        """
        if not self.processes:
            return run_here(function, args)
        with self.lock:
            child = self.children.pop() if self.children else None
        try:
            child = child or Child()
            computed = child.call(function, args)
        except OSError:
            if child is not None:
                child.end()
            raise Busy(LOST.format(what=what)) from None
        with self.lock:
            self.children.append(child)
        return computed

    def close(self) -> None:
        """End every idle process."""
        with self.lock:
            children, self.children = self.children, []
        for child in children:
            child.end()


def run_here(function, args: tuple) -> bytes:
    """*function(*args)*'s pickled outcome, computed in this process (as a pool process
    computes it)."""
    try:
        return pickle.dumps(function(*args))
    except Exception as error:
        return pickle.dumps(Failed(error))


def outcome(computed: bytes):
    """The result a job's pickled outcome holds.

    :raises Exception: what the job raised.
    """
    value = pickle.loads(computed)
    if isinstance(value, Failed):
        raise value.error
    return value


EXTENSION = "bidder.heavy"


def init_app(app) -> None:
    """Give the app its pool: HEAVY_PROCESSES processes (0 when testing: jobs run in the
    request), started when first needed."""
    app.config.setdefault("HEAVY_PROCESSES", 0 if app.testing else PROCESSES)
    app.extensions[EXTENSION] = Pool(app.config["HEAVY_PROCESSES"])


def run(what: str, function, *args):
    """*function(*args)* for this request, through the app's pool (see Pool.run):
    *what* names the work in a refusal. Outside an app (a script, a test of a page's
    parts) it is simply called."""
    if not has_app_context():
        return function(*args)
    client = (request.remote_addr or "") if has_request_context() else ""
    return current_app.extensions[EXTENSION].run(what, client, function, *args)
