"""The edges against the app as served by gunicorn on 127.0.0.1: a form on another site
cannot change the practice (in Chromium), chunked bodies over the cap get 413, redirects
never name the Host a request claimed, and gunicorn's own limits are the ones docs/web.md gives."""

from __future__ import annotations

import http.client
import re
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from bidder import openingBid
from bidder.web.security import HEADERS
from served import LOOPBACK

pytestmark = pytest.mark.e2e

WEB_DOCS = Path(__file__).resolve().parents[2] / "docs" / "web.md"
HAND = "5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C"
FORGED_FORM = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Win a prize</title></head>
<body><form id="prize" method="post" action="{action}">
<input type="hidden" name="csrf_token" value="a-guess">
<input type="hidden" name="count_first" value="1">
<input type="hidden" name="natural" value="1">
</form><script>document.getElementById("prize").submit()</script></body></html>
"""


@pytest.fixture
def other_site():
    """Serve pages on another port of 127.0.0.1: another origin, the same site (so the
    browser still sends the app's SameSite=Lax cookie along). Returns (pages, base URL)."""
    pages: dict[str, str] = {}

    class Pages(BaseHTTPRequestHandler):
        def do_GET(self):
            body = pages.get(self.path, "").encode()
            self.send_response(200 if body else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    site = ThreadingHTTPServer((LOOPBACK, 0), Pages)
    thread = threading.Thread(target=site.serve_forever, daemon=True)
    thread.start()
    yield pages, f"http://{LOOPBACK}:{site.server_port}"
    site.shutdown()
    site.server_close()
    thread.join()


def practice_as_it_stands(page, server) -> tuple[str, str, bool]:
    page.goto(server + "/practice")
    return (page.locator("#score").inner_text(),
            page.locator('input[name="hand"]').first.input_value(),
            page.get_by_label("Count first").is_checked())


@pytest.mark.parametrize("action", ["reset", "settings"])
def test_a_form_on_another_site_cannot_change_the_practice(new_page, server, other_site,
                                                           browser_errors, action):
    page = new_page()
    page.goto(server + "/practice")
    bid = openingBid(page.locator('input[name="hand"]').first.input_value())
    with page.expect_navigation():
        page.locator(f'button[name="bid"][value="{bid or "None"}"]').click()
    before = practice_as_it_stands(page, server)
    assert before[0] == "Bids right: 1 of 1" and before[2] is False

    pages, other = other_site
    pages["/prize"] = FORGED_FORM.format(action=f"{server}/practice/{action}")
    with page.expect_response(f"{server}/practice/{action}") as posted:
        page.goto(other + "/prize")
    assert posted.value.status == 400
    page.wait_for_load_state()
    assert page.locator("h1").inner_text() == "This form has expired"
    # "invalid", not "session token is missing": the cookie went along; the token stopped it.
    assert "came from another site (the CSRF token is invalid)" in page.locator(
        "main").inner_text()

    assert practice_as_it_stands(page, server) == before
    assert browser_errors == []


# Bodies without a length ------------------------------------------------------------------

def connect(server: str) -> http.client.HTTPConnection:
    address = urlsplit(server)
    return http.client.HTTPConnection(address.hostname, address.port, timeout=30)


def post_chunked(server: str, path: str, body: bytes, content_type: str):
    """POST *body* in 4 KiB chunks with Transfer-Encoding: chunked and no Content-Length."""
    connection = connect(server)
    pieces = (body[start:start + 4096] for start in range(0, len(body), 4096))
    connection.request("POST", path, body=pieces, headers={"Content-Type": content_type})
    response = connection.getresponse()
    answer = response.status, response.headers, response.read().decode()
    connection.close()
    return answer


@pytest.mark.parametrize("path, body, content_type, words", [
    ("/", b"hand=" + b"AS+" * 7000, "application/x-www-form-urlencoded",
     "Request too large"),
    ("/api/bid", b'{"hand": "' + b"AS " * 7000 + b'"}', "application/json",
     '"code":"too_large"'),
    ("/practice/reset", b"csrf_token=" + b"x" * 40_000, "application/x-www-form-urlencoded",
     "Request too large"),
], ids=["advisor", "api-json", "practice"])
def test_a_chunked_body_over_the_cap_is_refused_with_413(server, path, body, content_type,
                                                         words):
    status, headers, text = post_chunked(server, path, body, content_type)
    assert status == 413
    assert words in text
    assert "larger than 16,384 bytes" in text
    assert headers["X-Frame-Options"] == "DENY"


def test_a_chunked_body_under_the_cap_is_answered_in_full(server):
    status, _, text = post_chunked(server, "/api/bid", f'{{"hand": "{HAND}"}}'.encode(),
                                   "application/json")
    assert status == 200
    assert '"bid":"1C"' in text


# Redirects ---------------------------------------------------------------------------------

@pytest.mark.parametrize("path, location", [("/api//ping", "/api/ping"),
                                            ("/api///bid?hand=AS", "/api/bid?hand=AS")])
def test_a_redirect_never_names_the_host_the_request_claimed(server, path, location):
    connection = connect(server)
    connection.request("GET", path, headers={"Host": "evil.example"})
    response = connection.getresponse()
    response.read()
    connection.close()
    assert response.status == 308
    assert response.headers["Location"] == location
    assert "evil.example" not in str(response.headers)


# gunicorn's own limits ------------------------------------------------------------------

def documented_limit(setting: str) -> tuple[int, int]:
    """The limit and the status docs/web.md's table gives for a gunicorn *setting*."""
    row = re.search(rf"^\| `{setting}` \| [^|]*?(\d[\d,]*)[^|]* \| (\d+) \|$",
                    WEB_DOCS.read_text(encoding="utf-8"), re.MULTILINE)
    return int(row.group(1).replace(",", "")), int(row.group(2))


def status_of(server: str, request: bytes) -> tuple[int, bytes]:
    """Send raw bytes; the status and the head of gunicorn's answer."""
    address = urlsplit(server)
    with socket.create_connection((address.hostname, address.port), timeout=30) as raw:
        raw.sendall(request)
        answer = b""
        while chunk := raw.recv(65536):
            answer += chunk
    head = answer.split(b"\r\n\r\n", 1)[0]
    return int(head.split(b" ", 2)[1]), head


def get(line: str, fields: list[str]) -> bytes:
    return "\r\n".join([line, f"Host: {LOOPBACK}", *fields, "Connection: close", "", ""]
                       ).encode()


def line_of(size: int) -> str:
    """A request line of *size* bytes."""
    start, end = "GET /api/ping?pad=", " HTTP/1.1"
    return start + "x" * (size - len(start) - len(end)) + end


def field_of(size: int) -> str:
    """A header line of *size* bytes with its CRLF."""
    return "X-Pad: " + "x" * (size - len("X-Pad: ") - 2)


@pytest.mark.parametrize("setting, request_of", [
    ("limit_request_line", lambda size: get(line_of(size), [])),
    ("limit_request_field_size", lambda size: get("GET /api/ping HTTP/1.1", [field_of(size)])),
    ("limit_request_fields", lambda count: get("GET /api/ping HTTP/1.1",
                                               [f"X-Pad-{n}: 1" for n in range(count - 2)])),
])
def test_gunicorn_refuses_at_the_limits_the_web_docs_give(server, setting, request_of):
    limit, refusal = documented_limit(setting)
    assert status_of(server, request_of(limit))[0] == 200
    status, head = status_of(server, request_of(limit + 1))
    assert status == refusal
    # gunicorn writes these itself: the headers must come from the proxy (docs/web.md).
    assert b"Content-Security-Policy" not in head


def test_the_web_docs_show_the_proxy_adding_every_header_to_every_answer():
    text = WEB_DOCS.read_text(encoding="utf-8")
    block = text.split("```nginx\n", 1)[1].split("```", 1)[0]
    for name, value in HEADERS.items():
        assert f'proxy_hide_header {name};' in block
        assert f'add_header {name} "{value}" always;' in block
    assert "client_max_body_size 16k;" in block
    assert "add_header" not in block.split("location", 1)[1]
