"""A sample beside the exact figures: what a class of N random hands shows, each share
with its 95 % confidence interval, next to the share over all 635,013,559,600 hands.

The interval is Wilson's score interval, which stays inside 0-100 % and is honest for
rare openings (a sample with no 2NT hand still gets an interval above zero).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import sqrt
from statistics import NormalDist

from .exact import ExactStatistics, HcpSpread, hcp_spread

CONFIDENCE = 0.95
Z = NormalDist().inv_cdf((1 + CONFIDENCE) / 2)
TABLES = ("by_bid", "by_rule", "overlaps", "by_hcp")


def counts_by_key(counted, table: str) -> dict[tuple, int]:
    """One table of exact or sampled statistics as {key: hands}: 'by_bid', 'by_rule',
    'overlaps', or 'by_hcp' (the HCP of every bid's hands together)."""
    if table == "by_hcp":
        columns = zip(*(counts for _, counts in counted.hcp_by_bid))
        return {(hcp,): sum(column) for hcp, column in enumerate(columns)}
    return {tuple(row[:-1]): row[-1] for row in getattr(counted, table)}


@dataclass(frozen=True)
class Interval:
    """A range of shares, in percent."""

    low: float
    high: float

    def __contains__(self, share: float) -> bool:
        return self.low <= share <= self.high


def wilson_interval(count: int, hands: int, z: float = Z) -> Interval:
    """The confidence interval, in percent, for a share seen *count* times in *hands*."""
    seen = count / hands
    spread = z * z / hands
    centre = (seen + spread / 2) / (1 + spread)
    half = z * sqrt(seen * (1 - seen) / hands + spread / (4 * hands)) / (1 + spread)
    # At a count of 0 (or all hands) one end is exactly 0 % (or 100 %), whatever rounding says.
    low = 0.0 if count == 0 else centre - half
    high = 1.0 if count == hands else centre + half
    return Interval(100 * low, 100 * high)


@dataclass(frozen=True)
class Row:
    """A bid, rule or overlap (*key*, a tuple): its hands among all hands and its share,
    and for a sample its hands, share and confidence interval."""

    key: tuple
    exact: int
    share: float
    sampled: int | None = None
    sample_share: float | None = None
    interval: Interval | None = None

    @property
    def covered(self) -> bool:
        """Whether the sample's interval holds the exact share (True without a sample)."""
        return self.interval is None or self.share in self.interval


@dataclass(frozen=True)
class SpreadRow:
    """The HCP spread of one bid over all hands and, if it occurs there, in the sample."""

    exact: HcpSpread
    sampled: HcpSpread | None = None


@dataclass(frozen=True)
class Comparison:
    """The exact statistics and, if one was dealt, a sample (``dealing.Statistics``)."""

    exact: ExactStatistics
    sample: object | None = None

    def rows(self, table: str) -> tuple[Row, ...]:
        """The rows of one of TABLES, in the order of the exact figures."""
        sampled = {} if self.sample is None else counts_by_key(self.sample, table)
        return tuple(self._row(key, count, sampled)
                     for key, count in counts_by_key(self.exact, table).items())

    def _row(self, key: tuple, exact: int, sampled: dict) -> Row:
        share = self.exact.share(exact)
        if self.sample is None:
            return Row(key, exact, share)
        count = sampled.get(key, 0)
        return Row(key, exact, share, count, self.sample.share(count),
                   wilson_interval(count, self.sample.hands))

    def largest_share(self, table: str) -> float:
        """The largest share a chart of *table* draws: exact, or a sample interval's top."""
        return max(max(row.share, row.interval.high if row.interval else 0.0)
                   for row in self.rows(table))

    @property
    def spreads(self) -> tuple[SpreadRow, ...]:
        """The HCP spread of each bid some hand makes, exact and sampled."""
        sampled = {} if self.sample is None else dict(self.sample.hcp_by_bid)
        return tuple(SpreadRow(spread, hcp_spread(spread.bid, sampled[spread.bid])
                               if spread.bid in sampled else None)
                     for spread in self.exact.spreads)

    @property
    def intervals(self) -> int:
        """How many sampled shares have an interval."""
        return 0 if self.sample is None else sum(len(self.rows(table)) for table in TABLES)

    @property
    def missed(self) -> int:
        """How many sampled shares' intervals miss the exact share (about 1 in 20)."""
        return sum(not row.covered for table in TABLES for row in self.rows(table))
