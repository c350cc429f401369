"""PBN (Portable Bridge Notation 2.1): games read into boards, and dealt hands written
as games other programs read back.

Reading follows the standard's import format: games are separated by a line that is
empty or holds only spaces and tabs; a line starting with ``%`` is skipped; ``;`` starts
a comment to the end of the line and ``{...}`` one that may span lines; tag names are
case-sensitive, their values may be given as ``#`` (the previous game's value) or
``##text`` (this text from here on); ``[Deal]`` names its first seat and gives the hands
clockwise, ``-`` for a hand not given; ``[Auction]`` calls may be lower case and carry
notes (``=1=`` with a ``[Note "1:..."]``), suffixes, NAGs, ``AP`` (all pass) and ``*``
(no more calls given). A game that cannot be read is reported with its place, and the
rest of the file is read.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, Iterator

from ..advice import Advice, explain
from ..cards import Hand, InvalidHandError, parse_hand
from ..errors import echo
from .model import (PASS, PBN, Auction, Board, BoardError, Call, Reading, Seat,
                    Vulnerability, board_dealer, dealt_board, read_call)

NOT_INHERITED = frozenset({"Dealer", "Vulnerable", "Deal", "Declarer", "Contract",
                           "Auction", "Play"})
INHERIT, HEADER = "#", "##"
VULNERABILITY_BY_WORD = {"NONE": Vulnerability.NONE, "LOVE": Vulnerability.NONE,
                         "-": Vulnerability.NONE, "NS": Vulnerability.NS,
                         "EW": Vulnerability.EW, "ALL": Vulnerability.ALL,
                         "BOTH": Vulnerability.ALL}
_SEAT_HELP = "N, E, S or W"
LINE_LIMIT = 255 - 2  # the characters of a line the standard allows, less CR LF
_DEAL_EXAMPLE = '[Deal "N:AK72.QJ5.T98.432 - - -"]'
_WORD_END = ' \t[]{};"'
_NAME = re.compile("[A-Za-z][A-Za-z0-9_]*")
_AUCTION_PIECE = re.compile(r"=\d+=|\$\d+|[!?]{1,2}|\^[A-Za-z]|[*+]|[A-Za-z0-9-]+")
_NOTE = re.compile(r"(\d+):(.*)", re.DOTALL)


# Tokens -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Token:
    """A piece of PBN text: '[' or ']', a word (a name, call, card or section token), a
    string (a tag value, unescaped), 'end' for a line that ends a game, or 'error'."""

    kind: str
    text: str
    line: int


def tokens(text: str) -> Iterator[Token]:
    """The tokens of a PBN text, comments and escaped lines left out."""
    in_comment = False
    for number, line in enumerate(text.lstrip("\ufeff").split("\n"), 1):
        line = line.rstrip("\r")
        start = 0
        if in_comment:
            start = line.find("}") + 1
            if not start:
                continue
            in_comment = False
        elif line.startswith("%"):
            continue
        elif not line.strip(" \t\v\f"):
            yield Token("end", "", number)
            continue
        in_comment = yield from _line_tokens(line, start, number)


def _line_tokens(line: str, index: int, number: int):
    """The tokens of one line from *index*; returns whether a comment runs past its end."""
    while index < len(line):
        character = line[index]
        if character in " \t\v\f":
            index += 1
        elif character == ";":
            return False
        elif character == "{":
            index = line.find("}", index + 1) + 1
            if not index:
                return True
        elif character in "[]":
            yield Token(character, character, number)
            index += 1
        elif character == '"':
            index = yield from _string(line, index, number)
        else:
            end = index
            while end < len(line) and line[end] not in _WORD_END:
                end += 1
            yield Token("word", line[index:end], number)
            index = end
    return False


def _string(line: str, index: int, number: int):
    """The string token that starts at *index*, with \\" and \\\\ unescaped; returns
    where it ends (the end of the line, after an error, when it is not closed)."""
    value, index = [], index + 1
    while index < len(line):
        character = line[index]
        if character == '"':
            yield Token("string", "".join(value), number)
            return index + 1
        if character == "\\" and index + 1 < len(line) and line[index + 1] in '"\\':
            index += 1
            character = line[index]
        value.append(character)
        index += 1
    yield Token("error", "a tag value has no closing quote on this line: write the tag "
                         "on one line as [Name \"value\"]", number)
    return len(line)


def games(items: Iterable[Token]) -> Iterator[list[Token]]:
    """The tokens of each game: runs of tokens between lines that end a game."""
    game: list[Token] = []
    for token in items:
        if token.kind != "end":
            game.append(token)
        elif game:
            yield game
            game = []
    if game:
        yield game


# A game's tags ------------------------------------------------------------------------------

@dataclass
class Tags:
    """A game's tags as written: the value and line of each (the first of a name
    counts), the section data after each, and the notes by number."""

    line: int
    values: dict[str, tuple[str, int]] = field(default_factory=dict)
    data: dict[str, list[Token]] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)


def read_tags(game: list[Token]) -> Tags:
    """The tags of one game and the data that follows each.

    :raises BoardError: for anything that is not a tag or the data of one.
    """
    tags, current, index = Tags(game[0].line), None, 0
    while index < len(game):
        token = game[index]
        if token.kind == "error":
            raise BoardError(token.text, "bad_syntax", line=token.line)
        if token.kind == "[":
            name, value = _tag(game[index:index + 4], token.line)
            index += 4
            current = _add_tag(tags, name, value, token.line)
            continue
        if current is None or token.kind == "]":
            raise BoardError(f"{echo(token.text)} stands outside a tag: a game is tags such "
                             f"as [Dealer \"N\"], each followed by its data (the calls "
                             f"after [Auction], for instance)", "bad_syntax", line=token.line)
        if current:
            tags.data[current].append(token)
        index += 1
    return tags


def _tag(pieces: list[Token], line: int) -> tuple[str, str]:
    """(name, value) of the tag pair made of *pieces*: '[', name, string, ']'.

    :raises BoardError: if they are not a tag pair.
    """
    kinds = [piece.kind for piece in pieces]
    if kinds != ["[", "word", "string", "]"] or not _NAME.fullmatch(pieces[1].text):
        shown = " ".join(piece.text if piece.kind != "string" else f'"{piece.text}"'
                         for piece in pieces)
        raise BoardError(f"{echo(shown)} is not a tag: a tag is [Name \"value\"], e.g. "
                         f"[Dealer \"N\"]", "bad_tag", line=line)
    return pieces[1].text, pieces[2].text


def _add_tag(tags: Tags, name: str, value: str, line: int) -> str:
    """Keep a tag (notes by number; the first of any other name); the name its data
    belongs to, or '' for data to drop with a note or a repeated tag."""
    if name == "Note":
        note = _NOTE.fullmatch(value)
        if note:
            tags.notes.setdefault(note.group(1), note.group(2))
        return ""
    if name in tags.values:
        return ""
    tags.values[name] = (value, line)
    tags.data[name] = []
    return name


def inherit(tags: Tags, previous: dict[str, str], headers: dict[str, str]
            ) -> dict[str, tuple[str, int]]:
    """The game's values with '#' (the previous game's value) and '##text' (this text
    from here on) worked out; *headers* is updated for the games after.

    :raises BoardError: for '#' or '##' on a tag the standard keeps them off.
    """
    values = {name: (text, tags.line) for name, text in headers.items()}
    for name, (text, line) in tags.values.items():
        if text.startswith(INHERIT) and name in NOT_INHERITED:
            raise BoardError(f"[{name} {echo(text)}]: '#' may not stand for the previous "
                             f"game's {name} (PBN 2.1, 4.8): write the value itself",
                             "bad_inheritance", line=line)
        if text.startswith(HEADER):
            text = headers[name] = text[len(HEADER):]
        elif text == INHERIT:
            text = previous.get(name, "")
        elif name in headers:
            headers[name] = text
        values[name] = (text, line)
    return values


# A game's board -----------------------------------------------------------------------------

def board(tags: Tags, values: dict[str, tuple[str, int]], game: int) -> Board:
    """The board a game gives.

    :raises BoardError: naming the tag that cannot be read and how to write it.
    """
    if "Deal" not in values:
        raise BoardError(f"the game has no [Deal] tag{_case_hint(values)}: give the hands "
                         f"as {_DEAL_EXAMPLE}", "no_deal", line=tags.line)
    hands = read_deal(*values["Deal"])
    number = values.get("Board", ("", 0))[0].strip()
    auction = None
    if "Auction" in values:
        auction = read_auction(*values["Auction"], tags.data["Auction"], tags.notes)
    dealer = _dealer(values, auction, number, tags.line)
    vulnerability = None
    if "Vulnerable" in values:
        vulnerability = _vulnerability(*values["Vulnerable"])
    return Board(number, dealer, vulnerability, hands, auction, game, tags.line)


def _case_hint(values: dict) -> str:
    """' (it has [deal]: tag names are case-sensitive)' when a tag is named so."""
    wrong = next((name for name in values if name.lower() == "deal"), None)
    return "" if wrong is None else f" (it has [{wrong}]: tag names are case-sensitive)"


def read_deal(text: str, line: int) -> tuple[Hand | None, ...]:
    """The hands of a [Deal] value, by seat from North; None for a hand given as '-'.

    :raises BoardError: saying what is wrong with which hand.
    """
    first, colon, rest = text.strip().partition(":")
    seat = Seat.from_letter(first) if colon else None
    parts = rest.split()
    if seat is None or len(parts) != len(Seat):
        raise BoardError(f"[Deal {echo(text)}] is the first hand's seat ({_SEAT_HELP}), a "
                         f"colon and four hands clockwise from it, '-' for a hand not "
                         f"given: write e.g. {_DEAL_EXAMPLE}", "bad_deal", line=line)
    hands: list[Hand | None] = [None] * len(Seat)
    for step, part in enumerate(parts):
        place = seat.after(step)
        if part != "-":
            hands[place] = _hand(part, place, line)
    if not any(hands):
        raise BoardError(f"[Deal {echo(text)}] gives no hand: give at least one, e.g. "
                         f"{_DEAL_EXAMPLE}", "no_hand", line=line)
    _check_dealt_once(hands, line)
    return tuple(hands)


def _hand(text: str, seat: Seat, line: int) -> Hand:
    """One hand of a deal, in dot notation.

    :raises BoardError: naming the seat and what the parser found wrong.
    """
    where = f"the {seat.word} hand {echo(text)}"
    if text.count(".") != 3:
        raise BoardError(f"{where} is not four suits separated by dots, spades first: "
                         f"write e.g. AK72.QJ5.T98.432 (an empty suit for a void)",
                         "bad_hand", line=line)
    try:
        return parse_hand(text)
    except InvalidHandError as error:
        raise BoardError(f"{where}: {error.message}", error.code, line=line) from None


def _check_dealt_once(hands: list[Hand | None], line: int) -> None:
    """:raises BoardError: if a card is in two hands."""
    held = Counter(card for hand in hands if hand for card in hand)
    twice = sorted((card for card, times in held.items() if times > 1), reverse=True)
    if twice:
        seats = [seat.word for seat in Seat if hands[seat] and twice[0] in hands[seat]]
        raise BoardError(f"'{twice[0]}' is in more than one hand ({' and '.join(seats)}): "
                         f"each card is dealt once", "duplicate_card", line=line)


def read_auction(seat_text: str, line: int, data: list[Token],
                 notes: dict[str, str]) -> Auction:
    """The calls after an [Auction] tag, from the seat it names (moved on by each '-'
    before the first call); AP becomes the passes it stands for, and the calls stop at
    '*' or '+'.

    :raises BoardError: for a seat or a call that cannot be read.
    """
    seat = Seat.from_letter(seat_text)
    if seat is None:
        raise BoardError(f"[Auction {echo(seat_text)}] names who calls first: "
                         f"{_SEAT_HELP}", "bad_auction", line=line)
    calls: list[Call] = []
    for token in data:
        for piece in _pieces(token):
            if piece in ("*", "+"):
                return Auction(seat, tuple(calls))
            if piece.upper() == "AP":
                return Auction(seat, tuple(calls) + _all_pass(calls))
            if piece == "-" and not calls:
                seat = seat.after()
            elif piece.startswith("="):
                if calls:
                    calls[-1] = Call(calls[-1].text, notes.get(piece.strip("="), ""))
            elif piece[0] not in "$!?^":
                calls.append(_call(piece, token.line))
    return Auction(seat, tuple(calls))


def _pieces(token: Token) -> list[str]:
    """A word of auction data cut into calls and annotations ('1S=1=' is two).

    :raises BoardError: for anything else, such as a quoted string.
    """
    pieces = _AUCTION_PIECE.findall(token.text) if token.kind == "word" else []
    if "".join(pieces) != token.text or token.kind != "word":
        raise BoardError(f"{echo(token.text)} in the auction is not a call: write Pass, X, "
                         f"XX, AP or a bid such as 1S or 3NT", "bad_call", line=token.line)
    return pieces


def _call(piece: str, line: int) -> Call:
    """:raises BoardError: if *piece* is not a call."""
    call = read_call(piece)
    if call is None:
        raise BoardError(f"{echo(piece)} in the auction is not a call: write Pass, X, XX, "
                         f"AP or a bid such as 1S or 3NT", "bad_call", line=line)
    return call


def _all_pass(calls: list[Call]) -> tuple[Call, ...]:
    """The passes AP stands for: until three pass after the last bid, double or
    redouble, or until all four have passed when no one has bid."""
    if all(call.text == PASS for call in calls):
        return (Call(PASS),) * max(0, len(Seat) - len(calls))
    trailing = len(calls) - max(index for index, call in enumerate(calls)
                                if call.text != PASS) - 1
    return (Call(PASS),) * max(0, len(Seat) - 1 - trailing)


def _dealer(values: dict, auction: Auction | None, number: str, line: int) -> Seat:
    """The dealer: the [Dealer] tag, else who calls first, else the board's number.

    :raises BoardError: if none of them says, or the auction and [Dealer] disagree.
    """
    if "Dealer" not in values:
        dealer = auction.dealer if auction else board_dealer(number)
        if dealer is None:
            raise BoardError(f"the game has no [Dealer] tag: add one such as "
                             f"[Dealer \"N\"] ({_SEAT_HELP})", "no_dealer", line=line)
        return dealer
    text, where = values["Dealer"]
    dealer = Seat.from_letter(text)
    if dealer is None:
        raise BoardError(f"[Dealer {echo(text)}] is not a seat: write {_SEAT_HELP}",
                         "bad_dealer", line=where)
    if auction is not None and auction.dealer != dealer:
        raise BoardError(f"the auction starts with {auction.dealer.word} but [Dealer] is "
                         f"{dealer.word}: the dealer calls first, so correct one of them",
                         "dealer_mismatch", line=where)
    return dealer


def _vulnerability(text: str, line: int) -> Vulnerability:
    """:raises BoardError: if *text* is not a [Vulnerable] value."""
    vulnerability = VULNERABILITY_BY_WORD.get(text.strip().upper())
    if vulnerability is None:
        raise BoardError(f"[Vulnerable {echo(text)}] is not a vulnerability: write None, "
                         f"NS, EW or All", "bad_vulnerable", line=line)
    return vulnerability


def read(text: str) -> Reading:
    """Every game of a PBN text as a board; the games that cannot be read are reported
    with their number and line, and the rest are read."""
    boards, problems, previous, headers = [], [], {}, {}
    for number, game in enumerate(games(tokens(text)), 1):
        try:
            tags = read_tags(game)
            values = inherit(tags, previous, headers)
            previous = {name: value for name, (value, _) in values.items()}
            if "Deal" in values or not _only_headers(tags):
                boards.append(board(tags, values, number))
        except BoardError as error:
            problems.append(error.at(number, game[0].line))
    return Reading(PBN, tuple(boards), tuple(problems))


def _only_headers(tags: Tags) -> bool:
    """Whether a game holds only '##' values: a header for the games after, no board."""
    return bool(tags.values) and all(value.startswith(HEADER)
                                     for value, _ in tags.values.values())


# Writing ------------------------------------------------------------------------------------

def dealt_games(hands: Iterable[Hand], request: str, seed: int, key: bool,
                seat: Seat = Seat.NORTH) -> str:
    """One game per hand, the hand in *seat*, which deals, the other seats not given;
    with *key*, the auction: the hand's opening by the rules (its reason as a note),
    then all pass."""
    lines = ["% PBN 2.1", f"% bidder deal: {request}, seed {seed}"]
    for number, hand in enumerate(hands, 1):
        lines += ["", *game_lines(dealt_board(hand, seat, number),
                                  f"Opening bids: {request}", key)]
    return "\n".join(lines)


def game_lines(board: Board, event: str, key: bool) -> list[str]:
    """A board as a game: the mandatory tags in the standard's order (empty where they
    do not apply to a dealt hand: no one played it), and with *key* the auction."""
    dealer = board.dealer
    deal = " ".join(_dotted(board.hand(dealer.after(step))) for step in range(len(Seat)))
    vulnerability = (board.vulnerability or Vulnerability.NONE).value
    lines = [tag("Event", event), tag("Site", ""), tag("Date", ""),
             tag("Board", board.number), tag("West", ""), tag("North", ""),
             tag("East", ""), tag("South", ""), tag("Dealer", dealer.letter),
             tag("Vulnerable", vulnerability), tag("Deal", f"{dealer.letter}:{deal}"),
             tag("Scoring", ""), tag("Declarer", ""), tag("Contract", ""),
             tag("Result", "")]
    if key:
        advice = explain(board.hand(dealer))
        lines += [tag("Auction", dealer.letter), f"{opening_call(advice)} =1= AP",
                  note_tag(1, opening_note(advice))]
    return lines


def _dotted(hand: Hand | None) -> str:
    return "-" if hand is None else hand.dotted


def opening_call(advice: Advice) -> str:
    """The hand's own call: its opening bid, or Pass."""
    return "Pass" if advice.bid is None else advice.bid


def opening_note(advice: Advice) -> str:
    """Why the hand makes its call, in a line's room: the explanation, without the
    rules that came closest when the line would be too long with them."""
    if len(note_tag(1, advice.explanation)) <= LINE_LIMIT:
        return advice.explanation
    return advice.explanation_alone


def tag(name: str, value: str) -> str:
    """A tag pair, its value escaped: [Name "value"]."""
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]'


def note_tag(number: int, text: str) -> str:
    """A [Note] tag: [Note "1:text"]."""
    return tag("Note", f"{number}:{text}")

