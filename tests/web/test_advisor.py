"""The advisor page: the form, the result (bid, hand, points, trace) and bad input."""

import json
from urllib.parse import parse_qs, urlsplit

import pytest
from markupsafe import escape

from bidder import RULE_BY_ID, Bid, explain, openingBid, parse_hand
from bidder.cards import SUITS_HIGH_FIRST
from bidder.web.advisor import EXAMPLES, fragment
from bidder.web.render import STATUS_LABELS

from markup import (bid_text, bids_read, field, page_text, seen_and_heard, tags, text_of,
                    title_of)

# The spec's worked examples: hand -> (bid, rule).
WORKED = [
    ("5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C", "1C", "R3"),
    ("AS 4S KH QH 3H AD QD 7D 6D KC JC 8C 5C", "1C", "R3"),
    ("AS KS 4S AH QH 5H KD QD 6D KC 9C 8C 7C", "1C", "R3"),
    ("AS KS 4S AH QH KD 7D 6D KC QC 9C 8C 7C", "2NT", "R5"),
    ("AC KC 7C 6C 5C KS QS 4S AD 8D 7D 3H 2H", "1NT", "R1"),
    ("AH KH 7H 6H 5H KS QS 4S AD 8D 7D 3C 2C", "1H", "R2"),
    ("AS KS 7S 6S 5S KH QH 7H 6H 5H 2D 3D 2C", "1S", "R2"),
    ("AS KS 5S 4S 3S AH KH 6H 5H 2H AD QD KC", "2H", "R6"),
    ("AS KS QS 2S AH KH 3H 2H AD QD 4D 3D 5C", None, "R9"),
    ("QS JS 7S 6S 5S KH 9H 8H 4H 3H 2D 3C 2C", None, "R9"),
    ("KS QS JS 9S 8S 7S 6S 5S QH 2H 3D 2D 4C", "4S", "R8"),
    ("KS QS JS 8S 7S 6S 5S 4S 3S 2H 2D 2C 3C", None, "R9"),
]
NO_BID = "AS KS QS 2S AH KH 3H 2H AD QD 4D 3D 5C"
SHADOWED = "AS 4S KH QH 3H AD QD 7D 6D KC JC 8C 5C"


def get(client, hand):
    response = client.get("/", query_string={"hand": hand})
    return response, response.get_data(as_text=True)


def test_the_blank_page_is_a_labelled_form(client):
    response = client.get("/")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert tags(html, "label")[0]["for"] == "hand"
    hand = field(html)
    assert hand["id"] == "hand" and hand["value"] == ""
    assert "aria-invalid" not in hand and hand["aria-describedby"] == "hand-hint"
    form = tags(html, "form")[0]
    assert (form["method"], form["action"]) == ("get", "/#result")  # opens at the bid
    assert 'id="result"' not in html
    assert title_of(html) == "Opening bid advisor · bidder"


@pytest.mark.parametrize("hand, bid, rule", WORKED, ids=[f"{bid}-{rule}-{hand[:8]}"
                                                         for hand, bid, rule in WORKED])
def test_the_bid_is_shown_exactly_as_opening_bid_returns_it(client, hand, bid, rule):
    response, html = get(client, hand)
    assert response.status_code == 200
    assert openingBid(hand) == bid
    shown = Bid.from_value(bid)
    spoken = f"{shown.level} {shown.suit_word}" if shown.suit is not None else shown.display
    assert seen_and_heard(html, "bid") == (shown.display, spoken)
    if shown.suit is not None:
        assert f'class="bid-mark suit-{shown.suit.letter.lower()}"' in html
    assert text_of(html, "rule") == f"by {rule}, {RULE_BY_ID[rule].name}"
    assert str(escape(RULE_BY_ID[rule].sentence)) in html
    assert bids_read(explain(hand).explanation_alone) in page_text(html)
    assert field(html)["value"] == hand


def test_no_bid_says_the_graded_function_returns_none(client):
    _, html = get(client, NO_BID)
    assert "No bid: " in html
    assert "The graded function openingBid returns None for this hand." in page_text(html)
    advice = explain(NO_BID)
    for miss in advice.near_misses:
        assert miss[1:] in page_text(html)
    assert text_of(html, "near-heading") == "Closest rules"
    # said once, in their panel, not again in the explanation above it
    assert advice.near_misses and " Closest: " in advice.explanation
    assert page_text(html).count(bids_read(advice.near_misses[0][1:])) == 1
    assert bids_read(advice.explanation_alone) in page_text(html)


def test_a_hand_that_opens_has_no_near_misses_section(client):
    _, html = get(client, SHADOWED)
    assert 'id="near-heading"' not in html
    assert "returns None" not in page_text(html)


def test_the_post_form_gives_the_same_page_as_the_shareable_link(client):
    posted = client.post("/", data={"hand": SHADOWED}).get_data(as_text=True)
    _, linked = get(client, SHADOWED)
    assert posted == linked


def test_the_hand_diagram_goes_by_suit_spades_first_with_spoken_names(client):
    hand = parse_hand(SHADOWED)
    _, html = get(client, SHADOWED)
    diagram = html[html.index('<dl class="hand">'):]
    diagram = diagram[:diagram.index("</dl>")]
    positions = [diagram.index(f'<span class="suit-word">{suit.word.capitalize()}')
                 for suit in SUITS_HIGH_FIRST]
    assert positions == sorted(positions)
    for card in hand:
        assert f'<span class="visually-hidden">{card.spoken}</span>' in diagram
    assert diagram.count('aria-hidden="true"') == len(hand) + len(SUITS_HIGH_FIRST)


def test_a_void_is_named(client):
    _, html = get(client, "AS KS QS JS 10S 9S 8S AH KH QH JH 10H 9H")
    assert "void (no diamonds)" in html and "void (no clubs)" in html


def test_the_scorecard_shows_the_arithmetic(client):
    hand = "KS QS JS 9S 8S 7S 6S 5S QH 2H 3D 2D 4C"
    facts = explain(hand).facts
    _, html = get(client, hand)
    text = page_text(html)
    assert ("Spades 8 K♠king of spades 3 + Q♠queen of spades 2 + J♠jack of spades 1 = 6 4"
            in text)
    assert "Total 13 8 HCP 4" in text
    assert f"{facts.tally.hcp} HCP + {facts.tally.distribution} distribution = {facts.tally.points}" in text
    assert f"Shape {facts.tally.shape} (spades-hearts-diamonds-clubs)" in text
    assert "Balanced? No. Not balanced: spades has 8 cards" in text
    assert "one for each card a suit has beyond 4" in text
    rows = html[html.index("<tbody>"):html.index("</tbody>")].split("<tr>")[1:]
    for suit, row in zip(SUITS_HIGH_FIRST, rows):
        cells = [cell.split("</td>")[0].strip() for cell in row.split('<td class="num">')[1:]]
        assert cells == [str(facts.tally.length(suit)),
                         str(facts.tally.length_points(suit))]


def test_a_suit_without_honours_scores_zero(client):
    _, html = get(client, "KS QS JS 9S 8S 7S 6S 5S QH 2H 3D 2D 4C")
    assert "♦ Diamonds 2 0 0 ♣ Clubs 1 0 0" in page_text(html)


def test_a_balanced_hand_says_why(client):
    _, html = get(client, SHADOWED)
    assert "Balanced? Yes. Balanced: every suit has 2 to 4 cards." in page_text(html)


def test_the_trace_lists_every_rule_with_its_status_and_numbers(client):
    advice = explain(SHADOWED)
    _, html = get(client, SHADOWED)
    for step in advice.trace:
        item = text_of(html, f"step-{step.rule}")
        assert item.startswith(f"{step.rule} {RULE_BY_ID[step.rule].name} "
                               f"{STATUS_LABELS[step.status]}")
        for reason in step.reasons:
            assert reason in item
    assert text_of(html, "step-R1").endswith("needs 16-18 HCP, has 19")
    assert text_of(html, "step-R4").endswith(f"It would bid {bid_text('1D')}.")
    assert 'class="step step-fired" id="step-R3"' in html
    assert 'class="step step-shadowed" id="step-R4"' in html
    assert 'class="step step-not-reached" id="step-R9"' in html


def test_notes_name_the_shadowed_rule(client):
    _, html = get(client, SHADOWED)
    assert bids_read("R4 also applies and would bid 1D; the assignment says the first rule "
                     "that applies wins.") in text_of(html, "result")


def test_r3_under_1nt_is_a_plain_step_without_a_note(client):
    _, html = get(client, "AKQ2.K32.A32.432")
    assert 'class="step step-also" id="step-R3"' in html
    assert text_of(html, "step-R3").endswith(f"It would bid {bid_text('1C')}.")
    assert "step-shadowed" not in html and 'id="notes-heading"' not in html


def test_the_page_title_names_the_bid(client):
    _, html = get(client, SHADOWED)
    assert title_of(html) == "1♣ by R3 · Opening bid advisor · bidder"
    _, html = get(client, NO_BID)
    assert title_of(html) == "No bid by R9 · Opening bid advisor · bidder"


@pytest.mark.parametrize("label, hand", EXAMPLES, ids=[label for label, _ in EXAMPLES])
def test_each_example_is_a_link_to_its_result(client, label, hand):
    html = client.get("/").get_data(as_text=True)
    links = [link["href"] for link in tags(html, "a") if link["href"].startswith("/?")]
    href = next(link for link in links if parse_qs(urlsplit(link).query)["hand"] == [hand])
    response = client.get(href)
    assert response.status_code == 200
    assert text_of(response.get_data(as_text=True), "bid") == (
        bid_text(openingBid(hand)))


def test_other_notations_give_the_same_bid(client):
    for text in ("as 4s kh qh 3h ad qd 7d 6d kc jc 8c 5c",
                 "A♠ 4♠ K♥ Q♥ 3♥ A♦ Q♦ 7♦ 6♦ K♣ J♣ 8♣ 5♣",
                 "A4.KQ3.AQ76.KJ85", "  AS,4S,KH,QH,3H,AD,QD,7D,6D,KC,JC,8C,5C\n"):
        response, html = get(client, text)
        assert response.status_code == 200
        assert text_of(html, "bid") == bid_text("1C")


# Bad input: 400, the message tied to the field, the text kept.

@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.parametrize("text, message", [
    ("AS KS", "a hand has 13 cards; this one has 2 (missing 11)"),
    ("AS AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S", "'AS' appears twice"),
    ("5C 7H AS JD 9D 2C KH 1H 4C 8H 8C AD 10C", "card 8 '1H' is not a card"),
    ("", "no cards entered"),
])
def test_bad_input_re_renders_the_form_with_the_message_and_the_text(client, method, text,
                                                                     message):
    if method == "get":
        response = client.get("/", query_string={"hand": text})
    else:
        response = client.post("/", data={"hand": text})
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    hand = field(html)
    assert hand["value"] == text
    assert hand["aria-invalid"] == "true"
    assert hand["aria-describedby"] == "hand-hint hand-error"
    assert "autofocus" in hand
    assert text_of(html, "hand-error").startswith(f"Not a hand yet: {message}")
    assert "<title>Error: not a hand yet" in html
    assert 'id="result"' not in html


def test_a_post_without_the_field_asks_for_cards(client):
    response = client.post("/", data={})
    assert response.status_code == 400
    assert "no cards entered" in text_of(response.get_data(as_text=True), "hand-error")


@pytest.mark.parametrize("text, absent, present", [
    ("<script>alert(1)</script>", "<script>alert", "&lt;script&gt;alert(1)&lt;/script&gt;"),
    ('"><img src=x onerror=alert(1)>', "<img src=x", "&#34;&gt;&lt;img src=x"),
    ("{{7*7}} AS", ">49<", "{{7*7}} AS"),
    ("javascript:alert(1)", 'href="javascript', "javascript:alert(1)"),
])
def test_typed_markup_is_shown_escaped(client, text, absent, present):
    response, html = get(client, text)
    assert response.status_code == 400
    assert absent not in html
    assert present in html


@pytest.mark.parametrize("query, shown", [
    ("hand=AS%00KS", "ASU+0000KS"),
    ("hand=AS%1B%5B31mKS", "ASU+001B[31mKS"),
    ("hand=AS%E2%80%8BKS", "ASU+200BKS"),
    ("hand=AS%ED%B2%80", "AS"),
    ("hand=%FF%FE", ""),
])
def test_control_and_broken_characters_never_fail_and_are_shown_escaped(client, query,
                                                                         shown):
    response = client.get("/?" + query)
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert field(html)["value"].startswith(shown)
    assert "\x00" not in html and "\x1b" not in html and "\u200b" not in html
    assert "is not allowed" in text_of(html, "hand-error")


def test_the_parts_that_never_change_are_rendered_once(client):
    first = client.get("/").get_data(as_text=True)
    assert fragment("_examples.html") is fragment("_examples.html")
    assert str(fragment("_examples.html")) in first
    picker = tags(first, "details")[0]
    assert picker["id"] == "picker" and "hidden" in picker and "open" in picker
    form = tags(first, "form")[0]
    assert json.loads(form["data-notation"])["suits"][0] == ["S", "♠", "spades"]


def test_the_picker_is_folded_away_under_a_result(client):
    _, html = get(client, SHADOWED)
    assert "open" not in tags(html, "details")[0]


def test_the_first_of_repeated_fields_is_read(client):
    response = client.get("/?hand=" + SHADOWED + "&hand=nonsense")
    assert response.status_code == 200
