"""The bank: hands that tell readings apart, each with every reading's answers, and the
classes of readings no hand of it tells apart. Shipped as data (``bank.json.gz``, written
by ``bidder.diagnosis.building``) and read once."""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache
from operator import itemgetter
from pathlib import Path

from .. import packed
from .hypotheses import Answers, answers, fingerprint, reading_id, readings

BANK_FILE = Path(__file__).with_name("bank.json.gz")
FIELDS = ("bid", "hcp", "distribution")  # what each answer holds, in order


class BankError(RuntimeError):
    """A bank that does not fit the space the engine reads: rebuild it."""


@dataclass(frozen=True)
class Row:
    """A hand and every reading's answer to it: the distinct answers, and for each reading
    (in the bank's order) the place of its answer among them."""

    code: int
    values: tuple[Answers, ...]
    of: tuple[int, ...]

    def __hash__(self) -> int:
        """By the hand alone: the caches keyed by rows hash them often."""
        return hash(self.code)

    def answer(self, reading: int) -> Answers:
        """What the reading at place *reading* answers."""
        return self.values[self.of[reading]]


@dataclass(frozen=True)
class Bank:
    """The rows one hand at a time, the ladders (one shape at successive HCP, rung by
    rung), the readings' ids in order and the fingerprint of the space it was built for."""

    ids: tuple[str, ...]
    rows: tuple[Row, ...]
    ladders: tuple[tuple[Row, ...], ...]
    fingerprint: str

    def __hash__(self) -> int:
        """By the fingerprint and sizes alone, not every row: the caches keyed by the bank
        hash it at every choice."""
        return hash((self.fingerprint, len(self.ids), len(self.rows), len(self.ladders)))

    @cached_property
    def by_code(self) -> dict[int, Row]:
        """Every row and rung by its hand's code."""
        found = {row.code: row for ladder in self.ladders for row in ladder}
        found.update((row.code, row) for row in self.rows)
        return found

    def classes(self, fields: tuple[str, ...]) -> tuple[tuple[int, ...], ...]:
        """The readings (by place) grouped by what they answer on every hand of the bank,
        reading only *fields*: the rules' class first, then in the space's order."""
        return _classes(self, fields)

    def to_dict(self) -> dict:
        """The bank as the shipped JSON writes it."""
        return {"fingerprint": self.fingerprint, "readings": list(self.ids),
                "rows": [_row_dict(row) for row in self.rows],
                "ladders": [[_row_dict(row) for row in ladder] for ladder in self.ladders]}

    @classmethod
    def from_dict(cls, data: dict) -> Bank:
        """The bank the shipped JSON holds."""
        return cls(tuple(data["readings"]), tuple(map(_row_of, data["rows"])),
                   tuple(tuple(map(_row_of, ladder)) for ladder in data["ladders"]),
                   data["fingerprint"])


def _row_dict(row: Row) -> dict:
    return {"hand": packed.text(row.code), "values": [list(value) for value in row.values],
            "of": "".join(_DIGITS[place] for place in row.of)}


def _row_of(data: dict) -> Row:
    return Row(packed.encode(data["hand"]), tuple(map(tuple, data["values"])),
               tuple(data["of"].encode("ascii").translate(_PLACE_OF_DIGIT)))


_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_PLACE_OF_DIGIT = bytes.maketrans(_DIGITS.encode("ascii"), bytes(range(len(_DIGITS))))


def row_of(code: int, reading_list=None) -> Row:
    """The row of any hand, answered now by the engine for every reading."""
    found: dict[Answers, int] = {}
    of = tuple(found.setdefault(answers(reading, code), len(found))
               for reading in (readings() if reading_list is None else reading_list))
    return Row(code, tuple(found), of)


@lru_cache(maxsize=4096)
def row(code: int) -> Row:
    """The row of a hand: from the bank when it holds the hand, else worked out now."""
    known = shipped().by_code.get(code)
    return row_of(code) if known is None else known


def agreeing(found: Row, fields: tuple[str, ...]) -> list[int]:
    """Each answer of *found* (by place) as the place of the first answer that agrees with
    it on the parts *fields* name."""
    asked = list(map(itemgetter(*map(FIELDS.index, fields)), found.values))
    return list(map(asked.index, asked))


@lru_cache(maxsize=8)
def _classes(bank: Bank, fields: tuple[str, ...]) -> tuple[tuple[int, ...], ...]:
    everything = bank.rows + tuple(row for ladder in bank.ladders for row in ladder)
    columns = [tuple(map(agreeing(found, fields).__getitem__, found.of))
               for found in everything]
    groups: dict[tuple, list[int]] = {}
    for reading, vector in enumerate(zip(*columns)):
        groups.setdefault(vector, []).append(reading)
    return tuple(map(tuple, groups.values()))


def load(path: Path = BANK_FILE) -> Bank:
    """The bank written at *path*."""
    with gzip.open(path, "rt", encoding="utf-8") as file:
        return Bank.from_dict(json.load(file))


def save(bank: Bank, path: Path = BANK_FILE) -> None:
    """Write *bank* at *path*, compactly and the same bytes for the same bank."""
    text = json.dumps(bank.to_dict(), separators=(",", ":"))
    with open(path, "wb") as raw, gzip.GzipFile("", "wb", fileobj=raw, mtime=0) as file:
        file.write(text.encode("utf-8"))


@cache
def shipped() -> Bank:
    """The bank shipped with the package, checked against the space the engine reads.

    :raises BankError: when the space changed since it was built."""
    bank = load()
    if bank.fingerprint != fingerprint() or bank.ids != tuple(map(reading_id, readings())):
        raise BankError(f"{BANK_FILE.name} was built for another space of misreadings "
                        f"(fingerprint {bank.fingerprint}, the engine's is {fingerprint()}): "
                        f"rebuild it with `make bank`")
    return bank
