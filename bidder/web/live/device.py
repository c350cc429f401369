"""The device behind a vote: whoever holds the cookie its first vote set."""

from __future__ import annotations

import re
import secrets

from flask import Response, current_app, request

COOKIE = "bidder_device"
SHAPE = re.compile(r"[A-Za-z0-9_-]{22}")
COOKIE_SECONDS = 12 * 3600


def device_id() -> tuple[str, bool]:
    """This request's device id, and whether it is new (no usable cookie came)."""
    held = request.cookies.get(COOKIE, "")
    if SHAPE.fullmatch(held):
        return held, False
    return secrets.token_urlsafe(16), True


def remember(response: Response, device: str) -> Response:
    """Set the device cookie on *response*."""
    response.set_cookie(COOKIE, device, max_age=COOKIE_SECONDS, httponly=True,
                        samesite="Lax", secure=current_app.config["SESSION_COOKIE_SECURE"])
    return response
