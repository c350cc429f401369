"""A real Redis for the tests: Debian's redis-server on a free loopback port, in a
temporary folder, persisting nothing, stopped when the tests are done."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path

from needs import missing
from ports import free_port

SERVER = "redis-server"
START_WAIT = 10  # seconds, at most, for the server to answer
START_TRIES = 3  # ports tried




def answers(port: int) -> bool:
    """Whether a Redis on *port* answers PING."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as connection:
            connection.sendall(b"PING\r\n")
            return connection.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def started(program: str, folder: Path) -> tuple[subprocess.Popen, int]:
    """A redis-server answering on a free port, and the port. A port another process
    took between the choice and the server's bind stops the server at once: then the
    next free port is tried."""
    for _ in range(START_TRIES):
        port = free_port()
        server = subprocess.Popen(
            [program, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder),
             "--save", "", "--appendonly", "no", "--protected-mode", "yes"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + START_WAIT
        while server.poll() is None and not answers(port):
            if time.monotonic() > deadline:
                server.kill()
                raise AssertionError("redis-server did not answer in time")
            time.sleep(0.05)
        if server.poll() is None:
            return server, port
    raise AssertionError(f"redis-server stopped at start {START_TRIES} times")


@contextmanager
def redis_server(folder: Path):
    """Run a redis-server in *folder*; yield its URL; stop it."""
    program = shutil.which(SERVER) or (Path("/usr/bin") / SERVER).as_posix()
    if not Path(program).exists():
        missing("redis-server is not installed (apt-get install redis-server)",
                "the shared-store tests")
    server, port = started(program, folder)
    try:
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        server.terminate()
        server.wait(timeout=10)
