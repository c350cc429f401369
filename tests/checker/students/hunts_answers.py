"""Cheat: looks everywhere the checker might have put the expected answers."""
import glob
import os

FOUND = []
for pattern in ("/tmp/*", "/tmp/*/*", "/proc/*/cmdline", "/proc/*/environ", "/proc/*/cwd/*",
                "/checker/*", "/submission/*", "@OUTSIDE@/*"):
    for path in glob.glob(pattern):
        try:
            with open(path, "rb") as stream:
                if b"expected" in stream.read(1 << 20):
                    FOUND.append(path)
        except OSError:
            pass
for descriptor in range(64):
    try:
        FOUND.append(os.readlink(f"/proc/self/fd/{descriptor}"))
    except OSError:
        pass


highCardPoints = distributionPoints = lambda hand: 0  # noqa: E731
openingBid = lambda hand: None  # noqa: E731
