"""Cheat: forges results.json, swaps the checker's staging folder for a symlink (so that
its cleanup fails), then SIGKILLs the checker; answers as the stub does."""
import os
import signal
from pathlib import Path

actions = [
    lambda: Path("/autograder/results/results.json").write_text(
        '{"score": 100.0, "output": "forged @MARKER@", "tests": []}'),
    lambda: os.rename(STAGED, STAGED + ".moved"),
    lambda: os.symlink("/autograder", STAGED),
    lambda: os.kill(os.getppid(), signal.SIGKILL),
]
STAGED = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for action in actions:
    try:
        action()
    except OSError:
        pass

highCardPoints = distributionPoints = openingBid = lambda hand: None  # noqa: E731
