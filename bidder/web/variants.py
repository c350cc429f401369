"""The variants page: a misreading of the rules beside the assignment's, how many hands
it changes (counted exactly), and hands dealt to order that it changes."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, render_template, request

from ..advice import explain
from ..bids import BID_BY_VALUE, Bid
from ..dealing import DealError, deal_changed
from ..exact import ALL_HANDS
from ..facts import STANDARD
from ..misreadings import MisreadingError, changes_of, space, variant_by_id
from ..rules import RULES
from ..variants import CATALOGUE
from . import heavy

blueprint = Blueprint("variants", __name__)
EXAMPLES = 3  # hands dealt to show what a variant changes
LONGEST_ID = 300  # characters: longer than any few misreadings joined


@dataclass(frozen=True)
class Difference:
    """One place where a variant's table or counting differs from the assignment's."""

    what: str
    assignment: str
    variant: str


def differences(variant) -> tuple[Difference, ...]:
    """Where the variant's rule table and counting depart from the assignment's."""
    ours = {rule.id: rule for rule in RULES}
    theirs = {rule.id: rule for rule in variant.rules}
    found = []
    if [rule.id for rule in RULES if rule.id in theirs] != [
            rule.id for rule in variant.rules if rule.id in ours]:
        found.append(Difference("the order", " ".join(ours), " ".join(theirs)))
    for rule_id in dict.fromkeys([*ours, *theirs]):
        mine, other = ours.get(rule_id), theirs.get(rule_id)
        if other is None:
            found.append(Difference(rule_id, f"{mine.name}: {mine.thresholds}", "left out"))
        elif mine is None:
            found.append(Difference(rule_id, "no such rule",
                                    f"{other.name}: {other.thresholds}"))
        elif (mine.thresholds, mine.how) != (other.thresholds, other.how):
            found.append(Difference(rule_id, _said(mine), _said(other)))
    counting = variant.counting
    if counting.scale_text != STANDARD.scale_text:
        found.append(Difference("high card points", STANDARD.scale_text, counting.scale_text))
    if counting.how != STANDARD.how:
        found.append(Difference("distribution points", STANDARD.how, counting.how))
    if counting.also_balanced != STANDARD.also_balanced:
        found.append(Difference("balanced shapes", "none beyond those", ", ".join(
            "-".join(map(str, shape)) for shape in counting.also_balanced) + " as well"))
    if counting.balanced_fives != STANDARD.balanced_fives:
        found.append(Difference("balanced 5-3-3-2", STANDARD.describe_fives(5),
                                counting.describe_fives(5)))
    if variant.changes_output:
        found.append(Difference("how a bid is written", "'1NT', '1C', or None for no bid",
                                ", ".join(repr(variant.written(bid))
                                          for bid in ("1NT", "1C", None))))
    return tuple(found)


def _said(rule) -> str:
    return rule.thresholds + (f" ({rule.how})" if rule.how else "")


def written_form(value) -> Bid | str:
    """A bid as a variant writes it: a Bid when it is one as openingBid gives it (None
    included), else the text it is written as, quoted ('None', '1c')."""
    if value is None or value in BID_BY_VALUE:
        return Bid.from_value(value)
    return repr(value)


def examples(variant) -> list[tuple[int, str, object]]:
    """(seed, hand, the variant's bid as written) for a few hands the variant changes;
    none when it changes no hand."""
    found = []
    for seed in range(1, EXAMPLES + 1):
        try:
            hand = deal_changed(seed, variant)
        except DealError:
            return found
        theirs = explain(hand, variant.rules, variant.counting)
        found.append((seed, str(hand), written_form(variant.written(theirs.bid))))
    return found


def findings(variant_id: str):
    """(how many hands the misreading *variant_id* changes, (seed, hand, its bid as the
    misreading writes it) for a few of them): the page's work, seconds for a new
    combination, done in the worker's pool."""
    variant = variant_by_id(variant_id)
    return changes_of(variant), examples(variant)


def chosen_variant(text: str):
    """The misreading the page's `variant` names, None for none.

    :raises MisreadingError: for an id that names no misreading, saying why."""
    if not text:
        return None
    if len(text) > LONGEST_ID:
        raise MisreadingError(f"an id of {len(text):,} characters is too long: name up to a "
                              f"few misreadings, joined with +, in {LONGEST_ID} characters")
    return variant_by_id(text)


@blueprint.route("/variants")
def variants_page():
    """The catalogue and the generated misreadings, and the chosen one in full."""
    page = dict(catalogue=CATALOGUE, generated=space()[len(CATALOGUE):], all_hands=ALL_HANDS)
    try:
        variant = chosen_variant(request.args.get("variant", ""))
    except MisreadingError as error:
        return render_template("variants.html", variant=None,
                               error=f"variant: {error}", **page), 400
    if variant is None:
        return render_template("variants.html", variant=None, **page)
    changed, shown = heavy.run("a combination of misreadings", findings, variant.id)
    shown = [(seed, explain(hand), written) for seed, hand, written in shown]
    rows = [(Bid.from_value(old), written_form(new), count)
            for old, new, count in changed.by_pair]
    return render_template("variants.html", variant=variant,
                           differences=differences(variant), changed=changed, rows=rows,
                           examples=shown, **page)
