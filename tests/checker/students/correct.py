"""A plain, correct solution, as a good student writes it: the check passes it."""

HCP = {"A": 4, "K": 3, "Q": 2, "J": 1}


def cards(hand):
    """(rank, suit) pairs."""
    return [(card[:-1], card[-1]) for card in hand.split()]


def lengths(hand):
    """Cards per suit."""
    counts = {"C": 0, "D": 0, "H": 0, "S": 0}
    for _, suit in cards(hand):
        counts[suit] += 1
    return counts


def suit_points(hand, suit):
    """HCP within one suit."""
    return sum(HCP.get(rank, 0) for rank, card_suit in cards(hand) if card_suit == suit)


def highCardPoints(hand):
    return sum(HCP.get(rank, 0) for rank, _ in cards(hand))


def distributionPoints(hand):
    return sum(max(0, count - 4) for count in lengths(hand).values())


def balanced(counts):
    shape = sorted(counts.values())
    if shape in ([3, 3, 3, 4], [2, 3, 4, 4]):
        return True
    return shape == [2, 3, 3, 5] and 5 in (counts["C"], counts["D"])


def two_level(hand, counts):
    long_suits = [suit for suit in "SHDC" if counts[suit] >= 5]
    if len(long_suits) == 1:
        return long_suits[0]
    high, low = long_suits
    if (high in "HS") != (low in "HS"):
        return high if high in "HS" else low
    if suit_points(hand, high) != suit_points(hand, low):
        return max(long_suits, key=lambda suit: suit_points(hand, suit))
    if counts[high] != counts[low]:
        return max(long_suits, key=lambda suit: counts[suit])
    return low


def openingBid(hand):
    counts = lengths(hand)
    hcp = highCardPoints(hand)
    points = hcp + distributionPoints(hand)
    if balanced(counts) and 16 <= hcp <= 18:
        return "1NT"
    if 13 <= points <= 21 and (counts["H"] >= 5 or counts["S"] >= 5):
        return "1H" if counts["H"] > counts["S"] else "1S"
    if 13 <= points <= 21:
        return "1D" if counts["D"] > counts["C"] else "1C"
    if balanced(counts) and 19 <= hcp <= 20:
        return "1D" if counts["D"] >= 4 and counts["D"] >= counts["C"] else "1C"
    if balanced(counts) and 21 <= hcp <= 23:
        return "2NT"
    if points >= 22 and max(counts.values()) >= 5:
        return "2" + two_level(hand, counts)
    for low, high, length, level in ((5, 9, 7, "3"), (6, 10, 8, "4")):
        if low <= hcp <= high and length in counts.values():
            return level + [suit for suit in "SHDC" if counts[suit] == length][0]
    return None
