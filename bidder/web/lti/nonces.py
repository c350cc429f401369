"""The nonces of the launches already let in, kept in the state store: a launch whose
nonce was used before is a replay, refused on every worker and machine."""

from __future__ import annotations

import hashlib

from ..state import Store

# A launch's token lives minutes; its nonce is kept well past the token's expiry (and
# the clock skew allowed), so a replayed token is refused for its whole life.
NONCE_SECONDS = 2 * 3600.0
MAX_NONCE = 200


def spend(store: Store, issuer: str, nonce: str) -> bool:
    """Mark *nonce* of *issuer* used: whether it was fresh (False for a replay).

    :raises StoreUnavailable: when the store cannot say.
    """
    digest = hashlib.sha256(f"{issuer}\n{nonce}".encode()).hexdigest()[:32]
    return store.put_if_absent(f"lti:nonce:{digest}", "used", NONCE_SECONDS) is None
