"""The platform's public keys, read from its JSON Web Key Set address and kept a while in
the state store; a key id not among them makes the tool read the set again (the platform
rotated its keys), at most once a minute, so a stranger's made-up key ids cannot make the
tool hammer the platform."""

from __future__ import annotations

import hashlib
import json

import requests
from jwcrypto.common import JWException
from jwcrypto.jwk import JWK

from ..state import Store
from .platforms import Platform
from .refusals import Refused

KEPT_SECONDS = 3600.0
REFETCH_SECONDS = 60.0
FETCH_SECONDS = 5.0  # connecting and reading, each
MAX_KEY_SET_BYTES = 64 * 1024


def key_set_key(platform: Platform) -> str:
    """Where *platform*'s key set is kept."""
    digest = hashlib.sha256(platform.key_set_url.encode()).hexdigest()[:32]
    return f"lti:jwks:{digest}"


def fetched(platform: Platform, get=requests.get) -> dict:
    """*platform*'s key set, read now.

    :raises Refused: 502 when it cannot be read, saying where and why.
    """
    url = platform.key_set_url
    try:
        answer = get(url, timeout=FETCH_SECONDS)
        if answer.status_code != 200:
            raise ValueError(f"it answered HTTP {answer.status_code}")
        if len(answer.content) > MAX_KEY_SET_BYTES:
            raise ValueError(f"it sent more than {MAX_KEY_SET_BYTES:,} bytes")
        keys = answer.json()
        if not isinstance(keys, dict) or not isinstance(keys.get("keys"), list):
            raise ValueError("it is not a JSON Web Key Set (an object with 'keys')")
    except (requests.RequestException, ValueError) as error:
        raise Refused(502, "The LMS's keys could not be read", (
            f"the key set address registered for {platform.issuer} ({url}) could not be "
            f"read: {str(error)[:200]}. Check that the LMS is up and that the address is "
            f"its JWKS (public keyset) URL; correct it with `bidder lti add`.")) from None
    return keys


def public_key(store: Store, platform: Platform, kid: str, get=requests.get) -> str:
    """The PEM of *platform*'s key *kid*, from the kept set, or from the set read again
    when the kept one lacks it (a rotation).

    :raises Refused: 403 for a key id the platform does not publish; 502 when the set
        cannot be read.
    """
    kept = store.get(key_set_key(platform))
    keys = json.loads(kept) if kept else None
    if keys is None or (find_key(keys, kid) is None and store.put_if_absent(
            f"{key_set_key(platform)}:read", "1", REFETCH_SECONDS) is None):
        keys = fetched(platform, get)
        store.put(key_set_key(platform), json.dumps(keys), KEPT_SECONDS)
    found = find_key(keys, kid)
    if found is None:
        raise Refused(403, "The launch was signed with a key the LMS does not publish", (
            f"key id {kid[:80]!r} is not in the key set of {platform.issuer} at "
            f"{platform.key_set_url}. If the LMS has just changed its keys, try again in a "
            f"minute; if not, the launch did not come from this LMS."))
    return found


def find_key(keys: dict, kid: str) -> str | None:
    """The PEM of the RSA signing key *kid* in the set *keys*, or None."""
    for key in keys.get("keys", []):
        if isinstance(key, dict) and key.get("kid") == kid and key.get("kty") == "RSA":
            try:
                return JWK(**key).export_to_pem().decode()
            except (JWException, TypeError, ValueError):
                return None
    return None
