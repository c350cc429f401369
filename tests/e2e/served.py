"""Serving the app for the browser tests: a free port on the loopback address, and
waiting until the server answers."""

from __future__ import annotations

import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[2]
LOOPBACK = "127.0.0.1"
START_TIMEOUT = 30


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return probe.getsockname()[1]


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
