"""create_app: settings, the secret key, and the security headers on every response."""

import re
import secrets
from pathlib import Path

import pytest

from bidder.web import create_app
from bidder.web.settings import (STATE_VARIABLE, LIMITS, MIN_SECRET_KEY_LENGTH,
                                 SECRET_KEY_VARIABLE, SECURE_COOKIES_VARIABLE,
                                 TRUSTED_HOSTS_VARIABLE, secret_key)
from bidder.web.state import store_of
from bidder.web.security import CONTENT_SECURITY_POLICY, HEADERS

GOOD_KEY = "hand-5C-7H-AS-JD"  # 16 characters, 13 of them different
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


WEAK_KEYS = [
    (" " * 16, "has only 1 different character; use at least 10"),
    ("a" * 16, "has only 1 different character; use at least 10"),
    ("aabbccddeeffgghhii", "has only 9 different characters; use at least 10"),
    ("0123456789abcdef", "is a straight run of characters"),
    ("ZYXWVUTSRQPONMLK", "is a straight run of characters"),
    ("0123456789abcdef" * 2, "is one block of 16 characters repeated"),
    ("q7#Lm2$Wz9q7#Lm2$Wz9q7#", "is one block of 10 characters repeated"),
    ("dev", "is 3 characters long; use at least 16"),
    ("x" * (MIN_SECRET_KEY_LENGTH - 1), "is 15 characters long"),
]


@pytest.mark.parametrize("key, weakness", WEAK_KEYS,
                         ids=["spaces", "one-letter", "nine-letters", "run-up", "run-down",
                              "repeated-hex", "repeated-with-a-tail", "dev", "15-long"])
def test_a_guessable_key_is_refused_saying_why_and_how_to_make_one(monkeypatch, key,
                                                                    weakness):
    monkeypatch.setenv(SECRET_KEY_VARIABLE, key)
    with pytest.raises(RuntimeError) as raised:
        create_app()
    message = str(raised.value)
    assert message.startswith(f"{SECRET_KEY_VARIABLE} {weakness}")
    assert "secrets.token_hex()" in message and "make run" in message
    assert key not in message


@pytest.mark.parametrize("key", [
    GOOD_KEY, "aabbccddeeffgghhiijj", "0123456789abcdeg", "q7#Lm2$Wz9q7#Lm2$Wz",
], ids=lambda key: key[:20])
def test_keys_that_follow_the_rule_are_taken(key):
    assert secret_key({"SECRET_KEY": key}) == key


@pytest.mark.parametrize("generate", [secrets.token_hex, secrets.token_urlsafe])
def test_every_generated_key_is_taken(generate):
    """Fresh keys each run, so the test's name must not carry them: the parallel
    runner's workers must collect the same tests."""
    keys = [generate() for _ in range(50)]
    assert [secret_key({"SECRET_KEY": key}) for key in keys] == keys


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


# Settings from the environment -------------------------------------------------------

@pytest.mark.parametrize("text, hosts", [
    ("example.org,localhost", ["example.org", "localhost"]),
    (" example.org , .example.net:8000 ,, 127.0.0.1 ", ["example.org", ".example.net:8000",
                                                       "127.0.0.1"]),
    ("[::1]", ["[::1]"]),
    ("", None),
    (" , ", None),
])
def test_trusted_hosts_come_from_a_comma_separated_list(monkeypatch, text, hosts):
    monkeypatch.setenv(TRUSTED_HOSTS_VARIABLE, text)
    assert create_app({"TESTING": True}).config["TRUSTED_HOSTS"] == hosts


def test_without_the_variable_every_host_is_trusted(monkeypatch):
    monkeypatch.delenv(TRUSTED_HOSTS_VARIABLE, raising=False)
    assert create_app({"TESTING": True}).config["TRUSTED_HOSTS"] is None


@pytest.mark.parametrize("text", ["http://example.org", "example.org/practice",
                                  "example.org,exa mple.org", "user@example.org"])
def test_a_trusted_host_that_is_not_a_host_name_stops_the_app(monkeypatch, text):
    monkeypatch.setenv(TRUSTED_HOSTS_VARIABLE, text)
    with pytest.raises(RuntimeError) as raised:
        create_app({"TESTING": True})
    message = str(raised.value)
    assert message.startswith(f"{TRUSTED_HOSTS_VARIABLE} has '")
    assert "which is not a host name" in message
    assert f"{TRUSTED_HOSTS_VARIABLE}=example.org,localhost" in message


def test_trusted_hosts_from_the_environment_turn_other_hosts_away(monkeypatch):
    monkeypatch.setenv(TRUSTED_HOSTS_VARIABLE, "example.org,localhost")
    client = create_app({"TESTING": True}).test_client()
    assert client.get("/", headers={"Host": "example.org"}).status_code == 200
    assert client.get("/", headers={"Host": "localhost:5000"}).status_code == 200
    refused = client.get("/", headers={"Host": "evil.example"})
    assert refused.status_code == 400
    assert "Unknown host name" in refused.get_data(as_text=True)


@pytest.mark.parametrize("value, secure", [("1", True), ("0", False), ("", False),
                                           (None, False)])
def test_secure_cookies_are_switched_on_by_the_environment(monkeypatch, value, secure):
    monkeypatch.delenv(SECURE_COOKIES_VARIABLE, raising=False)
    if value is not None:
        monkeypatch.setenv(SECURE_COOKIES_VARIABLE, value)
    client = create_app({"TESTING": True}).test_client()
    client.get("/practice")
    cookie = client.get_cookie("session")
    assert cookie.secure is secure
    assert (cookie.http_only, cookie.same_site) == (True, "Lax")


@pytest.mark.parametrize("value", ["yes", "true", "2"])
def test_a_secure_cookies_value_other_than_1_or_0_stops_the_app(monkeypatch, value):
    monkeypatch.setenv(SECURE_COOKIES_VARIABLE, value)
    with pytest.raises(RuntimeError, match=f"{SECURE_COOKIES_VARIABLE} is '{value}': use "
                                           f"{SECURE_COOKIES_VARIABLE}=1 to turn it on"):
        create_app({"TESTING": True})


def test_the_state_store_is_the_one_the_environment_names(monkeypatch, tmp_path):
    url = f"sqlite:///{tmp_path / 'state.sqlite3'}"
    monkeypatch.setenv(STATE_VARIABLE, url)
    app = create_app({"TESTING": True})
    assert app.config["STATE_URL"] == store_of(app).url == url
    assert (tmp_path / "state.sqlite3").exists()


def test_the_state_store_is_a_file_in_the_instance_folder_unless_told(monkeypatch):
    monkeypatch.delenv(STATE_VARIABLE, raising=False)
    app = create_app({"TESTING": True})
    assert store_of(app).path == str(Path(app.instance_path, "state.sqlite3"))


@pytest.mark.parametrize("url", ["postgres://db/state", "sqlite://"])
def test_a_state_url_that_names_no_store_stops_the_app_naming_the_variable(monkeypatch,
                                                                             url):
    monkeypatch.setenv(STATE_VARIABLE, url)
    with pytest.raises(RuntimeError, match=f"^{STATE_VARIABLE}: the state URL"):
        create_app({"TESTING": True})


def test_a_store_that_fails_its_check_leaves_the_app_serving_and_says_why(tmp_path,
                                                                          caplog):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    app = create_app({"TESTING": True, "STATE_URL": f"sqlite:///{blocker / 's.db'}"})
    assert f"the state file {blocker / 's.db'} cannot be used" in caplog.text
    assert f"set {STATE_VARIABLE} to a store the server may write" in caplog.text
    client = app.test_client()
    assert client.get("/api/bid?hand=AS KS QS JS AH KH QH AD KD AC KC QC JC").status_code == 200
    assert client.get("/rules").status_code == 200
    assert client.get("/practice").status_code == 200


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


# Behind a proxy: BIDDER_PROXY_HOPS ---------------------------------------------------

@pytest.mark.parametrize("text, hops", [("", 0), ("0", 0), (" 1 ", 1), ("2", 2), ("8", 8)])
def test_proxy_hops_come_from_the_environment(monkeypatch, text, hops):
    from bidder.web.settings import PROXY_HOPS_VARIABLE

    monkeypatch.setenv(PROXY_HOPS_VARIABLE, text)
    assert create_app({"TESTING": True}).config["PROXY_HOPS"] == hops


@pytest.mark.parametrize("text", ["9", "-1", "one", "1.5", "²", "true"])
def test_proxy_hops_that_are_not_a_small_whole_number_stop_the_app(monkeypatch, text):
    from bidder.web.settings import PROXY_HOPS_VARIABLE

    monkeypatch.setenv(PROXY_HOPS_VARIABLE, text)
    with pytest.raises(RuntimeError) as raised:
        create_app({"TESTING": True})
    assert str(raised.value).startswith(f"{PROXY_HOPS_VARIABLE} is {text!r}: give how many")
    assert "a whole number from 0 to 8" in str(raised.value)


@pytest.mark.parametrize("hops, address, scheme", [
    (0, "10.0.0.1", "http"),  # no proxy trusted: the header is anyone's to write
    (1, "203.0.113.9", "https"),  # the nearest proxy's word
    (2, "198.51.100.7", "https"),
])
def test_behind_proxies_the_client_is_the_one_they_name(monkeypatch, hops, address,
                                                        scheme):
    from flask import request

    from bidder.web.settings import PROXY_HOPS_VARIABLE

    monkeypatch.setenv(PROXY_HOPS_VARIABLE, str(hops))
    app = create_app({"TESTING": True})

    @app.get("/seen")
    def seen():
        return f"{request.remote_addr} {request.scheme}"

    answer = app.test_client().get(
        "/seen", environ_base={"REMOTE_ADDR": "10.0.0.1"},
        headers={"X-Forwarded-For": "198.51.100.7, 203.0.113.9",
                 "X-Forwarded-Proto": "https, https"})
    assert answer.get_data(as_text=True) == f"{address} {scheme}"
