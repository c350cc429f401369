"""Security headers on every response (error pages included), and a CSRF token on every
form that changes something."""

from __future__ import annotations

from flask import Flask, Response
from flask_wtf.csrf import CSRFProtect

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
CSRF_EXEMPT_VIEWS = ("bidder.web.advisor.index", "bidder.web.api.bid_for_body")


def add_headers(response: Response) -> Response:
    """Put the security headers on *response*."""
    response.headers.update(HEADERS)
    return response


def init_app(app: Flask) -> None:
    """Add the headers to every response *app* sends, and ask every POST but the exempt
    views for a CSRF token (Flask-WTF's ``csrf_token()`` in forms)."""
    app.after_request(add_headers)
    csrf = CSRFProtect(app)
    for view in CSRF_EXEMPT_VIEWS:
        csrf.exempt(view)
