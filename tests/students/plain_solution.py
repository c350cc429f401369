"""A correct solution as a student writes it: split, count, walk the rules in order.

The logic of the benchmarks' plain reference (shared/bench/reference_bid.py), with only
the standard library: the checker runs it sealed, where the bidder package is not there.
"""

HCP = {"A": 4, "K": 3, "Q": 2, "J": 1}
MAJORS = "SH"


def suit_lengths(hand):
    lengths = {"C": 0, "D": 0, "H": 0, "S": 0}
    for card in hand.split():
        lengths[card[-1]] += 1
    return lengths


def suit_hcp(hand, suit):
    return sum(HCP.get(card[:-1], 0) for card in hand.split() if card[-1] == suit)


def highCardPoints(hand):
    return sum(HCP.get(card[:-1], 0) for card in hand.split())


def distributionPoints(hand):
    return sum(max(0, length - 4) for length in suit_lengths(hand).values())


def balanced(lengths):
    shape = sorted(lengths.values(), reverse=True)
    if shape in ([4, 3, 3, 3], [4, 4, 3, 2]):
        return True
    return shape == [5, 3, 3, 2] and 5 in (lengths["C"], lengths["D"])


def two_level_suit(hand, lengths):
    long_suits = [suit for suit in "SHDC" if lengths[suit] >= 5]
    if len(long_suits) < 2:
        return long_suits[0] if long_suits else None
    high, low = long_suits
    if (high in MAJORS) != (low in MAJORS):
        return high if high in MAJORS else low
    if suit_hcp(hand, high) != suit_hcp(hand, low):
        return high if suit_hcp(hand, high) > suit_hcp(hand, low) else low
    if lengths[high] != lengths[low]:
        return high if lengths[high] > lengths[low] else low
    return low


def suit_of_length(lengths, length):
    return next((suit for suit in "SHDC" if lengths[suit] == length), None)


def openingBid(hand):
    hcp, lengths = highCardPoints(hand), suit_lengths(hand)
    points = hcp + distributionPoints(hand)
    if balanced(lengths) and 16 <= hcp <= 18:
        return "1NT"
    if 13 <= points <= 21:
        if lengths["S"] >= 5 or lengths["H"] >= 5:
            return "1H" if lengths["H"] > lengths["S"] else "1S"
        return "1D" if lengths["D"] > lengths["C"] else "1C"
    if balanced(lengths) and 21 <= hcp <= 23:
        return "2NT"
    if points >= 22 and two_level_suit(hand, lengths):
        return "2" + two_level_suit(hand, lengths)
    if 5 <= hcp <= 9 and suit_of_length(lengths, 7):
        return "3" + suit_of_length(lengths, 7)
    if 6 <= hcp <= 8 and suit_of_length(lengths, 8):
        return "4" + suit_of_length(lengths, 8)
    return None
