"""Hands to teach a misreading with: hands it answers otherwise than the rules."""

from __future__ import annotations

import random

from .. import packed
from ..cards import Hand
from ..misreadings import variant_by_id
from .bank import shipped
from .hypotheses import answers

MOST_HANDS = 100  # teaching hands asked for at once, at most


def teaching_hands(misreading: str, count: int, seed: int) -> tuple[Hand, ...]:
    """*count* hands the misreading (any id of bidder.misreadings, composed too) answers
    otherwise than the rules, picked for *seed* from the bank; fewer when the bank
    holds fewer.

    :raises MisreadingError: if *misreading* names no misreading.
    :raises ValueError: if *count* is not from 1 to MOST_HANDS."""
    variant = variant_by_id(misreading)
    if not 1 <= count <= MOST_HANDS:
        raise ValueError(f"count: {count!r} hands; ask for 1 to {MOST_HANDS}")
    bank = shipped()
    codes = [found.code for found in bank.rows
             if answers(variant, found.code) != answers(None, found.code)]
    chosen = random.Random(seed).sample(codes, min(count, len(codes)))
    return tuple(Hand.in_order(packed.cards(code)) for code in chosen)
