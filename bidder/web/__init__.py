"""The web app: the advisor page, the rules page, the teaching tools and the JSON API."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from flask import Flask

PROJECT_ROOT = Path(__file__).resolve().parents[2]
SECRET_KEY_VARIABLE = "BIDDER_SECRET_KEY"
MIN_SECRET_KEY_LENGTH = 16
LIMITS = {
    "MAX_CONTENT_LENGTH": 16 * 1024,  # the whole body, chunked or not
    "MAX_FORM_MEMORY_SIZE": 4 * 1024,
    "MAX_FORM_PARTS": 10,
}
COOKIES = {"SESSION_COOKIE_HTTPONLY": True, "SESSION_COOKIE_SAMESITE": "Lax"}


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app; *test_config* overrides the settings (tests pass TESTING=True).

    :raises RuntimeError: outside tests, when no usable secret key is configured.
    """
    app = Flask(__name__, template_folder=str(PROJECT_ROOT / "templates"),
                static_folder=str(PROJECT_ROOT / "static"))
    app.config.from_mapping(LIMITS, **COOKIES, DEBUG=False)  # never debug, whatever FLASK_DEBUG says
    app.config.from_mapping(test_config or {})
    app.config["SECRET_KEY"] = secret_key(app.config)
    app.json.sort_keys = False
    app.jinja_env.trim_blocks = app.jinja_env.lstrip_blocks = True

    from . import advisor, api, errors, render, security, teach
    security.init_app(app)
    errors.init_app(app)
    render.init_app(app)
    app.register_blueprint(advisor.blueprint)
    app.register_blueprint(api.blueprint)
    app.register_blueprint(teach.blueprint)
    return app


def secret_key(config) -> str:
    """The key that signs cookies: from the config, else the environment.

    Tests without a key get a random one; anywhere else a missing or short key stops
    the app from starting, because a guessable key lets anyone forge a cookie.
    """
    key = config.get("SECRET_KEY") or os.environ.get(SECRET_KEY_VARIABLE, "")
    if config.get("TESTING"):
        return key or secrets.token_hex()
    how = (f"set {SECRET_KEY_VARIABLE} to a long random value, e.g. "
           f"export {SECRET_KEY_VARIABLE}=$(python3 -c 'import secrets; "
           f"print(secrets.token_hex())'), or start the app with `make run`, "
           f"which makes one")
    if not key:
        raise RuntimeError(f"{SECRET_KEY_VARIABLE} is not set: the app signs its "
                           f"cookies with it; {how}")
    if len(key) < MIN_SECRET_KEY_LENGTH:
        raise RuntimeError(f"{SECRET_KEY_VARIABLE} is {len(key)} characters long; "
                           f"use at least {MIN_SECRET_KEY_LENGTH}: {how}")
    return key
