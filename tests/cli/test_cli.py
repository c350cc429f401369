"""The bidder command through click's test runner: every subcommand, its output and exit."""

import csv
import io
import json
import os
import pty
import re
import runpy
import signal
import socket
import sys
import time
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from bidder import RULES, explain
from bidder.cards import EXAMPLE_HAND, SUITS_HIGH_FIRST, parse_hand
from bidder.bids import NO_BID, Bid
from bidder.cli.files import Failure, input_size, progress
from bidder.cli.commands import cli, main
from bidder.cli.termination import terminated
from bidder.cli.serve import (KEY_FILE, gunicorn_command, key_folder, kept_key,
                              refuse_a_taken_address, served_environment)
from bidder.web import instance_folder
from bidder.cli.stats import stats_lines
from bidder.cli.grade import summary_lines
import bidder.cli as start
from bidder.cli.terminal import can_show_symbols, hand_picture, holding, painter, style
from bidder.dealing import deal_set, statistics
from bidder.exact import exact_statistics
from bidder.cli.stats import exact_lines
from bidder.grading.classfile import Row, summarise

CLASS_FILE = Path(__file__).parent / "class.txt"
BALANCED_19 = "AS 4S KH QH 3H AD QD 7D 6D KC JC 8C 5C"
STRONG_NO_BID = "AS KS QS 2S AH KH 3H 2H AD QD 4D 3D 5C"
CLUBS_VOID = "AKQ2.J54.T98765."
YARBOROUGH = "9S 8S 7S 6S 5S 9H 8H 7H 6H 5H 9D 8D 2C"
ANSI = re.compile("\x1b\\[")
SUBCOMMANDS = ("bid", "grade", "deal", "stats", "check", "serve")


def run(*args, **options):
    """Invoke the command in this process, with stdout and stderr kept apart."""
    return CliRunner(**{key: options.pop(key) for key in ("charset",) if key in options}
                     ).invoke(cli, list(map(str, args)), **options)


# help --------------------------------------------------------------------------

@pytest.mark.parametrize("command", ("",) + SUBCOMMANDS)
def test_help_shows_a_real_example(command):
    result = run(*([command] if command else []), "--help")
    assert result.exit_code == 0
    assert "Example" in result.stdout
    assert f"bidder {command}".rstrip() + " " in result.stdout


def test_help_example_hand_is_the_assignments_hand():
    assert f"bidder bid {EXAMPLE_HAND}" in run("--help").stdout
    assert f"bidder bid {EXAMPLE_HAND}" in run("bid", "--help").stdout


def test_grade_help_lines_are_graded_as_shown():
    shown = run("grade", "--help").stdout.split("Lines such as:\n")[1].split("\n\n")[0]
    lines = [line.strip().replace("<TAB>", "\t") for line in shown.splitlines()]
    result = run("grade", "-", input="\n".join(lines) + "\n")
    assert result.exit_code == 0
    assert [row.split(",")[-2] for row in result.stdout.splitlines()[1:]] == ["yes", "yes"]


def test_short_help_option():
    assert run("-h").stdout == run("--help").stdout


def test_no_command_lists_the_commands():
    result = run()
    assert all(command in result.output for command in SUBCOMMANDS)


# bid ---------------------------------------------------------------------------

def test_bid_shows_the_bid_rule_sentence_scorecard_and_trace():
    result = run("bid", EXAMPLE_HAND)
    advice = explain(EXAMPLE_HAND)
    out = result.stdout
    assert result.exit_code == 0
    assert "Bid        1C   by R3, 1 of a minor" in out
    assert "13-21 points (bid whichever of Clubs or Diamonds" in out
    assert "♠ A  ♥ K 10 8 7  ♦ A J 9  ♣ 10 8 5 4 2" in out
    assert "  ♣ clubs     10 8 5 4 2                 5    0             1" in out
    assert "  points 13 = 12 HCP + 1 distribution" in out
    for step in advice.trace:
        assert f"  {step.rule:<3} " in out
        assert all(reason.split()[0] in out for reason in step.reasons)
    assert "fired → 1C" in out
    assert not ANSI.search(out)


def test_bid_accepts_the_cards_unquoted_or_quoted_alike():
    assert run("bid", *EXAMPLE_HAND.split()).stdout == run("bid", EXAMPLE_HAND).stdout


def test_bid_shows_a_shadowed_rule_and_its_note():
    out = run("bid", BALANCED_19).stdout
    assert "shadowed → 1D" in out
    assert "Notes\n  R4 also applies and would bid 1D" in out


def test_bid_paints_only_the_overlaps_a_ruling_speaks_of():
    quiet = run("bid", "AKQ2.K32.A32.432", color=True).stdout
    assert "shadowed → 1C" in click.unstyle(quiet)
    assert click.style("shadowed → 1C", fg="yellow") not in quiet
    assert "Notes" not in quiet
    loud = run("bid", BALANCED_19, color=True).stdout
    assert click.style("shadowed → 1D", fg="yellow") in loud


def test_bid_shows_no_bid_by_its_one_name():
    out = run("bid", STRONG_NO_BID).stdout
    assert "Bid        No bid   by R9, no bid" in out
    assert "fired → No bid" in out


def test_bid_colours_only_when_the_terminal_takes_colour():
    coloured = run("bid", EXAMPLE_HAND, color=True).stdout
    assert ANSI.search(coloured)
    assert click.unstyle(coloured) == run("bid", EXAMPLE_HAND).stdout


@pytest.mark.parametrize("value, coloured", [("1", False), ("", True)])
def test_bid_honours_no_color(value, coloured):
    result = run("bid", EXAMPLE_HAND, color=True, env={"NO_COLOR": value})
    assert bool(ANSI.search(result.stdout)) is coloured


def test_bid_uses_letters_where_symbols_cannot_be_written():
    out = run("bid", EXAMPLE_HAND, charset="ascii").stdout
    assert "S A  H K 10 8 7  D A J 9  C 10 8 5 4 2" in out
    assert "♠" not in out


def test_bid_json_is_the_advice():
    result = run("bid", EXAMPLE_HAND, "--json")
    assert json.loads(result.stdout) == explain(EXAMPLE_HAND).to_dict()


@pytest.mark.parametrize("hand, message", [
    ("AS KS", "a hand has 13 cards; this one has 2 (missing 11)"),
    ("1H " + " ".join(EXAMPLE_HAND.split()[1:]), "card 1 '1H' is not a card"),
])
def test_bid_refuses_a_bad_hand_with_usage_status(hand, message):
    result = run("bid", hand)
    assert result.exit_code == 2
    assert f"Invalid value for HAND: {message}" in result.stderr
    assert "Traceback" not in result.output


def test_bid_needs_a_hand():
    result = run("bid")
    assert result.exit_code == 2
    assert "Missing argument 'HAND...'" in result.stderr


@pytest.mark.parametrize("hand, suit, expected", [
    (CLUBS_VOID, "clubs", "-"), (CLUBS_VOID, "spades", "A K Q 2"),
    (EXAMPLE_HAND, "hearts", "K 10 8 7"),
])
def test_holding(hand, suit, expected):
    suit = next(each for each in SUITS_HIGH_FIRST if each.word == suit)
    assert holding(parse_hand(hand), suit) == expected


def test_hand_picture_paints_the_red_suits():
    picture = hand_picture(parse_hand(CLUBS_VOID), click.style, True)
    assert click.style("♥", fg="red") in picture and click.style("♦", fg="red") in picture
    assert click.unstyle(picture) == "♠ A K Q 2  ♥ J 5 4  ♦ 10 9 8 7 6 5  ♣ -"


@pytest.mark.parametrize("encoding, symbols", [("utf-8", True), ("ascii", False),
                                               ("latin-1", False)])
def test_can_show_symbols(encoding, symbols):
    assert can_show_symbols(io.TextIOWrapper(io.BytesIO(), encoding=encoding)) is symbols


def test_painter_is_plain_with_no_color(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    assert painter()("x", fg="red") == "x"
    monkeypatch.delenv("NO_COLOR")
    assert painter() is style


@pytest.mark.parametrize("options", [
    {}, {"fg": "red"}, {"fg": "green", "bold": True}, {"fg": "yellow"}, {"dim": True},
    {"bold": True},
])
def test_style_writes_what_click_style_writes(options):
    assert style("1NT", **options) == click.style("1NT", **options)


# The console script: `bidder bid HAND` without click ---------------------------------

@pytest.mark.parametrize("words", [
    EXAMPLE_HAND.split(),
    [EXAMPLE_HAND],
    ["AKQ2.J54.T9.8765"],
    ["AS", "KS", "QS", "2S", "AH", "KH", "3H", "2H", "AD", "QD", "4D", "3D", "5C"],
])
def test_a_bid_answers_as_the_full_command_line_does(words, capsys):
    start.main(["bid", *words])
    assert capsys.readouterr().out == run("bid", *words).stdout


def test_a_bid_on_a_terminal_is_in_colour(monkeypatch, capsys):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    start.main(["bid", EXAMPLE_HAND])
    assert capsys.readouterr().out == run("bid", EXAMPLE_HAND, color=True).stdout
    assert ANSI.search(run("bid", EXAMPLE_HAND, color=True).stdout)


@pytest.mark.parametrize("args, status, said", [
    (["bid", EXAMPLE_HAND, "--json"], 0, '"bid": "1C"'),
    (["bid", "AS KS"], 2, "Invalid value for HAND: a hand has 13 cards"),
    (["bid"], 2, "Missing argument"),
    (["--help"], 0, "Opening bids for bridge hands"),
])
def test_anything_else_goes_to_the_full_command_line(args, status, said, capsys):
    with pytest.raises(SystemExit) as stopped:
        start.main(args)
    captured = capsys.readouterr()
    assert stopped.value.code == status
    assert said in captured.out + captured.err


def test_the_console_script_reads_the_command_line(monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["bidder", "bid", *EXAMPLE_HAND.split()])
    start.main()
    assert capsys.readouterr().out.startswith(f"Hand       {parse_hand(EXAMPLE_HAND)}")


def test_sigterm_during_a_quick_bid_leaves_cleanly(monkeypatch, capsys):
    previous, handlers = signal.getsignal(signal.SIGTERM), []
    monkeypatch.setattr(sys.stdout, "flush",
                        lambda: handlers.append(signal.getsignal(signal.SIGTERM)))
    start.main(["bid", *EXAMPLE_HAND.split()])
    assert handlers == [terminated]
    with pytest.raises(SystemExit) as stopped:
        handlers[0](signal.SIGTERM, None)
    assert stopped.value.code == 143
    assert signal.getsignal(signal.SIGTERM) is previous


# grade -------------------------------------------------------------------------

def test_grade_reports_line_17_and_grades_the_rest(tmp_path):
    output, summary = tmp_path / "graded.csv", tmp_path / "summary.txt"
    result = run("grade", CLASS_FILE, "-o", output, "--summary", summary)
    assert result.exit_code == 1
    assert result.stderr == (f"{CLASS_FILE}:17: card 4 '1D' is not a card: '1' is not a "
                             f"rank; ranks are 2-10, J, Q, K, A\n")
    rows = list(csv.DictReader(output.open()))
    assert [row["line"] for row in rows] == [str(number) for number in range(2, 29)]
    assert rows[15]["error"].startswith("card 4 '1D' is not a card")
    for row in rows[:15] + rows[16:]:
        advice = explain(row["hand"])
        assert (row["bid"], row["rule"], row["hcp"]) == (
            "None" if advice.bid is None else advice.bid, advice.rule, str(advice.facts.tally.hcp))
        right = Bid.parse(row["answer"], lenient=True) == Bid.from_value(advice.bid)
        assert row["correct"] == ("yes" if right else "no")
    text = summary.read_text()
    assert text.startswith(f"{CLASS_FILE}: 26 hands graded, 1 bad line (line 17)\n"
                           "answers: 26 given, 20 right (76.9%), 6 wrong\n")
    assert "R3 1 of a minor                          6       3       3  " in text
    assert sorted(path.name for path in tmp_path.iterdir()) == ["graded.csv", "summary.txt"]


CORPUS = [  # (raw line, reported as bad)
    ("\ufeffhand,answer,student\r\n".encode(), None),
    (f"{EXAMPLE_HAND},1C,Ann\r\n".encode(), False),
    (b"\n", None),
    (b"# week 3\n", None),
    (f"{EXAMPLE_HAND}\u2028,1C,Ben\n".encode(), True),
    (f"{EXAMPLE_HAND},1C,Cy\u0085\n".encode(), False),
    (b"AS KS\x1b[2J QS,1C\n", True),
    (f"{EXAMPLE_HAND},\x08\x1b[31m,Dee\n".encode(), True),
    (b"AS\xff\n", True),
    (b"\x00\n", True),
    (b"x" * 5000 + b"\n", True),
    (f"{EXAMPLE_HAND}\tPass\tEve".encode(), False),
]


def test_grade_a_corpus_of_awkward_lines():
    result = run("grade", "-", input=b"".join(line for line, bad in CORPUS))
    bad = [number for number, (line, flag) in enumerate(CORPUS, 1) if flag]
    reported = [int(number) for number in re.findall(r"^<stdin>:(\d+): ", result.stderr,
                                                      re.MULTILINE)]
    assert reported == bad == [5, 7, 8, 9, 10, 11]
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f]", result.stderr)
    rows = list(csv.reader(io.StringIO(result.stdout)))[1:]
    assert [int(row[0]) for row in rows] == [
        number for number, (line, flag) in enumerate(CORPUS, 1) if flag is not None]
    assert result.exit_code == 1


def test_grade_writes_to_standard_output_and_the_summary_to_standard_error():
    result = run("grade", CLASS_FILE, "--format", "jsonl", "--jobs", "1")
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(rows) == 27
    assert rows[0]["line"] == 2 and rows[15]["error"]
    assert "26 hands graded, 1 bad line (line 17)" in result.stderr


def test_grade_reads_standard_input_by_dash():
    result = run("grade", "-", input=f"{EXAMPLE_HAND}\tPass\tAnn\n")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[1] == (
        "1,Ann,AS KH 10H 8H 7H AD JD 9D 10C 8C 5C 4C 2C,1C,R3,12,1,13,None,no,")
    assert result.stderr.startswith("<stdin>: 1 hands graded, 0 bad lines\n")


def test_grade_names_standard_input_in_bad_line_reports():
    result = run("grade", "-", input="AS KS\n")
    assert result.exit_code == 1
    assert result.stderr.startswith("<stdin>:1: a hand has 13 cards")


@pytest.mark.parametrize("args, message", [
    (["missing.txt"], "'missing.txt' does not exist"),
    ([str(Path(__file__).parent)], "is a directory"),
    ([str(CLASS_FILE), "--format", "xml"], "'xml' is not one of 'csv', 'jsonl'"),
    ([str(CLASS_FILE), "--jobs", "0"], "0 is not in the range"),
    ([str(CLASS_FILE), "--bogus"], "No such option '--bogus'"),
], ids=["missing", "directory", "format", "jobs", "option"])
def test_grade_usage_errors_exit_2(args, message):
    result = run("grade", *args)
    assert result.exit_code == 2
    assert message in result.stderr


def test_grade_into_a_missing_folder_exits_2_and_names_it(tmp_path):
    target = tmp_path / "nowhere" / "graded.csv"
    result = run("grade", CLASS_FILE, "-o", target)
    assert result.exit_code == 2
    assert result.stderr == (f"Error: grading stopped: No such file or directory "
                             f"({tmp_path / 'nowhere'}); nothing was written to {target}\n")


def test_grade_summary_into_a_missing_folder_exits_2_after_the_rows(tmp_path):
    summary = tmp_path / "nowhere" / "summary.txt"
    result = run("grade", CLASS_FILE, "-o", tmp_path / "graded.csv", "--summary", summary)
    assert result.exit_code == 2
    assert result.stderr.endswith(
        f"Error: the summary could not be written: No such file or directory "
        f"({tmp_path / 'nowhere'}); nothing was written to {summary}\n")
    assert (tmp_path / "graded.csv").exists()


def test_grade_onto_a_full_disk_exits_2():
    result = run("grade", CLASS_FILE, "-o", "/dev/full")
    assert result.exit_code == 2
    assert result.stderr.endswith("grading stopped: No space left on device; nothing was "
                                  "written to /dev/full\n")


def test_grade_from_an_unreadable_file_exits_2():
    result = run("grade", "/proc/self/mem")
    assert result.exit_code == 2
    assert result.stderr == "Error: grading stopped: Input/output error\n"


def test_grade_keeps_the_old_output_when_it_fails(tmp_path):
    output = tmp_path / "graded.csv"
    output.write_text("old\n")
    result = run("grade", "/proc/self/mem", "-o", output)
    assert result.exit_code == 2
    assert output.read_text() == "old\n"
    assert [path.name for path in tmp_path.iterdir()] == ["graded.csv"]


def test_grade_counts_an_empty_answer_as_unanswered_not_as_no_bid(tmp_path):
    class_file = tmp_path / "class.csv"
    class_file.write_text(f"hand,answer,student\n{STRONG_NO_BID},,Ann\n"
                          f"{STRONG_NO_BID},None,Ben\n{EXAMPLE_HAND},\n"
                          f"{EXAMPLE_HAND},2 clubs,Cy\n{EXAMPLE_HAND},1X,Dee\n")
    result = run("grade", class_file, "--format", "jsonl")
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(row["answer"], row["correct"]) for row in rows] == [
        (None, None), (None, True), (None, None), ("2C", False), (None, None)]
    assert (rows[4]["bid"], rows[4]["rule"], rows[4]["points"]) == ("1C", "R3", 13)
    assert rows[4]["error"].startswith("answer '1X' is not a bid")
    assert result.stderr.startswith(
        f"{class_file}:6: answer '1X' is not a bid: 'X' is not a suit or NT;")
    assert ("answers: 2 given, 1 right (50.0%), 1 wrong, 2 unanswered\n"
            in result.stderr)
    assert "R3 1 of a minor                          2       0       1  2C ×1" in (
        result.stderr)
    assert result.exit_code == 1


def same_file_spellings(folder: Path) -> dict:
    """Other names for folder/class.txt: a path through another folder, links."""
    (folder / "sub").mkdir()
    os.link(folder / "class.txt", folder / "hard.txt")
    (folder / "soft.txt").symlink_to(folder / "class.txt")
    return {"same": folder / "class.txt", "dotted": folder / "sub" / ".." / "class.txt",
            "relative": "./class.txt", "hard-link": folder / "hard.txt",
            "symbolic-link": folder / "soft.txt"}


@pytest.mark.parametrize("option", ["-o", "--summary"])
@pytest.mark.parametrize("spelling", ["same", "dotted", "relative", "hard-link",
                                      "symbolic-link"])
def test_grade_refuses_to_write_over_the_class_file(tmp_path, monkeypatch, spelling,
                                                    option):
    source = tmp_path / "class.txt"
    source.write_bytes(CLASS_FILE.read_bytes())
    target = same_file_spellings(tmp_path)[spelling]
    monkeypatch.chdir(tmp_path)
    before = sorted(path.name for path in tmp_path.iterdir())
    result = run("grade", "class.txt", option, target)
    assert result.exit_code == 2
    assert result.stderr == (f"Error: {target} is the class file being graded (class.txt): "
                             f"writing there would replace it; give {option} another "
                             f"file\n")
    assert result.stdout == ""
    assert source.read_bytes() == CLASS_FILE.read_bytes()
    assert sorted(path.name for path in tmp_path.iterdir()) == before


def test_grade_writes_beside_the_class_file_and_from_standard_input(tmp_path):
    source = tmp_path / "class.txt"
    source.write_bytes(CLASS_FILE.read_bytes())
    assert run("grade", source, "-o", tmp_path / "graded.csv").exit_code == 1
    assert run("grade", "-", "-o", source, input=f"{EXAMPLE_HAND},1C\n").exit_code == 0
    assert source.read_text().startswith("line,id,hand,bid")


def test_grade_clears_what_a_killed_run_left_and_writes_its_own(tmp_path):
    from bidder.cli.files import STALE_AFTER

    stale = tmp_path / ".graded.csv.f00_d4e1.part"
    stale.write_text("line,id,hand,bid\n1,Ann,AS KH")
    when = time.time() - STALE_AFTER - 60
    os.utime(stale, (when, when))
    result = run("grade", CLASS_FILE, "-o", tmp_path / "graded.csv")
    assert result.exit_code == 1
    assert sorted(path.name for path in tmp_path.iterdir()) == ["graded.csv"]
    assert len((tmp_path / "graded.csv").read_text().splitlines()) == 28


def test_input_size_is_known_for_files_only(tmp_path):
    with open(CLASS_FILE, "rb") as stream:
        assert input_size(stream) == CLASS_FILE.stat().st_size
    assert input_size(io.BytesIO(b"in memory")) is None
    reader, writer = os.pipe()
    with open(reader, "rb") as stream, open(writer, "wb"):
        assert input_size(stream) is None


def test_progress_bar_only_on_a_terminal():
    main_end, other_end = pty.openpty()
    with open(other_end, "w", encoding="utf-8") as terminal:
        with progress(100, terminal) as advance:
            advance(60)
            advance(40)
    shown = b""
    while True:  # everything the bar wrote, to the end: the writing side is closed
        try:
            chunk = os.read(main_end, 4096)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    os.close(main_end)
    assert "grading" in shown.decode() and "100%" in shown.decode()
    plain = io.StringIO()
    with progress(100, plain) as advance, progress(None, plain) as unknown:
        advance(5)
        unknown(5)
    assert plain.getvalue() == ""


def summary_of(rows):
    return summary_lines("class.txt", summarise(rows))


def test_summary_lines_without_answers_or_bad_lines():
    assert summary_of([Row(1, "h", "", Bid(1, "C"), "R3", 12, 1, 13)]) == [
        "class.txt: 1 hands graded, 0 bad lines", "answers: none given",
        "rule                                 hands   right   wrong  wrong bids given",
        "R3 1 of a minor                          1       0       0"]


def test_summary_lines_list_the_first_bad_lines_then_dots():
    rows = [Row(number, "x", error="bad") for number in range(1, 13)]
    assert summary_of(rows)[0] == ("class.txt: 0 hands graded, 12 bad lines "
                                   "(lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, ...)")


def test_summary_lines_show_wrong_bids_per_rule():
    rows = [Row(1, "h", "", NO_BID, "R9", 22, 0, 22, Bid(2, "C"), False),
            Row(2, "h", "", NO_BID, "R9", 22, 0, 22, Bid(2, "C"), False),
            Row(3, "h", "", NO_BID, "R9", 22, 0, 22, NO_BID, True),
            Row(4, "h", "", Bid(1, "C"), "R3", 13, 0, 13, NO_BID, False)]
    assert summary_of(rows)[1:] == [
        "answers: 4 given, 1 right (25.0%), 3 wrong",
        "rule                                 hands   right   wrong  wrong bids given",
        "R3 1 of a minor                          1       0       1  No bid ×1",
        "R9 no bid                                3       1       2  2C ×2"]


def test_summary_lines_count_the_unanswered_apart():
    rows = [Row(1, "h", "", NO_BID, "R9", 22, 0, 22, NO_BID, True),
            Row(2, "h", "", NO_BID, "R9", 22, 0, 22),
            Row(3, "h", "", Bid(1, "C"), "R3", 13, 0, 13)]
    assert summary_of(rows)[1] == "answers: 1 given, 1 right (100.0%), 0 wrong, 2 unanswered"


# deal --------------------------------------------------------------------------

def test_deal_text_with_key():
    result = run("deal", "--bid", "1NT", "--count", "2", "--seed", "7", "--key")
    boards = deal_set(2, 7, "1NT")
    assert result.exit_code == 0
    assert result.stdout.startswith("2 hands that open 1NT (seed 7; --seed 7 deals them "
                                    "again)\n")
    for (seed, hand), number in zip(boards, (1, 2)):
        assert f"Board {number}   {hand}" in result.stdout
    assert result.stdout.count("Key: Open 1NT: a balanced hand") == 2


def test_deal_is_reproducible_by_seed_and_shows_a_chosen_seed():
    first = run("deal", "--count", "3")
    assert first.stdout.startswith("3 hands (seed ")
    seed = re.search(r"--seed (\d+) deals them again", first.stdout).group(1)
    assert run("deal", "--count", "3", "--seed", seed).stdout == first.stdout


def test_deal_pbn_is_one_board_per_hand_in_the_north_seat():
    result = run("deal", "--rule", "R8", "--count", "3", "--seed", "3", "--format", "pbn",
                 "--key")
    text = result.stdout
    assert text.startswith("% PBN 2.1\n")
    games = text.split("\n\n")[1:]
    assert len(games) == 3
    for number, ((seed, hand), game) in enumerate(zip(deal_set(3, 3, rule=RULES[7]),
                                                      games), 1):
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]$', game, re.MULTILINE))
        assert tags["Board"] == str(number)
        assert tags["Deal"] == f"N:{hand.dotted} - - -"
        assert tags["Dealer"] == "N"
        assert {"Event", "Site", "Date", "West", "North", "East", "South", "Vulnerable",
                "Scoring", "Declarer", "Contract", "Result", "Auction"} <= set(tags)
        auction = game.split('[Auction "N"]\n')[1].splitlines()
        assert auction == [f"{explain(hand).bid} =1= AP",
                           f'[Note "1:{explain(hand).explanation}"]']


def test_deal_text_for_one_hand():
    assert run("deal", "--rule", "r7", "--seed", "2").stdout.startswith(
        "1 hand decided by R7 (seed 2; --seed 2 deals it again)\n")


def test_deal_pbn_gives_pass_for_no_bid_and_no_auction_without_key():
    keyed = run("deal", "--bid", "None", "--seed", "3", "--format", "pbn", "--key").stdout
    assert '[Auction "N"]\nPass =1= AP\n[Note "1:No bid: ' in keyed
    plain = run("deal", "--bid", "None", "--seed", "3", "--format", "pbn").stdout
    assert "Auction" not in plain


@pytest.mark.parametrize("key", [False, True])
def test_deal_json(key):
    args = ["deal", "--bid", "pass", "--rule", "R9", "--count", "2", "--seed", "4",
            "--format", "json"]
    data = json.loads(run(*args, *(["--key"] if key else [])).stdout)
    assert data["request"] == "2 hands that open nothing decided by R9"
    assert [board["seed"] for board in data["boards"]] == [4, 5]
    board = data["boards"][0]
    assert board["hand"] == str(deal_set(1, 4, None)[0][1])
    assert ("bid" in board) is key
    if key:
        assert (board["bid"], board["rule"]) == (None, "R9")


def test_deal_json_key_names_the_bid():
    data = json.loads(run("deal", "--bid", "2nt", "--seed", "1", "--format", "json",
                          "--key").stdout)
    assert data["boards"][0]["bid"] == "2NT"
    assert data["request"] == "1 hand that opens 2NT"


@pytest.mark.parametrize("args, message", [
    (["--bid", "5C"], "'5C' is not a bid the rules make"),
    (["--rule", "R4"], "no hand fires R4"),
    (["--rule", "R12"], "'R12' is not a rule"),
    (["--bid", "1NT", "--rule", "R2"], "R2 never bids 1NT"),
    (["--count", "0"], "ask for 1 to 100 hands, not 0"),
    (["--format", "gib"], "'gib' is not one of"),
], ids=["bid", "unreachable", "rule", "mismatch", "count", "format"])
def test_deal_refuses_requests_no_hand_meets(args, message):
    result = run("deal", *args)
    assert result.exit_code == 2
    assert message in result.stderr


# stats -------------------------------------------------------------------------

def test_stats_tables():
    result = run("stats", "--hands", "3000", "--seed", "2")
    counts = statistics(3000, 2)
    out = result.stdout
    assert out.startswith("Opening bids over 3,000 random hands (seed 2)\n")
    for bid, times in counts.by_bid:
        if times:
            assert re.search(rf"^{Bid.from_value(bid).plain} +{times:,} ", out,
                             re.MULTILINE)
    assert "R4 1 of a minor, strong balanced" in out
    assert "never decides: an earlier rule comes first" in out
    assert "R3 decides, R4 also applies" in out or "R1 decides, R3 also applies" in out


def test_stats_names_bids_in_letters_where_symbols_cannot_be_written():
    out = run("stats", "--hands", "2000", charset="ascii").stdout
    assert re.search(r"^1C +[0-9,]+ ", out, re.MULTILINE)
    assert re.search(r"^No bid +[0-9,]+ ", out, re.MULTILINE)
    assert "♣" not in out


BID_WITH_A_SYMBOL = re.compile("[1-7][♣♦♥♠]")
BID_IN_LETTERS = re.compile(r"(?<![\w-])[1-7](?:NT|[CDHS])(?!\w)")
CLUB_NIGHT = Path(__file__).parents[1] / "boards" / "club-night.pbn"


@pytest.mark.parametrize("args", [
    ("stats", "--hands", "2000"), ("stats", "--exact"), ("bid", BALANCED_19),
    ("bid", "--pbn", CLUB_NIGHT, "--board", "2"), ("grade", CLASS_FILE),
], ids=["stats-of-a-sample", "stats-counted-exactly", "one-hand", "one-board",
        "a-class-file-graded"])
def test_every_terminal_output_writes_its_bids_in_letters_even_where_symbols_can_be_shown(
        args):
    result = run(*args)
    out = result.stdout + result.stderr
    assert BID_IN_LETTERS.search(out)
    assert BID_WITH_A_SYMBOL.findall(out) == []


def test_stats_lines_without_overlaps():
    counts = statistics(1, 1)
    assert counts.overlaps == ()
    lines = stats_lines(counts)
    assert lines[-1] == "  none"
    assert any(line.startswith("2NT") and line.endswith("0.00%") for line in lines)


def test_stats_json():
    data = json.loads(run("stats", "--hands", "500", "--json").stdout)
    assert data == statistics(500, 1).to_dict()


@pytest.mark.parametrize("hands", ["0", "2000000"])
def test_stats_refuses_a_count_out_of_range(hands):
    result = run("stats", "--hands", hands)
    assert result.exit_code == 2
    assert "Invalid value for --hands: ask for 1 to 1,000,000 hands" in result.stderr


def test_stats_exact_prints_every_count_in_full():
    counts = exact_statistics()
    out = run("stats", "--exact").stdout
    assert out.startswith("Opening bids over all 635,013,559,600 hands, counted exactly\n")
    for bid, times in counts.by_bid:
        shown = Bid.from_value(bid).plain
        assert re.search(rf"^{shown} +{times:,} +{counts.share(times):.4f}%", out,
                         re.MULTILINE)
    assert re.search(r"^1NT +18,903,332,592 +2\.9768% +16-18 HCP, mean 16\.78$", out,
                     re.MULTILINE)
    assert re.search(r"^R4 1 of a minor, strong balanced +0 +0\.0000% +never decides",
                     out, re.MULTILINE)
    assert re.search(r"^  R3 decides, R4 also applies +4,592,800,320 ", out, re.MULTILINE)
    assert re.search(r"^37 +4 +0\.0000%$", out, re.MULTILINE)
    assert re.search(r"^4-4-3-2 +136,852,887,600 +21\.5512%$", out, re.MULTILINE)


def test_stats_exact_json_gives_the_integer_counts():
    result = run("stats", "--exact", "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == exact_statistics().to_dict()


def test_exact_lines_give_no_hcp_range_for_a_bid_no_hand_opens():
    r3_before_r1 = (RULES[1], RULES[2], RULES[0], RULES[-1])
    lines = exact_lines(exact_statistics(r3_before_r1))
    assert any(re.fullmatch(r"1NT +0 +0\.0000%", line) for line in lines)


@pytest.mark.parametrize("option", ["--hands", "--seed"])
def test_stats_exact_refuses_a_sample_option(option):
    result = run("stats", "--exact", option, "5")
    assert result.exit_code == 2
    assert f"--exact counts every hand: leave out {option}" in result.stderr


# check -------------------------------------------------------------------------

STUDENTS = Path(__file__).parents[1] / "checker" / "students"


def write_student(tmp_path, source: str) -> Path:
    path = tmp_path / "solution.py"
    path.write_text(source)
    (tmp_path / "correct.py").write_text((STUDENTS / "correct.py").read_text())
    return path


CORRECT = "from correct import highCardPoints, distributionPoints, openingBid\n"


def test_check_passes_a_correct_module(tmp_path):
    result = run("check", write_student(tmp_path, CORRECT), "--hands", "30")
    assert result.exit_code == 0
    assert result.stdout.startswith("Checking solution.py: ")
    assert "Isolation: " in result.stdout
    assert "openingBid" in result.stdout and "100.0%" in result.stdout
    assert result.stdout.endswith("Result: every answer agrees with the reference\n")
    assert "Wrong answers" not in result.stdout


def test_check_reports_the_string_none_plainly(tmp_path):
    source = CORRECT + ("from correct import openingBid as right\n"
                        "def openingBid(hand):\n"
                        "    return str(right(hand))\n")
    result = run("check", write_student(tmp_path, source), "--hands", "30", "--shown", "2")
    out = result.stdout
    assert result.exit_code == 1
    assert "     expected: None\n" in out
    assert "     actual:   'None' (str); for no bid return the value None, not a string\n" in out
    assert "R9 no bid" in out and "0.0%" in out
    assert "Wrong answers, the biggest group first (1 group, " in out
    assert "     why: No bid: " in out


def test_check_reports_problems_and_warnings(tmp_path):
    source = "print('hello')\nfrom correct import highCardPoints\n"
    result = run("check", write_student(tmp_path, source), "--hands", "0")
    assert result.exit_code == 1
    assert "Problems\n  solution.py has no function distributionPoints" in result.stdout
    assert "Warnings\n  the module prints to standard output while being imported" in (
        result.stdout)
    assert re.search(r"distributionPoints +missing\n", result.stdout)
    assert "some answers differ from the reference, or were not given" in result.stdout


# the wall time is short, and a busy machine may still be starting the module when it
# ends: only the CPU second, far from the wall time, is sure to stop it inside the call
@pytest.mark.parametrize("body, options, said", [
    ("while True:\n        pass", ("--timeout", "30", "--cpu", "1"),
     "no answer within the CPU time limit (CPU 1 s): stopped while computing "
     "highCardPoints("),
    ("import time\n    time.sleep(60)", ("--timeout", "3"),
     "no answer within the time limit (wall 3 s): stopped while "),
], ids=["computing-for-ever", "waiting-for-ever"])
def test_check_stops_a_call_that_never_answers(tmp_path, body, options, said):
    source = f"def highCardPoints(hand):\n    {body}\n"
    result = run("check", write_student(tmp_path, source), "--hands", "0", *options)
    assert result.exit_code == 1
    assert said in " ".join(result.stdout.split())


@pytest.mark.parametrize("cpu", ["0", "3601", "1.5"])
def test_check_refuses_cpu_seconds_out_of_range(tmp_path, cpu):
    result = run("check", write_student(tmp_path, CORRECT), "--cpu", cpu)
    assert result.exit_code == 2
    assert "--cpu" in result.output


def test_check_takes_its_seed_from_the_environment(tmp_path):
    path = write_student(tmp_path, CORRECT)
    first = run("check", path, "--hands", "3", env={"BIDDER_CHECK_SEED": "5"})
    again = run("check", path, "--hands", "3", "--seed", "5")
    assert first.exit_code == again.exit_code == 0
    assert first.stdout == again.stdout


def test_check_grades_the_students_own_tests(tmp_path):
    path = write_student(tmp_path, CORRECT)
    (tmp_path / "test_solution.py").write_text(
        "from solution import openingBid\n"
        "def test_sample():\n"
        "    assert openingBid('5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C') == '1C'\n")
    result = run("check", path, "--hands", "0", "--isolation", "fallback", "--tests",
                 tmp_path / "test_solution.py")
    assert result.exit_code == 0
    assert "Your tests (test_solution.py): 1 of 1 pass on your module" in result.stdout
    assert "no test calls highCardPoints or distributionPoints" in " ".join(
        result.stdout.split())


def test_check_in_the_fallback_says_so(tmp_path):
    result = run("check", write_student(tmp_path, CORRECT), "--hands", "0",
                 "--isolation", "fallback", "--memory", "512")
    assert result.exit_code == 0
    assert "Isolation: fallback: own session" in result.stdout
    assert "memory 512 MiB" in " ".join(result.stdout.split())
    assert "(no sandbox: the fallback was asked for)" in " ".join(result.stdout.split())


def test_check_refuses_to_run_unsealed_when_the_sandbox_is_demanded(tmp_path, monkeypatch):
    from bidder.checker import sandbox

    monkeypatch.setattr(sandbox, "bubblewrap_problem", lambda: "bwrap is not installed")
    result = run("check", write_student(tmp_path, CORRECT), "--isolation", "bubblewrap")
    assert result.exit_code == 2
    assert "the sandbox was demanded but bwrap is not installed" in result.stderr


@pytest.mark.parametrize("args, message", [
    (["missing.py"], "'missing.py' does not exist"),
    ([__file__, "--timeout", "0"], "0 is not in the range x>=0.1"),
    ([__file__, "--hands", "-1"], "-1 is not in the range"),
    ([__file__, "--memory", "1"], "1 is not in the range 64<=x<=65536"),
    ([__file__, "--isolation", "docker"], "'docker' is not one of"),
])
def test_check_usage_errors_exit_2(args, message):
    result = run("check", *args)
    assert result.exit_code == 2
    assert message in result.stderr


# serve -------------------------------------------------------------------------

@pytest.mark.parametrize("host, port, workers, bind", [
    ("127.0.0.1", 5000, 2, "127.0.0.1:5000"), ("::1", 8000, 1, "[::1]:8000"),
    ("0.0.0.0", 80, 4, "0.0.0.0:80"),
])
def test_gunicorn_command_is_the_one_make_run_uses(host, port, workers, bind):
    assert gunicorn_command(host, port, workers) == [
        sys.executable, "-m", "gunicorn", "--workers", str(workers), "--worker-class",
        "bidder.web.worker.Worker", "--worker-connections", "1000", "--keep-alive", "5", "--no-control-socket",
        "--reuse-port", "--logger-class", "bidder.web.start_log.Logger", "--bind", bind,
        "bidder.web:create_app()"]


def test_make_run_is_bidder_serve():
    makefile = (Path(__file__).parents[2] / "Makefile").read_text()
    run = makefile.split("\nrun:")[1].split("\n\n")[0]
    assert run.splitlines()[1].strip() == (
        "$(VENV)/bin/bidder serve --host $(HOST) --port $(PORT) --workers $(WORKERS) "
        "$(if $(PUBLIC_URL),--public-url '$(PUBLIC_URL)')")


def test_serve_refuses_an_address_a_server_listens_on():
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        with pytest.raises(Failure, match=(
                rf"cannot listen on 127.0.0.1:{port}: Address already in use; another "
                rf"server \(an earlier `make run` or `bidder serve`\?\) listens there")):
            refuse_a_taken_address("127.0.0.1", port)
        result = run("serve", "--port", str(port))
    assert result.exit_code == 2
    assert "Address already in use" in result.stderr


@pytest.mark.parametrize("host", ["192.0.2.1", "::2"])  # numeric: no name lookup
def test_serve_refuses_an_address_it_cannot_have(host):
    with pytest.raises(Failure, match=rf"cannot listen on {host}:5000: .*; choose another "
                                      rf"address"):
        refuse_a_taken_address(host, 5000)


def test_a_free_address_is_not_refused():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    refuse_a_taken_address("127.0.0.1", port)


@pytest.mark.parametrize("environ, key", [
    ({"PATH": "/bin"}, "[0-9a-f]{64}"), ({"BIDDER_SECRET_KEY": ""}, "[0-9a-f]{64}"),
    ({"BIDDER_SECRET_KEY": "set-by-the-admin"}, "set-by-the-admin"),
], ids=["unset", "empty", "set"])
def test_served_environment_has_a_secret_key(environ, key, tmp_path):
    served = served_environment(environ, tmp_path)
    assert re.fullmatch(key, served.pop("BIDDER_SECRET_KEY"))
    environ.pop("BIDDER_SECRET_KEY", None)
    assert served == environ


def test_served_environment_refuses_a_key_the_app_would_refuse():
    with pytest.raises(Failure, match="BIDDER_SECRET_KEY is 5 characters long; use at "
                                      "least 16"):
        served_environment({"BIDDER_SECRET_KEY": "short"}, Path("/nowhere"))


def test_serve_with_a_short_key_exits_2_before_starting():
    result = run("serve", env={"BIDDER_SECRET_KEY": "short"})
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: BIDDER_SECRET_KEY is 5 characters long")


def test_a_made_key_is_kept_in_the_folder_for_the_next_start(tmp_path):
    first = served_environment({}, tmp_path / "instance")["BIDDER_SECRET_KEY"]
    assert served_environment({}, tmp_path / "instance")["BIDDER_SECRET_KEY"] == first
    assert (tmp_path / "instance" / KEY_FILE).read_text() == first + "\n"
    assert (tmp_path / "instance" / KEY_FILE).stat().st_mode & 0o777 == 0o600
    assert served_environment({}, tmp_path / "other")["BIDDER_SECRET_KEY"] != first


def test_a_short_key_in_the_file_is_refused_naming_the_file(tmp_path):
    (tmp_path / KEY_FILE).write_text("short\n")
    with pytest.raises(Failure, match=f"^the key kept in {tmp_path / KEY_FILE} is refused "
                                      f"\\(BIDDER_SECRET_KEY is 5 characters long.*\\); "
                                      f"delete the file, and the next start makes a new one$"):
        served_environment({}, tmp_path)


def test_a_key_file_that_cannot_be_read_or_made_is_said(tmp_path):
    (tmp_path / KEY_FILE).mkdir()
    with pytest.raises(Failure, match=f"cannot read the secret key in {tmp_path / KEY_FILE}"):
        served_environment({}, tmp_path)
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    with pytest.raises(Failure, match=f"cannot keep a secret key in {blocker / KEY_FILE}"):
        served_environment({}, blocker)


def test_a_key_made_by_another_start_meanwhile_is_used(tmp_path, monkeypatch):
    path = tmp_path / KEY_FILE
    real_open = os.open

    def racing_open(name, flags, mode=0o777):
        Path(name).write_text("made-by-the-other-start-0123456789\n")
        return real_open(name, flags, mode)

    monkeypatch.setattr(os, "open", racing_open)
    assert kept_key(path) == "made-by-the-other-start-0123456789"


def test_the_key_folder_is_the_instance_folder():
    assert key_folder() == instance_folder()


@pytest.mark.parametrize("args, message", [
    (["--port", "0"], "0 is not in the range 1<=x<=65535"),
    (["--workers", "0"], "0 is not in the range"),
])
def test_serve_usage_errors_exit_2(args, message):
    result = run("serve", *args)
    assert result.exit_code == 2
    assert message in result.stderr


# the console script --------------------------------------------------------------

def test_main_runs_a_command_and_restores_sigterm(capsys):
    import signal

    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(SystemExit) as caught:
        main(["bid", EXAMPLE_HAND])
    assert caught.value.code == 0
    assert "Bid        1C" in capsys.readouterr().out
    assert signal.getsignal(signal.SIGTERM) is before


def test_terminated_exits_with_143():
    import signal

    with pytest.raises(SystemExit) as caught:
        terminated(signal.SIGTERM, None)
    assert caught.value.code == 143


def test_python_dash_m_bidder(monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["bidder", "bid", EXAMPLE_HAND, "--json"])
    with pytest.raises(SystemExit) as caught:
        runpy.run_module("bidder", run_name="__main__")
    assert caught.value.code == 0
    assert json.loads(capsys.readouterr().out)["bid"] == "1C"


def test_failure_exits_2():
    assert Failure("x").exit_code == 2


def test_serve_prints_the_url_to_open_before_starting_gunicorn(monkeypatch, tmp_path):
    import subprocess

    from bidder.cli import serve
    from bidder.cli.serve import reach_line, start_line

    monkeypatch.setattr(serve, "key_folder", lambda: tmp_path)

    assert start_line("127.0.0.1", 5000) == (
        "Serving bidder on http://127.0.0.1:5000/ (Ctrl-C stops it)")
    assert start_line("::1", 8000) == "Serving bidder on http://[::1]:8000/ (Ctrl-C stops it)"
    assert start_line("localhost", 8000) == (
        "Serving bidder on http://localhost:8000/ (Ctrl-C stops it)")
    for every, local in (("0.0.0.0", "127.0.0.1"), ("::", "[::1]")):
        assert start_line(every, 80) == (
            f"Serving bidder on every address, port 80: open http://{local}:80/ on this "
            f"machine (Ctrl-C stops it)")
    events, echo = [], click.echo

    def said(message, **options):
        events.append(("said", message))
        echo(message, **options)

    class Gunicorn:
        """Stands in for the server, which would start here."""

        def __init__(self, command, env):
            events.append(("started", command))
            assert env["BIDDER_SECRET_KEY"] == (tmp_path / KEY_FILE).read_text().strip()

        def wait(self):
            return 0

        def poll(self):
            return 0

    monkeypatch.setattr(click, "echo", said)
    monkeypatch.setattr(subprocess, "Popen", Gunicorn)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = run("serve", "--port", port, "--workers", 1)
    line = f"Serving bidder on http://127.0.0.1:{port}/ (Ctrl-C stops it)"
    reach = reach_line("127.0.0.1", port, "", ())
    assert result.exit_code == 0
    assert result.stderr == line + "\n" + reach + "\n"
    assert events == [("said", line), ("said", reach),
                      ("started", gunicorn_command("127.0.0.1", port, 1))]


@pytest.mark.parametrize("given, host, found, public", [
    ("", "127.0.0.1", (), ""), ("", "localhost", (), ""), ("", "::1", (), ""),
    ("", "0.0.0.0", ("192.0.2.5", "10.0.0.2"), "http://192.0.2.5:5000"),
    ("", "0.0.0.0", (), ""), ("", "::", ("192.0.2.5",), "http://192.0.2.5:5000"),
    ("", "192.0.2.9", (), "http://192.0.2.9:5000"),
    ("http://room.example:8000/", "0.0.0.0", ("192.0.2.5",), "http://room.example:8000"),
    ("https://bridge.example.org", "127.0.0.1", (), "https://bridge.example.org"),
], ids=["loopback-none", "localhost-none", "loopback-v6-none", "every-address-the-first-found",
        "every-address-none-found", "every-v6-address-the-first-found", "one-address-it",
        "given-wins", "given-behind-a-proxy"])
def test_the_public_address_serve_passes_on(given, host, found, public):
    from bidder.cli.serve import public_address
    assert public_address(given, host, 5000, found) == public


def test_serve_refuses_a_public_address_phones_cannot_open():
    result = run("serve", "--public-url", "192.168.1.20:5000")
    assert result.exit_code == 2
    assert "BIDDER_PUBLIC_URL is '192.168.1.20:5000', which is not an address" in result.stderr


@pytest.mark.parametrize("host, public, found, said", [
    ("127.0.0.1", "", (), "Phones cannot reach this server: it listens on this computer "
                          "alone. For a class, serve on every address: make run HOST=0.0.0.0"),
    ("127.0.0.1", "https://b.example", (), "Phones join polls at https://b.example/live (the "
                                           "public address), which must lead to this server"),
    ("0.0.0.0", "http://192.0.2.5:80", ("192.0.2.5", "10.0.0.2"),
     "Phones in the room can open http://192.0.2.5:80/, http://10.0.0.2:80/; polls show "
     "http://192.0.2.5:80/live (choose with --public-url, make run PUBLIC_URL=)"),
    ("0.0.0.0", "", (), "No network address of this computer was found, so phones cannot "
                        "reach it"),
    ("0.0.0.0", "http://room.example", (), "Phones join polls at http://room.example/live"),
    ("192.0.2.9", "http://192.0.2.9:80", (), "Phones join polls at http://192.0.2.9:80/live"),
])
def test_serve_says_how_phones_reach_it(host, public, found, said):
    from bidder.cli.serve import reach_line
    assert reach_line(host, 80, public, found).startswith(said)


def test_serve_on_every_address_passes_the_first_address_found_to_the_app(monkeypatch,
                                                                           tmp_path):
    import subprocess

    from bidder.cli import serve

    started = {}
    monkeypatch.setattr(serve, "key_folder", lambda: tmp_path)
    monkeypatch.setattr(serve, "room_addresses", lambda: ("192.0.2.44",))
    monkeypatch.setattr(serve, "refuse_a_taken_address", lambda host, port: None)
    monkeypatch.delenv("BIDDER_PUBLIC_URL", raising=False)

    class Gunicorn:
        def __init__(self, command, env):
            started.update(env)

        def wait(self):
            return 0

        def poll(self):
            return 0

    monkeypatch.setattr(subprocess, "Popen", Gunicorn)
    result = run("serve", "--host", "0.0.0.0", "--port", 8123, "--workers", 1)
    assert result.exit_code == 0 and started["BIDDER_PUBLIC_URL"] == "http://192.0.2.44:8123"
    assert "Phones in the room can open http://192.0.2.44:8123/" in result.stderr


@pytest.mark.parametrize("names, addresses", [
    (["lo"], ()), (["no-such-interface"], ()), ([], ())])
def test_room_addresses_leave_out_loopback_and_interfaces_without_an_address(names,
                                                                              addresses):
    from bidder.cli.addresses import room_addresses
    assert room_addresses(names) == addresses


def test_room_addresses_list_this_machine_s_interfaces_containers_last(monkeypatch):
    from bidder.cli import addresses
    assert "127.0.0.1" not in addresses.room_addresses()
    found = {"docker0": "172.17.0.1", "wlan0": "192.168.1.20", "lo": "127.0.0.1",
             "eth1": "192.168.1.20", "tun0": "10.8.0.2"}
    monkeypatch.setattr(addresses, "interface_address", found.get)
    assert addresses.room_addresses(list(found)) == ("192.168.1.20", "172.17.0.1",
                                                     "10.8.0.2")
