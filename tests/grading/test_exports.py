"""Class files as courses export them: found by headers, encoding and delimiter detected,
multi-line cells one field, graded row by row with the right names and line numbers."""

import codecs
import csv
import io
from pathlib import Path

import pytest

from bidder.grading import grade_stream
from bidder.grading.exports import (HEAD_BYTES, Columns, Layout, Prefixed, columns_of, delimiter_of,
                                    encoding_of, layout_of, opened, rewritten)
from bidder.cards import EXAMPLE_HAND

FIXTURES = Path(__file__).parent / "exports"


def graded(data: bytes, source=None):
    """(rows as (line, id, answer, correct), summary) of grading *data*."""
    sink = io.StringIO()
    summary = grade_stream(source or io.BytesIO(data), sink, jobs=1)
    rows = list(csv.DictReader(io.StringIO(sink.getvalue())))
    return [(int(row["line"]), row["id"], row["answer"], row["correct"]) for row in rows], \
        summary


@pytest.mark.parametrize("name, rows, detected", [
    ("google-forms.csv", [(2, "Ann Lee", "1C", "yes"), (3, "Bob de Vries", "1H", "no"),
                          (7, "Cy Park", "1NT", "no")],
     "UTF-8, comma-separated, columns by header: hand 'Hand', answer 'Your answer', id "
     "'Your name' (else 'Email Address'); 2 other columns ignored"),
    ("microsoft-forms.csv", [(2, "Ann Lee", "1C", "yes"), (3, "José Núñez", "1S", "yes"),
                             (4, "anonymous", "1D", "no")],
     "UTF-8 with a byte order mark, comma-separated, columns by header: hand 'Hand', "
     "answer 'Your answer', id 'Name' (else 'Email', else 'Id'); 8 other columns ignored"),
    ("canvas.csv", [(2, "Ann Lee", "1C", "yes"), (3, "Núñez, José", "2S", "no"),
                    (4, "Ann Lee", "1NT", "no")],
     "hand '101: Hand', answer '102: Your opening bid', id 'name' (else 'id'); 11 other "
     "columns"),
    ("moodle.csv", [(2, "Ann Lee", "1C", "yes"), (3, "Cy Park", "1D", "no")],
     "UTF-8 with a byte order mark, comma-separated, columns by header: hand 'Question 1', "
     "answer 'Response 1', id 'First name' + 'Surname' (else 'Email address'); 8 other "
     "columns ignored"),
    ("excel-unicode.txt", [(2, "Ann Lee", "1C", "yes"), (3, "José Núñez", "1S", "yes")],
     "UTF-16, tab-separated"),
    ("excel-europe.csv", [(2, "José Núñez", "1C", "yes"), (3, "Ann Lee", "1NT", "no")],
     "Windows-1252, semicolon-separated"),
], ids=["google-forms", "microsoft-forms", "canvas", "moodle", "excel-unicode",
        "excel-europe"])
def test_each_export_is_graded_row_by_row_with_the_right_names(name, rows, detected):
    got, summary = graded((FIXTURES / name).read_bytes())
    assert got == rows
    assert detected in summary.detected
    assert summary.bad_lines == 0


@pytest.mark.parametrize("name, header", [
    ("google-forms.csv", "Timestamp,Email Address,Score,"),
    ("microsoft-forms.csv", "\ufeffId,Start time,Completion time,Email,Name,Total points,"
                            "Quiz feedback,"),
    ("canvas.csv", "name,id,sis_id,section,section_id,section_sis_id,submitted,attempt,"
                   '"101: Hand",1.0,'),
    ("moodle.csv", "\ufeffSurname,First name,Institution,Department,Email address,State,"
                   "Started on,Completed,Time taken,Grade/10.00,Question 1,Response 1,"
                   "Right answer 1"),
])
def test_each_export_starts_as_its_platform_writes_it(name, header):
    assert (FIXTURES / name).read_text(encoding="utf-8").startswith(header)


@pytest.mark.parametrize("header, record, who", [
    (["Hand", "Email", "Name"], [EXAMPLE_HAND, "anonymous", ""], "anonymous"),
    (["Hand", "Email", "Name"], [EXAMPLE_HAND, "a@b.edu", "Ann"], "Ann"),
    (["Hand", "id", "Email", "Name"], [EXAMPLE_HAND, "7", "", " "], "7"),
    (["Hand", "Surname", "First name", "Email"], [EXAMPLE_HAND, "", "", "x@y.edu"],
     "x@y.edu"),
    (["Hand", "Name"], [EXAMPLE_HAND, ""], ""),
], ids=["anonymous", "named", "id-last", "no-name", "nothing-else"])
def test_a_reply_without_a_name_is_known_by_its_email_else_its_id(header, record, who):
    columns = columns_of(header)
    text = rewritten(("\t".join(header) + "\n" + "\t".join(record) + "\n").encode(),
                     Layout("utf-8", "\t", columns))
    assert text.decode().splitlines()[1].split(",")[2] == who


@pytest.mark.parametrize("head, encoding", [
    (b"hand\n", "utf-8"),
    ("José".encode(), "utf-8"),
    (b"x" * (HEAD_BYTES - 1) + "é".encode()[:1], "utf-8"),  # cut where the head ends
    ("José".encode()[:-1], "cp1252"),  # the whole file, ending in a broken character
    (codecs.BOM_UTF8 + b"x", "utf-8-sig"),
    ("\ufeffx".encode("utf-16-le"), "utf-16"),
    ("\ufeffx".encode("utf-16-be"), "utf-16"),
    ("José".encode("cp1252"), "cp1252"),
])
def test_the_encoding_is_detected(head, encoding):
    assert encoding_of(head) == encoding


@pytest.mark.parametrize("line, delimiter", [
    ("a,b,c", ","), ("a;b;c", ";"), ("a\tb;c", "\t"), ("a;b,c", ","), ("a", ","),
    ('"x;y;z",b', ","), ("a,b;c;d", ";"),
])
def test_the_delimiter_is_sniffed(line, delimiter):
    assert delimiter_of(line) == delimiter


@pytest.mark.parametrize("header, found", [
    (["Hand", "Answer", "Id"], (0, 1, (2,))),
    (["Answer", "Hand"], (1, 0, ())),
    (["e-mail", "Hands", "Bid"], (1, 2, (0,))),
    (["Right answer", "Hand", "Response"], (1, 2, ())),
    (["Student", "Hand"], (1, None, (0,))),
    (["Last name", "First name", "Hand", "Email"], (2, None, (1, 0))),
    (["Surname", "Hand", "Email"], (1, None, (2,))),
    (["user_name", "Hand"], (1, None, (0,))),
])
def test_columns_are_found_by_their_headers(header, found):
    columns = columns_of(header)
    assert (columns.hand, columns.answer, columns.who) == found


@pytest.mark.parametrize("header", [[EXAMPLE_HAND, "1C"], ["Name", "Answer"], []])
def test_a_first_line_naming_no_hand_is_no_header(header):
    assert columns_of(header) is None


@pytest.mark.parametrize("columns, described", [
    (Columns(("Hand",), 0, None, ()), "hand 'Hand'"),
    (Columns(("Hand", "x"), 0, None, ()), "hand 'Hand'; 1 other column ignored"),
])
def test_columns_say_what_was_found(columns, described):
    assert columns.describe() == described


@pytest.mark.parametrize("head", [
    f"{EXAMPLE_HAND},1C,Ann\n".encode(),
    f"{EXAMPLE_HAND}\t1C\tAnn\n".encode(),
    f"hand,answer,id\n{EXAMPLE_HAND},1C,Ann\n".encode(),
    codecs.BOM_UTF8 + f"Hand,Answer\n{EXAMPLE_HAND},1C\n".encode(),
    f'"{EXAMPLE_HAND}",1C,"Ann"\n'.encode(),
    b"",
])
def test_the_class_files_own_layout_is_left_as_it_is(head):
    assert layout_of(head) is None


@pytest.mark.parametrize("head, layout", [
    (f"{EXAMPLE_HAND};1C;Ann\n".encode(), Layout("utf-8", ";", None)),
    (f'"{EXAMPLE_HAND}",1C,"Ann\nLee"\n'.encode(), Layout("utf-8", ",", None)),
    (f"{EXAMPLE_HAND},1C,José\n".encode("cp1252"), Layout("cp1252", ",", None)),
])
def test_a_file_without_a_header_is_still_read_in_its_encoding_and_delimiter(head, layout):
    assert layout_of(head) == layout


def test_a_file_without_a_header_keeps_its_order_hand_answer_id():
    data = f"{EXAMPLE_HAND};1C;Jos\xe9\r\n;;\r\n{EXAMPLE_HAND};1NT\r\n".encode("cp1252")
    rows, summary = graded(data)
    assert rows == [(1, "José", "1C", "yes"), (3, "", "1NT", "no")]
    assert summary.detected == ("Windows-1252, semicolon-separated, no header: hand, "
                                "answer, id in that order")


def test_a_short_record_leaves_its_missing_cells_empty():
    text = rewritten(f"Name,Hand,Answer\nAnn,{EXAMPLE_HAND}\n".encode(),
                     Layout("utf-8", ",", columns_of(["Name", "Hand", "Answer"])))
    assert text.decode() == f"\n{EXAMPLE_HAND},,Ann\n"


class Pipe(io.RawIOBase):
    """A stream that cannot go back, as standard input from a pipe."""

    def __init__(self, data: bytes):
        self.data = io.BytesIO(data)

    def readable(self):
        return True

    def readinto(self, buffer):
        chunk = self.data.read(len(buffer))
        buffer[:len(chunk)] = chunk
        return len(chunk)


def test_a_pipe_in_the_class_files_own_layout_is_read_from_its_start():
    data = f"{EXAMPLE_HAND},1C,Ann\n".encode() * 3
    rows, summary = graded(b"", source=io.BufferedReader(Pipe(data)))
    assert [row[0] for row in rows] == [1, 2, 3]
    assert summary.detected == ""


def test_prefixed_gives_the_head_then_the_rest():
    stream = Prefixed(b"abc", io.BytesIO(b"def"))
    assert (stream.read(2), stream.read(5), stream.read(5)) == (b"ab", b"c", b"def")
    assert Prefixed(b"ab", io.BytesIO(b"cd")).read() == b"abcd"


def test_a_seekable_file_is_given_back_unread():
    source = io.BytesIO(f"{EXAMPLE_HAND}\n".encode())
    stream, layout = opened(source)
    assert stream is source and layout is None and source.tell() == 0


def test_the_summary_says_how_an_export_was_read():
    from bidder.cli.grade import summary_lines

    _, summary = graded((FIXTURES / "excel-europe.csv").read_bytes())
    assert summary_lines("class.csv", summary)[1] == (
        "read as an export: Windows-1252, semicolon-separated, columns by header: hand "
        "'Hand', answer 'Answer', id 'Name'")


@pytest.mark.parametrize("lines", [
    [f"{EXAMPLE_HAND}\n", "AS KS 7S 6S 5S KH QH 7H 6H 5H 2D 3D 2C\n", "\n", "hand\n"],
    [f"{EXAMPLE_HAND}\n", "1S KS 7S 6S 5S KH QH 7H 6H 5H 2D 3D 2C"],
    [f"{EXAMPLE_HAND}\n", f"{EXAMPLE_HAND},1C,Ann\n", f"{EXAMPLE_HAND}\n"],
    [f"{EXAMPLE_HAND}\n", "\n", "\n"],
])
def test_bare_hands_take_the_batch_and_write_what_grade_line_writes(lines, monkeypatch):
    pytest.importorskip("numpy")
    from bidder.grading import classfile

    chunk = classfile.Chunk(1, tuple(line.encode() for line in lines))
    rows = [row for row in map(classfile.grade_line, range(1, len(lines) + 1), chunk.lines)
            if row]
    slow = []
    monkeypatch.setattr(classfile, "grade_line",
                        lambda number, raw: slow.append(number) or rows_by[number])
    rows_by = {row.line: row for row in rows} | {
        number: None for number in range(1, len(lines) + 1) if number not in
        {row.line for row in rows}}
    graded_chunk = classfile.grade_chunk(chunk, "csv")
    assert graded_chunk.text == classfile.render_rows(rows, "csv")
    assert 1 not in slow  # a bare hand in the notation is graded in the batch
