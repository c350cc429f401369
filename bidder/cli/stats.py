"""`bidder stats` and `bidder variants`: how often each bid and rule occurs, sampled or
exactly, and how many hands each misreading changes."""

from __future__ import annotations

import click

from ..advice import is_reachable
from ..bids import Bid
from ..rules import RULE_BY_ID, plural
from .options import read_variant
from .terminal import wrapped

VARIANT_PAIRS = 6  # pairs of bids shown for each variant


@click.command(short_help="How often each bid and rule occurs: exactly, or in a sample.")
@click.option("--exact", "exactly", is_flag=True,
              help="Count all 635,013,559,600 hands exactly (a fraction of a second).")
@click.option("--hands", default=100_000, show_default=True,
              help="How many random hands (1-1,000,000).")
@click.option("--seed", default=1, show_default=True, help="The seed they are dealt from.")
@click.option("--json", "as_json", is_flag=True, help="Print the counts as JSON.")
@click.option("--variant", metavar="ID", callback=read_variant,
              help="With --exact: count the hands as this misreading reads the rules.")
@click.pass_context
def stats(ctx: click.Context, exactly: bool, hands: int, seed: int, as_json: bool,
          variant) -> None:
    """How often each bid and rule occurs, and how often a later rule also applies (the
    first rule that applies wins): over all hands with --exact, else over a class of
    random hands.

    With --exact every one of the 635,013,559,600 hands is counted, also by HCP and by
    shape pattern; --json then prints the integer counts. Without it, --hands random
    hands are dealt from --seed: what a class of that many hands looks like.

    \b
    Examples:
      bidder stats --exact
      bidder stats --exact --variant balanced-first
      bidder stats --hands 100000 --seed 1
    """
    if exactly:
        print_exact(ctx, as_json, variant)
        return
    if variant is not None:
        raise click.UsageError("--variant goes with --exact: a variant's counts are exact")
    from ..dealing import DealError, statistics

    try:
        counts = statistics(hands, seed)
    except DealError as error:
        raise click.BadParameter(error.message, param_hint="--hands") from None
    if as_json:
        import json

        click.echo(json.dumps(counts.to_dict(), indent=2))
        return
    click.echo("\n".join(stats_lines(counts)))


def print_exact(ctx: click.Context, as_json: bool, variant=None) -> None:
    """Print the exact statistics; a sample's --hands or --seed is a usage error here."""
    from click.core import ParameterSource

    from ..exact import exact_statistics

    for name in ("hands", "seed"):
        if ctx.get_parameter_source(name) is not ParameterSource.DEFAULT:
            raise click.UsageError(f"--exact counts every hand: leave out --{name}")
    counts = exact_statistics() if variant is None else exact_statistics(
        variant.rules, variant.counting)
    if as_json:
        import json

        click.echo(json.dumps(counts.to_dict(), indent=2))
        return
    click.echo("\n".join(exact_lines(counts)))


def stats_lines(counts) -> list[str]:
    """The statistics as three tables: by bid (with the HCP range), by rule, overlaps."""
    hcp_ranges = {bid: [points for points, times in enumerate(by_hcp) if times]
                  for bid, by_hcp in counts.hcp_by_bid}
    lines = [f"Opening bids over {counts.hands:,} random hands (seed {counts.seed})", "",
             f"{'bid':<6}{'hands':>10}{'share':>9}   HCP"]
    for bid, times in counts.by_bid:
        spread = hcp_ranges.get(bid)
        span = f"{spread[0]}-{spread[-1]}" if spread else ""
        lines.append(f"{Bid.from_value(bid).plain:<6}{times:>10,}{counts.share(times):>8.2f}%   {span}"
                     .rstrip())
    lines += ["", f"{'rule':<36}{'hands':>10}{'share':>9}"]
    for rule_id, times in counts.by_rule:
        rule = RULE_BY_ID[rule_id]
        never = "" if is_reachable(rule) else "   never decides: an earlier rule comes first"
        lines.append(f"{rule_id + ' ' + rule.name:<36}{times:>10,}"
                     f"{counts.share(times):>8.2f}%{never}")
    lines += ["", "Overlaps: a later rule also applies, the first one decides"]
    lines += [f"  {fired} decides, {shadowed} also applies{times:>12,}"
              f"{counts.share(times):>8.2f}%" for fired, shadowed, times in counts.overlaps]
    if not counts.overlaps:
        lines.append("  none")
    return lines


@click.command(short_help="The misreadings of the rules, and how many hands each changes.")
@click.option("--json", "as_json", is_flag=True, help="Print them as JSON.")
@click.option("--all", "everything", is_flag=True,
              help="Every misreading generated from the rule table, not only the catalogue.")
@click.option("--rule", "rule_id", metavar="RULE", default=None,
              help="Only the misreadings about this rule, e.g. R1.")
@click.option("--min-hands", type=click.IntRange(min=0), default=0, metavar="N",
              help="Only those that change at least N hands (1 leaves out the equivalent).")
def variants(as_json: bool, everything: bool, rule_id: str | None, min_hands: int) -> None:
    """List the misreadings of the rules students make, each with the exact number of
    the 635,013,559,600 hands whose opening bid it changes, by pair of bids.

    Use one with `bidder bid HAND --variant ID`, `bidder stats --exact --variant ID` and
    `bidder deal --variant ID --changed` (docs/misreadings.md: how ids are written).
    """
    from ..misreadings import about, changes_of, space
    from ..rules import RULE_BY_ID
    from ..variants import CATALOGUE

    if rule_id is not None and rule_id not in RULE_BY_ID:
        raise click.BadParameter(f"{rule_id!r} is not a rule: choose one of "
                                 f"{', '.join(RULE_BY_ID)}", param_hint="--rule")
    found = [(variant, changes_of(variant)) for variant in (space() if everything
                                                             else CATALOGUE)
             if rule_id is None or about(variant, rule_id)]
    found = [(variant, changed) for variant, changed in found if changed.hands >= min_hands]
    if as_json:
        import json

        click.echo(json.dumps([{"id": variant.id, "sentence": variant.sentence,
                                "departs": variant.departs, **changed.to_dict()}
                               for variant, changed in found], indent=2))
        return
    click.echo("\n".join(variants_lines(found)) if found else "No misreading fits: "
               "try without --rule or --min-hands.")


def variants_lines(found) -> list[str]:
    """Each variant: its id and sentence, then the hands it changes, by pair."""
    from ..exact import ALL_HANDS

    lines = []
    for variant, changed in found:
        lines += [f"{variant.id}", wrapped(variant.sentence, "    "),
                  wrapped(f"The assignment: {variant.departs}.", "    ")]
        if not changed.hands:
            lines.append("    changes no hand")
        else:
            lines.append(f"    changes {changed.hands:,} hands "
                         f"({100 * changed.hands / ALL_HANDS:.4f}%):")
            lines += [f"      {Bid.from_value(old).plain} -> {new!r:<8}{count:>18,}"
                      for old, new, count in changed.by_pair[:VARIANT_PAIRS]]
            if len(changed.by_pair) > VARIANT_PAIRS:
                lines.append(f"      ... and "
                             f"{plural(len(changed.by_pair) - VARIANT_PAIRS, 'more pairs')}")
        lines.append("")
    return lines[:-1]


COUNT_WIDTH = 17  # room for 635,013,559,600 and a margin


def share_cells(counts, count: int) -> str:
    """A count and its share of all hands, right-aligned: '   136,852,887,600  21.5512%'."""
    return f"{count:>{COUNT_WIDTH},}{counts.share(count):>10.4f}%"


def table(title: str, heading: str, width: int, rows: list[tuple[str, int, str]],
          counts) -> list[str]:
    """A titled table: a name, the count and share, and any notes after them."""
    lines = ["", title, f"{heading:<{width}}{'hands':>{COUNT_WIDTH}}{'share':>11}"]
    lines += [f"{name:<{width}}{share_cells(counts, count)}{notes}".rstrip()
              for name, count, notes in rows]
    return lines


def exact_lines(counts) -> list[str]:
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
