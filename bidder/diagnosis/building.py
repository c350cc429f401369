"""Building the bank: hands enumerated, answered by every reading, reduced to the rows that
split the readings in some way no kept row does. ``python -m bidder.diagnosis.building``
rewrites ``bank.json.gz``."""

from __future__ import annotations

from itertools import islice

from .. import packed
from ..dealing import hand_stream
from .bank import BANK_FILE, Bank, Row, row_of, save
from .hypotheses import fingerprint, reading_id, readings

DEALT = 20_000


def candidate_codes():
    """The hands whose answers are weighed."""
    return (packed.encode_deal(indexes) for indexes in islice(hand_stream(31), DEALT))


def reduced(rows) -> tuple[Row, ...]:
    """The rows that split something, one for each way of splitting the readings."""
    kept: dict[tuple[int, ...], Row] = {}
    for found in rows:
        if len(found.values) > 1:
            kept.setdefault(found.of, found)
    return tuple(kept.values())


def build() -> Bank:
    """The bank for the space the engine reads now."""
    rows = reduced(row_of(code) for code in candidate_codes())
    return Bank(tuple(map(reading_id, readings())), rows, (), fingerprint())


def main() -> None:  # pragma: no cover - the command that rebuilds the shipped file
    save(build(), BANK_FILE)


if __name__ == "__main__":  # pragma: no cover
    main()
