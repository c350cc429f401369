"""Attack: terminal escape sequences in everything it says and returns."""
print("\x1b[2J\x1b]0;owned\x07 cleared your screen")


def highCardPoints(hand):
    raise ValueError("\x1b[31mred\x1b[0m \x1b]8;;http://evil.example\x07link\x1b]8;;\x07 \ud800")


def distributionPoints(hand):
    print("\x1b[2J\r\x08\x08", end="")
    return "\x1b[2J"


def openingBid(hand):
    return "1C\x1b[2K\rNone"
