"""Grading a class file: reading lines, marking answers, summaries, chunks."""

import csv
import io
import itertools
import json
import os
import signal
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from bidder import InvalidHandError, explain, openingBid
from bidder.bids import NO_BID, Bid
from bidder.cards import EXAMPLE_HAND
from bidder.grading.classfile import (CHUNK_LINES, COLUMNS, FIRST_BAD_SHOWN, LINE_LIMIT,
                                      Chunk, LineError, PoolBroken, Row, Summary,
                                      _quiet_worker, bounded_lines, grade_chunk, grade_line,
                                      grade_stream, graded_chunks, header, is_skipped,
                                      line_blocks, read_chunks, read_hand, render_rows,
                                      split_fields, summarise)
from bidder import packed
from bidder.grading import batch
from bidder.grading import classfile as grading
from helpers import kill_workers_when_they_start

CANONICAL = "AS KH 10H 8H 7H AD JD 9D 10C 8C 5C 4C 2C"  # EXAMPLE_HAND, spades first
BALANCED_19 = "AS 4S KH QH 3H AD QD 7D 6D KC JC 8C 5C"
STRONG_NO_BID = "AS KS QS 2S AH KH 3H 2H AD QD 4D 3D 5C"
COMMA_CARDS = ",".join(EXAMPLE_HAND.split())
ONE_CLUB, ONE_DIAMOND, TWO_CLUBS = Bid(1, "C"), Bid(1, "D"), Bid(2, "C")


# read_hand -------------------------------------------------------------------

@pytest.mark.parametrize("text, canonical", [
    (EXAMPLE_HAND, CANONICAL),
    (CANONICAL, CANONICAL),
    (EXAMPLE_HAND.lower(), CANONICAL),
    (EXAMPLE_HAND.replace("10", "T"), CANONICAL),
    (COMMA_CARDS, CANONICAL),
    ("  " + EXAMPLE_HAND + "\n", CANONICAL),
    ("A.KT87.AJ9.T8542", CANONICAL),
    ("A♠ K♥ 10♥ 8♥ 7♥ A♦ J♦ 9♦ 10♣ 8♣ 5♣ 4♣ 2♣", CANONICAL),
], ids=["assignment", "canonical", "lower-case", "T-for-ten", "commas", "padded",
        "dotted", "symbols"])
def test_read_hand_gives_the_canonical_hand_and_its_code(text, canonical):
    hand, code = read_hand(text)
    assert hand == canonical
    assert packed.decide(code)[1] == openingBid(EXAMPLE_HAND) == "1C"


@pytest.mark.parametrize("text, code", [
    ("AS AS KH 10H 8H 7H AD JD 9D 10C 8C 5C 4C", "duplicate_card"),
    ("KH 10H 8H 7H AD JD 9D 10C 8C 5C 4C 2C", "wrong_count"),
    ("1S KH 10H 8H 7H AD JD 9D 10C 8C 5C 4C 2C", "bad_card"),
    ("", "empty"),
], ids=["duplicate", "twelve-cards", "bad-card", "empty"])
def test_read_hand_refuses_what_the_parser_refuses(text, code):
    with pytest.raises(InvalidHandError) as caught:
        read_hand(text)
    assert caught.value.code == code


# split_fields ----------------------------------------------------------------

@pytest.mark.parametrize("text, fields", [
    (EXAMPLE_HAND, (EXAMPLE_HAND, None, "")),
    (f"{EXAMPLE_HAND},1C", (EXAMPLE_HAND, "1C", "")),
    (f"{EXAMPLE_HAND},1C, Ann ", (EXAMPLE_HAND, "1C", "Ann")),
    (f"{EXAMPLE_HAND},", (EXAMPLE_HAND, "", "")),
    (f"{EXAMPLE_HAND}\t1C\tAnn", (EXAMPLE_HAND, "1C", "Ann")),
    (f"{EXAMPLE_HAND}\t\tAnn", (EXAMPLE_HAND, "", "Ann")),
    (f"{COMMA_CARDS}\t1C", (COMMA_CARDS, "1C", "")),
    (COMMA_CARDS, (COMMA_CARDS, None, "")),
    (f"{COMMA_CARDS},2C,Ann", (COMMA_CARDS, "2C", "Ann")),
    (f'"{EXAMPLE_HAND}",1C,"Smith, Jo"', (EXAMPLE_HAND, "1C", "Smith, Jo")),
    (f"{EXAMPLE_HAND},1C,Ann,,,", (EXAMPLE_HAND, "1C", "Ann")),
    ("AKQ2.J54.T9.8765,1C", ("AKQ2.J54.T9.8765", "1C", "")),
    ("AS KS,1C", ("AS KS", "1C", "")),
], ids=["hand", "answer", "answer-id", "empty-answer", "tabs", "tab-empty-answer",
        "comma-cards-tab", "comma-cards", "comma-cards-answer", "quoted", "trailing-empty",
        "dotted", "short-hand"])
def test_split_fields(text, fields):
    assert split_fields(text) == fields


@pytest.mark.parametrize("text", [
    f"{EXAMPLE_HAND},1C,Ann,extra",
    f"{EXAMPLE_HAND}\t1C\tAnn\textra",
    f"{COMMA_CARDS},1C,Ann,extra",
])
def test_split_fields_refuses_extra_fields(text):
    with pytest.raises(LineError, match="3 fields after the hand"):
        split_fields(text)


# skipped lines ---------------------------------------------------------------

@pytest.mark.parametrize("text, number, skipped", [
    ("", 5, True), ("   \t", 5, True), ("# week 3", 5, True), ("hand,answer,id", 1, True),
    ("Hand\tAnswer", 1, True), ("hand,answer,id", 2, False), ("handy", 1, False),
    (EXAMPLE_HAND, 1, False),
])
def test_is_skipped(text, number, skipped):
    assert is_skipped(text, number) is skipped


# grade_line ------------------------------------------------------------------

@pytest.mark.parametrize("number, raw, expected", [
    (2, f"{EXAMPLE_HAND},1C,Ann\n".encode(),
     Row(2, CANONICAL, "Ann", ONE_CLUB, "R3", 12, 1, 13, ONE_CLUB, True)),
    (2, f"{EXAMPLE_HAND},1D,Ann\r\n".encode(),
     Row(2, CANONICAL, "Ann", ONE_CLUB, "R3", 12, 1, 13, ONE_DIAMOND, False)),
    (2, f"{EXAMPLE_HAND}\n".encode(), Row(2, CANONICAL, "", ONE_CLUB, "R3", 12, 1, 13)),
    (2, f"{EXAMPLE_HAND},,Ann\n".encode(),
     Row(2, CANONICAL, "Ann", ONE_CLUB, "R3", 12, 1, 13)),
    (2, f"{EXAMPLE_HAND},\n".encode(), Row(2, CANONICAL, "", ONE_CLUB, "R3", 12, 1, 13)),
    (2, f"{EXAMPLE_HAND}\t \tAnn\n".encode(),
     Row(2, CANONICAL, "Ann", ONE_CLUB, "R3", 12, 1, 13)),
    (2, f"{STRONG_NO_BID},Pass".encode(),
     Row(2, STRONG_NO_BID, "", NO_BID, "R9", 22, 0, 22, NO_BID, True)),
    (2, f"{STRONG_NO_BID},2C".encode(),
     Row(2, STRONG_NO_BID, "", NO_BID, "R9", 22, 0, 22, TWO_CLUBS, False)),
    (2, f"{EXAMPLE_HAND},None".encode(),
     Row(2, CANONICAL, "", ONE_CLUB, "R3", 12, 1, 13, NO_BID, False)),
    (1, f"\ufeff{EXAMPLE_HAND},1C\n".encode(),
     Row(1, CANONICAL, "", ONE_CLUB, "R3", 12, 1, 13, ONE_CLUB, True)),
], ids=["right", "wrong-crlf", "no-answer-field", "empty-answer", "trailing-comma",
        "blank-answer-between-tabs", "pass-right", "no-bid-wrong", "none-is-an-answer",
        "bom"])
def test_grade_line_grades(number, raw, expected):
    assert grade_line(number, raw) == expected


@pytest.mark.parametrize("raw", [b"\n", b"  \r\n", b"# comment\n", b"hand,answer\n"],
                         ids=["blank", "spaces", "comment", "header"])
def test_grade_line_skips_lines_without_a_hand(raw):
    assert grade_line(1, raw) is None


@pytest.mark.parametrize("raw, hand, student, message", [
    (b"AS KS,1C,Ann\n", "AS KS", "Ann", "a hand has 13 cards; this one has 2"),
    (f"{EXAMPLE_HAND},1C,Ann,x\n".encode(), f"{EXAMPLE_HAND},1C,Ann,x", "",
     "3 fields after the hand"),
    (b"AS\xff KS\n", "AS\\xff KS", "", "byte 0xFF at column 3 is not UTF-8 text"),
    (b"\x00\n", "\x00", "", "U+0000"),
    (f"\ufeff{EXAMPLE_HAND}\n".encode(), f"\ufeff{EXAMPLE_HAND}", "", "U+FEFF"),
    (f"{EXAMPLE_HAND}\u2028\n".encode(), f"{EXAMPLE_HAND}\u2028", "", "U+2028"),
], ids=["short-hand", "extra-field", "not-utf8", "nul", "bom-not-first",
        "line-separator"])
def test_grade_line_marks_bad_lines(raw, hand, student, message):
    row = grade_line(2, raw)
    assert (row.line, row.hand, row.id, row.bid, row.rule, row.correct) == (
        2, hand, student, None, "", None)
    assert message in row.error


@pytest.mark.parametrize("answer, message", [
    ("1X", "answer '1X' is not a bid: 'X' is not a suit or NT"),
    ("8C", "answer '8C' is not a bid: the level is 1 to 7, not '8'"),
    ("1", "answer '1' is not a bid: add a suit or NT after the level"),
    ("pas", "answer 'pas' is not a bid: write a level from 1 to 7"),
    ("\x1b[31m", "answer 'U+001B[31m' is not a bid: character U+001B is not allowed"),
    ("''", "answer '''' is not a bid: it is empty"),
], ids=["bad-strain", "bad-level", "no-strain", "not-a-bid", "escape", "quotes-only"])
def test_a_bad_answer_keeps_the_right_answer_beside_its_error(answer, message):
    row = grade_line(2, f"{EXAMPLE_HAND}\t{answer}\tAnn\n".encode())
    assert row[:8] == (2, CANONICAL, "Ann", ONE_CLUB, "R3", 12, 1, 13)
    assert (row.answer, row.correct) == (None, None)
    assert row.error.startswith(message)


# A class file as spreadsheets and editors write it: (line, answer cell, verdict cell).
# An empty verdict is an unanswered hand; "error" a bad answer.
SPELLINGS = [
    (f"{EXAMPLE_HAND},1C,Ann", "1C", "yes"),
    (f"{EXAMPLE_HAND},1c,Ann", "1C", "yes"),
    (f"{EXAMPLE_HAND},1♣,Ann", "1C", "yes"),
    (f"{EXAMPLE_HAND},1 club,Ann", "1C", "yes"),
    (f'"{EXAMPLE_HAND}","1 Clubs","Smith, Jo"', "1C", "yes"),
    (f'{EXAMPLE_HAND},"""1C""",Ann', "1C", "yes"),
    (f"{EXAMPLE_HAND},'1C',Ann", "1C", "yes"),
    (f"{EXAMPLE_HAND}\t１Ｃ\tAnn", "1C", "yes"),
    (f"{EXAMPLE_HAND}\t1 ♣\ufe0f\tAnn", "1C", "yes"),
    (f"{EXAMPLE_HAND}\t 1 d \tBo\r", "1D", "no"),
    (f"{EXAMPLE_HAND},1 No Trump,Bo,,,", "1NT", "no"),
    (f"{EXAMPLE_HAND},7NT,Bo", "7NT", "no"),
    (f"{EXAMPLE_HAND},Pass,Bo", "None", "no"),
    (f"{COMMA_CARDS},2 diamonds,Cy", "2D", "no"),
    (f"{STRONG_NO_BID},None,Di", "None", "yes"),
    (f"{STRONG_NO_BID},P,Di", "None", "yes"),
    (f"{STRONG_NO_BID},-,Di", "None", "yes"),
    (f"{STRONG_NO_BID},No bid,Di", "None", "yes"),
    (f"{STRONG_NO_BID}\tnobid\tDi", "None", "yes"),
    (f"{STRONG_NO_BID},2 Spades,Di", "2S", "no"),
    (f"{STRONG_NO_BID},,Eve", "", ""),
    (f"{STRONG_NO_BID},", "", ""),
    (f"{STRONG_NO_BID},,,,", "", ""),
    (f"{STRONG_NO_BID}\t\tEve", "", ""),
    (f'{STRONG_NO_BID},"",Eve', "", ""),
    (f"{STRONG_NO_BID}, ,Eve", "", ""),
    (STRONG_NO_BID, "", ""),
    (f"{EXAMPLE_HAND},pas,Fay", "", "error"),
    (f"{EXAMPLE_HAND},1 S S,Fay", "", "error"),
    (f"{EXAMPLE_HAND},1\u017f,Fay", "", "error"),
    (f"{EXAMPLE_HAND},1,Fay", "", "error"),
]


def test_a_class_file_of_answer_spellings_gets_the_expected_verdicts():
    data = "\n".join(line for line, _, _ in SPELLINGS).encode()
    sink = io.StringIO()
    summary = grade_stream(io.BytesIO(data), sink)
    rows = list(csv.DictReader(io.StringIO(sink.getvalue())))
    assert [(row["answer"], row["correct"] or ("error" if row["error"] else ""))
            for row in rows] == [(answer, verdict) for _, answer, verdict in SPELLINGS]
    assert all(row["bid"] == ("1C" if row["hand"] == CANONICAL else "None") for row in rows)
    assert (summary.answered, summary.unanswered, summary.bad_lines) == (20, 7, 4)
    assert sum(summary.right.values()) == 14


def test_grade_line_marks_a_line_that_was_too_long():
    row = grade_line(9, 1_048_576)
    assert row == Row(9, "", error=f"the line is 1,048,576 bytes long; a line holds one "
                                   f"hand, an answer and an id (at most {LINE_LIMIT:,})")


def test_grade_line_agrees_with_explain_on_the_rule_and_counts():
    row = grade_line(1, BALANCED_19.encode())
    advice = explain(BALANCED_19)
    assert (row.bid.text, row.rule, row.hcp, row.distribution, row.points) == (
        advice.bid, advice.rule, advice.facts.tally.hcp, advice.facts.tally.distribution,
        advice.facts.tally.points)


# rows out ----------------------------------------------------------------------

RIGHT = Row(2, CANONICAL, "Ann", ONE_CLUB, "R3", 12, 1, 13, ONE_CLUB, True)
NO_BID_WRONG = Row(3, STRONG_NO_BID, "Bo", NO_BID, "R9", 22, 0, 22, TWO_CLUBS, False)
NO_ANSWER = Row(4, STRONG_NO_BID, "", NO_BID, "R9", 22, 0, 22)
ANSWERED_NO_BID = Row(5, CANONICAL, "", ONE_CLUB, "R3", 12, 1, 13, NO_BID, False)
BAD = Row(6, "AS KS", "Cy", error="a hand has 13 cards")
BAD_ANSWER = Row(7, CANONICAL, "Di", ONE_CLUB, "R3", 12, 1, 13, error="answer '1X' is no bid")


@pytest.mark.parametrize("row, cells", [
    (RIGHT, [2, "Ann", CANONICAL, "1C", "R3", 12, 1, 13, "1C", "yes", ""]),
    (NO_BID_WRONG, [3, "Bo", STRONG_NO_BID, "None", "R9", 22, 0, 22, "2C", "no", ""]),
    (NO_ANSWER, [4, "", STRONG_NO_BID, "None", "R9", 22, 0, 22, "", "", ""]),
    (ANSWERED_NO_BID, [5, "", CANONICAL, "1C", "R3", 12, 1, 13, "None", "no", ""]),
    (BAD, [6, "Cy", "AS KS", "", "", "", "", "", "", "", "a hand has 13 cards"]),
    (BAD_ANSWER, [7, "Di", CANONICAL, "1C", "R3", 12, 1, 13, "", "",
                  "answer '1X' is no bid"]),
], ids=["right", "wrong", "no-answer", "answered-no-bid", "bad", "bad-answer"])
def test_row_cells(row, cells):
    assert row.cells() == cells


@pytest.mark.parametrize("row, values", [
    (RIGHT, (2, "Ann", CANONICAL, "1C", "R3", 12, 1, 13, "1C", True, None)),
    (NO_ANSWER, (4, "", STRONG_NO_BID, None, "R9", 22, 0, 22, None, None, None)),
    (ANSWERED_NO_BID, (5, "", CANONICAL, "1C", "R3", 12, 1, 13, None, False, None)),
    (BAD, (6, "Cy", "AS KS", None, None, None, None, None, None, None,
           "a hand has 13 cards")),
    (BAD_ANSWER, (7, "Di", CANONICAL, "1C", "R3", 12, 1, 13, None, None,
                  "answer '1X' is no bid")),
], ids=["right", "no-answer", "answered-no-bid", "bad", "bad-answer"])
def test_row_to_dict(row, values):
    assert row.to_dict() == dict(zip(COLUMNS, values))


@pytest.mark.parametrize("output_format, expected", [
    ("csv", 'line,id,hand,bid,rule,hcp,distribution,points,answer,correct,error\n'),
    ("jsonl", ""),
])
def test_header(output_format, expected):
    assert header(output_format) == expected


def test_render_rows_as_csv_quotes_what_needs_quoting():
    row = Row(7, CANONICAL, 'Smith, "Jo"', ONE_CLUB, "R3", 12, 1, 13, ONE_CLUB, True)
    assert render_rows([row, BAD], "csv") == (
        f'7,"Smith, ""Jo""",{CANONICAL},1C,R3,12,1,13,1C,yes,\n'
        '6,Cy,AS KS,,,,,,,,a hand has 13 cards\n')


def test_render_rows_as_json_lines():
    lines = render_rows([RIGHT, BAD], "jsonl").splitlines()
    assert [json.loads(line) for line in lines] == [RIGHT.to_dict(), BAD.to_dict()]


# summaries ---------------------------------------------------------------------

def test_summarise_counts_per_rule():
    summary = summarise([RIGHT, NO_BID_WRONG, NO_ANSWER, ANSWERED_NO_BID, BAD, BAD_ANSWER])
    assert summary == Summary(Counter(R3=2, R9=2), Counter(R3=1), Counter(R9=1, R3=1),
                              Counter({("R9", TWO_CLUBS): 1, ("R3", NO_BID): 1}), 2, (6, 7))
    assert (summary.graded, summary.answered, summary.unanswered) == (4, 3, 1)


def test_summary_adds_up_and_keeps_the_first_bad_lines():
    bad = [Row(number, "x", error="bad") for number in range(1, 2 * FIRST_BAD_SHOWN)]
    total = summarise([RIGHT] + bad[:3]) + summarise([NO_BID_WRONG] + bad[3:])
    assert total.bad_lines == len(bad)
    assert total.first_bad == tuple(range(1, FIRST_BAD_SHOWN + 1))
    assert total.hands == Counter(R3=1, R9=1)
    assert total.wrong_bids == Counter({("R9", TWO_CLUBS): 1})


def test_wrong_bids_for_a_rule_most_frequent_first():
    given = ["1D", "1NT", "1NT", "None", "1D", "1NT", "1H", "None", "2S"]
    rows = [Row(n, CANONICAL, "", ONE_CLUB, "R3", 12, 1, 13, Bid.parse(answer), False)
            for n, answer in enumerate(given)]
    summary = summarise(rows + [NO_BID_WRONG])
    assert summary.wrong_bids_for("R3") == [
        (Bid(1, "NT"), 3), (ONE_DIAMOND, 2), (NO_BID, 2), (Bid(1, "H"), 1), (Bid(2, "S"), 1)]
    assert summary.wrong_bids_for("R9") == [(TWO_CLUBS, 1)]
    assert summary.wrong_bids_for("R1") == []


# reading in chunks -------------------------------------------------------------

@pytest.mark.parametrize("data, lines", [
    (b"a\nb\n", [b"a\n", b"b\n"]),
    (b"a\nb", [b"a\n", b"b"]),
    (b"a\r\nb\x85c\nd", [b"a\r\n", b"b\x85c\n", b"d"]),
    ("a\u2028\u0085\x0c\n".encode(), ["a\u2028\u0085\x0c\n".encode()]),
    (b"12345678\n123456789\nz\n", [b"12345678\n", 10, b"z\n"]),
    (b"123456789\n", [10]),
    (b"a\n" + b"x" * 20, [b"a\n", 20]),
    (b"", []),
], ids=["two", "no-final-newline", "only-newline-splits", "unicode-separators",
        "too-long", "too-long-alone", "too-long-at-end", "empty"])
def test_bounded_lines_split_on_newline_only(data, lines):
    assert list(bounded_lines(io.BytesIO(data), limit=8)) == lines


def lines_one_by_one(stream, limit):
    """What bounded_lines() gives, found the slow way: a readline at a time."""
    for line in iter(lambda: stream.readline(limit + 1), b""):
        if len(line) <= limit or line.endswith(b"\n"):
            yield line
            continue
        length = len(line)
        while line and not line.endswith(b"\n"):
            line = stream.readline(limit)
            length += len(line)
        yield length


@given(st.lists(st.sampled_from([b"a", b"bc", b"\n", b"\r", b"x" * 9, b"\n\n"]), max_size=40),
       st.integers(1, 12), st.integers(1, 10))
def test_lines_read_by_blocks_are_the_lines_read_one_by_one(parts, block_size, limit):
    data = b"".join(parts)
    blocks = list(line_blocks(io.BytesIO(data), limit, block_size))
    assert [line for block in blocks for line in block] == list(
        lines_one_by_one(io.BytesIO(data), limit))
    assert all(blocks)


def test_read_chunks_numbers_lines_across_chunks():
    data = b"".join(f"line {number}\n".encode() for number in range(1, 8))
    chunks = list(read_chunks(io.BytesIO(data), lines_per_chunk=3))
    assert [(chunk.first, len(chunk.lines)) for chunk in chunks] == [(1, 3), (4, 3), (7, 1)]
    assert chunks[1].lines[0] == b"line 4\n"
    assert sum(chunk.size for chunk in chunks) == len(data)


def test_chunk_size_counts_skipped_long_lines():
    assert Chunk(1, (b"ab\n", 5000)).size == 5003


def test_grade_chunk_numbers_rows_and_collects_errors():
    chunk = Chunk(10, (f"{EXAMPLE_HAND},1C\n".encode(), b"\n", b"AS KS\n"))
    graded = grade_chunk(chunk, "csv")
    assert graded.text.splitlines()[0].startswith(f"10,,{CANONICAL},1C,R3")
    assert graded.text.splitlines()[1].startswith("12,,AS KS,")
    assert graded.errors == ((12, "a hand has 13 cards; this one has 2 (missing 11)"),)
    assert (graded.summary.graded, graded.summary.bad_lines) == (1, 1)
    assert graded.size == len(EXAMPLE_HAND) + len(",1C\n\nAS KS\n")


def class_file(lines: int) -> bytes:
    """A class file of *lines* lines, every 7th one bad."""
    rows = []
    for number in range(1, lines + 1):
        rows.append(f"AS KS,1C,s{number}" if number % 7 == 0
                    else f"{EXAMPLE_HAND},{'1C' if number % 2 else '1D'},s{number}")
    return ("\n".join(rows) + "\n").encode()


@pytest.mark.parametrize("jobs, lines_per_chunk", [(1, 10), (2, 10), (2, 1000)],
                         ids=["one-job", "pool", "one-chunk"])
def test_graded_chunks_give_the_same_rows_in_order(jobs, lines_per_chunk):
    data = class_file(95)
    chunks = read_chunks(io.BytesIO(data), lines_per_chunk)
    graded = list(graded_chunks(chunks, "csv", jobs))
    text = "".join(part.text for part in graded)
    assert text == grade_chunk(Chunk(1, tuple(io.BytesIO(data))), "csv").text
    assert [row.split(",")[0] for row in text.splitlines()] == [
        str(number) for number in range(1, 96)]


def test_a_killed_worker_stops_the_run_with_a_clear_error():
    chunks = read_chunks(io.BytesIO(class_file(60_000)), 100)
    killer = kill_workers_when_they_start()
    with pytest.raises(PoolBroken, match="a worker process ended before its lines were "
                                         "graded"):
        for graded in graded_chunks(chunks, "csv", 2):
            pass
    killer.join()


def test_graded_chunks_stop_the_pool_when_abandoned():
    chunks = read_chunks(io.BytesIO(class_file(200)), 10)
    results = graded_chunks(chunks, "csv", 2)
    first = next(results)
    results.close()
    assert first.text.startswith(f"1,s1,{CANONICAL}")


@pytest.mark.parametrize("output_format", ["csv", "jsonl"])
@pytest.mark.parametrize("jobs", [1, 2])
def test_grade_stream_writes_rows_reports_errors_and_progress(output_format, jobs):
    data = class_file(50)
    sink, errors, progress = io.StringIO(), [], []
    summary = grade_stream(io.BytesIO(data), sink, output_format, jobs=jobs,
                           lines_per_chunk=7,
                           on_error=lambda line, message: errors.append(line),
                           on_progress=progress.append)
    assert errors == [7, 14, 21, 28, 35, 42, 49]
    assert sum(progress) == len(data)
    assert (summary.graded, summary.bad_lines) == (43, 7)
    assert sum(summary.right.values()) == 21
    assert summary.wrong_bids == Counter({("R3", ONE_DIAMOND): 22})
    lines = sink.getvalue().splitlines()
    if output_format == "csv":
        assert lines[0] == ",".join(COLUMNS)
        assert len(lines) == 51
    else:
        assert [json.loads(line)["line"] for line in lines] == list(range(1, 51))


def test_grade_stream_defaults_to_csv_in_one_process():
    sink = io.StringIO()
    summary = grade_stream(io.BytesIO(b"AS KS\n"), sink)
    assert sink.getvalue().splitlines()[1].startswith("1,,AS KS,")
    assert summary.bad_lines == 1


def test_chunks_are_big_enough_to_pay_for_a_pool():
    assert CHUNK_LINES >= 1000
    assert grading.SPAN_BYTES >= 1 << 16


# workers reading their own spans of a file -------------------------------------------

def spans_of(path, span_bytes: int, skip: int = 0) -> list[tuple[int, bytes]]:
    """The first line number and the bytes of each span of the file at *path*, read
    from *skip* bytes in."""
    with open(path, "rb") as stream:
        stream.read(skip)
        spans = grading.file_spans(stream, span_bytes)
        return [(span.first, b"".join(iter(lambda reader=grading.SpanReader(span):
                                           reader.read(3), b""))) for span in spans]


@pytest.mark.parametrize("data, span_bytes, skip, expected", [
    (b"", 4, 0, []),
    (b"AS KS", 4, 0, [(1, b"AS KS")]),
    (b"a\nb\nc\n", 1, 0, [(1, b"a\n"), (2, b"b\n"), (3, b"c\n")]),
    (b"a\nb\nc\n", 2, 0, [(1, b"a\n"), (2, b"b\n"), (3, b"c\n")]),
    (b"a\nb\nc\n", 3, 0, [(1, b"a\nb\n"), (3, b"c\n")]),
    (b"a\nb\nc", 100, 0, [(1, b"a\nb\nc")]),
    (b"long line\r\nb\n\nc", 2, 0, [(1, b"long line\r\n"), (2, b"b\n"), (3, b"\nc")]),
    (b"header\na\nb\n", 2, 7, [(1, b"a\n"), (2, b"b\n")]),
], ids=["empty", "one-line-no-newline", "a-line-each", "a-span-ends-on-its-newline",
        "two-lines-then-one", "one-span", "a-line-longer-than-a-span", "read-partly"])
def test_a_file_splits_into_spans_of_whole_lines_numbered_from_where_it_stands(
        tmp_path, data, span_bytes, skip, expected):
    path = tmp_path / "class.txt"
    path.write_bytes(data)
    assert spans_of(path, span_bytes, skip) == expected


def test_only_a_regular_file_is_read_in_spans(tmp_path):
    assert grading.file_spans(io.BytesIO(b"AS KS\n")) is None
    reader, writer = os.pipe()
    with os.fdopen(reader, "rb") as stream, os.fdopen(writer, "wb"):
        assert grading.file_spans(stream) is None
    with open(os.devnull, "rb") as device:
        assert grading.file_spans(device) is None


def test_a_span_is_graded_as_its_lines_are(tmp_path):
    data = class_file(30)
    path = tmp_path / "class.txt"
    path.write_bytes(data)
    lines = tuple(io.BytesIO(data))
    start = sum(map(len, lines[:9]))
    with path.open("rb") as source:
        span = grading.Span(source.fileno(), 10, start, len(data))
        assert grading.grade_span(span, "csv") == grade_chunk(Chunk(10, lines[9:]), "csv")


@given(st.lists(st.sampled_from([f"{EXAMPLE_HAND},1C,s1", f"{EXAMPLE_HAND},1D", "AS KS",
                                 "", "# a comment", "x" * (LINE_LIMIT + 5),
                                 f"{EXAMPLE_HAND}\t1C\tAnn\r"]), max_size=60),
       st.booleans(), st.integers(1, 200))
@settings(max_examples=25)
def test_workers_reading_spans_grade_a_file_as_one_process_does(tmp_path_factory, lines,
                                                                  newline_at_end, span_bytes):
    data = "\n".join(lines).encode() + b"\n" * newline_at_end
    path = tmp_path_factory.mktemp("spans") / "class.txt"
    path.write_bytes(data)
    alone, pooled = io.StringIO(), io.StringIO()
    errors: dict[str, list] = {"alone": [], "pooled": []}
    progress: list[int] = []
    expected = grade_stream(io.BytesIO(data), alone,
                            on_error=lambda *error: errors["alone"].append(error))
    with path.open("rb") as source:
        summary = grade_stream(source, pooled, jobs=2, span_bytes=span_bytes,
                               on_error=lambda *error: errors["pooled"].append(error),
                               on_progress=progress.append)
    assert pooled.getvalue() == alone.getvalue()
    assert summary == expected
    assert errors["pooled"] == errors["alone"]
    assert sum(progress) == len(data)


def test_a_killed_worker_reading_its_span_stops_the_run_with_a_clear_error(tmp_path):
    path = tmp_path / "class.txt"
    path.write_bytes(class_file(60_000))
    killer = kill_workers_when_they_start()
    with path.open("rb") as source, pytest.raises(PoolBroken, match="a worker process"):
        grade_stream(source, io.StringIO(), jobs=2, span_bytes=4096)
    killer.join()


# worker processes --------------------------------------------------------------

def test_quiet_worker_leaves_ctrl_c_to_the_parent():
    saved = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    signal.signal(signal.SIGTERM, lambda *args: None)
    try:
        _quiet_worker()
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    finally:
        signal.signal(signal.SIGINT, saved[0])
        signal.signal(signal.SIGTERM, saved[1])


# The batch: lines read many at a time give the bytes grade_line() gives --------------

TWO_SUITER_TIE = "AS KS QS 4S 3S QH JH 6H 5H 2H AD KD KC"  # R6, the suits' HCP decide: 2S
LINE_PARTS = {
    "hand": [EXAMPLE_HAND, TWO_SUITER_TIE, "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S",
             EXAMPLE_HAND.lower(), EXAMPLE_HAND.replace("10C", "TC"),
             EXAMPLE_HAND.replace("7H", "5C"), "AS KS", "AS,KS", "", "# a comment",
             EXAMPLE_HAND.replace(" ", "  ", 1), "hand", "10S" + " 2C" * 12],
    "answer": ["1C", "1c", "2S", " 1♣ ", "None", "pass", "", " ", "1X", "9NT", '"1C"',
               "\udcff"],
    "student": ["s1", " s2 ", "Zoë", "", "a\rb", 'q"uote', "x\ty", "\udcff"],
}


@st.composite
def class_lines(draw):
    """One line as class files hold them: hand, answer and id, each sometimes odd."""
    hand = draw(st.sampled_from(LINE_PARTS["hand"]))
    fields = [hand]
    for part in ("answer", "student"):
        if draw(st.booleans()):
            fields.append(draw(st.sampled_from(LINE_PARTS[part])))
    if draw(st.integers(0, 9)) == 0:
        fields.append("extra")
    line = ",".join(fields).encode("utf-8", "surrogateescape")
    return line + draw(st.sampled_from([b"\n", b"\r\n"]))


@given(st.lists(class_lines(), max_size=30), st.integers(1, 3))
def test_a_batch_grades_as_line_by_line(lines, first):
    chunk = Chunk(first, tuple(lines))
    assert grade_chunk(chunk, "csv") == line_by_line(chunk)


def line_by_line(chunk):
    """grade_chunk() without the batch: every line through grade_line()."""
    rows = [row for row in map(grade_line, itertools.count(chunk.first), chunk.lines) if row]
    return grading.Graded(render_rows(rows, "csv"), summarise(rows),
                          tuple((row.line, row.error) for row in rows if row.error),
                          chunk.size)


def test_a_chunk_with_a_too_long_line_grades_the_rest_in_the_batch():
    chunk = Chunk(1, (f"{EXAMPLE_HAND},1C,s1\n".encode(), 9000, b"AS KS,1C\n"))
    assert grade_chunk(chunk, "csv") == line_by_line(chunk)


def test_without_numpy_every_line_is_graded_alone(monkeypatch):
    chunk = Chunk(1, (f"{EXAMPLE_HAND},1C,s1\n".encode(),))
    monkeypatch.setattr("importlib.util.find_spec", lambda name: None)
    monkeypatch.setattr(batch, "read_batch", None)  # would fail if it were called
    grading.has_numpy.cache_clear()
    try:
        assert not grading.has_numpy()
        assert grade_chunk(chunk, "csv") == line_by_line(chunk)
    finally:
        monkeypatch.undo()
        grading.has_numpy.cache_clear()
    assert grading.has_numpy()


def test_answers_kept_for_the_next_line_are_forgotten_past_their_bound(monkeypatch):
    monkeypatch.setattr(grading, "_ANSWERS_KEPT", 2)
    grading._ANSWERS.clear()
    lines = tuple(f"{EXAMPLE_HAND},{answer},s\n".encode() for answer in ("1C", "1D", "1H"))
    assert grade_chunk(Chunk(1, lines), "csv") == line_by_line(Chunk(1, lines))
    assert list(grading._ANSWERS) == [b"1H"]


@pytest.mark.parametrize("line", [
    f"{EXAMPLE_HAND},1C,\xff\n".encode("latin-1"),
    f"{EXAMPLE_HAND},\xff,s1\n".encode("latin-1"),
    f"{EXAMPLE_HAND},1C,a\rb\n".encode(),
    f"{EXAMPLE_HAND},1C,Zoë\n".encode(),
    f"{EXAMPLE_HAND}, ,s1\r\n".encode(),
    f"{TWO_SUITER_TIE},2S,s1\n".encode(),
], ids=["id-not-utf8", "answer-not-utf8", "id-with-return", "id-not-ascii", "blank-answer",
        "suits-hcp-decide"])
def test_odd_lines_grade_in_the_batch_as_alone(line):
    chunk = Chunk(1, (f"{EXAMPLE_HAND},1D,s0\n".encode(), line))
    assert grade_chunk(chunk, "csv") == line_by_line(chunk)


def test_a_return_outside_quotes_is_a_bad_line_not_a_crash():
    row = grade_line(3, f'{EXAMPLE_HAND},1C,"s1"x\ry\n'.encode())
    assert row.error == ("a carriage return (\\r) in the middle of the line, outside quotes: "
                         "remove it, or quote the field that holds it")


def test_read_chunks_of_a_file_that_fills_its_last_chunk():
    data = b"".join(f"line {number}\n".encode() for number in range(1, 7))
    chunks = list(read_chunks(io.BytesIO(data), lines_per_chunk=3))
    assert [(chunk.first, len(chunk.lines)) for chunk in chunks] == [(1, 3), (4, 3)]
