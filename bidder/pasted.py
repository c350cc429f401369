"""What people paste, brought back to a hand's text before it is read: the words a screen
reader hears (copied with a hand from the app's own displays), a Python string or list
literal, a trailing full stop; and a whole deal (a PBN deal string or a BBO hand-viewer
link) told apart from one hand.

The cleaning steps are data (a regular expression each, in a syntax Python and the page's
script share): the page's live count applies the very same steps (web.render hands them
over), so the two read a paste alike."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

MAX_HAND_LENGTH = 200  # the characters of a hand's text, once cleaned
MAX_PASTE_LENGTH = 1000  # longer than any hand copied from a page; refused unread beyond
SEATS = "NESW"  # clockwise, as a PBN deal string gives its hands
_BLANK = "[ \\t\\r\\n]"
_SYMBOL = "[\u2660\u2665\u2666\u2663]\ufe0f?"
_RANK_WORDS = "two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace"
_SUIT_WORDS = "spades|hearts|diamonds|clubs"
SPOKEN_CARD = f"\\b(?:{_RANK_WORDS}) of (?:{_SUIT_WORDS})\\b"


# A cleaning step is (when, drop, flags, needs): when *when* matches the whole text (or
# always, if empty), every match of *drop* becomes a space; *flags* is 'i' for a step
# blind to case; a text without *needs* (lower case) is passed over unsearched, as the
# patterns could not match it anyway. Plain tuples: a bid's start-up builds no class.
STEPS = (
    # The words a screen reader hears after each card ('A♠ace of spades'), and the
    # diagram's suit headings and voids ('♠ Spades 4', 'void (no clubs)').
    ("", f"(?<=[\u2660\u2665\u2666\u2663\ufe0f]){_BLANK}*(?:{_RANK_WORDS}) of "
         f"(?:{_SUIT_WORDS})", "i", " of "),
    ("", f"{_SYMBOL}{_BLANK}*(?:{_SUIT_WORDS}){_BLANK}+[0-9]+{_BLANK}", "i", ""),
    ("", f"void \\(no (?:{_SUIT_WORDS})\\)", "i", "void"),
    # A full stop ending a sentence of cards (dot notation is one word and keeps its own).
    (f"{_BLANK}*[^ \\t\\r\\n]+(?:[ \\t\\r\\n,]+[^ \\t\\r\\n]+)+\\.{_BLANK}*",
     f"\\.(?={_BLANK}*$)", "", "."),
    # A Python list of strings, then a Python string: the brackets and quotes go.
    (f"{_BLANK}*\\[{_BLANK}*(?:(['\"])[^'\"]*\\1{_BLANK}*(?:,{_BLANK}*)?)*\\]{_BLANK}*",
     "[\\[\\]'\"]", "", "["),
    (f"{_BLANK}*(['\"])[^'\"]*\\1{_BLANK}*", "['\"]", "", ""),
    # The indents and blank lines of a long copied display, each run one space.
    (f"[\\s\\S]{{{MAX_HAND_LENGTH + 1},}}", f"{_BLANK}{{2,}}", "", ""),
)


@lru_cache(maxsize=None)
def _compiled(when: str, drop: str, flags: str) -> tuple[re.Pattern | None, re.Pattern]:
    """A step's two patterns, compiled once."""
    flag = re.I if "i" in flags else 0
    return (re.compile(when, flag) if when else None), re.compile(drop, flag)


def cleaned(text: str) -> str:
    """*text* with every cleaning step applied in turn."""
    lower = text.lower()
    for when, drop, flags, needs in STEPS:
        if needs not in lower:
            continue
        when, drop = _compiled(when, drop, flags)
        if when is None or when.fullmatch(text):
            text = drop.sub(" ", text)
            lower = text.lower()
    return text


def spelled_out(text: str) -> str | None:
    """The first card written in words ('ace of spades') in *text*, if any."""
    found = re.search(SPOKEN_CARD, text, re.I) if " of " in text.lower() else None
    return found.group() if found else None


# Whole deals --------------------------------------------------------------------------

_DEAL_PART = "(?:(?:[^ \\t\\r\\n\".]*\\.){3}[^ \\t\\r\\n\".]*|-)"
PBN_DEAL = (f"{_BLANK}*(?:\\[Deal{_BLANK}+\")?([NESWnesw]):({_DEAL_PART}"
            f"(?:{_BLANK}+{_DEAL_PART}){{0,3}})\"?\\]?{_BLANK}*")
HANDVIEWER = (f"{_BLANK}*https?://(?:www\\.)?bridgebase\\.com/tools/handviewer\\.html"
              f"\\?([^ \\t\\r\\n]*){_BLANK}*")
_VIEWER_RUN = "([shdc])([^shdc]*)"


@dataclass(frozen=True, slots=True)
class Deal:
    """Hands pasted together: each seat's letter (N, E, S, W) with its hand in dot
    notation, and who deals."""

    dealer: str
    hands: tuple[tuple[str, str], ...]

    @property
    def pbn(self) -> str:
        """The deal as one PBN game, for the boards reader."""
        given = dict(self.hands)
        deal = " ".join(given.get(seat, "-") for seat in SEATS)
        return f'[Dealer "{self.dealer}"]\n[Deal "N:{deal}"]\n'

    @property
    def seats(self) -> str:
        """The seats given, as letters: 'NESW'."""
        return "".join(seat for seat, _ in self.hands)


def pasted_deal(text: str) -> Deal | None:
    """The deal in *text* when it is a PBN deal string or a hand-viewer link, else None."""
    if len(text) > MAX_PASTE_LENGTH or ":" not in text:
        return None
    pbn = re.fullmatch(PBN_DEAL, text)
    if pbn:
        first = SEATS.index(pbn.group(1).upper())
        hands = tuple((SEATS[(first + step) % 4], part)
                      for step, part in enumerate(pbn.group(2).split()) if part != "-")
        return Deal(SEATS[first], hands) if hands else None
    viewer = re.fullmatch(HANDVIEWER, text, re.I)
    return _viewer_deal(viewer.group(1)) if viewer else None


def _viewer_deal(query: str) -> Deal | None:
    """The hands of a hand-viewer link's n, e, s, w; its d names the dealer."""
    from urllib.parse import parse_qs  # only for a link: a bid's start-up need not

    params = {name.lower(): values[-1] for name, values in parse_qs(query).items()}
    hands = tuple((seat, viewer_hand(params[seat.lower()]))
                  for seat in SEATS if params.get(seat.lower()))
    if not hands:
        return None
    dealer = params.get("d", "").upper()
    return Deal(dealer if dealer in SEATS and dealer else hands[0][0], hands)


def viewer_hand(text: str) -> str:
    """A viewer's hand ('skj10haqj8dq65ck94') in dot notation, spades first; any text
    that is not suits with their ranks is kept as it is, for the parser to say why."""
    runs = dict(re.findall(_VIEWER_RUN, text.lower()))
    if "".join(suit + ranks for suit, ranks in runs.items()) != text.lower():
        return text
    return ".".join(runs.get(suit, "") for suit in "shdc").upper()
