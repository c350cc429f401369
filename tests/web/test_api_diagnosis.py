"""POST /api/diagnosis: the diagnostic round over the API, stateless, every bad answer a 400
that names its place and field."""

import json

import pytest
from jsonschema import Draft202012Validator

from bidder.cards import EXAMPLE_HAND as HAND
from bidder.diagnosis import Answer, diagnose
from bidder.diagnosis.rounds import MAX_ANSWERS
from bidder.bids import Bid
from bidder.cards import parse_hand
from bidder.web.openapi import openapi_document

GOOD = {"hand": HAND, "bid": "1NT", "hcp": 16, "distribution": 0}


def schema(name):
    """A schema of the OpenAPI document, its references resolvable."""
    document = openapi_document()
    return {**document["components"]["schemas"][name],
            "components": document["components"]}


def test_no_answers_start_a_round_with_a_hand_to_ask(client):
    response = client.post("/api/diagnosis", json={"answers": []})
    assert response.status_code == 200
    body = response.get_json()
    assert body == json.loads(json.dumps(diagnose([]).to_dict()))
    assert body["named"] is None and body["next"]["hands"]
    Draft202012Validator(schema("Diagnosis")).validate(body)


@pytest.mark.parametrize("answer", [
    GOOD, {"hand": HAND, "bid": None}, {"hand": HAND, "bid": "1nt", "hcp": None},
    {"hand": "as ks qs js ts 9s 8s ah kh qh ad kd ac", "bid": "Pass"},
], ids=["bid and both counts", "no opening", "a bid in lower case, a count null",
        "a hand in lower case, no bid as Pass"])
def test_an_answer_is_read_as_the_core_reads_it(client, answer):
    response = client.post("/api/diagnosis", json={"answers": [answer]})
    assert response.status_code == 200
    hand = parse_hand(answer["hand"])
    bid = None if answer["bid"] in (None, "Pass") else Bid.parse(answer["bid"])
    assert response.get_json() == json.loads(json.dumps(diagnose(
        [Answer(hand, bid, answer.get("hcp"), answer.get("distribution"))]).to_dict()))
    Draft202012Validator(openapi_document()["paths"]["/api/diagnosis"]["post"][
        "requestBody"]["content"]["application/json"]["schema"]).validate(
        {"answers": [answer]})


@pytest.mark.parametrize("body, code, words", [
    ([], "not_answers", "not a list"),
    ({}, "not_answers", "no fields"),
    ({"answers": [], "extra": 1}, "not_answers", "'answers', 'extra'"),
    ({"answers": {}}, "answers_not_a_list", "not an object"),
    ({"answers": [GOOD] * (MAX_ANSWERS + 1)}, "too_many_answers", f"at most {MAX_ANSWERS}"),
    ({"answers": [GOOD, 3]}, "answer_not_an_object", "answers[1] must be an object"),
    ({"answers": [{**GOOD, "colour": "red"}]}, "unknown_field", "answers[0] has 'colour'"),
    ({"answers": [{"bid": "1NT"}]}, "missing_hand", "answers[0] has no 'hand'"),
    ({"answers": [{"hand": HAND}]}, "missing_bid", "answers[0] has no 'bid'"),
    ({"answers": [{"hand": 7, "bid": None}]}, "hand_not_a_string", "answers[0].hand"),
    ({"answers": [{"hand": "AS KS", "bid": None}]}, "wrong_count", "answers[0].hand: "),
    ({"answers": [{"hand": HAND, "bid": 1}]}, "bid_not_a_string", "answers[0].bid"),
    ({"answers": [{"hand": HAND, "bid": "9Z"}]}, "bad_bid", "answers[0].bid: '9Z'"),
    ({"answers": [{**GOOD, "hcp": -1}]}, "bad_count", "answers[0].hcp"),
    ({"answers": [{**GOOD, "hcp": 41}]}, "bad_count", "from 0 to 40"),
    ({"answers": [{**GOOD, "distribution": 2.5}]}, "bad_count", "answers[0].distribution"),
    ({"answers": [{**GOOD, "hcp": True}]}, "bad_count", "True"),
], ids=["a list", "no answers field", "another field", "answers an object",
        "one answer over the budget", "an answer a number", "an unknown field",
        "no hand", "no bid", "a hand a number", "a hand of two cards", "a bid a number",
        "not a bid", "a count below 0", "a count above the most", "a count not whole",
        "a count true"])
def test_every_bad_body_is_a_400_saying_what_and_where(client, body, code, words):
    response = client.post("/api/diagnosis", json=body)
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error["code"] == code
    assert words in error["message"]


@pytest.mark.parametrize("count, status", [(MAX_ANSWERS, 200), (MAX_ANSWERS + 1, 400)],
                         ids=["at the budget", "past it"])
def test_the_answer_budget_holds_from_both_sides(app, count, status):
    app.config["MAX_CONTENT_LENGTH"] = 1 << 20
    response = app.test_client().post("/api/diagnosis", json={"answers": [
        {"hand": HAND, "bid": "1NT"}] * count})
    assert response.status_code == status


@pytest.mark.parametrize("send, status, code", [
    (lambda client: client.post("/api/diagnosis", data="answers"), 415,
     "unsupported_media_type"),
    (lambda client: client.post("/api/diagnosis", data="{", content_type="application/json"),
     400, "bad_json"),
    (lambda client: client.get("/api/diagnosis"), 405, None),
], ids=["not json", "broken json", "a get"])
def test_a_body_that_is_not_json_is_refused(client, send, status, code):
    response = send(client)
    assert response.status_code == status
    if code:
        assert response.get_json()["error"]["code"] == code


def test_past_its_limit_a_client_gets_429(tmp_path):
    from bidder.web import create_app
    from helpers import TEST_SECRET_KEY
    app = create_app({"TESTING": True, "SECRET_KEY": TEST_SECRET_KEY,
                      "STATE_URL": f"sqlite:///{tmp_path / 'state.sqlite3'}",
                      "DIAGNOSIS_RATE_LIMIT": "2 per minute"})
    client = app.test_client()
    statuses = [client.post("/api/diagnosis", json={"answers": []}).status_code
                for _ in range(3)]
    assert statuses == [200, 200, 429]


def test_the_door_is_in_the_openapi_document():
    post = openapi_document()["paths"]["/api/diagnosis"]["post"]
    assert {"200", "400", "413", "415", "429"} <= set(post["responses"])
