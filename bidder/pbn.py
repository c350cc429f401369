"""PBN (Portable Bridge Notation 2.1): dealt hands written as games other programs read."""

from __future__ import annotations

from typing import Iterable

from .advice import explain
from .cards import Hand


def dealt_games(hands: Iterable[Hand], request: str, seed: int, key: bool) -> str:
    """One game per hand, the hand in the North seat, North dealing, the other seats
    unknown; with *key*, the opening by the rules as the auction, its reason as a note."""
    lines = ["% PBN 2.1", f"% bidder deal: {request}, seed {seed}"]
    for number, hand in enumerate(hands, 1):
        lines += ["", f'[Event "Opening bids: {request}"]', '[Site "?"]',
                  '[Date "????.??.??"]', f'[Board "{number}"]', '[West "?"]',
                  '[North "?"]', '[East "?"]', '[South "?"]', '[Dealer "N"]',
                  '[Vulnerable "None"]', f'[Deal "N:{hand.dotted} - - -"]',
                  '[Scoring "?"]', '[Declarer "?"]', '[Contract "?"]', '[Result "?"]']
        if key:
            advice = explain(hand)
            call = "Pass" if advice.bid is None else advice.bid
            lines += ['[Auction "N"]', f"{call} {{{advice.explanation}}}"]
    return "\n".join(lines)
