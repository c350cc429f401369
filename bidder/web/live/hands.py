"""The hands a poll is opened on: pasted, dealt for a rule, or dealt to tell
misreadings apart."""

from __future__ import annotations

import re

from ...advice import explain
from ...dealing import SEPARATING_SEARCH, deal, parse_rule, random_hand, separating_hands
from ...misreadings import MisreadingError, variant_by_id
from .labels import wrong_bids

APART_SEARCH = 40  # random hands tried for the one that tells most misreadings apart
SEEDS = 1_000_000  # a poll's hand is dealt from a seed from 1 to this
MAX_NAMED = 8  # misreadings an instructor may name to tell apart
APART_WORK = "a hand that tells misreadings apart"  # in the worker's pool (web.heavy)


class NamedError(ValueError):
    """Misreadings named to tell apart that cannot be: the message names the id and says
    what to write instead."""

    code = "bad_misreading"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def read_ids(text: str) -> tuple[str, ...]:
    """The misreading ids of a form's field, separated by commas, spaces or new lines."""
    return tuple(part for part in re.split(r"[\s,]+", text) if part)


def canonical(text: str) -> str:
    """The hand *text* in canonical form.

    :raises InvalidHandError: saying what is wrong with it.
    """
    return explain(text).to_dict()["hand"]


def dealt_for(rule_id: str, seed: int) -> str:
    """A hand that rule *rule_id* decides, dealt from *seed*.

    :raises DealError: for a rule that does not exist.
    """
    return str(deal(seed, rule=parse_rule(rule_id)))


def telling_apart(seed: int, search: int = APART_SEARCH) -> str:
    """Of *search* hands dealt from *seed* on, the one on which misreadings give the most
    different wrong bids (the first of the best)."""
    hands = [str(random_hand(seed + step)) for step in range(search)]
    return max(hands, key=lambda hand: len(wrong_bids(hand)))


def apart_for(ids: tuple[str, ...], seed: int, search: int = SEPARATING_SEARCH) -> str:
    """A hand, dealt from *seed*, on which the first misreading named bids otherwise than
    the rules and the misreadings named give as many different bids as can be (none
    named: the best of random hands for the whole space, as telling_apart).

    :raises NamedError: for an id that names no misreading (naming it and why), too many
        ids, or misreadings no hand searched tells apart.
    """
    if not ids:
        return telling_apart(seed)
    if len(ids) > MAX_NAMED:
        raise NamedError(f"{len(ids)} misreadings were named; name at most {MAX_NAMED}")
    variants = []
    for place, name in enumerate(ids, start=1):
        try:
            variants.append(variant_by_id(name))
        except MisreadingError as error:
            raise NamedError(f"misreading {place}, {name[:40]!r}, is not one: {error}") from None
    found = separating_hands(variants, 1, seed, search, limit=search)
    if not found:
        raise NamedError(f"no hand of the {search:,} dealt changes the bid for "
                         f"{ids[0][:40]!r}: name a misreading that changes some opening "
                         f"bid first (bidder variants --all lists them)")
    return canonical(found[0])
