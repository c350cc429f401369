"""Server-sent events for a poll: its round, state and number of answers, and a mark of
its votes, sent as they change (the instructor's view fetches the distribution anew on
each mark; no page learns the votes from the stream). Each stream reads the store a few times a second, so every server sharing the
store sees every vote; it ends after a while and the browser reconnects. Under the gevent
worker a stream is a greenlet, its sleep a cooperative one."""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterator

from ..state import Store, StoreUnavailable
from . import ledger

TICK_SECONDS = 0.25  # how often the store is read: a vote is seen within this
STREAM_SECONDS = 120.0  # then the stream ends and the browser opens it anew
RETRY_MS = 2000
HEARTBEAT_SECONDS = 15.0  # a comment line when nothing changed: a closed tab is noticed


def snapshot(store: Store, code: str) -> dict:
    """What a page listens for: the round, its state, how many answered, and a mark
    that changes with any vote (a changed answer too) but tells nothing of the votes."""
    poll, status = ledger.load(store, code)
    votes = ledger.ballots(store, poll.code, status.round)
    return {"round": status.round, "state": status.state, "answered": len(votes),
            "votes": mark(votes)}


def mark(votes: dict[str, str]) -> str:
    """A short digest of the votes (devices are secret, so it cannot be read back)."""
    return hashlib.sha256(json.dumps(votes, sort_keys=True).encode()).hexdigest()[:12]


def stream(store: Store, code: str, seconds: float = STREAM_SECONDS,
           tick: float = TICK_SECONDS, heartbeat: float = HEARTBEAT_SECONDS) -> Iterator[str]:
    """The event stream of poll *code*: a message each time its snapshot changes, for
    *seconds*, a comment after *heartbeat* seconds of quiet; an 'ended' event if the poll
    goes away."""
    yield f"retry: {RETRY_MS}\n\n"
    last, end = None, time.monotonic() + seconds
    quiet_since = time.monotonic()
    while True:
        try:
            now = snapshot(store, code)
        except ledger.PollError:
            yield "event: ended\ndata: {}\n\n"
            return
        except StoreUnavailable:
            now = last  # nothing new to say; the next tick tries again
        if now != last:
            yield f"data: {json.dumps(now)}\n\n"
            last, quiet_since = now, time.monotonic()
        elif time.monotonic() - quiet_since >= heartbeat:
            yield ": still here\n\n"
            quiet_since = time.monotonic()
        if time.monotonic() >= end:
            return
        time.sleep(tick)
