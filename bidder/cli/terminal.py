"""How the command line draws a hand and its advice on a terminal, without click, so that
`bidder bid` can answer before the rest of the command line is imported."""

from __future__ import annotations

import os
import sys

from ..advice import FAILED, FIRED, NOT_REACHED, SHADOWED
from ..bids import Bid
from ..cards import SUITS_HIGH_FIRST

WRAP = 88
RED_SUITS = ("hearts", "diamonds")
STATUS_STYLES = {FIRED: {"fg": "green", "bold": True}, SHADOWED: {"fg": "yellow"},
                 FAILED: {"dim": True}, NOT_REACHED: {"dim": True}}
_COLOURS = {"red": 31, "green": 32, "yellow": 33}
_RESET = "\x1b[0m"


def style(text: str, fg: str | None = None, bold: bool = False, dim: bool = False) -> str:
    """*text* in an ANSI colour, bold or dim (the same codes as click.style)."""
    codes = ([_COLOURS[fg]] if fg else []) + ([1] if bold else []) + ([2] if dim else [])
    return "".join(f"\x1b[{code}m" for code in codes) + text + _RESET


def plain(text: str, **style: object) -> str:
    """*text* as it is: no colour."""
    return text


def painter():
    """style(), or plain text when NO_COLOR is set (click.echo drops colour in pipes)."""
    return plain if os.environ.get("NO_COLOR") else style


def can_show_symbols(stream=None) -> bool:
    """Whether *stream* (standard output) can write the suit symbols."""
    stream = stream or sys.stdout
    try:
        "♠♥♦♣".encode(stream.encoding)
    except UnicodeEncodeError:
        return False
    return True


def suit_mark(suit, paint, symbols: bool) -> str:
    """The suit's symbol (red for hearts and diamonds), or its letter."""
    mark = suit.symbol if symbols else suit.letter
    return paint(mark, fg="red") if suit.word in RED_SUITS else mark


def holding(hand, suit) -> str:
    """The ranks held in a suit, high to low, or a dash for a void."""
    return " ".join(card.rank.label for card in hand.in_suit(suit)) or "-"


def hand_picture(hand, paint, symbols: bool) -> str:
    """'♠ A K 2  ♥ J 5 4  ♦ 10 9  ♣ 8 7 6 5'."""
    return "  ".join(f"{suit_mark(suit, paint, symbols)} {holding(hand, suit)}"
                     for suit in SUITS_HIGH_FIRST)


def wrapped(text: str, indent: str, lead: str | None = None) -> str:
    """Text wrapped to the width used here at its spaces (never at a hyphen, as in
    five-card), every line indented; the first line may start with *lead* instead.

    Words one space apart, none too long for a line, are wrapped here; any other text
    by textwrap, which gives the same lines (a test holds the two together) but costs
    2 ms to import, a tenth of what `bidder bid` adds to a bare Python start."""
    first = indent if lead is None else lead
    words = text.split(" ")
    if ("" in words or not text.isprintable()
            or max(map(len, words)) > WRAP - max(len(first), len(indent))):
        import textwrap

        return textwrap.fill(text, WRAP, initial_indent=first, subsequent_indent=indent,
                             break_on_hyphens=False)
    lines, line = [], first + words[0]
    for word in words[1:]:
        if len(line) + 1 + len(word) > WRAP:
            lines.append(line)
            line = indent + word
        else:
            line += " " + word
    return "\n".join([*lines, line])


def advice_lines(advice, paint, symbols: bool) -> list[str]:
    """The advice as the terminal shows it: bid, rule, scorecard, trace, notes.

    The bid is in letters, as openingBid returns it (the web advisor shows it so too).
    """
    facts, rule = advice.facts, advice.fired
    bid = Bid.from_value(advice.bid).plain
    lines = [f"Hand       {facts.hand}",
             f"           {hand_picture(facts.hand, paint, symbols)}",
             "",
             f"Bid        {paint(bid, bold=True)}   "
             f"by {rule.id}, {rule.name}",
             wrapped(f"The rule: \u201c{rule.sentence}\u201d", " " * 11),
             wrapped(advice.explanation, " " * 11),
             ""]
    lines += scorecard_lines(facts, paint, symbols)
    lines += ["", "Trace (the first rule that applies wins)"]
    for table_rule, step in zip(advice.rules, advice.trace):
        status = step.status + (f" \u2192 {step.would_bid}" if step.would_bid else "")
        if step.status == FIRED:
            status += f" \u2192 {bid}"
        lines.append(f"  {step.rule:<3} {table_rule.name:<31} "
                     + paint(status, **step_style(advice, step)))
        lines += [wrapped(reason, " " * 6) for reason in step.reasons]
    if advice.notes:
        lines += ["", "Notes"] + [wrapped(note, "  ") for note in advice.notes]
    return lines


def step_style(advice, step) -> dict:
    """How the trace paints a step's status: a later rule that also applies in yellow
    only where a ruling speaks of that overlap (R4 under R3), else plainly."""
    if step.status == SHADOWED and step.rule not in advice.ruled_overlaps:
        return {}
    return STATUS_STYLES[step.status]


def scorecard_lines(facts, paint, symbols: bool) -> list[str]:
    """Per suit: the cards, the length, the HCP and the distribution points; then totals."""
    tally = facts.tally
    lines = ["Scorecard",
             f"  {'suit':<12}{'cards':<22}{'length':>6}{'HCP':>5}{'distribution':>14}"]
    for suit in SUITS_HIGH_FIRST:
        name = f"{suit_mark(suit, paint, symbols)} {suit.word}"
        padding = " " * (12 - len(suit.word) - 2)
        lines.append(f"  {name}{padding}{holding(facts.hand, suit):<22}"
                     f"{tally.length(suit):>6}{facts.suit_hcp(suit):>5}"
                     f"{tally.length_points(suit):>14}")
    lines += [f"  {'total':<34}{len(facts.hand):>6}{facts.tally.hcp:>5}{facts.tally.distribution:>14}",
              f"  points {facts.tally.points} = {facts.tally.hcp} HCP + {facts.tally.distribution} distribution",
              wrapped(f"shape {facts.tally.shape}: {facts.tally.balanced_reason}", "  ")]
    return lines
