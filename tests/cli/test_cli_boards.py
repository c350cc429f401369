"""PBN and LIN files on the command line: `bidder grade` grades every seat of every board,
`bidder bid --pbn FILE --board N` shows one board, `bidder deal` writes PBN, LIN and
Dealer scripts; and the rows and summary behind the grading."""

import csv
import io
import json
import os

import pytest
from click.testing import CliRunner

from bidder import NO_BID, RULE_BY_ID, Bid
from bidder.grading.boards import COLUMNS, SeatRow, render, rows
from bidder.cli.commands import cli
from bidder.cli.files import head_of, sniff_input
from bidder.cli.grade import board_summary_lines as summary_lines
from bidder.dealing import deal_set
from bidder.boards.model import Call
from bidder.boards.files import read_boards

from helpers import CLUB_LIN, CLUB_PBN


def run(*args, **options):
    return CliRunner().invoke(cli, list(map(str, args)), **options)


# Rows and summary -------------------------------------------------------------------

@pytest.fixture(scope="module")
def club_rows():
    return rows(read_boards(CLUB_PBN.read_bytes().decode()))


def test_a_row_per_seat_from_the_dealer_and_one_per_bad_game(club_rows):
    assert [(row.game, row.seat) for row in club_rows] == [
        (1, "N"), (1, "E"), (1, "S"), (1, "W"), (2, "E"), (2, "S"), (2, "W"), (2, "N"),
        (3, ""), (4, "W"), (4, "N"), (4, "E"), (4, "S"), (5, "N"), (5, "E"), (5, "S"),
        (5, "W")]
    assert [row.position for row in club_rows[4:8]] == [1, 2, 3, 4]


def test_a_seats_row_compares_its_call_before_any_bid(club_rows):
    west = club_rows[6]
    assert (west.board, west.dealer, west.vulnerable, west.seat) == ("2", "E", "NS", "W")
    assert (west.bid, west.rule, west.opens_first, west.table, west.correct) == (
        Bid(1, "D"), "R3", True, Call("1D", "could be short"), True)
    north = club_rows[7]
    assert (north.bid, north.opens_first, north.table, north.correct) == (
        Bid(1, "NT"), False, None, None)


def test_a_hand_not_given_has_an_empty_row(club_rows):
    east = club_rows[11]
    assert (east.seat, east.hand, east.bid, east.rule, east.correct) == ("E", "", None, "",
                                                                       None)


def test_a_bad_game_is_one_row_with_its_error(club_rows):
    bad = club_rows[8]
    assert (bad.game, bad.line, bad.seat) == (3, 39, "")
    assert bad.error.startswith("the South hand")


def test_csv_and_json_lines(club_rows):
    table = list(csv.reader(io.StringIO(render(club_rows, "csv"))))
    assert table[0] == list(COLUMNS)
    assert table[7] == ["2", "26", "2", "E", "NS", "W", "3",
                        "JS 8S 8H AD KD QD 4D 3D 2D AC 10C 7C 4C", "1D", "R3", "14", "2",
                        "16", "yes", "1D", "yes", ""]
    lines = [json.loads(line) for line in render(club_rows, "jsonl").splitlines()]
    assert lines[6]["bid"] == "1D" and lines[6]["agrees"] is True
    assert lines[8] == dict.fromkeys(COLUMNS) | {"game": 3, "line": 39, "board": "",
                                                 "dealer": "", "vulnerable": "",
                                                 "error": lines[8]["error"]}
    assert lines[11]["hand"] is None and lines[11]["seat"] == "E"


def test_a_no_bid_row_says_none_in_csv_and_null_in_json():
    row = SeatRow(1, 1, "1", "N", "", "N", 1, "h", NO_BID, "R9", 0, 0, 0, False,
                  Call("Pass"), True)
    assert row.cells()[8] == "None" and row.to_dict()["bid"] is None
    assert row.cells()[14:16] == ["Pass", "yes"] and row.answer is NO_BID


def test_the_summary_counts_boards_hands_and_calls_per_rule(club_rows):
    lines = summary_lines("club.pbn", club_rows, "pbn")
    assert lines[0] == ("club.pbn: PBN, 4 boards, 15 hands graded, 1 not given; 1 game "
                        "not read (game 3, line 39)")
    assert lines[1] == ("at the table: 6 calls made before anyone bid, 5 as the rules say "
                        "(83.3%), 1 not")
    assert any(line.startswith("R3 1 of a minor") and line.endswith("1NT ×1")
               for line in lines)
    assert lines[2].split() == ["rule", "hands", "as", "rules", "not", "called", "instead"]


def test_the_summary_without_calls_to_compare():
    dealt = rows(read_boards(run("deal", "--count", "2", "--seed", "1", "--format",
                                 "pbn").stdout))
    lines = summary_lines("-", dealt, "pbn")
    assert lines[0] == "-: PBN, 2 boards, 2 hands graded, 6 not given"
    assert lines[1] == "at the table: no calls given to compare"


# bidder grade FILE ---------------------------------------------------------------------

@pytest.mark.parametrize("path, name", [(CLUB_PBN, "club.txt"), (CLUB_LIN, "club.csv")],
                         ids=["pbn named .txt", "lin named .csv"])
def test_grade_tells_boards_by_content_not_by_name(tmp_path, path, name):
    renamed = tmp_path / name
    renamed.write_bytes(path.read_bytes())
    result = run("grade", renamed)
    assert result.exit_code == 1
    assert result.stdout.startswith(",".join(COLUMNS) + "\n")
    assert f"{renamed}:" in result.stderr and ": game 3: " in result.stderr
    assert "1 game not read (game 3, line" in result.stderr


def test_grade_boards_from_standard_input_as_json_lines(tmp_path):
    summary = tmp_path / "summary.txt"
    result = run("grade", "-", "--format", "jsonl", "--summary", summary,
                 input=run("deal", "--count", "3", "--seed", "2", "--format", "lin",
                           "--key").stdout)
    assert result.exit_code == 0
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(line["seat"], line["agrees"]) for line in lines[:4]] == [
        ("N", True), ("E", None), ("S", None), ("W", None)]
    assert summary.read_text().startswith("<stdin>: LIN, 3 boards, 3 hands graded")


def test_grade_boards_written_to_a_file(tmp_path):
    output = tmp_path / "graded.csv"
    assert run("grade", CLUB_PBN, "-o", output).exit_code == 1
    assert output.read_text().count("\n") == 18


def test_grade_boards_that_cannot_be_written_exits_2():
    result = run("grade", CLUB_PBN, "-o", "/dev/full")
    assert result.exit_code == 2
    assert result.stderr.endswith("grading stopped: No space left on device; nothing was "
                                  "written to /dev/full\n")


def test_a_class_file_is_still_graded_as_hands(tmp_path):
    class_file = tmp_path / "class.txt"
    class_file.write_text("5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C,1C,Ann\n")
    result = run("grade", class_file)
    assert result.exit_code == 0
    assert result.stdout.startswith("line,id,hand,bid")


def test_a_named_pipe_is_read_once_as_a_class_file(tmp_path):
    fifo = tmp_path / "class.fifo"
    os.mkfifo(fifo)
    assert sniff_input(str(fifo)) is None  # never opened: a writer would be needed


def test_the_head_of_a_stream_is_left_for_the_next_reader():
    for stream in (io.BytesIO(b"pn|a|md|1S|"), io.BufferedReader(io.BytesIO(b"pn|a|"))):
        assert head_of(stream, 2) == b"pn"
        assert stream.read(2) == b"pn"


# bidder bid --pbn FILE --board N -------------------------------------------------------------

def test_bid_shows_one_board_of_a_file():
    result = run("bid", "--pbn", CLUB_PBN, "--board", "2")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "Board 2   dealer East, North-South vulnerable   (game 2, line 26)"
    assert lines[2] == "  North  ♠ A K 7  ♥ A 4 2  ♦ 10 7 6  ♣ K Q 8 6"
    assert lines[3] == "         1NT by R1, 1NT: 16 HCP, 16 points"
    assert "  East*  ♠ 6 4 3" in result.stdout
    assert ("The rules open 1D in third seat (West); at the table West opened 1D."
            in result.stdout)
    assert lines[-4:] == ["Auction   West      North     East      South",
                          "                              Pass      Pass",
                          "          1D        Double    2D        2S",
                          "          Pass      Pass      Pass"]


def test_bid_shows_the_only_board_and_hands_not_given(tmp_path):
    one = tmp_path / "one.lin"
    one.write_text("md|1S875HT93D763CQ532,,,|ah|Board 9|")
    result = run("bid", "--pbn", one)
    assert result.exit_code == 0
    assert "  West   not given" in result.stdout
    assert "Auction" not in result.stdout and "vulnerable" not in result.stdout


def test_bid_shows_a_board_as_json():
    data = json.loads(run("bid", "--pbn", CLUB_LIN, "--board", "1", "--json").stdout)
    assert data["board"] == "1"
    assert data["summary"] == ("The rules open 1C in first seat (North); at the table "
                               "North opened 1C.")


@pytest.mark.parametrize("args, message", [
    (["--pbn", CLUB_PBN], f"{CLUB_PBN} has 4 boards (1, 2, 4, 5): choose one with "
                          f"--board N"),
    (["--pbn", CLUB_PBN, "--board", "3"], f"{CLUB_PBN} has no board '3': its boards are "
                                          f"1, 2, 4, 5"),
    (["--pbn", "/proc/self/mem"], "/proc/self/mem could not be read: Input/output error"),
], ids=["several boards and no --board", "a board the file cannot read", "unreadable"])
def test_bid_with_a_file_says_what_to_do(args, message):
    result = run("bid", *args)
    assert result.exit_code == 2
    assert result.stderr == f"Error: {message}\n"


def test_bid_with_a_file_of_no_boards(tmp_path):
    class_file = tmp_path / "class.txt"
    class_file.write_text("5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C\n")
    result = run("bid", "--pbn", class_file)
    assert result.exit_code == 2
    assert "is neither a PBN file" in result.stderr
    bad = tmp_path / "bad.pbn"
    bad.write_text('[Dealer "N"]\n[Deal "N:x - - -"]\n')
    result = run("bid", "--pbn", bad)
    assert result.stderr.startswith(f"Error: {bad} has no board that can be read: game 1, "
                                    f"line 2: the North hand 'x'")


@pytest.mark.parametrize("args, message", [
    (["AKQ2.J54.T9.8765", "--pbn", CLUB_PBN], "give either HAND, or --pbn FILE (with "
                                              "--board N), not both"),
    (["--board", "2"], "--board goes with --pbn FILE"),
    ([], "Missing argument 'HAND...'."),
], ids=["hand and file", "board without a file", "nothing"])
def test_bid_usage_errors(args, message):
    result = run("bid", *args)
    assert result.exit_code == 2
    assert result.stderr.endswith(f"Error: {message}\n")


# bidder deal --format pbn|lin|dealer --seat ---------------------------------------------------

@pytest.mark.parametrize("output_format", ["pbn", "lin"])
@pytest.mark.parametrize("seat", ["N", "e", "S", "w"])
def test_deal_files_put_each_hand_in_its_seat(output_format, seat):
    result = run("deal", "--rule", "R7", "--count", "3", "--seed", "4", "--format",
                 output_format, "--seat", seat, "--key")
    reading = read_boards(result.stdout)
    assert reading.format == output_format and reading.problems == ()
    for board, (_, hand) in zip(reading.boards, deal_set(3, 4, rule=RULE_BY_ID["R7"])):
        assert board.dealer.letter == seat.upper()
        assert board.hand(board.dealer) == hand


def test_deal_writes_a_dealer_script_for_a_rule():
    result = run("deal", "--rule", "r8", "--format", "dealer", "--count", "5", "--seat",
                 "S")
    assert result.exit_code == 0
    assert result.stdout.startswith("# bidder: hands decided by R8 (4 of a suit: 4C or 4D "
                                    "or 4H or 4S) in the South seat\n")
    assert "\nproduce 5\ndealer south\n" in result.stdout
    assert result.stdout.endswith(
        "\ncondition r8 and not r1 and not r2 and not r3 and not r4 and not r5 and not r6 "
        "and not r7\naction printpbn\n")


@pytest.mark.parametrize("args, message", [
    (["--format", "dealer"], "--format dealer writes the condition for a rule: give "
                             "--rule (e.g. --rule R2) and no --bid"),
    (["--format", "dealer", "--rule", "R2", "--bid", "1S"], "--format dealer writes"),
    (["--format", "dealer", "--rule", "R4"], "no hand fires R4"),
    (["--format", "dealer", "--rule", "R9", "--count", "0"],
     "--count is how many hands the script produces: 1 to 100, not 0"),
    (["--format", "dealer", "--rule", "R99"], "'R99' is not a rule"),
    (["--seat", "X"], "'X' is not one of"),
], ids=["no rule", "a bid too", "a rule that decides nothing", "no hands",
        "not a rule", "not a seat"])
def test_deal_refuses_scripts_it_cannot_write(args, message):
    result = run("deal", *args)
    assert result.exit_code == 2
    assert message in result.stderr
