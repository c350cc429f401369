"""The app's settings: the fixed ones, and those the BIDDER_* environment variables and
the secret key give, each refused with what to write instead when it cannot be read."""

from __future__ import annotations

import os
import re
import secrets
import string
from pathlib import Path
from urllib.parse import urlsplit

SECRET_KEY_VARIABLE = "BIDDER_SECRET_KEY"
TRUSTED_HOSTS_VARIABLE = "BIDDER_TRUSTED_HOSTS"
SECURE_COOKIES_VARIABLE = "BIDDER_SECURE_COOKIES"
STATE_VARIABLE = "BIDDER_STATE_URL"
PROXY_HOPS_VARIABLE = "BIDDER_PROXY_HOPS"
PUBLIC_URL_VARIABLE = "BIDDER_PUBLIC_URL"
LTI_KEY_FOLDER_VARIABLE = "BIDDER_LTI_KEY_FOLDER"
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


def environment_settings(environ, instance_path: str) -> dict:
    """The settings the BIDDER_* environment variables give (see the README).

    :raises RuntimeError: naming the variable and what to write instead.
    """
    return {"TRUSTED_HOSTS": trusted_hosts(environ.get(TRUSTED_HOSTS_VARIABLE, "")),
            "SESSION_COOKIE_SECURE": switch(environ, SECURE_COOKIES_VARIABLE),
            "STATE_URL": environ.get(STATE_VARIABLE) or default_state_url(instance_path),
            "PROXY_HOPS": proxy_hops(environ.get(PROXY_HOPS_VARIABLE, "")),
            "PUBLIC_URL": public_url(environ.get(PUBLIC_URL_VARIABLE, "")),
            "LTI_KEY_FOLDER": environ.get(LTI_KEY_FOLDER_VARIABLE, "")}


def public_url(text: str) -> str:
    """The address phones reach the site at (join links and QR codes are built from it,
    never from the Host a request claims), without a trailing slash; '' when unset.

    :raises RuntimeError: for anything but an http(s) URL of a host, perhaps a port and
        a path, naming the variable and an example.
    """
    text = text.strip().rstrip("/")
    if not text:
        return ""
    parts = urlsplit(text)
    try:
        parts.port  # noqa: B018  (reading it checks it)
    except ValueError:
        parts = parts._replace(scheme="")
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query \
            or parts.fragment or parts.username is not None:
        raise RuntimeError(
            f"{PUBLIC_URL_VARIABLE} is {text[:60]!r}, which is not an address phones can "
            f"open: write the site's address as the room's phones reach it, e.g. "
            f"{PUBLIC_URL_VARIABLE}=http://192.168.1.20:5000 (see docs/before-the-lecture.md)")
    return text


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
