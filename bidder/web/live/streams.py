"""How many live-update streams a worker holds open: a few per client (a device, the
instructor's browser, else an address) and a bounded number per poll. Each open stream
is a greenlet that reads the store a few times a second, so without a bound one phone
could take a worker's time with a thousand of them; one more than the bound is refused
at once, with Retry-After, and a class of phones with one stream each is never."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterator

from flask import Flask, current_app

PER_CLIENT = 4  # a phone's tab, a second tab, a reconnect not yet noticed
PER_POLL = 600  # a poll's streams in one worker: its largest class over two workers
RETRY_SECONDS = 10
EXTENSION = "bidder.live.streams"


class Slots:
    """The streams this worker holds open, counted by client and by poll."""

    def __init__(self, per_client: int = PER_CLIENT, per_poll: int = PER_POLL):
        self.per_client, self.per_poll = per_client, per_poll
        self.lock = threading.Lock()
        self.clients: Counter[str] = Counter()
        self.polls: Counter[str] = Counter()

    def take(self, client: str, poll: str) -> str:
        """Hold a stream of *client* on *poll*: '' when taken, else which bound is full
        ('client' or 'poll')."""
        with self.lock:
            if self.clients[client] >= self.per_client:
                return "client"
            if self.polls[poll] >= self.per_poll:
                return "poll"
            self.clients[client] += 1
            self.polls[poll] += 1
        return ""

    def give_back(self, client: str, poll: str) -> None:
        """A stream of *client* on *poll* has ended."""
        with self.lock:
            for counter, name in ((self.clients, client), (self.polls, poll)):
                counter[name] -= 1
                if not counter[name]:
                    del counter[name]


class Held:
    """A stream's events, which give its slot back once the server closes them (the
    stream ended, or the client went away), whether or not they were ever read."""

    def __init__(self, events: Iterator[str], release: Callable[[], None]):
        self.events, self.release = events, release

    def __iter__(self) -> Iterator[str]:
        return self.events

    def close(self) -> None:
        """End the events and give the slot back, once."""
        release, self.release = self.release, None
        self.events.close()
        if release is not None:
            release()


def slots() -> Slots:
    """This app's (this worker's) stream slots."""
    return current_app.extensions[EXTENSION]


def init_app(app: Flask) -> None:
    """Give the app its slots (config LIVE_STREAMS_PER_CLIENT, LIVE_STREAMS_PER_POLL)."""
    app.extensions[EXTENSION] = Slots(app.config.get("LIVE_STREAMS_PER_CLIENT", PER_CLIENT),
                                      app.config.get("LIVE_STREAMS_PER_POLL", PER_POLL))
