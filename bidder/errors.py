"""Echoing text that came from a user or a student's code, safely."""

from __future__ import annotations

QUOTE_LIMIT = 60


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """*text* made safe to print: every control character (terminal escapes included),
    lone surrogate and other unprintable character written as U+XXXX, cut to *limit*
    characters with an ellipsis."""
    safe = "".join(character if character.isprintable() else f"U+{ord(character):04X}"
                   for character in text)
    return safe if len(safe) <= limit else safe[:limit - 1] + "…"
