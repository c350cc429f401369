"""`bidder deal`: hands dealt to order, as text, JSON, PBN, LIN or a Dealer script."""

from __future__ import annotations

import click

from ..advice import explain
from ..bids import Bid, BidError
from ..boards import Seat
from .options import read_variant
from .terminal import can_show_symbols, hand_picture, painter, wrapped


@click.command(short_help="Deal hands to order, with an answer key.")
@click.option("--bid", "bid_text", metavar="BID",
              help="Hands that open this bid, e.g. 1NT, 2H, or None for no bid.")
@click.option("--rule", "rule_text", metavar="ID", help="Hands decided by this rule, e.g. R8.")
@click.option("--count", default=1, show_default=True, help="How many hands (1-100).")
@click.option("--seed", type=int, default=None,
              help="The same seed deals the same hands.  [default: a new one, shown]")
@click.option("--format", "output_format", default="text", show_default=True,
              type=click.Choice(["text", "pbn", "lin", "json", "dealer"]),
              help="dealer: the Dealer script that deals hands for --rule (for BBO's "
                   "teaching tables too).")
@click.option("--key", is_flag=True, help="Add the answer key: each hand's bid and why.")
@click.option("--seat", default="N", show_default=True,
              type=click.Choice(["N", "E", "S", "W"], case_sensitive=False),
              help="PBN, LIN and dealer: the seat each hand is dealt to, who deals.")
@click.option("--variant", metavar="ID", callback=read_variant,
              help="With --changed: the misreading whose changed hands to deal.")
@click.option("--changed", is_flag=True,
              help="Deal hands the --variant answers otherwise than the assignment.")
@click.option("--separating", metavar="ID,ID,...",
              help="Hands on which these misreadings give different bids (the first "
                   "always otherwise than the assignment), each misreading's bid shown.")
def deal(bid_text: str | None, rule_text: str | None, count: int, seed: int | None,
         output_format: str, key: bool, seat: str, variant, changed: bool,
         separating: str | None) -> None:
    """Deal hands to order, reproducibly, with an answer key on request.

    PBN and LIN output hold one board per hand, the hand in the --seat seat (North) as
    dealer, the other hands not dealt; with --key the board's auction is the hand's
    opening by the rules, its reason as a note, then all pass. --format dealer prints
    the Dealer script whose hands --rule decides (for Dealer or BBO's teaching tables).

    \b
    Examples:
      bidder deal --bid 1NT --count 5 --seed 7 --key
      bidder deal --rule R8 --count 20 --format pbn > preempts.pbn
      bidder deal --rule R2 --format dealer
      bidder deal --variant r3-unbalanced-only --changed --count 3 --key
      bidder deal --separating r3-unbalanced-only,no-2nt --count 3
    """
    if separating is not None:
        click.echo(separating_text(separating, count, 1 if seed is None else seed,
                                   output_format))
        return
    from ..boards import Seat
    from ..dealing import DealError, check_count, deal_changed, deal_set, parse_rule

    if changed != (variant is not None):
        raise click.UsageError("--changed and --variant go together: deal the hands a "
                               "variant answers otherwise, e.g. --variant no-2nt --changed")
    if changed and (bid_text or rule_text):
        raise click.UsageError("--changed deals by the variant alone: leave out --bid and "
                               "--rule")

    if output_format == "dealer":
        click.echo(dealer_script(bid_text, rule_text, count, Seat.from_letter(seat)))
        return
    if seed is None:
        import secrets

        seed = secrets.randbelow(1_000_000)
    try:
        wanted = None if bid_text is None else Bid.parse(bid_text)
        rule = None if rule_text is None else parse_rule(rule_text)
        if changed:
            boards = [(seed + offset, deal_changed(seed + offset, variant))
                      for offset in range(check_count(count))]
        else:
            boards = deal_set(count, seed, ... if wanted is None else wanted.text, rule)
    except (BidError, DealError) as error:
        raise click.UsageError(error.message) from None
    request = (f"{len(boards)} hands {variant.id} changes" if changed
               else describe_request(len(boards), wanted, rule))
    if output_format in ("pbn", "lin"):
        click.echo(deal_file(output_format, boards, seed, request, key,
                             Seat.from_letter(seat)))
        return
    render = {"text": deal_text, "json": deal_json}[output_format]
    click.echo(render(boards, seed, request, key))
    if changed and key and output_format == "text":
        click.echo("\n".join(wrapped(
            f"Board {number}, read as {variant.id}: "
            f"{variant.written(explain(hand, variant.rules, variant.counting).bid)!r}", "  ")
            for number, (_, hand) in enumerate(boards, 1)))


def separating_text(ids: str, count: int, seed: int, output_format: str = "text") -> str:
    """The hands that tell the misreadings *ids* apart, with each one's bid, as text or
    as JSON."""
    from ..classroom.summary import bids_on
    from ..dealing import check_count, separating_hands
    from ..misreadings import MisreadingError, variant_by_id

    if output_format not in ("text", "json"):
        raise click.UsageError(f"--separating writes text or json, not {output_format}: "
                               f"leave out --format, or give --format json")
    names = [name.strip() for name in ids.split(",") if name.strip()]
    try:
        variants = [variant_by_id(name) for name in names]
        hands = separating_hands(variants, check_count(count), seed) if names else ()
    except MisreadingError as error:
        raise click.BadParameter(f"{error} (bidder variants --all lists them)",
                                 param_hint="--separating") from None
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    if not hands:
        raise click.UsageError(f"no hand among the first hands dealt for seed {seed} tells "
                               f"{', '.join(names) or 'nothing'} from the assignment: give "
                               f"misreading ids, the first one that changes some bid")
    if output_format == "json":
        import json

        return json.dumps({"misreadings": names, "seed": seed, "hands": [
            {"hand": hand, "bids": [{"by": by, "bid": bid} for by, bid in bids_on(hand, names)]}
            for hand in hands]}, indent=2, ensure_ascii=False)
    return "\n".join(f"{hand}: " + "; ".join(f"{by} {bid}" for by, bid in
                                             bids_on(hand, names)) for hand in hands)


def dealer_script(bid_text: str | None, rule_text: str | None, count: int, seat) -> str:
    """The Dealer script for --rule: hands it decides, dealt to *seat*.

    :raises click.UsageError: without --rule, with --bid, or for a rule no hand fires.
    """
    from ..boards import script
    from ..dealing import MAX_COUNT, DealError, parse_rule

    if rule_text is None or bid_text is not None:
        raise click.UsageError("--format dealer writes the condition for a rule: give "
                               "--rule (e.g. --rule R2) and no --bid")
    if not 1 <= count <= MAX_COUNT:
        raise click.UsageError(f"--count is how many hands the script produces: 1 to "
                               f"{MAX_COUNT}, not {count}")
    try:
        return script(parse_rule(rule_text), seat, count)
    except DealError as error:
        raise click.UsageError(error.message) from None


def describe_request(count: int, wanted: Bid | None, rule) -> str:
    """What was dealt, in words: '5 hands that open 1NT decided by R1' (None: any bid
    and any rule)."""
    one = count == 1
    parts = [f"{count} hand{'' if one else 's'}"]
    if wanted is not None:
        parts.append(f"that open{'s' if one else ''} {wanted or 'nothing'}")
    if rule is not None:
        parts.append(f"decided by {rule.id}")
    return " ".join(parts)


def deal_text(boards, seed: int, request: str, key: bool) -> str:
    """Boards as text: the hand, its picture, and the key on request."""
    paint, symbols = painter(), can_show_symbols()
    lines = [f"{request} (seed {seed}; --seed {seed} deals "
             f"{'it' if len(boards) == 1 else 'them'} again)"]
    for number, (board_seed, hand) in enumerate(boards, 1):
        lines += ["", f"Board {number}   {hand}", f"  {hand_picture(hand, paint, symbols)}"]
        if key:
            lines.append(wrapped(f"Key: {explain(hand).explanation}", "  "))
    return "\n".join(lines)


def deal_json(boards, seed: int, request: str, key: bool) -> str:
    """Boards as one JSON object."""
    import json

    entries = []
    for number, (board_seed, hand) in enumerate(boards, 1):
        entry = {"board": number, "seed": board_seed, "hand": str(hand),
                 "dotted": hand.dotted}
        if key:
            advice = explain(hand)
            entry.update(bid=advice.bid, rule=advice.rule, explanation=advice.explanation)
        entries.append(entry)
    return json.dumps({"request": request, "seed": seed, "boards": entries}, indent=2,
                      ensure_ascii=False)


def deal_file(output_format: str, boards, seed: int, request: str, key: bool,
              seat: Seat) -> str:
    """Dealt hands as PBN games or LIN lines, each hand in *seat*, which deals."""
    hands = [hand for _, hand in boards]
    if output_format == "lin":
        from ..boards import dealt_lines

        return dealt_lines(hands, key, seat)
    from ..boards import dealt_games

    return dealt_games(hands, request, seed, key, seat)
