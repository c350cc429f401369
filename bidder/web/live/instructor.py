"""The instructor's browsers: a signed cookie that only the poll's own pages receive
(HttpOnly, SameSite=Strict, its path the poll's), never a key in an address a projector,
a history or a log could show; and one-time links that add a second device (a phone as
a remote), each used once and within minutes."""

from __future__ import annotations

import secrets

from flask import Response, current_app, request
from itsdangerous import BadData, URLSafeTimedSerializer

from ..state import Store
from .ledger import POLL_SECONDS
from .model import Poll

COOKIE = "bidder_admin"
GRANT_SALT = "bidder.live.admin"
TICKET_SALT = "bidder.live.remote"
TICKET_SECONDS = 600  # a one-time link works for ten minutes
NO_STORE = {"Cache-Control": "no-store"}  # pages with the instructor's controls


def signed(salt: str) -> URLSafeTimedSerializer:
    """What signs grants or tickets with the app's secret key."""
    return URLSafeTimedSerializer(current_app.secret_key, salt=salt)


def mark(poll: Poll) -> list[str]:
    """What ties a grant or ticket to *poll*: its code and a part of its admin digest
    (a later poll given the same code has another)."""
    return [poll.code, poll.admin_digest[:16]]


def cookie_path(poll: Poll) -> str:
    """The path the grant is sent to: the poll's pages, no others."""
    return f"/live/{poll.code}"


def grant(response: Response, poll: Poll) -> Response:
    """Give the browser behind *response* the instructor's cookie for *poll*."""
    response.set_cookie(COOKIE, signed(GRANT_SALT).dumps(mark(poll)),
                        max_age=int(POLL_SECONDS), path=cookie_path(poll), httponly=True,
                        samesite="Strict",
                        secure=current_app.config["SESSION_COOKIE_SECURE"])
    return response


def holds_grant(poll: Poll) -> bool:
    """Whether this request comes from a browser *poll*'s instructor added."""
    held = request.cookies.get(COOKIE, "")[:400]
    try:
        return bool(held) and signed(GRANT_SALT).loads(held, max_age=POLL_SECONDS) == mark(poll)
    except BadData:
        return False


def ticket(poll: Poll) -> str:
    """A new one-time ticket that adds a device to *poll*'s instructor."""
    return signed(TICKET_SALT).dumps([*mark(poll), secrets.token_urlsafe(12)])


def redeem(store: Store, poll: Poll, text: str) -> bool:
    """Whether *text* is a ticket for *poll*, within its minutes and not used before
    (it is used now: the store keeps its mark as long as it could be valid)."""
    try:
        *tied, nonce = signed(TICKET_SALT).loads(text[:400], max_age=TICKET_SECONDS)
    except BadData:
        return False
    return tied == mark(poll) and store.put_if_absent(
        f"live:{poll.code}:ticket:{nonce}", "used", TICKET_SECONDS) is None
