"""The live poll's next hand chosen to split the class: the room's votes read as students,
sampled past a bound, and the diagnosis's choice over them, from the projector's form."""

import pytest

from bidder.cards import parse_hand
from bidder.web.live import ledger, splitting
from bidder.web.live.splitting import MOST_ROUNDS, class_answers, sampled, split_hand
from bidder.web.state import store_of

from test_pages import HAND, app, joined_phone, open_poll, steer  # noqa: F401 (fixture)

OTHER = "AS KS QS 2S AH 3H 2H KD QD 2D 4C 3C 2C"  # 17 HCP, balanced: 1NT


def vote(phone, code, bid):
    assert phone.post(f"/live/{code}/vote", data={"bid": bid}).status_code == 303


def test_the_projector_offers_the_hand_chosen_to_split_the_class(app):
    teacher, code = open_poll(app)
    steer(teacher, code, "reveal")
    page = teacher.get(f"/live/{code}/host").get_data(as_text=True)
    assert "The next hand chosen to split the class" in page
    assert "The next hand chosen to split the class" not in app.test_client().get(
        "/live").get_data(as_text=True)


def test_the_next_hand_chosen_to_split_the_class_is_the_diagnosis_choice(app):
    teacher, code = open_poll(app)
    phones = [joined_phone(app, code) for _ in range(3)]
    for phone, bid in zip(phones, ("1C", "1H", "None")):
        vote(phone, code, bid)
    steer(teacher, code, "reveal")
    steer(teacher, code, "next", source="split")
    poll, status = ledger.load(store_of(app), code)
    hand = poll.rounds[0].hand
    students = ((hand, "1C"),), ((hand, "1H"),), ((hand, None),)
    assert status.round == 1 and poll.rounds[1].hand == split_hand(students)
    assert poll.rounds[1].hand != poll.rounds[0].hand


def test_the_class_is_read_as_each_devices_last_bid_on_each_hand(app):
    teacher, code = open_poll(app)
    first, second = joined_phone(app, code), joined_phone(app, code)
    vote(first, code, "1C")
    vote(second, code, "1H")
    steer(teacher, code, "reveal")
    steer(teacher, code, "again")
    vote(first, code, "1H")
    steer(teacher, code, "reveal")
    steer(teacher, code, "next", source="pasted", hand=OTHER)
    vote(first, code, "1NT")
    poll, status = ledger.load(store_of(app), code)
    read = class_answers(store_of(app), poll, status)
    first, other = poll.rounds[0].hand, poll.rounds[2].hand
    assert sorted(read) == sorted([((first, "1H"), (other, "1NT")), ((first, "1H"),)])


def test_only_the_last_votes_are_read(app, monkeypatch):
    monkeypatch.setattr(splitting, "MOST_ROUNDS", 1)
    teacher, code = open_poll(app)
    phone = joined_phone(app, code)
    vote(phone, code, "1C")
    steer(teacher, code, "reveal")
    steer(teacher, code, "next", source="pasted", hand=OTHER)
    vote(phone, code, "1NT")
    poll, status = ledger.load(store_of(app), code)
    assert class_answers(store_of(app), poll, status) == (((poll.rounds[1].hand, "1NT"),),)
    assert MOST_ROUNDS > 1


A, B, C = ((HAND, "1C"),), ((HAND, "1H"),), ((HAND, None),)


@pytest.mark.parametrize("students, most, kept", [
    ((A, B), 2, (A, B)),
    ((A, A, A, B), 3, (A, A, B)),
    ((A,) * 9 + (B,), 4, (A, A, A, A, B)),
    ((A, A, B, C), 2, (A, B, C)),
], ids=["a room at the bound is read whole", "past it, in proportion",
        "a rare way of answering is kept once", "every way of answering is kept"])
def test_a_large_room_is_sampled_in_proportion(students, most, kept):
    assert sampled(students, most) == kept


def test_an_empty_room_still_gets_a_hand():
    assert len(parse_hand(split_hand(())).cards) == 13


def api_poll(app):
    """A poll opened through the API, three phones voting 1C, 1H and no bid on its hand
    and the vote revealed: the client, its code and the admin header."""
    client = app.test_client()
    answer = client.post("/api/polls", json={"hand": HAND}).json
    code, admin = answer["code"], {"Authorization": f"Bearer {answer['admin']}"}
    for bid in ("1C", "1H", None):
        phone = app.test_client()
        assert phone.post(f"/api/polls/{code}/join").status_code == 200
        assert phone.post(f"/api/polls/{code}/votes", json={"bid": bid}).status_code == 200
    assert client.post(f"/api/polls/{code}/reveal", headers=admin).status_code == 200
    return client, code, admin


def test_the_api_s_next_round_may_be_the_hand_chosen_to_split_the_class(app):
    client, code, admin = api_poll(app)
    moved = client.post(f"/api/polls/{code}/rounds", headers=admin, json={"split": True})
    assert moved.status_code == 200 and moved.json["round"] == 1
    students = ((HAND, "1C"),), ((HAND, "1H"),), ((HAND, None),)
    assert moved.json["hand"] == split_hand(students) != HAND


@pytest.mark.parametrize("body, round_, hand", [
    ({"split": False}, 1, HAND),
    ({"split": False, "hand": OTHER}, 1, OTHER),
    ({"split": None}, 1, HAND),
], ids=["split false: the same hand again", "split false with a hand: that hand",
        "split null: the same hand again"])
def test_split_false_or_null_is_as_if_left_out(app, body, round_, hand):
    client, code, admin = api_poll(app)
    moved = client.post(f"/api/polls/{code}/rounds", headers=admin, json=body)
    assert moved.status_code == 200 and moved.json["round"] == round_
    assert parse_hand(moved.json["hand"]) == parse_hand(hand)


@pytest.mark.parametrize("body, code_, said", [
    ({"split": True, "hand": OTHER}, "hand_and_split", "send a hand or split, not both"),
    ({"split": "yes"}, "bad_split", "send split as true or false"),
    ({"split": 1}, "bad_split", "send split as true or false"),
], ids=["both", "a string", "a number"])
def test_a_bad_split_is_refused_saying_what_to_send(app, body, code_, said):
    client, code, admin = api_poll(app)
    refused = client.post(f"/api/polls/{code}/rounds", headers=admin, json=body)
    assert refused.status_code == 400
    error = refused.json["error"]
    assert error["code"] == code_ and error["message"].startswith(said)
    assert '{"split": true}' in error["message"]
