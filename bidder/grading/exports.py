"""Class files as courses export them (Google Forms, Microsoft Forms, Canvas, Moodle,
Excel): the encoding detected, the delimiter sniffed, the columns found by their headers,
and every record rewritten as the class file's own line, HAND,ANSWER,ID, on the line
where it started, so that the fast path grades it and the line numbers are the file's.

A file already in the class file's own layout (UTF-8, commas or tabs, hand first, no
header naming other columns, no cell spanning lines) is left as it is."""

from __future__ import annotations

import codecs
import csv
import io
import re
from dataclasses import dataclass
from typing import BinaryIO

HEAD_BYTES = 1 << 16  # what is read to decide the layout
DELIMITERS = {",": "comma", ";": "semicolon", "\t": "tab"}
ENCODING_NAMES = {"utf-8": "UTF-8", "utf-8-sig": "UTF-8 with a byte order mark",
                  "utf-16": "UTF-16", "cp1252": "Windows-1252"}
# Header words, lower case: the hand, the answer, and who answered.
_HAND = re.compile(r"\bhands?\b|^question\b")
_ANSWER = re.compile(r"answer|response|\bbids?\b|opening")
_NOT_ANSWER = re.compile(r"\b(?:right|correct|expected)\b")
_NAME = re.compile(r"\b(?:full )?name\b")
_FIRST_NAME = re.compile(r"^first ?name$")
_SURNAME = re.compile(r"^(?:surname|last ?name)$")
_EMAIL = re.compile(r"e-?mail")
_ID = re.compile(r"^(?:id|student(?: id)?|user ?name|login)$")


@dataclass(frozen=True, slots=True)
class Columns:
    """Where the hand, the answer and who answered stand (indexes; None if absent), the
    header's cells, and where to look for who answered when those cells are empty (an
    email, an id: an anonymous reply has no name)."""

    header: tuple[str, ...]
    hand: int
    answer: int | None
    who: tuple[int, ...]
    also: tuple[int, ...] = ()

    def describe(self) -> str:
        """Which header gave which column, and how many were ignored."""
        named = [f"hand '{self.header[self.hand]}'"]
        if self.answer is not None:
            named.append(f"answer '{self.header[self.answer]}'")
        if self.who:
            also = ", else ".join(f"'{self.header[index]}'" for index in self.also)
            named.append("id " + " + ".join(f"'{self.header[index]}'" for index in self.who)
                         + (f" (else {also})" if also else ""))
        ignored = (len(self.header) - len(named) - max(len(self.who) - 1, 0)
                   - len(self.also))
        return ", ".join(named) + (f"; {ignored} other column{'s' * (ignored != 1)} ignored"
                                   if ignored else "")


@dataclass(frozen=True, slots=True)
class Layout:
    """How a class file is written: its encoding, its delimiter and its columns (None
    when it has no header and is hand, answer, id in that order)."""

    encoding: str
    delimiter: str
    columns: Columns | None

    def describe(self) -> str:
        """What was detected, in a phrase for the summary."""
        where = (f"columns by header: {self.columns.describe()}" if self.columns else
                 "no header: hand, answer, id in that order")
        return (f"{ENCODING_NAMES[self.encoding]}, {DELIMITERS[self.delimiter]}-separated, "
                f"{where}")


def encoding_of(head: bytes) -> str:
    """The encoding of a file that starts with *head*: a byte order mark says UTF-8 or
    UTF-16, else UTF-8 when it decodes (a character cut where a full head ends allowed),
    else Windows-1252 (what Excel writes)."""
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head, final=len(head) < HEAD_BYTES)
    except UnicodeDecodeError:
        return "cp1252"
    return "utf-8"


def delimiter_of(line: str) -> str:
    """The delimiter of a first line: a tab if it has one, else a semicolon if it has
    more of them than commas (Excel in much of Europe), else a comma."""
    bare = re.sub(r'"[^"]*"', "", line)  # quoted cells may hold any of them
    if "\t" in bare:
        return "\t"
    return ";" if bare.count(";") > bare.count(",") else ","


def columns_of(header: list[str]) -> Columns | None:
    """The hand, answer and who-answered columns a header names; None if no cell names
    a hand (then the first line is not a header)."""
    words = [" ".join(cell.lower().replace("_", " ").split()) for cell in header]
    hand = _first(words, lambda word: _HAND.search(word))
    if hand is None:
        return None
    answer = _first(words, lambda word: _ANSWER.search(word) and not _NOT_ANSWER.search(word)
                    and not _HAND.search(word))
    who = _who(words)
    return Columns(tuple(cell.strip() for cell in header), hand, answer, who,
                   _also(words, who))


def _who(words: list[str]) -> tuple[int, ...]:
    """Who answered: a name (or first name and surname), else an email, else an id."""
    first = _first(words, _FIRST_NAME.match)
    last = _first(words, _SURNAME.match)
    if first is not None and last is not None:
        return first, last
    for pattern in (_NAME.search, _EMAIL.search, _ID.match):
        found = _first(words, pattern)
        if found is not None:
            return (found,)
    return ()


def _also(words: list[str], who: tuple[int, ...]) -> tuple[int, ...]:
    """Where else to look, in turn, when the cells of *who* are empty: an email, an id."""
    found = (_first(words, _EMAIL.search), _first(words, _ID.match))
    return tuple(index for index in found if index is not None and index not in who)


def _first(words: list[str], test) -> int | None:
    return next((index for index, word in enumerate(words) if test(word)), None)


def layout_of(head: bytes) -> Layout | None:
    """The layout of a file that starts with *head*, or None when it is the class
    file's own (graded as it is)."""
    encoding = encoding_of(head)
    text = codecs.getincrementaldecoder(encoding)(errors="replace").decode(head)
    first_line = text.lstrip("\ufeff").split("\n", 1)[0].rstrip("\r")
    delimiter = delimiter_of(first_line)
    columns = columns_of(next(csv.reader([first_line], delimiter=delimiter), []))
    own = (encoding in ("utf-8", "utf-8-sig") and delimiter != ";" and not _spans_lines(text)
           and (columns is None or _own_order(columns)))
    return None if own else Layout(encoding, delimiter, columns)


def _own_order(columns: Columns) -> bool:
    """Whether a header is the class file's own: hand, answer, id, nothing else."""
    return (columns.hand == 0 and columns.answer in (None, 1)
            and len(columns.header) <= 3 and columns.who in ((), (2,)))


def _spans_lines(text: str) -> bool:
    """Whether a quoted cell in *text* holds a line break."""
    if '"' not in text:
        return False
    complete = text[:text.rfind("\n") + 1]
    return any("\n" in cell or "\r" in cell
               for row in csv.reader(io.StringIO(complete, newline="")) for cell in row)


def rewritten(data: bytes, layout: Layout) -> bytes:
    """A class file in *layout* as the class file's own lines (UTF-8, HAND,ANSWER,ID),
    each record on the line where it started, blank lines for the rest."""
    text = data.decode(layout.encoding, errors="replace")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=layout.delimiter)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    written = done = 0
    for record in reader:
        out.write("\n" * (done - written))  # the lines a multi-line record took
        if layout.columns is not None and done == 0:
            out.write("\n")  # the header
        else:
            writer.writerow(_own_line(record, layout.columns))
        written, done = done + 1, reader.line_num
    return out.getvalue().encode("utf-8")


def _own_line(record: list[str], columns: Columns | None) -> list[str]:
    """One record as the cells HAND, ANSWER, ID, each on one line."""
    if not any(cell.strip() for cell in record):
        return []
    if columns is None:
        cells = record
    else:
        who = " ".join(_cell(record, index) for index in columns.who).strip()
        for index in columns.also:
            who = who or _cell(record, index).strip()
        cells = [_cell(record, columns.hand), _cell(record, columns.answer), who]
    return [" ".join(cell.split()) for cell in cells]


def _cell(record: list[str], index: int | None) -> str:
    return record[index] if index is not None and index < len(record) else ""


class Prefixed:
    """A stream that gives *head* back before the rest of *stream*."""

    def __init__(self, head: bytes, stream: BinaryIO):
        self.head, self.stream = head, stream

    def read(self, size: int = -1) -> bytes:
        """Up to *size* bytes (all that is left for -1)."""
        if not self.head:
            return self.stream.read(size)
        if size < 0:
            data, self.head = self.head + self.stream.read(), b""
            return data
        data, self.head = self.head[:size], self.head[size:]
        return data


def opened(source: BinaryIO) -> tuple[BinaryIO, Layout | None]:
    """*source* ready for the class file reader, and the layout detected (None for the
    class file's own, then given back unread where it can be)."""
    head = source.read(HEAD_BYTES)
    layout = layout_of(head)
    if layout is not None:
        return io.BytesIO(rewritten(head + source.read(), layout)), layout
    try:
        source.seek(-len(head), io.SEEK_CUR)
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return Prefixed(head, source), None
    return source, None
