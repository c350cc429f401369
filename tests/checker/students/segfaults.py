"""Crash: reads address 0 through ctypes, so the interpreter dies of a segmentation fault."""
import ctypes


def highCardPoints(hand):
    return ctypes.string_at(0)


def distributionPoints(hand):
    return 0


def openingBid(hand):
    return None
