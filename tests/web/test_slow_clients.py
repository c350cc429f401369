"""Slow clients against the server as `bidder serve` runs it (gunicorn, gevent workers),
on 127.0.0.1: connections that send half a request and then nothing stall no one, and
the server closes them. No timing is asserted beyond generous, bounded waits."""

import os
import secrets
import socket
import subprocess
import time
import urllib.request

import pytest
from ports import free_port

from bidder.cli.serve import gunicorn_command

SLOW_CLIENTS = 64
WAIT = 60  # seconds, at most, for anything below: far beyond what any of it takes
HAND = "AS KS QS JS AH KH QH AD KD AC KC QC JC".replace(" ", "+")


def fetch(port: int, path: str) -> int:
    """The status of a GET of *path*."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=WAIT) as answer:
        return answer.status


@pytest.fixture
def server(tmp_path):
    """The app served by `bidder serve`'s gunicorn command line, 1 worker; its port."""
    port = free_port()
    environment = {**os.environ, "BIDDER_SECRET_KEY": secrets.token_hex(32),
                   "BIDDER_STATE_URL": f"sqlite:///{tmp_path / 'state.sqlite3'}"}
    process = subprocess.Popen(gunicorn_command("127.0.0.1", port, 1), env=environment,
                               cwd=tmp_path, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + WAIT
        while True:
            try:
                fetch(port, "/api/ping")
                break
            except OSError:
                assert process.poll() is None, "gunicorn stopped at start"
                assert time.monotonic() < deadline, "gunicorn did not answer in time"
                time.sleep(0.1)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=WAIT)


def half_requests(port: int, count: int) -> list[socket.socket]:
    """*count* connections that send a request's first lines and then nothing."""
    connections = []
    for _ in range(count):
        connection = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
        connection.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        connections.append(connection)
    return connections


def closed_by_the_server(connection: socket.socket) -> bool:
    """Wait (at most WAIT) for the server to close *connection*."""
    try:
        return connection.recv(1024) == b""
    except ConnectionResetError:
        return True


def test_slow_clients_stall_no_one_and_are_closed(server):
    slow = half_requests(server, SLOW_CLIENTS)
    try:
        assert [fetch(server, f"/api/bid?hand={HAND}") for _ in range(20)] == [200] * 20
        assert fetch(server, "/") == 200
        assert all(closed_by_the_server(connection) for connection in slow)
    finally:
        for connection in slow:
            connection.close()


def half_bodies(port: int, count: int) -> list[socket.socket]:
    """*count* connections that send a form's headers and half its body, then nothing."""
    connections = []
    for _ in range(count):
        connection = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
        connection.sendall(b"POST /practice/answer HTTP/1.1\r\nHost: x\r\n"
                           b"Content-Type: application/x-www-form-urlencoded\r\n"
                           b"Content-Length: 100\r\n\r\nhand=AS+KS")
        connections.append(connection)
    return connections


def test_slow_bodies_stall_no_one_and_get_408(server):
    slow = half_bodies(server, 8)
    try:
        assert [fetch(server, f"/api/bid?hand={HAND}") for _ in range(10)] == [200] * 10
        for connection in slow:
            answer = b""
            while b"\r\n\r\n" not in answer:
                data = connection.recv(65536)
                assert data, "closed without an answer"
                answer += data
            assert answer.startswith(b"HTTP/1.1 408 ")
    finally:
        for connection in slow:
            connection.close()
