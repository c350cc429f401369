"""The misreadings behind each wrong bid on a hand: every misreading of the generated
space that changes some hand (equivalents left out), the catalogue's names first."""

from __future__ import annotations

from functools import lru_cache

from ... import packed
from ...bids import BIDS
from ...misreadings import distinguishable


@lru_cache(maxsize=256)
def wrong_bids(hand: str) -> dict[str | None, tuple[str, ...]]:
    """Each bid other than the rules' that some misreading gives on *hand* (a canonical
    hand), to the ids of the misreadings that give it, in the space's order. Each reading
    decides the packed hand, as the sweeps do: a poll's hand and the search for one that
    tells misreadings apart cost milliseconds, not seconds."""
    code = packed.read(hand)
    right = packed.decide(code)[1]
    found: dict[str | None, list[str]] = {}
    for variant in distinguishable():
        theirs = packed.decide(code, variant.rules, variant.counting)[1]
        if theirs != right:
            found.setdefault(theirs, []).append(variant.id)
    order = {bid.text: place for place, bid in enumerate(BIDS)}
    return {bid: tuple(ids) for bid, ids in sorted(found.items(), key=lambda i: order[i[0]])}
