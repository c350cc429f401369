"""The device behind a vote: whoever holds the cookie the join page set.

The cookie is signed with the app's secret key, so a device cannot be made up: a vote,
a count or an event stream names one only with a cookie a join page gave. A new device's
cookie is set on whatever answers the join, an error too (a store that failed, a full
class), so that a phone that retries is the same device.
"""

from __future__ import annotations

import secrets

from flask import Response, current_app, g, request
from itsdangerous import BadSignature, Signer

COOKIE = "bidder_device"
COOKIE_SECONDS = 12 * 3600
SALT = "bidder.live.device"


def signer() -> Signer:
    """What signs and checks device cookies (the app's secret key, a salt of its own)."""
    return Signer(current_app.secret_key, salt=SALT)


def device_id() -> str | None:
    """This request's device, read from its signed cookie (None without a good one)."""
    held = request.cookies.get(COOKIE, "")[:100]
    try:
        return signer().unsign(held).decode() if held else None
    except BadSignature:
        return None


def joining_device() -> str:
    """This request's device, or a new one whose cookie the answer will set."""
    device = device_id()
    if device is None:
        device = g.new_device = secrets.token_urlsafe(16)
    return device


def adopt(response: Response, device: str) -> Response:
    """Make *device* the device of the browser behind *response* (a launch from a
    course, which names its student)."""
    response.set_cookie(COOKIE, signer().sign(device).decode(), max_age=COOKIE_SECONDS,
                        httponly=True, samesite="Lax",
                        secure=current_app.config["SESSION_COOKIE_SECURE"])
    return response


def remember(response: Response) -> Response:
    """Set the cookie of a device made for this request, if any (an after-request hook,
    so that an error page sets it too)."""
    device = g.pop("new_device", None)
    return response if device is None else adopt(response, device)
