"""What each misreading changes, counted over all hands, and checked two other ways: by
brute force on a seeded sample, and exactly by hand where the change can be enumerated."""

from itertools import islice
from math import sqrt

import pytest

from bidder import packed
from bidder.dealing import hand_stream
from bidder.exact import ALL_HANDS, exact_statistics, changes
from bidder.variants import CATALOGUE, VARIANT_BY_ID

# Each test here counts over a sample of hands or over every hand: seconds each.
pytestmark = pytest.mark.slow
# Samples of a million hands against the exact counts are not traced by coverage (tracing
# makes them about three times slower); the counting itself is covered by test_exact.py.
SAMPLED = pytest.mark.no_cover

SAMPLE = 60_000


@pytest.fixture(scope="module")
def sample():
    codes = [packed.encode_deal(indexes) for indexes in islice(hand_stream(2024), SAMPLE)]
    return codes, [packed.decide(code)[1] for code in codes]


@SAMPLED
@pytest.mark.parametrize("variant", CATALOGUE, ids=[variant.id for variant in CATALOGUE])
def test_the_exact_count_agrees_with_a_sample_within_four_standard_errors(variant, sample):
    codes, ours = sample
    seen = sum(variant.written(packed.decide(code, variant.rules, variant.counting)[1]) != bid
               for code, bid in zip(codes, ours))
    share = changes(variant).hands / ALL_HANDS
    error = sqrt(share * (1 - share) / SAMPLE)
    assert abs(seen / SAMPLE - share) <= 4 * error + 1 / SAMPLE


def by_bid():
    return dict(exact_statistics().by_bid)


@pytest.mark.parametrize("variant_id, expected", [
    ("r8-6-8", lambda counts: 0),
    ("none-as-string", lambda counts: counts[None]),
    ("pass-as-string", lambda counts: counts[None]),
    ("no-trump-as-n", lambda counts: counts["1NT"] + counts["2NT"]),
    ("lower-case-bids", lambda counts: ALL_HANDS - counts[None]),
], ids=["r8-6-8", "none-as-string", "pass-as-string", "no-trump-as-n", "lower-case-bids"])
def test_changes_that_can_be_enumerated_by_hand_are_exact(variant_id, expected):
    assert changes(VARIANT_BY_ID[variant_id]).hands == expected(by_bid())


def test_no_2nt_changes_exactly_the_2nt_hands():
    changed = changes(VARIANT_BY_ID["no-2nt"])
    assert changed.hands == by_bid()["2NT"]
    assert {old for old, _, _ in changed.by_pair} == {"2NT"}


def test_changes_are_by_pair_most_first_and_as_data():
    changed = changes(VARIANT_BY_ID["r3-unbalanced-only"])
    counts = [count for _, _, count in changed.by_pair]
    assert counts == sorted(counts, reverse=True)
    assert changed.by_pair[0][:2] == ("1C", None)
    data = changed.to_dict()
    assert data["hands"] == changed.hands == sum(pair["count"] for pair in data["by_pair"])
    assert 0.07 < changed.hands / ALL_HANDS < 0.08


def test_dealing_a_changed_hand_gives_up_after_the_search(monkeypatch):
    from bidder import dealing

    monkeypatch.setattr(dealing, "SEARCH_LIMIT", 10)
    with pytest.raises(dealing.DealError, match="eight-or-more answers the first 10 hands "
                                                "dealt for seed 1 as the assignment does"):
        dealing.deal_changed(1, VARIANT_BY_ID["eight-or-more"])


HONOURS = ["hcp.J=0", "hcp.A=3", "hcp.T=1", "R6.choose=no-length-step+hcp.J=0"]


@SAMPLED
@pytest.mark.parametrize("variant_id", HONOURS)
def test_honour_misreadings_are_counted_exactly_as_a_sample_sees_them(variant_id, sample):
    from bidder.misreadings import variant_by_id

    test_the_exact_count_agrees_with_a_sample_within_four_standard_errors(
        variant_by_id(variant_id), sample)


@SAMPLED  # every hand counted, twice
@pytest.mark.parametrize("variant_id", ["R6.choose=no-hcp-step", "R1.hcp=15-18", "omit=R2"])
def test_a_scale_that_reads_as_the_assignments_changes_nothing_more(variant_id):
    # the ten read as worth nothing is the assignment's scale, written out: counted on
    # the joint scale, it changes exactly the hands the misreading alone changes
    from bidder.misreadings import variant_by_id

    alone = changes(variant_by_id(variant_id))
    assert changes(variant_by_id(variant_id + "+hcp.T=0")).by_pair == alone.by_pair
