"""Reading the teaching pages' query and form values, with messages a person can act on."""

from __future__ import annotations

import base64
import binascii
import re
import secrets

from ...bids import Bid
from ...dealing import parse_rule
from ...errors import echo
from ...rules import Rule

MAX_SEED = 999_999_999
YES_WORDS = ("1", "on", "yes", "true")
NO_WORDS = ("", "0", "off", "no", "false")
ANY_WORDS = ("", "any")
_DIGITS = re.compile("[0-9]+")
# Which form field a core DealError or BidError is about.
_FIELD_BY_CODE = {"unknown_bid": "bid", "unknown_rule": "rule", "unreachable": "rule",
                  "mismatch": "rule", "bad_count": "count", "not_found": "seed"}


class ParamError(ValueError):
    """A query or form value a page cannot use; the message says what to send instead."""

    def __init__(self, message: str, field: str):
        super().__init__(message)
        self.message = message
        self.field = field


def plain(text: str) -> str:
    """*text* with anything but printable ASCII replaced by '?', before any parsing."""
    return "".join(ch if ch.isascii() and ch.isprintable() else "?" for ch in text)


def whole_number(text: str, field: str, low: int, high: int, label: str = "") -> int:
    """Read *text* as a whole number from *low* to *high* (commas allowed).

    :raises ParamError: naming *label* (or *field*) and the range to use.
    """
    label = label or field
    cleaned = text.strip().replace(",", "").replace("_", "")
    span = f"use a whole number from {low:,} to {high:,}"
    if not cleaned:
        raise ParamError(f"{label} is empty: {span}", field)
    if not _DIGITS.fullmatch(cleaned):
        raise ParamError(f"{label} {echo(text)} is not a whole number: {span}", field)
    digits = cleaned.lstrip("0") or "0"
    if len(digits) > len(str(high)) or not low <= int(digits) <= high:
        raise ParamError(f"{label} {echo(text)} is out of range: {span}", field)
    return int(digits)


def optional_number(args, field: str, default: int | None, low: int,
                    high: int) -> int | None:
    """The whole number sent as *field*, or *default* when it is missing or blank."""
    text = args.get(field, "")
    return default if not text.strip() else whole_number(text, field, low, high)


def read_flag(args, field: str) -> bool:
    """A yes/no switch such as print=1; missing means no."""
    text = args.get(field, "").strip().lower()
    if text in YES_WORDS + NO_WORDS:
        return text in YES_WORDS
    raise ParamError(f"{field} {echo(text)} is not a switch: use {field}=1 for yes, "
                     f"or leave it out", field)


def read_choice(args, field: str, choices) -> str:
    """One of *choices* (lower case; '' means the default), sent as *field*."""
    text = args.get(field, "").strip().lower()
    if text in choices:
        return text
    named = " or ".join(f"{field}={choice}" for choice in choices if choice)
    raise ParamError(f"{field} {echo(text)} is not one of the choices: use {named}, "
                     f"or leave it out", field)


def read_bid(text: str):
    """A bid from a form or link, read strictly: ``...`` for any bid, else a Bid.

    :raises BidError: if no rule makes that bid.
    """
    return ... if plain(text).strip().lower() in ANY_WORDS else Bid.parse(plain(text))


def read_rule(text: str) -> Rule | None:
    """A rule id from a form or link; None for any rule.

    :raises DealError: if there is no such rule.
    """
    return None if plain(text).strip().lower() in ANY_WORDS else parse_rule(plain(text))


def fresh_seed() -> int:
    """A new random seed for a link that did not name one."""
    return secrets.randbelow(MAX_SEED + 1)


def next_seed(seed: int, step: int = 1) -> int:
    """The seed *step* on, starting again from 0 when a set would run past MAX_SEED."""
    return seed + step if seed + 2 * step - 1 <= MAX_SEED else 0


def error_field(error: ValueError) -> str:
    """The form field a ParamError, or a core DealError or BidError, is about."""
    return getattr(error, "field", None) or _FIELD_BY_CODE[error.code]


def seal(bid: str | None, rule: str | None) -> str:
    """A token for a hidden hand's bid and rule, so that its links never name them (not
    a secret: only not written where a student reads it)."""
    return base64.urlsafe_b64encode(f"{bid or ''}|{rule or ''}".encode()).decode().rstrip("=")


def unseal(token: str) -> tuple[str, str]:
    """The bid and the rule a token from seal() stands for ('' for any).

    :raises ParamError: for a token this site did not make.
    """
    try:
        text = base64.urlsafe_b64decode(plain(token) + "=" * (-len(token) % 4)).decode()
        bid, rule = text.split("|")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise ParamError(f"token {echo(token)} is not a link this site made: use the link "
                         f"your teacher sent as it is, or deal a new hand", "seed") from None
    return bid, rule
