"""The live class poll: /live's pages and the /api/polls JSON API, over the state store."""

from __future__ import annotations

from flask import Flask

from . import api, pages, streams


def init_app(app: Flask) -> None:
    """Register the poll's API (CSRF-free: JSON bodies and a bearer token) and pages, and
    the bounds on their event streams."""
    streams.init_app(app)
    app.register_blueprint(api.blueprint)
    app.extensions["csrf"].exempt(api.blueprint)
    app.register_blueprint(pages.blueprint)
