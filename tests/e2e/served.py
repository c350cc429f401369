"""Serving the app for the browser tests as `bidder serve` serves it: a free port on the
loopback address, a random key, a state store of its own, and waiting until it answers."""

from __future__ import annotations

import os
import secrets
import subprocess
import tempfile
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest

from bidder.cli.serve import gunicorn_command
from ports import free_port

PROJECT_ROOT = Path(__file__).resolve().parents[2]
LOOPBACK = "127.0.0.1"
START_TIMEOUT = 30




def wait_until_up(url: str, process: subprocess.Popen, log: Path) -> None:
    """Wait for *url* to answer 200, or fail with the server's log."""
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline and process.poll() is None:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    process.kill()
    pytest.fail(f"gunicorn did not start at {url}:\n{log.read_text()}", pytrace=False)


@contextmanager
def serving(settings: dict | None = None) -> Iterator[str]:
    """gunicorn serving the app with one worker, as `bidder serve` does (with the
    environment's BIDDER_* *settings*, if any); the base URL, which is also the public
    address polls show. A short graceful timeout, so open event streams do not hold up
    the end."""
    port = free_port()
    base = f"http://{LOOPBACK}:{port}"
    *command, app = gunicorn_command(LOOPBACK, port, 1)
    with tempfile.TemporaryDirectory() as folder:
        environment = {**os.environ, "BIDDER_SECRET_KEY": secrets.token_hex(),
                       "BIDDER_PUBLIC_URL": base,
                       "BIDDER_STATE_URL": f"sqlite:///{Path(folder) / 'state.sqlite3'}",
                       # one browser starts polls faster than any instructor: the
                       # geometry test alone starts dozens a minute from one address
                       "BIDDER_POLL_RATE_LIMIT": "10000 per minute", **(settings or {})}
        log = Path(folder) / "gunicorn.log"
        with log.open("w") as output:
            process = subprocess.Popen([*command, "--graceful-timeout", "2", app],
                                       cwd=PROJECT_ROOT, env=environment, stdout=output,
                                       stderr=output)
        try:
            wait_until_up(base + "/api/ping", process, log)
            yield base
        finally:
            process.terminate()
            process.wait(timeout=10)
