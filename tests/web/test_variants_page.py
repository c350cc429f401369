"""The variants page: the catalogue, a misreading beside the assignment, its exact count."""

import html
import re

import pytest

from bidder.misreadings import changes_of as changes
from bidder.variants import CATALOGUE, VARIANT_BY_ID
from bidder.web.variants import differences, written_form

from markup import bids_read, page_text


def text(response) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ",
                                                      response.get_data(as_text=True))))


def test_the_catalogue_lists_every_variant(client):
    response = client.get("/variants")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    for variant in CATALOGUE:
        assert f'href="/variants?variant={variant.id}"' in page


def test_a_variant_shows_its_rule_beside_the_assignments_and_the_exact_count(client):
    response = client.get("/variants?variant=balanced-first")
    words = text(response)
    assert response.status_code == 200
    assert "R1 R2 R3 R4 R5 R6 R7 R8 R9" in words and "R1 R4 R5 R2 R3 R6 R7 R8 R9" in words
    assert f"{changes(VARIANT_BY_ID['balanced-first']).hands:,}" in words
    assert words.count("this reading gives") == 3
    assert 'href="/?hand=' in response.get_data(as_text=True)


def test_a_variant_that_changes_no_hand_says_so(client):
    words = text(client.get("/variants?variant=r8-6-8"))
    assert "It changes no hand" in words
    assert "6-10 HCP and exactly 8 cards in some suit" in words


def test_an_output_misreading_shows_the_text_it_writes(client):
    words = text(client.get("/variants?variant=none-as-string"))
    assert "'None'" in words and "how a bid is written" in words


@pytest.mark.parametrize("query, message", [
    ("made-up", "variant: 'made-up' is not a misreading: write a catalogue name "
                "(balanced-first"),
    ("R1.hcp%3D9-x", "variant: R1.hcp=9-x: '9-x' is not a range"),
    ("R1" * 200, "variant: an id of 400 characters is too long"),
])
def test_an_unknown_variant_is_a_400_that_says_what_is_valid(client, query, message):
    response = client.get(f"/variants?variant={query}")
    assert response.status_code == 400
    assert message in text(response)


def test_a_generated_misreading_has_its_page(client):
    page = client.get("/variants").get_data(as_text=True)
    assert 'href="/variants?variant=R1.hcp%3D15-18"' in page
    response = client.get("/variants?variant=R1.hcp%3D15-18%2Bbalanced%3Dwith-4441")
    words = text(response)
    assert response.status_code == 200
    assert "1NT (R1) is read as needing 15-18 HCP. 4-4-4-1 is read as balanced." in words
    assert "R1 a balanced hand and 16-18 HCP a balanced hand and 15-18 HCP" in words
    assert "how a bid is written" not in words
    assert "balanced shapes none beyond those 4-4-4-1 as well" in words
    assert words.count("this reading gives") == 3
    assert "It changes no hand" in text(client.get("/variants?variant=R6.points%3D21%2B"))


@pytest.mark.parametrize("variant_id, where", [
    ("r3-unbalanced-only", ["R3"]), ("no-2nt", ["R5"]),
    ("two-suiter-any-strength", ["R6b"]), ("shortness-points", ["distribution points"]),
    ("five-card-major-balanced", ["balanced 5-3-3-2"]),
    ("equal-minors-diamonds", ["R3"]),
])
def test_differences_name_each_place_a_variant_departs(variant_id, where):
    assert [difference.what for difference in differences(VARIANT_BY_ID[variant_id])] == where


def test_an_honours_misreading_shows_its_scale_beside_the_assignments(client):
    words = text(client.get("/variants?variant=hcp.J%3D0"))
    assert "The jack is counted as 0 HCP; the assignment counts it 1." in words
    assert "high card points A 4, K 3, Q 2, J 1 A 4, K 3, Q 2, J 0" in words
    assert "It changes no hand" not in words


@pytest.mark.parametrize("variant_id, where", [("hcp.A=3", ["high card points"])])
def test_a_generated_misreading_departs_where_its_id_says(variant_id, where):
    from bidder.misreadings import variant_by_id

    assert [difference.what for difference in differences(variant_by_id(variant_id))] == where


@pytest.mark.parametrize("value, shown", [("1C", "1C"), (None, "None"), ("None", "'None'"),
                                          ("1c", "'1c'")])
def test_written_form(value, shown):
    assert str(written_form(value)) == shown


def test_bids_in_a_variants_sentences_look_like_bids(client):
    variant = next(item for item in CATALOGUE if BID.search(item.sentence))
    page = page_text(client.get(f"/variants?variant={variant.id}").get_data(as_text=True))
    assert bids_read(variant.sentence) in page
    assert variant.sentence not in page


BID = re.compile(r"(?<![\w-])[1-7](?:NT|[CDHS])(?!\w)")
