"""JSON answers: written by orjson, read back the same as the standard library writes them."""

import datetime
import decimal
import json

import pytest
from flask import jsonify

from bidder import explain

HAND = "5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C"


def test_the_advice_is_the_same_json_as_the_standard_library_writes(client):
    response = client.get("/api/bid", query_string={"hand": HAND})
    text = response.get_data(as_text=True)
    assert response.mimetype == "application/json"
    assert json.loads(text) == json.loads(json.dumps(explain(HAND).to_dict()))
    assert list(json.loads(text)) == list(explain(HAND).to_dict())  # the order given
    assert '"♠"' in text and text.endswith("}\n")  # UTF-8 as is, one line


@pytest.mark.parametrize("args, kwargs, expected", [
    ((), {}, None),
    ((1,), {}, 1),
    ((1, "two"), {}, [1, "two"]),
    ((), {"b": 1, "a": [2]}, {"b": 1, "a": [2]}),
    (({"when": datetime.date(2026, 11, 24), "cost": decimal.Decimal("1.5")},), {},
     {"when": "Tue, 24 Nov 2026 00:00:00 GMT", "cost": "1.5"}),
], ids=["nothing", "one", "several", "keywords", "flask-defaults"])
def test_jsonify_answers_what_flask_answers(app, args, kwargs, expected):
    with app.app_context():
        response = jsonify(*args, **kwargs)
        assert json.loads(response.get_data()) == expected
        assert app.json.loads(app.json.dumps(expected)) == expected


def test_jsonify_takes_values_or_keywords_not_both(app):
    with app.app_context(), pytest.raises(TypeError, match="not both"):
        jsonify(1, a=2)
