"""Attack: closes every descriptor it has, then answers."""
import os

os.closerange(0, 256)


highCardPoints = distributionPoints = lambda hand: 0  # noqa: E731
openingBid = lambda hand: None  # noqa: E731
