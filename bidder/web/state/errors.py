"""The one error a store raises, whatever went wrong underneath."""

from __future__ import annotations


class StoreUnavailable(Exception):
    """The store cannot be read or written just now; the message says why, in words."""
