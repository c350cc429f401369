"""A sample beside the exact figures: Wilson's interval, the rows of each table, and how
often an interval misses."""

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bidder.comparison import Z, Comparison, Interval, wilson_interval
from bidder.dealing import statistics
from bidder.exact import exact_statistics

EXACT = exact_statistics()


@pytest.mark.parametrize("count, hands, low, high", [
    (0, 10, 0.0, 100 * Z * Z / (10 + Z * Z)),
    (10, 10, 100 * 10 / (10 + Z * Z), 100.0),
    (50, 100, 40.383, 59.617),
    (1, 1000, 0.0177, 0.5643),
], ids=["none seen: the upper end is z²/(n + z²)", "all seen: the mirror image",
        "half of 100", "a rare opening, once in 1,000"])
def test_wilson_interval_matches_the_textbook(count, hands, low, high):
    interval = wilson_interval(count, hands)
    assert interval.low == pytest.approx(low, abs=5e-4)
    assert interval.high == pytest.approx(high, abs=5e-4)


def test_95_percent_is_z_1_96():
    assert Z == pytest.approx(1.959964, abs=1e-6)


@given(st.integers(1, 10 ** 6).flatmap(lambda hands: st.tuples(st.integers(0, hands),
                                                                st.just(hands))))
def test_an_interval_holds_the_share_seen_and_stays_within_0_and_100(seen):
    count, hands = seen
    interval = wilson_interval(count, hands)
    assert 0 <= interval.low <= 100 * count / hands <= interval.high <= 100
    assert 100 * count / hands in interval


def test_without_a_sample_rows_carry_the_exact_figures_alone():
    comparison = Comparison(EXACT)
    rows = comparison.rows("by_bid")
    assert [(row.key[0], row.exact) for row in rows] == list(EXACT.by_bid)
    assert all(row.sampled is None and row.interval is None and row.covered for row in rows)
    assert comparison.intervals == comparison.missed == 0
    assert all(row.sampled is None for row in comparison.spreads)
    assert comparison.largest_share("by_bid") == EXACT.share(dict(EXACT.by_bid)[None])


def test_with_a_sample_each_row_carries_its_count_share_and_interval():
    sample = statistics(2000, 3)
    comparison = Comparison(EXACT, sample)
    overlaps = comparison.rows("overlaps")
    assert [row.key for row in overlaps] == [(f, s) for f, s, _ in EXACT.overlaps]
    sampled = {(f, s): c for f, s, c in sample.overlaps}
    for row in overlaps:
        assert row.sampled == sampled.get(row.key, 0)
        assert row.sample_share == sample.share(row.sampled)
        assert row.interval == wilson_interval(row.sampled, 2000)
        assert row.covered == (row.share in row.interval)
    assert comparison.intervals == (len(EXACT.by_bid) + len(EXACT.by_rule) + len(overlaps)
                                    + len(EXACT.by_hcp))


def test_the_hcp_of_all_hands_are_summed_from_each_bid_s():
    sample = statistics(2000, 3)
    rows = Comparison(EXACT, sample).rows("by_hcp")
    assert [row.key for row in rows] == [(hcp,) for hcp in range(len(EXACT.by_hcp))]
    assert [row.exact for row in rows] == list(EXACT.by_hcp)
    assert sum(row.sampled for row in rows) == 2000
    assert rows[10].sampled == sum(counts[10] for _, counts in sample.hcp_by_bid)


def test_the_largest_share_reaches_the_top_of_an_interval():
    comparison = Comparison(EXACT, statistics(50, 1))
    assert comparison.largest_share("by_rule") == max(
        row.interval.high for row in comparison.rows("by_rule"))


@pytest.mark.slow
def test_about_1_interval_in_20_misses_the_exact_share():
    comparisons = [Comparison(EXACT, statistics(2000, seed)) for seed in range(20)]
    missed = sum(comparison.missed for comparison in comparisons)
    intervals = sum(comparison.intervals for comparison in comparisons)
    assert 0.01 < missed / intervals < 0.10


def test_values_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Interval(1, 2).low = 0
    with pytest.raises(dataclasses.FrozenInstanceError):
        Comparison(EXACT).sample = None
