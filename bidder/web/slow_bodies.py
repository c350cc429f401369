"""A request's body has a deadline: a client that sends it slowly, or stops halfway, gets
408 Request Timeout instead of holding a greenlet (or a thread) for as long as it likes.

Two bounds together: the served worker (``bidder.web.worker``) gives every read of the
connection READ_SECONDS at most, so no single read waits forever; and the body as a whole
must arrive within BODY_SECONDS of the request, checked before each read, so a client
trickling a byte now and then is cut off too."""

from __future__ import annotations

import time
from typing import Callable

from werkzeug.exceptions import RequestTimeout

BODY_SECONDS = 30.0  # the whole body arrives within this, from its first read
READ_SECONDS = 10.0  # no read of the connection waits longer (the worker's socket timeout)


class BodyTooSlow(RequestTimeout):
    """408: the body did not arrive in time; the description says which bound it broke."""


class TimedBody:
    """A request's input stream, each read refused past the deadline and a read that
    timed out turned into 408 (Werkzeug would take it for a client gone: 400)."""

    def __init__(self, stream, seconds: float = BODY_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.stream, self.clock = stream, clock
        self.seconds, self.deadline = seconds, clock() + seconds

    def _read(self, method: str, *args):
        if self.clock() > self.deadline:
            raise BodyTooSlow(f"The request's body took longer than {self.seconds:g} s to "
                              f"arrive: send it again, whole.")
        try:
            return getattr(self.stream, method)(*args)
        except TimeoutError:
            raise BodyTooSlow(f"The request's body stopped arriving for {READ_SECONDS:g} "
                              f"s: send it again, whole.") from None

    def read(self, *args) -> bytes:
        """The stream's read, in time."""
        return self._read("read", *args)

    def readline(self, *args) -> bytes:
        """The stream's readline, in time."""
        return self._read("readline", *args)

    def readlines(self, *args) -> list[bytes]:
        """The stream's readlines, in time."""
        return self._read("readlines", *args)

    def readinto(self, buffer) -> int:
        """The stream's readinto (or a read copied in, for a stream without it), in time."""
        if hasattr(self.stream, "readinto"):
            return self._read("readinto", buffer)
        data = self._read("read", len(buffer))
        buffer[:len(data)] = data
        return len(data)

    def __iter__(self):
        return iter(self.readline, b"")


def timed(environ) -> None:
    """Put a deadline on the body of the request *environ* describes, if it has one."""
    if "wsgi.input" in environ and (environ.get("CONTENT_LENGTH")
                                    or "HTTP_TRANSFER_ENCODING" in environ):
        environ["wsgi.input"] = TimedBody(environ["wsgi.input"])
