"""Every way to misread the rules, generated from the rule table and the counting.

A misreading is one edit a reader can make to the assignment's text, named by an id that
says what it is (docs/misreadings.md gives the grammar):

    R1.hcp=15-18      a rule's HCP or points range read otherwise (R6.points=21+ too)
    R2.hcp=13-21      the measure swapped: points read as HCP (and HCP as points)
    R7.len=7+         a rule's suit length read otherwise (7 or more; 5 is exactly 5)
    R6.len.one=6+     a length read per case: a suit alone needs 6, two suits still 5
    R1.shape=any      a rule's balance condition left out (or =balanced, =unbalanced)
    R2.choose=NAME    a rule's suit choice turned (CHOOSE_NAMES lists the names)
    R6.choose=major,longer,hcp,lower   a chain's steps in another order, some left
                      out or turned (STEP_NAMES), the step that always picks last
    swap=R2/R3        two rules swapped in order;  omit=R5  a rule left out
    last-wins         the last rule that applies wins, not the first
    balanced=NAME     the balanced definition changed (BALANCED_NAMES)
    dist=NAME         distribution points counted otherwise (DIST_NAMES)
    hcp.J=0           an honour's value read otherwise (rank A, K, Q, J or T; 0 to 4 HCP)

and the 17 catalogue names of ``bidder.variants``. Ids compose with '+': each part is
applied in turn ('R6.points=21++R1.hcp=15-18': a '+' that ends a range is doubled).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import replace
from functools import cache
from itertools import permutations
from pathlib import Path

from .cards import HAND_SIZE, RANK_BY_TEXT, Rank, Suit
from .exact import Changes, Compared, changes, changes_and_apart
from .facts import BALANCED_LENGTHS, BALANCED_WITH_MINOR, HCP_SCALE, STANDARD
from .rules import (DECIDING_STEPS, R6_CHAINS, R6_SKIPPED, R6_STEPS, RULE_BY_ID, RULES, Balanced,
                    Between, Chain, LongSuit, Rule, fewer_hcp, higher_ranking,
                    higher_whatever_length, longer, longer_then_higher, longer_then_lower,
                    lower_ranking, lower_whatever_length, major_over_minor, minor_over_major,
                    more_hcp, shorter, shorter_then_higher, shorter_then_lower,
                    two_level_higher_last)
from .variants import CATALOGUE, VARIANT_BY_ID, Variant

COUNTS_FILE = Path(__file__).with_name("misreadings.json")
APART_FILE = Path(__file__).with_name("misreadings_apart.json")  # hands each changes, kept
MOST_APART = 4  # profiles of hands kept for each misreading, of different bids first
MOVES = (-2, -1, 1, 2)  # how far a range's end is moved
SKIPPED_NAMES = ("major", "hcp", "length")  # R6's steps a reader skips, as ids name them
R6_TURNS = {**{f"no-{name}-step": chain for name, chain in zip(SKIPPED_NAMES, R6_SKIPPED)},
            "higher-last": two_level_higher_last}
CHOOSE_NAMES = {  # name: (chooser, what it bids, in words)
    "longer-higher": (longer_then_higher, "the longer suit; with equal length, the higher"),
    "longer-lower": (longer_then_lower, "the longer suit; with equal length, the lower"),
    "shorter-higher": (shorter_then_higher, "the shorter suit; with equal length, the higher"),
    "shorter-lower": (shorter_then_lower, "the shorter suit; with equal length, the lower"),
    "higher-longer": (higher_whatever_length, "the higher-ranking suit, whatever the lengths"),
    "lower-longer": (lower_whatever_length, "the lower-ranking suit, whatever the lengths"),
    **{name: (chain, chain.how) for name, chain in R6_TURNS.items()},
}
# A chain's steps as an id writes them: 'R6.choose=major,longer,hcp,lower' compares the
# lengths before the HCP; every chain ends with a step that always picks (lower or higher).
STEP_NAMES = {"major": major_over_minor, "minor": minor_over_major, "hcp": more_hcp,
              "fewer-hcp": fewer_hcp, "longer": longer, "shorter": shorter,
              "lower": lower_ranking, "higher": higher_ranking}
STEP_IDS = {step: name for name, step in STEP_NAMES.items()}
TURNED_STEPS = {major_over_minor: minor_over_major, more_hcp: fewer_hcp, longer: shorter}
TURNS = {"R2": ("longer-lower", "shorter-higher", "higher-longer", "lower-longer"),
         "R3": ("longer-higher", "shorter-lower", "lower-longer", "higher-longer"),
         "R6": tuple(R6_TURNS)}
ALONE_MOVES = (1, 2)  # how many more cards a suit alone is read as needing
BALANCED_NAMES = {  # name: (change to the counting, the sentence)
    "no-minor-five": ({"balanced_fives": ()},
                      "5-3-3-2 is never read as balanced, even with the five cards in a minor."),
    "any-five": ({"balanced_fives": tuple(Suit)},
                 "5-3-3-2 is read as balanced whatever the five-card suit."),
    "with-4441": ({"also_balanced": ((4, 4, 4, 1),)}, "4-4-4-1 is read as balanced."),
    "with-5422": ({"also_balanced": ((5, 4, 2, 2),)}, "5-4-2-2 is read as balanced."),
}
DIST_NAMES = {  # name: (change to the counting, the sentence)
    "beyond-3": ({"beyond": 3, "how": "1 per card beyond 3"},
                 "Distribution points are counted for each card beyond the third."),
    "beyond-5": ({"beyond": 5, "how": "1 per card beyond 5"},
                 "Distribution points are counted for each card beyond the fifth."),
    "short": ({"beyond": None, "short": (3, 2, 1), "how": "void 3, singleton 2, doubleton 1"},
              "Distribution points are counted for short suits (void 3, singleton 2, "
              "doubleton 1) instead of long ones."),
    "long-and-short": ({"short": (3, 2, 1), "how": "long suits and void 3, singleton 2, "
                                                    "doubleton 1"},
                       "Distribution points are counted for short suits (void 3, "
                       "singleton 2, doubleton 1) as well as long ones."),
    "longest-only": ({"longest_only": True, "how": f"{STANDARD.how}, in the longest suit only"},
                     "Distribution points are counted for the longest suit only."),
}
HONOUR_EDITS = ("hcp.A=3", "hcp.J=0", "hcp.T=1")  # the honours' values a reader misreads
MOST_HONOUR_HCP = 4  # no honour is read as worth more
MOST_SUIT_HCP = 15  # the engine holds at most this many HCP in one suit
BALANCED_MEANS = (f"balanced means every suit {BALANCED_LENGTHS.start} to "
                  f"{BALANCED_LENGTHS.stop - 1} cards, or "
                  f"{'-'.join(map(str, BALANCED_WITH_MINOR))} with "
                  f"{STANDARD.describe_fives(BALANCED_WITH_MINOR[0])}")
WEIGHS_TWO = R6_CHAINS
THREE_SUITS = 3
SHAPES = {"any": None, "balanced": Balanced(), "unbalanced": Balanced(wanted=False)}
_SPAN = re.compile(r"(\d+)(?:-(\d+)|(\+))?")


class MisreadingError(ValueError):
    """An id that names no misreading: the message says which part and what is valid."""


# Changes to the table, applied to whatever table they are given -------------------------

def _edit(rule_id: str, edit):
    """A change that edits one rule, wherever it stands in the table."""
    def change(rules: tuple[Rule, ...]) -> tuple[Rule, ...]:
        return tuple(edit(rule) if rule.id == rule_id else rule for rule in rules)
    return change


def _with_condition(kind: type, new):
    """An edit that puts *new* in place of the rule's condition of *kind* (or adds it);
    None leaves that condition out."""
    def edit(rule: Rule) -> Rule:
        kept = tuple(condition for condition in rule.conditions
                     if not isinstance(condition, kind))
        return replace(rule, conditions=kept + (() if new is None else (new,)))
    return edit


def _swapped(first: str, second: str):
    """A change that swaps two rules' places."""
    def change(rules: tuple[Rule, ...]) -> tuple[Rule, ...]:
        swap = {first: second, second: first}
        by_id = {rule.id: rule for rule in rules}
        return tuple(by_id.get(swap.get(rule.id), rule) for rule in rules)
    return change


def _omitted(rule_id: str):
    """A change that leaves a rule out."""
    return lambda rules: tuple(rule for rule in rules if rule.id != rule_id)


def _last_wins(rules: tuple[Rule, ...]) -> tuple[Rule, ...]:
    """The rules that bid, in reverse order, then the catch-all: the last that applies wins."""
    bidding = tuple(rule for rule in rules if rule.level is not None)
    return bidding[::-1] + tuple(rule for rule in rules if rule.level is None)


def _counting(changes: dict):
    """A change to the counting."""
    return lambda counting: replace(counting, name="misread", **changes)


# Reading an id ---------------------------------------------------------------------------

def _span(text: str, where: str) -> tuple[int, int | None]:
    """'15-18' -> (15, 18), '22+' -> (22, None), '5' -> (5, 5)."""
    found = _SPAN.fullmatch(text)
    if not found or (found[2] and int(found[2]) < int(found[1])):
        raise MisreadingError(f"{where}: {text!r} is not a range: write LOW-HIGH (15-18), "
                              f"LOW+ (22+), or one number for exactly that many")
    low = int(found[1])
    return low, None if found[3] else int(found[2] or low)


def _rule(rule_id: str, where: str) -> Rule:
    """The assignment's rule of that id."""
    if rule_id not in RULE_BY_ID:
        raise MisreadingError(f"{where}: {rule_id!r} is not a rule; the rules are "
                              f"{', '.join(RULE_BY_ID)}")
    return RULE_BY_ID[rule_id]


def _condition(rule: Rule, kind: type, where: str):
    """The rule's condition of *kind*."""
    for condition in rule.conditions:
        if isinstance(condition, kind):
            return condition
    raise MisreadingError(f"{where}: {rule.id} ({rule.name}) has no such condition; "
                          f"it reads {rule.thresholds or 'nothing'}")


def _choice(name: str, table: dict, where: str):
    """A named entry of *table*."""
    if name not in table:
        raise MisreadingError(f"{where}: {name!r} is not one of {', '.join(table)}")
    return table[name]


def _of_rule(text: str) -> Variant:
    """A misreading of one rule: 'R1.hcp=15-18', 'R7.len=7+', 'R1.shape=any', ..."""
    head, _, value = text.partition("=")
    rule_id, _, field = head.partition(".")
    rule = _rule(rule_id, text)
    if field in ("hcp", "points"):
        old = _condition(rule, Between, text)
        new = Between(field, *_span(value, text))
        return Variant(text, f"{rule.name} ({rule.id}) is read as needing {new.text}.",
                       f"{rule.id} says {old.text}",
                       _edit(rule.id, _with_condition(Between, new)))
    if field == "len":
        old = _condition(rule, LongSuit, text)
        low, high = _span(value, text)
        new = replace(old, low=low, high=high)
        if isinstance(rule.choose, Chain) and low * THREE_SUITS <= HAND_SIZE:
            raise MisreadingError(f"{text}: {rule.id} weighs at most two long suits, and "
                                  f"with {low} cards three suits could qualify; give it at least "
                                  f"{HAND_SIZE // THREE_SUITS + 1} cards")
        return Variant(text, f"{rule.name} ({rule.id}) is read as needing {new.text}.",
                       f"{rule.id} says {old.text}",
                       _edit(rule.id, _with_condition(LongSuit, new)))
    if field == "len.one":
        return _alone(rule, value, text)
    if field == "shape":
        new = _choice(value, SHAPES, text)
        old = next((condition.text for condition in rule.conditions
                    if isinstance(condition, Balanced)), "no balance condition")
        read = "any shape" if new is None else new.text
        return Variant(text, f"{rule.name} ({rule.id}) is read as applying to {read}.",
                       f"{rule.id} says {old}",
                       _edit(rule.id, _with_condition(Balanced, new)))
    if field == "choose":
        if rule.choose is None:
            raise MisreadingError(f"{text}: {rule.id} ({rule.name}) chooses no suit; "
                                  f"the rules that do are {', '.join(TURNS)}")
        if value in CHOOSE_NAMES or not isinstance(rule.choose, Chain):
            chooser, how = _choice(value, CHOOSE_NAMES, text)
        else:
            chooser = _chain(value, text)
            how = chooser.how
        return Variant(text, f"{rule.name} ({rule.id}) is read as bidding {how}.",
                       f"{rule.id} bids {rule.how}",
                       _edit(rule.id, lambda read: replace(read, choose=chooser, how=how)))
    raise MisreadingError(f"{text}: {field!r} is not a part of a rule; write hcp=, points=, "
                          f"len=, len.one=, shape= or choose=")


def _alone(rule: Rule, value: str, text: str) -> Variant:
    """A rule's length read per case: 'R6.len.one=6+', a suit alone needs six cards, two
    suits still five each."""
    old = _condition(rule, LongSuit, text)
    low, high = _span(value, text)
    if not isinstance(rule.choose, Chain) or high is not None or low <= old.low:
        raise MisreadingError(f"{text}: a suit alone is read as needing more cards than "
                              f"two suits each; write {rule.id}.len.one={old.low + 1}+ for a "
                              f"rule that weighs two long suits (R6)")
    new = replace(old, alone=low)
    return Variant(text, f"{rule.name} ({rule.id}) is read as needing {new.text}.",
                   f"{rule.id} says {old.text}",
                   _edit(rule.id, _with_condition(LongSuit, new)))


def _chain(value: str, text: str) -> Chain:
    """A chain of steps by their names: 'major,longer,hcp,lower'."""
    names = value.split(",")
    for name in names:
        _choice(name, STEP_NAMES, text)
    steps = tuple(STEP_NAMES[name] for name in names)
    if len(set(steps)) < len(steps) or steps[-1] not in DECIDING_STEPS:
        raise MisreadingError(f"{text}: {value!r} is not a chain of steps: name each step "
                              f"once, the last lower or higher (major,hcp,longer,lower), "
                              f"or one of {', '.join(CHOOSE_NAMES)}")
    return Chain("two_level_" + "_".join(names).replace("-", "_"), steps)


def _of_table(text: str) -> Variant:
    """A misreading of the table or the counting: 'swap=R2/R3', 'omit=R5', 'last-wins',
    'balanced=with-4441', 'dist=beyond-3'."""
    if text == "last-wins":
        return Variant(text, "The last rule that applies is read as deciding, not the first.",
                       "the first rule that applies wins", _last_wins)
    kind, _, value = text.partition("=")
    if kind == "swap":
        first, _, second = value.partition("/")
        one, other = _rule(first, text), _rule(second, text)
        return Variant(text, f"{one.name} ({one.id}) and {other.name} ({other.id}) are "
                             f"tried in each other's place.",
                       "the assignment's order, first rule that applies wins",
                       _swapped(one.id, other.id))
    if kind == "omit":
        rule = _rule(value, text)
        if rule.level is None:
            raise MisreadingError(f"{text}: {rule.id} is the catch-all; leave out one of "
                                  f"{', '.join(r.id for r in RULES if r.level is not None)}")
        return Variant(text, f"The {rule.name} rule ({rule.id}) is left out.",
                       f"{rule.id} is part of the list", _omitted(rule.id))
    if kind in ("balanced", "dist"):
        names = BALANCED_NAMES if kind == "balanced" else DIST_NAMES
        changes, sentence = _choice(value, names, text)
        departs = (BALANCED_MEANS if kind == "balanced"
                   else f"distribution points are {STANDARD.how}")
        return Variant(text, sentence, departs, change_counting=_counting(changes))
    if kind.startswith("hcp."):
        return _of_honour(kind[len("hcp."):], value, text)
    raise MisreadingError(
        f"{text!r} is not a misreading: write a catalogue name ({', '.join(VARIANT_BY_ID)}), "
        f"Rn.hcp=, Rn.points=, Rn.len=, Rn.shape=, Rn.choose=, swap=Ra/Rb, omit=Rn, "
        f"last-wins, balanced=, dist= or hcp.J= (docs/misreadings.md)")


def _of_honour(label: str, value: str, text: str) -> Variant:
    """An honour's value read otherwise: 'hcp.J=0', 'hcp.A=3', 'hcp.T=1'."""
    rank = RANK_BY_TEXT.get(label.upper())
    if rank is None or rank < Rank.TEN:
        raise MisreadingError(f"{text}: {label!r} is not an honour; write hcp.A=, hcp.K=, "
                              f"hcp.Q=, hcp.J= or hcp.T=")
    if not value.isdigit() or int(value) > MOST_HONOUR_HCP:
        raise MisreadingError(f"{text}: {value!r} is not a value an honour is read as; "
                              f"write a whole number from 0 to {MOST_HONOUR_HCP}")
    points = int(value)

    def change(counting):
        values = {**dict(counting.scale), rank: points}
        if sum(values.values()) > MOST_SUIT_HCP:
            raise MisreadingError(f"{text}: a suit's honours would be worth "
                                  f"{sum(values.values())} HCP, more than the "
                                  f"{MOST_SUIT_HCP} the engine counts; read fewer "
                                  f"honours higher")
        return replace(counting, name="misread", scale=tuple(sorted(
            values.items(), reverse=True)))
    standard = dict(HCP_SCALE).get(rank, 0)
    return Variant(text, f"The {rank.word} is counted as {points} HCP; the assignment "
                         f"counts it {standard}.",
                   f"HCP are {STANDARD.scale_text}, nothing else", change_counting=change)


def parts(text: str) -> list[str]:
    """The ids a composed id joins with '+' (a '+' that ends a range stays with it)."""
    return re.split(r"(?<=[^+])\+(?=[A-Za-z0-9])|(?<=\+)\+", text)


def single(text: str) -> Variant:
    """One misreading by its id."""
    if text in VARIANT_BY_ID:
        return VARIANT_BY_ID[text]
    if re.match(r"R\d+\.", text):
        return _of_rule(text)
    return _of_table(text)


def variant_by_id(text: str) -> Variant:
    """The misreading an id names, composed with '+' from any number of parts.

    :raises MisreadingError: naming the part that is not a misreading, and what is."""
    if not text.strip():
        raise MisreadingError("an empty id names no misreading: try r3-unbalanced-only or "
                              "R1.hcp=15-18 (bidder variants --all lists them)")
    variant = None
    for part in parts(text.strip()):
        found = single(part)
        variant = found if variant is None else variant.and_then(found)
    _ = variant.counting  # a counting the engine cannot hold is refused here, not later
    return variant


# The space ---------------------------------------------------------------------------

def _moved(low: int, high: int | None) -> list[tuple[int, int | None]]:
    """A range with either end moved by one or two (a bound below 0 or crossing left out)."""
    spans = [(low + move, high) for move in MOVES]
    if high is not None:
        spans += [(low, high + move) for move in MOVES]
    return [(new_low, new_high) for new_low, new_high in spans
            if new_low >= 0 and (new_high is None or new_high >= new_low)]


def _written(low: int, high: int | None, exact: bool = False) -> str:
    """A span as an id writes it."""
    if high is None:
        return f"{low}+"
    return f"{low}" if exact and low == high else f"{low}-{high}"


def _rule_ids(rule: Rule) -> list[str]:
    """The single edits of one rule."""
    found = []
    for condition in rule.conditions:
        if isinstance(condition, Between):
            other = "points" if condition.measure == "hcp" else "hcp"
            found += [f"{rule.id}.{condition.measure}={_written(*span, exact=True)}"
                      for span in _moved(condition.low, condition.high)]
            found.append(f"{rule.id}.{other}={_written(condition.low, condition.high)}")
        elif isinstance(condition, LongSuit):
            found += [f"{rule.id}.len={_written(low, high, exact=True)}"
                      for low, high in _moved(condition.low, condition.high)
                      if rule.choose not in WEIGHS_TWO or low * THREE_SUITS > HAND_SIZE]
            found.append(f"{rule.id}.len=" + (f"{condition.low}" if condition.high is None
                                              else f"{condition.low}+"))
        else:
            found.append(f"{rule.id}.shape=any")
    if rule.id == "R3":
        found.append("R3.shape=unbalanced")
    found += [f"{rule.id}.choose={name}" for name in TURNS.get(rule.id, ())]
    if isinstance(rule.choose, Chain):
        found += _chain_ids(rule)
    return found


def _chain_ids(rule: Rule) -> list[str]:
    """A chain's steps read in every other order (some left out, the last kept last), and
    each step turned: the minor over a major, fewer HCP, the shorter."""
    *steps, last = rule.choose.steps
    found = [tuple(order) + (last,) for size in range(len(steps) + 1)
             for order in permutations(steps, size)]
    found += [tuple(TURNED_STEPS.get(step, step) if step is turned else step
                    for step in rule.choose.steps) for turned in steps]
    longsuit = _condition(rule, LongSuit, rule.id)
    return ([f"{rule.id}.choose={','.join(map(STEP_IDS.get, chain))}" for chain in found
             if chain != rule.choose.steps]
            + [f"{rule.id}.len.one={longsuit.low + move}+" for move in ALONE_MOVES])


def _phrases() -> list[str]:
    """The same phrase read with the other measure wherever it appears."""
    by_text: dict[str, list[tuple[str, str]]] = {}
    for rule in RULES:
        for condition in rule.conditions:
            if isinstance(condition, Between):
                other = "points" if condition.measure == "hcp" else "hcp"
                by_text.setdefault(condition.text, []).append(
                    (rule.id, f"{other}={condition.span}"))
    return ["+".join(f"{rule_id}.{edit}" for rule_id, edit in uses) for uses in by_text.values() if len(uses) > 1]


def generated_ids() -> list[str]:
    """Every generated single edit's id, rule by rule, then the table and the counting."""
    ids = [found for rule in RULES for found in _rule_ids(rule)] + _phrases()
    bidding = [rule.id for rule in RULES if rule.level is not None]
    ids += [f"swap={first}/{second}" for place, first in enumerate(bidding)
            for second in bidding[place + 1:]]
    ids += [f"omit={rule_id}" for rule_id in bidding] + ["last-wins"]
    ids += [f"balanced={name}" for name in BALANCED_NAMES]
    ids += [f"dist={name}" for name in DIST_NAMES]
    return ids + list(HONOUR_EDITS)


def signature(variant: Variant) -> tuple:
    """What a misreading reads: two with the same signature are the same misreading."""
    counting = variant.counting
    return (tuple((rule.id, rule.level, frozenset(rule.conditions),
                   getattr(rule.choose, "deciding", rule.choose)) for rule in variant.rules),
            counting.beyond, counting.short, counting.balanced_fives, counting.also_balanced,
            counting.scale, counting.longest_only, variant.writes)


@cache
def space() -> tuple[Variant, ...]:
    """The catalogue, then every generated edit that reads otherwise than all before it."""
    seen = {signature(variant) for variant in CATALOGUE}
    found = list(CATALOGUE)
    for text in generated_ids():
        variant = variant_by_id(text)
        if signature(variant) not in seen:
            seen.add(signature(variant))
            found.append(variant)
    return tuple(found)


# Exact counts, built once and shipped --------------------------------------------------

@cache
def counts() -> dict[str, Changes]:
    """The shipped exact counts of the space, by id (written by build())."""
    data = json.loads(COUNTS_FILE.read_text(encoding="utf-8"))
    return {entry["variant"]: Changes(entry["variant"], tuple(
        (pair["from"], pair["to"], pair["count"]) for pair in entry["by_pair"]))
        for entry in data}


def changes_of(variant: Variant) -> Changes:
    """How many hands *variant* changes: shipped for the space, else counted now."""
    known = counts().get(variant.id)
    return changes(variant) if known is None else known


def equivalent(variant: Variant) -> bool:
    """Whether the misreading changes no hand at all: it is the rules, read otherwise."""
    return not changes_of(variant).hands


def about(variant: Variant, rule_id: str) -> bool:
    """Whether the misreading is about the rule *rule_id* (its id or what it departs from
    names it)."""
    return re.search(rf"\b{re.escape(rule_id)}\b", f"{variant.id} {variant.departs}") is not None


def distinguishable() -> tuple[Variant, ...]:
    """The misreadings of the space that change some hand."""
    known = counts()
    return tuple(variant for variant in space() if known[variant.id].hands)


def _chooser(choose) -> str | None:
    """A suit choice as plain text: a function's name, a chain's deciding steps."""
    if isinstance(choose, Chain):
        return ",".join(step.__name__ for step in choose.deciding)
    return None if choose is None else choose.__name__


def reading(variant: Variant) -> list:
    """What a misreading reads, as plain data: its rule table and its counting."""
    counting = variant.counting
    return [[[rule.id, rule.level, sorted(map(repr, rule.conditions)), _chooser(rule.choose)]
             for rule in variant.rules],
            [counting.beyond, list(counting.short), list(map(int, counting.balanced_fives)),
             list(map(list, counting.also_balanced)),
             [[int(rank), points] for rank, points in counting.scale], counting.longest_only],
            variant.writes]


def fingerprint(variants: tuple[Variant, ...] | None = None) -> str:
    """A digest of what the space's misreadings read (the kept hands are for these): a
    stale file of kept hands has another."""
    found = space() if variants is None else variants
    data = json.dumps([MOST_APART] + [[variant.id, reading(variant)] for variant in found])
    return hashlib.sha256(data.encode()).hexdigest()[:16]


def _profile_data(profile: Compared) -> dict:
    return {"lengths": list(profile.lengths), "hcp": list(profile.hcp),
            "weighed": [list(map(int, weighed)) for weighed in profile.weighed],
            "answers": list(profile.answers), "hands": profile.hands}


def _profile(data: dict) -> Compared:
    return Compared(tuple(data["lengths"]), tuple(data["hcp"]), tuple(
        (Suit(suit), ours, theirs) for suit, ours, theirs in data["weighed"]),
        tuple(data["answers"]), data["hands"])


@cache
def kept_apart() -> tuple[str, dict[str, tuple[Compared, ...]]]:
    """The shipped profiles of hands each distinguishable misreading opens otherwise than
    the assignment (written by build()), with the fingerprint of the space they are for."""
    data = json.loads(APART_FILE.read_text(encoding="utf-8"))
    return data["fingerprint"], {variant: tuple(map(_profile, profiles))
                                 for variant, profiles in data["apart"].items()}


def apart_of(variant: Variant) -> tuple[Compared, ...]:
    """Profiles of hands *variant* opens otherwise than the assignment: shipped for the
    space, else found now (none for a misreading that changes no hand)."""
    known = kept_apart()[1].get(variant.id)
    return changes_and_apart(variant, MOST_APART)[1] if known is None else known


def build(path: Path = COUNTS_FILE, apart_path: Path | None = None) -> None:
    """Count exactly what every misreading of the space changes, and write the counts;
    beside them (*apart_path*), for each that changes some hand, the biggest profiles of
    the hands it changes, under the space's fingerprint."""
    found = space()
    counted = [changes_and_apart(variant, MOST_APART) for variant in found]
    path.write_text(json.dumps([changed.to_dict() for changed, _ in counted],
                               indent=0) + "\n", encoding="utf-8")
    kept = {variant.id: list(map(_profile_data, profiles))
            for variant, (_, profiles) in zip(found, counted) if profiles}
    (apart_path or path.with_name(APART_FILE.name)).write_text(json.dumps(
        {"fingerprint": fingerprint(found), "apart": kept}, indent=0) + "\n",
        encoding="utf-8")
