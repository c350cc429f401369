"""The edges: security headers on every response (error pages included), redirects that
never name the Host a request claimed, bodies capped however they are sent, and a CSRF
token on every form that changes something."""

from __future__ import annotations

import io
import re
from urllib.parse import urlsplit

from flask import Flask, current_app, request, session
from flask.sessions import SecureCookieSessionInterface
from flask_wtf.csrf import CSRFProtect
from werkzeug.wsgi import get_content_length, get_host

from .slow_bodies import BodyTooSlow, timed

CONTENT_SECURITY_POLICY = "; ".join((
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
))
HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}
# Views that change nothing, so a forged request gains nothing: scripts may post to them
# without a token. Every other POST (the practice forms) must carry one.
CSRF_EXEMPT_VIEWS = ("bidder.web.advisor.index", "bidder.web.api.bid_for_body",
                     "bidder.web.api.count_for_body", "bidder.web.api.diagnosis")
READ_SIZE = 64 * 1024
SAFE_METHODS = frozenset(("GET", "HEAD", "OPTIONS", "TRACE"))  # RFC 9110: they change nothing
HEADER_LIST = list(HEADERS.items())
HEADER_NAMES = frozenset(name.lower() for name in HEADERS)
REWRITTEN = HEADER_NAMES | {"location"}  # names secure() must look at


class Edges:
    """WSGI middleware at the app's edges, one step for every request: a body given a
    deadline (``slow_bodies``: 408 when it arrives too slowly); a body sent
    without a length (chunked) read here, up to the app's limit and one byte more, and
    passed on with the length that was read (Werkzeug cuts such a stream off at
    MAX_CONTENT_LENGTH without a word, so the views would answer a truncated body; with
    a length it answers 413 as for any large body); and the security headers added to
    every response, error pages included, with a Location back to this host made
    relative. Headers of those names that the app set are replaced."""

    def __init__(self, app, config):
        self.app = app
        self.config = config

    def __call__(self, environ, start_response):
        timed(environ)

        def start(status, headers, exc_info=None):
            return start_response(status, secure(headers, environ), exc_info)
        if "HTTP_TRANSFER_ENCODING" in environ:
            try:
                environ = bounded(environ, self.config.get("MAX_CONTENT_LENGTH"))
            except BodyTooSlow as error:
                return error(environ, start)
        return self.app(environ, start)


FORM_TARGET = "bidder.form_target"
ORIGIN = re.compile(r"https?://[A-Za-z0-9.-]+(?::[0-9]{1,5})?")


def allow_form_to(origin: str) -> None:
    """Let this response's page post a form to *origin* too (an LMS's return address):
    the one page that must, so that every other keeps form-action 'self'. An origin
    that is not plainly a scheme, host and port is not added."""
    if ORIGIN.fullmatch(origin):
        request.environ[FORM_TARGET] = origin


def secure(headers: list[tuple[str, str]], environ) -> list[tuple[str, str]]:
    """*headers* with the security headers, and any Location made relative."""
    if FORM_TARGET in environ:
        policy = CONTENT_SECURITY_POLICY.replace(
            "form-action 'self'", f"form-action 'self' {environ[FORM_TARGET]}")
        return [(name, value) for name, value in headers if name.lower() not in HEADER_NAMES
                ] + [(name, policy if name == "Content-Security-Policy" else value)
                     for name, value in HEADER_LIST]
    for name, _ in headers:
        if name.lower() in REWRITTEN:
            host = get_host(environ)
            headers = [(name, relative_location(value, host) if name.lower() == "location"
                        else value) for name, value in headers
                       if name.lower() not in HEADER_NAMES]
            break
    return headers + HEADER_LIST


def relative_location(location: str, host: str) -> str:
    """*location* without its scheme and host when it points back at *host*.

    Werkzeug writes the redirects it makes itself (``/api//ping`` to ``/api/ping``) with
    the Host the request claimed; a relative one cannot send anyone to another site.
    Leading slashes are merged, so the result never reads as ``//other.site``.
    """
    parts = urlsplit(location)
    if not parts.netloc or parts.netloc.lower() != host.lower():
        return location
    path = "/" + parts.path.lstrip("/")
    return parts._replace(scheme="", netloc="", path=path).geturl()


def bounded(environ, limit: int | None):
    """*environ*, its chunked body (if any) read up to *limit* and one byte more, and
    passed on with the length that was read."""
    if limit is None or not is_chunked(environ):
        return environ
    body = read_at_most(environ["wsgi.input"], limit + 1)
    environ = {**environ, "wsgi.input": io.BytesIO(body), "CONTENT_LENGTH": str(len(body))}
    del environ["HTTP_TRANSFER_ENCODING"]
    return environ


def is_chunked(environ) -> bool:
    """Whether the body comes without a length Werkzeug would heed (Transfer-Encoding:
    chunked), from a server that ends the stream itself, as gunicorn does."""
    return bool(environ.get("wsgi.input_terminated")
                and environ.get("HTTP_TRANSFER_ENCODING")
                and get_content_length(environ) is None)


def read_at_most(stream, size: int) -> bytes:
    """Up to *size* bytes of *stream*, however few each read returns."""
    body = bytearray()
    while len(body) < size:
        chunk = stream.read(min(READ_SIZE, size - len(body)))
        if not chunk:
            break
        body += chunk
    return bytes(body)


class ChangesChecked(CSRFProtect):
    """Flask-WTF's CSRF protection, checking a token only for the methods that change
    things: Flask-WTF's own check looks up the view's exemptions for every request
    first, reads included.

    A session CSRF value that is not a string is dropped before the check. Only a
    cookie signed with the app's key, yet not written by Flask-WTF, can hold one;
    Flask-WTF would fail on it with a 500. Without it, the check answers 400 as for a
    missing token, and the next page load makes a fresh one.
    """

    def protect(self, apply_exemptions: bool = False) -> None:
        if request.method in SAFE_METHODS:
            return  # the commonest answer, without reading the config
        config = current_app.config
        if request.method not in config["WTF_CSRF_METHODS"]:
            return
        name = config["WTF_CSRF_FIELD_NAME"]
        if not isinstance(session.get(name, ""), str):
            del session[name]
        super().protect(apply_exemptions)


SESSION_LOST = "bidder.session_lost"


def session_lost() -> bool:
    """Whether this request brought a session cookie the app could not read: the site
    restarted with another secret key (or the cookie outlived the session)."""
    return request.environ.get(SESSION_LOST, False)


class LazySessions(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, without reading cookies or building the signer
    for a request that brings none (most do not: the API, the advisor, the rules): it
    starts with a fresh empty session, as Flask's own does, and is signed only if
    written."""

    def open_session(self, app: Flask, request):
        if "HTTP_COOKIE" not in request.environ:
            return self.session_class()
        session = super().open_session(app, request)
        if not session and request.cookies.get(self.get_cookie_name(app)):
            request.environ[SESSION_LOST] = True  # signed with another key, or too old
        return session

    def save_session(self, app: Flask, session, response) -> None:
        if session or session.modified or session.accessed:  # else there is nothing to do
            super().save_session(app, session, response)


def trust_proxies(app: Flask) -> None:
    """Behind PROXY_HOPS proxies (BIDDER_PROXY_HOPS), the client's address and scheme are
    read from the X-Forwarded-For and X-Forwarded-Proto the nearest of them set
    (Werkzeug's ProxyFix), so that rate limits count each client, not the proxy."""
    hops = app.config.get("PROXY_HOPS", 0)
    if hops:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)


def init_app(app: Flask) -> None:
    """Add the headers to every response *app* sends, cap chunked bodies, and ask every
    POST but the exempt views for a CSRF token (Flask-WTF's ``csrf_token()`` in forms)."""
    app.session_interface = LazySessions()
    app.wsgi_app = Edges(app.wsgi_app, app.config)
    csrf = ChangesChecked(app)
    for view in CSRF_EXEMPT_VIEWS:
        csrf.exempt(view)
