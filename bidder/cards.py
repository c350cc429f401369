"""Cards and hands, and the one parser every entry point uses."""

from __future__ import annotations

import enum
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass

from .errors import BidderError, echo
from .pasted import MAX_HAND_LENGTH, MAX_PASTE_LENGTH, cleaned, pasted_deal, spelled_out

HAND_SIZE = 13
MAX_INPUT_LENGTH = MAX_HAND_LENGTH
EXAMPLE_HAND = "5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C"
SEPARATORS = " \t\r\n,"
VOID_MARKS = "-\u2013\u2014"  # hyphen, en dash (as the pages show a void), em dash
EMOJI_SELECTOR = "\ufe0f"
CHARACTER_NAME_LIMIT = 40


class InvalidHandError(BidderError):
    """Raised when text is not a hand; the message says what, where and what to do."""


class InvalidHandWarning(UserWarning):
    """Warned when a graded function answers for a hand with duplicates or a wrong count."""


# A suit's symbol and word, one string each for every use (a new one at every call would
# be kept, once per hand shape, in each memo of decisions).
_SYMBOLS = tuple("♣♦♥♠")
_WORDS = ("clubs", "diamonds", "hearts", "spades")


class Suit(enum.IntEnum):
    """A suit, ranked clubs < diamonds < hearts < spades."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """The assignment's letter: C, D, H or S."""
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        """The suit symbol: ♣, ♦, ♥ or ♠."""
        return _SYMBOLS[self]

    @property
    def word(self) -> str:
        """The suit's name in a sentence: clubs, diamonds, hearts or spades."""
        return _WORDS[self]

    @property
    def is_major(self) -> bool:
        """Hearts and spades are the majors."""
        return self >= Suit.HEARTS

    @property
    def is_minor(self) -> bool:
        """Clubs and diamonds are the minors."""
        return not self.is_major


SUITS_HIGH_FIRST = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


class Rank(enum.IntEnum):
    """A card's rank, from two to ace."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def label(self) -> str:
        """The assignment's label: 2-10, J, Q, K or A."""
        return str(self.value) if self <= Rank.TEN else self.name[0]

    @property
    def word(self) -> str:
        """The rank's name in a sentence, such as ten or ace."""
        return self.name.lower()


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One card; orders by suit, then rank."""

    suit: Suit
    rank: Rank

    def __str__(self) -> str:
        return _RANK_LABELS[self.rank] + _SUIT_LETTERS[self.suit]

    @property
    def spoken(self) -> str:
        """The card as a screen reader should say it, e.g. 'ace of spades'."""
        return f"{self.rank.word} of {self.suit.word}"


# str(card) is hot: its parts are looked up by the rank's and the suit's numbers, not built.
_RANK_LABELS = ("",) * Rank.TWO + tuple(rank.label for rank in Rank)
_SUIT_LETTERS = "CDHS"
_DOTTED_RANKS = tuple("T" if label == "10" else label for label in _RANK_LABELS)


def _card_order(card: Card) -> tuple[int, int]:
    return card.suit, card.rank


DECK = tuple(Card(suit, rank) for suit in Suit for rank in Rank)
CARD_BY_TOKEN = {str(card): card for card in DECK}


@dataclass(frozen=True, slots=True)
class Hand:
    """Cards held, kept in canonical order: spades first, each suit high to low."""

    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(sorted(self.cards, key=_card_order,
                                                       reverse=True)))

    @classmethod
    def in_order(cls, cards: tuple[Card, ...]) -> Hand:
        """The hand of *cards* given already in canonical order (as the packed engine
        yields them), without sorting them again."""
        hand = object.__new__(cls)
        object.__setattr__(hand, "cards", cards)
        return hand

    def __str__(self) -> str:
        return " ".join(map(str, self.cards))

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self):
        return iter(self.cards)

    def in_suit(self, suit: Suit) -> tuple[Card, ...]:
        """The cards of one suit, high to low."""
        return tuple(card for card in self.cards if card.suit == suit)

    @property
    def dotted(self) -> str:
        """The hand in PBN dot notation, spades first, T for ten."""
        suits = ["", "", "", ""]  # clubs first, as Suit numbers
        for card in self.cards:
            suits[card.suit] += _DOTTED_RANKS[card.rank]
        return ".".join(reversed(suits))


# Parsing ------------------------------------------------------------------

_SUIT_BY_CHARACTER = {
    **{suit.letter: suit for suit in Suit}, **{suit.symbol: suit for suit in Suit}}
_RANK_BY_TEXT = {**{rank.label: rank for rank in Rank}, "T": Rank.TEN}
_RANK = "(10|[2-9TJQKA])"
_SUIT = "([CDHS♣♦♥♠])"
# Patterns are compiled by re on first use (and cached there): a bid's start-up need not.
_CARD_PATTERN = _RANK + _SUIT
_SUIT_FIRST_PATTERN = _SUIT + _RANK
_RUN_TOGETHER_PATTERN = f"(?:{_RANK}{_SUIT}){{2,}}"
_SPLIT_PATTERN = f"[{SEPARATORS}]+"
_RANKS_HELP = "ranks are 2-10, J, Q, K, A"
_SUITS_HELP = "suits are C, D, H, S (or ♣ ♦ ♥ ♠)"
_NOTATION_HELP = (
    "use 13 cards such as '10H AS' separated by spaces or commas, "
    "or dot notation such as 'AKQ2.J54.T9.8765'")
_GROUPS_EXAMPLE = "'AKQ2 J54 T9 8765'"


def parse_hand(text: str) -> Hand:
    """Read 13 distinct cards in any accepted notation.

    :raises TypeError: if *text* is not a str.
    :raises InvalidHandError: naming what is wrong, where, and what to do.
    """
    cards = read_cards(text)
    problem = hand_problem(cards)
    if problem:
        raise InvalidHandError(problem, problem_code(cards))
    return Hand(cards)


def read_cards(text: str) -> tuple[Card, ...]:
    """Read every card in *text*, without checking the count or duplicates."""
    if not isinstance(text, str):
        raise TypeError(
            f"a hand must be a str such as {EXAMPLE_HAND!r}, "
            f"not {type(text).__name__}")
    canonical = _read_canonical(text)
    if canonical:
        return canonical
    text = _unwrapped(text)
    _check_length(text)
    if re.match(_SUIT_BY_SUIT_START, text, re.I):
        return _read_suit_by_suit(text)
    _check_characters(text)
    text = text.replace(EMOJI_SELECTOR, "").strip(SEPARATORS)
    if not text:
        raise InvalidHandError(
            f"no cards entered: paste 13 cards separated by spaces, "
            f"e.g. {EXAMPLE_HAND!r}", "empty")
    if "." in text:
        return _read_dotted(text)
    _check_spelled_out(text)
    tokens = re.split(_SPLIT_PATTERN, text)
    if _are_suit_groups(tokens):
        return _read_suit_groups(tokens)
    return tuple(_read_token(token, position) for position, token in enumerate(tokens, 1))


def _unwrapped(text: str) -> str:
    """The hand's text in what was pasted: one hand of a deal or a hand-viewer link, else
    the text cleaned of screen-reader words, quotes and a closing full stop.

    :raises InvalidHandError: for a whole deal (several hands) or an overlong paste.
    """
    if len(text) > MAX_PASTE_LENGTH:
        _check_length(text)
    deal = pasted_deal(text)
    if deal is None:
        return cleaned(text)
    if len(deal.hands) > 1:
        seats = ", ".join(deal.seats)
        raise InvalidHandError(
            f"this is a whole deal of {len(deal.hands)} hands ({seats}), not one hand: "
            f"paste it on the advisor page to see every seat's opening, or give one hand",
            "whole_deal")
    return deal.hands[0][1]


def _check_spelled_out(text: str) -> None:
    phrase = spelled_out(text)
    if phrase:
        rank, _, suit = phrase.lower().split()
        card = _RANK_WORD_LABELS[rank] + suit[0].upper()
        raise InvalidHandError(
            f"{echo(phrase)} is written in words: write each card as its rank and suit "
            f"(did you mean '{card}'?), e.g. 'AS KH 10D'", "bad_card")


def hand_problem(cards: tuple[Card, ...]) -> str | None:
    """Say what keeps these cards from being a hand (a wrong count, duplicates), if anything."""
    problems = [_count_problem(len(cards)), _duplicates_problem(cards)]
    return "; ".join(problem for problem in problems if problem) or None


def problem_code(cards: tuple[Card, ...]) -> str:
    """The error code for cards that are not a hand: wrong_count, else duplicate_card."""
    return "wrong_count" if len(cards) != HAND_SIZE else "duplicate_card"


def _read_canonical(text: str) -> tuple[Card, ...] | None:
    """Read the assignment's own form (13 distinct tokens, single spaces) quickly."""
    tokens = text.split(" ")
    if len(tokens) != HAND_SIZE or len(set(tokens)) != HAND_SIZE:
        return None
    cards = tuple(map(CARD_BY_TOKEN.get, tokens))
    return None if None in cards else cards


def _check_length(text: str) -> None:
    if len(text) > MAX_INPUT_LENGTH:
        raise InvalidHandError(
            f"the input is {len(text):,} characters long; a hand is at most "
            f"{MAX_INPUT_LENGTH}: paste just the 13 cards", "too_long")


def _check_characters(text: str) -> None:
    for unusual in re.finditer(_UNUSUAL_CHARACTER, text):
        index, character = unusual.start(), unusual.group()
        if character == EMOJI_SELECTOR and index and text[index - 1] in "♣♦♥♠":
            continue
        if character in VOID_MARKS and _stands_alone(text, index):
            continue
        raise InvalidHandError(
            f"character {describe_character(character)} at position {index + 1} "
            f"is not allowed: {_NOTATION_HELP}", "bad_character")


# Any character but an ASCII letter or digit, a separator, a dot or a suit symbol.
_UNUSUAL_CHARACTER = f"[^0-9A-Za-z{re.escape(SEPARATORS)}.♣♦♥♠]"
_HOLDING_ENDS = SEPARATORS + "."


def _stands_alone(text: str, index: int) -> bool:
    """Whether the character at *index* is a whole suit's holding: a void mark between
    separators or dots (or the text's ends), as in '-.AKQJT98765432..'."""
    before = text[index - 1] if index else " "
    after = text[index + 1:index + 2] or " "
    return before in _HOLDING_ENDS and after in _HOLDING_ENDS


def describe_character(character: str) -> str:
    """Name a character safely: printable ASCII quoted, anything else as U+XXXX (NAME)."""
    if character.isascii() and character.isprintable():
        return repr(character)
    name = unicodedata.name(character, "")
    if len(name) > CHARACTER_NAME_LIMIT:  # some names run to 80 letters
        name = name[:CHARACTER_NAME_LIMIT - 1] + "…"
    return f"U+{ord(character):04X}" + (f" ({name})" if name else "")


def _read_token(token: str, position: int) -> Card:
    card = CARD_BY_TOKEN.get(token)  # the assignment's own spelling, most tokens
    if card:
        return card
    match = re.fullmatch(_CARD_PATTERN, token.upper())
    if not match:
        raise InvalidHandError(_bad_token_message(token, position), "bad_card")
    rank, suit = match.groups()
    return Card(_SUIT_BY_CHARACTER[suit], _RANK_BY_TEXT[rank])


# Letters typed for the digits they look like: O for 0, l and I for 1.
_LOOKALIKE_DIGITS = str.maketrans("OLI", "011")
_RANK_WORD_LABELS = {rank.word: rank.label for rank in Rank}


def _bad_token_message(token: str, position: int) -> str:
    upper = token.upper()
    start = f"card {position} {echo(token)}"
    digits = upper.translate(_LOOKALIKE_DIGITS)
    if digits != upper and re.fullmatch(_CARD_PATTERN, digits):
        return (f"{start} has a letter where a digit goes: ranks are 2-10, J, Q, K, A "
                f"(did you mean '{digits}'?)")
    suit_first = re.fullmatch(_SUIT_FIRST_PATTERN, upper)
    if suit_first:
        suit, rank = suit_first.groups()
        return (f"{start} has the suit first: write the rank, then the suit "
                f"(did you mean '{rank}{suit}'?)")
    if re.fullmatch(_RUN_TOGETHER_PATTERN, upper):
        return f"{start} is several cards run together: put a space between cards"
    card = re.match(_CARD_PATTERN, upper)
    if card:
        return (f"{start} has extra characters after {echo(token[:card.end()])}: "
                f"write one card per word, separated by spaces")
    if len(upper) > 1 and upper[-1] in _SUIT_BY_CHARACTER:
        return f"{start} is not a card: {echo(token[:-1])} is not a rank; {_RANKS_HELP}"
    if upper in _RANK_BY_TEXT:
        return f"{start} has no suit: add C, D, H or S after the rank"
    rank = re.match(_RANK, upper)
    if rank:
        return (f"{start} is not a card: {echo(token[rank.end():])} is not a suit; "
                f"{_SUITS_HELP}")
    return (f"{start} is not a card: write a rank (2-10, J, Q, K, A) "
            f"then a suit (C, D, H, S), e.g. 10H")


def _read_dotted(text: str) -> tuple[Card, ...]:
    if any(separator in text for separator in SEPARATORS):
        raise InvalidHandError(
            f"dot notation is one word with no spaces: four suits separated by dots, "
            f"spades first, e.g. 'AKQ2.J54.T9.8765'; got {echo(text)}", "bad_notation")
    holdings = text.split(".")
    if len(holdings) != len(Suit):
        raise InvalidHandError(
            f"dot notation has 4 suits separated by 3 dots, spades first, "
            f"e.g. 'AKQ2.J54.T9.8765'; {echo(text)} has {len(holdings) - 1}",
            "bad_notation")
    return tuple(card for suit, holding in zip(SUITS_HIGH_FIRST, holdings)
                 for card in _read_holding(suit, holding))


def _read_holding(suit: Suit, holding: str, notation: str = "dot notation") -> list[Card]:
    """The cards of one suit's ranks ('AKQ2'), none for a void ('' or a void mark)."""
    if holding and holding in VOID_MARKS:
        return []
    ranks = re.findall("10|.", holding.upper())
    for rank in ranks:
        if rank not in _RANK_BY_TEXT:
            raise InvalidHandError(
                f"the {suit.word} {echo(holding)} in {notation}: {echo(rank)} is not a "
                f"rank; ranks are A K Q J T (or 10) and 9 down to 2", "bad_card")
    return [Card(suit, _RANK_BY_TEXT[rank]) for rank in ranks]


def _are_suit_groups(tokens: list[str]) -> bool:
    """Whether *tokens* are a suit's ranks each ('AKQ2 K32 432 432') rather than cards: no
    token is a card, and one at least holds two ranks or more, which no card does."""
    return (not any(map(_is_card, tokens))
            and any(re.fullmatch(f"{_RANK}{{2,}}", token, re.I) for token in tokens))


def _is_card(token: str) -> bool:
    return token in CARD_BY_TOKEN or re.fullmatch(_CARD_PATTERN, token.upper()) is not None


def _read_suit_groups(tokens: list[str]) -> tuple[Card, ...]:
    """Read four suit groups, spades first, as books and newspaper columns print a hand."""
    if len(tokens) != len(Suit):
        raise InvalidHandError(
            f"suit groups are four, split by spaces or commas, spades first, e.g. "
            f"{_GROUPS_EXAMPLE} ('-' for a void); {echo(' '.join(tokens))} has "
            f"{len(tokens)}", "bad_notation")
    return tuple(card for suit, holding in zip(SUITS_HIGH_FIRST, tokens)
                 for card in _read_holding(suit, holding, "suit groups"))


def _count_problem(count: int) -> str | None:
    if count == HAND_SIZE:
        return None
    gap = abs(count - HAND_SIZE)
    how = f"missing {gap}" if count < HAND_SIZE else f"{gap} too many"
    return f"a hand has 13 cards; this one has {count} ({how})"


_TIMES = {2: "twice", 3: "three times", 4: "four times"}
_DUPLICATES_NAMED = 3


def _duplicates_problem(cards: tuple[Card, ...]) -> str | None:
    repeated = sorted(((card, times) for card, times in Counter(cards).items() if times > 1),
                      reverse=True)
    if not repeated:
        return None
    named = ", ".join(f"'{card}' appears {_TIMES.get(times, f'{times} times')}"
                      for card, times in repeated[:_DUPLICATES_NAMED])
    more = len(repeated) - _DUPLICATES_NAMED
    if more > 0:
        cards_appear = "card appears" if more == 1 else "cards appear"
        named += f" and {more} more {cards_appear} more than once"
    return named + " (a hand holds each card once)"


# Suit by suit ---------------------------------------------------------------------------
# The form the app displays and newspapers print: each suit's mark, then its ranks, in any
# suit order: '♠ K J 10 ♥ A Q J 8 ♦ Q 6 5 ♣ K 9 4', 'S: KJ10 H: AQJ8 D: Q65 C: K94',
# 'spades AKQ2 hearts J54 ...', with a dash for a void. A suit letter can never be a rank,
# so the marks need no spaces around them.

SUIT_BY_WORD = {suit.word: suit for suit in Suit}
RANK_BY_TEXT = _RANK_BY_TEXT  # every way a rank is written ('10' or 'T' for ten); read only
SUIT_BY_CHARACTER = _SUIT_BY_CHARACTER  # a suit's letter or symbol; read only
SUIT_BY_SUIT_EXAMPLE = "♠ K J 10 ♥ A Q J 8 ♦ Q 6 5 ♣ K 9 4"
_MARK = "[♠♥♦♣]\ufe0f?|[SHDC]"
_SUIT_WORD = "spades|hearts|diamonds|clubs"
_SUIT_BY_SUIT_START = (  # both read in any case
    f"[{SEPARATORS}]*(?:[♠♥♦♣]|(?:{_SUIT_WORD}|[SHDC])(?=[{SEPARATORS}:]|$))")
_SUIT_BY_SUIT_TOKEN = (
    f"(?P<mark>(?:{_SUIT_WORD})(?![A-Z])|{_MARK})|(?P<rank>{_RANK})|(?P<void>[{VOID_MARKS}])"
    f"|(?P<colon>:)|(?P<blank>[{SEPARATORS}]+)|(?P<other>.)")
_SUIT_BY_SUIT_HELP = f"write each suit's mark (♠ or S) then its ranks, e.g. {SUIT_BY_SUIT_EXAMPLE!r}"


@dataclass
class _Holding:
    """One suit as read so far: where its mark stands (1-based), its ranks, its voids."""

    position: int
    ranks: list[Rank]
    voids: int = 0


def _read_suit_by_suit(text: str) -> tuple[Card, ...]:
    """Read a hand written suit by suit (the text starts with a suit's mark)."""
    holdings: dict[Suit, _Holding] = {}
    suit, last = None, None
    for token in re.finditer(_SUIT_BY_SUIT_TOKEN, text, re.I | re.S):
        kind, position = token.lastgroup, token.start() + 1
        if kind == "mark":
            suit = _suit_of_mark(token.group())
            _check_once(suit, holdings, position)
            holdings[suit] = _Holding(position, [])
        elif kind == "rank":
            holdings[suit].ranks.append(_RANK_BY_TEXT[token.group().upper()])
        elif kind == "void":
            holdings[suit].voids += 1
        elif kind == "colon" and last != "mark":
            raise InvalidHandError(
                f"the ':' at position {position} does not follow a suit: write a colon "
                f"only after a suit's mark, as in 'S: K J 10'", "bad_notation")
        elif kind == "other":
            raise _suit_by_suit_stranger(text, token.start())
        last = kind if kind != "blank" else last
    return tuple(Card(suit, rank) for suit in SUITS_HIGH_FIRST
                 for rank in _holding_ranks(suit, holdings.get(suit)))


def _suit_of_mark(mark: str) -> Suit:
    """The suit a mark names: a symbol, a letter or a word, in any case."""
    mark = mark.replace(EMOJI_SELECTOR, "")
    return SUIT_BY_WORD.get(mark.lower(), _SUIT_BY_CHARACTER.get(mark.upper()))


def _check_once(suit: Suit, holdings: dict, position: int) -> None:
    if suit in holdings:
        raise InvalidHandError(
            f"the {suit.word} are given twice (at positions {holdings[suit].position} and "
            f"{position}): give each suit once", "bad_notation")


def _holding_ranks(suit: Suit, holding: _Holding | None) -> list[Rank]:
    """The ranks of one suit, once the whole text is read; a void gives none."""
    if holding is None:
        raise InvalidHandError(
            f"the {suit.word} are missing: give all four suits, each mark followed by its "
            f"ranks, and '-' for a void", "bad_notation")
    where = f"the {suit.word} at position {holding.position}"
    if holding.voids and (holding.ranks or holding.voids > 1):
        raise InvalidHandError(f"{where} have a '-' for a void and more: write either "
                               f"the ranks or one '-'", "bad_notation")
    if not holding.ranks and not holding.voids:
        raise InvalidHandError(f"{where} have no cards: write their ranks after the "
                               f"mark, or '-' for a void", "bad_notation")
    return holding.ranks


def _suit_by_suit_stranger(text: str, index: int) -> InvalidHandError:
    """The error for a character that is neither a mark, a rank, a void nor a separator."""
    character, position = text[index], index + 1
    if character == "1":
        return InvalidHandError(f"'1' at position {position} is not a rank: write 10 or "
                                f"T for ten", "bad_card")
    if character.isascii() and character.isalnum():
        return InvalidHandError(
            f"{echo(character)} at position {position} is not a rank or a suit: ranks are "
            f"A K Q J 10 (or T) and 9 down to 2; suits ♠ ♥ ♦ ♣ or S H D C", "bad_card")
    return InvalidHandError(
        f"character {describe_character(character)} at position {position} is not allowed: "
        f"{_SUIT_BY_SUIT_HELP}", "bad_character")
