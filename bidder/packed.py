"""The fast engine: a hand as one integer, decided and counted without building objects.

A hand's code is the sum of its cards' codes. Each card's code holds its own bit among
52, then a 1 in its suit's length field (4 bits a suit), its HCP in the HCP field and in
its suit's HCP field (4 bits a suit). Thirteen distinct cards never overflow a field: a
suit holds at most 13 cards and 10 HCP. Adding a card twice carries into another card's
bit, so 13 bits set means 13 different cards. Only this module knows the layout.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Sequence

from .cards import DECK, HAND_SIZE, Card, Suit
from .facts import STANDARD, Counting, Tally, card_hcp
from .rules import RULES, NeedsSuitHcp, Rule, TallyOnly, first_rule

_LENGTHS_AT, _HCP_AT, _SUIT_HCP_AT = 52, 68, 76
_ALL_CARDS = (1 << _LENGTHS_AT) - 1
_KEY_MASK = (1 << (_SUIT_HCP_AT - _LENGTHS_AT)) - 1  # lengths and HCP: all a tally holds


def _card_code(card: Card) -> int:
    suit, hcp = int(card.suit), card_hcp(card)
    return ((1 << DECK.index(card)) | 1 << (_LENGTHS_AT + 4 * suit) | hcp << _HCP_AT
            | hcp << (_SUIT_HCP_AT + 4 * suit))


_CODES = tuple(map(_card_code, DECK))
_CODE_BY_CARD = dict(zip(DECK, _CODES))
_CODE_BY_TOKEN = {str(card): code for card, code in zip(DECK, _CODES)}
_TOKENS = tuple(map(str, DECK))
# Shorter codes for the HCP alone, which add faster: a card's bit and its HCP.
_HCP_CODE_BY_TOKEN = {token: (code & _ALL_CARDS) | ((code >> _HCP_AT) & 0xFF) << _LENGTHS_AT
                      for token, code in _CODE_BY_TOKEN.items()}


def _summed(text: str, codes: dict[str, int]) -> int | None:
    """The sum of the tokens' *codes* for 13 different canonical tokens, else None."""
    try:
        tokens = text.split(" ")
        code = sum(map(codes.__getitem__, tokens))
    except (AttributeError, TypeError, KeyError):
        return None
    if len(tokens) == HAND_SIZE and (code & _ALL_CARDS).bit_count() == HAND_SIZE:
        return code
    return None


def encode(text: str) -> int | None:
    """The code of a hand written as the assignment writes it (13 different cards,
    canonical tokens, single spaces), else None: such text needs the full parser."""
    return _summed(text, _CODE_BY_TOKEN)


def encode_hcp(text: str) -> int | None:
    """The HCP of a hand in the assignment's notation, else None (the fastest count)."""
    code = _summed(text, _HCP_CODE_BY_TOKEN)
    return None if code is None else code >> _LENGTHS_AT


def encode_cards(cards: Iterable[Card]) -> int:
    """The code of any cards (a Hand, or cards read by the parser)."""
    return sum(map(_CODE_BY_CARD.__getitem__, cards))


def encode_deal(indexes: Iterable[int]) -> int:
    """The code of cards given by their places in the deck."""
    return sum(map(_CODES.__getitem__, indexes))


def text(code: int) -> str:
    """The hand's canonical text: spades first, each suit high to low."""
    bits, tokens = code & _ALL_CARDS, []
    while bits:
        high = bits.bit_length() - 1
        tokens.append(_TOKENS[high])
        bits ^= 1 << high
    return " ".join(tokens)


def profile(code: int) -> int:
    """All that decides a bid (lengths, HCP and HCP per suit), without which cards: hands
    with the same profile get the same bid; count profiles, then decide each once."""
    return code >> _LENGTHS_AT


def from_profile(value: int) -> int:
    """A code with *value* as its profile and no card bits."""
    return value << _LENGTHS_AT


def _key(code: int) -> int:
    return (code >> _LENGTHS_AT) & _KEY_MASK


@lru_cache(maxsize=1 << 15)
def _tally(key: int, counting: Counting = STANDARD) -> Tally:
    return Tally(tuple((key >> (4 * suit)) & 15 for suit in range(4)),
                 key >> (_HCP_AT - _LENGTHS_AT), counting)


def tally(code: int, counting: Counting = STANDARD) -> Tally:
    """What the rules read: the lengths and the HCP, counted by *counting*."""
    return _tally(_key(code), counting)


def hcp(code: int) -> int:
    """High card points."""
    return (code >> _HCP_AT) & 0xFF


def suit_hcp(code: int, suit: Suit) -> int:
    """High card points held in *suit*."""
    return (code >> (_SUIT_HCP_AT + 4 * suit)) & 15


@dataclass(frozen=True)
class Holding:
    """A code seen as the rules see a hand: its tally and the HCP within each suit."""

    code: int
    counting: Counting = STANDARD

    @property
    def tally(self) -> Tally:
        """The lengths and the HCP."""
        return tally(self.code, self.counting)

    def suit_hcp(self, suit: Suit) -> int:
        """High card points held in *suit*."""
        return suit_hcp(self.code, suit)


def _decide_tally(key: int, rules: Sequence[Rule], counting: Counting = STANDARD
                  ) -> tuple[Rule, str | None, bool]:
    """(rule, bid, settled) for a tally: the bid, unless only the suits' HCP settle it."""
    facts = _tally(key, counting)
    rule = first_rule(facts, rules)
    try:
        return rule, rule.bid(TallyOnly(facts)), True
    except NeedsSuitHcp:
        return rule, None, False


_decide_default = lru_cache(maxsize=1 << 15)(lambda key: _decide_tally(key, RULES))
_decide_other = lru_cache(maxsize=1 << 15)(_decide_tally)


def decide(code: int, rules: Sequence[Rule] = RULES, counting: Counting = STANDARD
           ) -> tuple[Rule, str | None]:
    """The rule that decides the hand and the bid it makes, by the rule table *rules*
    with hands counted by *counting*."""
    key = _key(code)
    rule, bid, settled = (_decide_default(key) if rules is RULES and counting is STANDARD
                          else _decide_other(key, tuple(rules), counting))
    return (rule, bid) if settled else (rule, rule.bid(Holding(code, counting)))


def decide_many(codes: Iterable[int], rules: Sequence[Rule] = RULES,
                counting: Counting = STANDARD) -> list[tuple[Rule, str | None]]:
    """decide() for many codes at once."""
    return [decide(code, rules, counting) for code in codes]
