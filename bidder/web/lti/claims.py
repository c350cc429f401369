"""The names of the LTI 1.3 claims the tool reads and writes, and the launch it let in,
as a value."""

from __future__ import annotations

from dataclasses import dataclass

LTI = "https://purl.imsglobal.org/spec/lti/claim/"
MESSAGE_TYPE = LTI + "message_type"
VERSION = LTI + "version"
DEPLOYMENT = LTI + "deployment_id"
ROLES = LTI + "roles"
RESOURCE_LINK = LTI + "resource_link"
CONTEXT = LTI + "context"
CUSTOM = LTI + "custom"
TARGET_LINK = LTI + "target_link_uri"
DEEP_LINKING = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
AGS = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
RESOURCE_LAUNCH = "LtiResourceLinkRequest"
DEEP_LINKING_LAUNCH = "LtiDeepLinkingRequest"
MESSAGE_TYPES = (RESOURCE_LAUNCH, DEEP_LINKING_LAUNCH)
LTI_VERSION = "1.3.0"
# The roles that open the instructor's views: the LIS context roles of those who teach.
TEACHING_ROLES = frozenset(
    f"http://purl.imsglobal.org/vocab/lis/v2/membership#{role}"
    for role in ("Instructor", "ContentDeveloper", "Administrator", "Mentor")) | frozenset(
    f"http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#{role}"
    for role in ("TeachingAssistant",))


@dataclass(frozen=True)
class Launch:
    """A launch the tool let in: whose platform, which deployment, who (the LMS's user
    id and, when sent, a name), whether they teach, and the claims that say what to open."""

    issuer: str
    client_id: str
    deployment: str
    user: str
    name: str
    teaches: bool
    message_type: str
    claims: dict

    @property
    def resource_link(self) -> str:
        """The placed link's id ('' for a deep-linking launch)."""
        link = self.claims.get(RESOURCE_LINK)
        return str(link.get("id", "")) if isinstance(link, dict) else ""

    @property
    def custom(self) -> dict:
        """The custom parameters the placed link carries."""
        custom = self.claims.get(CUSTOM)
        return custom if isinstance(custom, dict) else {}

    @property
    def ags(self) -> dict:
        """The grade service's claim (empty without one)."""
        service = self.claims.get(AGS)
        return service if isinstance(service, dict) else {}


def teaches(roles: object) -> bool:
    """Whether *roles* (the roles claim) hold a role that teaches."""
    return isinstance(roles, list) and any(role in TEACHING_ROLES for role in roles)
