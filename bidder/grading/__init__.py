"""Grading a class's answers: a class file of hands and answers (``classfile``), or the
boards of a PBN or LIN file, every seat's opening by the rules (``boards``)."""

from . import boards
from .classfile import COLUMNS, LineError, PoolBroken, Row, Summary, grade_stream, summarise

__all__ = ["COLUMNS", "LineError", "PoolBroken", "Row", "Summary", "boards", "grade_stream",
           "summarise"]
