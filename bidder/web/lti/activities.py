"""What a placed link opens: a practice set (by seed, rules or bids), the diagnostic
round, or the course's live poll; carried in the link's custom parameters, so the
platform hands it back with every launch."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from urllib.parse import urlencode

PRACTICE, DIAGNOSIS, POLL = "practice", "diagnosis", "poll"
KINDS = {PRACTICE: "A practice set", DIAGNOSIS: "The diagnostic round",
         POLL: "A live poll for the course"}
GRADED = (PRACTICE, DIAGNOSIS)
DIAGNOSIS_PATH = "/practice/diagnosis"


@dataclass(frozen=True)
class Activity:
    """One activity: its kind, for a practice set its seed and the rules ('R3,R7') or
    bids ('1NT,2NT') it deals (both '' for every rule), and for a poll whether the
    instructor sees students' names (else the LMS's user ids)."""

    kind: str
    seed: int = 0
    rules: str = ""
    bids: str = ""
    names: bool = False

    @property
    def graded(self) -> bool:
        """Whether a score goes to the gradebook."""
        return self.kind in GRADED

    @property
    def title(self) -> str:
        """The link's title in the course."""
        if self.kind != PRACTICE:
            return f"Bridge opening bids: {KINDS[self.kind].lower()}"
        of = (f", rules {self.rules}" if self.rules else f", bids {self.bids}" if self.bids
              else "")
        return f"Bridge opening bids: practice set {self.seed}{of}"

    def custom(self) -> dict[str, str]:
        """The custom parameters the placed link carries."""
        return {"activity": self.kind, "seed": str(self.seed), "rules": self.rules,
                "bids": self.bids, "names": "1" if self.names else ""}

    def path(self) -> str:
        """Where a student's launch goes ('' for the poll, which is made per course)."""
        if self.kind == PRACTICE:
            fields = {"set": self.seed, "rule": self.rules, "bid": self.bids}
            return "/practice?" + urlencode({key: value for key, value in fields.items()
                                              if value != ""})
        return DIAGNOSIS_PATH if self.kind == DIAGNOSIS else ""


def from_custom(custom: dict) -> Activity | None:
    """The activity a link's *custom* parameters name; None when they name none."""
    kind = custom.get("activity")
    if kind not in KINDS:
        return None
    seed = str(custom.get("seed", "0"))
    return Activity(kind, int(seed) if seed.isdigit() else 0, str(custom.get("rules", "")),
                    str(custom.get("bids", "")), custom.get("names") == "1")


def placement_ref(issuer: str, deployment: str, resource_link: str) -> str:
    """A short name for one placed link (its grade column, its poll): the same for every
    launch of that link, another for any other link."""
    digest = hashlib.sha256(f"{issuer}\n{deployment}\n{resource_link}".encode())
    return digest.hexdigest()[:24]
