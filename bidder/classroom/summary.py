"""The class report: the scores, each part's share right, the misreadings the class holds
(each with its sentence and a hand that shows it), who could not be checked, who is
stuck, how strong the class's own tests are, and hands to teach again."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from .. import packed
from ..cards import DECK
from ..dealing import bids_of, smallest_changed_hand, smallness
from ..diagnosis import teaching_hands
from ..diagnosis.teaching import MOST_HANDS
from ..explaining import just_as_well
from ..misreadings import variant_by_id
from .outcome import Outcome, by_suit

COMMON = 2  # students holding a misreading for it to be common
RETAUGHT = 3  # common misreadings given hands to teach again
HANDS_EACH = 3  # hands to teach again, for each
RETEACH_SEED = 1  # the bank's hands are picked for this seed: the same report every time
BINS = 10  # score bands of the distribution: 0-9, 10-19, ..., 90-100


@dataclass(frozen=True)
class Held:
    """A misreading the class holds: how many students, its sentence, a hand it changes
    (written by suit), and the misreadings that fit some of those students' answers
    exactly as well."""

    id: str
    students: int
    sentence: str
    hand: str | None
    names: tuple[str, ...]
    alternatives: tuple[str, ...] = ()

    @property
    def others(self) -> str:
        """The misreadings that fit just as well, in a sentence with their ids."""
        return just_as_well([variant_by_id(one) for one in self.alternatives], ids=True)


@dataclass(frozen=True)
class Share:
    """A part (a function on the hands a rule decides): students fully right of those
    checked."""

    name: str
    right: int
    of: int


@dataclass(frozen=True)
class Reteach:
    """Hands to teach a misreading again with, and what each common misreading bids on
    them (the assignment's bid first)."""

    id: str
    hands: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]


@dataclass(frozen=True)
class TestsStrength:
    """The class's own tests: how many students submitted tests, and for each misreading
    how many of those tests catch it."""

    students: int
    caught: tuple[tuple[str, int], ...]
    never: tuple[str, ...]  # misreadings no student's tests catch


@dataclass(frozen=True)
class ClassReport:
    """Everything the class report shows, worked out once."""

    outcomes: tuple[Outcome, ...]
    held: tuple[Held, ...]
    shares: tuple[Share, ...]
    reteach: tuple[Reteach, ...]
    tests: TestsStrength | None
    similar: tuple = ()  # pairs to look at (similar.py), when asked

    @property
    def checked(self) -> tuple[Outcome, ...]:
        """The students whose work was checked."""
        return tuple(outcome for outcome in self.outcomes if outcome.checked)

    @property
    def not_checkable(self) -> tuple[Outcome, ...]:
        """The students whose work could not be checked, each with why."""
        return tuple(outcome for outcome in self.outcomes if not outcome.checked)

    @property
    def stuck(self) -> tuple[Outcome, ...]:
        """The students with nothing right on the worked examples."""
        return tuple(outcome for outcome in self.checked if outcome.stuck)

    @property
    def distribution(self) -> tuple[int, ...]:
        """How many scores fall in each band of ten points (100 in the last)."""
        bands = [0] * BINS
        for outcome in self.checked:
            bands[min(int(outcome.score // BINS), BINS - 1)] += 1
        return tuple(bands)


def summarise(outcomes, similar: bool = False) -> ClassReport:
    """The class report of these outcomes (pairs to look at only when *similar*)."""
    outcomes = tuple(outcomes)
    held = _held(outcomes)
    report = ClassReport(outcomes, held, _shares(outcomes), _reteach(held),
                         _tests(outcomes))
    if similar:
        from .similar import similar_pairs

        return replace(report, similar=similar_pairs(outcomes))
    return report


def _held(outcomes: tuple[Outcome, ...]) -> tuple[Held, ...]:
    holders: dict[str, list[str]] = {}
    ties: dict[str, dict[str, None]] = {}
    for outcome in outcomes:
        for misreading in outcome.misreadings:
            holders.setdefault(misreading, []).append(outcome.student)
            ties.setdefault(misreading, {}).update(dict.fromkeys(outcome.alternatives))
    found = []
    for misreading, names in sorted(holders.items(), key=lambda item: (-len(item[1]),
                                                                        item[0])):
        variant = variant_by_id(misreading)
        hand = smallest_changed_hand(variant)
        found.append(Held(misreading, len(names), variant.sentence,
                          hand and by_suit(hand), tuple(names), tuple(ties[misreading])))
    return tuple(found)


def _shares(outcomes: tuple[Outcome, ...]) -> tuple[Share, ...]:
    right, of = Counter(), Counter()
    for outcome in outcomes:
        for name, passed in outcome.parts:
            of[name] += 1
            right[name] += passed
    return tuple(Share(name, right[name], of[name]) for name in of)


def _reteach(held: tuple[Held, ...]) -> tuple[Reteach, ...]:
    common = [entry.id for entry in held if entry.students >= COMMON][:RETAUGHT]
    found = []
    for misreading in common:
        ordered = [misreading] + [other for other in common if other != misreading]
        hands = taught_apart(ordered, HANDS_EACH)
        found.append(Reteach(misreading, tuple(
            (by_suit(hand), bids_on(hand, ordered)) for hand in hands)))
    return tuple(found)


def taught_apart(ordered: list[str], count: int) -> tuple[str, ...]:
    """*count* hands the first misreading of *ordered* answers otherwise than the rules,
    from the diagnosis's bank (its teaching hands): those on which the misreadings give
    the most different bids first, then the smallest; written by suit."""
    variants = [variant_by_id(one) for one in ordered]
    hands = teaching_hands(ordered[0], MOST_HANDS, RETEACH_SEED)
    ranked = sorted(hands, key=lambda hand: (
        -len(set(bids_of(variants, packed.encode_cards(hand.cards)))),
        smallness([DECK.index(card) for card in hand.cards]), str(hand)))
    return tuple(str(hand) for hand in ranked[:count])


def bids_on(hand: str, ids: list[str]) -> tuple[tuple[str, str], ...]:
    """What the assignment, then each misreading, bids on *hand*."""
    from .. import packed
    from ..dealing import bids_of

    bids = bids_of([variant_by_id(one) for one in ids], packed.encode(hand))
    return tuple((name, "no bid" if bid is None else str(bid))
                 for name, bid in zip(["the assignment"] + ids, bids))


def _tests(outcomes: tuple[Outcome, ...]) -> TestsStrength | None:
    tested = [outcome for outcome in outcomes if outcome.caught is not None]
    if not tested:
        return None
    caught = Counter(one for outcome in tested for one in outcome.caught)
    known = sorted({one for outcome in tested for one in outcome.caught + outcome.missed})
    return TestsStrength(len(tested), tuple((one, caught[one]) for one in known),
                         tuple(one for one in known if not caught[one]))
