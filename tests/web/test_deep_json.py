"""Deeply nested JSON is a 400 saying so at every JSON door, never a 500: one
mechanism, in the request's JSON parsing (bidder.web.app.Request.get_json)."""

from __future__ import annotations

import json

import pytest

from helpers import NESTED_JSON

HAND = "AS KH 10H 8H 7H AD JD 9D 10C 8C 5C 4C 2C"
SHALLOW = "[" * 50 + "]" * 50  # JSON, and not an object: refused as that


@pytest.fixture
def poll(client):
    """(code, admin token) of a poll opened on HAND."""
    made = client.post("/api/polls", json={"hand": HAND}).get_json()
    return made["code"], made["admin"]


def doors(code: str, admin: str) -> list[tuple[str, dict]]:
    """Every door that reads a JSON body: its path and headers."""
    bearer = {"Authorization": f"Bearer {admin}"}
    return [("/api/bid", {}), ("/api/polls", {}), (f"/api/polls/{code}/votes", {}),
            (f"/api/polls/{code}/rounds", bearer)]


@pytest.mark.parametrize("place", range(4), ids=["advice", "new poll", "vote",
                                                 "next round"])
@pytest.mark.parametrize("body, said", [
    (NESTED_JSON, "nested too deeply"),
    (SHALLOW, "object"),
], ids=["nested 7,000 deep: refused as too deep", "nested 50 deep: read, not an object"])
def test_every_json_door_refuses_deep_nesting_with_a_400(client, poll, place, body, said):
    path, headers = doors(*poll)[place]
    response = client.post(path, data=body, content_type="application/json",
                           headers=headers)
    assert response.status_code == 400
    assert said in response.get_json()["error"]["message"]


def test_a_door_still_reads_a_flat_body(client, poll):
    code, _ = poll
    assert client.post(f"/api/polls/{code}/join").status_code == 200
    response = client.post(f"/api/polls/{code}/votes", data=json.dumps({"bid": "1C"}),
                           content_type="application/json")
    assert response.status_code == 200
