"""Bridge files in and out: PBN and LIN files read into boards, and dealt hands written
for the tools bridge players use (PBN, LIN, Dealer scripts, BBO's hand viewer)."""

from __future__ import annotations

import codecs
import re

from ..pasted import pasted_deal
from . import lin, pbn
from .model import LIN, PBN, BoardError, Reading

_LIN_START = re.compile(r"[A-Za-z]{2}\|")


def decode(data: bytes) -> str:
    """A file's text: UTF-8 (a byte order mark dropped), else Latin-1, the character set
    PBN is written in."""
    try:
        return data.removeprefix(codecs.BOM_UTF8).decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def sniff(text: str) -> str | None:
    """'pbn' or 'lin' by what the text holds (never by a file name), or None for
    anything else, such as a class file of hands and answers."""
    in_comment = False
    for line in text.lstrip("\ufeff").splitlines():
        stripped = line.strip()
        if in_comment or stripped.startswith("{"):
            in_comment = "}" not in stripped
            continue
        if stripped.startswith("% PBN") or stripped.startswith("["):
            return PBN
        if not stripped or stripped[0] in "%;":
            continue
        return LIN if _LIN_START.match(stripped) else None
    return None


def read_boards(text: str) -> Reading:
    """The boards of a PBN or LIN file, told apart by content, or of a bare deal string
    or hand-viewer link (bidder.pasted).

    :raises BoardError: if the text is neither.
    """
    kind = sniff(text)
    deal = pasted_deal(text) if kind is None else None
    if deal is not None:
        return pbn.read(deal.pbn)
    if kind is None:
        raise BoardError("this is neither a PBN file (games of tags such as "
                         "[Deal \"N:...\"]) nor a LIN file (pairs such as md|...|): export "
                         "the boards from your bridge program as PBN or LIN", "not_boards")
    return (pbn.read if kind == PBN else lin.read)(text)
