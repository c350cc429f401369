"""create_app: settings, the secret key, and the security headers on every response."""

import re

import pytest

from bidder.web import LIMITS, MIN_SECRET_KEY_LENGTH, SECRET_KEY_VARIABLE, create_app, secret_key
from bidder.web.security import CONTENT_SECURITY_POLICY, HEADERS

GOOD_KEY = "k" * MIN_SECRET_KEY_LENGTH
HAND = "5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C"


@pytest.mark.parametrize("config, environment, expected", [
    ({"TESTING": True, "SECRET_KEY": "short"}, None, "short"),
    ({"TESTING": True}, "from-the-environment", "from-the-environment"),
    ({"SECRET_KEY": GOOD_KEY}, "ignored-because-config-wins", GOOD_KEY),
    ({}, GOOD_KEY, GOOD_KEY),
], ids=["test-config-key", "test-env-key", "config-beats-env", "env-key"])
def test_secret_key_comes_from_config_then_environment(monkeypatch, config, environment,
                                                        expected):
    monkeypatch.delenv(SECRET_KEY_VARIABLE, raising=False)
    if environment:
        monkeypatch.setenv(SECRET_KEY_VARIABLE, environment)
    assert secret_key(config) == expected


def test_tests_without_a_key_get_a_fresh_random_one(monkeypatch):
    monkeypatch.delenv(SECRET_KEY_VARIABLE, raising=False)
    first, second = secret_key({"TESTING": True}), secret_key({"TESTING": True})
    assert first != second and len(first) >= 32


@pytest.mark.parametrize("environment, words", [
    (None, ["BIDDER_SECRET_KEY is not set", "make run", "secrets.token_hex"]),
    ("", ["BIDDER_SECRET_KEY is not set"]),
    ("dev", ["3 characters long", f"at least {MIN_SECRET_KEY_LENGTH}", "make run"]),
], ids=["unset", "empty", "too-short"])
def test_the_app_refuses_to_start_without_a_usable_key(monkeypatch, environment, words):
    monkeypatch.delenv(SECRET_KEY_VARIABLE, raising=False)
    if environment is not None:
        monkeypatch.setenv(SECRET_KEY_VARIABLE, environment)
    with pytest.raises(RuntimeError) as raised:
        create_app()
    for word in words:
        assert word in str(raised.value)


def test_production_app_takes_the_key_and_never_debugs(monkeypatch):
    monkeypatch.setenv(SECRET_KEY_VARIABLE, GOOD_KEY)
    monkeypatch.setenv("FLASK_DEBUG", "1")
    app = create_app()
    assert app.config["SECRET_KEY"] == GOOD_KEY
    assert not app.debug and not app.testing


def test_limits_and_json_settings(app):
    for name, value in LIMITS.items():
        assert app.config[name] == value
    assert app.config["MAX_CONTENT_LENGTH"] == 16 * 1024
    assert len(app.config["SECRET_KEY"]) >= MIN_SECRET_KEY_LENGTH
    assert app.json.sort_keys is False


def test_the_session_cookie_stays_on_this_site(client):
    client.get("/practice")
    cookie = client.get_cookie("session")
    assert (cookie.same_site, cookie.http_only) == ("Lax", True)


def test_the_console_of_a_debugger_does_not_exist(client):
    assert client.get("/console").status_code == 404


# Every kind of response carries the security headers.
RESPONSES = [
    ("get", "/", {}, 200),
    ("get", "/?hand=" + HAND, {}, 200),
    ("get", "/?hand=nonsense", {}, 400),
    ("post", "/", {"data": {"hand": HAND}}, 200),
    ("get", "/rules", {}, 200),
    ("get", "/static/style.css", {}, 200),
    ("get", "/static/app.js", {}, 200),
    ("get", "/api/bid?hand=" + HAND, {}, 200),
    ("get", "/api/bid?hand=AS", {}, 400),
    ("get", "/api/ping", {}, 200),
    ("get", "/api/openapi.json", {}, 200),
    ("post", "/api/bid", {"data": "x", "content_type": "text/plain"}, 415),
    ("get", "/no/such/page", {}, 404),
    ("get", "/api/no/such/thing", {}, 404),
    ("put", "/", {}, 405),
    ("delete", "/api/bid", {}, 405),
    ("post", "/", {"data": {"hand": "x" * 20_000}}, 413),
    ("post", "/api/bid", {"json": {"hand": "x" * 20_000}}, 413),
]


@pytest.mark.parametrize("method, path, options, status", RESPONSES,
                         ids=[f"{method}-{path[:30]}-{status}"
                              for method, path, _, status in RESPONSES])
def test_every_response_carries_the_security_headers(client, method, path, options,
                                                     status):
    response = getattr(client, method)(path, **options)
    assert response.status_code == status
    for name, value in HEADERS.items():
        assert response.headers[name] == value
    response.close()


def test_the_policy_allows_no_inline_script_and_no_framing():
    policy = dict(part.split(" ", 1) for part in CONTENT_SECURITY_POLICY.split("; "))
    assert policy["script-src"] == "'self'"
    assert policy["default-src"] == "'self'"
    assert policy["frame-ancestors"] == "'none'"
    assert policy["object-src"] == "'none'"
    assert "unsafe" not in CONTENT_SECURITY_POLICY
    assert HEADERS["X-Content-Type-Options"] == "nosniff"
    assert HEADERS["Referrer-Policy"]


@pytest.mark.parametrize("path", ["/", "/?hand=" + HAND, "/?hand=AS", "/rules", "/nowhere",
                                  "/?hand=AS+KS+QS+2S+AH+KH+3H+2H+AD+QD+4D+3D+5C"])
def test_pages_have_no_inline_script_or_style(client, path):
    html = client.get(path).get_data(as_text=True)
    assert re.findall(r"<script(?![^>]*\bsrc=)", html) == []
    assert not re.search(r"\sstyle=", html)
    assert not re.search(r"\son[a-z]+=", html)
    assert "<style" not in html
