"""The fast engine: a hand as one integer, decided and counted without building objects.

A hand's code is the sum of its cards' codes. Each card's code holds its own bit among
52, then a 1 in its suit's length field (4 bits a suit), its HCP in the HCP field and in
its suit's HCP field (4 bits a suit). Thirteen distinct cards never overflow a field: a
suit holds at most 13 cards and 10 HCP. Adding a card twice carries into another card's
bit, so 13 bits set means 13 different cards. Only this module knows the layout.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from .cards import (DECK, HAND_SIZE, MAX_INPUT_LENGTH, RANK_BY_TEXT, SEPARATORS,
                     SUIT_BY_CHARACTER, SUITS_HIGH_FIRST, Card, Rank, Suit)
from .facts import HCP_SCALE, STANDARD, Counting, Tally, card_hcp
from .rules import RULES, NeedsSuitHcp, Rule, TallyOnly, first_rule

_LENGTHS_AT, _HCP_AT, _SUIT_HCP_AT = 52, 68, 76
_RANKS = len(Rank)  # DECK runs clubs to spades, each two to ace: a card's bit is its place
_SUIT_MASK = (1 << _RANKS) - 1
# Suits as plain numbers where they key a cache (an enum member hashes in Python).
_CLUBS, _DIAMONDS, _HEARTS, _SPADES = map(int, Suit)
_ALL_CARDS = (1 << _LENGTHS_AT) - 1
_KEY_MASK = (1 << (_SUIT_HCP_AT - _LENGTHS_AT)) - 1  # lengths and HCP: all a tally holds


def _card_code(place: int, card: Card) -> int:
    suit, hcp = int(card.suit), card_hcp(card)
    return ((1 << place) | 1 << (_LENGTHS_AT + 4 * suit) | hcp << _HCP_AT
            | hcp << (_SUIT_HCP_AT + 4 * suit))


_CODES = tuple(_card_code(place, card) for place, card in enumerate(DECK))
_CODE_BY_CARD = dict(zip(DECK, _CODES))
_CODE_BY_TOKEN = {str(card): code for card, code in zip(DECK, _CODES)}
_TOKEN_CODE = _CODE_BY_TOKEN.__getitem__

def _spellings(text: str) -> set[str]:
    """*text* as the parser reads it in any case."""
    return {text, text.lower(), text.upper()}


# Every way the parser reads one card as one word: any case, T or 10, letter or symbol.
_CODE_BY_SPELLING = {rank_text + suit_text: _CODE_BY_CARD[Card(suit, rank)]
                     for rank_spelling, rank in RANK_BY_TEXT.items()
                     for rank_text in _spellings(rank_spelling)
                     for suit_spelling, suit in SUIT_BY_CHARACTER.items()
                     for suit_text in _spellings(suit_spelling)}
# Dot notation: for each suit, spades first, the code of each rank's letter.
_DOTTED_CODES = tuple({rank_text: _CODE_BY_CARD[Card(suit, rank)]
                       for rank_spelling, rank in RANK_BY_TEXT.items() if rank_spelling != "10"
                       for rank_text in _spellings(rank_spelling)}
                      for suit in SUITS_HIGH_FIRST)
_TEN, _TEN_LETTER = "10", "T"
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
    if len(tokens) == HAND_SIZE and _thirteen(code):
        return code
    return None


def encode(text: str) -> int | None:
    """The code of a hand written as the assignment writes it (13 different cards,
    canonical tokens, single spaces), else None: such text needs the full parser."""
    return _summed(text, _CODE_BY_TOKEN)


def read(text: str) -> int | None:
    """The code of a hand in any common notation: the assignment's, then cards in any
    case, T for ten, suit symbols, commas or several spaces between cards, or dot
    notation. None when the text needs the full parser (which also says what is wrong)."""
    try:  # the assignment's notation first, written out here: it is the commonest
        words = text.split(" ")
        code = sum(map(_TOKEN_CODE, words))
        if len(words) == HAND_SIZE and (code & _ALL_CARDS).bit_count() == HAND_SIZE:
            return code
    except (AttributeError, TypeError, KeyError):
        if not isinstance(text, str):
            return None
    if len(text) > MAX_INPUT_LENGTH:
        return None
    text = text.strip(SEPARATORS)
    return _read_dotted(text) if "." in text else _read_words(text)


def _read_words(text: str) -> int | None:
    """Thirteen different cards, one a word, between separators the parser accepts."""
    words = text.replace(",", " ").split()
    if sum(map(len, words)) + sum(map(text.count, SEPARATORS)) != len(text):
        return None  # split() also took some other blank the parser refuses
    try:
        code = sum(map(_CODE_BY_SPELLING.__getitem__, words))
    except KeyError:
        return None
    return code if len(words) == HAND_SIZE and _thirteen(code) else None


def _read_dotted(text: str) -> int | None:
    """Four suits' ranks between three dots, spades first, thirteen different cards."""
    holdings = text.replace(_TEN, _TEN_LETTER).split(".")
    if len(holdings) != len(_DOTTED_CODES) or sum(map(len, holdings)) != HAND_SIZE:
        return None
    try:
        code = sum(sum(map(codes.__getitem__, holding))
                   for codes, holding in zip(_DOTTED_CODES, holdings))
    except KeyError:
        return None
    return code if _thirteen(code) else None


def _thirteen(code: int) -> bool:
    """Whether the code holds thirteen different cards (a repeated card carries)."""
    return (code & _ALL_CARDS).bit_count() == HAND_SIZE


def encode_hcp(text: str) -> int | None:
    """The HCP of a hand in the assignment's notation, else None (the fastest count)."""
    code = _summed(text, _HCP_CODE_BY_TOKEN)
    return None if code is None else code >> _LENGTHS_AT


def encode_cards(cards: Iterable[Card]) -> int:
    """The code of any cards (a Hand, or cards read by the parser)."""
    return sum(_CODES[_RANKS * card.suit + card.rank - Rank.TWO] for card in cards)


def encode_deal(indexes: Iterable[int]) -> int:
    """The code of cards given by their places in the deck."""
    return sum(map(_CODES.__getitem__, indexes))


def text(code: int) -> str:
    """The hand's canonical text: spades first, each suit high to low."""
    return " ".join([line for _, _, _, line in holdings(code) if line])


def cards(code: int) -> tuple[Card, ...]:
    """The hand's cards in canonical order: spades first, each suit high to low."""
    return (suit_cards(_SPADES, code >> 3 * _RANKS & _SUIT_MASK)
            + suit_cards(_HEARTS, code >> 2 * _RANKS & _SUIT_MASK)
            + suit_cards(_DIAMONDS, code >> _RANKS & _SUIT_MASK)
            + suit_cards(_CLUBS, code & _SUIT_MASK))


def holdings(code: int, scale: tuple[tuple[Rank, int], ...] = HCP_SCALE
             ) -> tuple[tuple[tuple[str, ...], tuple[tuple[str, int], ...], int, str], ...]:
    """Each suit's cards as text, spades first, high to low, with its honours and their
    HCP (on *scale*), its HCP and its cards in a line: ((('AS', 'KS', '2S'), (('AS', 4),
    ('KS', 3)), 7, 'AS KS 2S'), ...)."""
    return tuple([suit_texts(suit, bits, scale) for suit, bits in suit_fields(code)])


def suit_fields(code: int) -> tuple[tuple[int, int], ...]:
    """Each suit's number and its field of 13 bits (a bit for each rank held, the two
    lowest), spades first: a holding as a small int, for keying what a holding decides."""
    return ((_SPADES, code >> 3 * _RANKS & _SUIT_MASK),
            (_HEARTS, code >> 2 * _RANKS & _SUIT_MASK),
            (_DIAMONDS, code >> _RANKS & _SUIT_MASK),
            (_CLUBS, code & _SUIT_MASK))


@lru_cache(maxsize=len(Suit) << len(Rank))
def suit_texts(suit: int, bits: int, scale: tuple[tuple[Rank, int], ...] = HCP_SCALE
               ) -> tuple[tuple[str, ...], tuple[tuple[str, int], ...], int, str]:
    """One suit (its number and field: see suit_fields) as text: its cards high to low,
    its honours with their HCP (on *scale*), its HCP, and its cards in a line."""
    held = suit_cards(suit, bits)
    texts = tuple(map(str, held))
    worth = card_hcp if scale == HCP_SCALE else (
        lambda card: dict(scale).get(card.rank, 0))
    return (texts, tuple((str(card), worth(card)) for card in held if worth(card)),
            sum(map(worth, held)), " ".join(texts))


@lru_cache(maxsize=len(Suit) << len(Rank))
def suit_cards(suit: int, bits: int) -> tuple[Card, ...]:
    """The cards of *suit* whose bits are set in *bits* (its field of 13), high to low."""
    return tuple(DECK[_RANKS * suit + place] for place in reversed(range(_RANKS))
                 if bits >> place & 1)


def profile(code: int) -> int:
    """All that decides a bid (lengths, HCP and HCP per suit), without which cards: hands
    with the same profile get the same bid; count profiles, then decide each once."""
    return code >> _LENGTHS_AT


def from_profile(value: int) -> int:
    """A code with *value* as its profile and no card bits."""
    return value << _LENGTHS_AT


def key(code: int) -> int:
    """The code's tally key: its lengths and HCP, all that the tally holds."""
    return (code >> _LENGTHS_AT) & _KEY_MASK


def from_key(value: int) -> int:
    """A code with the tally key *value*: its lengths and HCP, no cards."""
    return value << _LENGTHS_AT


_CARDS_AND_LENGTHS = (1 << _HCP_AT) - 1


def rescaled(code: int, counting: Counting) -> int:
    """The code with its HCP fields counted on *counting*'s scale of honours: all that
    reads the HCP then reads the counting's. The code itself on the assignment's scale,
    or when it holds no cards (a key's or a profile's code is counted already)."""
    if counting.scale == HCP_SCALE or not code & _ALL_CARDS:
        return code
    held = [_field_hcp(counting.scale, code >> _RANKS * suit & _SUIT_MASK) for suit in Suit]
    return ((code & _CARDS_AND_LENGTHS) | sum(held) << _HCP_AT
            | sum(hcp << (_SUIT_HCP_AT + 4 * suit) for suit, hcp in enumerate(held)))


@lru_cache(maxsize=1 << 15)
def _field_hcp(scale: tuple[tuple[Rank, int], ...], bits: int) -> int:
    """The HCP of one suit's field of 13 bits on *scale*."""
    return sum(points for rank, points in scale if bits >> (rank - Rank.TWO) & 1)


@lru_cache(maxsize=1 << 15)
def _tally(key: int, counting: Counting = STANDARD) -> Tally:
    return Tally(tuple((key >> (4 * suit)) & 15 for suit in range(4)),
                 key >> (_HCP_AT - _LENGTHS_AT), counting)


def tally(code: int, counting: Counting = STANDARD) -> Tally:
    """What the rules read: the lengths and the HCP, counted by *counting*."""
    return _tally(key(rescaled(code, counting)), counting)


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
        return suit_hcp(rescaled(self.code, self.counting), suit)


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


def is_the_assignments(rules: Sequence[Rule], counting: Counting) -> bool:
    """Whether *rules* and *counting* are the assignment's own rule table and counting,
    whose decisions are kept apart from a misreading's."""
    return rules is RULES and counting is STANDARD


def decide(code: int, rules: Sequence[Rule] = RULES, counting: Counting = STANDARD
           ) -> tuple[Rule, str | None]:
    """The rule that decides the hand and the bid it makes, by the rule table *rules*
    with hands counted by *counting*."""
    if is_the_assignments(rules, counting):
        rule, bid, settled = _decide_default(key(code))
    else:
        rule, bid, settled = _decide_other(key(rescaled(code, counting)), tuple(rules), counting)
    return (rule, bid) if settled else (rule, rule.bid(Holding(code, counting)))


def bid(code: int) -> str | None:
    """The assignment's bid for a code (decide()'s bid, by the assignment's table)."""
    try:
        return _BID_BY_KEY[(code >> _LENGTHS_AT) & _KEY_MASK]
    except KeyError:
        return _first_bid(code)


_BID_BY_KEY: dict[int, str | None] = {}  # the settled bids by key, filled as hands come
UNREAD = object()  # what bid_of_text() answers for text that needs the full parser


def bid_of_text(text: str) -> str | None | object:
    """read() then bid() in one step, for the hottest door; UNREAD when read() is None."""
    try:  # read() and bid() for the assignment's notation, written out for speed
        words = text.split(" ")
        code = sum(map(_TOKEN_CODE, words))
        if len(words) == HAND_SIZE and (code & _ALL_CARDS).bit_count() == HAND_SIZE:
            return _BID_BY_KEY[(code >> _LENGTHS_AT) & _KEY_MASK]
    except (AttributeError, TypeError, KeyError):
        pass
    code = read(text)
    return UNREAD if code is None else bid(code)


def _first_bid(code: int) -> str | None:
    """bid() for a key not yet known: decided, and kept when the tally alone settles it."""
    tally_key = key(code)
    rule, bid, settled = _decide_default(tally_key)
    if settled:
        _BID_BY_KEY[tally_key] = bid
        return bid
    return rule.bid(Holding(code))


def decide_many(codes: Iterable[int], rules: Sequence[Rule] = RULES,
                counting: Counting = STANDARD) -> list[tuple[Rule, str | None]]:
    """decide() for many codes at once."""
    return [decide(code, rules, counting) for code in codes]


def decide_profiles(profiles: Mapping[int, int]) -> Counter:
    """How many hands make each (rule, bid, tally), by the assignment's table, from how
    many hands have each profile: each tally decided once, and a profile by itself only
    where the suits' HCP settle the bid."""
    by_key, unsettled, outcomes = Counter(), {}, Counter()
    for value, count in profiles.items():
        by_key[value & _KEY_MASK] += count
    for tally_key, count in by_key.items():
        rule, bid, settled = _decide_default(tally_key)
        if settled:
            outcomes[rule, bid, _tally(tally_key)] += count
        else:
            unsettled[tally_key] = rule
    for value, count in profiles.items():
        rule = unsettled.get(value & _KEY_MASK)
        if rule is not None:
            code = from_profile(value)
            outcomes[rule, rule.bid(Holding(code)), tally(code)] += count
    return outcomes


# What a batch reader needs (``bidder.grading.batch``, with NumPy) ---------------------

CARD_PROFILES = tuple(profile(code) for code in _CODES)  # each card's part, in DECK order
KEY_MASK = _KEY_MASK  # a profile's bits that make its tally key


def decide_key(key: int) -> tuple[Rule, str | None] | None:
    """The rule and the bid for a tally key from read_batch(), by the assignment's table;
    None when only the suits' HCP settle the bid (decide the profile's code then)."""
    rule, bid, settled = _decide_default(key)
    return (rule, bid) if settled else None
