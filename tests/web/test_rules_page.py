"""The rules page: the decision list from bidder.RULES, rulings, and a dealt example each."""

from urllib.parse import parse_qs, urlsplit

import pytest
from markupsafe import escape

from bidder import RULES, explain
from bidder.advice import is_reachable
from bidder.dealing import deal
from bidder.facts import HCP_BY_RANK
from bidder.web.advisor import EXAMPLE_SEED, rule_examples

from markup import bid_text, bids_read, page_text, tags, text_of, title_of


@pytest.fixture
def html(client):
    response = client.get("/rules")
    assert response.status_code == 200
    return response.get_data(as_text=True)


@pytest.mark.parametrize("rule", RULES, ids=[rule.id for rule in RULES])
def test_each_rule_is_rendered_from_the_table(html, rule):
    card = text_of(html, rule.id)
    assert card.startswith(f"{rule.id} {rule.name}")
    assert page_text(str(escape(rule.sentence))) in card
    assert (rule.thresholds or "no rule above applies") in card
    assert rule.how in card
    assert bids_read(rule.ruling_text) in card
    for bid in rule.bids:
        assert bid_text(bid) in card


@pytest.mark.parametrize("rule", [rule for rule in RULES if is_reachable(rule)],
                         ids=lambda rule: rule.id)
def test_each_reachable_rule_links_to_a_hand_it_decides(client, html, rule):
    card = html[html.index(f'id="{rule.id}"'):].split("</li>")[0]
    [link] = [link["href"] for link in tags(card, "a") if link["href"].startswith("/?")]
    hand = parse_qs(urlsplit(link).query)["hand"][0]
    assert hand == str(deal(EXAMPLE_SEED, rule=rule))
    assert f"this hand opens {bid_text(explain(hand).bid) if explain(hand).bid else 'nothing'} by {rule.id}" in text_of(
        html, rule.id)
    result = client.get(link).get_data(as_text=True)
    assert text_of(result, "rule").startswith(f"by {rule.id},")


def test_an_unreachable_rule_says_why_it_has_no_example(html):
    assert "No example: no hand is decided by R4" in text_of(html, "R4")


def test_the_examples_are_stable_and_fire_their_rule():
    examples = rule_examples()
    assert examples is rule_examples()
    assert set(examples) == {rule.id for rule in RULES if is_reachable(rule)}
    for rule_id, advice in examples.items():
        assert advice.rule == rule_id


def test_the_counting_definitions_come_from_the_core(html):
    counting = page_text(
        html[html.index('id="counting-heading"'):html.index('id="list-heading"')])
    for rank, points in HCP_BY_RANK.items():
        assert f"{rank.word.capitalize()} {points}" in counting
    assert "beyond 4" in counting
    assert "Every suit has 2 to 4 cards, or the shape is 5-3-3-2 with the 5 cards" in counting
    assert "Ranked clubs < diamonds < hearts < spades" in counting
    assert "Minors: clubs, diamonds; majors: hearts, spades." in counting


def test_the_page_indexes_the_rules_in_order(html):
    anchors = [link["href"] for link in tags(html, "a") if link["href"].startswith("#R")]
    assert anchors == [f"#{rule.id}" for rule in RULES]
    assert title_of(html) == "The rules · bidder"
    assert 'aria-current="page">Rules' in html
