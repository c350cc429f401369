"""The one base error, and echoing text that came from a user or a student's code safely."""

from __future__ import annotations

QUOTE_LIMIT = 60
ECHO_LIMIT = 20  # a token or a short field, echoed inside a sentence


class BidderError(ValueError):
    """Text or a request the core cannot use; *message* says what and what to do, *code*
    names the problem for programs (e.g. ``bad_card``, ``unknown_bid``)."""

    def __init__(self, message: str, code: str):
        super().__init__(message)
        self.message = message
        self.code = code

    def __reduce__(self):
        """Pickled with its message, code and any other attribute (a pool process sends
        it back to the request that asked)."""
        return type(self), (self.message, self.code), self.__dict__


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """*text* made safe to print: every control character (terminal escapes included),
    lone surrogate and other unprintable character written as U+XXXX, cut to *limit*
    characters with an ellipsis."""
    safe = "".join(character if character.isprintable() else f"U+{ord(character):04X}"
                   for character in text)
    return safe if len(safe) <= limit else safe[:limit - 1] + "…"


def echo(text: str) -> str:
    """User text quoted for a message: "'1H'", made safe and cut short by quote()."""
    return f"'{quote(text, ECHO_LIMIT)}'"
