"""SIGTERM during a command: the run leaves through its normal clean-up (an output
written whole or not at all), with exit status 143."""

from __future__ import annotations

import signal
from contextlib import contextmanager


def terminated(signum: int, frame) -> None:
    """SIGTERM handler: leave through the normal clean-up, with exit status 143."""
    raise SystemExit(128 + signum)


@contextmanager
def terminable():
    """Within the block SIGTERM ends the run through `terminated`; the handler there
    before comes back after it."""
    previous = signal.signal(signal.SIGTERM, terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
