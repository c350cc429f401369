"""Boards as bridge players keep them, and their files: PBN and LIN read and written,
Dealer scripts, BBO hand-viewer links, and every seat's opening by the rules."""

from .dealer import script
from .files import decode, read_boards, sniff
from .handviewer import board_url, hand_url
from .lin import dealt_lines
from .model import (COLUMNS, LIN, PBN, Auction, Board, BoardError, Call, Reading, Seat,
                    Vulnerability)
from .openings import Openings, openings
from .pbn import dealt_games

__all__ = ["COLUMNS", "LIN", "PBN", "Auction", "Board", "BoardError", "Call", "Openings",
           "Reading", "Seat", "Vulnerability", "board_url", "decode", "dealt_games",
           "dealt_lines", "hand_url", "openings", "read_boards", "script", "sniff"]
