"""Cheat: writes results.json with full marks, then SIGKILLs the checker (its parent) so
that nothing overwrites it; answers as the stub does."""
import json
import os
import signal

FORGED = {"score": 100.0, "output": "forged @MARKER@", "tests": []}
for folder in ("/autograder/results", "/autograder"):
    try:
        with open(os.path.join(folder, "results.json"), "w") as stream:
            json.dump(FORGED, stream)
    except OSError:
        pass
try:
    os.kill(os.getppid(), signal.SIGKILL)
except OSError:
    pass


highCardPoints = distributionPoints = openingBid = lambda hand: None  # noqa: E731
