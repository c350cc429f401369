"""bidder: the opening bid for a bridge hand, by the assignment's rules, explained.

>>> from bidder import highCardPoints, distributionPoints, openingBid
>>> openingBid('5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C')
'1C'
"""

from .advice import Advice, Step, explain
from .assignment import distributionPoints, highCardPoints, openingBid
from .bids import NO_BID, Bid, BidError
from .cards import Card, Hand, InvalidHandError, InvalidHandWarning, Rank, Suit, parse_hand
from .facts import Facts, Tally
from .rules import RULE_BY_ID, RULES, Rule

__all__ = [
    "highCardPoints", "distributionPoints", "openingBid", "explain", "parse_hand",
    "Advice", "Step", "Card", "Hand", "Facts", "Tally", "Rank", "Suit", "Rule",
    "RULES", "RULE_BY_ID", "InvalidHandError", "InvalidHandWarning", "Bid", "NO_BID",
    "BidError",
]
