"""Grading a class file: the opening bid for every hand, and each student's answer marked.

A class file holds one hand per line, optionally followed by a student's answer and an id::

    HAND [SEP ANSWER [SEP ID]]

SEP is a tab when the line has one, else a comma (spreadsheet quoting is understood).
HAND is anything the parser accepts; when its cards are themselves separated by commas
(``AS,KS,...``), the first 13 comma-separated fields are the hand. ANSWER is a bid written
any common way (``1NT``, ``2h``, ``1♠``, ``3 hearts``, ``'1C'``: see ``bidder.bids``);
``None``, ``Pass``, ``P``, ``-`` or ``No bid`` mean no bid. An empty answer field, as
spreadsheets export an unanswered cell, or no answer field at all, leaves the hand
unanswered: graded without a verdict. Blank lines, lines starting with ``#`` and a first
line starting with the word ``hand`` are skipped.
Lines are numbered by ``\\n`` only, so the numbers match any editor's.

Big files are graded in chunks by a pool of processes, in order and in flat memory.
"""

from __future__ import annotations

import codecs
import csv
import io
import json
import os
import re
import stat
from collections import Counter, deque
from contextlib import closing
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import chain, count, islice
from typing import BinaryIO, Callable, Iterable, Iterator, NamedTuple, TextIO

from .. import packed
from ..bids import BLANKS, Bid, BidError
from ..cards import HAND_SIZE, InvalidHandError, parse_hand, read_cards
from ..facts import Tally
from .exports import opened

LINE_LIMIT = 4096
CHUNK_LINES = 5000
FIRST_BAD_SHOWN = 10
COLUMNS = ("line", "id", "hand", "bid", "rule", "hcp", "distribution", "points",
           "answer", "correct", "error")
BLOCK_SIZE = 1 << 16  # bytes read at a time
SPAN_BYTES = 1 << 20  # about the bytes of whole lines a worker reads itself from a file
_FIELDS_AFTER_HAND = 2



class LineError(ValueError):
    """A line that cannot be graded; the message says what is wrong and what to do."""


class PoolBroken(RuntimeError):
    """A worker process died, so the run cannot finish."""


class Row(NamedTuple):
    """One graded line, or a bad one with its error.

    *bid* is the hand's opening (None when the hand could not be read); *answer* is the
    student's bid (None when unanswered). A bad answer keeps the hand's bid, rule and
    points beside its error, so the right answer is still seen.
    """

    line: int
    hand: str
    id: str = ""
    bid: Bid | None = None
    rule: str = ""
    hcp: int | None = None
    distribution: int | None = None
    points: int | None = None
    answer: Bid | None = None
    correct: bool | None = None
    error: str = ""

    def cells(self) -> list:
        """The row as CSV cells: bids in text form ('None' for no bid), 'yes'/'no' for
        the verdict, empty where there is nothing (no answer, or no hand to bid)."""
        verdict = "" if self.correct is None else "yes" if self.correct else "no"
        return [self.line, self.id, self.hand, _blank(self.bid), self.rule,
                _blank(self.hcp), _blank(self.distribution), _blank(self.points),
                _blank(self.answer), verdict, self.error]

    def to_dict(self) -> dict:
        """The row as JSON types: no bid is null; correct is null when unanswered."""
        return dict(zip(COLUMNS, (
            self.line, self.id, self.hand, _value(self.bid), self.rule or None, self.hcp,
            self.distribution, self.points, _value(self.answer), self.correct,
            self.error or None)))


def _blank(value: int | Bid | None) -> int | str:
    return "" if value is None else value if isinstance(value, int) else str(value)


def _value(bid: Bid | None) -> str | None:
    return None if bid is None else bid.text


@dataclass(frozen=True)
class Summary:
    """Counts over graded rows: hands, right and wrong answers per rule, wrong bids given
    (keyed by rule id and the Bid given)."""

    hands: Counter = field(default_factory=Counter)
    right: Counter = field(default_factory=Counter)
    wrong: Counter = field(default_factory=Counter)
    wrong_bids: Counter = field(default_factory=Counter)
    bad_lines: int = 0
    first_bad: tuple[int, ...] = ()
    detected: str = ""  # how an exported file was read (grading.exports), if it was one

    def __add__(self, other: Summary) -> Summary:
        return Summary(self.hands + other.hands, self.right + other.right,
                       self.wrong + other.wrong, self.wrong_bids + other.wrong_bids,
                       self.bad_lines + other.bad_lines,
                       (self.first_bad + other.first_bad)[:FIRST_BAD_SHOWN],
                       self.detected or other.detected)

    @property
    def graded(self) -> int:
        """Hands graded."""
        return sum(self.hands.values())

    @property
    def answered(self) -> int:
        """Answers marked."""
        return sum(self.right.values()) + sum(self.wrong.values())

    @property
    def unanswered(self) -> int:
        """Hands graded without an answer to mark."""
        return self.graded - self.answered

    def wrong_bids_for(self, rule: str) -> list[tuple[Bid, int]]:
        """The wrong bids given for hands *rule* decides, most frequent first, then in
        bidding order."""
        return sorted(((given, times) for (decided, given), times in self.wrong_bids.items()
                       if decided == rule), key=lambda item: (-item[1], item[0]))


def summarise(rows: Iterable[Row]) -> Summary:
    """Count the rows."""
    hands, right, wrong, wrong_bids, bad = Counter(), Counter(), Counter(), Counter(), []
    for row in rows:
        if row.error:
            bad.append(row.line)
            continue
        hands[row.rule] += 1
        if row.correct:
            right[row.rule] += 1
        elif row.correct is not None:
            wrong[row.rule] += 1
            wrong_bids[row.rule, row.answer] += 1
    return Summary(hands, right, wrong, wrong_bids, len(bad), tuple(bad[:FIRST_BAD_SHOWN]))


# Reading a line ------------------------------------------------------------

def read_hand(text: str) -> tuple[str, int]:
    """The canonical form of a hand and its packed code.

    :raises InvalidHandError: if *text* is not a hand, as ``parse_hand`` says.
    """
    code = packed.encode(text)
    if code is None:
        code = packed.encode_cards(parse_hand(text))
    return packed.text(code), code


def split_fields(text: str) -> tuple[str, str | None, str]:
    """(hand, answer or None when absent, id) from one line's text.

    :raises LineError: if there are more fields than hand, answer and id.
    """
    separator = "\t" if "\t" in text else ","
    if '"' in text:
        try:
            fields = next(csv.reader([text], delimiter=separator))
        except csv.Error:  # a line break inside a field its quotes do not enclose
            raise LineError("a carriage return (\\r) in the middle of the line, outside "
                            "quotes: remove it, or quote the field that holds it") from None
    else:
        fields = text.split(separator)
    size = HAND_SIZE if separator == "," and _is_one_card(fields[0].strip()) else 1
    hand, rest = separator.join(fields[:size]), fields[size:]
    while len(rest) > _FIELDS_AFTER_HAND and not rest[-1].strip():
        rest.pop()
    if len(rest) > _FIELDS_AFTER_HAND:
        raise LineError(f"{len(rest)} fields after the hand; a line holds a hand, then "
                        f"at most an answer and an id (use tabs between them, or commas)")
    answer = rest[0] if rest else None
    student = rest[1] if len(rest) == _FIELDS_AFTER_HAND else ""
    return hand, answer, student.strip()


def _is_one_card(text: str) -> bool:
    if len(text) > len("10♠\ufe0f"):
        return False
    try:
        return len(read_cards(text)) == 1
    except InvalidHandError:
        return False


def is_skipped(text: str, number: int) -> bool:
    """Blank lines, comments and a header line carry no hand."""
    stripped = text.strip()
    if not stripped or stripped.startswith("#"):
        return True
    return number == 1 and re.match(r"hand\b", stripped, re.IGNORECASE) is not None


def grade_line(number: int, raw: bytes | int) -> Row | None:
    """Grade one line of a class file (*raw* is its length when it was too long to read).

    :returns: None for a line that carries no hand (blank, comment, header).
    """
    if isinstance(raw, int):
        return Row(number, "", error=f"the line is {raw:,} bytes long; a line holds one "
                                     f"hand, an answer and an id (at most {LINE_LIMIT:,})")
    if number == 1:
        raw = raw.removeprefix(codecs.BOM_UTF8)
    try:
        text = raw.rstrip(b"\r\n").decode("utf-8")
    except UnicodeDecodeError as problem:
        return Row(number, raw.rstrip(b"\r\n").decode("utf-8", "backslashreplace"),
                   error=f"byte 0x{raw[problem.start]:02X} at column {problem.start + 1} is "
                         f"not UTF-8 text: save the file as UTF-8")
    if is_skipped(text, number):
        return None
    hand_text, student = text, ""
    try:
        hand_text, answer_text, student = split_fields(text)
        hand, code = read_hand(hand_text)
    except (InvalidHandError, LineError) as problem:
        return Row(number, hand_text, student, error=str(problem))
    rule, bid = packed.decide(code)
    row = Row(number, hand, student, Bid.from_value(bid), rule.id,
              *_counts(packed.tally(code)))
    if answer_text is None or not answer_text.strip(BLANKS):
        return row
    try:
        answer = Bid.parse(answer_text, lenient=True)
    except BidError as problem:
        return row._replace(error=f"answer {problem.message}")
    return row._replace(answer=answer, correct=answer == row.bid)


@lru_cache(maxsize=1 << 15)
def _counts(tally: Tally) -> tuple[int, int, int]:
    """HCP, distribution points and points."""
    return tally.hcp, tally.distribution, tally.points


# Writing rows ----------------------------------------------------------------

def header(output_format: str) -> str:
    """What starts the output: the CSV header line, or nothing for JSON Lines."""
    return ",".join(COLUMNS) + "\n" if output_format == "csv" else ""


def render_rows(rows: list[Row], output_format: str) -> str:
    """Rows as CSV lines or JSON Lines."""
    if output_format == "jsonl":
        return "".join(json.dumps(row.to_dict(), ensure_ascii=False) + "\n" for row in rows)
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(row.cells() for row in rows)
    return buffer.getvalue()


# Reading a file in chunks ----------------------------------------------------

@dataclass(frozen=True, slots=True)
class Chunk:
    """Consecutive raw lines; a too-long line is given as its length in bytes."""

    first: int
    lines: tuple[bytes | int, ...]

    @property
    def size(self) -> int:
        """Bytes read for these lines."""
        try:
            return sum(map(len, self.lines))
        except TypeError:  # a too-long line, given as its length
            return sum(line if isinstance(line, int) else len(line) for line in self.lines)


@dataclass(frozen=True, slots=True)
class Graded:
    """A graded chunk: its output text, its counts and its bad lines."""

    text: str
    summary: Summary
    errors: tuple[tuple[int, str], ...]
    size: int


def bounded_lines(stream: BinaryIO, limit: int = LINE_LIMIT) -> Iterator[bytes | int]:
    """The lines of *stream*, split on b'\\n' only; a line longer than *limit* bytes is
    skipped and given as its length."""
    for lines in line_blocks(stream, limit):
        yield from lines


def line_blocks(stream: BinaryIO, limit: int = LINE_LIMIT, block_size: int = BLOCK_SIZE
                ) -> Iterator[list[bytes | int]]:
    """bounded_lines() a block of *stream* at a time: read in blocks of *block_size*
    bytes and split in one step, never holding more than a block and *limit* bytes."""
    rest, skipped = b"", 0  # the line begun in the last block; bytes of a long one passed
    while block := stream.read(block_size):
        if skipped:
            end = block.find(b"\n")
            if end < 0:
                skipped += len(block)
                continue
            yield [skipped + end + 1]
            skipped, block = 0, block[end + 1:]
        parts = (rest + block).split(b"\n")
        rest = parts.pop()
        if len(rest) > limit:
            skipped, rest = len(rest), b""
        if parts and max(map(len, parts)) > limit:
            yield [part + b"\n" if len(part) <= limit else len(part) + 1 for part in parts]
        elif parts:
            yield [part + b"\n" for part in parts]
    if skipped or rest:
        yield [skipped or (rest if len(rest) <= limit else len(rest))]


@dataclass(frozen=True, slots=True)
class Span:
    """Whole lines of a regular file, bytes *start* to *end*, for a worker to read itself:
    the file's descriptor (inherited when the pool forks) and the first line's number."""

    descriptor: int
    first: int
    start: int
    end: int


class SpanReader:
    """The bytes of a Span as a stream, read by position (os.pread), so that workers
    sharing one descriptor never move each other's place in the file."""

    def __init__(self, span: Span):
        self.span, self.position = span, span.start

    def read(self, size: int) -> bytes:
        """Up to *size* more bytes of the span; b'' at its end."""
        data = os.pread(self.span.descriptor, min(size, self.span.end - self.position),
                        self.position)
        self.position += len(data)
        return data


def file_spans(stream: BinaryIO, span_bytes: int = SPAN_BYTES) -> list[Span] | None:
    """*stream*, from where it stands, as spans of whole lines of about *span_bytes*
    each, numbered; None when it is not a regular file (a pipe, a terminal, memory)."""
    try:
        descriptor = stream.fileno()
        start, status = stream.tell(), os.fstat(descriptor)
    except (AttributeError, OSError, io.UnsupportedOperation):
        return None
    if not stat.S_ISREG(status.st_mode):
        return None
    spans, first = [], 1
    while start < status.st_size:
        end = _line_end(descriptor, min(start + span_bytes, status.st_size))
        spans.append(Span(descriptor, first, start, end))
        first += _newlines(descriptor, start, end)
        start = end
    return spans


def _line_end(descriptor: int, position: int) -> int:
    """Where the line holding the byte before *position* ends (after its newline), or
    the end of the file."""
    while block := os.pread(descriptor, BLOCK_SIZE, position - 1):
        newline = block.find(b"\n")
        if newline >= 0:
            return position + newline
        position += len(block)
    return position - 1


def _newlines(descriptor: int, start: int, end: int) -> int:
    """The newlines in bytes *start* to *end* of a file."""
    reader = SpanReader(Span(descriptor, 0, start, end))
    return sum(block.count(b"\n") for block in iter(lambda: reader.read(SPAN_BYTES), b""))


def grade_span(span: Span, output_format: str) -> Graded:
    """Read the lines of *span* and grade them: what a worker does with a regular file."""
    lines = tuple(bounded_lines(SpanReader(span)))
    return grade_chunk(Chunk(span.first, lines), output_format)


def read_chunks(stream: BinaryIO, lines_per_chunk: int = CHUNK_LINES) -> Iterator[Chunk]:
    """The lines of *stream* in chunks of *lines_per_chunk*, numbered from 1."""
    pending: list[bytes | int] = []
    first = 1
    for lines in line_blocks(stream):
        pending += lines
        while len(pending) >= lines_per_chunk:
            yield Chunk(first, tuple(pending[:lines_per_chunk]))
            del pending[:lines_per_chunk]
            first += lines_per_chunk
    if pending:
        yield Chunk(first, tuple(pending))


def grade_chunk(chunk: Chunk, output_format: str) -> Graded:
    """Grade every line of *chunk*; runs in a worker process for big files."""
    if output_format == "csv" and has_numpy():
        return _grade_csv_batch(chunk)
    rows = [row for row in map(grade_line, count(chunk.first), chunk.lines) if row]
    return Graded(render_rows(rows, output_format), summarise(rows),
                  tuple((row.line, row.error) for row in rows if row.error), chunk.size)


@lru_cache(maxsize=1)
def has_numpy() -> bool:
    """Whether NumPy can be imported, for grading many lines at once."""
    from importlib.util import find_spec

    return find_spec("numpy") is not None


# Grading many lines at once -------------------------------------------------------
# The commonest line, HAND,ANSWER[,ID] with the hand in the assignment's notation and an
# answer that reads, is graded in a batch: the packed engine reads all the chunk's hands
# at once with NumPy, and the row is written straight to CSV. Every other line goes
# through grade_line(), so both give the same bytes (the tests hold them to it).

def _grade_csv_batch(chunk: Chunk) -> Graded:
    """grade_chunk() for CSV output, batch-reading the lines that allow it."""
    hands, answers, ids = _columns(chunk.lines)
    from .batch import read_batch  # NumPy, only where it is installed (has_numpy)

    texts, keys, profiles = read_batch(hands)
    out, slow, decided, right, wrong, wrong_bids = [], [], [], [], [], []
    for number, raw, text, key, profile, answer, cells, written_answer, student in zip(
            count(chunk.first), chunk.lines, texts, keys, profiles,
            map(_ANSWERS.get, answers), map(_CELLS.get, keys), answers, _students(ids)):
        answer = text and student is not None and (answer or _answer(written_answer))
        if not answer:
            row = grade_line(number, raw)
            if row:
                slow.append(row)
                out.append(render_rows([row], "csv"))
            continue
        rule, bid, cells = cells or _decided(key, profile)
        decided.append(rule)
        given, written = answer
        if given is None:
            out.append(f"{number},{student},{text},{cells},,,\n")
        elif written == bid:
            right.append(rule)
            out.append(f"{number},{student},{text},{cells},{written},yes,\n")
        else:
            wrong.append(rule)
            wrong_bids.append((rule, given))
            out.append(f"{number},{student},{text},{cells},{written},no,\n")
    summary = Summary(Counter(decided), Counter(right), Counter(wrong), Counter(wrong_bids))
    return Graded("".join(out), summary + summarise(slow),
                  tuple((row.line, row.error) for row in slow if row.error), chunk.size)


def _columns(lines: tuple[bytes | int, ...]) -> tuple[list[bytes], list[bytes], list[bytes]]:
    """The hands, the answers and the ids of lines HAND[,ANSWER[,ID]] that need no CSV
    quoting rules; an empty hand for any other line (grade_line() reads it)."""
    try:
        blob = b"".join(lines)
    except TypeError:  # a too-long line, given as its length
        blob = b'"'
    if b'"' not in blob and b"\t" not in blob:
        if b"," not in blob and b"\r" not in blob:  # bare hands, the simplest class file
            hands = blob.rstrip(b"\n").split(b"\n")
            if len(hands) == len(lines):
                return hands, [b""] * len(hands), [b""] * len(hands)
        elif _two_commas_each(blob, len(lines)):
            fields = blob.rstrip(b"\n").replace(b"\n", b",").split(b",")
            return fields[0::3], fields[1::3], fields[2::3]
    hands, answers, ids = [], [], []
    for raw in lines:
        fields = (raw.rstrip(b"\r\n").split(b",") if type(raw) is bytes and b'"' not in raw
                  and b"\t" not in raw else ())
        plain = 0 < len(fields) < 4
        hands.append(fields[0] if plain else b"")
        answers.append(fields[1] if plain and len(fields) > 1 else b"")
        ids.append(fields[2] if len(fields) == 3 else b"")
    return hands, answers, ids


def _two_commas_each(blob: bytes, lines: int) -> bool:
    """Whether each of the *lines* lines in *blob* holds exactly two commas."""
    import numpy as np

    if blob.count(b",") != 2 * lines:
        return False
    text = np.frombuffer(blob, np.uint8)
    line_of_comma = np.searchsorted(np.flatnonzero(text == ord("\n")),
                                    np.flatnonzero(text == ord(",")))
    return bool((np.bincount(line_of_comma, minlength=lines) == 2).all())


def _students(ids: list[bytes]) -> list[str | None]:
    """Each id as text, stripped; None where it is not UTF-8 or holds a carriage return
    (that CSV would quote), for grade_line() to write."""
    try:
        text = b"\n".join(ids).decode("utf-8")
    except UnicodeDecodeError:
        return [_student(field) for field in ids]
    students = list(map(str.strip, text.split("\n")))
    if "\r" in text and len(students) == len(ids):
        return [None if "\r" in student else student for student in students]
    return students if len(students) == len(ids) else [_student(field) for field in ids]


def _student(field: bytes) -> str | None:
    """One id as _students() gives it."""
    try:
        student = field.decode("utf-8").strip()
    except UnicodeDecodeError:
        return None
    return None if "\r" in student else student


UNANSWERED = (None, "")
_ANSWERS: dict[bytes, tuple[Bid, str] | tuple[None, str]] = {}  # answers read, by bytes
_ANSWERS_KEPT = 1 << 12
_CELLS: dict[int, tuple[str, str, str]] = {}  # by tally key: at most one per tally


def _answer(field: bytes) -> tuple[Bid, str] | tuple[None, str] | None:
    """A student's answer as (the Bid, its text), UNANSWERED for a blank field, or None
    when it is not UTF-8 or not a bid (grade_line() says why); kept for the next line."""
    try:
        text = field.decode("utf-8")
        answer = (UNANSWERED if not text.strip(BLANKS) else
                  (bid := Bid.parse(text, lenient=True), str(bid)))
    except (UnicodeDecodeError, BidError):
        return None
    if len(_ANSWERS) >= _ANSWERS_KEPT:
        _ANSWERS.clear()
    _ANSWERS[field] = answer
    return answer


def _decided(key: int, profile: int) -> tuple[str, str, str]:
    """The rule, the bid and the cells 'bid,rule,hcp,distribution,points' of a hand;
    kept by tally key when the tally alone settles the bid."""
    decided = _decided_cells(key)
    if decided is None:
        return _decided_profile(profile)
    _CELLS[key] = decided
    return decided


def _decided_cells(key: int) -> tuple[str, str, str] | None:
    """The rule, the bid and the cells 'bid,rule,hcp,distribution,points' of a tally key,
    or None when the suits' HCP settle the bid."""
    decided = packed.decide_key(key)
    if decided is None:
        return None
    return _cells(*decided, packed.tally(packed.from_key(key)))


def _decided_profile(profile: int) -> tuple[str, str, str]:
    """_decided_cells() for a profile whose bid the suits' HCP settle."""
    code = packed.from_profile(profile)
    return _cells(*packed.decide(code), packed.tally(code))


def _cells(rule, bid: str | None, tally: Tally) -> tuple[str, str, str]:
    """The rule's id, the bid's text form ('None' for no bid) and the row's cells."""
    text = str(Bid.from_value(bid))
    return rule.id, text, f"{text},{rule.id},{tally.hcp},{tally.distribution},{tally.points}"




def graded_chunks(chunks: Iterable[Chunk], output_format: str,
                  jobs: int) -> Iterator[Graded]:
    """Grade chunks in order: in this process for one chunk or one job, else in a pool."""
    chunks = iter(chunks)
    opening = list(islice(chunks, 2))
    if jobs == 1 or len(opening) < 2:
        yield from (grade_chunk(chunk, output_format) for chunk in chain(opening, chunks))
        return
    yield from _in_pool(grade_chunk, chain(opening, chunks), output_format, jobs)


def graded_file(source: BinaryIO, output_format: str, jobs: int,
                lines_per_chunk: int = CHUNK_LINES,
                span_bytes: int = SPAN_BYTES) -> Iterator[Graded]:
    """Grade *source* in order. With several jobs and a regular file of two spans or
    more, each worker reads its own span of the file (this process only hands out where
    they start and end); otherwise this process reads the lines and hands out chunks."""
    spans = file_spans(source, span_bytes) if jobs > 1 else None
    if spans is None or len(spans) < 2:
        return graded_chunks(read_chunks(source, lines_per_chunk), output_format, jobs)
    return _in_pool(grade_span, iter(spans), output_format, jobs)


def _in_pool(grade: Callable[[object, str], Graded], tasks: Iterator, output_format: str,
             jobs: int) -> Iterator[Graded]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    if output_format == "csv" and has_numpy():
        from .batch import read_batch

        read_batch([])  # import NumPy once here: forked workers start with it
    # Forked, so that workers start with what this process imported and its open file.
    pool = ProcessPoolExecutor(jobs, multiprocessing.get_context("fork"),
                               initializer=_quiet_worker)
    pending = deque()
    try:
        for task in tasks:
            pending.append(pool.submit(grade, task, output_format))
            if len(pending) > 2 * jobs:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    except BrokenProcessPool:
        raise PoolBroken("a worker process ended before its lines were graded (was it "
                         "killed, or out of memory?)") from None
    finally:
        pool.shutdown(cancel_futures=True)


def _quiet_worker() -> None:
    """Workers leave Ctrl-C to the parent, which stops the pool and cleans up."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def grade_stream(source: BinaryIO, sink: TextIO, output_format: str = "csv", *,
                 jobs: int = 1, lines_per_chunk: int = CHUNK_LINES,
                 span_bytes: int = SPAN_BYTES,
                 on_error: Callable[[int, str], None] = lambda line, message: None,
                 on_progress: Callable[[int], None] = lambda size: None) -> Summary:
    """Grade every line of *source* into *sink*, reporting bad lines as they come; a
    course's export is read by its headers, encoding and delimiter (grading.exports)."""
    source, layout = opened(source)
    sink.write(header(output_format))
    total = Summary(detected=layout.describe() if layout else "")
    with closing(graded_file(source, output_format, jobs, lines_per_chunk,
                             span_bytes)) as results:
        for graded in results:
            sink.write(graded.text)
            for line, message in graded.errors:
                on_error(line, message)
            total += graded.summary
            on_progress(graded.size)
    return total
