"""Ports for the servers the tests start, safe when the suite runs in parallel.

A port the kernel hands out for `bind(("127.0.0.1", 0))` comes from the ephemeral
range, which every outgoing connection draws from too, and another process may be handed
the same port between the probe and the server's own bind (gunicorn binds with
SO_REUSEPORT, so two servers would even share it). So each pytest-xdist worker takes
ports from a block of its own below the ephemeral range, in turn, and skips any that
something already listens on."""

from __future__ import annotations

import itertools
import os
import socket

FIRST = 20_000  # below Linux's ephemeral range (32768 and up)
BLOCK = 600  # ports per worker: 20 workers fit below 32,000
LOOPBACK = "127.0.0.1"


def worker_index(name: str | None = None) -> int:
    """This pytest-xdist worker's number (gw3 -> 3), 0 when the suite runs in one process."""
    name = os.environ.get("PYTEST_XDIST_WORKER", "") if name is None else name
    return int(name[2:]) if name.startswith("gw") and name[2:].isdigit() else 0


def _block(index: int):
    """This worker's ports, starting at a place set by the process id, so that two runs
    of the suite at once rarely start on the same port."""
    start = FIRST + index * BLOCK
    offset = os.getpid() % BLOCK
    return itertools.cycle([*range(start + offset, start + BLOCK),
                            *range(start, start + offset)])


_ports = _block(worker_index())


def is_free(port: int) -> bool:
    """Whether *port* of the loopback address can be bound just now."""
    with socket.socket() as probe:
        try:
            probe.bind((LOOPBACK, port))
        except OSError:
            return False
    return True


def free_port() -> int:
    """A port of 127.0.0.1 that nothing is bound to, from this worker's own block."""
    for _ in range(BLOCK):
        port = next(_ports)
        if is_free(port):
            return port
    raise RuntimeError(f"every port of this worker's block from "
                       f"{FIRST + worker_index() * BLOCK} is taken")
