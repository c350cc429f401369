"""Attack: allocates 4 GB at import."""
HOARD = bytearray(4 * 1024 ** 3)


highCardPoints = distributionPoints = lambda hand: 0  # noqa: E731
openingBid = lambda hand: None  # noqa: E731
