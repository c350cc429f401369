"""What every template can use: safe display of typed text, and the core's tables."""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Callable, Mapping

from functools import lru_cache

from flask import Flask, current_app, render_template
from markupsafe import Markup, escape

from ..advice import FAILED, FIRED, NOT_REACHED, SHADOWED, Advice, Decision, Status
from ..bids import BIDS, Bid
from ..cards import (DECK, EMOJI_SELECTOR, HAND_SIZE, RANK_BY_TEXT, SEPARATORS,
                     SUITS_HIGH_FIRST, VOID_MARKS, Rank)
from ..facts import LENGTH_POINTS_AFTER
from ..formats.handviewer import board_url, hand_url
from ..rules import RULE_BY_ID

# A bid written in letters inside a sentence: 1C to 7NT, not part of a longer word.
BID_IN_TEXT = re.compile(r"(?<![\w-])[1-7](?:NT|[CDHS])(?!\w)")
KEPT_AS_IS = frozenset("\t\n\r\ufe0f")  # ordinary white space; the emoji suit selector
HIDDEN_CATEGORIES = frozenset(("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"))
STATUS_LABELS = {
    FIRED: "Applies: decides the bid",
    FAILED: "Does not apply",
    SHADOWED: "Also applies, but comes later",
    NOT_REACHED: "Not reached",
}
# What the page's script needs to count the cards typed and draw the deck, from the
# parser's own tables (JSON): the suits and ranks, spades and aces first, every way a rank
# is written, the marks for a void, the separators, the emoji selector, the hand's size.
HAND_NOTATION = json.dumps({
    "suits": [[suit.letter, suit.symbol, suit.word] for suit in SUITS_HIGH_FIRST],
    "ranks": [[rank.label, rank.word] for rank in sorted(Rank, reverse=True)],
    "rank_texts": {text: rank.label for text, rank in RANK_BY_TEXT.items()},
    "voids": VOID_MARKS, "separators": SEPARATORS, "selector": EMOJI_SELECTOR,
    "size": HAND_SIZE,
})


def as_bid(value: Bid | str | None) -> Bid:
    """A bid as a template may hold it (a Bid, or '1S' or None from the core) as a Bid."""
    return value if isinstance(value, Bid) else Bid.from_value(value)


def decision_part(advice: Advice, template: str) -> Markup:
    """The part of an advice's page that only its Decision (what the hand's tally
    decides) shows, rendered once for each Decision."""
    return _decision_part(current_app._get_current_object(), advice.decision, template)


@lru_cache(maxsize=1 << 14)
def _decision_part(app: Flask, decision: Decision, template: str) -> Markup:
    return Markup(render_template(template, advice=decision))


TEMPLATE_GLOBALS = {
    "as_bid": as_bid,
    "decision_part": decision_part,
    "SUITS": SUITS_HIGH_FIRST,
    "HAND_NOTATION": HAND_NOTATION,
    "RULE_BY_ID": RULE_BY_ID,
    "STATUS_LABELS": STATUS_LABELS,
    "Status": Status,
    "LENGTH_POINTS_AFTER": LENGTH_POINTS_AFTER,
    "board_url": board_url,
    "hand_url": hand_url,
}


def visible(text: str | None) -> str:
    """*text* with each control, format, surrogate or unassigned character as U+XXXX.

    A lone surrogate cannot be encoded into a page at all, and a NUL or a zero-width
    space would hide what is wrong with the input; written out, both can be seen.
    """
    if not text or text.isascii() and text.isprintable():
        return text or ""
    return "".join(map(_visible_character, text))


def _visible_character(character: str) -> str:
    if character in KEPT_AS_IS or unicodedata.category(character) not in HIDDEN_CATEGORIES:
        return character
    return f"U+{ord(character):04X}"


def bids_marked(text: str, marks: Mapping[str, Markup]) -> Markup:
    """*text* escaped, with each bid written in it (1C to 7NT) as its mark, *marks*
    holding the mark of each bid's text: safe to put in a page."""
    return Markup(BID_IN_TEXT.sub(lambda bid: marks[bid.group()], str(escape(text))))


def bids_filter(marks: Mapping[str, Markup]) -> Callable[[str], Markup]:
    """The template filter `bids`: a sentence of the core's with its bids as bids."""
    def bids(text: str) -> Markup:
        """*text* escaped, its bids shown as bids."""
        return bids_marked(text, marks)
    return bids


def init_app(app: Flask) -> None:
    """Make `visible` a template filter, and `bids` (a sentence's bids as the bid_mark
    macro shows them), and the core's tables and the card chips (each rendered once, by
    the macros in _macros.html) template globals."""
    app.add_template_filter(visible)
    app.jinja_env.globals.update(TEMPLATE_GLOBALS)
    marks: dict[str, Markup] = {}  # filled below: _macros.html uses the filter itself
    app.add_template_filter(bids_filter(marks), "bids")
    macros = app.jinja_env.get_template("_macros.html").module
    marks.update({str(bid): Markup(macros.bid_mark(bid)) for bid in BIDS if bid})
    app.jinja_env.globals.update(
        CHIPS={card: macros.card_chip(card) for card in DECK},
        SUIT_LABELS={suit: macros.suit_label(suit) for suit in SUITS_HIGH_FIRST})
