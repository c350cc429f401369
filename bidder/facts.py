"""What a hand is worth: high card points, length points, shape and balance."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from .cards import DECK, HAND_SIZE, SUITS_HIGH_FIRST, Card, Hand, Rank, Suit

HCP_BY_RANK = {Rank.ACE: 4, Rank.KING: 3, Rank.QUEEN: 2, Rank.JACK: 1}
HCP_SCALE = tuple(HCP_BY_RANK.items())  # the assignment's scale: (rank, HCP), ace first
LENGTH_POINTS_AFTER = 4  # one distribution point for each card beyond the fourth
BALANCED_LENGTHS = range(2, 5)  # every suit 2 to 4 cards ...
BALANCED_WITH_MINOR = (5, 3, 3, 2)  # ... or 5-3-3-2 with the five cards in a minor
# The 560 ways 13 cards fall into four suits: the lengths, clubs first.
# In the order of product(range(14), repeat=4), written out: filtering the 38,416
# products took 3 ms of every start.
SHAPES = tuple((clubs, diamonds, hearts, HAND_SIZE - clubs - diamonds - hearts)
               for clubs in range(HAND_SIZE + 1)
               for diamonds in range(HAND_SIZE + 1 - clubs)
               for hearts in range(HAND_SIZE + 1 - clubs - diamonds))


@dataclass(frozen=True, eq=False)
class Counting:
    """How a hand is counted: the HCP of each honour (*scale*), the distribution points
    a suit earns (one for each card beyond *beyond* cards, if given, and *short* points
    for a void, a singleton, a doubleton...), and the suits whose five cards leave
    5-3-3-2 balanced."""

    name: str
    beyond: int | None
    short: tuple[int, ...]
    balanced_fives: tuple[Suit, ...]
    how: str  # the points in words
    none: str  # why a hand has none, in words
    also_balanced: tuple[tuple[int, ...], ...] = ()  # patterns, longest first, read as balanced
    scale: tuple[tuple[Rank, int], ...] = HCP_SCALE  # (rank, HCP) of each honour counted
    longest_only: bool = False  # distribution points of the longest suit alone (a misreading)

    @cached_property
    def hcp_by_rank(self) -> tuple[int, ...]:
        """The HCP of each rank, by its number."""
        values = dict(self.scale)
        return tuple(values.get(value, 0) for value in range(Rank.ACE + 1))

    def card_hcp(self, card: Card) -> int:
        """High card points of one card on this counting's scale."""
        return self.hcp_by_rank[card.rank]

    @property
    def scale_text(self) -> str:
        """'A 4, K 3, Q 2, J 1'."""
        return ", ".join(f"{rank.label} {points}" for rank, points in self.scale)

    def points(self, length: int) -> int:
        """Distribution points of a suit of *length* cards."""
        long = 0 if self.beyond is None else max(0, length - self.beyond)
        return long + (self.short[length] if length < len(self.short) else 0)

    def distribution(self, lengths: tuple[int, ...]) -> int:
        """Distribution points of a hand of suits of these *lengths*: every suit's, or the
        longest suit's alone."""
        if self.longest_only:
            return self.points(max(lengths))
        return sum(map(self.points, lengths))

    @property
    def distribution_key(self) -> tuple:
        """What decides the distribution points: two countings with the same key count
        them alike."""
        return self.beyond, self.short, self.longest_only

    def describe_fives(self, five: int) -> str:
        """'a 5-card minor', or 'a 5-card suit' when any suit will do."""
        if all(suit.is_minor for suit in self.balanced_fives):
            return f"a {five}-card minor"
        return f"a {five}-card suit"


STANDARD = Counting(
    "the assignment's", LENGTH_POINTS_AFTER, (), tuple(suit for suit in Suit if suit.is_minor),
    f"1 per card beyond {LENGTH_POINTS_AFTER}", f"no suit longer than {LENGTH_POINTS_AFTER} cards")


_HCP_OF_RANK = STANDARD.hcp_by_rank  # by number


def card_hcp(card: Card) -> int:
    """High card points of one card: A 4, K 3, Q 2, J 1, else 0."""
    return _HCP_OF_RANK[card.rank]


MAX_HCP = sum(sorted(map(card_hcp, DECK), reverse=True)[:HAND_SIZE])  # 37: no hand holds more


@dataclass(frozen=True, slots=True)
class Tally:
    """What the rules read: the length of each suit (clubs first) and the HCP, counted
    the assignment's way unless another *counting* is given."""

    lengths: tuple[int, int, int, int]
    hcp: int
    counting: Counting = STANDARD
    distribution: int = field(init=False, compare=False)
    balanced: bool = field(init=False, compare=False)
    balanced_reason: str = field(init=False, compare=False)

    def __post_init__(self) -> None:
        distribution, reason = shape_facts(self.lengths, self.counting)
        object.__setattr__(self, "distribution", distribution)
        object.__setattr__(self, "balanced", reason.startswith("balanced"))
        object.__setattr__(self, "balanced_reason", reason)

    def length(self, suit: Suit) -> int:
        """Cards held in *suit*."""
        return self.lengths[suit]

    def length_points(self, suit: Suit) -> int:
        """Distribution points from *suit* (the assignment's: one per card beyond the
        fourth)."""
        if self.counting.longest_only and suit != self.lengths.index(max(self.lengths)):
            return 0
        return self.counting.points(self.lengths[suit])

    @property
    def points(self) -> int:
        """High card points plus distribution points."""
        return self.hcp + self.distribution

    @property
    def shape(self) -> str:
        """Suit lengths, spades-hearts-diamonds-clubs, e.g. '1-4-3-5'."""
        return "-".join(str(self.lengths[suit]) for suit in SUITS_HIGH_FIRST)


@lru_cache(maxsize=4096)
def shape_facts(lengths: tuple[int, int, int, int], counting: Counting) -> tuple[int, str]:
    """Distribution points and why the hand is balanced or not, for suit lengths (clubs
    first) counted by *counting*: worked out once for each of the 560 ways 13 cards fall."""
    return counting.distribution(lengths), _balance(lengths, counting)


def _balance(lengths: tuple[int, int, int, int], counting: Counting) -> str:
    """Why the hand is balanced or not, in a sentence."""
    if all(length in BALANCED_LENGTHS for length in lengths):
        return (f"balanced: every suit has {BALANCED_LENGTHS.start} to "
                f"{BALANCED_LENGTHS.stop - 1} cards")
    pattern = "-".join(map(str, BALANCED_WITH_MINOR))
    five = BALANCED_WITH_MINOR[0]
    if tuple(sorted(lengths, reverse=True)) in counting.also_balanced:
        shape = "-".join(map(str, sorted(lengths, reverse=True)))
        return f"balanced: {shape} is read as balanced"
    if sorted(lengths, reverse=True) == list(BALANCED_WITH_MINOR):
        suit = Suit(lengths.index(five))
        kind = "minor" if suit.is_minor else "major"
        verdict = "balanced" if suit in counting.balanced_fives else "not balanced"
        return f"{verdict}: {pattern} with the {five} cards in a {kind} ({suit.word})"
    suit, length = _least_balanced_suit(lengths)
    return (f"not balanced: {suit.word} has {_cards(length)}; every suit needs "
            f"{BALANCED_LENGTHS.start} to {BALANCED_LENGTHS.stop - 1} "
            f"(or {pattern} with {counting.describe_fives(five)})")


def _least_balanced_suit(lengths: tuple[int, int, int, int]) -> tuple[Suit, int]:
    def distance(suit: Suit) -> int:
        length = lengths[suit]
        return max(BALANCED_LENGTHS.start - length, length - BALANCED_LENGTHS.stop + 1)
    suit = max(SUITS_HIGH_FIRST, key=distance)
    return suit, lengths[suit]


def _points(count: int, unit: str) -> str:
    return f"{count} {unit}" + ("" if count == 1 else "s")


def _cards(count: int) -> str:
    return _points(count, "card")


@dataclass(frozen=True)
class Facts:
    """Everything computed about one hand, once: the numbers and where they come from."""

    hand: Hand
    counting: Counting = STANDARD

    @cached_property
    def holdings(self) -> tuple[tuple[Card, ...], ...]:
        """The cards of each suit, high to low, by suit (clubs first, as Suit numbers)."""
        suits: tuple[list[Card], ...] = ([], [], [], [])
        for card in self.hand.cards:
            suits[card.suit].append(card)
        return tuple(map(tuple, suits))

    @cached_property
    def tally(self) -> Tally:
        """The lengths and HCP the rules read."""
        return Tally(tuple(map(len, self.holdings)),
                     sum(map(self.counting.card_hcp, self.hand.cards)), self.counting)

    @cached_property
    def honours(self) -> tuple[tuple[Card, int], ...]:
        """The cards that score high card points, with their points, spades first."""
        return tuple((card, points) for card in self.hand.cards
                     if (points := self.counting.card_hcp(card)))

    def suit_hcp(self, suit: Suit) -> int:
        """High card points held in *suit*."""
        return sum(map(self.counting.card_hcp, self.holdings[suit]))

    @property
    def hcp_explanation(self) -> str:
        """'12 HCP: AS 4, KH 3, AD 4, JD 1 (A 4, K 3, Q 2, J 1)'."""
        honours = ", ".join(f"{card} {points}" for card, points in self.honours) or "none"
        return f"{self.tally.hcp} HCP: {honours} ({self.counting.scale_text})"

    @property
    def distribution_explanation(self) -> str:
        """'1 distribution point: clubs 5 cards: 1 (1 per card beyond 4)'."""
        tally = self.tally
        longs = [f"{suit.word} {_cards(tally.length(suit))}: {tally.length_points(suit)}"
                 for suit in SUITS_HIGH_FIRST if tally.length_points(suit)]
        counted = "; ".join(longs) or self.counting.none
        return (f"{_points(tally.distribution, 'distribution point')}: {counted} "
                f"({self.counting.how})")

    def to_dict(self) -> dict:
        """The facts as plain JSON types."""
        tally, holdings = self.tally, self.holdings
        return {
            "hand": str(self.hand),
            "hcp": tally.hcp,
            "distribution": tally.distribution,
            "points": tally.points,
            "shape": tally.shape,
            "balanced": tally.balanced,
            "balanced_reason": tally.balanced_reason,
            "hcp_by_card": [{"card": str(card), "hcp": points}
                            for card, points in self.honours],
            "suits": [{"suit": word, "symbol": symbol,
                       "cards": list(map(str, holdings[suit])),
                       "length": len(holdings[suit]),
                       "hcp": self.suit_hcp(suit),
                       "distribution": tally.length_points(suit)}
                      for suit, word, symbol in _SUIT_NAMES],
        }


_SUIT_NAMES = tuple((suit, suit.word, suit.symbol) for suit in SUITS_HIGH_FIRST)
