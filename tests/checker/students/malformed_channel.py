"""Attack: breaks the checker's channel with half a line, junk and a wrong shape."""
import os

for descriptor in range(3, 16):
    try:
        os.write(descriptor, b'{"event": "call", "function": 7}\n\xff\xfe not json\n{"event":')
    except OSError:
        pass


highCardPoints = distributionPoints = lambda hand: 0  # noqa: E731
openingBid = lambda hand: None  # noqa: E731
