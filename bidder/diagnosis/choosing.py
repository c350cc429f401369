"""The next item by expected information gain: over the bank's hands (asking the counts too
where they split more than the bid) and its ladders, against the posterior, with answers
that slip. Each option's split of the classes is worked out once; a choice then touches
only the classes still likely."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache
from itertools import count, groupby
from math import log2

from .bank import Bank, Row, agreeing

ASKS = (("bid",), ("bid", "hcp"), ("bid", "distribution"), ("bid", "hcp", "distribution"))
COUNTING_COST = 0.05  # bits an item must gain for each count it asks beyond the bid
LIVE = 1e-5  # a class less likely than this is left out of a choice
LEAST_GAIN = 1e-9  # bits an item must tell, beyond rounding
MOST_LIKELY = 24  # classes a choice weighs at most, the likeliest (the rest as a remainder)


@dataclass(frozen=True)
class Option:
    """An item the round may ask: its rows (one hand, or a ladder's rungs), what it asks,
    how it splits the classes (each group but the largest, by class place) and into how
    many groups; for one hand, its kin: the bank's other hands splitting the classes
    alike, asked alike (a probe may be asked on one of them, bidder.diagnosis.rounds)."""

    rows: tuple[Row, ...]
    ask: tuple[str, ...]
    groups: tuple[tuple[int, ...], ...]
    outcomes: int
    kin: tuple[Row, ...] = ()


def split(rows: Sequence[Row], ask: tuple[str, ...], classes: tuple[tuple[int, ...], ...]
          ) -> tuple[tuple[tuple[int, ...], ...], int]:
    """The classes grouped by what they answer on *rows* to *ask* (the largest group left
    out, then in class order), and how many groups there are."""
    firsts = [members[0] for members in classes]
    return _grouped(answered(rows, ask, [places(found, firsts) for found in rows]))


def places(found: Row, firsts: Sequence[int]) -> bytes:
    """The place in *found* of each class's answer (the answer of its first reading, in
    *firsts*): a byte each, as a row holds at most 62 answers."""
    return bytes(map(found.of.__getitem__, firsts))


def answered(rows: Sequence[Row], ask: tuple[str, ...], at: Sequence[bytes]
             ) -> Sequence[int]:
    """Each class's answers on *rows* to *ask* (*at*: the places of its answers, row by
    row), numbered in the order the classes first give them: two items split the classes
    alike when these are equal."""
    keys = [places_in_row.translate(bytes.maketrans(bytes(range(len(found.values))),
                                                    bytes(agreeing(found, ask))))
            for found, places_in_row in zip(rows, at)]
    joined = keys[0] if len(keys) == 1 else list(zip(*keys))
    number = dict(zip(dict.fromkeys(joined), count()))
    if len(keys) == 1:  # fewer than 63 answers: a byte each still
        return joined.translate(bytes.maketrans(bytes(number), bytes(number.values())))
    return tuple(map(number.__getitem__, joined))


def _grouped(numbered: Sequence[int]) -> tuple[tuple[tuple[int, ...], ...], int]:
    """The places of *numbered* (see answered()) grouped by number: the groups but the
    largest (the larger first, then in order), and how many there are."""
    ordered = sorted(range(len(numbered)), key=numbered.__getitem__)
    groups = [tuple(group) for _, group in groupby(ordered, numbered.__getitem__)]
    groups.sort(key=len, reverse=True)  # stable: the first numbered first among equals
    return tuple(groups[1:]), len(groups)


@dataclass(frozen=True, eq=False)
class Options:
    """Every item worth weighing and, for each class, the (option, group) it is in."""

    items: tuple[Option, ...]
    memberships: tuple[tuple[tuple[int, int], ...], ...]

    @cached_property
    def stride(self) -> int:
        """More than the most groups of any option: (option, group) as one number."""
        return 1 + max((len(option.groups) for option in self.items), default=0)

    @cached_property
    def keys(self) -> tuple[tuple[int, ...], ...]:
        """Each class's memberships, each (option, group) as option * stride + group."""
        return tuple(tuple(option * self.stride + group for option, group in member)
                     for member in self.memberships)

    @cached_property
    def by_code(self) -> dict[int, tuple[int, ...]]:
        """The options (by place) asking each hand: asked, a hand bars them."""
        return _places(self.items, lambda option: option.rows)

    @cached_property
    def splitting(self) -> dict[int, tuple[int, ...]]:
        """The options (by place) each hand splits the classes as: those asking it, and
        those it is kin of."""
        return _places(self.items, lambda option: option.rows + option.kin)


def _places(items: Sequence[Option], hands) -> dict[int, tuple[int, ...]]:
    """The options (by place) holding each hand (by code) among their *hands*(option)."""
    found: dict[int, list[int]] = {}
    for place, option in enumerate(items):
        for row in hands(option):
            found.setdefault(row.code, []).append(place)
    return {code: tuple(places) for code, places in found.items()}


@lru_cache(maxsize=8)
def options(bank: Bank, class_fields: tuple[str, ...], counting: bool, ladders: bool
            ) -> Options:
    """Each row asked for its bid and (with *counting*) for the counts where they split
    the classes further, and each ladder (with *ladders*): one option for each way of
    splitting the classes, the other hands splitting them alike asked alike its kin."""
    classes = bank.classes(class_fields)
    firsts = [members[0] for members in classes]
    found: list[Option] = []
    seen: dict[tuple, int | None] = {}  # each split: the place of its option (None: none)
    kin: dict[int, list[Row]] = {}
    sources = [((row,), ask) for row in bank.rows
               for ask in (ASKS if counting else ASKS[:1])]
    if ladders:
        sources += [(ladder, ASKS[0]) for ladder in bank.ladders]
    at: dict[tuple[Row, ...], list[bytes]] = {}
    for rows, ask in sources:
        if rows not in at:
            at = {rows: [places(found_row, firsts) for found_row in rows]}
        numbered = answered(rows, ask, at[rows])
        key = tuple(numbered)  # a hand's (bytes) and a ladder's (a tuple) compared alike
        if key not in seen:  # a split already seen: its first item is kept (a hand first)
            groups, outcomes = _grouped(numbered)
            seen[key] = len(found) if outcomes > 1 else None
            if outcomes > 1:
                found.append(Option(rows, ask, groups, outcomes))
        elif _is_kin(found, seen[key], rows, ask):
            kin.setdefault(seen[key], []).extend(rows)
    found = [replace(option, kin=tuple(kin.get(place, ()))) for place, option in enumerate(found)]
    memberships: list[list[tuple[int, int]]] = [[] for _ in classes]
    for place, option in enumerate(found):
        for group, members in enumerate(option.groups):
            for member in members:
                memberships[member].append((place, group))
    return Options(tuple(found), tuple(map(tuple, memberships)))


def _is_kin(found: Sequence[Option], place: int | None, rows: tuple[Row, ...],
            ask: tuple[str, ...]) -> bool:
    """Whether *rows*, asked *ask*, are kin to the option at *place* (None: a split
    telling nothing, no option): one hand each, asked alike."""
    return place is not None and len(rows) == 1 == len(found[place].rows) and (
        ask == found[place].ask)


def entropy(masses: Iterable[float]) -> float:
    """Shannon entropy in bits."""
    return -sum(mass * log2(mass) for mass in masses if mass > 0)


def gain(option: Option, masses: Sequence[float], total: float, slip: float) -> float:
    """The information (bits) the option's answers carry about the class, given the mass
    of each of its groups (the largest's is what *total* leaves), when a slipped answer
    scrambles the outcome (a symmetric channel over its outcomes) with the chance of one
    answer slipping, however many answers the item holds: the answers are weighed one by
    one, and two groups are told apart by the answers where they differ, most often one
    (a ladder's range edges differ on one rung), so a slip elsewhere costs them nothing."""
    rest = max(0.0, total - sum(masses))
    spread = slip / option.outcomes
    hidden = option.outcomes - len(masses) - 1  # groups of no likely class
    heard = [(1 - slip) * mass / total + spread for mass in (*masses, rest)]
    unheard = -hidden * spread * log2(spread) if spread > 0 else 0.0
    noise = entropy((1 - slip + spread, *[spread] * (option.outcomes - 1)))
    return entropy(heard) + unheard - noise


def gains(found: Options, weights: Sequence[float], slip: float, asked: frozenset[int],
          most: int = MOST_LIKELY) -> dict[int, float]:
    """The information of each option (by place) that splits the *most* likeliest classes
    and whose hands were not asked yet, less COUNTING_COST bits for each count it asks."""
    total = sum(weights)
    likely = sorted(range(len(weights)), key=lambda place: -weights[place])[:most]
    summed: dict[int, float] = {}
    get = summed.get
    for place in sorted(likely):
        weight = weights[place]
        if weight >= LIVE * total:
            for key in found.keys[place]:
                summed[key] = get(key, 0.0) + weight
    masses: dict[int, list[float]] = {}
    for key, mass in summed.items():
        masses.setdefault(key // found.stride, []).append(mass)
    barred = {place for code in asked for place in found.by_code.get(code, ())}
    valued, known = {}, {}
    for place in sorted(masses.keys() - barred):
        option = found.items[place]
        split_masses = tuple(sorted(masses[place]))
        key = (option.outcomes, split_masses)
        if key not in known:  # options splitting the likely classes alike gain alike
            known[key] = gain(option, split_masses, total, slip)
        valued[place] = known[key] - COUNTING_COST * (len(option.ask) - 1)
    return valued


def best(found: Options, weights: Sequence[float], slip: float, asked: frozenset[int],
         most: int = MOST_LIKELY) -> Option | None:
    """The option of most information (the first of equals; see gains()), None when
    none tells anything."""
    valued = gains(found, weights, slip, asked, most)
    chosen = max(valued, key=lambda place: (valued[place], -place), default=None)
    return None if chosen is None or valued[chosen] <= LEAST_GAIN else found.items[chosen]
