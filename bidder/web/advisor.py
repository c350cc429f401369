"""The advisor page `/` (a hand in, the bid and its explanation out) and `/rules`."""

from __future__ import annotations

from functools import lru_cache

from flask import Blueprint, Flask, current_app, render_template, request
from markupsafe import Markup

from .. import RULES, Advice, InvalidHandError, explain, parse_hand
from ..advice import is_reachable
from ..boards import openings, read_boards
from ..dealing import deal
from ..cards import HAND_SIZE
from ..pasted import Deal, pasted_deal
from ..facts import BALANCED_LENGTHS, BALANCED_WITH_MINOR, HCP_BY_RANK
from ..rules import MAJORS, MINORS
from .render import ascii_html

blueprint = Blueprint("advisor", __name__)

EXAMPLE_SEED = 1
HIDE_WORDS = ("1", "on", "yes", "true")  # ?hide=1: the hand alone, its answer one click on
EXAMPLES = (
    ("The assignment's own hand", "5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C"),
    ("A rule that also applies", "AS 4S KH QH 3H AD QD 7D 6D KC JC 8C 5C"),
    ("Balanced with a five-card minor", "AC KC 7C 6C 5C KS QS 4S AD 8D 7D 3H 2H"),
    ("Two long majors", "AS KS 7S 6S 5S KH QH 7H 6H 5H 2D 3D 2C"),
    ("A strong two-suiter", "AS KS 5S 4S 3S AH KH 6H 5H 2H AD QD KC"),
    ("Strong, yet no bid", "AS KS QS 2S AH KH 3H 2H AD QD 4D 3D 5C"),
    ("An eight-card suit", "KS QS JS 9S 8S 7S 6S 5S QH 2H 3D 2D 4C"),
)


@blueprint.route("/", methods=["GET", "POST"])
def index():
    """The form; with a hand (query string or form field), its advice or what is wrong."""
    text = request.form.get("hand", "") if request.method == "POST" else (
        request.arg("hand"))
    if text is None:
        return page(text="")
    deal = whole_deal(text)
    if deal is not None:
        return deal_page(text, deal.pbn)
    try:
        advice = explain(text)
    except InvalidHandError as error:
        return page(text=text, error=error), 400
    hidden = request.args.get("hide", "").strip().lower() in HIDE_WORDS
    return page(text=text, advice=advice, hidden=hidden)


def whole_deal(text: str) -> Deal | None:
    """The deal in *text* when it gives several hands (the page shows every seat's
    opening), else None: the text is one hand, or not a hand."""
    deal = pasted_deal(text)
    return deal if deal is not None and len(deal.hands) > 1 else None


def count_verdict(text: str) -> dict:
    """What this page says of *text*, in the words it would use, for the live count under
    the hand field: 13 of 13 cards, a whole deal to show seat by seat, or the problem
    (the parser's message, or the deal's first). `complete` when it would be shown."""
    deal = whole_deal(text)
    if deal is not None:
        problems = read_boards(deal.pbn).problems
        if problems:
            return {"text": problems[0].message, "complete": False, "deal": True}
        return {"text": f"a whole deal of {len(deal.hands)} hands ({', '.join(deal.seats)}): "
                        f"send it to see every seat's opening", "complete": True, "deal": True}
    try:
        parse_hand(text)
    except InvalidHandError as error:
        return {"text": error.message, "complete": False, "deal": False}
    return {"text": f"{HAND_SIZE} of {HAND_SIZE} cards", "complete": True, "deal": False}


def deal_page(text: str, pbn: str):
    """A whole deal pasted: every seat's opening, as the boards page shows a board; a
    deal that cannot be read says why."""
    reading = read_boards(pbn)
    if reading.problems:
        return page(text=text, error=reading.problems[0]), 400
    return page(text=text, tables=[openings(board) for board in reading.boards])


def page(**context) -> str:
    """The advisor page; the parts that never change are rendered once."""
    return render_template("index.html", examples=fragment("_examples.html"), **context)


@lru_cache(maxsize=None)
def fragment(template: str) -> Markup:
    """A part of the page that is the same for every request, rendered once."""
    return ascii_html(render_template(template, example_hands=EXAMPLES))


@blueprint.get("/rules")
def rules():
    """The decision list R1..R9, with a dealt example for each rule that decides bids."""
    return rules_page(current_app._get_current_object())


@lru_cache(maxsize=4)
def rules_page(app: Flask) -> str:
    """The rules page of *app*: the same for every request, rendered once."""
    return ascii_html(render_template(
        "rules.html", rules=RULES, examples=rule_examples(), hcp_by_rank=HCP_BY_RANK,
        balanced_lengths=BALANCED_LENGTHS, balanced_with_minor=BALANCED_WITH_MINOR,
        minors=MINORS, majors=MAJORS))


@lru_cache(maxsize=1)
def rule_examples() -> dict[str, Advice]:
    """A seeded example hand for each reachable rule, so the page is the same every time."""
    return {rule.id: explain(deal(EXAMPLE_SEED, rule=rule))
            for rule in RULES if is_reachable(rule)}
