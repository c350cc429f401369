"""What the round concludes: the readings still in play, how likely each is, and what to
ask next."""

from __future__ import annotations

from dataclasses import dataclass

from .answers import Item

RULES = "rules"  # the student reads the rules as written
NONE = "none"  # the student reads them some way outside the space
SECOND_SAID = 0.05  # a second misreading this likely beside the one named is said to be left


@dataclass(frozen=True)
class Candidate:
    """A reading the answers may come from: a misreading's id, "rules" or "none", its
    probability, and what it means in the teacher's words."""

    misreading: str
    probability: float
    text: str

    def to_dict(self) -> dict:
        """The candidate as the API's JSON writes it."""
        return {"misreading": self.misreading, "probability": round(self.probability, 4),
                "text": self.text}


@dataclass(frozen=True)
class Diagnosis:
    """The round so far: the next item (None when it is over), the candidates most likely
    first, the reading named (None while none is sure enough), how sure that is and, for a
    misreading named alone, how likely a second one is held beside it (not ruled out when
    at least SECOND_SAID)."""

    next: Item | None
    candidates: tuple[Candidate, ...]
    named: str | None
    confidence: float
    second: float | None = None

    @property
    def second_left(self) -> bool:
        """Whether a second misreading beside the one named is not ruled out."""
        return second_left(self.second)

    def to_dict(self) -> dict:
        """The diagnosis as ``POST /api/diagnosis`` answers it."""
        return {"next": None if self.next is None else self.next.to_dict(),
                "candidates": [candidate.to_dict() for candidate in self.candidates],
                "named": self.named, "confidence": round(self.confidence, 4),
                "second": None if self.second is None else round(self.second, 4)}


def second_left(second: float | None) -> bool:
    """Whether a second misreading this likely (None: none weighed) is said to be left."""
    return second is not None and second >= SECOND_SAID
