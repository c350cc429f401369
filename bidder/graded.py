"""The assignment's three graded functions, with a fast path for its own notation.

A hand written as the assignment writes it (13 distinct canonical cards separated by
single spaces) is tallied by adding one precomputed integer per card; the decision for
its lengths and HCP is cached. Anything else goes through the full parser.
"""

from __future__ import annotations

import warnings
from functools import lru_cache

from .cards import DECK, HAND_SIZE, Hand, hand_problem, read_cards
from .cards import InvalidHandWarning
from .facts import Facts, Tally, card_hcp
from .rules import Rule, first_rule

# Bit layout of a card's code: its own bit among 52, then its suit's length (4 bits
# per suit), the HCP, and its suit's HCP (4 bits per suit). Thirteen distinct cards
# never overflow a field: a suit holds at most 13 cards and 10 HCP.
_LENGTHS_AT, _HCP_AT, _SUIT_HCP_AT = 52, 68, 76
_ALL_CARDS = (1 << _LENGTHS_AT) - 1
PROFILE_AT = _LENGTHS_AT  # a code shifted right by this: all but which cards
TALLY_KEY_MASK = (1 << (_SUIT_HCP_AT - _LENGTHS_AT)) - 1  # lengths and HCP of a profile


def _card_code(index: int) -> int:
    card = DECK[index]
    suit, hcp = int(card.suit), card_hcp(card)
    return ((1 << index) | 1 << (_LENGTHS_AT + 4 * suit) | hcp << _HCP_AT
            | hcp << (_SUIT_HCP_AT + 4 * suit))


def code_hcp(code: int) -> int:
    """The HCP of a summed card code."""
    return (code >> _HCP_AT) & 0xFF


CARD_CODES = tuple(map(_card_code, range(len(DECK))))
_CODE_BY_TOKEN = {str(card): code for card, code in zip(DECK, CARD_CODES)}
# Shorter codes for the HCP alone, which add faster: a card's bit and its HCP.
_HCP_CODE_BY_TOKEN = {token: (code & _ALL_CARDS) | code_hcp(code) << _LENGTHS_AT
                      for token, code in _CODE_BY_TOKEN.items()}


def _fast_code(hand: str, codes: dict[str, int] = _CODE_BY_TOKEN) -> int | None:
    """The summed code of a hand in the assignment's notation, else None."""
    try:
        tokens = hand.split(" ")
        code = sum(map(codes.__getitem__, tokens))
    except (AttributeError, TypeError, KeyError):
        return None
    # Adding a card's bit twice carries into another bit, so 13 bits set means 13
    # different cards.
    if len(tokens) == HAND_SIZE and (code & _ALL_CARDS).bit_count() == HAND_SIZE:
        return code
    return None


def _nibbles(code: int, at: int) -> tuple[int, int, int, int]:
    return tuple((code >> (at + 4 * suit)) & 15 for suit in range(4))


def tally_key(code: int) -> int:
    """The length and HCP fields of a summed card code: all the rules read."""
    return (code >> _LENGTHS_AT) & TALLY_KEY_MASK


@lru_cache(maxsize=1 << 15)
def key_tally(key: int) -> Tally:
    """The Tally for a tally key."""
    return Tally(_nibbles(key, 0), key >> (_HCP_AT - _LENGTHS_AT))


@lru_cache(maxsize=1 << 15)
def key_decision(key: int) -> tuple[Rule, str | None]:
    """The rule and bid for a code's length and HCP fields (the cache key); the bid is
    None for a rule with a level when only the suits' HCP can settle it."""
    tally = key_tally(key)
    rule = first_rule(tally)
    return rule, rule.bid(tally)


def decide(code: int) -> tuple[Rule, str | None]:
    """The rule that fires and the bid it makes, for a summed card code."""
    key = tally_key(code)
    rule, bid = key_decision(key)
    if bid is None and rule.level is not None:
        bid = rule.bid(key_tally(key), lambda suit: (code >> (_SUIT_HCP_AT + 4 * suit)) & 15)
    return rule, bid


def _lenient_facts(hand: str) -> Facts:
    """Facts for any cards, warning when they are not 13 different ones."""
    cards = read_cards(hand)
    problem = hand_problem(cards)
    if problem:
        warnings.warn(problem, InvalidHandWarning, stacklevel=3)
    return Facts(Hand(cards))


def highCardPoints(hand: str) -> int:
    """High card points of *hand*: A 4, K 3, Q 2, J 1.

    :raises TypeError: if *hand* is not a str.
    :raises InvalidHandError: if a card cannot be read.
    """
    code = _fast_code(hand, _HCP_CODE_BY_TOKEN)
    if code is None:
        return _lenient_facts(hand).hcp
    return code >> _LENGTHS_AT


def distributionPoints(hand: str) -> int:
    """Distribution points of *hand*: one for each card beyond the fourth in a suit."""
    code = _fast_code(hand)
    if code is None:
        return _lenient_facts(hand).distribution
    return key_tally(tally_key(code)).distribution


def openingBid(hand: str) -> str | None:
    """The opening bid for *hand*, such as '1NT' or '4S', or None for no bid."""
    code = _fast_code(hand)
    if code is not None:
        return decide(code)[1]
    facts = _lenient_facts(hand)
    tally = facts.tally
    return first_rule(tally).bid(tally, facts.suit_hcp)
