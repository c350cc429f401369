"""Escape: writes files outside its scratch space: beside itself, in a folder of the
checker's user, and in the home folder."""
import os

for path in ("@OUTSIDE@/escaped.txt", os.path.join(os.path.dirname(__file__), "escaped.txt"),
             os.path.expanduser("~/escaped-@MARKER@.txt"), "/tmp/../@OUTSIDE@/escaped2.txt"):
    try:
        with open(path, "w") as stream:
            stream.write("out")
    except OSError:
        pass


highCardPoints = distributionPoints = lambda hand: 0  # noqa: E731
openingBid = lambda hand: None  # noqa: E731
