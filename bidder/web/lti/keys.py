"""The tool's own key pair: made once, in the instance folder, and published as a JSON
Web Key Set, so platforms can check what the tool signs (deep-linking answers, the
requests for a grade-passback token)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from jwcrypto.jwk import JWK

KEY_FILE = "lti-key.pem"
KEY_BITS = 2048
ALGORITHM = "RS256"


@dataclass(frozen=True)
class ToolKey:
    """The tool's private key (PEM) and its public JSON Web Key, with its key id."""

    private_pem: str
    public_jwk: dict

    @property
    def public_pem(self) -> str:
        """The public key, in PEM."""
        return JWK(**self.public_jwk).export_to_pem().decode()

    def key_set(self) -> dict:
        """The JSON Web Key Set platforms fetch: this key alone."""
        return {"keys": [self.public_jwk]}

    @classmethod
    def from_pem(cls, pem: str) -> ToolKey:
        """The key whose private half *pem* holds."""
        jwk = JWK.from_pem(pem.encode())
        public = json.loads(jwk.export_public())
        return cls(pem, {**public, "kid": jwk.thumbprint(), "alg": ALGORITHM, "use": "sig"})


def made_pem() -> str:
    """A new RSA private key, in PEM."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=KEY_BITS)
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption()).decode()


def written(path: Path, pem: str) -> None:
    """Put *pem* at *path* whole, or not at all when another worker put one there first
    (written aside, then linked: a reader never sees half a key)."""
    aside = path.with_name(f".{path.name}.{os.getpid()}")
    descriptor = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as file:
        file.write(pem)
    try:
        os.link(aside, path)
    except FileExistsError:
        pass  # another worker's key is kept
    finally:
        aside.unlink()


def tool_key(folder: str | Path, make=made_pem) -> ToolKey:
    """The key kept in *folder*, made there by *make* (readable by its owner alone) the
    first time; two workers starting at once keep the one written first.

    :raises RuntimeError: when the folder cannot be written or the file read, naming it.
    """
    path = Path(folder, KEY_FILE)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists():
            written(path, make())
        return ToolKey.from_pem(path.read_text())
    except (OSError, ValueError) as error:
        raise RuntimeError(f"the LTI key {path} cannot be made or read ({error}): let the "
                           f"server write its instance folder, or delete a damaged key "
                           f"file (platforms then fetch the new key from the JWKS "
                           f"address)") from None

