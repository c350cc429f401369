"""Many hands read at once with NumPy, for grading a class file: a chunk of hands written
as the assignment writes them is one table of bytes. Only grading imports NumPy."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

import numpy as np

from ..cards import DECK, HAND_SIZE, Rank
from ..packed import CARD_PROFILES, KEY_MASK

_RANKS = len(Rank)
_TOKEN_WIDTH = 3  # a rank letter (T for ten), a suit letter, a space or the line's end


def read_batch(hands: Sequence[bytes]) -> tuple[list[str | None], list[int], list[int]]:
    """For each hand written as the assignment writes it (13 different tokens such as
    10H or AS, single spaces, as bytes; T for ten too): its canonical text, its tally key
    (what ``packed.decide_key`` decides) and its profile. The text is None where the hand is
    written any other way, or is not 13 different cards: read() and the parser must
    look at it.

    With 10 written as T, every such hand is 13 tokens of two letters: a table of rows
    of three bytes.
    """
    count = len(hands)
    texts: list[str | None] = [None] * count
    keys, profiles = [0] * count, [0] * count
    if not count:
        return texts, keys, profiles
    tables = _batch_tables()
    text = np.frombuffer(b"\n".join(hands).replace(b"10", b"T") + b"\n", np.uint8)
    ends = np.flatnonzero(text == ord("\n"))
    if len(ends) != count:  # a hand holding a newline: the parser says what is wrong
        return texts, keys, profiles
    starts = np.concatenate(([0], ends[:-1] + 1))
    shaped = np.flatnonzero(ends - starts == HAND_SIZE * _TOKEN_WIDTH - 1)
    if not len(shaped):
        return texts, keys, profiles
    rows = text[starts[shaped, None] + np.arange(HAND_SIZE * _TOKEN_WIDTH)].reshape(
        len(shaped), HAND_SIZE, _TOKEN_WIDTH)
    ranks, suits = tables.rank_of[rows[:, :, 0]], tables.suit_of[rows[:, :, 1]]
    good = (ranks >= 0) & (suits >= 0)
    places = np.where(good, suits * np.int8(_RANKS) + ranks, np.int8(0))
    ordered = np.sort(places, axis=1)[:, ::-1]
    good = (good.all(axis=1) & (rows[:, :-1, 2] == ord(" ")).all(axis=1)
            & (np.diff(ordered, axis=1) != 0).all(axis=1))
    found = tables.profile_of[places].sum(axis=1)
    words = tables.word_of[ordered]
    words[:, -1] = tables.last_word_of[ordered[:, -1]]
    read = words.tobytes().replace(b"\0", b"").decode("ascii").split("\n")[:-1]
    if len(shaped) == count and good.all():  # the common case: every hand read
        return read, (found & KEY_MASK).tolist(), found.tolist()
    for index, ok, hand_text, value, key in zip(
            shaped.tolist(), good.tolist(), read, found.tolist(),
            (found & KEY_MASK).tolist()):
        if ok:
            texts[index], keys[index], profiles[index] = hand_text, key, value
    return texts, keys, profiles


@dataclass(frozen=True)
class _BatchTables:
    """Lookup tables for read_batch(), by byte and by place in the deck."""

    rank_of: object  # byte -> rank's place among two to ace (T for ten), -1 if none
    suit_of: object  # byte -> suit number, -1 if not a suit letter
    profile_of: object  # place -> the card's part of a profile
    word_of: object  # place -> its token and a space (fixed width, padded with NUL)
    last_word_of: object  # place -> its token and a newline


@lru_cache(maxsize=1)
def _batch_tables() -> _BatchTables:
    rank_of, suit_of = np.full(256, -1, np.int8), np.full(256, -1, np.int8)
    for card in DECK:
        token = str(card).replace("10", "T").encode("ascii")
        rank_of[token[0]] = card.rank - Rank.TWO
        suit_of[token[1]] = card.suit
    tokens = [str(card) for card in DECK]
    return _BatchTables(
        rank_of, suit_of, np.array(CARD_PROFILES, np.int64),
        np.array([(token + " ").encode("ascii") for token in tokens], "S4"),
        np.array([(token + "\n").encode("ascii") for token in tokens], "S4"))
