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

SERVER = "redis-server"
START_WAIT = 10  # seconds, at most, for the server to answer


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on just now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def answers(port: int) -> bool:
    """Whether a Redis on *port* answers PING."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as connection:
            connection.sendall(b"PING\r\n")
            return connection.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@contextmanager
def redis_server(folder: Path):
    """Run a redis-server in *folder*; yield its URL; stop it."""
    program = shutil.which(SERVER) or (Path("/usr/bin") / SERVER).as_posix()
    if not Path(program).exists():
        missing("redis-server is not installed (apt-get install redis-server)",
                "the shared-store tests")
    port = free_port()
    server = subprocess.Popen(
        [program, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder),
         "--save", "", "--appendonly", "no", "--protected-mode", "yes"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + START_WAIT
        while not answers(port):
            assert server.poll() is None, "redis-server stopped at start"
            assert time.monotonic() < deadline, "redis-server did not answer in time"
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        server.terminate()
        server.wait(timeout=10)
