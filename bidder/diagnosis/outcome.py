"""What the round concludes: the readings still in play, how likely each is, and what to
ask next."""

from __future__ import annotations

from dataclasses import dataclass

from .answers import Item

RULES = "rules"  # the student reads the rules as written
NONE = "none"  # the student reads them some way outside the space


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
    first, the reading named (None while none is sure enough) and how sure that is."""

    next: Item | None
    candidates: tuple[Candidate, ...]
    named: str | None
    confidence: float

    def to_dict(self) -> dict:
        """The diagnosis as ``POST /api/diagnosis`` answers it."""
        return {"next": None if self.next is None else self.next.to_dict(),
                "candidates": [candidate.to_dict() for candidate in self.candidates],
                "named": self.named, "confidence": round(self.confidence, 4)}
