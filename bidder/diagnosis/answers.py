"""What a student answers and what the round asks: plain frozen values, as the API sends them."""

from __future__ import annotations

from dataclasses import dataclass

from ..bids import Bid
from ..cards import Hand

ASKABLE = ("bid", "hcp", "distribution")  # what an item may ask of each hand
MOST_COUNTED = 40  # an HCP or distribution count given is at most this
LADDER_RUNGS = 5  # hands in a ladder, at most: one shape at successive HCP


@dataclass(frozen=True)
class Answer:
    """One hand and what the student said of it: the opening (None for no opening) and,
    when asked, the HCP and the distribution points counted."""

    hand: Hand
    bid: Bid | None
    hcp: int | None = None
    distribution: int | None = None

    @property
    def call(self) -> str | None:
        """The opening as the engine writes it: '1S', '2NT', or None for no opening."""
        return None if self.bid is None else self.bid.text

    def to_dict(self) -> dict:
        """The answer as the API's JSON writes it."""
        return {"hand": str(self.hand), "bid": self.call, "hcp": self.hcp,
                "distribution": self.distribution}


@dataclass(frozen=True)
class Item:
    """The next thing to ask: one hand, or several of one shape at successive HCP (a
    ladder, each hand answered as its own answer), and what to ask of each."""

    hands: tuple[Hand, ...]
    ask: tuple[str, ...] = ("bid",)

    def to_dict(self) -> dict:
        """The item as the API's JSON writes it."""
        return {"hands": [str(hand) for hand in self.hands], "ask": list(self.ask)}
