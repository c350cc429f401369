"""The decision in one sentence, as a teacher says it.

"Open 1D: 13 points (13-21 needed), no five-card major, and diamonds (7) are longer than
clubs (0)." Every number in it is this hand's or the rule table's. It reads only the suit
lengths and the HCP (and, when R6 must choose between two long suits, the HCP within
them), the rule table and the counting: every hand with the same profile gets the same
sentence.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import lru_cache
from itertools import product

from .cards import Suit
from .facts import Tally
from .rules import (MAJORS, MINORS, Balanced, Between, Condition, Holding, LongSuit, Rule,
                    longer_minor_for_strong_balanced, longer_then_higher, longer_then_lower,
                    plural, two_level_suit)

NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight",
                "nine", "ten", "eleven", "twelve", "thirteen")
SUIT_KINDS = {frozenset(Suit): "suit", frozenset(MAJORS): "major", frozenset(MINORS): "minor"}


def explanation(fired: Rule, bid: str | None, hand: Holding, rules: Sequence[Rule],
                near_misses: Sequence[str] = ()) -> str:
    """The decision for *hand*: "Open 1D: ..." with this hand's numbers and suits, or
    "No bid: ..." with what each rule misses and the rules that came closest."""
    if bid is None:
        text = f"No bid: {listed(no_bid_reasons(hand.tally, tuple(rules)), ';')}."
        if near_misses:
            text += " Closest: " + "; ".join(near_misses) + "."
        return text
    return f"Open {bid}: {listed(opening_clauses(fired, hand, rules))}."


def listed(items: Sequence[str], separator: str = ",") -> str:
    """'a', 'a and b', 'a, b, and c'; 'a, and b' when a has an 'and' of its own; with
    ';' between clauses that hold commas: 'a, and b', 'a; b; and c'."""
    if len(items) == 1:
        return items[0]
    if len(items) == 2:
        plain = separator == "," and " and " not in items[0]
        return (" and " if plain else ", and ").join(items)
    return f"{separator} ".join(items[:-1]) + f"{separator} and {items[-1]}"


def and_joined(items: Iterable[str]) -> str:
    """'a', 'a and b', 'a, b and c': names in a clause."""
    *rest, last = items
    return f"{', '.join(rest)} and {last}" if rest else last


def suit_cards(count: int, suit: Suit) -> str:
    """'no hearts', '1 heart', '3 hearts'."""
    if count == 0:
        return f"no {suit.word}"
    return f"1 {suit.word[:-1]}" if count == 1 else f"{count} {suit.word}"


def shape_words(tally: Tally) -> str:
    """'a balanced hand (4-3-3-3)' or 'an unbalanced hand (5-4-3-1)'."""
    return f"{'a balanced' if tally.balanced else 'an unbalanced'} hand ({tally.shape})"


def high_first(suits: Iterable[Suit]) -> list[Suit]:
    """Suits as a bridge player lists them: spades first."""
    return sorted(suits, reverse=True)


# A bid: the rule's conditions as this hand meets them, and why this suit --------------

def opening_clauses(fired: Rule, hand: Holding, rules: Sequence[Rule]) -> list[str]:
    """What the hand has for *fired*, what it lacks for an earlier rule that asks all
    that and more, and why the suit bid is the one."""
    tally = hand.tally
    clauses = [said(condition, tally) for condition in fired.conditions]
    clauses += [lacked(condition, tally) for rule in broader_rules(fired, rules)
                for condition in rule.failures(tally)]
    choice = suit_choice(fired, hand)
    return clauses + ([choice] if choice else [])


def said(condition: Condition, tally: Tally) -> str:
    """A condition the hand meets: '13 points (13-21 needed)', '6 hearts (5+ needed)'."""
    if isinstance(condition, Between):
        return f"{plural(condition.value(tally), condition.unit)} ({condition.span} needed)"
    if isinstance(condition, Balanced):
        return shape_words(tally)
    suits = condition.matching(tally)
    if len(suits) == 1:
        return f"{suit_cards(tally.length(suits[0]), suits[0])} ({condition.span} needed)"
    return f"{condition.span} cards in {and_joined(suit.word for suit in high_first(suits))}"


def lacked(condition: Condition, tally: Tally) -> str:
    """A condition the hand misses: 'no five-card major', 'not 16-18 HCP'."""
    if isinstance(condition, Between):
        return f"not {condition.text}"
    if isinstance(condition, Balanced):
        return shape_words(tally)
    return no_suit([condition])


def no_suit(conditions: Sequence[LongSuit]) -> str:
    """Long-suit conditions of one kind, none met: 'no five-card major', 'no suit of
    exactly 7 or exactly 8 cards', 'not two five-card suits'."""
    first = conditions[0]
    kind = SUIT_KINDS.get(frozenset(first.suits),
                          "suit in " + " or ".join(suit.word for suit in first.suits))
    start = "no" if first.count == 1 else f"not {NUMBER_WORDS[first.count]}"
    noun = kind if first.count == 1 else kind + "s"
    if len(conditions) == 1 and first.high is None:
        return f"{start} {NUMBER_WORDS[first.low]}-card {noun}"
    return f"{start} {noun} of {' or '.join(condition.span for condition in conditions)} cards"


def broader_rules(fired: Rule, rules: Sequence[Rule]) -> Iterator[Rule]:
    """The rules before *fired* that ask all it asks and more (R2 of R3): what the hand
    lacks for them is why *fired* decides."""
    asks = set(fired.conditions)
    for rule in rules:
        if rule is fired:
            return
        if asks < set(rule.conditions):
            yield rule


def suit_choice(fired: Rule, hand: Holding) -> str:
    """Why the rule bids this suit and not another that it could: only the test that
    settled it. Empty when only one suit could be bid."""
    suits = fired.candidates(hand.tally) if fired.choose else []
    if len(suits) < 2:
        return ""
    chosen = fired.choose(suits, hand)
    if fired.choose not in SUIT_CHOICES:  # a misreading's choice: as it reads the rule
        return f"{chosen.word}, as {fired.how}"
    return SUIT_CHOICES[fired.choose](suits, hand, chosen)


def _longer_or(tie: str) -> Callable[[list[Suit], Holding, Suit], str]:
    """The wording of a choice of the longer suit, *tie* deciding between equals."""
    def say(suits: list[Suit], hand: Holding, chosen: Suit) -> str:
        length = hand.tally.length
        others = [suit for suit in high_first(suits) if suit != chosen]
        if all(length(chosen) > length(other) for other in others):
            rest = and_joined(f"{other.word} ({length(other)})" for other in others)
            return f"{chosen.word} ({length(chosen)}) are longer than {rest}"
        tied = and_joined(suit.word for suit in high_first(suits)
                          if length(suit) == length(chosen))
        return f"{tied} are equally long ({length(chosen)} each), so {tie}{chosen.word}"
    return say


def _two_level(suits: list[Suit], hand: Holding, chosen: Suit) -> str:
    """R6's choice between two long suits: the major over a minor, then more HCP in the
    suit, then the longer, then the lower-ranking; only the step that settled it."""
    lower, higher = suits
    other = lower if chosen == higher else higher
    if lower.is_major != higher.is_major:
        return "the major beats the minor"
    hcp, length = hand.suit_hcp, hand.tally.length
    if hcp(lower) != hcp(higher):
        return f"{chosen.word} hold more HCP: {hcp(chosen)} against {other.word}' {hcp(other)}"
    if length(lower) != length(higher):
        return (f"{chosen.word} ({length(chosen)}) are longer than {other.word} "
                f"({length(other)}), with equal HCP ({hcp(chosen)} each)")
    return (f"{higher.word} and {lower.word} tie in HCP ({hcp(chosen)} each) and length "
            f"({length(chosen)} each), so the lower-ranking, {chosen.word}")


# Every chooser that can see two suits; only_suit never does (13 cards hold one 7-card
# or one 8-card suit at most).
SUIT_CHOICES = {
    longer_then_higher: _longer_or("the higher-ranking, "),
    longer_then_lower: _longer_or("the lower-ranking, "),
    longer_minor_for_strong_balanced: _longer_or(""),
    two_level_suit: _two_level,
}


# No bid: for every rule a condition it misses, in as few clauses as will do ----------

Group = list[tuple[Rule, Condition]]  # rules and the conditions one clause says they miss


@lru_cache(maxsize=1 << 12)
def no_bid_reasons(tally: Tally, rules: tuple[Rule, ...]) -> tuple[str, ...]:
    """Why no rule of *rules* opens the hand: for every rule that bids, a condition it
    misses, said in the fewest clauses (a range missed by more says it for the others:
    9 points are short of 22 as well as of 13); of as few, those naming the most rules."""
    bidding = [rule for rule in rules if rule.level is not None]
    choices = product(*(_ranges_first(rule.failures(tally)) for rule in bidding))
    best = min((_groups(list(zip(bidding, choice)), tally, rules) for choice in choices),
               key=lambda groups: (len(groups), -sum(map(len, groups))))
    return tuple(_clause(group, tally) for group in best)


def _ranges_first(failures: list[Condition]) -> list[Condition]:
    """A rule's missed conditions, points and HCP ranges first: the likelier reasons."""
    return sorted(failures, key=lambda condition: not isinstance(condition, Between))


def _groups(missed: Group, tally: Tally, rules: Sequence[Rule]) -> list[Group]:
    """The rules, each with the condition paired with it, that clauses name: a condition
    another one says too is left out; conditions said in one clause go together; the
    clauses in the order of the rules."""
    ranges = _ranges(missed, tally)
    suits = [condition for _, condition in missed if isinstance(condition, LongSuit)]
    kept = [(rule, condition) for rule, condition in missed
            if not isinstance(condition, Between) or condition in ranges]
    kept = [(rule, condition) for rule, condition in kept
            if not isinstance(condition, LongSuit) or not _implied(condition, suits)]
    groups: dict[tuple, Group] = {}
    for rule, condition in kept:
        groups.setdefault(_group(condition, tally), []).append((rule, condition))
    order = {rule: index for index, rule in enumerate(rules)}
    return sorted(groups.values(), key=lambda group: order[group[0][0]])


def _ranges(missed: Group, tally: Tally) -> set[Between]:
    """The missed ranges worth saying: of those missed from below, the ones with the
    lowest bound of each measure (from above, the highest); and not HCP missed from
    below when points are missed below a bound as low, nor points missed from above when
    HCP are missed above a bound as high (points are HCP and distribution points, never
    fewer than the HCP)."""
    bounds: dict[tuple[str, bool], int] = {}
    for _, condition in missed:
        if isinstance(condition, Between):
            below = _below(condition, tally)
            bound, key = _bound(condition, below), (condition.measure, below)
            bounds[key] = (min if below else max)(bounds.get(key, bound), bound)
    points, hcp = bounds.get(("points", True)), bounds.get(("hcp", True))
    if points is not None and hcp is not None and points <= hcp:
        del bounds[("hcp", True)]
    points, hcp = bounds.get(("points", False)), bounds.get(("hcp", False))
    if points is not None and hcp is not None and hcp >= points:
        del bounds[("points", False)]
    return {condition for _, condition in missed if isinstance(condition, Between)
            and bounds.get((condition.measure, _below(condition, tally)))
            == _bound(condition, _below(condition, tally))}


def _below(condition: Between, tally: Tally) -> bool:
    """Whether the hand misses the range from below."""
    return condition.value(tally) < condition.low


def _bound(condition: Between, below: bool) -> int:
    """The bound the hand misses."""
    return condition.low if below else condition.high


def _implied(condition: LongSuit, others: list[LongSuit]) -> bool:
    """Whether another missed long-suit condition says this one too: no five-card suit
    means no suit of exactly 7 cards, and no five-card major."""
    def covers(wider: LongSuit, narrower: LongSuit) -> bool:
        return (wider.count == narrower.count
                and set(narrower.suits) <= set(wider.suits) and wider.low <= narrower.low
                and (wider.high is None or narrower.high is not None
                     and narrower.high <= wider.high))
    return any(covers(other, condition) and not covers(condition, other)
               for other in others)


def _group(condition: Condition, tally: Tally) -> tuple:
    """Conditions said in one clause share this key."""
    if isinstance(condition, Between):
        return condition.measure, _below(condition, tally)
    if isinstance(condition, Balanced):
        return ("balanced", condition.wanted)
    return ("suit", frozenset(condition.suits), condition.count)


def _clause(group: Group, tally: Tally) -> str:
    """One clause: what the hand has, and the rules that keeps out."""
    names = and_joined(rule.id for rule, _ in group)
    ending = "s" if len(group) == 1 else ""
    condition = group[0][1]
    if isinstance(condition, Between):
        below = _below(condition, tally)
        return (f"{plural(condition.value(tally), condition.unit)}, "
                f"{'fewer' if below else 'more'} than the {_bound(condition, below)} that "
                f"{names} {'need' if below else 'allow'}{ending}")
    if isinstance(condition, Balanced):
        return f"{shape_words(tally)}, where {names} need{ending} {condition.text}"
    conditions = list(dict.fromkeys(condition for _, condition in group))
    return f"{no_suit(conditions)}, which {names} need{ending}"
