"""The Flask app and request classes: Flask's own, with the work it repeats on every
request done once where the answer cannot change."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable, NoReturn
from urllib.parse import unquote_plus

import werkzeug.urls  # noqa: F401  (registers the "werkzeug.url_quote" error handler)
from flask import Flask
from flask import Request as FlaskRequest
from werkzeug.exceptions import BadRequest, RequestEntityTooLarge
from werkzeug.routing import RequestRedirect

from .security import relative_location

# How Werkzeug decodes the query string: invalid UTF-8 stays percent-encoded.
QUERY_ERRORS = "werkzeug.url_quote"
# Functions whose answer is remembered: the views, hooks and error handlers are far
# fewer; a function made afresh for each request (an after_this_request callback)
# only pushes older ones out.
SYNC_MEMORY = 256


class FormTooLarge(RequestEntityTooLarge):
    """A multipart form over one of the form limits; the description names which."""


class NestedTooDeeply(BadRequest):
    """A JSON body nested deeper than the parser goes (400, never a 500)."""

    description = ("The JSON body is nested too deeply for the server to read: send a flat "
                   "object, as the API's examples show (GET /api/openapi.json).")


class Request(FlaskRequest):
    """Flask's request, able to read one field of the query string without parsing all
    of it into a MultiDict (3 µs of every request that reads a hand), and saying which
    limit a multipart form broke."""

    def _load_form_data(self) -> None:
        """Flask's, with a form refused for its parts or a field's size said so: the
        body (at most MAX_CONTENT_LENGTH) is kept first, to count its parts."""
        if self.mimetype != "multipart/form-data" or "form" in self.__dict__:
            return super()._load_form_data()
        body = self.get_data(cache=True)
        try:
            super()._load_form_data()
        except RequestEntityTooLarge:
            raise FormTooLarge(form_limit_broken(
                body, self.mimetype_params.get("boundary", ""), self.max_form_parts,
                self.max_form_memory_size)) from None

    def get_json(self, force: bool = False, silent: bool = False, cache: bool = True):
        """Flask's, with a body nested past the parser's depth (its RecursionError, which
        even *silent* lets through) refused as a bad request, at every JSON door.

        :raises NestedTooDeeply: 400, saying so.
        """
        try:
            return super().get_json(force=force, silent=silent, cache=cache)
        except RecursionError:
            raise NestedTooDeeply() from None

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

    def raise_routing_exception(self, request) -> NoReturn:
        """Flask's, with a redirect the routing makes (``/api//ping``) pointing at a
        path, never at the Host the request claimed, in its Location and its page."""
        error = request.routing_exception
        if isinstance(error, RequestRedirect):
            raise relative_redirect(error, request.host) from None
        super().raise_routing_exception(request)

    def ensure_sync(self, func: Callable) -> Callable:
        """*func*, or a synchronous wrapper of a coroutine function: Flask's answer,
        remembered for the last SYNC_MEMORY functions asked about."""
        try:
            return self._sync(func)
        except TypeError:  # a callable that cannot be a key
            return super().ensure_sync(func)


def form_limit_broken(body: bytes, boundary: str, max_parts: int | None,
                      max_field: int | None) -> str:
    """Which limit a multipart *body* under the size limit broke, in words."""
    parts = body.count(b"--" + boundary.encode("latin-1", "replace")) - 1
    if max_parts is not None and parts > max_parts:
        return f"The form has {parts} parts; this page takes at most {max_parts}."
    return (f"A field of the form, with its part's headers, is over the limit of "
            f"{max_field:,} bytes a field.")


def relative_redirect(error: RequestRedirect, host: str) -> RequestRedirect:
    """*error* pointing at its path when it points back at *host*."""
    redirect = RequestRedirect(relative_location(error.new_url, host))
    redirect.code = error.code
    return redirect
