"""Typed text shown safely, and the core's tables handed to every template."""

import json
import re
from html import unescape

import pytest
from flask import render_template
from hypothesis import given
from hypothesis import strategies as st
from markupsafe import escape

from bidder import RULE_BY_ID, parse_hand
from bidder.advice import FAILED, FIRED, NOT_REACHED, SHADOWED
from bidder.cards import DECK, SUITS_HIGH_FIRST
from bidder.web import create_app
from bidder.web.render import (HAND_NOTATION, STATUS_LABELS, TEMPLATE_GLOBALS, ascii_html,
                                visible)

from test_properties import hands


@pytest.mark.parametrize("text, shown", [
    ("", ""),
    (None, ""),
    ("5C 7H AS", "5C 7H AS"),
    ("a\tb\nc\rd", "a\tb\nc\rd"),
    ("A♥\ufe0f K♠", "A♥\ufe0f K♠"),
    ("é ñ ſ Ｋ", "é ñ ſ Ｋ"),
    ("AS\x00KS", "ASU+0000KS"),
    ("\x08\x7f\x85", "U+0008U+007FU+0085"),
    ("\x1b[31mAS", "U+001B[31mAS"),
    ("AS\u200bKS", "ASU+200BKS"),
    ("\ufeffAS", "U+FEFFAS"),
    ("AS\u00adKS", "ASU+00ADKS"),
    ("AS\u2028KS\u2029", "ASU+2028KSU+2029"),
    ("AS \udc80", "AS U+DC80"),
    ("\ud83d", "U+D83D"),
    ("\ue000", "U+E000"),
    ("\U0010ffff", "U+10FFFF"),
], ids=["empty", "none", "plain", "white-space", "emoji-suit", "letters", "nul",
        "controls", "ansi", "zero-width-space", "bom", "soft-hyphen", "line-separators",
        "lone-low-surrogate", "lone-high-surrogate", "private-use", "unassigned"])
def test_visible_writes_hidden_characters_as_code_points(text, shown):
    assert visible(text) == shown
    visible(text).encode("utf-8")


def test_templates_get_the_core_tables(app):
    assert app.jinja_env.filters["visible"] is visible
    for name, value in TEMPLATE_GLOBALS.items():
        assert app.jinja_env.globals[name] is value
    assert TEMPLATE_GLOBALS["SUITS"] == SUITS_HIGH_FIRST
    assert TEMPLATE_GLOBALS["RULE_BY_ID"] is RULE_BY_ID
    assert set(STATUS_LABELS) == {FIRED, FAILED, SHADOWED, NOT_REACHED}


def test_the_script_gets_the_notation_from_the_core():
    cards = json.loads(HAND_NOTATION)
    assert cards["suits"] == [[suit.letter, suit.symbol, suit.word]
                              for suit in SUITS_HIGH_FIRST]
    assert [label for label, _ in cards["ranks"]] == [
        "A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
    spoken = {f"{rank} of {suit}" for _, rank in cards["ranks"] for _, _, suit in cards["suits"]}
    assert spoken == {card.spoken for card in DECK}
    assert cards["rank_texts"] == {**{label: label for label, _ in cards["ranks"]}, "T": "10"}
    assert (cards["voids"], cards["separators"], cards["size"]) == ("-–—", " \t\r\n,", 13)
    assert cards["selector"] == "\ufe0f"


def test_card_chips_and_suit_labels_are_rendered_once_per_card_and_suit(app):
    chips, labels = app.jinja_env.globals["CHIPS"], app.jinja_env.globals["SUIT_LABELS"]
    assert set(chips) == set(DECK) and list(labels) == list(SUITS_HIGH_FIRST)
    for card, chip in chips.items():
        assert chip.startswith(f'<span class="card suit-{card.suit.letter.lower()}">')
        assert f">{card.rank.label}<" in chip and card.suit.symbol in unescape(chip)
        assert f'<span class="visually-hidden">{card.spoken}</span>' in chip
    for suit, label in labels.items():
        assert f'<span class="pip" aria-hidden="true">{suit.symbol}</span>' in unescape(label)
        assert f'<span class="suit-word">{suit.word.capitalize()}</span>' in label


@pytest.mark.parametrize("text", ["AS \udc80", "\x00", "\ud800\udfff?"])
def test_a_page_with_a_lone_surrogate_still_encodes(app, text):
    with app.test_request_context("/"):
        html = render_template("index.html", text=text, examples=())
    html.encode("utf-8")
    assert "U+D" in html or "U+0000" in html


@pytest.fixture(scope="module")
def module_app(tmp_path_factory):
    """An app of this module's own (Hypothesis reruns a test many times; a fixture made
    for each test would be shared between those runs)."""
    ledger = tmp_path_factory.mktemp("ledger") / "spent.sqlite3"
    return create_app({"TESTING": True, "STATE_URL": f"sqlite:///{ledger}"})


@pytest.fixture(scope="module")
def macros(module_app):
    """The macros of _macros.html."""
    with module_app.app_context():
        yield module_app.jinja_env.get_template("_macros.html").module


@pytest.fixture(scope="module")
def bids(module_app):
    """The template filter that shows the bids in a sentence as bids."""
    return module_app.jinja_env.filters["bids"]


@pytest.mark.parametrize("text, shown", [
    ("would bid 1D;", ["1D"]),
    ("Open 2NT: 21 HCP", ["2NT"]),
    ("(R3 bids 1C, R4 1D).", ["1C", "1D"]),
    ("6-6 also bids 1S.", ["1S"]),
    ("7NT 7S 1H", ["7NT", "7S", "1H"]),
    ("R3, 4-4, '6-108', 11C, 1Clubs, 8C5, 1N, 8S-card, 1 of a minor, 2 of a suit, 5-3-3-2",
     []),
])
def test_the_bids_in_a_sentence_are_shown_as_bids(macros, bids, text, shown):
    html = str(bids(text))
    assert html.count('class="bid-mark') == len(shown)
    for bid in shown:
        html = html.replace(ascii_html(macros.bid_mark(bid)), bid, 1)
    assert html == str(escape(text))


def test_a_sentence_with_markup_in_it_stays_text(bids):
    html = str(bids("<script>alert('1S')</script> & 2NT"))
    assert "<script>" not in html and "&lt;script&gt;alert(&#39;" in html
    assert '<span class="bid-mark suit-s">1' in html and "&amp; " in html


@given(st.text(st.characters(codec="utf-8")))
def test_the_bids_filter_lets_no_tag_through_but_its_marks(bids, text):
    html = re.sub(r'<span class="bid-mark( suit-[cdhs])?">|<span aria-hidden="true">|'
                  r'<span class="visually-hidden">|</span>', "", str(bids(text)))
    assert "<" not in html and ">" not in html


def copied(html: str) -> str:
    """What copying rendered markup gives: its text, the tags gone."""
    return unescape(re.sub(r"<[^>]+>", "", html))


@given(hands)
def test_a_hand_line_copied_from_a_page_reads_back_as_the_same_hand(macros, hand):
    text = copied(str(macros.hand_line(hand)))
    assert text.startswith("♠ ")
    assert parse_hand(text) == hand


def test_a_hand_line_names_each_suit_and_a_void_for_screen_readers(macros):
    html = str(macros.hand_line(parse_hand("♠ A K Q J 10 9 8 ♥ - ♦ A K Q ♣ A K Q")))
    for suit in SUITS_HIGH_FIRST:
        assert f'role="img" aria-label="{suit.word}">{suit.symbol}</span>' in html
    assert '<span role="img" aria-label="void">–</span>' in html
    assert copied(html) == "♠ A K Q J 10 9 8 ♥ – ♦ A K Q ♣ A K Q"


@pytest.mark.parametrize("html, expected", [
    ("<b>1♠</b>", "<b>1&#9824;</b>"),
    ('<a title="♥ A">· K</a>', '<a title="&#9829; A">&#183; K</a>'),
    ("&amp; <i>plain</i>", "&amp; <i>plain</i>"),
    ("", ""),
])
def test_ascii_html_writes_what_is_beyond_ascii_as_references(html, expected):
    assert ascii_html(html) == expected


# Characters a page's parts may hold: any but controls (C1 references read as
# windows-1252 in HTML), surrogates (no page can hold one) and noncharacters (U+FFFE,
# U+FDD0...: a reference to one is a parse error that html.unescape reads as nothing).
NONCHARACTERS = [chr(code) for code in range(0xFDD0, 0xFDF0)] + [
    chr(plane * 0x10000 + low) for plane in range(17) for low in (0xFFFE, 0xFFFF)]
PAGE_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=["Cc", "Cs"],
                                  exclude_characters=NONCHARACTERS))


@given(PAGE_TEXT)
def test_ascii_html_reads_back_as_the_same_text(text):
    html = ascii_html(escape(text))
    assert html.isascii() and unescape(html) == text


@given(hands)
def test_a_hand_typed_in_ascii_gets_a_page_all_in_ascii(module_app, hand):
    response = module_app.test_client().get("/", query_string={"hand": str(hand)})
    assert response.status_code == 200 and response.data.isascii()
    assert b'<dl class="hand">' in response.data
