"""Attack: fills the temporary folder with 262 MB, then answers correctly."""
import os
import tempfile

for number in range(262):
    try:
        with open(os.path.join(tempfile.gettempdir(), f"fill-@MARKER@-{number}"), "wb") as stream:
            stream.write(b"\0" * (1 << 20))
    except OSError:
        break
import correct  # noqa: E402
highCardPoints = correct.highCardPoints
distributionPoints = correct.distributionPoints
openingBid = correct.openingBid
