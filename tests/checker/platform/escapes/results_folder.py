"""Attack: makes results.json a folder (and its folder unwritable), so that no result can be
written at all; answers as the stub does."""
import os

for action in (lambda: os.makedirs("/autograder/results/results.json/x"),
               lambda: os.chmod("/autograder/results", 0o500)):
    try:
        action()
    except OSError:
        pass


highCardPoints = distributionPoints = openingBid = lambda hand: None  # noqa: E731
