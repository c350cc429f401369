"""The teaching pages through the test client: /deal, printable sets, /stats, and the
helpers that read their parameters."""

import html
import re
from collections import Counter
from urllib.parse import parse_qs, unquote_plus, urlsplit

import pytest

from bidder import RULES, Suit, explain, openingBid, parse_hand
from bidder.advice import is_reachable
from bidder.bids import NO_BID, RULE_BIDS, Bid, BidError
from bidder.dealing import MAX_COUNT, DealError, deal, deal_set
from bidder.teaching import teaching_mix
from bidder.web.teach.params import seal
from bidder.web.teach import PRINT_COUNT, DealChoice, read_deal_choice
from bidder.web.teach.params import (MAX_SEED, ParamError, error_field, fresh_seed,
                                     next_seed, optional_number, plain, read_bid,
                                     read_choice, read_flag, read_rule, whole_number)

from markup import bids_read, page_text, title_of

REACHABLE_RULES = [rule.id for rule in RULES if is_reachable(rule)]
ADVISOR_LINK = re.compile(r'href="/\?hand=([^"]+)"')


def text_of(response) -> str:
    """The page as a person reads it: tags gone, entities decoded, spaces collapsed."""
    page = re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))
    return " ".join(html.unescape(page).split())


def dealt_hand(response) -> str:
    """The hand a /deal page shows, read from its link to the advisor."""
    return unquote_plus(html.unescape(ADVISOR_LINK.search(response.get_data(as_text=True))
                                      .group(1)))


def spoken_bid(bid) -> str:
    """A bid as text_of reads it from the page: '1 ♣ club', '2 ♥ hearts', '1NT'."""
    if bid is None or bid.endswith("NT"):
        return bid or "No bid"
    suit = Suit("CDHS".index(bid[-1]))
    word = suit.word[:-1] if bid[0] == "1" else suit.word
    return f"{bid[:-1]} {suit.symbol} {word}"


def query_of(url: str) -> dict:
    return {name: values[0] for name, values in parse_qs(urlsplit(url).query).items()}


# /deal: one hand to order ----------------------------------------------------------

@pytest.mark.parametrize("query", ["", "bid=2NT", "rule=R8&bid=4S", "bid=None"])
def test_deal_without_a_seed_redirects_to_a_link_with_one(client, query):
    response = client.get(f"/deal?{query}")
    assert response.status_code == 302
    args = query_of(response.location)
    assert 0 <= int(args.pop("seed")) <= MAX_SEED
    assert args == query_of(f"/deal?{query}")


@pytest.mark.parametrize("bid", RULE_BIDS, ids=str)
def test_each_bid_deals_a_hand_that_opens_it(client, bid):
    response = client.get(f"/deal?bid={bid}&seed=11")
    assert response.status_code == 200
    hand = dealt_hand(response)
    assert openingBid(hand) == bid.text
    assert hand == str(deal(11, bid.text))


@pytest.mark.parametrize("rule", REACHABLE_RULES)
def test_each_reachable_rule_deals_a_hand_it_decides(client, rule):
    response = client.get(f"/deal?rule={rule}&seed=5")
    assert response.status_code == 200
    assert explain(dealt_hand(response)).rule == rule


@pytest.mark.parametrize("query, bid, rule", [
    ("bid=2s&rule=r6", "2S", "R6"),
    ("bid=pass&rule=R9", None, "R9"),
    ("bid=%202nt%20", "2NT", None),
    ("bid=any&rule=any", ..., None),
])
def test_bids_and_rules_are_read_leniently(client, query, bid, rule):
    response = client.get(f"/deal?{query}&seed=3")
    assert response.status_code == 200
    advice = explain(dealt_hand(response))
    assert bid is ... or advice.bid == bid
    assert rule is None or advice.rule == rule


def test_the_same_link_shows_the_same_hand(app):
    first, second = app.test_client(), app.test_client()
    assert (dealt_hand(first.get("/deal?bid=1NT&seed=42"))
            == dealt_hand(second.get("/deal?bid=1NT&seed=42")))


def test_the_page_explains_the_hand_in_full(client):
    response = client.get("/deal?rule=R8&seed=3")
    advice = explain(dealt_hand(response))
    page = text_of(response)
    assert spoken_text(advice.explanation) in page
    assert advice.fired.sentence in page
    assert all(step.rule in page for step in advice.trace)
    assert "Seed 3: asked for R8" in page
    assert 'id="deal-rule"' in response.get_data(as_text=True)


@pytest.mark.parametrize("query, next_query", [
    ("bid=2NT&seed=7", {"bid": "2NT", "seed": "8"}),
    ("rule=R8&seed=0", {"rule": "R8", "seed": "1"}),
    (f"seed={MAX_SEED}", {"seed": "0"}),
])
def test_another_hand_moves_to_the_next_seed(client, query, next_query):
    page = client.get(f"/deal?{query}").get_data(as_text=True)
    link = html.unescape(re.search(r'href="([^"]+)">Another hand', page).group(1))
    assert query_of(link) == next_query


def test_the_hand_links_to_itself_to_the_advisor_and_to_a_set(client):
    page = html.unescape(client.get("/deal?bid=3H&seed=9").get_data(as_text=True))
    assert 'href="/deal?bid=3H&seed=9">Link to this hand' in page
    assert 'href="/deal?bid=3H&seed=9&print=1">Print 12 like this' in page
    assert f'href="/?hand={str(deal(9, "3H")).replace(" ", "+")}"' in page


def test_the_form_keeps_the_choice_but_not_the_seed(client):
    page = client.get("/deal?bid=2NT&rule=R5&seed=7").get_data(as_text=True)
    assert '<option value="2NT" selected>' in page
    assert '<option value="R5" selected>' in page
    assert 'name="seed" inputmode="numeric" autocomplete="off" value=""' in page
    assert '<input type="hidden" name="bid" value="2NT">' in page


def test_r4_is_refused_with_the_reason_no_hand_fires_it(client):
    response = client.get("/deal?rule=R4")
    assert response.status_code == 400
    page = text_of(response)
    assert "Cannot deal that. No hand fires R4: " + RULES[3].ruling_text in page
    assert ".." not in page
    assert RULES[3].sentence in page
    assert 'href="/stats#overlaps"' in response.get_data(as_text=True)
    assert '<option value="R4" selected>' in response.get_data(as_text=True)


BAD_DEALS = [
    ("bid=9Z", "bid", "'9Z' is not a bid the rules make: choose one of 1C, 1D"),
    ("bid=5NT", "bid", "'5NT' is not a bid the rules make"),
    ("bid=1%C5%BF", "bid", "'1?' is not a bid the rules make"),
    ("bid=" + "X" * 300, "bid", "'XXXXXXXXXXXXXXXXXXX…' is not a bid"),
    ("rule=R10", "rule", "'R10' is not a rule: choose one of R1 to R9"),
    ("rule=%00", "rule", "'?' is not a rule"),
    ("bid=2NT&rule=R3", "rule", "R3 never bids 2NT: it bids 1C or 1D"),
    ("bid=None&rule=R1", "rule", "R1 never bids None: it bids 1NT"),
    ("seed=abc", "seed", "Seed 'abc' is not a whole number: use a whole number from 0 "
                         "to 999,999,999"),
    ("seed=-1", "seed", "Seed '-1' is not a whole number"),
    ("seed=1e5", "seed", "Seed '1e5' is not a whole number"),
    ("seed=%D9%A3", "seed", "Seed '٣' is not a whole number"),
    ("seed=1000000000", "seed", "Seed '1000000000' is out of range: use a whole number "
                                "from 0 to 999,999,999"),
    ("seed=" + "9" * 5000, "seed", "Seed '9999999999999999999…' is out of range"),
    ("seed=999999990&count=12", "seed", "Seed 999,999,990 leaves no room for 12 hands: "
                                        "use a seed from 0 to 999,999,988"),
    ("seed=999999999&print=1", "seed", "Seed 999,999,999 leaves no room for 12 hands"),
    ("count=0", "count", "Count '0' is out of range: use a whole number from 1 to 100"),
    ("count=10000", "count", "Count '10000' is out of range"),
    ("count=101&print=1", "count", "Count '101' is out of range"),
    ("count=twelve", "count", "Count 'twelve' is not a whole number"),
    ("print=maybe", "print", "Print 'maybe' is not a switch: use print=1 for yes, or "
                             "leave it out"),
    ("print=1&part=answers", "part", "Part 'answers' is not one of the choices: use "
                                     "part=sheet or part=key, or leave it out"),
]


@pytest.mark.parametrize("query, field, message", BAD_DEALS,
                         ids=[query[:30] for query, _, _ in BAD_DEALS])
def test_bad_deal_requests_get_a_clear_400(client, query, field, message):
    response = client.get(f"/deal?{query}")
    assert response.status_code == 400
    assert "Cannot deal that. " + message in text_of(response)
    assert "Traceback" not in text_of(response)
    assert ".." not in text_of(response)
    page = response.get_data(as_text=True)
    if field in ("bid", "rule", "seed", "count"):
        id_ = {"count": "print-count"}.get(field, f"deal-{field}")
        assert re.search(f'id="{id_}"[^>]*aria-invalid="true" aria-describedby="deal-error"',
                         page)


def test_a_bad_count_keeps_what_was_typed(client):
    page = client.get("/deal?count=abc&print=1").get_data(as_text=True)
    assert 'name="count" inputmode="numeric" autocomplete="off" value="abc"' in page


def test_a_bad_seed_keeps_what_was_typed(client):
    page = client.get("/deal?seed=12x").get_data(as_text=True)
    assert 'name="seed" inputmode="numeric" autocomplete="off" value="12x"' in page


def test_a_hand_the_search_cannot_find_is_a_400(client, monkeypatch):
    monkeypatch.setattr("bidder.dealing.SEARCH_LIMIT", 1)
    response = client.get("/deal?bid=4C&seed=1")
    assert response.status_code == 400
    assert "No such hand in the first 1 dealt for seed 1: try another seed" in text_of(
        response)
    assert re.search('id="deal-seed"[^>]*aria-invalid="true"',
                     response.get_data(as_text=True))


# Printable sets ------------------------------------------------------------------------

def set_rows(response) -> list[str]:
    key = response.get_data(as_text=True).split('id="key-title"')[1]
    return re.findall(r"<tr>\s*<th scope=\"row\">(.*?)</tr>", key, re.S)


@pytest.mark.parametrize("query, size", [
    ("count=12&print=1", 12), ("print=1", PRINT_COUNT), ("count=5", 5),
    ("count=1&print=1", 1), (f"count={MAX_COUNT}&print=yes", MAX_COUNT),
])
def test_a_set_has_a_sheet_and_an_answer_key(client, query, size):
    response = client.get(f"/deal?{query}&seed=20")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert page.count('class="t-sheet-hand"') == size
    assert len(set_rows(response)) == size
    assert "break-before" not in page  # the page break lives in style.css
    assert "/static/style.css" in page


@pytest.mark.parametrize("query, seed", [("", 20), ("rule=R2&", 1), ("rule=R1&", 4)])
def test_the_answer_key_gives_bid_rule_and_points_of_each_hand(client, query, seed):
    response = client.get(f"/deal?{query}count=12&print=1&seed={seed}")
    rows = [text_of_html(row) for row in set_rows(response)]
    rule = read_deal_choice({"rule": query[5:7]}).rule
    dealt = ([hand for _, _, hand in teaching_mix(12, seed)] if rule is None else
             [hand for _, hand in deal_set(12, seed, rule=rule)])
    for number, (hand, row) in enumerate(zip(dealt, rows), start=1):
        advice = explain(hand)
        facts = advice.facts
        bid = spoken_bid(advice.bid)
        assert row.startswith(f"{number} , explained")
        assert (f"{facts.tally.hcp} {facts.tally.distribution} {facts.tally.points} {bid}" in row)
        assert f"{advice.rule} {advice.fired.name} {spoken_text(advice.explanation)}" in row
        for step in advice.trace:
            noted = step.rule in advice.ruled_overlaps  # R3 under 1NT is no news
            assert (f"{step.rule} also applies" in row) is noted
            if noted and step.would_bid != advice.bid:
                assert f"would bid {spoken_bid(step.would_bid)}" in row


def spoken_text(text: str) -> str:
    """A sentence of the core's as text_of reads it from a page that shows its bids as
    bids: 'would bid 1D' reads 'would bid 1 ♦ diamond'."""
    return " ".join(bids_read(text, lambda bid: f" {spoken_bid(bid)} ").split())


def text_of_html(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def test_each_hand_of_a_set_opens_the_bid_asked(client):
    response = client.get("/deal?bid=2NT&count=12&print=1&seed=3")
    page = response.get_data(as_text=True)
    links = re.findall(r'href="(/deal\?[^"]+)">\d+<span', page)
    assert len(links) == 12
    for link in links:
        hand = dealt_hand(client.get(html.unescape(link)))
        assert openingBid(hand) == "2NT"


def test_the_sheet_does_not_give_the_answers_away(client):
    response = client.get("/deal?bid=2NT&rule=R5&count=6&print=1&seed=3&part=sheet")
    page = text_of(response)
    assert 'id="key-title"' not in response.get_data(as_text=True)
    assert page.count("HCP Distribution Points Bid") == 6
    assert "2NT" not in page
    assert "R5" not in page


def test_the_key_alone_has_no_sheet(client):
    response = client.get("/deal?count=6&print=1&seed=3&part=key")
    page = response.get_data(as_text=True)
    assert 'class="t-sheet-hand"' not in page
    assert len(set_rows(response)) == 6
    assert '<strong aria-current="page">Answer key only</strong>' in page


def test_the_set_links_to_its_parts_the_next_set_and_back(client):
    page = html.unescape(client.get("/deal?bid=1NT&count=4&print=1&seed=8")
                         .get_data(as_text=True))
    assert 'href="/deal?bid=1NT&seed=8&count=4&print=1&part=sheet">Sheet only' in page
    assert 'href="/deal?bid=1NT&seed=8&count=4&print=1&part=key">Answer key only' in page
    assert 'href="/deal?bid=1NT&seed=12&count=4&print=1">Another set' in page
    assert 'href="/deal?bid=1NT&seed=8">Back to dealing' in page
    assert "Set 8, dealt to order: 1NT." in page_text(page)


DECIDING = sorted(rule.id for rule in RULES if is_reachable(rule))


def key_rules(response) -> list[str]:
    """The rule of each row of a set's answer key."""
    return [re.search(r"\b(R[0-9]) ", text_of_html(row).split(" , explained ", 1)[1]
                      .split(" ", 4)[4]).group(1) for row in set_rows(response)]


def test_a_set_of_any_hands_is_a_teaching_mix_of_every_deciding_rule(client):
    response = client.get("/deal?print=1&seed=30")
    rules = key_rules(response)
    assert len(rules) == PRINT_COUNT
    assert set(rules) == set(DECIDING)
    assert Counter(rules)["R9"] <= 2
    assert [rule.id for _, rule, _ in teaching_mix(PRINT_COUNT, 30)] == rules
    assert "A teaching mix: every rule that decides bids at least once." in text_of(response)


def test_a_set_as_dealt_is_there_for_the_asking(client):
    response = client.get("/deal?print=1&seed=30&mix=natural")
    hands = [hand for _, hand in deal_set(PRINT_COUNT, 30)]
    assert key_rules(response) == [explain(hand).rule for hand in hands]
    assert "As dealt: natural frequencies, so most open nothing." in text_of(response)
    page = html.unescape(response.get_data(as_text=True))
    assert 'href="/deal?seed=30&print=1">A teaching mix instead' in page
    assert 'href="/deal?seed=42&print=1&mix=natural">Another set' in page


def test_each_hand_of_a_teaching_mix_links_to_the_same_hand_explained(client):
    response = client.get("/deal?count=8&print=1&seed=11")
    links = re.findall(r'href="(/deal\?[^"]+)">\d+<span', response.get_data(as_text=True))
    for link, (seed, rule, hand) in zip(links, teaching_mix(8, 11)):
        assert html.unescape(link) == f"/deal?rule={rule.id}&seed={seed}"
        assert dealt_hand(client.get(html.unescape(link))) == str(hand)


def test_a_set_to_order_offers_no_mix_and_refuses_an_unknown_one(client):
    page = client.get("/deal?bid=2NT&print=1&seed=3").get_data(as_text=True)
    assert "teaching mix" not in page
    response = client.get("/deal?print=1&seed=3&mix=random")
    assert response.status_code == 400
    assert "Mix 'random' is not one of the choices: use mix=natural, or leave it out" in (
        text_of(response))


def test_a_printed_set_has_a_print_button_for_scripts_and_words_without(client):
    page = client.get("/deal?print=1&seed=3").get_data(as_text=True)
    assert '<button type="button" class="button" data-print hidden>Print</button>' in page
    assert "Print with your browser's Print command (Ctrl+P, or ⌘P on a Mac)." in page


def test_the_deal_form_offers_the_mix_for_a_set(client):
    page = client.get("/deal?seed=3").get_data(as_text=True)
    assert '<select id="print-mix" name="mix">' in page
    assert '<option value="natural">As dealt: natural frequencies' in page


# Hiding the answer ------------------------------------------------------------------------

def test_a_hand_with_the_answer_hidden_shows_the_hand_and_a_way_to_the_answer(client):
    response = client.get("/deal?bid=2NT&seed=7&hide=1")
    page = response.get_data(as_text=True)
    advice = explain(dealt_hand(client.get("/deal?bid=2NT&seed=7")))
    assert response.status_code == 200
    assert title_of(page) == "Seed 7: what would you open? · bidder"
    assert 'id="result"' not in page and 'id="bid"' not in page
    assert bids_read(advice.explanation) not in page_text(page) and "asked for" not in page
    assert page.count('<dl class="hand">') == 1
    for card in advice.facts.hand:
        assert card.spoken in page
    token = seal("2NT", None)
    assert (f'<a class="button" id="show-answer" href="/deal?token={token}&amp;seed=7#result">'
            'Show the answer</a>') in page
    assert f'href="/deal?token={token}&amp;seed=8&amp;hide=1">Another hand' in page
    assert "bid=2NT" not in page and 'value="2NT" selected' not in page
    assert 'value="2NT"' not in page.replace('<option value="2NT">', "")
    assert '<details class="t-deal-choice"><summary>Deal another to order</summary>' in page
    assert 'id="deal-hide" name="hide" value="1" checked' in page


def test_showing_the_answer_gives_the_same_hand_explained(client):
    hidden = client.get("/deal?rule=R7&seed=5&hide=1").get_data(as_text=True)
    shown = client.get("/deal?rule=R7&seed=5")
    assert 'id="result"' in shown.get_data(as_text=True)
    hand = dealt_hand(shown)
    assert all(card.spoken in hidden for card in parse_hand(hand))


@pytest.mark.parametrize("value", ["yes", "2"], ids=["a-word", "a-number"])
def test_hide_is_a_switch(client, value):
    response = client.get(f"/deal?seed=7&hide={value}")
    assert response.status_code == (200 if value == "yes" else 400)
    assert ('aria-invalid' in response.get_data(as_text=True).split('id="deal-hide"')[1]
            .split(">")[0]) is (value != "yes")


def test_a_set_at_the_last_seeds_starts_again_from_zero(client):
    page = html.unescape(client.get(f"/deal?count=2&seed={MAX_SEED - 1}")
                         .get_data(as_text=True))
    assert 'href="/deal?seed=0&count=2">Another set' in page


# The parameter readers -----------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("7", 7), (" 12 ", 12), ("1,000", 1000), ("1_000", 1000), ("0", 0), ("100", 100),
])
def test_whole_number_reads_plain_numbers(text, expected):
    assert whole_number(text, "count", 0, 10_000) == expected


@pytest.mark.parametrize("text, message", [
    ("", "Count is empty: use a whole number from 1 to 100"),
    ("  ", "Count is empty"),
    ("x", "Count 'x' is not a whole number: use a whole number from 1 to 100"),
    ("١٢", "Count '١٢' is not a whole number"),
    ("0", "Count '0' is out of range: use a whole number from 1 to 100"),
    ("101", "Count '101' is out of range"),
    ("0" * 30 + "1", None),
])
def test_whole_number_refuses_with_the_range(text, message):
    if message is None:
        assert whole_number(text, "count", 1, 100) == 1
        return
    with pytest.raises(ParamError) as error:
        whole_number(text, "count", 1, 100, "Count")
    assert error.value.message.startswith(message)
    assert error.value.field == "count"


def test_whole_number_names_the_field_without_a_label():
    with pytest.raises(ParamError, match="^hands 'x' is not"):
        whole_number("x", "hands", 1, 2)


@pytest.mark.parametrize("args, expected", [
    ({}, 5), ({"n": ""}, 5), ({"n": "  "}, 5), ({"n": "3"}, 3),
])
def test_optional_number_has_a_default(args, expected):
    assert optional_number(args, "n", 5, 0, 10) == expected


@pytest.mark.parametrize("text, expected", [
    ("", False), ("0", False), ("no", False), ("OFF", False), ("false", False),
    ("1", True), ("on", True), ("Yes", True), ("true", True),
])
def test_read_flag(text, expected):
    assert read_flag({"print": text}, "print") is expected


def test_read_flag_refuses_other_words():
    with pytest.raises(ParamError, match="print '2' is not a switch"):
        read_flag({"print": "2"}, "print")


@pytest.mark.parametrize("text, expected", [("", ""), ("Sheet", "sheet"), (" key", "key")])
def test_read_choice(text, expected):
    assert read_choice({"part": text}, "part", {"": 0, "sheet": 1, "key": 2}) == expected


@pytest.mark.parametrize("text, expected", [
    ("", ...), ("any", ...), (" ANY ", ...), ("2nt", Bid(2, "NT")), ("None", NO_BID),
    ("-", NO_BID),
])
def test_read_bid(text, expected):
    assert read_bid(text) == expected


@pytest.mark.parametrize("text", ["1ſ", "2NT\u200b", "1\u212aC"])
def test_read_bid_never_reads_look_alike_characters(text):
    with pytest.raises(BidError, match="is not a bid the rules make"):
        read_bid(text)


@pytest.mark.parametrize("text, expected", [("", None), ("any", None), ("r8", RULES[7])])
def test_read_rule(text, expected):
    assert read_rule(text) == expected


def test_read_rule_never_reads_look_alike_characters():
    with pytest.raises(DealError, match="'\\?8' is not a rule"):
        read_rule("\u0280" + "8")


@pytest.mark.parametrize("text, expected", [
    ("abc", "abc"), ("a\x00b", "a?b"), ("é", "?"), ("\ud800", "?"),
])
def test_plain_keeps_printable_ascii_only(text, expected):
    assert plain(text) == expected


def test_a_bad_number_is_quoted_safely_and_cut_short():
    with pytest.raises(ParamError) as caught:
        whole_number("\x1b[2J" + "9" * 50, "count", 1, 100)
    assert "'U+001B[2J999" in caught.value.message and "…'" in caught.value.message
    assert "\x1b" not in caught.value.message


@pytest.mark.parametrize("seed, step, expected", [
    (0, 1, 1), (MAX_SEED - 1, 1, MAX_SEED), (MAX_SEED, 1, 0),
    (MAX_SEED - 23, 12, MAX_SEED - 11), (MAX_SEED - 22, 12, 0),
])
def test_next_seed_starts_again_from_zero(seed, step, expected):
    assert next_seed(seed, step) == expected


def test_fresh_seeds_are_in_range_and_vary():
    seeds = {fresh_seed() for _ in range(20)}
    assert len(seeds) > 1
    assert all(0 <= seed <= MAX_SEED for seed in seeds)


@pytest.mark.parametrize("error, field", [
    (ParamError("x", "count"), "count"), (DealError("x", "unknown_bid"), "bid"),
    (DealError("x", "unreachable"), "rule"), (DealError("x", "mismatch"), "rule"),
    (DealError("x", "unknown_rule"), "rule"), (DealError("x", "bad_count"), "count"),
    (DealError("x", "not_found"), "seed"),
])
def test_error_field(error, field):
    assert error_field(error) == field


@pytest.mark.parametrize("args, expected", [
    ({}, DealChoice()),
    ({"bid": "2nt", "rule": "R5", "seed": "4", "count": "3", "print": "1", "part": "key"},
     DealChoice(Bid(2, "NT"), RULES[4], 4, 3, True, "key")),
])
def test_read_deal_choice(args, expected):
    assert read_deal_choice(args) == expected


@pytest.mark.parametrize("choice, size, is_set", [
    (DealChoice(), 1, False), (DealChoice(printable=True), PRINT_COUNT, True),
    (DealChoice(count=3), 3, True), (DealChoice(count=1, printable=True), 1, True),
    (DealChoice(count=1), 1, False),
])
def test_deal_choice_size(choice, size, is_set):
    assert (choice.size, choice.is_set) == (size, is_set)


@pytest.mark.parametrize("choice, changes, expected", [
    (DealChoice(), {}, {}),
    (DealChoice(NO_BID, RULES[8], 3), {"seed": 4}, {"bid": "None", "rule": "R9", "seed": 4}),
    (DealChoice(seed=1, count=5, printable=True, part="key"), {"part": ""},
     {"seed": 1, "count": 5, "print": 1}),
    (DealChoice(seed=2, hidden=True), {}, {"seed": 2, "hide": 1}),
    (DealChoice(seed=2, hidden=True), {"hidden": False}, {"seed": 2}),
    (DealChoice(seed=3, printable=True, mix="natural"), {}, {"seed": 3, "print": 1,
                                                             "mix": "natural"}),
])
def test_deal_choice_query_leaves_defaults_out(choice, changes, expected):
    assert choice.query(**changes) == expected


@pytest.mark.parametrize("choice, expected", [
    (DealChoice(), {"bid": "", "rule": "", "seed": "", "hide": "", "mix": ""}),
    (DealChoice(Bid(1, "S"), RULES[1], 0, hidden=True),  # a hidden hand's answer unnamed
     {"bid": "", "rule": "", "seed": "", "hide": "1", "mix": ""}),
    (DealChoice(Bid(1, "S"), RULES[1], 0),
     {"bid": "1S", "rule": "R2", "seed": "0", "hide": "", "mix": ""}),
    (DealChoice(seed=5, mix="natural"),
     {"bid": "", "rule": "", "seed": "5", "hide": "", "mix": "natural"}),
])
def test_deal_choice_form(choice, expected):
    assert choice.form() == expected


@pytest.mark.parametrize("choice, expected", [
    (DealChoice(Bid(1, "NT"), seed=7), {"set": 7, "bid": "1NT"}),
    (DealChoice(Bid(0, ""), seed=7), {"set": 7, "bid": "None"}),
    (DealChoice(Bid(1, "S"), RULES[1], 3), {"set": 3, "bid": "1S"}),  # the bid, not both
    (DealChoice(rule=RULES[2], seed=4), {"set": 4, "rule": "R3"}),
    (DealChoice(rule=RULES[3], seed=4), {"set": 4}),  # R4 is no round's: the mix
    (DealChoice(seed=5), {"set": 5}),
    (DealChoice(Bid(1, "NT"), seed=7, hidden=True), None),  # it would name the answer
    (DealChoice(hand="AKQJ.AKQ.AKQ.AKQ"), None),
], ids=["bid", "no-bid", "bid-and-rule", "rule", "rule-no-round-deals", "mix", "hidden",
        "given"])
def test_deal_choice_practice_set(choice, expected):
    assert choice.practice() == expected


@pytest.mark.parametrize("url, link", [
    ("/deal?bid=1NT&seed=7", "/practice?set=7&bid=1NT"),
    ("/deal?rule=R6&seed=3", "/practice?set=3&rule=R6"),
    ("/deal?bid=2NT&count=12&print=1&seed=5", "/practice?set=5&bid=2NT"),
    ("/deal?count=12&print=1&seed=5", "/practice?set=5"),
])
def test_where_a_teacher_deals_a_set_links_to_practising_it(client, url, link):
    page = html.unescape(client.get(url).get_data(as_text=True))
    assert f'<a href="{link}">Practise a set like this (a link for a class)</a>' in page
    client.get(link)
    assert "everyone with this link gets the same hands" in html.unescape(
        client.get("/practice").get_data(as_text=True))


# Hidden means hidden ------------------------------------------------------------------

HIDDEN_PAGES = ["/deal?bid=2NT&seed=7&hide=1", "/deal?rule=R7&seed=5&hide=1",
                "/deal?bid=1H&rule=R2&seed=3&hide=1"]


@pytest.mark.parametrize("url", HIDDEN_PAGES)
def test_no_link_or_form_on_a_hidden_hands_page_names_its_answer(client, url):
    page = html.unescape(client.get(url).get_data(as_text=True))
    links = re.findall(r'href="([^"]+)"', page) + re.findall(r'action="([^"]+)"', page)
    for link in links:
        query = parse_qs(urlsplit(link).query)
        assert "bid" not in query and "rule" not in query, link
    assert " selected" not in page.split('id="deal-bid"')[1].split("</select>")[0]
    assert " selected" not in page.split('id="deal-rule"')[1].split("</select>")[0]
    assert not re.search(r'name="(bid|rule)" value="[^"]', page)


@pytest.mark.parametrize("url", HIDDEN_PAGES)
def test_a_hidden_hands_links_lead_to_the_same_hand_and_the_same_kind(client, url):
    page = html.unescape(client.get(url).get_data(as_text=True))
    shown = re.search(r'id="show-answer" href="([^"]+)"', page).group(1)
    answer = client.get(shown.split("#")[0])
    assert answer.status_code == 200
    assert dealt_hand(answer) == dealt_hand(client.get(url.replace("&hide=1", "")))
    another = re.search(r'href="([^"]+)">Another hand', page).group(1)
    query = parse_qs(urlsplit(url).query)
    shown_another = client.get(another.replace("&hide=1", ""))
    assert 'id="result"' not in client.get(another).get_data(as_text=True)
    assert shown_another.status_code == 200
    other = explain(dealt_hand(shown_another))
    assert other.bid == query.get("bid", [other.bid])[0]
    assert other.rule == query.get("rule", [other.rule])[0].upper()


def test_a_print_form_from_a_hidden_hand_keeps_its_kind_in_a_token(client):
    page = client.get("/deal?bid=2NT&seed=7&hide=1").get_data(as_text=True)
    assert f'<input type="hidden" name="token" value="{seal("2NT", None)}">' in page
    sheet = client.get(f"/deal?token={seal('2NT', None)}&print=1&count=2&seed=1")
    assert sheet.status_code == 200


@pytest.mark.parametrize("token", ["!!", "bm8", "_w"])
def test_a_token_the_site_did_not_make_says_so(client, token):
    response = client.get(f"/deal?token={token}&seed=1")
    assert response.status_code == 400
    assert "is not a link this site made" in html.unescape(response.get_data(as_text=True))


def test_a_teachers_hand_is_kept_hidden_and_shown(client):
    hand = "5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C"
    hidden = client.get("/deal", query_string={"hand": hand, "hide": "1"})
    page = hidden.get_data(as_text=True)
    assert hidden.status_code == 200
    assert all(card.spoken in page for card in parse_hand(hand))
    assert 'id="result"' not in page
    assert "A hand: what would you open?" in page
    shown = re.search(r'id="show-answer" href="([^"]+)"', html.unescape(page)).group(1)
    assert dealt_hand(client.get(shown.split("#")[0])) == str(parse_hand(hand))


def test_a_teachers_hand_that_is_no_hand_says_why(client):
    response = client.get("/deal", query_string={"hand": "AS KS", "hide": "1"})
    assert response.status_code == 400
    assert "The hand given: a hand has 13 cards" in html.unescape(response.get_data(as_text=True))


def test_printing_from_a_given_hand_deals_a_set(client):
    response = client.get("/deal", query_string={
        "hand": "5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C", "print": "1"})
    assert response.status_code == 302 and "seed=" in response.headers["Location"]
