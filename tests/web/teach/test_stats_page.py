"""/stats through the test client: the exact figures by default, a sample beside them on
request with its intervals, the sample's cap, and one sample at a time per process."""

import os
import re
import signal
from concurrent.futures.process import BrokenProcessPool

import pytest

from bidder import RULES
from bidder.comparison import Comparison
from bidder.bids import RULE_BIDS
from bidder.dealing import statistics
from bidder.exact import exact_statistics
from bidder.web.teach import stats as teach_stats
from bidder.web.teach.stats import MAX_SAMPLE, SAMPLING, in_sampler

from test_teach import spoken_bid, spoken_text, text_of

EXACT = exact_statistics()


def rule_name(rule_id: str) -> str:
    return f"{rule_id} {RULES[int(rule_id[1:]) - 1].name}"


def sample_cells(row) -> str:
    """A row's sample columns as text_of reads them."""
    return (f"{row.sampled:,} {row.sample_share:.2f} % {row.interval.low:.2f} to "
            f"{row.interval.high:.2f} %")


def test_stats_by_default_show_every_hand_counted_exactly(client):
    response = client.get("/stats")
    assert response.status_code == 200
    page = text_of(response)
    assert "Exactly, over all 635,013,559,600 hands: every hand counted once" in page
    for bid, count in EXACT.by_bid:
        assert f"{spoken_bid(bid)} {count:,} {EXACT.share(count):.4f} %" in page
    for rule, count in EXACT.by_rule:
        assert f" {count:,} {EXACT.share(count):.4f} %" in page
    assert "In the sample" not in page and "The exact figures alone" not in page


def test_stats_show_the_hcp_and_shapes_of_all_hands(client):
    page = text_of(client.get("/stats"))
    assert "HCP Hands Share 0 2,310,789,600 0.3639 %" in page
    assert "37 4 0.0000 %" in page
    assert "Pattern Hands Share 4-4-3-2 136,852,887,600 21.5512 % 5-3-3-2" in page


def test_stats_show_the_exact_hcp_spread_of_each_opening(client):
    page = text_of(client.get("/stats"))
    for spread in EXACT.spreads:
        assert (f"{spoken_bid(spread.bid)} {spread.hands:,} {spread.low} {spread.high} "
                f"{float(spread.mean):.2f} {spread.mode}") in page


def test_stats_say_r4_never_decides_and_how_often_it_is_shadowed(client):
    page = text_of(client.get("/stats"))
    assert f"{rule_name('R4')} {spoken_text(RULES[3].ruling_text)} 0 0.0000 %" in page
    count = {(f, s): c for f, s, c in EXACT.overlaps}["R3", "R4"]
    assert f"{rule_name('R3')} {rule_name('R4')} {count:,} {EXACT.share(count):.4f} %" in page


@pytest.mark.parametrize("query, hands, seed", [
    ("hands=1000&seed=3", 1000, 3), ("hands=2,000", 2000, 1), ("hands=1", 1, 1),
    ("seed=0&hands=500", 500, 0), (f"hands={MAX_SAMPLE}&seed=9", MAX_SAMPLE, 9),
], ids=["1,000 from seed 3", "commas in the number", "a single hand", "seed 0",
        "the largest sample"])
def test_a_sample_stands_beside_the_exact_figures_with_its_intervals(client, query, hands,
                                                                    seed):
    response = client.get(f"/stats?{query}")
    assert response.status_code == 200
    comparison = Comparison(EXACT, statistics(hands, seed))
    page = text_of(response)
    assert f"Beside them, {hands:,} random hands dealt from seed {seed}," in page
    assert (f"the exact share falls outside {comparison.missed} of its "
            f"{comparison.intervals} intervals") in page
    for row in comparison.rows("by_bid"):
        assert (f"{spoken_bid(row.key[0])} {row.exact:,} {row.share:.4f} % "
                f"{sample_cells(row)}") in page
    for row in comparison.rows("by_rule"):
        assert f" {row.exact:,} {row.share:.4f} % {sample_cells(row)}" in page
    for row in comparison.rows("overlaps"):
        assert f"{rule_name(row.key[0])} {rule_name(row.key[1])} {row.exact:,}" in page
    for row in comparison.rows("by_hcp"):
        assert f"{row.key[0]} {row.exact:,} {row.share:.4f} % {sample_cells(row)}" in page
    assert page.count(" misses") == comparison.missed
    assert f'value="{hands}"' in response.get_data(as_text=True)
    assert "The exact figures alone" in page


def test_a_blank_sample_size_shows_the_exact_figures_alone(client):
    response = client.get("/stats?hands=&seed=")
    assert response.status_code == 200
    assert "In the sample" not in text_of(response)
    assert 'value=""' in response.get_data(as_text=True)


def test_the_sample_s_hcp_spread_stands_beside_the_exact_one(client):
    page = text_of(client.get("/stats?hands=20000&seed=4"))
    for row in Comparison(EXACT, statistics(20000, 4)).spreads:
        assert (f"{row.exact.mode} {row.sampled.hands:,} {row.sampled.low} "
                f"{row.sampled.high} {float(row.sampled.mean):.2f}") in page


def test_a_bid_the_sample_never_saw_gets_an_empty_spread(client):
    page = text_of(client.get("/stats?hands=1&seed=1"))
    spread = next(spread for spread in EXACT.spreads if spread.bid == "2NT")
    assert (f"2NT {spread.hands:,} {spread.low} {spread.high} {float(spread.mean):.2f} "
            f"{spread.mode} 0 ") in page


@pytest.mark.parametrize("query, samples", [("", 0), ("hands=3000&seed=2", 1)],
                         ids=["exact alone", "with a sample"])
def test_stats_draw_accessible_svg_charts_with_the_table_as_text(client, query, samples):
    page = client.get(f"/stats?{query}").get_data(as_text=True)
    charts = re.findall(r'<svg class="t-chart" role="img" aria-labelledby="([\w-]+)"', page)
    assert charts == ["bids-chart-title", "rules-chart-title", "hcp-chart-title",
                      "all-hcp-chart-title"]
    for title in charts:
        assert re.search(f'<title id="{title}">[^<]+the table below gives the numbers',
                         page)
    rows = len(RULE_BIDS) + len(RULES)
    assert page.count('class="t-chart-bar"') == rows + len(EXACT.by_hcp)
    assert page.count('class="t-chart-sample"') == samples * rows
    assert page.count('class="t-chart-interval"') == samples * (rows + len(EXACT.by_hcp))
    dots = sum(row.sampled is not None
               for row in Comparison(EXACT, statistics(3000, 2) if samples else None).spreads)
    assert page.count('class="t-chart-sample-dot"') == dots + samples * len(EXACT.by_hcp)
    assert "style=" not in page


BAD_STATS = [
    ("hands=0", "hands", "Hands '0' is out of range: use a whole number from 1 to 50,000"),
    ("hands=50001", "hands", "Hands 50,001 is more than this page deals: use a whole "
                             "number from 1 to 50,000, which it deals in well under a "
                             "second; the command line deals up to 1,000,000 (bidder "
                             "stats --hands 50001)."),
    ("hands=1,000,000", "hands", "Hands 1,000,000 is more than this page deals"),
    ("hands=1000001", "hands", "Hands '1000001' is out of range: use a whole number from 1 "
                               "to 50,000"),
    ("hands=" + "9" * 400, "hands", "Hands '9999999999999999999…' is out of range"),
    ("hands=lots", "hands", "Hands 'lots' is not a whole number"),
    ("hands=-5", "hands", "Hands '-5' is not a whole number"),
    ("seed=x", "seed", "Seed 'x' is not a whole number: use a whole number from 0 to "
                       "999,999,999"),
    ("seed=12345678901", "seed", "Seed '12345678901' is out of range"),
]


@pytest.mark.parametrize("query, field, message", BAD_STATS,
                         ids=[query[:20] for query, _, _ in BAD_STATS])
def test_bad_stats_requests_get_a_clear_400(client, query, field, message):
    response = client.get(f"/stats?{query}")
    assert response.status_code == 400
    assert "Cannot count that. " + message in text_of(response)
    page = response.get_data(as_text=True)
    assert re.search(f'id="stats-{field}"[^>]*aria-invalid="true"', page)
    assert 'class="t-chart"' not in page
    typed = query.split("=", 1)[1]
    assert f'value="{typed}"' in page


def test_a_second_sample_at_once_is_turned_away_with_a_503(client):
    with SAMPLING:
        response = client.get("/stats?hands=1000&seed=77")
        exact = client.get("/stats")
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "1"
    assert ("Cannot count that. This server is dealing another sample right now: try again "
            "in a moment") in text_of(response)
    assert 'value="1000"' in response.get_data(as_text=True)
    assert exact.status_code == 200
    assert client.get("/stats?hands=1000&seed=77").status_code == 200


def test_the_sample_slot_is_given_back_when_dealing_fails(monkeypatch):
    monkeypatch.setattr(teach_stats, "statistics", divmod)
    with pytest.raises(ZeroDivisionError):
        teach_stats.deal_sample(10, 0)
    assert SAMPLING.acquire(blocking=False)
    SAMPLING.release()


def test_samples_are_dealt_in_a_process_of_their_own_that_stays():
    child = in_sampler(os.getpid)
    assert child != os.getpid()
    assert in_sampler(os.getpid) == child


def test_a_sampling_process_that_died_is_replaced():
    child = in_sampler(os.getpid)
    with pytest.raises(BrokenProcessPool):
        in_sampler(os.kill, child, signal.SIGKILL)
    assert in_sampler(os.getpid) not in (child, os.getpid())
