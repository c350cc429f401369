"""The gate a pool job waits at in the event-loop probe (loop_probe.py): a named pipe
the web worker's heartbeat opens only after it has beaten BEATS times more, so a job
can finish only while the worker's event loop keeps running."""

from __future__ import annotations


def gated(gate: str, function, args: tuple):
    """*function(*args)*, once a byte has come through the named pipe *gate*."""
    with open(gate, "rb") as pipe:
        pipe.read(1)
    return function(*args)
