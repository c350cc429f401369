"""The benchmarks' yardstick: the opening-bid rules written plainly, as a student
writes the assignment: split the hand into cards, count, walk the list of rules.

Every speed goal in bench/ is a ratio to these functions, timed in the same run on the
same hands, so they are written to be obviously right, not fast. They import nothing
from bidder. tests/test_bench_reference.py holds them to bidder's graded functions and,
where it exists, to the shared reference (../shared/bench/reference_bid.py), whose
functions and signatures these keep, so a bench runs against either.

A hand is 13 cards separated by white space, each a rank (2-10, J, Q, K, A) then a
suit (C, D, H, S), e.g. '5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C'.

  High card points (HCP): A=4, K=3, Q=2, J=1. Distribution points: one for every
  card beyond the fourth in a suit. Points = HCP + distribution points.
  Balanced: 4-3-3-3, 4-4-3-2, or 5-3-3-2 with the five cards in a minor (C or D).

The rules, R1-R9 as the project's spec rules on the assignment's words (bidder.rules
holds the same list), the first that applies wins:

  R1  1NT     balanced, 16-18 HCP
  R2  1H/1S   13-21 points, a major of 5+ cards (the longer major; equal: 1S)
  R3  1C/1D   13-21 points (the longer minor; equal: 1C)
  R4  1C/1D   balanced, 19-20 HCP (the longer minor; 3-3: 1C, 4-4: 1D). R3 always
              comes first for these hands, so R4 never bids; it stays in the list.
  R5  2NT     balanced, 21-23 HCP
  R6  2 of a suit   22+ points and a suit of 5+ cards; of two such suits: the major
              over a minor, else the one with more HCP, else the longer, else the
              lower-ranking
  R7  3 of a suit   5-9 HCP and a suit of exactly 7 cards
  R8  4 of a suit   6-10 HCP and a suit of exactly 8 cards (the page prints "6-108")
  R9  None    no rule above applies
"""

from __future__ import annotations

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("C", "D", "H", "S")  # lowest-ranking first
HCP_VALUES = {"A": 4, "K": 3, "Q": 2, "J": 1}
MAJORS = ("S", "H")
MINORS = ("D", "C")
DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)  # 52 cards, as written
CARDS_IN_A_HAND = 13

_KNOWN_RANKS = set(RANKS)
_KNOWN_SUITS = set(SUITS)


def parseHand(hand: str) -> list[tuple[str, str]]:
    """The hand as a list of (rank, suit) pairs, e.g. [('5', 'C'), ('7', 'H'), ...].

    :raises ValueError: unless the hand is 13 different cards in the notation above.
    """
    cards = []
    for word in hand.split():
        rank, suit = word[:-1], word[-1:]
        if rank not in _KNOWN_RANKS or suit not in _KNOWN_SUITS:
            raise ValueError(f"{word!r} is not a card")
        cards.append((rank, suit))
    if len(cards) != CARDS_IN_A_HAND:
        raise ValueError(f"a hand has 13 cards, this one {len(cards)}: {hand!r}")
    if len(set(cards)) != CARDS_IN_A_HAND:
        raise ValueError(f"a card appears twice in {hand!r}")
    return cards


def _by_suit(cards: list[tuple[str, str]]) -> tuple[dict[str, int], dict[str, int]]:
    """How many cards, and how many high card points, the hand holds in each suit:
    two dicts keyed 'C', 'D', 'H', 'S'."""
    lengths = {"C": 0, "D": 0, "H": 0, "S": 0}
    suit_hcp = {"C": 0, "D": 0, "H": 0, "S": 0}
    for rank, suit in cards:
        lengths[suit] += 1
        suit_hcp[suit] += HCP_VALUES.get(rank, 0)
    return lengths, suit_hcp


def _distribution_points(lengths: dict[str, int]) -> int:
    """One point for every card beyond the fourth in each suit."""
    return sum(length - 4 for length in lengths.values() if length > 4)


def highCardPoints(hand: str) -> int:
    """The hand's high card points: A=4, K=3, Q=2, J=1."""
    points = 0
    for rank, _suit in parseHand(hand):
        points += HCP_VALUES.get(rank, 0)
    return points


def suitLengths(hand: str) -> dict[str, int]:
    """How many cards the hand holds in each suit, keyed 'C', 'D', 'H', 'S'."""
    return _by_suit(parseHand(hand))[0]


def distributionPoints(hand: str) -> int:
    """The hand's distribution points: one for every card beyond the fourth in a suit."""
    return _distribution_points(suitLengths(hand))


def isBalanced(lengths: dict[str, int]) -> bool:
    """Whether a hand of these suit lengths is balanced: every suit 2 to 4 cards, or
    5-3-3-2 with the five cards in a minor."""
    if all(2 <= length <= 4 for length in lengths.values()):
        return True
    shape = sorted(lengths.values())
    return shape == [2, 3, 3, 5] and (lengths["C"] == 5 or lengths["D"] == 5)


def _suit_with_length(lengths: dict[str, int], length: int) -> str | None:
    """The suit of exactly *length* cards (a pre-empt's suit), or None."""
    for suit in SUITS:
        if lengths[suit] == length:
            return suit
    return None


def _two_level_suit(lengths: dict[str, int], suit_hcp) -> str | None:
    """R6's suit: the only suit of 5+ cards; of two, the major over a minor, else the
    one with more HCP, else the longer, else the lower-ranking. None without one.

    *suit_hcp* is a dict, or a function giving one (called only to part two suits).
    """
    long_suits = [suit for suit in SUITS if lengths[suit] >= 5]  # lowest first
    if not long_suits:
        return None
    if len(long_suits) == 1:  # 13 cards hold at most two suits of five
        return long_suits[0]
    lower, higher = long_suits
    if (lower in MAJORS) != (higher in MAJORS):
        return lower if lower in MAJORS else higher
    if callable(suit_hcp):
        suit_hcp = suit_hcp()
    if suit_hcp[lower] != suit_hcp[higher]:
        return lower if suit_hcp[lower] > suit_hcp[higher] else higher
    if lengths[lower] != lengths[higher]:
        return lower if lengths[lower] > lengths[higher] else higher
    return lower


# The rules, in order. Each is given the hand's HCP, points, balance, suit lengths and
# HCP by suit, and returns its bid, or None when it does not apply.

def _r1_one_no_trump(hcp, points, balanced, lengths, suit_hcp):
    if balanced and 16 <= hcp <= 18:
        return "1NT"
    return None


def _r2_one_of_a_major(hcp, points, balanced, lengths, suit_hcp):
    if 13 <= points <= 21 and (lengths["H"] >= 5 or lengths["S"] >= 5):
        return "1S" if lengths["S"] >= lengths["H"] else "1H"
    return None


def _r3_one_of_a_minor(hcp, points, balanced, lengths, suit_hcp):
    if 13 <= points <= 21:
        return "1D" if lengths["D"] > lengths["C"] else "1C"
    return None


def _r4_strong_balanced_minor(hcp, points, balanced, lengths, suit_hcp):
    if balanced and 19 <= hcp <= 20:
        if lengths["C"] == lengths["D"]:
            return "1D" if lengths["D"] >= 4 else "1C"
        return "1D" if lengths["D"] > lengths["C"] else "1C"
    return None


def _r5_two_no_trump(hcp, points, balanced, lengths, suit_hcp):
    if balanced and 21 <= hcp <= 23:
        return "2NT"
    return None


def _r6_two_of_a_suit(hcp, points, balanced, lengths, suit_hcp):
    if points >= 22:
        suit = _two_level_suit(lengths, suit_hcp)
        if suit is not None:
            return "2" + suit
    return None


def _r7_three_level_preempt(hcp, points, balanced, lengths, suit_hcp):
    if 5 <= hcp <= 9:
        suit = _suit_with_length(lengths, 7)
        if suit is not None:
            return "3" + suit
    return None


def _r8_four_level_preempt(hcp, points, balanced, lengths, suit_hcp):
    if 6 <= hcp <= 10:
        suit = _suit_with_length(lengths, 8)
        if suit is not None:
            return "4" + suit
    return None


RULES = (_r1_one_no_trump, _r2_one_of_a_major, _r3_one_of_a_minor,
         _r4_strong_balanced_minor, _r5_two_no_trump, _r6_two_of_a_suit,
         _r7_three_level_preempt, _r8_four_level_preempt)


def chooseBid(hcp: int, lengths: dict[str, int], suit_hcp) -> str | None:
    """The bid of the first rule that applies to a hand of *hcp* high card points and
    these suit lengths, or None (R9) when none does. *suit_hcp* gives the HCP in each
    suit: a dict, or a function returning one."""
    points = hcp + _distribution_points(lengths)
    balanced = isBalanced(lengths)
    for rule in RULES:
        bid = rule(hcp, points, balanced, lengths, suit_hcp)
        if bid is not None:
            return bid
    return None


def openingBid(hand: str) -> str | None:
    """The opening bid for the hand, such as '1NT' or '2S', or None to pass."""
    lengths, suit_hcp = _by_suit(parseHand(hand))
    return chooseBid(sum(suit_hcp.values()), lengths, suit_hcp)


def evaluate(hand: str) -> tuple[int, tuple[int, int, int, int]]:
    """The hand's HCP and its suit lengths, spades first: parsing and counting, the
    unit of work timed against other bridge libraries."""
    lengths, suit_hcp = _by_suit(parseHand(hand))
    return sum(suit_hcp.values()), (lengths["S"], lengths["H"], lengths["D"], lengths["C"])


if __name__ == "__main__":
    SAMPLE = "5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C"
    assert (highCardPoints(SAMPLE), distributionPoints(SAMPLE), openingBid(SAMPLE)) == (
        12, 1, "1C")
    print("the assignment's hand: 12 HCP, 1 distribution point, opens 1C")
