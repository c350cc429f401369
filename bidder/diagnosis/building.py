"""Building the bank: every hand the enumeration gives, answered by every reading, reduced to
the rows that split the readings in a way no kept row does, and ladders of one shape at
successive HCP. ``make bank`` rewrites ``bank.json.gz``: about a minute and a half of one
core."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterable, Iterator
from itertools import chain, islice
from pathlib import Path

from .. import packed
from ..dealing import hand_stream, telling_hand
from ..facts import HCP_SCALE
from .answers import LADDER_RUNGS
from .bank import BANK_FILE, FIELDS, Bank, Row, load, save
from .choosing import ASKS, split
from .enumeration import HONOURS, SCALES, Witness, every_witness
from .hypotheses import answers, fingerprint, reading_id, readings

DEALT = 20_000  # dealt hands weighed too, beyond the enumeration (a seed of its own)
DEALT_SEED = 31
TELLING = 4  # hands each reading opens otherwise, from the profiles kept for it
MOST_LADDERS = 1_500  # ladders kept, those that split the readings most first


class ScaleError(RuntimeError):
    """A reading counts honours on a scale the enumeration does not weigh."""


def scale_place(reading) -> int:
    """The place in SCALES of the honour scale *reading* counts on.

    :raises ScaleError: for a scale the enumeration does not weigh: add it to SCALES."""
    counting = dict(HCP_SCALE if reading is None else reading.counting.scale)
    for place, change in enumerate(SCALES):
        if counting == {**dict(HCP_SCALE), **change}:
            return place
    raise ScaleError(f"{reading_id(reading)} counts honours as {counting}, a scale "
                     f"bidder.diagnosis.enumeration.SCALES does not weigh: add it there")


def witness_of(code: int) -> Witness:
    """The witness of a dealt hand: its lengths and its honours, clubs first."""
    held: list[list] = [[] for _ in range(4)]
    for card in packed.cards(code):
        if card.rank in HONOURS:
            held[card.suit].append(card.rank)
    lengths = [0] * 4
    for card in packed.cards(code):
        lengths[card.suit] += 1
    return Witness(tuple(lengths), tuple(tuple(ranks) for ranks in held))


class Answering:
    """Every reading's answers, worked out once for each way its scale counts a hand."""

    def __init__(self):
        self.found = readings()
        places = [scale_place(reading) for reading in self.found]
        self.groups = tuple(tuple(index for index, place in enumerate(places)
                                  if place == scale) for scale in range(len(SCALES)))
        self.parts: list[dict] = [{} for _ in SCALES]
        self.by_id: list[list] = [[] for _ in SCALES]

    def vector(self, witness: Witness) -> tuple[int, ...]:
        """The hand's answers as an id per scale (equal ids, equal answers)."""
        lengths, counted, compared = witness.key()
        code = 0
        ids = []
        for scale, members in enumerate(self.groups):
            key = (lengths, counted[scale], compared[scale] if compared else None)
            known = self.parts[scale]
            if key not in known:
                code = code or packed.encode_deal(witness.indexes())
                known[key] = len(known)
                self.by_id[scale].append(tuple(answers(self.found[index], code)
                                               for index in members))
            ids.append(known[key])
        return tuple(ids)

    def row(self, code: int, vector: tuple[int, ...]) -> Row:
        """The row of a hand with this vector: each reading's answer, interned."""
        return _row(code, self.groups, [self.by_id[scale][part]
                                        for scale, part in enumerate(vector)],
                    len(self.found))


def _row(code: int, groups, parts, size: int) -> Row:
    answered: list = [None] * size
    for members, values in zip(groups, parts):
        for index, value in zip(members, values):
            answered[index] = value
    found: dict = {}
    of = tuple(found.setdefault(value, len(found)) for value in answered)
    return Row(code, tuple(found), of)


def split_key(found: Row) -> tuple:
    """How a row splits the readings, by every answer and by the bid alone."""
    bids: dict = {}
    return found.of, tuple(bids.setdefault(found.values[place][0], len(bids))
                           for place in found.of)


def telling_witnesses(count: int = TELLING) -> Iterator[Witness]:
    """*count* hands for each reading that it opens otherwise than the rules, dealt from
    the profiles of such hands found exactly for it (``misreadings_apart.json``): with
    them the bank tells every reading that changes a bid from the rules."""
    rng = random.Random(DEALT_SEED)
    for reading in readings()[1:]:
        for _ in range(count):
            hand = telling_hand(reading, rng)
            if hand is not None:
                yield witness_of(packed.read(hand))


def build(dealt: int = DEALT, witnesses: Iterable[Witness] | None = None) -> Bank:
    """The bank for the space the engine reads now, from every witness and the hands each
    reading opens otherwise (or the witnesses given), and *dealt* dealt hands."""
    answering = Answering()
    vectors: dict[tuple[int, ...], int] = {}
    rungs: dict[tuple, dict[int, int]] = {}  # lengths -> HCP -> the first hand's code
    source = (chain(every_witness(), telling_witnesses()) if witnesses is None
              else witnesses)
    dealt_ones = (witness_of(packed.encode_deal(indexes))
                  for indexes in islice(hand_stream(DEALT_SEED), dealt))
    for witness in chain(source, dealt_ones):
        vector = answering.vector(witness)
        if vector not in vectors:
            vectors[vector] = packed.encode_deal(witness.indexes())
        lengths, counted, _ = witness.key()
        rungs.setdefault(lengths, {}).setdefault(counted[0], vectors[vector])
    rows: dict[tuple, Row] = {}
    answered = (answering.row(code, vector) for vector, code in vectors.items())
    for found in (row for row in answered if len(row.values) > 1):
        rows.setdefault(split_key(found), found)
    ids = tuple(map(reading_id, readings()))
    whole = Bank(ids, tuple(rows.values()), _ladders(answering, rungs), fingerprint())
    return reduced(whole)


def reduced(bank: Bank) -> Bank:
    """The bank with one row (and one ladder) for each way of splitting the classes it
    tells apart, by any question asked."""
    by_bids, by_all = bank.classes(("bid",)), bank.classes(FIELDS)
    rows: dict[tuple, Row] = {}
    for found in bank.rows:
        key = tuple(split((found,), ask, by_all)[0] for ask in ASKS) + (
            split((found,), ASKS[0], by_bids)[0],)
        rows.setdefault(key, found)
    ladders: dict[tuple, tuple[Row, ...]] = {}
    for ladder in bank.ladders:
        key = (split(ladder, ASKS[0], by_all)[0], split(ladder, ASKS[0], by_bids)[0])
        ladders.setdefault(key, ladder)
    return Bank(bank.ids, tuple(rows.values()), tuple(ladders.values()), bank.fingerprint)


def _ladders(answering: Answering, rungs: dict) -> tuple[tuple[Row, ...], ...]:
    """Runs of LADDER_RUNGS hands of one shape at successive HCP whose answers split the
    readings, one for each way of splitting them, those that split most first."""
    found: dict[tuple, tuple[int, tuple[Row, ...]]] = {}
    for lengths in sorted(rungs):
        by_hcp = rungs[lengths]
        for low in sorted(by_hcp):
            hcps = range(low, low + LADDER_RUNGS)
            if not all(hcp in by_hcp for hcp in hcps):
                continue
            ladder = tuple(_rung(answering, by_hcp[hcp]) for hcp in hcps)
            split = tuple(tuple(found_row.answer(index)[0] for found_row in ladder)
                          for index in range(len(answering.found)))
            groups = len(set(split))
            if groups > 1:
                found.setdefault(tuple(sorted(_partition(split))), (groups, ladder))
    ranked = sorted(found.values(), key=lambda pair: -pair[0])
    return tuple(ladder for _, ladder in ranked[:MOST_LADDERS])


def _partition(split: tuple) -> list[tuple[int, ...]]:
    groups: dict = {}
    for index, key in enumerate(split):
        groups.setdefault(key, []).append(index)
    return [tuple(group) for group in groups.values()]


def _rung(answering: Answering, code: int) -> Row:
    witness = witness_of(code)
    return answering.row(code, answering.vector(witness))


def main(argv: list[str] | None = None) -> None:
    """Rebuild the shipped bank (or write it at the path given)."""
    args = sys.argv[1:] if argv is None else argv
    path = Path(args[0]) if args else BANK_FILE
    bank = reduced(load(Path(args[1]))) if len(args) > 1 else build()
    save(bank, path)
    print(f"{path}: {len(bank.rows):,} hands and {len(bank.ladders):,} ladders for "
          f"{len(bank.ids)} readings (fingerprint {bank.fingerprint})")

