"""Errors: pages that look like the app, JSON under /api, never a traceback; and the edges
(forms from another site, redirects, bodies without a length) answered the same way."""

import html
import io

import pytest
from flask import abort

from bidder.web import create_app
from bidder.web.security import (CONTENT_SECURITY_POLICY, HEADERS, read_at_most,
                                  relative_location)

HAND = "5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C"

from markup import page_text, tags, text_of

LEAKS = ("Traceback", "Werkzeug", "werkzeug", "File \"", ".py", "Debugger", "RuntimeError",
         "boom")


@pytest.fixture
def production_app():
    """The app as served (exceptions handled, not raised), with routes that fail."""
    app = create_app({"SECRET_KEY": "a-key-for-the-production-settings"})

    @app.get("/test-only/boom")
    def boom():
        raise RuntimeError("boom at /secret/path.py")

    @app.get("/api/test-only/boom")
    def api_boom():
        raise RuntimeError("boom at /secret/path.py")

    @app.get("/test-only/teapot")
    def teapot():
        abort(418)

    return app


def assert_page_of_the_app(html):
    assert '<link rel="stylesheet" href="/static/style.css">' in html
    assert [link["href"] for link in tags(html, "a") if link.get("href") == "/rules"]
    assert "<h1>" in html
    for leak in LEAKS:
        assert leak not in html


@pytest.mark.parametrize("method, path, status, title, words", [
    ("get", "/no/such/page", 404, "Page not found",
     ["There is no page at '/no/such/page'", "/api/openapi.json"]),
    ("get", "/rules/", 404, "Page not found", ["'/rules/'"]),
    ("put", "/", 405, "Method not allowed", ["PUT is not allowed at '/'", "use GET or POST"]),
    ("delete", "/rules", 405, "Method not allowed", ["use GET."]),
], ids=["404", "404-trailing-slash", "405-advisor", "405-rules"])
def test_http_errors_are_pages_of_the_app(client, method, path, status, title, words):
    response = getattr(client, method)(path)
    html = response.get_data(as_text=True)
    assert response.status_code == status
    assert response.mimetype == "text/html"
    assert_page_of_the_app(html)
    assert text_of(html, "main").startswith(f"Error {status} {title}")
    for word in words:
        assert word in page_text(html)


def test_405_names_the_allowed_methods_in_a_header(client):
    response = client.put("/")
    assert set(response.headers["Allow"].split(", ")) == {"GET", "HEAD", "OPTIONS", "POST"}


def test_a_413_page_says_what_the_limit_is(client):
    response = client.post("/", data={"hand": "AS " * 7000})
    html = response.get_data(as_text=True)
    assert response.status_code == 413
    assert_page_of_the_app(html)
    assert "larger than 16,384 bytes" in page_text(html)
    assert "at most 200 characters" in page_text(html)


def test_an_unexpected_failure_is_a_friendly_500_page(production_app):
    response = production_app.test_client().get("/test-only/boom")
    html = response.get_data(as_text=True)
    assert response.status_code == 500
    assert_page_of_the_app(html)
    assert "Something went wrong" in html
    assert "not something you typed" in page_text(html)
    for name, value in HEADERS.items():
        assert response.headers[name] == value


def test_an_unexpected_api_failure_is_json_without_a_traceback(production_app):
    response = production_app.test_client().get("/api/test-only/boom")
    assert response.status_code == 500
    assert response.get_json() == {"error": {
        "code": "server_error", "message": response.get_json()["error"]["message"]}}
    assert "boom" not in response.get_data(as_text=True)
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_other_http_errors_use_their_own_name(production_app):
    response = production_app.test_client().get("/test-only/teapot")
    html = response.get_data(as_text=True)
    assert response.status_code == 418
    assert "I&#39;m a teapot" in html
    assert_page_of_the_app(html)


def test_an_untrusted_host_gets_a_400_page():
    app = create_app({"TESTING": True, "TRUSTED_HOSTS": ["localhost"]})
    response = app.test_client().get("/", headers={"Host": "evil.example"})
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert_page_of_the_app(html)
    assert text_of(html, "main").startswith("Error 400 Unknown host name")
    assert ("This server does not answer to the host name 'evil.example'. Use the address "
            "the site is published at.") in page_text(html)
    assert response.headers["Content-Security-Policy"] == HEADERS["Content-Security-Policy"]
    assert app.test_client().get("/", headers={"Host": "localhost"}).status_code == 200


def test_an_untrusted_host_under_the_api_gets_json():
    app = create_app({"TESTING": True, "TRUSTED_HOSTS": ["localhost"]})
    response = app.test_client().get("/api/ping", headers={"Host": "evil.example"})
    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == "untrusted_host"


# Forms from another site -------------------------------------------------------------------

def csrf_field(page: str) -> str:
    """The CSRF token a page's forms carry."""
    return page.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]


@pytest.mark.parametrize("path", ["/practice/answer", "/practice/count", "/practice/next",
                                  "/practice/settings", "/practice/reset", "/practice/round"])
@pytest.mark.parametrize("token, reason", [
    (None, "the CSRF token is missing"),
    ("forged", "the CSRF token is invalid"),
], ids=["no-token", "forged-token"])
def test_a_practice_form_without_its_token_is_a_friendly_400(client, path, token, reason):
    client.get("/practice")
    response = client.post(path, data={"bid": "1C", **({"csrf_token": token} if token else {})})
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert_page_of_the_app(html)
    assert text_of(html, "main").startswith("Error 400 This form has expired")
    assert (f"The form expired or came from another site ({reason}), so nothing was "
            f"changed. Go back, reload the page and send the form again.") in page_text(html)
    for name, value in HEADERS.items():
        assert response.headers[name] == value


@pytest.mark.parametrize("visited, reason", [
    (False, "the CSRF session token is missing"), (True, "the CSRF tokens do not match"),
], ids=["no-session", "another-session"])
def test_a_token_from_another_session_does_not_count(app, visited, reason):
    first, second = app.test_client(), app.test_client()
    token = csrf_field(first.get("/practice").get_data(as_text=True))
    if visited:
        second.get("/practice")
    response = second.post("/practice/reset", data={"csrf_token": token})
    assert response.status_code == 400
    assert reason in page_text(response.get_data(as_text=True))


@pytest.mark.parametrize("stored", [5, None, ["x"], {"a": 1}])
def test_a_signed_session_with_a_csrf_value_not_a_string_gets_a_400_then_a_new_one(
        app, client, stored):
    token = csrf_field(client.get("/practice").get_data(as_text=True))
    serializer = app.session_interface.get_signing_serializer(app)
    session = serializer.loads(client.get_cookie("session").value)
    client.set_cookie("session", serializer.dumps({**session, "csrf_token": stored}))
    response = client.post("/practice/reset", data={"csrf_token": token})
    assert response.status_code == 400
    assert "the CSRF session token is missing" in page_text(response.get_data(as_text=True))
    fresh = csrf_field(client.get("/practice").get_data(as_text=True))
    assert client.post("/practice/reset", data={"csrf_token": fresh}).status_code == 303


def test_a_csrf_failure_under_the_api_would_be_json(app):
    @app.post("/api/test-only/protected")
    def protected():
        return {}

    response = app.test_client().post("/api/test-only/protected")
    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == "form_expired"


@pytest.mark.parametrize("options", [
    {"json": {"hand": HAND}}, {"data": {"hand": HAND}},
], ids=["json", "form"])
def test_the_api_takes_posts_without_a_token_because_it_changes_nothing(client, options):
    response = client.post("/api/bid", **options)
    assert response.status_code == 200
    assert response.get_json()["bid"] == "1C"
    assert client.get_cookie("session") is None


def test_the_advisor_takes_a_posted_hand_without_a_token(client):
    assert client.post("/", data={"hand": HAND}).status_code == 200


# Redirects that never name the Host a request claimed --------------------------------------

@pytest.mark.parametrize("trusted", [None, ["evil.example", "localhost"]],
                         ids=["any-host", "trusted-hosts"])
@pytest.mark.parametrize("path, location", [
    ("/api//ping", "/api/ping"),
    ("/api///bid?hand=AS+KS", "/api/bid?hand=AS+KS"),
    ("/static//style.css", "/static/style.css"),
])
def test_the_slash_merging_redirect_is_relative(trusted, path, location):
    app = create_app({"TESTING": True, "TRUSTED_HOSTS": trusted})
    response = app.test_client().get(path, headers={"Host": "evil.example"})
    assert response.status_code == 308
    assert response.headers["Location"] == location
    assert response.headers["X-Frame-Options"] == "DENY"
    page = response.get_data(as_text=True)
    assert "evil.example" not in page
    assert f'href="{html.escape(location)}"' in page


@pytest.mark.parametrize("parts, field, words", [
    (10, 10, None), (11, 10, "The form has 11 parts; this page takes at most 10."),
    (40, 1, "The form has 40 parts; this page takes at most 10."),
    (1, 3000, None),
    (1, 4097, "A field of the form, with its part's headers, is over the limit of 4,096 "
              "bytes a field."),
])
def test_a_multipart_refusal_names_the_limit_it_hit(client, parts, field, words):
    data = {f"f{number}": "x" * field for number in range(parts)}
    response = client.post("/", data=data, content_type="multipart/form-data")
    if words is None:
        assert response.status_code == 400  # read, and no hand in it
        return
    assert response.status_code == 413
    text = page_text(response.get_data(as_text=True))
    assert words in text
    assert "16,384" not in text


def test_a_security_header_a_view_sets_itself_is_replaced_not_doubled(app):
    @app.get("/test-only/framed")
    def framed():
        return "", {"x-frame-options": "SAMEORIGIN", "Content-Security-Policy": "none"}

    response = app.test_client().get("/test-only/framed")
    assert response.headers.getlist("X-Frame-Options") == ["DENY"]
    assert response.headers.getlist("Content-Security-Policy") == [CONTENT_SECURITY_POLICY]


@pytest.mark.parametrize("location, host, relative", [
    ("http://evil.example/api/ping", "evil.example", "/api/ping"),
    ("https://Example.org:8443/a?b=c#d", "example.org:8443", "/a?b=c#d"),
    ("http://evil.example//other.site/x", "evil.example", "/other.site/x"),
    ("http://evil.example", "evil.example", "/"),
    ("https://elsewhere.example/x", "evil.example", "https://elsewhere.example/x"),
    ("/practice", "evil.example", "/practice"),
])
def test_a_location_on_this_host_loses_its_host(location, host, relative):
    assert relative_location(location, host) == relative


def test_the_apps_own_redirects_are_relative_already(client):
    evil = {"base_url": "http://evil.example"}
    page = client.get("/practice", **evil).get_data(as_text=True)
    response = client.post("/practice/reset", data={"csrf_token": csrf_field(page)}, **evil)
    assert (response.status_code, response.headers["Location"]) == (303, "/practice")


# Bodies without a length (chunked) ----------------------------------------------------------

def chunked(client, path, body: bytes, content_type: str):
    """Post *body* with no Content-Length, as gunicorn passes on a chunked request."""
    return client.post(path, input_stream=io.BytesIO(body), content_type=content_type,
                       headers={"Transfer-Encoding": "chunked"},
                       environ_overrides={"wsgi.input_terminated": True})


@pytest.mark.parametrize("path, body, content_type", [
    ("/", b"hand=" + b"AS+" * 7000, "application/x-www-form-urlencoded"),
    ("/api/bid", b"hand=" + b"AS+" * 7000, "application/x-www-form-urlencoded"),
    ("/api/bid", b'{"hand": "' + b"AS " * 7000 + b'"}', "application/json"),
    ("/practice/reset", b"csrf_token=" + b"x" * 20_000, "application/x-www-form-urlencoded"),
], ids=["advisor-form", "api-form", "api-json", "practice-form"])
def test_a_chunked_body_over_the_cap_is_a_413_not_cut_short(client, path, body,
                                                           content_type):
    response = chunked(client, path, body, content_type)
    assert response.status_code == 413
    text = response.get_data(as_text=True)
    assert "larger than 16,384 bytes" in text
    assert response.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("extra", [0, 1])
def test_the_cap_is_exact_for_a_chunked_body(client, extra):
    body = b"hand=" + b"x" * (16 * 1024 - len(b"hand=") + extra)
    response = chunked(client, "/api/bid", body, "application/x-www-form-urlencoded")
    assert response.status_code == (413 if extra else 400)
    if not extra:
        assert "16,379 characters long" in response.get_json()["error"]["message"]


@pytest.mark.parametrize("path, body, content_type", [
    ("/", ("hand=" + HAND).encode(), "application/x-www-form-urlencoded"),
    ("/api/bid", f'{{"hand": "{HAND}"}}'.encode(), "application/json"),
])
def test_a_chunked_body_under_the_cap_is_read_whole(client, path, body, content_type):
    response = chunked(client, path, body, content_type)
    assert response.status_code == 200


def test_without_a_cap_a_chunked_body_is_passed_on_as_it_came():
    app = create_app({"TESTING": True, "MAX_CONTENT_LENGTH": None})
    response = chunked(app.test_client(), "/api/bid", b"hand=" + b"x" * 20_000,
                       "application/x-www-form-urlencoded")
    assert "20,000 characters long" in response.get_json()["error"]["message"]


class Trickle(io.RawIOBase):
    """A stream that gives at most three bytes a read, as a slow client's body arrives."""

    def __init__(self, data: bytes):
        self.data = data

    def read(self, size=-1):
        piece, self.data = self.data[:min(3, size)], self.data[min(3, size):]
        return piece


@pytest.mark.parametrize("data, size, expected", [
    (b"abcdefghij", 4, b"abcd"), (b"abcdefghij", 100, b"abcdefghij"), (b"", 5, b""),
])
def test_a_body_is_read_up_to_the_size_however_it_trickles_in(data, size, expected):
    assert read_at_most(Trickle(data), size) == expected


@pytest.mark.parametrize("method", ["GET", "HEAD", "OPTIONS", "PROPFIND"])
def test_a_method_that_needs_no_token_leaves_the_session_alone(client, method):
    """Only the methods in WTF_CSRF_METHODS are checked; the others do not even read
    the session, so their answers do not vary by cookie."""
    client.get("/practice")  # a session cookie to leave alone
    response = client.open("/api/ping", method=method)
    assert response.status_code in (200, 405)
    assert "Cookie" not in response.headers.get("Vary", "")
