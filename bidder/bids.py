"""Bids: one value for an opening bid or for no bid, read and written one way everywhere.

A ``Bid`` has one text form (``str(bid)``: ``1S``, ``2NT``, ``None``), one display form
(``bid.display``: ``1♠``, ``2NT``, ``No bid``) and one order: by level, then clubs,
diamonds, hearts, spades, no trump; no bid last. ``Bid.text`` and ``Bid.from_value`` cross
over to the graded functions' values (``'1S'`` or ``None``).

``Bid.parse`` reads text in two modes:

- **strict**, for links, forms and ``--bid``: a level and ``C``, ``D``, ``H``, ``S``,
  ``NT`` or ``N`` in either case (``1s``, ``2nt``, ``1N``), or ``None``, ``Pass``,
  ``No bid``, ``nobid`` or ``-`` for no bid, with spaces around. Only a bid the rule table
  makes is accepted, since a hand must be dealt for it.
- **lenient**, for students' answers: also suit symbols (``1♠``, ``1♠️``), suit and no-trump
  words (``2 spades``, ``1 club``, ``1 No Trumps``), a space inside (``2 h``), one pair of
  quotes (``'1C'``), full-width letters and digits (``１Ｃ``) and ``P`` for pass; any
  level 1 to 7, since a wrong answer is still an answer.

``1N`` means 1NT in both modes: N is the usual short form of no trump, and nothing else
could be meant. Only the full-width forms are normalised: a look-alike such as the long
s or the Kelvin sign is refused, as the hand parser refuses it.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache, total_ordering

from .cards import EMOJI_SELECTOR, Suit, describe_character, echo
from .errors import BidderError
from .rules import RULES

NO_TRUMP = "NT"
STRAINS = (*(suit.letter for suit in Suit), NO_TRUMP)  # in bidding order
LEVELS = range(1, 8)
NO_BID_NAME = "No bid"
BLANKS = " \t"
QUOTES = "'\""
NO_BID_WORDS = ("none", "pass", "no bid", "nobid", "-")
ANSWER_NO_BID_WORDS = (*NO_BID_WORDS, "p")
# NFKC for the full-width forms of ASCII (and the full-width space), and nothing else.
FULL_WIDTH = {code: unicodedata.normalize("NFKC", chr(code))
              for code in (*range(0xFF01, 0xFF5F), 0x3000)}
ACCEPTED = ("write a level from 1 to 7, then a suit or NT, such as 1NT, 2H, 3♠ or "
            "4 spades; or None, Pass or - for no bid")


class BidError(BidderError):
    """Raised when text is not a bid (or not one the rules make, in strict mode)."""


@total_ordering
@dataclass(frozen=True, slots=True)
class Bid:
    """An opening bid, a level 1-7 and a strain (C, D, H, S or NT), or no bid (level 0).

    ``Bid.NONE`` is no bid: the one value for it, false in a condition, shown "No bid".
    """

    level: int = 0
    strain: str = ""

    def __post_init__(self) -> None:
        if (self.level, self.strain) != (0, "") and (
                self.level not in LEVELS or self.strain not in STRAINS):
            raise ValueError(f"a bid is a level 1-7 and one of {', '.join(STRAINS)}, "
                             f"not {self.level!r} and {self.strain!r}")

    def __bool__(self) -> bool:
        return self.level != 0

    def __str__(self) -> str:
        return f"{self.level}{self.strain}" if self else "None"

    def __lt__(self, other: Bid) -> bool:
        if not isinstance(other, Bid):
            return NotImplemented
        return self._rank < other._rank

    @property
    def _rank(self) -> tuple[bool, int, int]:
        """The bidding order: level, then strain; no bid after every bid."""
        return not self, self.level, STRAINS.index(self.strain) if self else 0

    @property
    def text(self) -> str | None:
        """The bid as the graded functions give it: '1S', '2NT', or None for no bid."""
        return str(self) if self else None

    @property
    def suit(self) -> Suit | None:
        """The suit named, or None for no trump and for no bid."""
        return Suit(STRAINS.index(self.strain)) if self and self.strain != NO_TRUMP else None

    @property
    def display(self) -> str:
        """The bid on a screen: '1♠', '2NT', 'No bid'."""
        return self.plain if self.suit is None else f"{self.level}{self.suit.symbol}"

    @property
    def plain(self) -> str:
        """The bid on a screen in letters: '1S', '2NT', 'No bid'."""
        return str(self) if self else NO_BID_NAME

    @property
    def suit_word(self) -> str | None:
        """The suit as it is said after the level: 'club' after 1, else 'clubs'."""
        if self.suit is None:
            return None
        return self.suit.word[:-1] if self.level == 1 else self.suit.word

    @classmethod
    def from_value(cls, value: str | None) -> Bid:
        """The Bid for a graded function's value: '1S', '2NT', ... or None.

        :raises TypeError: if *value* is neither a str nor None.
        :raises BidError: if *value* is a str but not a bid in that exact form.
        """
        if value is not None and not isinstance(value, str):
            raise TypeError(f"a bid value is a str such as '1S', or None, "
                            f"not {type(value).__name__}")
        bid = BID_BY_VALUE.get(value)
        if bid is None:
            raise BidError(f"{echo(value)} is not a bid as openingBid gives it: "
                           f"'1S', '2NT' and so on, or None", "not_a_value")
        return bid

    @classmethod
    def parse(cls, text: str, *, lenient: bool = False) -> Bid:
        """Read a bid: strictly (links, --bid) or leniently (students' answers).

        :raises TypeError: if *text* is not a str.
        :raises BidError: naming what is wrong and what would be accepted.
        """
        if not isinstance(text, str):
            raise TypeError(f"a bid to read is a str such as '1S', "
                            f"not {type(text).__name__}")
        return _read_lenient(text) if lenient else _read_strict(text)


Bid.NONE = NO_BID = Bid()
BIDS: tuple[Bid, ...] = (*(Bid(level, strain) for level in LEVELS for strain in STRAINS),
                         NO_BID)
BID_BY_VALUE = {bid.text: bid for bid in BIDS}
RULE_BIDS: tuple[Bid, ...] = tuple(sorted(
    {BID_BY_VALUE[value] for rule in RULES for value in rule.bids}))


# Strict: links, forms and the command line -------------------------------------

_STRICT_BY_TEXT = {
    **{str(bid): bid for bid in RULE_BIDS if bid},
    **{f"{bid.level}N": bid for bid in RULE_BIDS if bid.strain == NO_TRUMP},
    **{word.upper(): NO_BID for word in NO_BID_WORDS},
}


def _read_strict(text: str) -> Bid:
    """A bid the rules make, as a link or ``--bid`` gives it: '2NT', '1s', 'None'.

    :raises BidError: if it is anything else, listing the choices.
    """
    # Only ASCII is upper-cased, so a look-alike such as the long s never becomes a suit.
    bid = _STRICT_BY_TEXT.get(" ".join(text.split()).upper()) if text.isascii() else None
    if bid is None:
        choices = ", ".join(map(str, RULE_BIDS))
        raise BidError(f"{echo(text)} is not a bid the rules make: choose one of "
                       f"{choices}", "unknown_bid")
    return bid


# Lenient: students' answers ------------------------------------------------------

def _strain_words() -> dict[str, str]:
    """Every way an answer may name a strain, lower case: letters, symbols, words."""
    words = {"n": NO_TRUMP, "nt": NO_TRUMP}
    words.update({f"no{joint}trump{plural}": NO_TRUMP for joint in ("", " ", "-")
                  for plural in ("", "s")})
    for suit in Suit:
        words.update({suit.letter.lower(): suit.letter, suit.symbol: suit.letter,
                      suit.word: suit.letter, suit.word[:-1]: suit.letter})
    return words


STRAIN_BY_WORD = _strain_words()
_SUIT_SYMBOLS = "".join(suit.symbol for suit in Suit)
_SELECTED_SYMBOL = f"([{_SUIT_SYMBOLS}]){EMOJI_SELECTOR}"  # compiled by re on first use
_LEVEL_THEN_STRAIN = r"([0-9]*) ?(.*)"


@lru_cache(maxsize=1 << 10)
def _read_lenient(text: str) -> Bid:
    """A student's bid, written any common way: '1NT', '2 h', '1♠', '3 hearts', 'Pass'.

    :raises BidError: if it is not a bid, saying why and what is accepted.
    """
    cleaned = _unquoted(re.sub(_SELECTED_SYMBOL, r"\1", text.translate(FULL_WIDTH)))
    for character in cleaned:
        if not (character.isascii() and character.isprintable() or character == "\t"
                or character in _SUIT_SYMBOLS):
            raise BidError(f"{echo(text)} is not a bid: character "
                           f"{describe_character(character)} is not allowed; {ACCEPTED}",
                           "bad_character")
    words = " ".join(cleaned.split())
    if not words:
        raise BidError(f"{echo(text)} is not a bid: it is empty; {ACCEPTED}", "empty")
    if words.lower() in ANSWER_NO_BID_WORDS:
        return NO_BID
    return _level_and_strain(text, *re.fullmatch(_LEVEL_THEN_STRAIN, words).groups())


def _unquoted(text: str) -> str:
    """*text* without surrounding blanks and one pair of matching quotes around it."""
    text = text.strip(BLANKS)
    if len(text) > 1 and text[0] == text[-1] and text[0] in QUOTES:
        text = text[1:-1].strip(BLANKS)
    return text


def _level_and_strain(text: str, level: str, strain_text: str) -> Bid:
    """The bid a level and a strain name, or the error that says which part is wrong."""
    strain = STRAIN_BY_WORD.get(strain_text.lower())
    start = f"{echo(text)} is not a bid:"
    if not level:
        problem = ("put a level from 1 to 7 before the suit or NT, e.g. 1C"
                   if strain else ACCEPTED)
        raise BidError(f"{start} {problem}", "no_level" if strain else "not_a_bid")
    if not strain_text:
        raise BidError(f"{start} add a suit or NT after the level, e.g. {level}C or "
                       f"{level}NT", "no_strain")
    if level not in map(str, LEVELS):
        raise BidError(f"{start} the level is 1 to 7, not {echo(level)}", "bad_level")
    if strain is None:
        raise BidError(f"{start} {echo(strain_text)} is not a suit or NT; suits are C, D, "
                       f"H, S (or ♣ ♦ ♥ ♠, or the words clubs, diamonds, hearts, spades)",
                       "bad_strain")
    return Bid(int(level), strain)
