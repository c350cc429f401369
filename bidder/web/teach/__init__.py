"""The teaching pages: hands dealt to order, printable sets, statistics and practice.

The views read the request, ask the core (``bidder.explain``, ``bidder.dealing``) and
render what it computed; every bridge decision is made in the core.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from flask import Blueprint, Flask, current_app, redirect, render_template, request, url_for

from ...advice import explain
from ...bids import RULE_BIDS, BidError
from ...cards import InvalidHandError, parse_hand
from ...dealing import MAX_COUNT, DealError, check_request, deal, deal_set
from ...rules import RULES, Rule, table_rule
from ...teaching import TEACHING_RULES, teaching_mix
from ..bounded import PageCache
from .. import heavy
from . import diagnosis_round, practice, stats
from .params import (MAX_SEED, ParamError, error_field, fresh_seed, next_seed,
                     optional_number, read_bid, read_choice, read_flag, read_rule, seal,
                     unseal)

blueprint = Blueprint("teach", __name__)
blueprint.register_blueprint(practice.blueprint)
blueprint.register_blueprint(diagnosis_round.blueprint)
blueprint.add_url_rule("/stats", "stats_page", stats.stats_page)

PRINT_COUNT = 12
PARTS = {"": "Sheet and answer key", "sheet": "Sheet only", "key": "Answer key only"}
# Rendered deal pages kept per worker, by bytes: a printed set of 100 hands is about
# 500 KB, a single hand about 30 KB (a cap by count let 600 seeds grow a worker by 330 MB).
PAGE_BUDGET = 16 * 1024 * 1024
PAGES = PageCache(PAGE_BUDGET)
MIXES = {"": "A teaching mix: every rule that decides bids at least once",
         "natural": "As dealt: natural frequencies, so most open nothing"}


# Deal to order and printable sets -------------------------------------------------

@dataclass(frozen=True)
class DealChoice:
    """What /deal was asked for: a Bid (``...`` any), rule (None any), seed, set size,
    whether to hide the answer until asked, and for a set of any hands, which mix."""

    bid: object = ...
    rule: Rule | None = None
    seed: int | None = None
    count: int | None = None
    printable: bool = False
    part: str = ""
    hidden: bool = False
    mix: str = ""
    hand: str = ""  # a hand given in the link (a teacher's), in dot notation

    @property
    def size(self) -> int:
        """How many hands to deal: the count asked, else 12 for print, else one."""
        return self.count or (PRINT_COUNT if self.printable else 1)

    @property
    def opening(self):
        """The bid asked for as dealing takes it: '1S', None for no bid, ``...`` for any."""
        return ... if self.bid is ... else self.bid.text

    @property
    def asked_bid(self):
        """The Bid asked for, or None for any bid."""
        return None if self.bid is ... else self.bid

    @property
    def asks(self) -> bool:
        """Whether a bid or a rule was asked for."""
        return self.asked_bid is not None or self.rule is not None

    @property
    def is_set(self) -> bool:
        """Whether to show a sheet of hands rather than one hand explained."""
        return self.printable or self.size > 1

    @property
    def teaching(self) -> bool:
        """Whether a set is a teaching mix: any hands asked for, and not as dealt."""
        return not self.asks and self.mix != "natural"

    def query(self, **changes) -> dict:
        """The link parameters for this choice with *changes*, defaults left out; from a
        hidden hand's page the bid and rule go in a token, never named."""
        choice = replace(self, **changes)
        bid = None if choice.bid is ... else str(choice.bid)
        rule = choice.rule.id if choice.rule else None
        token = seal(bid, rule) if self.hidden and (bid or rule) else None
        args = {"bid": None if token else bid, "rule": None if token else rule,
                "token": token, "hand": choice.hand or None,
                "seed": None if choice.hand else choice.seed, "count": choice.count,
                "print": 1 if choice.printable else None, "part": choice.part or None,
                "mix": choice.mix or None, "hide": 1 if choice.hidden else None}
        return {name: value for name, value in args.items() if value is not None}

    def practice(self) -> dict | None:
        """The link parameters of a practice set like this choice, for a class: its seed,
        with its bid, else its rule if a round deals for it; None for a hidden hand (the
        set would name its answer) or a hand given in the link."""
        if self.hidden or self.hand or self.seed is None:
            return None
        if self.bid is not ...:
            return {"set": self.seed, "bid": str(self.bid)}
        if self.rule in TEACHING_RULES:
            return {"set": self.seed, "rule": self.rule.id}
        return {"set": self.seed}

    def form(self) -> dict:
        """The choice as the deal form shows it (a hidden hand's bid and rule left out)."""
        if self.hidden:
            return {"bid": "", "rule": "", "seed": "", "hide": "1", "mix": self.mix}
        return {"bid": "" if self.bid is ... else str(self.bid),
                "rule": self.rule.id if self.rule else "",
                "seed": "" if self.seed is None else str(self.seed),
                "hide": "1" if self.hidden else "", "mix": self.mix}


def read_deal_choice(args) -> DealChoice:
    """Read and check the /deal parameters.

    :raises ParamError: for a malformed or out-of-range value.
    :raises BidError: for a bid the rules never make.
    :raises DealError: for a rule, or a bid and rule, no hand can meet.
    """
    bid, rule = unseal(args["token"]) if args.get("token") else (
        args.get("bid", ""), args.get("rule", ""))
    choice = DealChoice(
        bid=read_bid(bid), rule=read_rule(rule), hand=read_given_hand(args),
        seed=optional_number(args, "seed", None, 0, MAX_SEED),
        count=optional_number(args, "count", None, 1, MAX_COUNT),
        printable=read_flag(args, "print"), part=read_choice(args, "part", PARTS),
        hidden=read_flag(args, "hide"), mix=read_choice(args, "mix", MIXES))
    check_request(choice.opening, choice.rule)
    last = MAX_SEED - choice.size + 1
    if choice.seed is not None and choice.seed > last:
        raise ParamError(f"seed {choice.seed:,} leaves no room for {choice.size} hands: "
                         f"use a seed from 0 to {last:,}", "seed")
    return choice


def read_given_hand(args) -> str:
    """The hand a link gives (hand=...), in dot notation; '' when none is given.

    :raises ParamError: saying what the parser found wrong.
    """
    text = args.get("hand", "")
    if not text.strip():
        return ""
    try:
        return parse_hand(text).dotted
    except InvalidHandError as error:
        raise ParamError(f"the hand given: {error.message}", "seed") from None


def deal_form_context() -> dict:
    """The choices the deal form offers."""
    return {"bids": RULE_BIDS, "rules": RULES, "max_count": MAX_COUNT,
            "max_seed": MAX_SEED, "print_count": PRINT_COUNT, "mixes": MIXES}


def deal_hands(choice: DealChoice) -> list[tuple[int, Rule | None, object]]:
    """The set *choice* asks for: (seed, the rule it was dealt for or None, the advice),
    dealt in the worker's pool (seconds for a large set), explained here."""
    dealt = heavy.run("a set of hands", dealt_hands, choice)
    return [(seed, rule_id and table_rule(rule_id), explain(hand))
            for seed, rule_id, hand in dealt]


def dealt_hands(choice: DealChoice) -> list[tuple[int, str | None, str]]:
    """The hands of the set *choice* asks for: (seed, the id of the rule it was dealt
    for or None, the hand), a teaching mix unless a bid or rule was asked for, or the
    hands as dealt."""
    if choice.teaching:
        return [(seed, rule.id, str(hand))
                for seed, rule, hand in teaching_mix(choice.size, choice.seed)]
    return [(seed, choice.rule and choice.rule.id, str(hand)) for seed, hand in
            deal_set(choice.size, choice.seed, choice.opening, choice.rule)]


@blueprint.get("/deal")
def deal_page():
    """One hand dealt to order with its explanation, or a set of them to print."""
    try:
        choice = read_deal_choice(request.args)
        if choice.hand and choice.is_set:  # a set is dealt: the hand given is no seed
            choice = replace(choice, hand="")
        if choice.seed is None and not choice.hand:
            return redirect(url_for(".deal_page", **choice.query(seed=fresh_seed())))
        return dealt_page(current_app._get_current_object(), choice)
    except (ParamError, DealError, BidError) as error:
        return render_template("deal.html", error=error, error_field=error_field(error),
                               form=request.args, **deal_form_context()), 400


def dealt_page(app: Flask, choice: DealChoice) -> str:
    """The page for a seeded *choice*: the same every time it is asked, rendered once
    (kept while PAGES has room), a set's hands dealt in the worker's pool.

    :raises DealError: for a bid and rule no hand can meet.
    :raises Busy: when the pool, or this client's share of it, is full.
    """
    page = PAGES.get((app, choice))
    if page is None:
        page = rendered_deal(choice)
        PAGES.put((app, choice), page)
    return page


def rendered_deal(choice: DealChoice) -> str:
    """The page for a seeded *choice*, rendered now.

    :raises DealError: for a bid and rule no hand can meet.
    """
    if choice.is_set:
        return render_template(
            "print.html", choice=choice, parts=PARTS, mixes=MIXES, asked=choice.form(),
            hands=deal_hands(choice),
            next_set=choice.query(seed=next_seed(choice.seed, choice.size)))
    advice = explain(parse_hand(choice.hand) if choice.hand else
                     deal(choice.seed, choice.opening, choice.rule))
    asked = choice.form()
    return render_template("deal.html", choice=choice, advice=advice, asked=asked,
                           form={**asked, "seed": ""},
                           another=choice.query(hand="", seed=next_seed(choice.seed or 0)),
                           **deal_form_context())
