"""Hands enumerated, not dealt: for every suit-length pattern, one hand for each way the
readings can count it (its HCP and its aces, jacks and tens, which the honour misreadings
read) and, with two suits of five or more cards, for each way the two compare in HCP on
each honour scale (which R6's suit choice reads)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import product

from ..cards import HAND_SIZE, Rank, Suit
from ..exact import suit_lengths
from ..facts import HCP_SCALE

HONOURS = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN)  # the ranks any scale counts
SPOTS = tuple(rank for rank in Rank if rank not in HONOURS)  # low first
LONG = 5  # a suit R6 may weigh against another
MOST_OF_A_RANK = len(Suit)
_STANDARD = dict(HCP_SCALE)
# The honour scales the space reads, each as a change to the assignment's HCP: an ace
# read as 3, a jack as 0, a ten as 1 (misreadings.HONOUR_EDITS).
SCALES = ({}, {Rank.ACE: 3}, {Rank.JACK: 0}, {Rank.TEN: 1})


def worth(ranks, scale: dict) -> int:
    """The HCP of *ranks* on the assignment's scale changed by *scale*."""
    return sum(scale.get(rank, _STANDARD.get(rank, 0)) for rank in ranks)


@dataclass(frozen=True)
class Witness:
    """One concrete hand for a way of counting: the honours held in each suit (clubs
    first) and the suit lengths."""

    lengths: tuple[int, int, int, int]
    honours: tuple[tuple[Rank, ...], ...]

    def indexes(self) -> list[int]:
        """The hand's cards as places in DECK: each suit's honours, then its lowest spots."""
        found = []
        for suit, (length, held) in enumerate(zip(self.lengths, self.honours)):
            ranks = list(held) + list(SPOTS[:length - len(held)])
            found += [len(Rank) * suit + rank - Rank.TWO for rank in ranks]
        return found

    def key(self) -> tuple:
        """What the readings read of it: the lengths, the HCP on each scale and, for two
        long suits, how they compare on each scale."""
        longs = [held for length, held in zip(self.lengths, self.honours) if length >= LONG]
        everything = [rank for held in self.honours for rank in held]
        counted = tuple(worth(everything, scale) for scale in SCALES)
        compared = ()
        if len(longs) == 2:
            compared = tuple((worth(longs[0], scale) > worth(longs[1], scale))
                             - (worth(longs[0], scale) < worth(longs[1], scale))
                             for scale in SCALES)
        return self.lengths, counted, compared


def _placed(counts: tuple[int, ...], lengths: tuple[int, ...], order: tuple[int, ...]
            ) -> tuple[tuple[Rank, ...], ...] | None:
    """The honours (*counts* of each of HONOURS) placed in suits, each rank once a suit and
    no more honours than cards, the suits with most room first (ties in *order*); None
    when they do not fit, or leave a suit more cards than honours and spots."""
    room = list(lengths)
    held: list[list[Rank]] = [[] for _ in lengths]
    for rank, count in sorted(zip(HONOURS, counts), key=lambda pair: -pair[1]):
        suits = sorted(range(len(lengths)), key=lambda suit: (-room[suit], order.index(suit)))
        chosen = [suit for suit in suits if room[suit] > 0][:count]
        if len(chosen) < count:
            return None
        for suit in chosen:
            room[suit] -= 1
            held[suit].append(rank)
    if any(length - len(ranks) > len(SPOTS) for length, ranks in zip(lengths, held)):
        return None
    return tuple(tuple(sorted(ranks, reverse=True)) for ranks in held)


def _orders(lengths: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The suit orders honours are placed in: longest first, and with two long suits
    either of them first."""
    longest = tuple(sorted(range(len(lengths)), key=lambda suit: (-lengths[suit], suit)))
    longs = [suit for suit in longest if lengths[suit] >= LONG]
    if len(longs) < 2:
        return (longest,)
    swapped = tuple(longs[1] if suit == longs[0] else longs[0] if suit == longs[1] else suit
                    for suit in longest)
    return longest, swapped


def witnesses(lengths: tuple[int, int, int, int]) -> Iterator[Witness]:
    """One hand of these lengths for each way the readings can count it."""
    seen = set()
    for counts in product(range(MOST_OF_A_RANK + 1), repeat=len(HONOURS)):
        if sum(counts) > HAND_SIZE:
            continue
        for order in _orders(lengths):
            held = _placed(counts, lengths, order)
            if held is None:
                continue
            found = Witness(lengths, held)
            key = found.key()
            if key not in seen:
                seen.add(key)
                yield found


def every_witness() -> Iterator[Witness]:
    """witnesses() for every one of the 560 suit-length patterns."""
    for lengths in suit_lengths():
        yield from witnesses(lengths)
