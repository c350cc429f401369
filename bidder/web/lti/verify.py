"""The signed launch, checked as LTI 1.3 asks: the issuer registered, the token signed
with one of its published keys, for this tool (audience and authorized party), not
expired nor issued in the future, of a registered deployment, of a message the tool
handles, with the nonce this browser's login made, used once."""

from __future__ import annotations

import jwt
import requests

from ..state import Store
from . import nonces, platforms
from .claims import (DEPLOYMENT, LTI_VERSION, MESSAGE_TYPE, MESSAGE_TYPES, ROLES, VERSION,
                     Launch, teaches)
from .keys import ALGORITHM
from .platform_keys import public_key
from .refusals import Refused

LEEWAY_SECONDS = 60  # the clocks of the LMS and the tool may differ by this much
MAX_TOKEN = 32 * 1024
REQUIRED = ("iss", "aud", "exp", "iat", "sub", "nonce")


def bad_token(why: str) -> Refused:
    """A launch refused for its token."""
    return Refused(400, "The launch could not be read", (
        f"{why}. Launch the activity again from the course; if it keeps failing, the "
        f"LMS's administrator should check the tool's registration."))


def unverified(token: str) -> tuple[dict, dict]:
    """The header and claims of *token*, not yet checked.

    :raises Refused: 400 for anything but a signed JWT.
    """
    if not token or len(token) > MAX_TOKEN:
        raise bad_token("the launch carries no token, or one too long to be a launch")
    try:
        return jwt.get_unverified_header(token), jwt.decode(
            token, options={"verify_signature": False})
    except jwt.InvalidTokenError:
        raise bad_token("the launch's token is not a signed JWT") from None


def platform_of(store: Store, claims: dict) -> platforms.Platform:
    """The registration the token names by its issuer and audience.

    :raises Refused: 403 for an issuer or client id not registered.
    """
    issuer, audience = claims.get("iss"), claims.get("aud")
    audiences = audience if isinstance(audience, list) else [audience]
    client_id = claims.get("azp") if len(audiences) > 1 else next(iter(audiences), None)
    if not isinstance(issuer, str) or not isinstance(client_id, str):
        raise bad_token("the launch's token names no issuer or no audience")
    found = platforms.find(store, issuer, client_id)
    if found is None and platforms.find_issuer(store, issuer):
        raise wrong_audience(issuer, client_id)
    if found is None:
        raise Refused(403, "This LMS is not registered with bidder", (
            f"the launch came from {issuer[:120]!r} for client id {client_id[:80]!r}, "
            f"which this site does not know. The site's administrator adds it with "
            f"`bidder lti add` (docs/lms.md), using the issuer and client id the LMS "
            f"shows for the tool."))
    return found


def wrong_audience(issuer: str, audience: str) -> Refused:
    """A launch whose audience is not a client id registered for its issuer."""
    return Refused(403, "The launch was meant for another tool", (
        f"its audience {audience[:120]!r} is not a client id registered for {issuer}. "
        f"If the LMS gave the tool a new client id, register it with `bidder lti add`."))


def checked(store: Store, token: str, nonce: str, get=requests.get) -> Launch:
    """The launch *token* carries, once every check passes; *nonce* is the one this
    browser's login made.

    :raises Refused: saying which check failed and what to do.
    :raises StoreUnavailable: when the store cannot say.
    """
    header, claims = unverified(token)
    platform = platform_of(store, claims)
    if header.get("alg") != ALGORITHM or not isinstance(header.get("kid"), str):
        raise bad_token(f"the launch's token is signed with {header.get('alg')!r} or names "
                        f"no key id; LTI 1.3 asks for {ALGORITHM} and a key id")
    key = public_key(store, platform, header["kid"], get)
    try:
        claims = jwt.decode(token, key, algorithms=[ALGORITHM], audience=platform.client_id,
                            issuer=platform.issuer, leeway=LEEWAY_SECONDS,
                            options={"require": list(REQUIRED)})
    except jwt.ExpiredSignatureError:
        raise Refused(401, "The launch has expired", (
            "the LMS's launch is only good for minutes and this one is older (or the "
            "clocks of the LMS and this site differ by more than a minute). Launch the "
            "activity again from the course; if it keeps happening, check both clocks."
        )) from None
    except jwt.InvalidAudienceError:
        raise wrong_audience(platform.issuer, str(claims.get("aud"))) from None
    except jwt.InvalidTokenError as error:
        raise bad_token(f"the launch's token failed a check ({error})") from None
    launch = launch_of(platform, claims)
    if claims["nonce"] != nonce:
        raise Refused(403, "This launch was not started in this browser", (
            "its nonce is not the one this browser's login made: it was made for another "
            "login, or copied. Launch the activity again from the course."))
    if not nonces.spend(store, platform.issuer, nonce):
        raise Refused(403, "This launch was used already", (
            "each launch works once, in the browser that started it. Launch the activity "
            "again from the course (a bookmarked or reloaded launch page cannot be used)."))
    return launch


def launch_of(platform: platforms.Platform, claims: dict) -> Launch:
    """The Launch *claims* describe, once the message's own claims are checked.

    :raises Refused: for an unregistered deployment, or a message of another kind.
    """
    if claims.get("azp") not in (None, platform.client_id):
        raise bad_token("the launch's authorized party is not this tool's client id")
    deployment = claims.get(DEPLOYMENT)
    if deployment not in platform.deployments:
        raise Refused(403, "This deployment of the tool is not registered", (
            f"the LMS launched deployment {str(deployment)[:80]!r}, which is not among "
            f"those registered for {platform.issuer} ({', '.join(platform.deployments)}). "
            f"Add it with `bidder lti add ... --deployment ID`."))
    kind = claims.get(MESSAGE_TYPE)
    if kind not in MESSAGE_TYPES or claims.get(VERSION) != LTI_VERSION:
        raise bad_token(f"the launch is a {str(kind)[:40]!r} message of LTI version "
                        f"{str(claims.get(VERSION))[:10]!r}; bidder takes resource-link "
                        f"and deep-linking launches of LTI {LTI_VERSION}")
    name = claims.get("name") or claims.get("given_name") or ""
    return Launch(platform.issuer, platform.client_id, deployment, str(claims["sub"]),
                  str(name)[:100], teaches(claims.get(ROLES)), kind, claims)
