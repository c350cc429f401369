"""The one base error: a ValueError with a message for people and a code for programs."""

from __future__ import annotations


class BidderError(ValueError):
    """Text or a request the core cannot use; *message* says what and what to do, *code*
    names the problem for programs (e.g. ``bad_card``, ``unknown_bid``)."""

    def __init__(self, message: str, code: str):
        super().__init__(message)
        self.message = message
        self.code = code
