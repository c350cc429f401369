"""The exact statistics as text tables, for the command line: every count in full, every
share to four places, as the published bridge tables give them."""

from __future__ import annotations

from .bids import Bid
from .exact import ExactStatistics
from .rules import RULE_BY_ID

COUNT_WIDTH = 17  # room for 635,013,559,600 and a margin


def share_cells(counts: ExactStatistics, count: int) -> str:
    """A count and its share of all hands, right-aligned: '   136,852,887,600  21.5512%'."""
    return f"{count:>{COUNT_WIDTH},}{counts.share(count):>10.4f}%"


def table(title: str, heading: str, width: int, rows: list[tuple[str, int, str]],
          counts: ExactStatistics) -> list[str]:
    """A titled table: a name, the count and share, and any notes after them."""
    lines = ["", title, f"{heading:<{width}}{'hands':>{COUNT_WIDTH}}{'share':>11}"]
    lines += [f"{name:<{width}}{share_cells(counts, count)}{notes}".rstrip()
              for name, count, notes in rows]
    return lines


def exact_lines(counts: ExactStatistics) -> list[str]:
    """The exact statistics as five tables: bids with their HCP, rules, overlaps, HCP
    and shape patterns."""
    spreads = {spread.bid: spread for spread in counts.spreads}
    bids = [(Bid.from_value(bid).plain, count,
             f"   {spreads[bid].low}-{spreads[bid].high} HCP, mean {float(spreads[bid].mean):.2f}"
             if bid in spreads else "") for bid, count in counts.by_bid]
    rules = [(f"{rule_id} {RULE_BY_ID[rule_id].name}", count,
              "" if count else "   never decides: an earlier rule comes first")
             for rule_id, count in counts.by_rule]
    overlaps = [(f"  {fired} decides, {shadowed} also applies", count, "")
                for fired, shadowed, count in counts.overlaps]
    return [f"Opening bids over all {counts.hands:,} hands, counted exactly",
            *table("By bid (with the HCP of the hands that open it)", "bid", 8, bids, counts),
            *table("By the rule that decides", "rule", 36, rules, counts),
            *table("Overlaps: a later rule also applies, the first one decides", "", 36,
                   overlaps, counts),
            *table("High card points", "HCP", 8,
                   [(str(hcp), count, "") for hcp, count in enumerate(counts.by_hcp)], counts),
            *table("Shape patterns, longest suit first", "pattern", 10,
                   [(name, count, "") for name, count in counts.by_pattern], counts)]
