"""The hands that test a leading misreading against readings just outside the space. For
each of its largest regions of departure from the rules (one bid changed; the same bids in
other suits only after a region departing otherwise; from its hand of fewest distribution
points above none, one shape): the lowest and highest HCP at which it makes that bid on
that shape, and one HCP beyond each, where it stops (where it never stops, a rule
left out: where the rules' bid does); a hand of that HCP on which it bids as the rules
do; and where, beyond an end, it makes the rules' bid of the region (the rule whose range
it moves), that bid's far end too. A student whose range or shape differs from the
misreading's answers some of them otherwise, even where the misreading agrees with the
rules. A hand answered alike to a probe (its HCP, distribution points and both bids,
whatever its shape) answers it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

from .. import packed
from ..bids import BID_BY_VALUE
from ..cards import SUITS_HIGH_FIRST, Card, Rank
from .answers import LADDER_RUNGS, Answer
from .bank import Bank, Row
from .hypotheses import answers, readings

MOST_REGIONS = 2  # regions of departure probed, those of most hands first
MOST_PROBES = 10  # probes of one reading at most: regions' ends, alike hands, far ends
ALTERNATIVES = 12  # hands kept for each probe, the next asked after a miss
PROBE_ANSWERS = 12  # answers a probe takes at most (its hands and hands alike to it): then
# the posterior weighs its misses, unless most of them missed (refuted())
REFUTING = 3  # misses that refute a probe at least (with most of its hands missed): fewer
# may be slips
UP = ((Rank.JACK, Rank.QUEEN), (Rank.QUEEN, Rank.KING), (Rank.KING, Rank.ACE))
DOWN = tuple((new, old) for old, new in reversed(UP))
SPOTS = tuple(rank for rank in Rank if rank < Rank.JACK)
LOW_SPOTS = tuple(rank for rank in Rank if rank < Rank.TEN)


@dataclass(frozen=True)
class Probe:
    """Hands alike (HCP, distribution points, the reading's and the rules' bids): its
    own (of its first hand's shape, or, when too few are, the bank's of any shape) and
    those answered alike (every_probe()); and the bid the reading makes on them."""

    codes: tuple[int, ...]
    bid: str | None


@dataclass(frozen=True, eq=False)
class Grid:
    """Every hand of the bank (rows and rungs, by code) and the hands of each HCP and
    shape (suit lengths, clubs first)."""

    rows: tuple[Row, ...]
    alike: dict[tuple[int, tuple[int, ...]], tuple[Row, ...]]

    def at(self, hcp: int) -> tuple[Row, ...]:
        """The hands of *hcp* HCP, by shape then code."""
        return self.levels.get(hcp, ())

    @cached_property
    def levels(self) -> dict[int, tuple[Row, ...]]:
        """The hands of each HCP, by shape then code."""
        found: dict[int, list[Row]] = {}
        for (level, _), rows in sorted(self.alike.items()):
            found.setdefault(level, []).extend(rows)
        return {level: tuple(rows) for level, rows in found.items()}


@lru_cache(maxsize=4)
def grid(bank: Bank) -> Grid:
    """The bank's hands laid out for probing, worked out once per process."""
    rows = tuple(bank.by_code[code] for code in sorted(bank.by_code))
    alike: dict[tuple[int, tuple[int, ...]], list[Row]] = {}
    for found in rows:
        alike.setdefault((packed.hcp(found.code), packed.tally(found.code).lengths),
                         []).append(found)
    return Grid(rows, {key: tuple(value) for key, value in alike.items()})


def stepped(code: int, step: int) -> int | None:
    """The hand one HCP richer (*step* 1) or poorer (-1) of the same shape, an honour
    raised or lowered by one rank, spades first; None when no honour can move."""
    held = set(packed.cards(code))
    for old, new in UP if step > 0 else DOWN:
        for suit in SUITS_HIGH_FIRST:
            if Card(suit, old) in held and Card(suit, new) not in held:
                return packed.encode_cards((held - {Card(suit, old)}) | {Card(suit, new)})
    for suit in SUITS_HIGH_FIRST:
        spots = [rank for rank in SPOTS if (Card(suit, rank) in held) == (step > 0)]
        jack = Card(suit, Rank.JACK)
        if spots and (jack in held) != (step > 0):
            swap = {Card(suit, spots[0]), jack}
            return packed.encode_cards(held ^ swap)
    return None


def _run_end(reading, code: int, bid, step: int, with_rules: bool = False
             ) -> tuple[int, int | None]:
    """From *code*, stepping by *step* HCP while *reading* still bids *bid* (and, *with
    rules*, the rules still bid as on *code*): the last hand that does and the first that
    does not (None when the honours run out)."""
    rules = answers(None, code)[0] if with_rules else None
    while True:
        further = stepped(code, step)
        if further is None:
            return code, None
        if answers(reading, further)[0] != bid or (
                with_rules and answers(None, further)[0] != rules):
            return code, further
        code = further


@lru_cache(maxsize=1024)
def probes(bank: Bank, reader: int) -> tuple[Probe, ...]:
    """The probes of the reading at place *reader* (none for the rules, at place 0): the
    ends of its regions, then the hands of their HCP it bids as the rules do, then the far
    ends of the rules' ranges it moves; at most MOST_PROBES. Of two hands one HCP apart the
    richer comes first: asked the other way round they would read as a ladder."""
    if reader == 0:
        return ()
    laid, reading = grid(bank), readings()[reader]
    regions: dict[tuple, list[Row]] = {}
    for found_row in laid.rows:
        of = found_row.of
        if of[reader] != of[0]:
            mine, rules = found_row.answer(reader)[0], found_row.answer(0)[0]
            if mine != rules:
                regions.setdefault((str(rules), str(mine)), []).append(found_row)
    largest = sorted(regions.items(), key=lambda item: (-len(item[1]), item[0]))
    ends: list[tuple[int, ...]] = []  # groups kept or left out whole: a pair, or one hand
    further: list[tuple[int, ...]] = []
    alike: list[tuple[int, ...]] = []
    for (rules_bid, _), members in _unlike(largest)[:MOST_REGIONS]:
        start = min(members, key=_distribution).code
        bid = answers(reading, start)[0]
        for step in (-1, 1):
            end, beyond = _run_end(reading, start, bid, step)
            if beyond is None:  # its bid runs on (a rule left out): where the rules' ends
                end, beyond = _run_end(reading, start, bid, step, with_rules=True)
            if beyond is None:  # an end where the honours run out tells nothing
                continue
            ends.append(_richer_first(end, beyond))
            past = answers(reading, beyond)[0]
            if str(past) == rules_bid:  # the rule whose range it moves: that range's far end
                end, beyond = _run_end(reading, beyond, past, step)
                if beyond is not None:
                    further.append(_richer_first(end, beyond))
        alike += [(other.code,) for other in laid.at(packed.hcp(start))
                  if other.answer(reader)[0] == bid == other.answer(0)[0]][:1]
    kept: dict[Signature, int] = {}  # one probe of each signature: one answer settles both
    for group in ends + alike + further:
        fresh = {signature(reader, code): code for code in group}
        fresh = {mark: code for mark, code in fresh.items() if mark not in kept}
        if len(kept) + len(fresh) <= MOST_PROBES:
            kept.update(fresh)
    return tuple(_alike(bank, reader, code) for code in kept.values())


def _unlike(regions: list) -> list:
    """The regions in order, but those departing as a region before them does (the same
    bids in other suits) after the others."""
    kinds = [_kind(bids) for bids, _ in regions]
    fresh = [place for place, kind in enumerate(kinds) if kind not in kinds[:place]]
    return [regions[place] for place in fresh] + [
        region for place, region in enumerate(regions) if place not in fresh]


def _kind(bids: tuple[str, str]) -> tuple:
    """How a region departs, its suits left out: each bid's level and whether it is in
    notrump (None for no opening), and whether the two bids share a strain."""
    found = [BID_BY_VALUE.get(bid) for bid in bids]
    strains = [None if bid is None else bid.strain for bid in found]
    return tuple(None if bid is None else (bid.level, bid.strain == "NT")
                 for bid in found), strains[0] == strains[1]


def _distribution(found: Row) -> tuple[bool, int]:
    """The row's hand's distribution points, none counted last: a region is probed from
    its hand of fewest above none, where a reader of HCP and one of points answer apart
    at the same range."""
    points = packed.tally(found.code).distribution
    return points == 0, points


def _richer_first(end: int, beyond: int) -> tuple[int, ...]:
    """The two hands of a pair one HCP apart, the richer first: asked the other way round
    they would read as a ladder."""
    return tuple(sorted((end, beyond), key=packed.hcp, reverse=True))


def _alike(bank: Bank, reader: int, code: int) -> Probe:
    """The probe of the hand *code* and up to ALTERNATIVES - 1 hands alike to it
    (signature()): of its shape, an honour moved up and another down or a low spot moved
    up (from it, then from the hands so found); else the bank's, of any shape."""
    mark = signature(reader, code)
    moved, waiting = [code], [code]
    while waiting and len(moved) < ALTERNATIVES:  # moved again from the hands found
        source = waiting.pop(0)
        for other in [_round_trip(source, step) for step in (1, -1)] + _spots_moved(source):
            if other is not None and other not in moved and signature(reader, other) == mark:
                moved.append(other)
                waiting.append(other)
    others = moved[1:]
    if len(moved) < ALTERNATIVES:  # too few found so: the bank's, of any shape, too
        others = list(dict.fromkeys(others + list(alike_hands(bank, reader, mark))))
    others = [other for other in others if other != code]
    return Probe((code, *others[:ALTERNATIVES - 1]), mark[2])


def _spots_moved(code: int) -> list[int]:
    """The hands with one spot card below the ten moved up a rank, in each suit its lowest
    whose next rank (below the ten) is free: the same shape, HCP and tens."""
    held = set(packed.cards(code))
    found = []
    for suit in SUITS_HIGH_FIRST:
        for low, high in zip(LOW_SPOTS, LOW_SPOTS[1:]):
            if Card(suit, low) in held and Card(suit, high) not in held:
                found.append(packed.encode_cards((held - {Card(suit, low)}) | {Card(suit, high)}))
                break
    return found


def _round_trip(code: int, step: int) -> int | None:
    """The hand one HCP up then down again (or down then up): the same shape and HCP,
    the honours placed otherwise, or None."""
    there = stepped(code, step)
    return None if there is None else stepped(there, -step)


Given = dict[int, tuple[int, str | None]]  # each hand answered (by code): place, bid


def given_bids(answers: Sequence[Answer]) -> Given:
    """Each hand answered (by code): the place of its last answer and the bid given."""
    return {packed.encode_cards(answer.hand.cards): (place, answer.call)
            for place, answer in enumerate(answers)}


def probe_codes(bank: Bank, reader: int, given: Given | None = None) -> frozenset[int]:
    """The hands of every probe of the reading at place *reader*, with the hands *given*
    alike to one (every_probe())."""
    return frozenset(code for probe in every_probe(bank, reader, given or {})
                     for code in probe.codes)


Signature = tuple[int, int, str | None, str | None]


@lru_cache(maxsize=1 << 14)
def signature(reader: int, code: int) -> Signature:
    """What makes two hands alike for a probe of the reading at place *reader*: the HCP,
    the distribution points (a reader of points tells them apart), the reading's bid and
    the rules' bid. Any shape will do: a reader whose range differs from the reading's
    answers otherwise where the two bids are made."""
    return (packed.hcp(code), packed.tally(code).distribution,
            answers(readings()[reader], code)[0], answers(None, code)[0])


@lru_cache(maxsize=1 << 12)
def alike_hands(bank: Bank, reader: int, mark: Signature) -> tuple[int, ...]:
    """The bank's hands (by code) whose signature for the reading at place *reader* is
    *mark*."""
    return tuple(found.code for found in grid(bank).at(mark[0])
                 if signature(reader, found.code) == mark)


def unsettled(bank: Bank, reader: int, given: Given) -> tuple[Probe, ...]:
    """The probes of the reading not answered as it answers yet (never asked, missed more
    often than met, or missed last) with a hand of it left to ask: once PROBE_ANSWERS of
    its hands, or all, are answered, the posterior weighs the misses (slips, or a reader
    near it outside the space), unless the probe is refuted(). *given* holds each hand
    answered (by code): its place among the answers and the bid given."""
    return tuple(probe for probe in every_probe(bank, reader, given) if waits(probe, given))


def waits(probe: Probe, given: Given) -> bool:
    """Whether the probe is not answered as its reading answers yet, with a hand of it left
    to ask (unsettled())."""
    return not settled(probe, given) and _askable(probe, given)


def _askable(probe: Probe, given: Given) -> bool:
    """Whether a hand of the probe is left to ask, with fewer than PROBE_ANSWERS of its
    hands answered (a probe may be asked on another hand alike, bidder.diagnosis.rounds,
    so that its own hands may outlast the round's budget)."""
    return _answered(probe, given) < min(PROBE_ANSWERS, len(probe.codes))


def _answered(probe: Probe, given: Given) -> int:
    """How many of the probe's hands were answered."""
    return sum(1 for code in probe.codes if code in given)


def refuted(probe: Probe, given: Given) -> bool:
    """Whether the probe was answered otherwise than the reading answers on most of its
    hands, at least REFUTING of them, with none left to ask: a reader near it, not slips.
    Its reading is not named."""
    missed_on = misses(probe, given)
    return (not _askable(probe, given) and missed_on >= REFUTING
            and 2 * missed_on > _answered(probe, given))


def misses(probe: Probe, given: Given) -> int:
    """How many of the probe's hands were answered otherwise than the reading answers."""
    return sum(1 for code in probe.codes if code in given and given[code][1] != probe.bid)


def settled(probe: Probe, given: Given) -> bool:
    """Whether the probe's hands were answered as the reading answers them: the last one
    asked, and at least as many as were answered otherwise."""
    answered = sorted((given[code][0], given[code][1] == probe.bid)
                      for code in probe.codes if code in given)
    met = sum(agreed for _, agreed in answered)
    return bool(answered) and answered[-1][1] and 2 * met >= len(answered)


def missed(bank: Bank, reader: int, given: Given) -> tuple[Probe, ...]:
    """The probes of the reading some hand of which was answered otherwise."""
    return tuple(probe for probe in every_probe(bank, reader, given) if misses(probe, given))


def every_probe(bank: Bank, reader: int, given: Given) -> tuple[Probe, ...]:
    """The reading's probes, each with the hands *given* alike to it (signature()), asked
    for it or not: a probe the round answered already is not asked again."""
    marks = {code: signature(reader, code) for code in given}
    return tuple(_with_alike(probe, signature(reader, probe.codes[0]), marks)
                 for probe in probes(bank, reader))


def _with_alike(probe: Probe, mark: Signature, marks: dict[int, Signature]) -> Probe:
    """The probe with the hands of *marks* whose signature is *mark*."""
    return Probe(probe.codes + tuple(code for code, other in marks.items()
                                     if other == mark and code not in probe.codes), probe.bid)


def probe_ladder(codes: tuple[int, ...], asked: frozenset[int] = frozenset()
                 ) -> tuple[int, ...]:
    """The probe hands *codes* of the first one's shape within a ladder's span of HCP
    holding the first one, as one ladder, poorest first: the HCP between them filled by
    raising an honour of the rung below by one rank. () when fewer than two, when the
    honours run out, or when a hand so filled was *asked* already."""
    shape, first = packed.tally(codes[0]).lengths, packed.hcp(codes[0])
    by_hcp: dict[int, int] = {}
    for code in codes:
        if packed.tally(code).lengths == shape:
            by_hcp.setdefault(packed.hcp(code), code)
    low = min(level for level in by_hcp if level > first - LADDER_RUNGS)
    within = [level for level in by_hcp if low <= level < low + LADDER_RUNGS]
    if len(within) < 2:
        return ()
    rungs = [by_hcp[low]]
    for level in range(low + 1, max(within) + 1):
        rung = by_hcp.get(level) or stepped(rungs[-1], 1)
        if rung is None or rung in asked:
            return ()
        rungs.append(rung)
    return tuple(rungs)
