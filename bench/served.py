"""How the server benches start what they measure, on 127.0.0.1 only: `bidder serve`'s
gunicorn (gevent workers) on a free port with a given state URL, answering before it is
handed back, and a redis-server on a free loopback port for the shared store; and how
they count what they measure (latencies, errors, the load average beside them).

    with serving(workers=2, state_url="sqlite:////tmp/x/state.sqlite3") as server:
        ... http://127.0.0.1:{server.port}/ ...
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from bidder.cli.serve import gunicorn_command

HOST = "127.0.0.1"
GOAL_MS = 250.0  # the goal for a p99 under load
START_SECONDS = 60  # a loaded machine starts gunicorn in seconds; never wait forever
# Every client of a bench comes from 127.0.0.1, one address: no per-client limit applies.
UNLIMITED = {"BIDDER_PRACTICE_RATE_LIMIT": "1000000 per minute"}


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


@dataclass(frozen=True)
class Server:
    """A gunicorn started by `serving`: its port and master process."""

    port: int
    process: subprocess.Popen

    def workers(self) -> list[int]:
        """The process ids of its workers (the master's children)."""
        pid = self.process.pid
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        return sorted(map(int, children))


def start(port: int, workers: int, state_url: str, key: str, folder: Path,
          environment: dict[str, str] | None = None) -> subprocess.Popen:
    """`bidder serve`'s gunicorn on *port* with the store *state_url*, signing with
    *key*, run in *folder*; handed back once it answers /api/ping."""
    served = {**os.environ, **UNLIMITED, **(environment or {}),
              "BIDDER_SECRET_KEY": key, "BIDDER_STATE_URL": state_url}
    command = gunicorn_command(HOST, port, workers)
    process = subprocess.Popen(command[:-1] + ["--log-level", "warning", command[-1]],
                               cwd=folder, env=served)
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline and process.poll() is None:
        try:
            with urllib.request.urlopen(f"http://{HOST}:{port}/api/ping", timeout=2):
                return process
        except OSError:
            time.sleep(0.2)
    stop(process, signal.SIGINT)
    raise SystemExit(f"gunicorn did not answer on port {port}")


def stop(process: subprocess.Popen, how: int = signal.SIGTERM) -> None:
    """Stop *process* (with the signal *how*) and wait for it."""
    process.send_signal(how)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@contextmanager
def serving(workers: int, state_url: str, key: str | None = None,
            folder: Path | None = None, environment: dict[str, str] | None = None):
    """A started Server for the block, stopped after it."""
    with tempfile.TemporaryDirectory() as scratch:
        process = start(port := free_port(), workers, state_url,
                        key or secrets.token_hex(32), folder or Path(scratch), environment)
        try:
            yield Server(port, process)
        finally:
            stop(process, signal.SIGINT)  # gunicorn's quick shutdown: no graceful wait


def start_redis(folder: Path) -> tuple[subprocess.Popen, str]:
    """A redis-server on a free loopback port in *folder*: (process, its URL)."""
    port = free_port()
    process = subprocess.Popen(
        [shutil.which("redis-server") or "/usr/bin/redis-server", "--port", str(port),
         "--bind", HOST, "--dir", str(folder), "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((HOST, port), timeout=1) as connection:
                connection.sendall(b"PING\r\n")
                if connection.recv(16).startswith(b"+PONG"):
                    return process, f"redis://{HOST}:{port}/0"
        except OSError:
            time.sleep(0.1)
    stop(process)
    raise SystemExit("redis-server did not answer")


@contextmanager
def redis_serving(folder: Path):
    """The URL of a redis-server started for the block, stopped after it."""
    process, url = start_redis(folder)
    try:
        yield url
    finally:
        stop(process)


class Latencies:
    """Latencies in ms and an error count, added to from many threads."""

    def __init__(self):
        self.lock = threading.Lock()
        self.values: list[float] = []
        self.errors = 0
        self.statuses: dict[int, int] = {}
        self.causes: dict[str, int] = {}  # what went wrong, for the errors not answered

    def add(self, status: int, seconds: float, ok: bool = True) -> None:
        with self.lock:
            self.values.append(seconds * 1000)
            self.statuses[status] = self.statuses.get(status, 0) + 1
            self.errors += not ok

    def failed(self, cause: str = "no answer") -> None:
        """Count an error that got no answer to time, saying why (*cause*)."""
        with self.lock:
            self.errors += 1
            self.causes[cause] = self.causes.get(cause, 0) + 1

    def percentile(self, share: float) -> float:
        ordered = sorted(self.values)
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0

    def line(self, name: str) -> str:
        return (f"{name}: {len(self.values)} requests, p50 {self.percentile(0.5):.1f} ms, "
                f"p99 {self.percentile(0.99):.1f} ms, max {max(self.values, default=0):.0f}"
                f" ms, errors {self.errors}, statuses {dict(sorted(self.statuses.items()))}"
                + (f", failures {dict(sorted(self.causes.items()))}" if self.causes
                   else ""))


def load_average() -> str:
    """The machine's load averages (1, 5, 15 minutes), to print beside a figure."""
    return " ".join(f"{value:.2f}" for value in os.getloadavg())
