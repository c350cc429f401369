"""OIDC login initiation, the first step of every launch: the platform names itself and
the user; the tool makes a state and a nonce, keeps them in a short-lived signed cookie
of this browser, and sends the browser to the platform's login with them."""

from __future__ import annotations

import secrets
from urllib.parse import urlencode

from flask import Blueprint, Response, current_app, redirect, request, url_for
from itsdangerous import BadData, URLSafeTimedSerializer

from ..rate_limits import limiter, lti_limit
from ..state import store_of
from . import platforms
from .refusals import Refused

blueprint = Blueprint("lti_login", __name__, url_prefix="/lti")

COOKIE_PREFIX = "bidder_lti_"
SALT = "bidder.lti.login"
LOGIN_SECONDS = 600  # from the login to the launch: the platform's page between
MAX_FIELD = 2000


def signed() -> URLSafeTimedSerializer:
    """What signs the login cookie (the app's secret key, a salt of its own)."""
    return URLSafeTimedSerializer(current_app.secret_key, salt=SALT)


def site_url() -> str:
    """The site's own address: BIDDER_PUBLIC_URL when set, else the one asked for."""
    return current_app.config.get("PUBLIC_URL") or request.host_url.rstrip("/")


def launch_url() -> str:
    """Where platforms send launches."""
    return site_url() + url_for("lti_launch.launch")


def field(name: str) -> str:
    """The login request's field *name* (query or form), capped."""
    return (request.values.get(name) or "")[:MAX_FIELD]


@blueprint.route("/login", methods=("GET", "POST"))
@limiter.limit(lti_limit)
def login():
    """Start a launch: check the platform is registered, then send the browser to its
    login with a fresh state and nonce, which only this browser's cookie holds too.

    :raises Refused: 400 without the fields LTI asks for; 403 for a platform not
        registered.
    """
    issuer, hint = field("iss"), field("login_hint")
    if not issuer or not hint or not field("target_link_uri"):
        raise Refused(400, "This is not an LTI login", (
            "the request lacks iss, login_hint or target_link_uri. Launch the activity "
            "from the course; an LMS administrator registers the login address "
            f"{site_url()}/lti/login as the tool's OIDC login URL."))
    platform = platforms.find(store_of(current_app), issuer, field("client_id") or None)
    if platform is None:
        raise Refused(403, "This LMS is not registered with bidder", (
            f"{issuer[:120]!r} (client id {field('client_id')[:80]!r}) asked to launch, "
            f"and this site does not know it. The site's administrator adds it with "
            f"`bidder lti add` (docs/lms.md)."))
    state, nonce = secrets.token_urlsafe(16), secrets.token_urlsafe(16)
    query = {"scope": "openid", "response_type": "id_token", "response_mode": "form_post",
             "prompt": "none", "client_id": platform.client_id, "redirect_uri": launch_url(),
             "login_hint": hint, "state": state, "nonce": nonce}
    if field("lti_message_hint"):
        query["lti_message_hint"] = field("lti_message_hint")
    response = redirect(f"{platform.login_url}?{urlencode(query)}", 302)
    return remember(response, state, nonce)


def remember(response: Response, state: str, nonce: str) -> Response:
    """Keep *state* and *nonce* in this browser, for the launch page alone. The launch
    is a form the platform's page posts, from another site: the cookie goes with it
    only as SameSite=None, which browsers take only over https (BIDDER_SECURE_COOKIES);
    on plain http (a site and LMS on one machine, as in the tests) Lax does."""
    secure = current_app.config["SESSION_COOKIE_SECURE"]
    response.set_cookie(COOKIE_PREFIX + state, signed().dumps(nonce), max_age=LOGIN_SECONDS,
                        path="/lti/launch", httponly=True, secure=secure,
                        samesite="None" if secure else "Lax")
    return response


def nonce_for(state: str) -> str | None:
    """The nonce this browser's login made with *state*, or None (no login of this
    browser made it, or it is over LOGIN_SECONDS old)."""
    held = request.cookies.get(COOKIE_PREFIX + state[:40], "")[:200]
    try:
        return signed().loads(held, max_age=LOGIN_SECONDS) if held else None
    except BadData:
        return None


def forget(response: Response, state: str) -> Response:
    """Drop the login cookie of *state*: a launch uses it once."""
    response.delete_cookie(COOKIE_PREFIX + state[:40], path="/lti/launch")
    return response
