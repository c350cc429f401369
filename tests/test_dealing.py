"""Dealing to order and statistics: reproducible, fast to find rare hands, honest about R4."""

import pytest

from bidder import RULE_BY_ID, openingBid, explain
from bidder.bids import RULE_BIDS
from bidder.dealing import (MAX_COUNT, MAX_STATS_HANDS, DealError, Statistics,
                            check_request, deal, deal_set, hand_stream, parse_rule,
                            random_hand, reachable_bids, statistics)


def test_the_same_seed_gives_the_same_hand():
    assert random_hand(7) == random_hand(7)
    assert random_hand(7) != random_hand(8)
    assert str(random_hand(1)) == "5S 2S JH 8H 3H 2H KD 9D 8D 2D JC 10C 2C"


def test_a_stream_deals_four_different_hands_from_each_deck():
    stream = hand_stream(3)
    deck = [index for _ in range(4) for index in next(stream)]
    assert sorted(deck) == list(range(52))


@pytest.mark.parametrize("bid", [bid.text for bid in RULE_BIDS])
def test_deal_finds_a_hand_for_every_bid(bid):
    hand = deal(11, bid=bid)
    assert openingBid(str(hand)) == bid


@pytest.mark.parametrize("rule_id", ["R1", "R2", "R3", "R5", "R6", "R7", "R8", "R9"])
def test_deal_finds_a_hand_for_every_reachable_rule(rule_id):
    rule = RULE_BY_ID[rule_id]
    hand = deal(5, rule=rule)
    assert explain(hand).rule == rule_id


def test_deal_with_a_bid_and_a_rule():
    hand = deal(2, bid="4H", rule=RULE_BY_ID["R8"])
    assert (explain(hand).bid, explain(hand).rule) == ("4H", "R8")


def test_deal_any_hand_is_the_first_hand():
    assert deal(9) == random_hand(9)


@pytest.mark.parametrize("bid, rule_id, code, message", [
    (..., "R4", "unreachable", "no hand fires R4: R3 always applies first"),
    ("1NT", "R2", "mismatch", "R2 never bids 1NT: it bids 1H or 1S"),
    (None, "R1", "mismatch", "R1 never bids None: it bids 1NT"),
])
def test_impossible_requests_are_refused_at_once(bid, rule_id, code, message):
    with pytest.raises(DealError) as raised:
        deal(1, bid=bid, rule=RULE_BY_ID[rule_id])
    assert raised.value.code == code
    assert raised.value.message.startswith(message)


def test_check_request_accepts_a_possible_request():
    assert check_request("2NT", RULE_BY_ID["R5"]) is None


def test_a_search_that_runs_out_says_so(monkeypatch):
    monkeypatch.setattr("bidder.dealing.SEARCH_LIMIT", 3)
    with pytest.raises(DealError, match="no such hand in the first 3 dealt for seed 1"):
        deal(1, bid="4S")


def test_deal_set_gives_one_hand_per_seed():
    hands = deal_set(3, 40, bid="1NT")
    assert [seed for seed, _ in hands] == [40, 41, 42]
    assert all(openingBid(str(hand)) == "1NT" for _, hand in hands)
    assert hands[1][1] == deal(41, bid="1NT")


@pytest.mark.parametrize("count", [0, -1, MAX_COUNT + 1, 10_000])
def test_deal_set_refuses_a_bad_count(count):
    with pytest.raises(DealError, match=f"ask for 1 to {MAX_COUNT} hands") as raised:
        deal_set(count, 1)
    assert raised.value.code == "bad_count"


def test_parse_rule():
    assert parse_rule(" r8 ") is RULE_BY_ID["R8"]
    with pytest.raises(DealError, match="is not a rule"):
        parse_rule("\u0280" + "8")
    with pytest.raises(DealError, match="'R10' is not a rule: choose one of R1 to R9"):
        parse_rule("R10")


def test_every_bid_the_rules_make_is_reachable():
    assert reachable_bids() == RULE_BIDS


def test_statistics_are_reproducible_and_add_up():
    first = statistics(2000, 5)
    assert first is statistics(2000, 5)
    assert first == statistics.__wrapped__(2000, 5)
    assert sum(count for _, count in first.by_bid) == 2000
    assert sum(count for _, count in first.by_rule) == 2000
    assert dict(first.by_rule)["R4"] == 0
    by_hcp = {bid: sum(counts) for bid, counts in first.hcp_by_bid}
    assert by_hcp == {bid: count for bid, count in first.by_bid if count}


def test_statistics_count_what_explain_says():
    stats = statistics(400, 9)
    stream = hand_stream(9)
    advices = [explain(random_hand_from(stream)) for _ in range(400)]
    for bid, count in stats.by_bid:
        assert count == sum(advice.bid == bid for advice in advices)
    overlaps = {(fired, shadowed): count for fired, shadowed, count in stats.overlaps}
    for (fired, shadowed), count in overlaps.items():
        assert count == sum(
            advice.rule == fired and advice.trace[int(shadowed[1:]) - 1].status == "shadowed"
            for advice in advices)


def random_hand_from(stream):
    from bidder.cards import DECK, Hand
    return Hand(tuple(DECK[index] for index in next(stream)))


def test_about_64_percent_of_hands_open_nothing():
    stats = statistics(20_000, 1)
    assert 62 < stats.share(dict(stats.by_bid)[None]) < 66


def test_statistics_to_dict():
    data = statistics(100, 1).to_dict()
    assert (data["hands"], data["seed"]) == (100, 1)
    assert data["by_bid"][-1]["bid"] is None
    assert len(data["hcp_by_bid"][0]["hcp_counts"]) == 38


@pytest.mark.parametrize("hands", [0, -5, MAX_STATS_HANDS + 1])
def test_statistics_refuse_a_bad_count(hands):
    with pytest.raises(DealError, match="ask for 1 to 1,000,000 hands"):
        statistics(hands, 1)


def test_statistics_is_a_frozen_value():
    assert isinstance(statistics(10, 1), Statistics)
    with pytest.raises(AttributeError):
        statistics(10, 1).hands = 3
