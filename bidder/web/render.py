"""What every template can use: safe display of typed text, and the core's tables."""

from __future__ import annotations

import unicodedata

from flask import Flask

from ..advice import FAILED, FIRED, NOT_REACHED, SHADOWED
from ..cards import DECK, SUITS_HIGH_FIRST, Hand
from ..facts import LENGTH_POINTS_AFTER
from ..rules import RULE_BY_ID

KEPT_AS_IS = frozenset("\t\n\r\ufe0f")  # ordinary white space; the emoji suit selector
HIDDEN_CATEGORIES = frozenset(("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"))
STATUS_LABELS = {
    FIRED: "Applies: decides the bid",
    FAILED: "Does not apply",
    SHADOWED: "Also applies, but comes later",
    NOT_REACHED: "Not reached",
}
TEMPLATE_GLOBALS = {
    "SUITS": SUITS_HIGH_FIRST,
    "FULL_DECK": Hand(DECK),
    "RULE_BY_ID": RULE_BY_ID,
    "STATUS_LABELS": STATUS_LABELS,
    "LENGTH_POINTS_AFTER": LENGTH_POINTS_AFTER,
}


def visible(text: str | None) -> str:
    """*text* with each control, format, surrogate or unassigned character as U+XXXX.

    A lone surrogate cannot be encoded into a page at all, and a NUL or a zero-width
    space would hide what is wrong with the input; written out, both can be seen.
    """
    return "".join(_visible_character(character) for character in text or "")


def _visible_character(character: str) -> str:
    if character in KEPT_AS_IS or unicodedata.category(character) not in HIDDEN_CATEGORIES:
        return character
    return f"U+{ord(character):04X}"


def init_app(app: Flask) -> None:
    """Make `visible` a template filter and the core's tables template globals."""
    app.add_template_filter(visible)
    app.jinja_env.globals.update(TEMPLATE_GLOBALS)
