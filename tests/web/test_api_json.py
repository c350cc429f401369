"""The API's answer: the advice's JSON, in one line of ASCII, its keys in to_dict's order."""

import json

from bidder import explain

HAND = "5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C"


def test_the_advice_is_to_dict_as_json(client):
    response = client.get("/api/bid", query_string={"hand": HAND})
    text = response.get_data(as_text=True)
    assert (response.status_code, response.mimetype) == (200, "application/json")
    assert json.loads(text) == explain(HAND).to_dict()
    assert list(json.loads(text)) == list(explain(HAND).to_dict())
    assert text.endswith("}\n") and text.count("\n") == 1 and '"\\u2660"' in text
    assert response.data.isascii()


def test_a_posted_hand_gets_the_same_answer(client):
    asked = client.get("/api/bid", query_string={"hand": HAND}).get_data()
    assert client.post("/api/bid", json={"hand": HAND}).get_data() == asked
