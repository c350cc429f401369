"""The readings a student may hold: the rules as written and every misreading of the space
that changes some hand, each answering a hand with a bid, its HCP and its distribution
points, from the engine itself."""

from __future__ import annotations

import hashlib
import json
from functools import cache

from .. import packed
from ..misreadings import counts, distinguishable
from ..rules import RULES
from ..variants import Variant

Answers = tuple[str | None, int, int]  # (bid, HCP, distribution points) for one hand


@cache
def readings() -> tuple[Variant | None, ...]:
    """The rules (None), then every misreading that changes some hand, in the space's order."""
    return (None, *distinguishable())


def reading_id(reading: Variant | None) -> str:
    """The id a reading goes by: "rules" for the rules as written."""
    return "rules" if reading is None else reading.id


def answers(reading: Variant | None, code: int) -> Answers:
    """What a student holding *reading* answers for the hand *code*: the bid (as the engine
    writes it, whatever the spelling), the HCP and the distribution points."""
    if reading is None:
        tally = packed.tally(code)
        return packed.decide(code)[1], tally.hcp, tally.distribution
    tally = packed.tally(code, reading.counting)
    return (packed.decide(code, reading.rules, reading.counting)[1], tally.hcp,
            tally.distribution)


@cache
def fingerprint() -> str:
    """A digest of the space (each reading's id and its exact counts) and of the rule
    table: a bank built for another space carries another."""
    known = counts()
    data = [(reading_id(reading), None if reading is None else known[reading.id].to_dict())
            for reading in readings()]
    data.append([(rule.id, rule.level, [condition.text for condition in rule.conditions],
                  getattr(rule.choose, "__name__", None), rule.how) for rule in RULES])
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:16]
