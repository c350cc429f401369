"""The decision list R1..R9 as data: conditions with their thresholds, and suit choosers."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

TYPE_CHECKING = False  # typing costs a bid's start-up a tenth: imported for checkers only
if TYPE_CHECKING:
    from typing import Protocol
else:
    Protocol = object

from .cards import Suit
from .facts import SHAPES, Counting, Tally, shape_facts

MAJORS = (Suit.HEARTS, Suit.SPADES)
MINORS = (Suit.CLUBS, Suit.DIAMONDS)
_MEASURES = {"hcp": "HCP", "points": "points"}


@lru_cache(maxsize=16)
def shapes_by_balance(counting: Counting) -> dict[bool, tuple[tuple[int, ...], ...]]:
    """Every way 13 cards fall into suits, by whether *counting* calls it balanced."""
    balanced = {lengths: shape_facts(lengths, counting)[1].startswith("balanced")
                for lengths in SHAPES}
    return {wanted: tuple(lengths for lengths, is_balanced in balanced.items()
                          if is_balanced is wanted) for wanted in (True, False)}


class Holding(Protocol):
    """What a rule's bid may read of a hand: its tally, and the HCP within a suit (only
    R6's tie-break between two long suits of a kind reads that)."""

    tally: Tally

    def suit_hcp(self, suit: Suit) -> int:
        """High card points held in *suit*."""


class NeedsSuitHcp(Exception):
    """A bid asked of a tally alone that only the HCP within the suits can settle."""


@dataclass(frozen=True)
class TallyOnly:
    """A hand known only by its tally, to decide once for every hand that has it;
    reading the HCP within a suit raises NeedsSuitHcp."""

    tally: Tally

    def suit_hcp(self, suit: Suit) -> int:
        """Not known: raises NeedsSuitHcp."""
        raise NeedsSuitHcp(suit)


def plural(count: int, unit: str) -> str:
    """'1 point', '2 points'; HCP and cards handled too."""
    if unit == "HCP":
        return f"{count} HCP"
    singular = unit[:-1] if unit.endswith("s") else unit
    return f"{count} {singular if count == 1 else singular + 's'}"


def nearest_in(value: int, low: int, high: int | None) -> int:
    """The value of an inclusive range nearest *value* (no high bound: 'or more')."""
    value = max(value, low)
    return value if high is None else min(value, high)


def cards_moved(before: tuple[int, ...], after: tuple[int, ...]) -> int:
    """How many cards go from one suit to another to turn one shape into the other."""
    return sum(max(0, old - new) for old, new in zip(before, after))


def range_edges(low: int, high: int | None) -> frozenset[int]:
    """Both sides of an inclusive range's bounds (of the low one alone for 'or more')."""
    return frozenset({low - 1, low} | (set() if high is None else {high, high + 1}))


@dataclass(frozen=True)
class Between:
    """High card points or points within inclusive bounds; no high bound means 'or more'."""

    measure: str
    low: int
    high: int | None = None

    @property
    def unit(self) -> str:
        """How the measure is written: HCP or points."""
        return _MEASURES[self.measure]

    @property
    def span(self) -> str:
        """The range alone: '16-18', '22+', or '16' when both ends are the same."""
        if self.high == self.low:
            return f"{self.low}"
        return f"{self.low}+" if self.high is None else f"{self.low}-{self.high}"

    @property
    def text(self) -> str:
        """The condition as written in the rule list, e.g. '16-18 HCP' or '22+ points'."""
        return f"{self.span} {self.unit}"

    def value(self, tally: Tally) -> int:
        """This hand's HCP or points."""
        return getattr(tally, self.measure)

    def measured(self, tally: Tally) -> int:
        """What the condition reads: the hand's HCP or points."""
        return self.value(tally)

    @property
    def reads(self) -> str:
        """The fact of the tally the condition depends on alone: 'hcp' or 'points'."""
        return self.measure

    def edges(self) -> frozenset[int]:
        """The values on each side of each threshold."""
        return range_edges(self.low, self.high)

    def describe(self, value: int) -> str:
        """A hand's place against the condition: "'16-18 HCP' with 15 HCP"."""
        return f"'{self.text}' with {plural(value, self.unit)}"

    def gap(self, tally: Tally) -> int:
        """How far the hand is from the range: 0 inside, else the missing or extra amount."""
        value = self.value(tally)
        above = 0 if self.high is None else value - self.high
        return max(0, self.low - value, above)

    def holds(self, tally: Tally) -> bool:
        """Whether the hand's value is in range (not gap(), without working it out)."""
        value = getattr(tally, self.measure)  # value(), inline: the rules' hottest line
        return self.low <= value and (self.high is None or value <= self.high)

    def failure(self, tally: Tally) -> str:
        """Why the condition fails, with this hand's number."""
        return f"needs {self.text}, has {self.value(tally)}"

    def success(self, tally: Tally) -> str:
        """The condition met, with this hand's number."""
        return f"{self.text}: has {self.value(tally)}"

    def met(self, tally: Tally) -> tuple[Tally, ...]:
        """The tally nearest *tally* that is in range: the HCP moved to the nearer bound,
        the lengths kept (so points follow the HCP)."""
        value = self.value(tally)
        change = nearest_in(value, self.low, self.high) - value
        return (Tally(tally.lengths, tally.hcp + change, tally.counting),)

    def shortfall(self, tally: Tally) -> str:
        """The gap in words, e.g. '1 HCP short of' or '2 points too many for'."""
        direction = "short of" if self.value(tally) < self.low else "too many for"
        return f"{plural(self.gap(tally), self.unit)} {direction}"


@dataclass(frozen=True)
class Balanced:
    """The hand is balanced (or, with *wanted* False, is not)."""

    wanted: bool = True
    reads = "balanced"  # the fact of the tally the condition depends on alone

    @property
    def text(self) -> str:
        """'a balanced hand' or 'an unbalanced hand'."""
        return "a balanced hand" if self.wanted else "an unbalanced hand"

    def gap(self, tally: Tally) -> int:
        """0 when the shape is as wanted, else 1: shape is all or nothing."""
        return 0 if tally.balanced is self.wanted else 1

    def holds(self, tally: Tally) -> bool:
        """Whether the hand's shape is as wanted."""
        return tally.balanced is self.wanted

    def measured(self, tally: Tally) -> bool:
        """What the condition reads: whether the hand is balanced."""
        return tally.balanced

    def edges(self) -> frozenset[bool]:
        """Both sides: balanced and not."""
        return frozenset({True, False})

    def describe(self, value: bool) -> str:
        """"'a balanced hand', not balanced"."""
        return f"'{self.text}', {'' if value else 'not '}balanced"

    def failure(self, tally: Tally) -> str:
        """Why the hand is not balanced."""
        return f"needs {self.text}; {tally.balanced_reason}"

    def success(self, tally: Tally) -> str:
        """Why the hand is balanced."""
        return tally.balanced_reason

    def met(self, tally: Tally) -> tuple[Tally, ...]:
        """Every shape that is balanced as wanted, the HCP kept: fewest cards moved
        first."""
        shapes = sorted(shapes_by_balance(tally.counting)[self.wanted],
                        key=lambda lengths: cards_moved(tally.lengths, lengths))
        return tuple(Tally(lengths, tally.hcp, tally.counting) for lengths in shapes)

    def shortfall(self, tally: Tally) -> str:
        """The gap in words."""
        return "only the shape keeps it from"


@dataclass(frozen=True)
class LongSuit:
    """Some suit among *suits* holds *low* to *high* cards (no high bound: or more)."""

    suits: tuple[Suit, ...]
    low: int
    high: int | None = None
    count: int = 1  # how many suits must hold that many cards
    alone: int | None = None  # a suit with no other in range needs this many (a misreading)
    reads = "lengths"  # the fact of the tally the condition depends on alone

    @property
    def text(self) -> str:
        """The condition in words, e.g. '5+ cards in hearts or spades'."""
        where = ("some suit" if len(self.suits) == len(Suit)
                 else " or ".join(suit.word for suit in self.suits))
        if self.count == 2:
            where = "two suits"
        if self.alone is not None:
            return f"{self.alone}+ cards in one suit, or {self.span} in two"
        return f"{self.span} cards in {where}"

    @property
    def span(self) -> str:
        """How many cards a suit needs: '5+', 'exactly 7', '5-6'."""
        if self.high is None:
            return f"{self.low}+"
        if self.high == self.low:
            return f"exactly {self.low}"
        return f"{self.low}-{self.high}"

    def suit_gap(self, tally: Tally, suit: Suit) -> int:
        """How many cards *suit* is away from the range."""
        length = tally.length(suit)
        above = 0 if self.high is None else length - self.high
        return max(0, self.low - length, above)

    def matching(self, tally: Tally) -> list[Suit]:
        """The suits that meet the condition, low to high (none when one suit alone does,
        short of the cards a suit alone needs): those with no suit_gap(), read directly."""
        low, high, lengths = self.low, self.high, tally.lengths
        found = [suit for suit in self.suits
                 if low <= lengths[suit] and (high is None or lengths[suit] <= high)]
        if self.alone is not None and len(found) == 1 and lengths[found[0]] < self.alone:
            return []
        return found

    def gap(self, tally: Tally) -> int:
        """The fewest cards the suits closest to the range are away from it (for a suit
        alone short of what it needs: the fewer of its missing cards and a second suit's)."""
        gaps = sorted(self.suit_gap(tally, suit) for suit in self.suits)
        found = sum(gaps[:self.count])
        if not found and not self.matching(tally):
            lone = next(suit for suit in self.suits if not self.suit_gap(tally, suit))
            return min(self.alone - tally.length(lone), gaps[1])
        return found

    def holds(self, tally: Tally) -> bool:
        """Whether enough suits meet the condition (not gap(), without working it out)."""
        return len(self.matching(tally)) >= self.count

    def measured(self, tally: Tally) -> int:
        """What the condition reads: the length of the longest suit it names (of the
        second longest, when two suits must qualify)."""
        return sorted(map(tally.length, self.suits))[-self.count]

    def edges(self) -> frozenset[int]:
        """The lengths on each side of each threshold."""
        return range_edges(self.low, self.high)

    def describe(self, value: int) -> str:
        """"'5+ cards in hearts or spades' with 4 cards"."""
        return f"'{self.text}' with {plural(value, 'cards')}"

    def _closest(self, tally: Tally) -> Suit:
        return min(reversed(self.suits), key=lambda suit: (self.suit_gap(tally, suit),
                                                          -tally.length(suit)))

    def failure(self, tally: Tally) -> str:
        """Why no suit qualifies, naming the closest one."""
        suit = self._closest(tally)
        return f"needs {self.text}; {suit.word} has {plural(tally.length(suit), 'cards')}"

    def success(self, tally: Tally) -> str:
        """The suit that meets the condition."""
        suit = self._closest(tally)
        return f"{self.text}: {suit.word} has {plural(tally.length(suit), 'cards')}"

    def met(self, tally: Tally) -> tuple[Tally, ...]:
        """The shapes where the suit the shortfall names has as many cards as the range
        allows nearest its own, the HCP kept: the cards it gains come from the other
        suits (or those it loses go to them), in every way they can."""
        suit = self._closest(tally)
        length = tally.length(suit)
        wanted = nearest_in(length, self.low, self.high)
        direction = 1 if wanted < length else -1  # how the other suits' lengths go

        def fits(lengths: tuple[int, ...]) -> bool:
            return lengths[suit] == wanted and all(
                (lengths[other] - tally.length(other)) * direction >= 0
                for other in Suit if other != suit)
        return tuple(Tally(lengths, tally.hcp, tally.counting)
                     for lengths in SHAPES if fits(lengths))

    def shortfall(self, tally: Tally) -> str:
        """The gap in words."""
        suit = self._closest(tally)
        direction = "short of" if tally.length(suit) < self.low else "too many for"
        return f"{plural(self.gap(tally), 'cards')} in {suit.word} {direction}"


Condition = Between | Balanced | LongSuit


def longer_then_higher(suits: list[Suit], hand: Holding) -> Suit:
    """The longer suit; with equal length, the higher-ranking one."""
    return max(suits, key=lambda suit: (hand.tally.length(suit), suit))


def longer_then_lower(suits: list[Suit], hand: Holding) -> Suit:
    """The longer suit; with equal length, the lower-ranking one."""
    return max(suits, key=lambda suit: (hand.tally.length(suit), -suit))


def longer_minor_for_strong_balanced(suits: list[Suit], hand: Holding) -> Suit:
    """The longer minor; 3-3 gives clubs, 4-4 or longer gives diamonds."""
    four_four = min(map(hand.tally.length, suits)) >= 4
    return max(suits, key=lambda suit: (hand.tally.length(suit),
                                        suit if four_four else -suit))


def only_suit(suits: list[Suit], hand: Holding) -> Suit:
    """The one suit that meets the length condition (two cannot, in 13 cards)."""
    return suits[0]


def shorter_then_higher(suits: list[Suit], hand: Holding) -> Suit:
    """The shorter suit; with equal length, the higher-ranking one (a misreading)."""
    return min(suits, key=lambda suit: (hand.tally.length(suit), -suit))


def shorter_then_lower(suits: list[Suit], hand: Holding) -> Suit:
    """The shorter suit; with equal length, the lower-ranking one (a misreading)."""
    return min(suits, key=lambda suit: (hand.tally.length(suit), suit))


def higher_whatever_length(suits: list[Suit], hand: Holding) -> Suit:
    """The higher-ranking suit, whatever the lengths (rank read before length: a
    misreading)."""
    return max(suits)


def lower_whatever_length(suits: list[Suit], hand: Holding) -> Suit:
    """The lower-ranking suit, whatever the lengths (rank read before length: a
    misreading)."""
    return min(suits)


def major_over_minor(lower: Suit, higher: Suit, hand: Holding) -> Suit | None:
    """The major over a minor; None when both are of a kind."""
    return higher if lower.is_major != higher.is_major else None


def minor_over_major(lower: Suit, higher: Suit, hand: Holding) -> Suit | None:
    """The minor over a major; None when both are of a kind (a misreading)."""
    return lower if lower.is_major != higher.is_major else None


def more_hcp(lower: Suit, higher: Suit, hand: Holding) -> Suit | None:
    """The suit with more HCP in it; None when they hold as many."""
    if hand.suit_hcp(lower) == hand.suit_hcp(higher):
        return None
    return max((lower, higher), key=hand.suit_hcp)


def longer(lower: Suit, higher: Suit, hand: Holding) -> Suit | None:
    """The longer suit; None when they are as long."""
    if hand.tally.length(lower) == hand.tally.length(higher):
        return None
    return max((lower, higher), key=hand.tally.length)


def fewer_hcp(lower: Suit, higher: Suit, hand: Holding) -> Suit | None:
    """The suit with fewer HCP in it; None when they hold as many (a misreading)."""
    chosen = more_hcp(lower, higher, hand)
    return None if chosen is None else (higher if chosen is lower else lower)


def shorter(lower: Suit, higher: Suit, hand: Holding) -> Suit | None:
    """The shorter suit; None when they are as long (a misreading)."""
    chosen = longer(lower, higher, hand)
    return None if chosen is None else (higher if chosen is lower else lower)


def lower_ranking(lower: Suit, higher: Suit, hand: Holding) -> Suit | None:
    """The lower-ranking suit."""
    return lower


def higher_ranking(lower: Suit, higher: Suit, hand: Holding) -> Suit | None:
    """The higher-ranking suit."""
    return higher


STEP_WORDS = {major_over_minor: "the major over a minor", more_hcp: "more HCP in the suit",
              longer: "the longer", lower_ranking: "the lower-ranking",
              higher_ranking: "the higher-ranking", minor_over_major: "the minor over a major",
              fewer_hcp: "fewer HCP in the suit", shorter: "the shorter"}
DECIDING_STEPS = (lower_ranking, higher_ranking)  # steps that always pick: none after them count


@dataclass(frozen=True)
class Chain:
    """A choice of one long suit, or of two by a chain of steps: the first step that
    picks one of the two decides."""

    name: str
    steps: tuple[Callable, ...]

    @property
    def __name__(self) -> str:
        """The chooser's name, as a function's."""
        return self.name

    @property
    def how(self) -> str:
        """The chain in words: 'the long suit; of two, the major over a minor, then ...'."""
        return "the long suit; of two, " + ", then ".join(map(STEP_WORDS.get, self.steps))

    @property
    def deciding(self) -> tuple[Callable, ...]:
        """The steps that can decide: those up to the first that always picks a suit."""
        last = next((place for place, step in enumerate(self.steps)
                     if step in DECIDING_STEPS), len(self.steps) - 1)
        return self.steps[:last + 1]

    def __call__(self, suits: list[Suit], hand: Holding) -> Suit:
        """One long suit: it. Two: what the first step that picks one picks."""
        if len(suits) == 1:
            return suits[0]
        lower, higher = suits
        return next(chosen for step in self.steps
                    if (chosen := step(lower, higher, hand)) is not None)


R6_STEPS = (major_over_minor, more_hcp, longer, lower_ranking)  # R6's chain, as printed
two_level_suit = Chain("two_level_suit", R6_STEPS)


def chain_skipping(step: Callable) -> Chain:
    """R6's chain with one of its steps skipped (a misreading)."""
    return Chain(f"two_level_without_{step.__name__}",
                 tuple(kept for kept in R6_STEPS if kept is not step))


# R6's chain misread: a step skipped, and the last step turned (the higher-ranking suit).
R6_SKIPPED = tuple(map(chain_skipping, R6_STEPS[:-1]))
two_level_higher_last = Chain("two_level_higher_last", R6_STEPS[:-1] + (higher_ranking,))
R6_CHAINS = (two_level_suit, *R6_SKIPPED, two_level_higher_last)


# When a rule's ruling is about a hand: each gets the rule, the hand's tally and the table.
RulingWhen = Callable[["Rule", Tally, Sequence["Rule"]], bool]


def decides(rule: Rule, tally: Tally, rules: Sequence[Rule]) -> bool:
    """The rule gives this hand's bid."""
    return first_rule(tally, rules) is rule


def applies_at_all(rule: Rule, tally: Tally, rules: Sequence[Rule]) -> bool:
    """The rule applies to the hand, whether it decides or an earlier rule comes first."""
    return rule.applies(tally)


def ties_for_suit(rule: Rule, tally: Tally, rules: Sequence[Rule]) -> bool:
    """The rule decides, and its longest candidate suits are equally long."""
    lengths = sorted(map(tally.length, rule.candidates(tally)), reverse=True)
    return decides(rule, tally, rules) and len(lengths) > 1 and lengths[0] == lengths[1]


def two_long_suits(rule: Rule, tally: Tally, rules: Sequence[Rule]) -> bool:
    """Two suits meet the rule's length, and the rule decides or nothing opens."""
    fired = first_rule(tally, rules)
    return len(rule.candidates(tally)) > 1 and (fired is rule or fired.level is None)


def suit_too_long(rule: Rule, tally: Tally, rules: Sequence[Rule]) -> bool:
    """All the rule misses is a suit's length, and only because a suit is longer."""
    failures = rule.failures(tally)
    return bool(failures) and all(
        isinstance(condition, LongSuit) and condition.high is not None
        and any(tally.length(suit) > condition.high for suit in condition.suits)
        for condition in failures)


def strong_and_no_bid(rule: Rule, tally: Tally, rules: Sequence[Rule]) -> bool:
    """Nothing opens the hand, and no rule finds it short of points or HCP."""
    return decides(rule, tally, rules) and not any(
        isinstance(condition, Between) and condition.value(tally) < condition.low
        for other in rules for condition in other.failures(tally))


CHOOSERS = (longer_then_higher, longer_then_lower, longer_minor_for_strong_balanced,
            only_suit, shorter_then_higher, shorter_then_lower, higher_whatever_length,
            lower_whatever_length, *R6_CHAINS)
STEPS = (*R6_STEPS, higher_ranking, minor_over_major, fewer_hcp, shorter)  # every chain step


@dataclass(frozen=True, eq=False)
class Rule:
    """One entry of the decision list: when it applies and what it bids."""

    id: str
    name: str
    level: int | None
    conditions: tuple[Condition, ...]
    sentence: str
    how: str = ""
    suits: tuple[Suit, ...] = ()
    choose: Callable | None = None
    ruling: str = ""
    ruling_when: RulingWhen = decides  # which hands the ruling is about
    noted_under: tuple[str, ...] = ()  # earlier rules a ruling says this one also applies under

    def __reduce_ex__(self, protocol):
        """A rule of the table is pickled as its id and read back as the table's own rule
        (rules compare by identity; the web's pool processes send advice back); any
        other rule by value."""
        if RULE_BY_ID.get(self.id) is self:
            return table_rule, (self.id,)
        return object.__reduce_ex__(self, protocol)

    def ruling_about(self, tally: Tally, rules: Sequence[Rule]) -> bool:
        """Whether this rule's ruling is about the hand, so an explanation shows it."""
        return bool(self.ruling) and self.ruling_when(self, tally, rules)

    @property
    def strains(self) -> tuple[str, ...]:
        """What the rule may name: 'NT' or suit letters."""
        return tuple(suit.letter for suit in self.suits) if self.choose else ("NT",)

    @property
    def bids(self) -> tuple[str | None, ...]:
        """Every bid this rule can make."""
        if self.level is None:
            return (None,)
        return tuple(f"{self.level}{strain}" for strain in self.strains)

    @property
    def ruling_text(self) -> str:
        """How the ambiguous words of this rule are read, with the table's thresholds."""
        return self.ruling.format(conditions=self.thresholds)

    @property
    def thresholds(self) -> str:
        """The conditions joined in words, e.g. 'a balanced hand and 16-18 HCP'."""
        return " and ".join(condition.text for condition in self.conditions)

    def failures(self, tally: Tally) -> list[Condition]:
        """The conditions this hand does not meet."""
        return [condition for condition in self.conditions if not condition.holds(tally)]

    def applies(self, tally: Tally) -> bool:
        """Whether every condition holds (a loop: all() over a generator cost a third more)."""
        for condition in self.conditions:
            if not condition.holds(tally):
                return False
        return True

    def candidates(self, tally: Tally) -> list[Suit]:
        """The suits the rule may bid for this hand, low to high."""
        for condition in self.conditions:
            if isinstance(condition, LongSuit):
                return condition.matching(tally)
        return list(self.suits)

    def bid(self, hand: Holding) -> str | None:
        """The bid for a hand this rule applies to; None only for R9, no bid."""
        if self.level is None:
            return None
        if self.choose is None:
            return f"{self.level}NT"
        return f"{self.level}{self.choose(self.candidates(hand.tally), hand).letter}"


ALL_SUITS = tuple(Suit)
RULES: tuple[Rule, ...] = (
    Rule("R1", "1NT", 1, (Balanced(), Between("hcp", 16, 18)),
         "1NT: Exactly 16-18 high card points, a balanced hand (4-3-3-3, 4-4-3-2, "
         "or 5-3-3-2 where the 5 cards are in a minor suit)."),
    Rule("R2", "1 of a major", 1, (Between("points", 13, 21), LongSuit(MAJORS, 5)),
         "1H or 1S: 13-21 points and 5 or more cards in Hearts or Spades (bid the "
         "longer suit; if you have two five-card suits, bid the higher-ranking suit.)",
         how="the longer major; with equal length, spades",
         suits=MAJORS, choose=longer_then_higher,
         ruling="'two five-card suits' is read as 'equal length': 6-6 also bids 1S.",
         ruling_when=ties_for_suit),
    Rule("R3", "1 of a minor", 1, (Between("points", 13, 21),),
         "1C or 1D: 13-21 points (bid whichever of Clubs or Diamonds is the longer "
         "suit; if equal in length, bid Clubs).",
         how="the longer minor; with equal length, clubs",
         suits=MINORS, choose=longer_then_lower),
    Rule("R4", "1 of a minor, strong balanced", 1, (Balanced(), Between("hcp", 19, 20)),
         "1C or 1D: A balanced hand with 19-20 high card points. Bid the longest minor "
         "suit, even if it's only 3 cards. (With 3-3 in minors bid 1C; with 4-4 or "
         "higher bid 1D.)",
         how="the longer minor; 3-3 gives clubs, 4-4 gives diamonds",
         suits=MINORS, choose=longer_minor_for_strong_balanced,
         ruling="R3 always applies first to these hands, so R4 never decides a bid; "
                "it would differ only with 4-4 in the minors (R3 bids 1C, R4 1D).",
         noted_under=("R3",)),
    Rule("R5", "2NT", 2, (Balanced(), Between("hcp", 21, 23)),
         "2NT: Exactly 21-23 high card points and a balanced hand (4-3-3-3, 4-4-3-2, "
         "or 5-3-3-2 where the 5 cards are in a minor suit).",
         noted_under=("R3",)),
    Rule("R6", "2 of a suit", 2, (Between("points", 22), LongSuit(ALL_SUITS, 5)),
         "2 of a suit: A very strong hand (22+ points) with 5 or more cards in some "
         "suit (bid that suit). If you have 5 or more cards in two different suits: "
         "if one is a major suit and the other isn't, bid 2 of the major suit; "
         "otherwise, if one suit has more high-card points, bid 2 of that suit; "
         "otherwise, if one suit is longer, bid 2 of that suit; otherwise, bid 2 of "
         "the lower ranking suit.",
         how="the long suit; of two, the major over a minor, then more HCP in the "
             "suit, then the longer, then the lower-ranking",
         suits=ALL_SUITS, choose=two_level_suit,
         ruling="the two-suit clause belongs to this rule: a weak two-suiter does "
                "not open at the 2 level.",
         ruling_when=two_long_suits, noted_under=("R5",)),
    Rule("R7", "3 of a suit", 3, (Between("hcp", 5, 9), LongSuit(ALL_SUITS, 7, 7)),
         "3 of a suit: Preemptive: a weak hand (5-9 high card points) with a 7-card "
         "suit (bid that suit).",
         how="the 7-card suit", suits=ALL_SUITS, choose=only_suit,
         ruling="'a 7-card suit' is read as exactly that many cards: {conditions}.",
         ruling_when=suit_too_long),
    Rule("R8", "4 of a suit", 4, (Between("hcp", 6, 10), LongSuit(ALL_SUITS, 8, 8)),
         "4 of a suit: Preemptive: 6-108 high card points with an 8-card suit (bid "
         "that suit).",
         how="the 8-card suit", suits=ALL_SUITS, choose=only_suit,
         ruling="the assignment prints the range as '6-108'; it is read as {conditions} "
                "(any upper bound from 8 up gives the same bids, since stronger hands "
                "open at the 1 level).",
         ruling_when=applies_at_all, noted_under=("R2", "R3")),
    Rule("R9", "no bid", None, (),
         "None in all other cases.",
         ruling="a hand that no rule above fits opens nothing, however strong it is.",
         ruling_when=strong_and_no_bid),
)
RULE_BY_ID = {rule.id: rule for rule in RULES}


def table_rule(rule_id: str) -> Rule:
    """The rule of the table with id *rule_id*."""
    return RULE_BY_ID[rule_id]


def first_rule(tally: Tally, rules: Sequence[Rule] = RULES) -> Rule:
    """The first rule in *rules* whose conditions all hold (the last always does)."""
    return next(rule for rule in rules if rule.applies(tally))


def applying(tally: Tally, rules: Sequence[Rule] = RULES) -> tuple[Rule, ...]:
    """Every rule of *rules* that applies to the hand: the first decides, the others
    (but the catch-all last) are shadowed."""
    return tuple(rule for rule in rules if rule.applies(tally))
