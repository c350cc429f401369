"""The Flask app and request classes: Flask's own, with the work it repeats on every
request done once where the answer cannot change."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable
from urllib.parse import unquote_plus

import werkzeug.urls  # noqa: F401  (registers the "werkzeug.url_quote" error handler)
from flask import Flask
from flask import Request as FlaskRequest

# How Werkzeug decodes the query string: invalid UTF-8 stays percent-encoded.
QUERY_ERRORS = "werkzeug.url_quote"
# Functions whose answer is remembered: the views, hooks and error handlers are far
# fewer; a function made afresh for each request (an after_this_request callback)
# only pushes older ones out.
SYNC_MEMORY = 256


class Request(FlaskRequest):
    """Flask's request, able to read one field of the query string without parsing all
    of it into a MultiDict (3 µs of every request that reads a hand)."""

    def arg(self, name: str) -> str | None:
        """``self.args.get(name)``: read straight from the query string when that holds
        the field *name* alone in ASCII (as a form or a link sends a hand), else from
        ``args``. The two give the same value for every query string."""
        query = self.environ.get("QUERY_STRING", "")
        if query.startswith(name + "=") and "&" not in query and query.isascii():
            return unquote_plus(query[len(name) + 1:], errors=QUERY_ERRORS)
        return self.args.get(name)


class App(Flask):
    """Flask, asking once per view, hook or error handler whether it must be run as a
    coroutine: Flask asks again on every call, about 1 µs each, five times a page."""

    request_class = Request

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._sync = lru_cache(maxsize=SYNC_MEMORY)(super().ensure_sync)

    def ensure_sync(self, func: Callable) -> Callable:
        """*func*, or a synchronous wrapper of a coroutine function: Flask's answer,
        remembered for the last SYNC_MEMORY functions asked about."""
        try:
            return self._sync(func)
        except TypeError:  # a callable that cannot be a key
            return super().ensure_sync(func)
