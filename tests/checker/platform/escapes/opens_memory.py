"""Attack: opens the checker's memory (/proc/<parent>/mem) for reading and writing, and
says so in its answer; answers as the stub does where it cannot."""
import os

opened = []
for pid in (os.getppid(), 1):
    try:
        descriptor = os.open(f"/proc/{pid}/mem", os.O_RDWR)
        os.close(descriptor)
        opened.append(f"opened /proc/{pid}/mem @MARKER@")
    except OSError:
        pass
OPENED = " ".join(opened) or None


def highCardPoints(hand):
    pass


def distributionPoints(hand):
    pass


def openingBid(hand):
    return OPENED
