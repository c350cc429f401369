"""The misreading a practice round's wrong answers fit, and hands it gets wrong.

The bids given in a round are searched by the checker's own diagnosis
(``bidder.explaining``); a misreading is named when it explains every wrong answer and
would have made no right answer wrong (the diagnosis leaves at most 5 % unexplained, and
a round has fewer than 20 hands). One wrong answer fits many readings, so the first
in the space's order (the catalogue's common ones first) is named as a guess, and the
next round, of hands that reading answers otherwise than the assignment, tells: answered
by it, its wrong answers name it again, on firmer ground.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ...cards import parse_hand
from ...dealing import changed_hand
from ...explaining import bids_given, explain_answers, just_as_well
from ...misreadings import MisreadingError, variant_by_id
from ...variants import Variant

READING_HANDS = 6  # hands in a round of one misreading
READING_SEARCH = 20_000  # hands dealt, at most, to find one the reading gets wrong
MAX_ID = 200  # a reading's id kept in the session is at most this long


@dataclass(frozen=True)
class Reading:
    """The misreading a round's wrong answers fit, how many it explains, and any others
    that fit exactly as well."""

    variant: Variant
    explained: int
    alternatives: tuple[Variant, ...] = ()

    @property
    def sentence(self) -> str:
        """What the student seems to believe, in the teacher's words, and what the
        assignment says."""
        said = (f"{self.variant.sentence} The assignment says otherwise: "
                f"{self.variant.departs}.")
        if self.explained == 1:
            return (f"Your wrong answer fits a misreading: {said} One answer is not much "
                    f"to go on: hands this reading gets wrong will tell.")
        share = "Both" if self.explained == 2 else f"All {self.explained}"
        return f"{share} of your wrong answers fit one misreading: {said}"

    @property
    def others(self) -> str:
        """The readings that fit just as well, in a sentence ('' when there are none)."""
        return just_as_well(self.alternatives)


def round_reading(rows: Sequence[tuple[str, str | None, bool]]) -> Reading | None:
    """The misreading that (hand, bid given, right?) rows fit, or None when none fits
    them well enough to name."""
    return _reading(tuple(rows))


@lru_cache(maxsize=256)
def _reading(rows: tuple[tuple[str, str | None, bool], ...]) -> Reading | None:
    answers = bids_given([(hand, bid) for hand, bid, _ in rows],
                         [right for _, _, right in rows])
    found = explain_answers(answers)
    if found is None:  # else it leaves none unexplained: a round is under 1 / FEW hands
        return None
    return Reading(found.variant, found.fit.explained, found.alternatives)


def reading_ids(rows: tuple[tuple[str, str | None, bool], ...]) -> tuple | None:
    """round_reading's answer as ids (misreading, how many it explains, the others),
    as a pool process sends it back; None when no misreading fits."""
    found = round_reading(rows)
    if found is None:
        return None
    return (found.variant.id, found.explained,
            tuple(other.id for other in found.alternatives))


def reading_from_ids(found: tuple | None) -> Reading | None:
    """The Reading reading_ids wrote as ids (None for none)."""
    if found is None:
        return None
    variant_id, explained, others = found
    return Reading(variant_by_id(variant_id), explained, tuple(map(variant_by_id, others)))


def is_reading(value: object) -> bool:
    """Whether *value* is '' (no reading) or the id of a misreading, as kept in the
    session."""
    if not isinstance(value, str) or len(value) > MAX_ID:
        return False
    try:
        return value == "" or variant_by_id(value).id == value
    except MisreadingError:
        return False


@lru_cache(maxsize=1024)
def reading_hand(reading: str, seed: int) -> str | None:
    """A hand dealt for *seed* that the misreading *reading* answers otherwise than the
    assignment, written as practice writes hands, or None when none of the first
    READING_SEARCH is."""
    found = changed_hand(variant_by_id(reading), seed, READING_SEARCH)
    return None if found is None else str(parse_hand(found))
