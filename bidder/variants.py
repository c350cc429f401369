"""Rule variants: the ways students and peers misread the rules, as data.

A variant is a named change to the rule table, to the counting, or to how a bid is
written down; each is built from the assignment's table (``RULES``) and counting
(``STANDARD``), never from a copy of the engine. Variants compose, so a pair of
misreadings is a variant too.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Callable

from .cards import Suit
from .facts import STANDARD, Counting
from .rules import (ALL_SUITS, RULE_BY_ID, RULES, Balanced, Between, LongSuit, Rule,
                    longer_then_higher, longer_then_lower)

RuleChange = Callable[[tuple[Rule, ...]], tuple[Rule, ...]]
CountingChange = Callable[[Counting], Counting]
AS_IS = "bid"  # how the assignment writes a bid down: as it is


def _same(value):
    return value


@dataclass(frozen=True, eq=False)
class Variant:
    """A misreading: its id, what it says in one sentence, the ruling or rule it departs
    from, and the change it makes (to the rules, the counting, or the written bid)."""

    id: str
    sentence: str
    departs: str
    change_rules: RuleChange = _same
    change_counting: CountingChange = _same
    writes: str = AS_IS  # a Python expression of `bid`: how this reading writes it down

    @cached_property
    def rules(self) -> tuple[Rule, ...]:
        """The rule table as this variant reads it."""
        return self.change_rules(RULES)

    @cached_property
    def counting(self) -> Counting:
        """The counting as this variant reads it."""
        return self.change_counting(STANDARD)

    @property
    def changes_output(self) -> bool:
        """Whether the variant changes how bids are written, not which."""
        return self.writes != AS_IS

    @cached_property
    def written(self) -> Callable[[str | None], object]:
        """The bid ('1S' or None) as this reading writes it down."""
        return eval(f"lambda bid: {self.writes}", {})  # the catalogue's own text

    def and_then(self, other: Variant) -> Variant:
        """Both misreadings at once."""
        return Variant(
            f"{self.id}+{other.id}", f"{self.sentence} {other.sentence}",
            f"{self.departs}; {other.departs}",
            lambda rules: other.change_rules(self.change_rules(rules)),
            lambda counting: other.change_counting(self.change_counting(counting)),
            _then_written(self.writes, other.writes))


def _then_written(first: str, then: str) -> str:
    """How a bid is written by one reading, then by another: as it is stays as it is."""
    if AS_IS in (first, then):
        return then if first == AS_IS else first
    return f"(lambda bid: {then})({first})"


def rule_changed(rule_id: str, **changes) -> RuleChange:
    """A change that replaces fields of one rule, wherever it stands in the table."""
    def change(rules: tuple[Rule, ...]) -> tuple[Rule, ...]:
        return tuple(replace(rule, **changes) if rule.id == rule_id else rule
                     for rule in rules)
    return change


def condition_changed(rule_id: str, index: int, condition) -> RuleChange:
    """A change that replaces one condition of one rule."""
    conditions = list(RULE_BY_ID[rule_id].conditions)
    conditions[index] = condition
    return rule_changed(rule_id, conditions=tuple(conditions))


def conditions_added(rule_id: str, *conditions) -> RuleChange:
    """A change that adds conditions to one rule."""
    return rule_changed(rule_id, conditions=RULE_BY_ID[rule_id].conditions + conditions)


def moved_first(*rule_ids: str, after: str) -> RuleChange:
    """A change that moves some rules to just after another (first, when another reading
    left it out), keeping their order."""
    def change(rules: tuple[Rule, ...]) -> tuple[Rule, ...]:
        moved = tuple(rule for rule in rules if rule.id in rule_ids)
        rest = [rule for rule in rules if rule.id not in rule_ids]
        place = next((index + 1 for index, rule in enumerate(rest) if rule.id == after), 0)
        return tuple(rest[:place]) + moved + tuple(rest[place:])
    return change


def removed(rule_id: str) -> RuleChange:
    """A change that leaves one rule out."""
    return lambda rules: tuple(rule for rule in rules if rule.id != rule_id)


def inserted_after(after: str, new: Rule) -> RuleChange:
    """A change that adds a rule just after another."""
    def change(rules: tuple[Rule, ...]) -> tuple[Rule, ...]:
        place = next(index for index, rule in enumerate(rules) if rule.id == after) + 1
        return rules[:place] + (new,) + rules[place:]
    return change


_R6 = RULE_BY_ID["R6"]
WEAK_TWO_SUITER = replace(
    _R6, id="R6b", name="2 of a suit, two-suiter", conditions=(LongSuit(ALL_SUITS, 5,
                                                                          count=2),),
    sentence="If you have 5 or more cards in two different suits: bid 2 of ... "
             "(read as a rule of its own, whatever the points).", ruling="")
SHORTNESS = dict(beyond=None, short=(3, 2, 1), how="void 3, singleton 2, doubleton 1",
                 none="no void, singleton or doubleton")

CATALOGUE: tuple[Variant, ...] = (
    Variant("balanced-first",
            "The balanced rules (1C/1D with 19-20 HCP, 2NT) are tried right after 1NT, "
            "before the 1-level suit rules: specific before general.",
            "the assignment's order, first rule that applies wins",
            moved_first("R4", "R5", after="R1")),
    Variant("r3-unbalanced-only",
            "The 1C/1D rule (R3) is read as applying only to hands that are not balanced.",
            "R3 has no balance condition",
            conditions_added("R3", Balanced(wanted=False))),
    Variant("two-suiter-any-strength",
            "With two suits of 5+ cards, the two-suit clause opens at the 2 level "
            "whatever the points (a single long suit still needs 22+ points).",
            "ruling 1: the two-suit clause belongs to R6",
            inserted_after("R6", WEAK_TWO_SUITER)),
    Variant("seven-or-more", "R7's 'a 7-card suit' is read as 7 or more cards.",
            "ruling 3: a 7-card suit means exactly 7",
            condition_changed("R7", 1, LongSuit(ALL_SUITS, 7))),
    Variant("eight-or-more", "R8's 'an 8-card suit' is read as 8 or more cards.",
            "ruling 3: an 8-card suit means exactly 8",
            condition_changed("R8", 1, LongSuit(ALL_SUITS, 8))),
    Variant("r8-6-8", "R8's printed '6-108' is read as 6-8 HCP.",
            "ruling 2: '6-108' is read as 6-10",
            condition_changed("R8", 0, Between("hcp", 6, 8))),
    Variant("equal-minors-diamonds", "R3 with equal minors bids 1D.",
            "R3: with equal length, bid clubs",
            rule_changed("R3", choose=longer_then_higher,
                         how="the longer minor; with equal length, diamonds")),
    Variant("equal-majors-hearts", "R2 with equal majors bids 1H.",
            "R2: with two five-card suits, bid the higher-ranking",
            rule_changed("R2", choose=longer_then_lower,
                         how="the longer major; with equal length, hearts")),
    Variant("strong-by-hcp", "R6 is read as needing 22+ HCP instead of 22+ points.",
            "R6 counts points (HCP and distribution)",
            condition_changed("R6", 0, Between("hcp", 22))),
    Variant("shortness-points",
            "Distribution points are counted for short suits (void 3, singleton 2, "
            "doubleton 1) instead of long ones.",
            "distribution points count length only",
            change_counting=lambda counting: replace(counting, name="shortness",
                                                     **SHORTNESS)),
    Variant("five-card-major-balanced",
            "5-3-3-2 is read as balanced whatever the five-card suit.",
            "5-3-3-2 is balanced only with the five cards in a minor",
            change_counting=lambda counting: replace(counting, name="any five",
                                                     balanced_fives=tuple(Suit))),
    Variant("no-2nt", "The 2NT rule (R5) is left out.", "R5 is part of the list",
            removed("R5")),
    Variant("1nt-15-17", "1NT is read as 15-17 HCP, the range most systems teach today.",
            "R1: exactly 16-18 HCP",
            condition_changed("R1", 1, Between("hcp", 15, 17))),
    Variant("none-as-string", "No bid is written as the string 'None'.",
            "no bid is the value None, not the string 'None'",
            writes="'None' if bid is None else bid"),
    Variant("pass-as-string", "No bid is written as the string 'Pass'.",
            "no bid is the value None, not 'Pass'",
            writes="'Pass' if bid is None else bid"),
    Variant("lower-case-bids", "Bids are written in lower case ('1c', '2nt').",
            "bids are written as the assignment writes them ('1C', '2NT')",
            writes="bid.lower() if isinstance(bid, str) else bid"),
    Variant("no-trump-as-n", "No trump is written N ('1N', '2N').",
            "bids are written as the assignment writes them ('1NT', '2NT')",
            writes="bid.replace('NT', 'N') if isinstance(bid, str) else bid"),
)
VARIANT_BY_ID = {variant.id: variant for variant in CATALOGUE}
ASSIGNMENT = Variant("assignment", "The rules as the assignment and its rulings read them.",
                     "nothing")
