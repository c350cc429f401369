"""Practice through the test client: a hand without its answer, the bid buttons, count-first
mode, feedback, the score kept in the signed session cookie, and the choice of hands."""

import html
import re
from collections import Counter
from dataclasses import fields
from pathlib import Path

import pytest

from bidder import RULE_BY_ID, RULES, explain
from bidder.advice import is_reachable
from bidder.bids import NO_BID, Bid
from bidder.dealing import random_hand, reachable_bids
from bidder.web import create_app
from bidder.teaching import TEACHING_RULES
from bidder.web.state import store_of
from bidder.web.teach.practice import (ANSWERED_BEFORE, CANNOT_KEEP, FIELD_CHECKS,
                                       FIELD_NAMES, IDENTITY_LENGTH, RETRY_SECONDS,
                                       SESSION_KEY, STORE_RESET, TOKEN, UNKNOWN_IDENTITY,
                                       Practice, bid_rows, hand_for, identity,
                                       keep_seconds, restore)
from bidder.why_not import why_not

from markup import bid_text, bids_read, seen_and_heard
from test_teach import spoken_bid
from markup import page_text as text_of_html
from markup import text_of as text_by_id

HAND_FIELD = re.compile(r'name="hand" value="([^"]+)"')
CSRF_FIELD = re.compile(r'name="csrf_token" value="([^"]+)"')
REACHABLE_RULES = sorted(rule.id for rule in RULES if is_reachable(rule))


def text_of(response) -> str:
    page = re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))
    return " ".join(html.unescape(page).split())


def hand_on_table(client) -> str:
    page = client.get("/practice").get_data(as_text=True)
    return html.unescape(HAND_FIELD.search(page).group(1))


def csrf_token(client) -> str:
    page = client.get("/practice").get_data(as_text=True)
    return CSRF_FIELD.search(page).group(1)


def post(client, path, data=None):
    """Post a practice form as the page would, with its CSRF token."""
    return client.post(path, data={"csrf_token": csrf_token(client), **(data or {})})


def state_of(client) -> Practice:
    with client.session_transaction() as session:
        return Practice(**session[SESSION_KEY])


def answer(client, bid, hand=None):
    hand = hand or hand_on_table(client)
    return post(client, "/practice/answer", {"hand": hand, "bid": bid})


def wrong_bid(hand: str) -> str:
    right = str(Bid.from_value(explain(hand).bid))
    return "2NT" if right != "2NT" else "None"


def turn_on(client, **switches):
    return post(client, "/practice/settings", {name: "1" for name in switches})


# The prompt ------------------------------------------------------------------------------

def test_practice_shows_a_hand_and_the_buttons_for_every_bid(client):
    response = client.get("/practice")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    buttons = re.findall(r'<button type="submit" name="bid" value="([^"]+)"', page)
    assert buttons == [str(bid) for bid in reachable_bids()]
    assert buttons[-1] == "None"
    assert '"bid-mark">No bid</span></button>' in page
    assert "Hand 1" in text_of(response)
    assert "Bids right: 0 of 0" in text_of(response)


def test_the_prompt_never_gives_the_answer_away(client):
    for _ in range(len(TEACHING_RULES)):
        response = client.get("/practice")
        page = text_of(response)
        advice = explain(hand_on_table(client))
        assert bids_read(advice.explanation, spoken_bid) not in page
        assert advice.fired.sentence not in page
        assert "Rule by rule" not in page
        assert 'id="result"' not in response.get_data(as_text=True)
        assert f"by {advice.rule}" not in page
        post(client, "/practice/next", {"hand": hand_on_table(client)})


def test_the_hand_stays_the_same_across_page_loads(client):
    assert hand_on_table(client) == hand_on_table(client)


def test_each_student_gets_their_own_hands(app):
    hands = {hand_on_table(app.test_client()) for _ in range(4)}
    assert len(hands) > 1


def test_bid_rows_group_the_bids_by_level_with_no_bid_last():
    rows = bid_rows()
    assert [bid for row in rows for bid in row] == list(reachable_bids())
    assert [row[0].level for row in rows[:-1]] == [1, 2, 3, 4]
    assert rows[-1] == [NO_BID]


# Answers and feedback ----------------------------------------------------------------------

def test_a_right_answer_gets_short_feedback_and_a_point(client):
    hand = hand_on_table(client)
    advice = explain(hand)
    response = answer(client, str(Bid.from_value(advice.bid)), hand)
    assert response.status_code == 303
    assert response.location == "/practice"
    page = text_of(client.get("/practice"))
    assert "✓ Right:" in page
    assert f"{advice.rule}, {advice.fired.name}." in page
    assert "Rule by rule" not in page
    assert "Bids right: 1 of 1" in page


def test_a_wrong_answer_speaks_first_of_the_bid_chosen_then_the_right_one(client):
    hand = hand_on_table(client)
    advice = explain(hand)
    chosen = Bid.parse(wrong_bid(hand))
    answer(client, str(chosen), hand)
    html = client.get("/practice").get_data(as_text=True)
    page = text_of_html(html)
    reason = why_not(advice, chosen)
    assert "✗ Not this time" in page
    assert seen_and_heard(html, "chosen")[0] == (
        f"You chose {chosen.display}. {reason[:1].upper()}{reason[1:]}")
    assert text_by_id(html, "answer").startswith(f"This hand opens {bid_text(advice.bid)} "
                                              f"by {advice.rule}, {advice.fired.name}.")
    assert bids_read(advice.explanation) in page
    assert page.index("You chose") < page.index("This hand opens") < page.index("Rule by rule")
    assert "Bids right: 0 of 1" in page


def test_the_full_trace_of_a_wrong_answer_folds_away_and_the_hand_is_drawn_once(client):
    hand = hand_on_table(client)
    advice = explain(hand)
    answer(client, wrong_bid(hand), hand)
    html = client.get("/practice").get_data(as_text=True)
    why = html.split('<details class="panel t-why" id="why">', 1)[1].split("</details>", 1)[0]
    assert "<summary>Rule by rule, with the points</summary>" in why
    assert all(f'id="step-{step.rule}"' in why for step in advice.trace)
    assert "Points suit by suit" in why
    assert html.count('<dl class="hand">') == 1
    assert 'id="result"' not in html


def test_no_bid_is_an_answer(client):
    post(client, "/practice/settings", {"natural": "1"})
    for _ in range(20):
        hand = hand_on_table(client)
        if explain(hand).bid is None:
            break
        post(client, "/practice/next", {"hand": hand})
    answer(client, "None", hand)
    page = text_of(client.get("/practice"))
    assert "Right: No bid" in page
    assert "Bids right: 1 of 1" in page


def test_the_feedback_offers_the_next_hand_and_no_more_buttons(client):
    hand = hand_on_table(client)
    answer(client, wrong_bid(hand), hand)
    page = client.get("/practice").get_data(as_text=True)
    assert 'name="bid"' not in page
    assert 'action="/practice/next"' in page
    assert "Next hand</button>" in page
    assert "Skip this hand" not in page


def test_answering_twice_counts_once(client):
    hand = hand_on_table(client)
    right = str(Bid.from_value(explain(hand).bid))
    answer(client, right, hand)
    answer(client, right, hand)
    assert (state_of(client).right, state_of(client).answered) == (1, 1)


def test_an_answer_for_an_earlier_hand_is_not_counted(client):
    first = hand_on_table(client)
    post(client, "/practice/next", {"hand": first})
    response = answer(client, str(Bid.from_value(explain(first).bid)), first)
    assert response.status_code == 303
    page = text_of(client.get("/practice"))
    assert "That was for an earlier hand; here is the hand on the table now." in page
    assert state_of(client).answered == 0


@pytest.mark.parametrize("bid, message", [
    ("9Z", "'9Z' is not a bid the rules make: choose one of 1C"),
    ("", "'' is not a bid the rules make"),
    ("1\u017f", "'1?' is not a bid the rules make"),
])
def test_a_bid_no_rule_makes_is_a_400_with_the_buttons_still_there(client, bid, message):
    response = answer(client, bid)
    assert response.status_code == 400
    page = text_of(response)
    assert message[:1].upper() + message[1:] in page
    assert 'aria-describedby="bid-error"' in response.get_data(as_text=True)
    assert 'name="bid" value="1C"' in response.get_data(as_text=True)
    assert state_of(client).answered == 0


# Moving on ------------------------------------------------------------------------------------

def test_next_deals_a_new_hand_and_clears_the_answer(client):
    first = hand_on_table(client)
    answer(client, wrong_bid(first), first)
    response = post(client, "/practice/next", {"hand": first})
    assert response.status_code == 303
    state = state_of(client)
    assert (state.turn, state.answer, state.answered) == (1, None, 1)
    assert state.hand != first
    assert "Hand 2" in text_of(client.get("/practice"))


def test_skipping_a_hand_scores_nothing(client):
    first = hand_on_table(client)
    post(client, "/practice/next", {"hand": first})
    assert hand_on_table(client) != first
    assert state_of(client).answered == 0


def test_pressing_next_twice_deals_only_one_hand(client):
    first = hand_on_table(client)
    post(client, "/practice/next", {"hand": first})
    post(client, "/practice/next", {"hand": first})
    assert state_of(client).turn == 1


def test_a_post_for_a_hand_never_dealt_leaves_the_practice_as_it_was(client):
    first = hand_on_table(client)
    response = post(client, "/practice/next", {"hand": "AS"})
    assert response.status_code == 303
    assert (state_of(client).turn, hand_on_table(client)) == (0, first)


def test_start_again_clears_the_score_and_keeps_the_settings(client):
    turn_on(client, count_first=True, natural=True)
    hand = hand_on_table(client)
    post(client, "/practice/count", {"hand": hand, "hcp": "0", "distribution": "0"})
    answer(client, "2NT", hand)
    post(client, "/practice/reset")
    state = state_of(client)
    assert (state.answered, state.counts_checked, state.turn, state.hand) == (0, 0, 0, "")
    assert (state.count_first, state.natural) == (True, True)


# Count first --------------------------------------------------------------------------------

def test_count_first_asks_for_the_count_before_the_bid(client):
    turn_on(client, count_first=True)
    page = client.get("/practice").get_data(as_text=True)
    assert 'action="/practice/count"' in page
    assert '<label for="count-hcp">HCP</label>' in page
    assert '<label for="count-distribution">Distribution points</label>' in page
    assert 'name="bid"' not in page
    assert 'checked' in page.split('id="set-count-first"')[1][:40]


@pytest.mark.parametrize("hcp_off, distribution_off, marks, right", [
    (0, 0, ("✓ HCP", "✓ Distribution points"), 1),
    (1, 0, ("✗ HCP: you counted", "✓ Distribution points"), 0),
    (0, 1, ("✓ HCP", "✗ Distribution points: you counted"), 0),
    (2, 3, ("✗ HCP", "✗ Distribution points"), 0),
], ids=["both-right", "hcp-wrong", "distribution-wrong", "both-wrong"])
def test_each_count_is_checked_on_its_own_and_the_score_is_per_hand(
        client, hcp_off, distribution_off, marks, right):
    turn_on(client, count_first=True)
    hand = hand_on_table(client)
    facts = explain(hand).facts
    response = post(client, "/practice/count", {
        "hand": hand, "hcp": str(facts.tally.hcp + hcp_off),
        "distribution": str(facts.tally.distribution + distribution_off)})
    assert response.status_code == 303
    response = client.get("/practice")
    page = text_of(response)
    for mark in marks:
        assert mark in page
    assert f"Counts right: {right} of 1" in page
    assert ('Points suit by suit' in page) is (right == 0)
    assert 'name="bid" value="1C"' in response.get_data(as_text=True)
    assert bids_read(explain(hand).explanation, spoken_bid) not in page


def test_a_wrong_count_shows_the_right_numbers(client):
    turn_on(client, count_first=True)
    hand = hand_on_table(client)
    facts = explain(hand).facts
    post(client, "/practice/count", {"hand": hand, "hcp": str(facts.tally.hcp + 1),
                                      "distribution": str(facts.tally.distribution)})
    page = text_of(client.get("/practice"))
    assert f"HCP: you counted {facts.tally.hcp + 1}; the hand has {facts.tally.hcp}." in page


@pytest.mark.parametrize("counted, named", [(1, False), (2, True), (4, False)],
                         ids=["right", "short-suit-points", "no-reading"])
def test_a_count_of_points_for_short_suits_is_named_as_that_misreading(client, counted,
                                                                        named):
    client.get("/practice?set=1")  # 4-2-5-2 with a five-card minor: 1 point; shortness 2
    turn_on(client, count_first=True)
    hand = hand_on_table(client)
    assert hand == "AS KS JS 8S AH 2H AD KD 8D 5D 4D AC 6C"
    post(client, "/practice/count", {"hand": hand, "hcp": "0",
                                      "distribution": str(counted)})
    page = text_of(client.get("/practice"))
    assert ("Your 2 fits a misreading of the counting: Distribution points are counted for "
            "short suits (void 3, singleton 2, doubleton 1) instead of long ones. Counted "
            "that way: 2 distribution points: hearts 2 cards: 1; clubs 2 cards: 1" in page
            ) is named


@pytest.mark.parametrize("hcp, distribution, field, message", [
    ("", "0", "hcp", "HCP is empty: use a whole number from 0 to 99"),
    ("twelve", "0", "hcp", "HCP 'twelve' is not a whole number"),
    ("12", "-1", "distribution", "Distribution points '-1' is not a whole number"),
    ("100", "0", "hcp", "HCP '100' is out of range: use a whole number from 0 to 99"),
    ("12", "x" * 200, "distribution", "Distribution points 'xxxxxxxxxxxxxxxxxxx…'"),
])
def test_a_count_that_is_not_a_number_is_a_400_that_keeps_the_typing(
        client, hcp, distribution, field, message):
    turn_on(client, count_first=True)
    hand = hand_on_table(client)
    response = post(client, "/practice/count", {"hand": hand, "hcp": hcp,
                                                 "distribution": distribution})
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert message in text_of(response)
    assert re.search(f'id="count-{field}"[^>]*aria-invalid="true" '
                     f'aria-describedby="count-{field}-error"', page)
    assert f'name="hcp" inputmode="numeric" autocomplete="off" value="{hcp}"' in page
    assert state_of(client).counts_checked == 0


def test_both_counts_wrong_in_form_both_get_a_message(client):
    turn_on(client, count_first=True)
    hand = hand_on_table(client)
    response = post(client, "/practice/count", {"hand": hand})
    page = text_of(response)
    assert "HCP is empty" in page and "Distribution points is empty" in page


def test_counting_twice_counts_once(client):
    turn_on(client, count_first=True)
    hand = hand_on_table(client)
    for _ in range(2):
        post(client, "/practice/count", {"hand": hand, "hcp": "1", "distribution": "0"})
    assert state_of(client).counts_checked == 1


def test_a_count_for_an_earlier_hand_is_not_checked(client):
    turn_on(client, count_first=True)
    first = hand_on_table(client)
    post(client, "/practice/next", {"hand": first})
    post(client, "/practice/count", {"hand": first, "hcp": "1", "distribution": "0"})
    assert state_of(client).counts_checked == 0
    assert "earlier hand" in text_of(client.get("/practice"))


def test_settings_switch_off_when_unticked(client):
    turn_on(client, count_first=True, natural=True)
    post(client, "/practice/settings", {})
    state = state_of(client)
    assert (state.count_first, state.natural) == (False, False)


# Rounds and their summary ----------------------------------------------------------------------

def play_round(client, wrong_for=frozenset(), skip_for=frozenset()) -> list[str]:
    """Answer every hand of the round on the table: wrongly for the rules in *wrong_for*,
    not at all for those in *skip_for*, rightly for the rest. The deciding rules, in turn."""
    rules = []
    client.get("/practice")
    while not state_of(client).between_rounds:
        hand = hand_on_table(client)
        rule = explain(hand).rule
        rules.append(rule)
        if rule not in skip_for:
            answer(client, wrong_bid(hand) if rule in wrong_for else right_bid(hand), hand)
        post(client, "/practice/next", {"hand": hand})
    return rules


def test_a_round_is_every_deciding_rule_once_then_a_summary(client):
    rules = play_round(client, wrong_for={"R3", "R7"})
    assert sorted(rules) == REACHABLE_RULES
    response = client.get("/practice")
    page = text_of(response)
    assert response.status_code == 200
    assert "Round over: 6 of 8 right" in page
    assert 'name="bid"' not in response.get_data(as_text=True)
    for rule in RULES:
        if rule.id in ("R3", "R7"):
            assert f"{rule.id} {rule.name} 0 ✗ 1" in page
        elif rule.id != "R4":
            assert f"{rule.id} {rule.name} 1 0" in page
    assert "Practise the ones I missed (R3, R7: 8 hands)" in page
    assert "Bids right: 6 of 8" in page


def test_the_last_hand_of_a_round_leads_to_the_summary(client):
    for _ in range(7):
        post(client, "/practice/next", {"hand": hand_on_table(client)})
    hand = hand_on_table(client)
    answer(client, right_bid(hand), hand)
    assert "Round summary</button>" in client.get("/practice").get_data(as_text=True)
    post(client, "/practice/next", {"hand": hand})
    state = state_of(client)
    assert (state.hand, state.token, state.turn, state.between_rounds) == ("", "", 8, True)
    page = text_of(client.get("/practice"))
    assert "Round over: 1 of 1 right" in page
    assert "7 of the 8 hands skipped." in page
    assert "Practise the ones I missed" not in page


def test_practising_the_missed_ones_deals_just_those_rules_then_whole_rounds_again(client):
    play_round(client, wrong_for={"R1", "R8"})
    response = post(client, "/practice/round", {"missed": "1"})
    assert response.status_code == 303
    state = state_of(client)
    assert (state.focus, state.round_start, state.record, state.size) == ("R1,R8", 8, "", 8)
    assert "1 of 8 in this round" in text_of(client.get("/practice"))
    assert sorted(play_round(client, wrong_for={"R8"})) == ["R1"] * 4 + ["R8"] * 4
    assert "Round over: 4 of 8 right" in text_of(client.get("/practice"))
    post(client, "/practice/round")
    assert (state_of(client).focus, state_of(client).size) == ("", 8)
    assert sorted(play_round(client)) == REACHABLE_RULES


def test_a_round_of_missed_ones_deals_by_rule_even_at_natural_frequencies(client):
    play_round(client, wrong_for={"R7"})
    turn_on(client, natural=True)
    post(client, "/practice/round", {"missed": "1"})
    assert play_round(client) == ["R7"] * 8


def test_at_natural_frequencies_a_round_is_eight_hands_scored_by_their_rule(client):
    turn_on(client, natural=True)
    rules = play_round(client)
    assert len(rules) == 8
    page = text_of(client.get("/practice"))
    assert "Round over: 8 of 8 right" in page
    for rule_id in set(rules):
        assert f"{rule_id} {RULE_BY_ID[rule_id].name} {rules.count(rule_id)} 0" in page


def test_a_new_round_starts_only_once_a_round_is_over_and_only_once(client):
    first = hand_on_table(client)
    post(client, "/practice/round", {"missed": "1"})
    assert (state_of(client).turn, hand_on_table(client)) == (0, first)
    play_round(client, wrong_for={"R2"})
    post(client, "/practice/round", {"missed": "1"})
    post(client, "/practice/round")
    state = state_of(client)
    assert (state.round_start, state.turn, state.focus) == (8, 8, "R2")


def test_skipped_hands_are_neither_right_nor_wrong(client):
    play_round(client, wrong_for={"R5"}, skip_for={"R6", "R9"})
    page = text_of(client.get("/practice"))
    assert "Round over: 5 of 6 right" in page
    assert "2 of the 8 hands skipped." in page
    assert "R6 2 of a suit" not in page
    assert "Practise the ones I missed (R5: 8 hands)" in page


def test_the_round_so_far_is_recorded_by_the_rule_that_decides_each_hand(client):
    hand = hand_on_table(client)
    rule = explain(hand).rule
    answer(client, wrong_bid(hand), hand)
    assert state_of(client).record == f"{rule}-"
    post(client, "/practice/next", {"hand": hand})
    second = hand_on_table(client)
    answer(client, right_bid(second), second)
    assert state_of(client).record == f"{rule}-{explain(second).rule}+"


# Settings -------------------------------------------------------------------------------------

@pytest.mark.parametrize("switches, message", [
    ({}, "Settings saved: count first off, natural frequencies off."),
    ({"count_first": "1"}, "Settings saved: count first on, natural frequencies off."),
    ({"count_first": "1", "natural": "1"},
     "Settings saved: count first on, natural frequencies on."),
], ids=["both-off", "count-first", "both-on"])
def test_saving_the_settings_says_so_and_what_they_are(client, switches, message):
    post(client, "/practice/settings", switches)
    page = client.get("/practice").get_data(as_text=True)
    assert f'<p class="t-notice" role="status">{message}</p>' in page
    assert message not in client.get("/practice").get_data(as_text=True)


# Which hands come up ------------------------------------------------------------------------

def test_by_default_every_deciding_rule_comes_up_once_a_lap():
    base = 1234
    for lap in range(2):
        rules = [explain(hand_for(Practice(base, turn, round_start=lap * 8))).rule
                 for turn in range(lap * 8, lap * 8 + 8)]
        assert sorted(rules) == REACHABLE_RULES


def test_the_order_within_a_lap_changes_so_the_turn_gives_nothing_away():
    orders = {tuple(explain(hand_for(Practice(base, turn))).rule for turn in range(8))
              for base in range(6)}
    assert len(orders) > 1


def test_natural_frequencies_deal_plain_random_hands():
    hands = [hand_for(Practice(77, turn, natural=True)) for turn in range(60)]
    assert hands == [str(random_hand(77 + turn)) for turn in range(60)]
    assert Counter(explain(hand).bid is None for hand in hands)[True] > 20


def test_the_natural_switch_changes_the_next_hand(client):
    turn_on(client, natural=True)
    first = hand_on_table(client)
    post(client, "/practice/next", {"hand": first})
    state = state_of(client)
    assert state.hand == str(random_hand(state.base + 1))


# The score in the cookie --------------------------------------------------------------------

def test_the_score_lives_in_a_signed_cookie(client):
    hand = hand_on_table(client)
    response = answer(client, str(Bid.from_value(explain(hand).bid)), hand)
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("session=")
    assert "HttpOnly" in cookie
    assert "Bids right: 1 of 1" in text_of(client.get("/practice"))


def test_a_forged_cookie_starts_a_new_practice(client):
    client.set_cookie("session", "eyJwcmFjdGljZSI6eyJyaWdodCI6OTl9fQ.forged.signature")
    response = client.get("/practice")
    assert response.status_code == 200
    assert "Bids right: 0 of 0" in text_of(response)


@pytest.mark.parametrize("stored", [{"score": 3}, {"base": 1, "colour": "red"}, 7])
def test_an_unreadable_practice_in_the_cookie_starts_again(client, stored):
    with client.session_transaction() as session:
        session[SESSION_KEY] = stored
    response = client.get("/practice")
    assert response.status_code == 200
    assert state_of(client).turn == 0


# An old cookie sent again -------------------------------------------------------------------

def right_bid(hand: str) -> str:
    return str(Bid.from_value(explain(hand).bid))


def test_replaying_the_cookie_from_before_a_wrong_answer_cannot_make_it_right(client):
    hand = hand_on_table(client)
    token = csrf_token(client)
    before = client.get_cookie("session").value
    post(client, "/practice/answer", {"hand": hand, "bid": wrong_bid(hand)})
    assert (state_of(client).right, state_of(client).answered) == (0, 1)
    answered = state_of(client)

    client.set_cookie("session", before)
    response = client.post("/practice/answer", data={"csrf_token": token, "hand": hand,
                                                     "bid": right_bid(hand)})
    assert response.status_code == 303
    assert state_of(client) == answered  # the first answer, counted once
    page = text_of(client.get("/practice"))
    assert ANSWERED_BEFORE in page
    assert "✗ Not this time" in page


def test_replaying_it_again_and_again_never_scores(client):
    hand = hand_on_table(client)
    before = client.get_cookie("session").value
    answer(client, wrong_bid(hand), hand)
    for _ in range(3):
        client.set_cookie("session", before)
        response = post(client, "/practice/answer", {"hand": hand, "bid": right_bid(hand)})
        assert response.status_code == 303
        assert state_of(client).right == 0


def test_replaying_the_cookie_from_before_a_count_cannot_count_again(client):
    turn_on(client, count_first=True)
    hand = hand_on_table(client)
    facts = explain(hand).facts
    before = client.get_cookie("session").value
    post(client, "/practice/count", {"hand": hand, "hcp": "0", "distribution": "0"})
    client.set_cookie("session", before)
    post(client, "/practice/count", {"hand": hand, "hcp": str(facts.tally.hcp),
                                     "distribution": str(facts.tally.distribution)})
    state = state_of(client)
    assert (state.counts_right, state.counts_checked, state.turn) == (0, 1, 0)
    assert (state.hcp, state.distribution) == (0, 0)
    assert "answered already" in text_of(client.get("/practice"))


def test_counting_first_then_bidding_spends_the_hand_once_for_each(client):
    turn_on(client, count_first=True)
    hand = hand_on_table(client)
    post(client, "/practice/count", {"hand": hand, "hcp": "1", "distribution": "1"})
    answer(client, right_bid(hand), hand)
    state = state_of(client)
    assert (state.answered, state.right, state.counts_checked) == (1, 1, 1)


def test_each_hand_has_its_own_token(client):
    tokens = set()
    for _ in range(5):
        hand = hand_on_table(client)
        tokens.add(state_of(client).token)
        post(client, "/practice/next", {"hand": hand})
    assert len(tokens) == 5
    assert all(TOKEN.fullmatch(token) for token in tokens)


def test_every_worker_shares_the_store(app, tmp_path):
    other_worker = create_app({"TESTING": True, "SECRET_KEY": app.config["SECRET_KEY"],
                               "STATE_URL": app.config["STATE_URL"]})
    client = app.test_client()
    hand = hand_on_table(client)
    before = client.get_cookie("session").value
    token = csrf_token(client)
    answer(client, wrong_bid(hand), hand)
    replayer = other_worker.test_client()
    replayer.set_cookie("session", before)
    replayer.post("/practice/answer", data={"csrf_token": token, "hand": hand,
                                            "bid": right_bid(hand)})
    assert (state_of(replayer).right, state_of(replayer).answered) == (0, 1)


def test_answers_are_kept_as_long_as_the_session_lives(app):
    assert keep_seconds(app) == app.permanent_session_lifetime.total_seconds() == 31 * 86400


def test_a_double_click_shows_the_first_answer_on_both_pages_counted_once(app):
    first, second = app.test_client(), app.test_client()
    hand = hand_on_table(first)
    token = csrf_token(first)
    second.set_cookie("session", first.get_cookie("session").value)
    for client, bid in ((first, right_bid(hand)), (second, wrong_bid(hand))):
        client.post("/practice/answer", data={"csrf_token": token, "hand": hand, "bid": bid})
    assert state_of(first) == state_of(second)
    assert (state_of(second).answer, state_of(second).right) == (right_bid(hand), 1)
    assert state_of(second).answered == 1


def test_the_token_starts_with_the_store_identity(app, client):
    hand_on_table(client)
    with app.app_context():
        assert state_of(client).token[:IDENTITY_LENGTH] == identity(store_of(app))


def break_the_store(app) -> None:
    """Delete the state file under the running app."""
    path = Path(store_of(app).path)
    for file in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        file.unlink(missing_ok=True)


@pytest.mark.parametrize("step, fields", [("answer", {"bid": "1C"}),
                                          ("count", {"hcp": "1", "distribution": "1"})])
def test_a_store_that_cannot_be_written_says_scores_cannot_be_kept(app, client, caplog,
                                                                      step, fields):
    hand = hand_on_table(client)
    before = state_of(client)
    break_the_store(app)
    response = post(client, f"/practice/{step}", {"hand": hand, **fields})
    assert response.status_code == 503
    assert response.headers["Retry-After"] == str(RETRY_SECONDS)
    assert CANNOT_KEEP in text_of(response)
    assert state_of(client) == before
    assert "practice answer not recorded: the state file" in caplog.text
    assert client.get("/api/bid?hand=" + hand.replace(" ", "+")).status_code == 200


def test_a_store_made_anew_never_scores_a_hand_dealt_before_it(app, client):
    hand = hand_on_table(client)
    before = client.get_cookie("session").value
    answer(client, wrong_bid(hand), hand)
    break_the_store(app)
    store_of(app).prepare()  # the next start makes the file anew, with a new identity
    client.set_cookie("session", before)
    answer(client, right_bid(hand), hand)
    state = state_of(client)
    assert (state.right, state.answered, state.turn) == (0, 0, 1)
    assert STORE_RESET in text_of(client.get("/practice"))


def test_a_hand_dealt_while_the_store_was_down_is_not_scored_once_it_is_back(app, client):
    break_the_store(app)
    client.get("/practice")
    assert state_of(client).token.startswith(UNKNOWN_IDENTITY)
    store_of(app).prepare()
    hand = hand_on_table(client)
    answer(client, right_bid(hand), hand)
    assert (state_of(client).right, state_of(client).turn) == (0, 1)


# A signed state that makes no sense -----------------------------------------------------

def good_state(client) -> dict:
    hand_on_table(client)
    with client.session_transaction() as session:
        return dict(session[SESSION_KEY])


def plant(app, client, stored) -> None:
    """Put *stored* in the session as the practice, signed with the app's own serializer."""
    serializer = app.session_interface.get_signing_serializer(app)
    session = serializer.loads(client.get_cookie("session").value)
    client.set_cookie("session", serializer.dumps({**session, SESSION_KEY: stored}))


BAD_STATES = {
    "not-a-dict": lambda good: [good],
    "a-number": lambda good: 7,
    "null": lambda good: None,
    "missing-key": lambda good: {k: v for k, v in good.items() if k != "token"},
    "unknown-setting": lambda good: {**good, "colour": "red"},
    "base-as-text": lambda good: {**good, "base": "7"},
    "turn-as-float": lambda good: {**good, "turn": 1.5},
    "right-as-bool": lambda good: {**good, "right": True},
    "switch-as-text": lambda good: {**good, "count_first": "yes"},
    "hand-as-number": lambda good: {**good, "hand": 7},
    "token-as-number": lambda good: {**good, "token": 5},
    "huge-base": lambda good: {**good, "base": 10 ** 30},
    "huge-turn": lambda good: {**good, "turn": 10 ** 12},
    "huge-score": lambda good: {**good, "right": 10 ** 40, "answered": 10 ** 40},
    "negative-right": lambda good: {**good, "right": -1},
    "negative-checked": lambda good: {**good, "counts_checked": -2},
    "more-right-than-asked": lambda good: {**good, "right": 2, "answered": 1},
    "more-answers-than-hands": lambda good: {**good, "answered": 5, "turn": 0},
    "more-counts-than-hands": lambda good: {**good, "counts_checked": 4, "turn": 0},
    "counts-right-over-checked": lambda good: {**good, "counts_right": 2},
    "short-hand": lambda good: {**good, "hand": "AS KS"},
    "hand-not-as-saved": lambda good: {**good, "hand": good["hand"].lower()},
    "long-hand": lambda good: {**good, "hand": "AS " * 5000},
    "unknown-bid": lambda good: {**good, "answer": "9Z"},
    "bid-as-number": lambda good: {**good, "answer": 1},
    "count-out-of-range": lambda good: {**good, "hcp": 100, "distribution": 0},
    "one-count-only": lambda good: {**good, "hcp": 10},
    "bad-token": lambda good: {**good, "token": "x"},
    "hand-without-token": lambda good: {**good, "token": ""},
    "answer-without-hand": lambda good: {**good, "hand": "", "token": "", "answer": "1C"},
    "round-as-text": lambda good: {**good, "round_start": "0"},
    "round-in-the-future": lambda good: {**good, "round_start": 1},
    "past-the-round": lambda good: {**good, "turn": 9, "hand": "", "token": ""},
    "hand-between-rounds": lambda good: {**good, "turn": 8},
    "focus-unknown-rule": lambda good: {**good, "focus": "R12"},
    "focus-never-deciding": lambda good: {**good, "focus": "R4"},
    "focus-twice": lambda good: {**good, "focus": "R3,R3"},
    "focus-out-of-order": lambda good: {**good, "focus": "R7,R3"},
    "focus-as-list": lambda good: {**good, "focus": ["R3"]},
    "record-as-number": lambda good: {**good, "record": 3},
    "record-unreadable": lambda good: {**good, "record": "R3?"},
    "record-unknown-rule": lambda good: {**good, "record": "R4+"},
    "record-longer-than-the-round": lambda good: {**good, "record": "R3+R1+"},
}


@pytest.mark.parametrize("name, action", [
    *((name, "show") for name in BAD_STATES),
    *((name, action) for name in ("unknown-setting", "huge-turn", "one-count-only")
      for action in ("answer", "count", "next", "settings")),
])
def test_a_validly_signed_but_malformed_state_gives_a_fresh_practice(app, client, name,
                                                                     action):
    stored = BAD_STATES[name](good_state(client))
    token = csrf_token(client)
    plant(app, client, stored)
    if action != "show":
        response = client.post(f"/practice/{action}", data={
            "csrf_token": token, "hand": "AS", "bid": "1C", "hcp": "1", "distribution": "1"})
        assert response.status_code == 303
    response = client.get("/practice")
    assert response.status_code == 200
    assert "Bids right: 0 of 0" in text_of(response)
    state = state_of(client)
    assert (state.turn, state.right, state.answered, state.counts_checked) == (0, 0, 0, 0)


def test_a_state_the_app_saved_is_restored_as_it_was(client):
    turn_on(client, count_first=True, natural=True)
    hand = hand_on_table(client)
    post(client, "/practice/count", {"hand": hand, "hcp": "3", "distribution": "4"})
    answer(client, "2NT", hand)
    with client.session_transaction() as session:
        stored = session[SESSION_KEY]
    assert restore(stored) == Practice(**stored)
    assert restore({**stored, "answer": "None"}).chosen == NO_BID


def test_every_field_of_the_practice_is_checked_on_the_way_in():
    assert set(FIELD_CHECKS) == FIELD_NAMES == {field.name for field in fields(Practice)}


# The round looked back on, and sets by link -----------------------------------------------

@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_round_summary_lists_each_hand_the_answer_given_and_the_right_one(client, seed):
    client.get(f"/practice?set={seed}")
    hands = []
    for _ in range(len(TEACHING_RULES)):
        hand = hand_on_table(client)
        hands.append(hand)
        if len(hands) != 2:  # the second hand is skipped
            answer(client, wrong_bid(hand) if len(hands) == 1 else right_bid(hand), hand)
        post(client, "/practice/next", {"hand": hand})
    page = client.get("/practice").get_data(as_text=True)
    table = page.split('class="t-table t-review-table"')[1].split("</table>")[0]
    rows = re.findall(r"<tr class=\"(t-right-row|t-wrong-row)\">(.*?)</tr>", table, re.S)
    assert len(rows) == len(hands) - 1
    assert [number for number in re.findall(r'<th scope="row" class="num">(\d+)</th>',
                                            table)] == [str(n) for n in range(1, 9) if n != 2]
    first = text_of_html(rows[0][1])
    advice = explain(hands[0])
    assert rows[0][0] == "t-wrong-row" and rows[1][0] == "t-right-row"
    assert bid_text(advice.bid) in first
    given = wrong_bid(hands[0])
    assert bid_text(None if given == "None" else given) in first
    assert "Open" in first or "No bid" in first


def test_a_practice_set_by_link_deals_every_student_the_same_hands(app):
    first, second = app.test_client(), app.test_client()
    turn_on(second, natural="1")
    hands = []
    for client in (first, second):
        response = client.get("/practice?set=4242")
        assert response.status_code == 303
        assert "Practice set 4242" in text_of(client.get("/practice"))
        hands.append([hand_on_table(client)])
        post(client, "/practice/next", {"hand": hands[-1][0]})
        hands[-1].append(hand_on_table(client))
    assert hands[0] == hands[1]
    assert state_of(second).natural is False


def test_a_practice_set_by_rule_deals_its_rules(client):
    client.get("/practice?set=7&rule=r7,R3")
    assert state_of(client).focus == "R3,R7"
    assert explain(hand_on_table(client)).rule in ("R3", "R7")


@pytest.mark.parametrize("rules, dealt", [
    ("R3", ["R3"] * 8), ("R3,R7", ["R3"] * 4 + ["R7"] * 4)],
    ids=["one-rule", "two-rules"])
def test_a_practice_set_by_rule_deals_a_round_as_long_as_one_by_bid(client, rules, dealt):
    client.get(f"/practice?set=11&rule={rules}")
    assert sorted(play_round(client)) == dealt
    assert "Round over: 8 of 8 right" in text_of(client.get("/practice"))


@pytest.mark.parametrize("bids, written, opened", [
    ("1NT", "1NT", {"1NT"}),
    ("2nt", "2NT", {"2NT"}),
    ("1N,1nt", "1NT", {"1NT"}),
    ("2NT, 1NT", "1NT,2NT", {"1NT", "2NT"}),
    ("4S,None", "4S,None", {"4S", None}),
], ids=["1NT", "lower-case", "twice", "two", "preempt-and-no-bid"])
def test_a_practice_set_by_bid_deals_hands_that_open_those_bids(app, bids, written,
                                                                 opened):
    first, second = app.test_client(), app.test_client()
    turn_on(second, natural="1")
    rounds = []
    for client in (first, second):
        client.get(f"/practice?set=31&bid={bids}")
        assert state_of(client).bids == written
        assert "Practice set 31 of hands that open " in text_of(client.get("/practice"))
        hands = []
        while not state_of(client).between_rounds:
            hands.append(hand_on_table(client))
            post(client, "/practice/next", {"hand": hands[-1]})
        rounds.append(hands)
    assert rounds[0] == rounds[1]
    assert len(rounds[0]) >= len(TEACHING_RULES) and len(set(rounds[0])) == len(rounds[0])
    assert {explain(hand).bid for hand in rounds[0]} == opened
    post(first, "/practice/round")  # the next round: the same bids, other hands
    assert state_of(first).bids == written
    assert explain(hand_on_table(first)).bid in opened
    assert hand_on_table(first) not in rounds[0]


def test_a_round_of_the_ones_missed_leaves_the_set_of_bids(client):
    client.get("/practice?set=31&bid=1NT")
    while not state_of(client).between_rounds:
        hand = hand_on_table(client)
        answer(client, wrong_bid(hand), hand)
        post(client, "/practice/next", {"hand": hand})
    post(client, "/practice/round", {"missed": "1"})
    assert (state_of(client).bids, state_of(client).focus) == ("", "R1")


@pytest.mark.parametrize("query, message", [
    ("set=5&bid=1Z", "bid '1Z' is not a bid a hand opens: use one or more of 1C, 1D, 1H"),
    ("set=5&bid=1NT,7NT", "bid '7NT' is not a bid a hand opens"),
    ("set=5&bid=5C", "(such as bid=1NT or bid=1NT,2NT)"),
    ("set=5&rule=R3&bid=1C", "it names both rules and bids: a set deals by one or the "
                             "other, so keep rule= or bid="),
])
def test_a_practice_link_with_a_bid_no_hand_opens_says_which_are_accepted(client, query,
                                                                        message):
    client.get(f"/practice?{query}")
    assert message in text_of(client.get("/practice"))
    assert state_of_or_none(client) is None or state_of(client).bids == ""


def test_a_stored_practice_without_a_set_of_bids_reads_as_none_and_a_mixed_one_is_refused():
    stored = vars(Practice(base=3))
    del stored["bids"]
    assert restore(stored) == Practice(base=3)
    assert restore(vars(Practice(base=3, focus="R3", bids="1NT"))) is None
    assert restore(vars(Practice(base=3, bids="2NT,1NT"))) is None
    assert restore(vars(Practice(base=3, bids=7))) is None


@pytest.mark.parametrize("query, message", [
    ("set=x", "set 'x' is not a whole number"),
    ("set=5&rule=R4", "names no rule a round deals for"),
    ("set=5&rule=R99", "names no rule a round deals for"),
])
def test_a_practice_link_that_cannot_be_used_says_why(client, query, message):
    before = state_of_or_none(client)
    response = client.get(f"/practice?{query}")
    assert response.status_code == 303
    assert message in text_of(client.get("/practice"))
    assert before is None or state_of(client).base == before.base


def state_of_or_none(client):
    with client.session_transaction() as session:
        stored = session.get(SESSION_KEY)
    return Practice(**stored) if stored else None


# A new secret key -----------------------------------------------------------------------

def restarted(app, client):
    """The same site, restarted with another secret key; the student's client on it."""
    again = create_app({"TESTING": True, "SECRET_KEY": "another-key-after-the-restart",
                        "STATE_URL": app.config["STATE_URL"]})
    other = again.test_client()
    other.set_cookie("session", client.get_cookie("session").value)
    return other


def test_a_form_sent_after_a_restart_with_a_new_key_says_the_score_could_not_be_kept(
        app, client):
    hand = hand_on_table(client)
    token = csrf_token(client)
    other = restarted(app, client)
    response = other.post("/practice/answer", data={"csrf_token": token, "hand": hand,
                                                    "bid": "1C"})
    assert response.status_code == 400
    page = text_of(response)
    assert "The site restarted; your score could not be kept." in page
    assert "reload the page to start a fresh practice" in page


def test_the_practice_page_after_a_restart_says_so_once(app, client):
    answer(client, "1C", hand_on_table(client))
    other = restarted(app, client)
    page = text_of(other.get("/practice"))
    assert "The site restarted; your score could not be kept. Here is a fresh practice." in page
    assert "Bids right: 0 of 0" in page
    assert "The site restarted" not in text_of(other.get("/practice"))


def test_a_form_without_any_cookie_still_says_it_expired(app):
    response = app.test_client().post("/practice/answer", data={"hand": "x", "bid": "1C"})
    assert "This form has expired" in text_of(response)
