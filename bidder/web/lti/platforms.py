"""The platforms (LMSes) the tool trusts, kept in the state store so that every worker
and machine knows them: one record per issuer and client id, added with `bidder lti add`."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from urllib.parse import urlsplit

from ..state import Store

KEY = "lti:platforms"
FOREVER = 100 * 365 * 86400.0
MAX_PLATFORMS = 200  # a site serves a few LMSes, each with a registration or two
MAX_TEXT = 500


class PlatformError(ValueError):
    """A platform's registration that cannot be used; the message says what to fix."""


@dataclass(frozen=True)
class Platform:
    """One registration: who the platform is (issuer), the client id it gave the tool,
    where it logs users in and hands out service tokens, where its keys are published,
    and the deployments of the tool it made."""

    issuer: str
    client_id: str
    login_url: str
    token_url: str
    key_set_url: str
    deployments: tuple[str, ...] = ()

    @property
    def field(self) -> str:
        """Its place among the registrations."""
        return field_of(self.issuer, self.client_id)

    def to_json(self) -> str:
        """The registration as kept in the store."""
        return json.dumps({**asdict(self), "deployments": list(self.deployments)})

    @classmethod
    def from_json(cls, text: str) -> Platform:
        """The registration kept as *text*."""
        data = json.loads(text)
        return cls(**{**data, "deployments": tuple(data["deployments"])})

    def checked(self) -> Platform:
        """This registration, if every part can be used.

        :raises PlatformError: naming the part and what to write instead.
        """
        for name in ("issuer", "login_url", "token_url", "key_set_url"):
            value = getattr(self, name)
            parts = urlsplit(value)
            if parts.scheme not in ("https", "http") or not parts.hostname \
                    or len(value) > MAX_TEXT:
                raise PlatformError(
                    f"{name.replace('_', ' ')} {value[:80]!r} is not an http(s) address: "
                    f"copy it from the LMS's page for the tool's registration")
        if not self.client_id.strip() or len(self.client_id) > MAX_TEXT:
            raise PlatformError("the client id is empty or too long: copy the client id "
                                "the LMS gave the tool")
        if not self.deployments or any(not item.strip() or len(item) > MAX_TEXT
                                       for item in self.deployments):
            raise PlatformError("give at least one deployment id, as the LMS shows it "
                                "after the tool is deployed")
        return self


def field_of(issuer: str, client_id: str) -> str:
    """Where the registration of *client_id* at *issuer* is kept."""
    return f"{issuer} {client_id}"


def register(store: Store, platform: Platform) -> Platform:
    """Keep *platform* (replacing an earlier registration of the same issuer and client).

    :raises PlatformError: for a registration that cannot be used, or past MAX_PLATFORMS.
    :raises StoreUnavailable: when the store cannot be written.
    """
    platform.checked()
    kept, _ = store.put_field_capped(KEY, platform.field, platform.to_json(), MAX_PLATFORMS,
                                     FOREVER, replace=True)
    if not kept:
        raise PlatformError(f"{MAX_PLATFORMS} platforms are registered already")
    return platform


def registered(store: Store) -> list[Platform]:
    """Every registration, by issuer and client id."""
    return [Platform.from_json(text) for _, text in sorted(store.fields(KEY).items())]


def find_issuer(store: Store, issuer: str) -> bool:
    """Whether *issuer* has any registration."""
    return any(field.split(" ", 1)[0] == issuer for field in store.fields(KEY))


def find(store: Store, issuer: str, client_id: str | None) -> Platform | None:
    """The registration of *client_id* at *issuer*; without a client id, the issuer's
    only one. None when there is no such registration (or several to choose from)."""
    kept = store.fields(KEY)
    if client_id is not None:
        text = kept.get(field_of(issuer, client_id))
        return None if text is None else Platform.from_json(text)
    mine = [text for field, text in kept.items() if field.split(" ", 1)[0] == issuer]
    return Platform.from_json(mine[0]) if len(mine) == 1 else None
