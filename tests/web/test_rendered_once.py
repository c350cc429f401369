"""What does not change is rendered once: the rules page, a seeded deal, the parts of an
advice that only the hand's tally or one suit's cards decide; and no session is signed
for nothing."""

import pytest

from bidder.web import create_app
from bidder.web.advisor import rules_page
from bidder.dealing import random_hand
from bidder.web.teach import PAGES

from helpers import TEST_SECRET_KEY

# Two hands with the same suit lengths and HCP, different cards: one tally, one decision.
SAME_TALLY = ("5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C",
              "6C 7H AS JD 9D 3C KH 10H 4C 8H 8C AD 10C")


def test_the_rules_page_is_the_same_bytes_every_time(client):
    first = client.get("/rules").get_data()
    assert client.get("/rules?anything=1").get_data() == first
    assert rules_page.cache_info().hits >= 1


def test_each_app_renders_its_own_rules_page(tmp_path):
    pages = set()
    for number in range(2):
        app = create_app({"TESTING": True, "SECRET_KEY": TEST_SECRET_KEY,
                          "STATE_URL": f"sqlite:///{tmp_path / f'ledger{number}'}"})
        with app.test_request_context("/rules"):
            pages.add(id(rules_page(app)))
    assert len(pages) == 2


@pytest.mark.parametrize("first, again", [
    ("/deal?bid=2NT&seed=7", "/deal?seed=7&bid=2NT"),
    ("/deal?rule=R8&seed=3&hide=1", "/deal?hide=1&seed=3&rule=R8"),
    ("/deal?print=1&seed=5", "/deal?seed=5&print=1"),
], ids=["one-hand", "hidden", "printed-set"])
def test_a_seeded_deal_is_rendered_once_whatever_the_order_of_its_query(
        client, first, again):
    before = PAGES.hits
    page = client.get(first)
    assert page.status_code == 200
    assert client.get(again).get_data() == page.get_data()
    assert PAGES.hits == before + 1


def test_a_bad_deal_request_is_never_kept(client):
    assert client.get("/deal?bid=9NT&seed=1").status_code == 400
    assert client.get("/deal?bid=9NT&seed=1").status_code == 400


def advisor_page(client, hand) -> str:
    """The advisor's page for *hand*."""
    response = client.get("/", query_string={"hand": str(hand)})
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_a_page_built_from_parts_kept_for_other_hands_is_this_hands_own(client, tmp_path):
    hands = [*map(random_hand, range(40)), *SAME_TALLY]
    warm = {hand: advisor_page(client, hand) for hand in hands}  # parts shared as they come
    for number, hand in enumerate(hands):
        fresh = create_app({"TESTING": True, "SECRET_KEY": TEST_SECRET_KEY,
                            "STATE_URL": f"sqlite:///{tmp_path / f'ledger{number}'}"})
        assert advisor_page(fresh.test_client(), hand) == warm[hand]  # its first page
    assert warm[SAME_TALLY[0]] != warm[SAME_TALLY[1]]  # one tally, other cards


@pytest.mark.parametrize("path", [
    "/api/bid?hand=5C+7H+AS+JD+9D+2C+KH+10H+4C+8H+8C+AD+10C", "/rules", "/api/ping",
    "/?hand=5C+7H+AS+JD+9D+2C+KH+10H+4C+8H+8C+AD+10C",
])
def test_a_request_without_a_session_gets_no_cookie(client, path):
    response = client.get(path)
    assert response.status_code == 200
    assert "Set-Cookie" not in response.headers


def test_a_session_still_travels_in_its_cookie(client):
    client.get("/practice")
    assert client.get_cookie("session") is not None
    assert client.get("/practice").status_code == 200
