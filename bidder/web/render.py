"""What every template can use: safe display of typed text, and the core's tables."""

from __future__ import annotations

import json
import re
import unicodedata
from functools import lru_cache
from typing import Callable, Mapping

from flask import Flask, current_app, render_template, request
from flask.templating import Environment
from markupsafe import Markup, escape

from .. import packed, pasted
from ..advice import FAILED, FIRED, NOT_REACHED, SHADOWED, Advice, Status
from ..bids import BIDS, Bid
from ..boards import board_url, hand_url
from ..cards import (DECK, EMOJI_SELECTOR, HAND_SIZE, RANK_BY_TEXT, SEPARATORS,
                     SUITS_HIGH_FIRST, VOID_MARKS, Hand, Rank, Suit)
from ..facts import LENGTH_POINTS_AFTER, STANDARD, Counting, Facts, card_hcp
from ..rules import RULE_BY_ID
from .bounded import memo_within

# A bid written in letters inside a sentence: 1C to 7NT, not part of a longer word.
BID_IN_TEXT = re.compile(r"(?<![\w-])[1-7](?:NT|[CDHS])(?!\w)")
# Parts rendered once, kept per worker by bytes: one suit of a hand drawn (about 1 KB
# counted; the suits of the usual lengths, drawn two ways, are some 20,000), and the
# parts one decision or tally decides (about 2 KB each). A class's 1,000 hands in turn
# take 5.3 MB and 4.2 MB of them: smaller budgets drop every part before it is asked
# for again, and the advisor's page then renders whole each time.
SUIT_PARTS_BUDGET = 8 * 1024 * 1024
PARTS_BUDGET = 8 * 1024 * 1024
KEPT_AS_IS = frozenset("\t\n\r\ufe0f")  # ordinary white space; the emoji suit selector
HIDDEN_CATEGORIES = frozenset(("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"))
SITE_PAGES = (("/", "Advisor"), ("/rules", "Rules"), ("/deal", "Deal"),
              ("/practice", "Practice"), ("/stats", "Statistics"), ("/variants", "Variants"),
              ("/boards", "Boards"), ("/live", "Live poll"))
SITE_PATHS = frozenset(path for path, _ in SITE_PAGES)
STATUS_LABELS = {
    FIRED: "Applies: decides the bid",
    FAILED: "Does not apply",
    SHADOWED: "Also applies, but comes later",
    NOT_REACHED: "Not reached",
}
# What the page's script needs to count the cards typed and draw the deck, from the
# parser's own tables (JSON): the suits and ranks, spades and aces first, every way a rank
# is written, the marks for a void, the separators, the emoji selector, the hand's size,
# and how a paste is cleaned and a whole deal known (bidder.pasted's own patterns).
HAND_NOTATION = json.dumps({
    "suits": [[suit.letter, suit.symbol, suit.word] for suit in SUITS_HIGH_FIRST],
    "ranks": [[rank.label, rank.word] for rank in sorted(Rank, reverse=True)],
    "rank_texts": {text: rank.label for text, rank in RANK_BY_TEXT.items()},
    "voids": VOID_MARKS, "separators": SEPARATORS, "selector": EMOJI_SELECTOR,
    "size": HAND_SIZE, "paste_limit": pasted.MAX_PASTE_LENGTH,
    "steps": [[when, drop, flags] for when, drop, flags, _ in pasted.STEPS],
    "deal": pasted.PBN_DEAL, "viewer": pasted.HANDVIEWER,
})


class SharedGlobals(Environment):
    """Flask's template environment, its templates reading the environment's globals
    themselves rather than through a ChainMap over them (Jinja's default): every render
    and include copies them, and copying a ChainMap of thirty names costs 15 µs, a dict
    half a microsecond. No template here has globals of its own."""

    def make_globals(self, d):
        return self.globals if d is None else super().make_globals(d)


def as_bid(value: Bid | str | None) -> Bid:
    """A bid as a template may hold it (a Bid, or '1S' or None from the core) as a Bid."""
    return value if isinstance(value, Bid) else Bid.from_value(value)


def part(template: str, **values) -> Markup:
    """A part of a page that *values* alone decide (a Decision, a tally, one suit's
    cards), rendered once for each: the template must read nothing else of the request."""
    return _part(current_app._get_current_object(), template, tuple(values.items()))


def site_nav() -> Markup:
    """The site's navigation with the page shown marked, rendered once for each page."""
    path = request.path
    return part("_nav.html", current=path if path in SITE_PATHS else None)


def suit_by_suit(template: str, code: int, counting: Counting = STANDARD) -> Markup:
    """*template* drawn for each suit of the hand *code* (see packed), spades first,
    given the `suit`, its `cards` (high to low), their `hcp` and its `distribution`
    points by *counting*: each drawn once for each holding."""
    app = current_app._get_current_object()
    return Markup("".join([_suit_part(app, template, suit, bits, counting)
                           for suit, bits in packed.suit_fields(code)]))


def hand_diagram(hand: Hand | Advice) -> Markup:
    """The hand (a Hand, or an Advice's) as a diagram by suit, spades first
    (_hand.html)."""
    return framed("_hand.html", suits=suit_by_suit("_hand_suit.html", code_of(hand)))


def scorecard(facts: Facts | Advice) -> Markup:
    """The arithmetic of a hand's Facts (or of an Advice's hand): the suits' rows and
    the totals (_scorecard.html)."""
    return framed("_scorecard.html",
                  suits=suit_by_suit("_scorecard_suit.html", code_of(facts), facts.counting),
                  totals=part("_scorecard_totals.html", tally=facts.tally))


def code_of(cards: Hand | Facts | Advice) -> int:
    """The packed code of a hand however it is held: an Advice keeps it."""
    if isinstance(cards, Advice):
        return cards.code
    return packed.encode_cards(cards.hand if isinstance(cards, Facts) else cards)


def framed(template: str, **holes: Markup) -> Markup:
    """*template*, which reads nothing but *holes*, with the parts given in them: its
    frame is rendered once, with a marker in each hole, and cut at the markers."""
    pieces = _frame(current_app._get_current_object(), template, tuple(holes))
    return Markup("".join([holes[piece] if place % 2 else piece
                           for place, piece in enumerate(pieces)]))


@lru_cache(maxsize=64)
def _frame(app: Flask, template: str, names: tuple[str, ...]) -> tuple[str, ...]:
    """The text of *template* cut at its holes: text, a hole's name, text, ..."""
    return tuple(ascii_html(render_template(template, **{
        name: Markup(f"{_MARK}{name}{_MARK}") for name in names})).split(_MARK))


_MARK = "\0"  # around a hole's name in a frame: no template holds one


@memo_within(SUIT_PARTS_BUDGET)
def _suit_part(app: Flask, template: str, suit: int, bits: int, counting: Counting) -> Markup:
    cards = packed.suit_cards(suit, bits)
    return ascii_html(render_template(template, suit=Suit(suit), cards=cards,
                                      distribution=counting.points(len(cards)),
                                      hcp=sum(map(card_hcp, cards))))


@memo_within(PARTS_BUDGET)
def _part(app: Flask, template: str, values: tuple[tuple[str, object], ...]) -> Markup:
    return ascii_html(render_template(template, **dict(values)))


def ascii_html(html: str) -> Markup:
    """*html* (markup, not text) with every character beyond ASCII written as a
    character reference: the same to a browser, in text and in attributes alike, for
    any character but the C1 controls U+0080-U+009F (which a browser reads as
    windows-1252; no part holds one, and `visible` writes typed ones as U+XXXX).

    The parts rendered once are kept this way, and the advisor's templates write their
    own few symbols so, so that the advisor's page, the rules and the API's answers hold
    no character beyond ASCII unless the visitor typed one: encoding such a page is a
    copy, where 40 suit symbols in 16 KB made it 7 µs. (The teaching pages still write
    some symbols as they are.)
    """
    return Markup(html.encode("ascii", "xmlcharrefreplace").decode("ascii"))


def ascii_text(text: str) -> Markup:
    """The template filter `ascii`: *text* escaped, then as ascii_html() writes it."""
    return ascii_html(escape(text))


TEMPLATE_GLOBALS = {
    "as_bid": as_bid,
    "part": part,
    "hand_diagram": hand_diagram,
    "scorecard": scorecard,
    "site_nav": site_nav,
    "SITE_PAGES": SITE_PAGES,
    "HONOUR_POINTS": {card: points for card in DECK if (points := card_hcp(card))},
    "SUITS": SUITS_HIGH_FIRST,
    "HAND_NOTATION": escape(HAND_NOTATION),  # escaped once, for an attribute
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
    app.add_template_filter(ascii_text, "ascii")
    app.jinja_env.globals.update(TEMPLATE_GLOBALS)
    marks: dict[str, Markup] = {}  # filled below: _macros.html uses the filter itself
    app.add_template_filter(bids_filter(marks), "bids")
    macros = app.jinja_env.get_template("_macros.html").module
    marks.update({str(bid): ascii_html(macros.bid_mark(bid)) for bid in BIDS if bid})
    app.jinja_env.globals.update(
        CHIPS={card: ascii_html(macros.card_chip(card)) for card in DECK},
        SUIT_LABELS={suit: ascii_html(macros.suit_label(suit)) for suit in SUITS_HIGH_FIRST})
