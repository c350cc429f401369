"""The web app: the advisor page, the rules page, the teaching tools and the JSON API."""

from __future__ import annotations

import os
import re
import secrets
import string
from pathlib import Path

from .app import App

PACKAGE_FOLDER = Path(__file__).resolve().parents[1]  # bidder/, installed or checked out
SECRET_KEY_VARIABLE = "BIDDER_SECRET_KEY"
TRUSTED_HOSTS_VARIABLE = "BIDDER_TRUSTED_HOSTS"
SECURE_COOKIES_VARIABLE = "BIDDER_SECURE_COOKIES"
STATE_VARIABLE = "BIDDER_STATE_URL"
PROXY_HOPS_VARIABLE = "BIDDER_PROXY_HOPS"
MAX_PROXY_HOPS = 8
MIN_SECRET_KEY_LENGTH = 16
MIN_SECRET_KEY_CHARACTERS = 10  # distinct characters
RUN_ORDER = string.digits + string.ascii_lowercase
LIMITS = {
    "MAX_CONTENT_LENGTH": 16 * 1024,  # the whole body, chunked or not
    "MAX_FORM_MEMORY_SIZE": 4 * 1024,
    "MAX_FORM_PARTS": 10,
}
COOKIES = {"SESSION_COOKIE_HTTPONLY": True, "SESSION_COOKIE_SAMESITE": "Lax"}
SWITCH_WORDS = {"1": True, "0": False, "": False}
# A host name or IP address, an optional leading dot for its subdomains, an optional port.
HOST_NAME = re.compile(r"\.?(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])"
                       r"(?::[0-9]{1,5})?")


def create_app(test_config: dict | None = None) -> App:
    """Build the app; *test_config* overrides the settings (tests pass TESTING=True).

    :raises RuntimeError: outside tests, when no usable secret key is configured; and
        anywhere, when a BIDDER_* setting in the environment cannot be read.
    """
    from . import (advisor, api, boards, errors, heavy, live, rate_limits, render, security,
                   state, teach, variants)
    app = App(__name__, template_folder=str(shipped_folder("templates")),
              static_folder=str(shipped_folder("static")))
    app.jinja_environment = render.SharedGlobals
    app.config.from_mapping(LIMITS, **COOKIES, DEBUG=False)  # never debug, whatever FLASK_DEBUG says
    app.config.from_mapping(environment_settings(os.environ, app.instance_path))
    app.config.from_mapping(test_config or {})
    app.config["SECRET_KEY"] = secret_key(app.config)
    app.jinja_env.trim_blocks = app.jinja_env.lstrip_blocks = True
    app.json.sort_keys = False
    security.init_app(app)
    state.init_app(app)
    heavy.init_app(app)
    rate_limits.init_app(app, os.environ)
    errors.init_app(app)
    render.init_app(app)
    app.register_blueprint(advisor.blueprint)
    app.register_blueprint(api.blueprint)
    app.register_blueprint(teach.blueprint)
    app.register_blueprint(variants.blueprint)
    live.init_app(app)
    boards.init_app(app)
    security.trust_proxies(app)  # outermost: every layer sees the client's own address
    return app


def instance_folder() -> Path:
    """Flask's instance folder for the app (``instance/`` beside a checkout)."""
    return Path(App(__name__).instance_path)


def shipped_folder(name: str, package: Path = PACKAGE_FOLDER) -> Path:
    """The folder of the pages (templates) or of the static files.

    The repository keeps them at its top, beside the package; a wheel carries them
    inside it (setup.cfg maps them to bidder/templates and bidder/static). So an
    installed copy finds them in the package, a checkout or an editable install beside it.
    """
    inside = package / name
    return inside if inside.is_dir() else package.parent / name


def environment_settings(environ, instance_path: str) -> dict:
    """The settings the BIDDER_* environment variables give (see the README).

    :raises RuntimeError: naming the variable and what to write instead.
    """
    return {"TRUSTED_HOSTS": trusted_hosts(environ.get(TRUSTED_HOSTS_VARIABLE, "")),
            "SESSION_COOKIE_SECURE": switch(environ, SECURE_COOKIES_VARIABLE),
            "STATE_URL": environ.get(STATE_VARIABLE) or default_state_url(instance_path),
            "PROXY_HOPS": proxy_hops(environ.get(PROXY_HOPS_VARIABLE, ""))}


def proxy_hops(text: str) -> int:
    """How many proxies stand in front of the app, each adding to X-Forwarded-For; unset
    or empty means none (the client connects directly).

    :raises RuntimeError: for anything but a whole number from 0 to MAX_PROXY_HOPS.
    """
    text = text.strip()
    if not text:
        return 0
    if not (text.isascii() and text.isdigit() and int(text) <= MAX_PROXY_HOPS):
        raise RuntimeError(
            f"{PROXY_HOPS_VARIABLE} is {text[:20]!r}: give how many proxies stand in front "
            f"of the app, a whole number from 0 to {MAX_PROXY_HOPS} (1 behind one nginx), "
            f"or leave it unset when clients connect directly")
    return int(text)


def default_state_url(instance_path: str) -> str:
    """The embedded store: a SQLite file in the instance folder."""
    return f"sqlite:///{Path(instance_path, 'state.sqlite3')}"


def trusted_hosts(text: str) -> list[str] | None:
    """The host names in a comma-separated list; None (every host) for an empty one.

    :raises RuntimeError: for an entry that is not a host name, such as a URL.
    """
    names = [name.strip() for name in text.split(",") if name.strip()]
    for name in names:
        if not HOST_NAME.fullmatch(name):
            raise RuntimeError(
                f"{TRUSTED_HOSTS_VARIABLE} has {name[:40]!r}, which is not a host name: "
                f"write the names the site is reached by, without http:// or a path, "
                f"separated by commas, e.g. {TRUSTED_HOSTS_VARIABLE}=example.org,localhost")
    return names or None


def switch(environ, variable: str) -> bool:
    """A 1-or-0 setting; unset or empty means 0.

    :raises RuntimeError: for any other value.
    """
    value = environ.get(variable, "").strip()
    if value not in SWITCH_WORDS:
        raise RuntimeError(f"{variable} is {value[:20]!r}: use {variable}=1 to turn it "
                           f"on, or 0 (or leave it unset) to turn it off")
    return SWITCH_WORDS[value]


def secret_key(config) -> str:
    """The key that signs cookies: from the config, else the environment.

    Tests without a key get a random one; anywhere else a missing or guessable key stops
    the app from starting, because a guessable key lets anyone forge a cookie.
    """
    key = config.get("SECRET_KEY") or os.environ.get(SECRET_KEY_VARIABLE, "")
    if config.get("TESTING"):
        return key or secrets.token_hex()
    if not key:
        raise RuntimeError(f"{SECRET_KEY_VARIABLE} is not set: the app signs its "
                           f"cookies with it; {HOW_TO_MAKE_A_KEY}")
    weakness = key_weakness(key)
    if weakness:
        raise RuntimeError(f"{SECRET_KEY_VARIABLE} {weakness}: {HOW_TO_MAKE_A_KEY}")
    return key


HOW_TO_MAKE_A_KEY = (
    f"set {SECRET_KEY_VARIABLE} to a long random value, e.g. "
    f"export {SECRET_KEY_VARIABLE}=$(python3 -c 'import secrets; "
    f"print(secrets.token_hex())'), or start the app with `make run` or `bidder serve`, "
    f"which make one")


def key_weakness(key: str) -> str:
    """What makes *key* easy to guess, in words (never the key itself); '' if nothing.

    The rule: at least 16 characters, at least 10 of them different, and neither one
    block written twice or more ('abcdefghijabcdefghij') nor a straight run
    ('0123456789abcdef').
    """
    if len(key) < MIN_SECRET_KEY_LENGTH:
        return (f"is {len(key)} characters long; use at least "
                f"{MIN_SECRET_KEY_LENGTH}")
    distinct = len(set(key))
    if distinct < MIN_SECRET_KEY_CHARACTERS:
        return (f"has only {distinct} different character{'s' * (distinct > 1)}; use at "
                f"least {MIN_SECRET_KEY_CHARACTERS}")
    block = repeated_block(key)
    if block < len(key):
        return f"is one block of {block} characters repeated; use a random value"
    if is_straight_run(key):
        return "is a straight run of characters (abcd... or 9876...); use a random value"
    return ""


def repeated_block(text: str) -> int:
    """The length of the shortest block that *text* repeats, the last time perhaps only
    in part ('abcabca' repeats 'abc'); its own length if it repeats none."""
    return next((size for size in range(1, len(text) // 2 + 1)
                 if text[size:] == text[:-size]), len(text))


def is_straight_run(text: str) -> bool:
    """Whether each character of *text* comes one after the last (or one before it) in
    0-9 then a-z, whatever the case: '0123456789abcdef', 'ZYXWV'."""
    places = [RUN_ORDER.find(character) for character in text.lower()]
    steps = {after - before for before, after in zip(places, places[1:])}
    return -1 not in places and steps in ({1}, {-1})
