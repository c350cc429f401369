"""Heavy requests bounded, per worker: a cap on how many run at once (their pages are
kept in a cache bounded by bytes, ``bounded.PageCache``).

Printable sets, large deals and board uploads each take tens to hundreds of
milliseconds of the interpreter; a worker running many at once starves the light
requests (/api/bid) beside them. So each kind runs at most CAP at a time per worker, and
one more is turned away at once with 503 and Retry-After, as /stats turns away a second
sample, rather than queued. And the work runs in a native thread (gevent's thread pool),
so that under the gevent worker it never holds the event loop: the light requests of
the same worker go on between its slices of the interpreter lock.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager

from flask import copy_current_request_context
from gevent import get_hub
from werkzeug.exceptions import ServiceUnavailable

AT_ONCE = 2  # heavy requests of one kind per worker
RETRY_SECONDS = 1
BUSY = ("This server is busy with other {what} right now, so this one was not started: "
        "try again in a moment (the advisor, the rules and single hands are not affected).")


class Cap:
    """At most *limit* of one kind of heavy work at a time in this process."""

    def __init__(self, what: str, limit: int = AT_ONCE):
        self.what = what
        self.slots = threading.BoundedSemaphore(limit)

    @contextmanager
    def held(self):
        """Run the block in a free slot.

        :raises ServiceUnavailable: (503, Retry-After) when every slot is taken.
        """
        if not self.slots.acquire(blocking=False):
            raise ServiceUnavailable(BUSY.format(what=self.what), retry_after=RETRY_SECONDS)
        try:
            yield
        finally:
            self.slots.release()


def off_the_loop(function, *args):
    """*function(*args)* in a native thread of gevent's pool, within a copy of this
    request's context, the caller waiting for it without holding the event loop."""
    return get_hub().threadpool.apply(copy_current_request_context(function), args)
