"""Errors: pages that look like the app, JSON under /api, never a traceback."""

import pytest
from flask import abort

from bidder.web import create_app
from bidder.web.security import HEADERS

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
    assert response.status_code == 400
    assert "Bad Request" in response.get_data(as_text=True)
    assert response.headers["Content-Security-Policy"] == HEADERS["Content-Security-Policy"]
    assert app.test_client().get("/", headers={"Host": "localhost"}).status_code == 200
