"""Helpers shared by the tests: hands they use again and again, the board files, and
watching processes."""

import fcntl
import os
import shutil
import signal
import tempfile
import threading
import time
import uuid
from contextlib import contextmanager
from pathlib import Path

STRONG_NO_BID = "AS KS QS 2S AH KH 3H 2H AD QD 4D 3D 5C"  # 22 HCP, 4-4-4-1: no rule fits
TEST_SECRET_KEY = "test-secret-key-not-for-production"  # the web tests' apps
NESTED_JSON = "[" * 7000 + "]" * 7000  # deeper than any JSON parser should follow
BOARDS = Path(__file__).resolve().parent / "boards"
CLUB_PBN = BOARDS / "club-night.pbn"  # CRLF; '#', '##', voids, 10, a bad game 3, ...
CLUB_LIN = BOARDS / "club-match.lin"  # four boards, a bad board 3
DEALER_PROGRAM = "dealer"  # Debian's package puts it in /usr/games
STUB = Path(__file__).resolve().parent / "checker" / "students" / "stub.py"


def dealer_program() -> str | None:
    """The path of Hans van Staveren's Dealer program, if it is installed."""
    return shutil.which(DEALER_PROGRAM) or shutil.which(DEALER_PROGRAM, path="/usr/games")


def unique_key() -> str:
    """A key of the state store that no other test uses."""
    return f"test:{uuid.uuid4().hex}"


def cheating_stub(docstring: str, code: str) -> str:
    """A student module that answers as the stub handed out does (tests/checker/students/
    stub.py) and runs *code* when it is imported, once the stub's functions are defined,
    so *code* may put others in their place."""
    functions = STUB.read_text(encoding="utf-8").split('"""', 2)[2]
    return f'"""{docstring}"""{functions}\n\n{code}'


def only_board(reading):
    """The one board a Reading holds, failing on any problem."""
    assert reading.problems == ()
    (board,) = reading.boards
    return board


def only_problem(reading):
    """The one problem a Reading reports."""
    (problem,) = reading.problems
    return problem


def pbn_game(*tags: str, auction: str = "") -> str:
    """A PBN game from tag lines such as 'Dealer "N"', and auction lines after them."""
    return "\n".join([f"[{tag}]" for tag in tags] + ([auction] if auction else [])) + "\n"


def children() -> list[int]:
    """The process ids of this process's children, from /proc."""
    pids = []
    for task in os.listdir("/proc/self/task"):
        with open(f"/proc/self/task/{task}/children") as listing:
            pids += map(int, listing.read().split())
    return pids


def kill_workers_when_they_start() -> threading.Thread:
    """A thread that kills this process's new worker processes once there are some.

    Children that were already running (a server kept by another test) are left alone.
    """
    already_running = set(children())

    def kill():
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            workers = set(children()) - already_running
            if workers:
                for pid in workers:
                    os.kill(pid, signal.SIGKILL)
                return
            time.sleep(0.01)
    thread = threading.Thread(target=kill)
    thread.start()
    return thread


def bid_text(value: str | None) -> str:
    """A bid from the core ('1S', None) as the text of the page's bid mark reads: its
    symbol and what a screen reader hears after it ('1♠ spade'), or '2NT', 'No bid'."""
    from bidder import Bid

    bid = Bid.from_value(value)
    return bid.display if bid.suit is None else f"{bid.display} {bid.suit_word}"


HONOUR_HCP = {"A": 4, "K": 3, "Q": 2, "J": 1}
SPOT_LABELS = ("10", "9", "8", "7", "6", "5", "4", "3", "2")


def suit_holding(length: int, hcp: int) -> tuple[str, ...] | None:
    """Rank labels of *length* cards of one suit holding *hcp* high card points (the
    fewest honours that do), or None if no such holding exists."""
    from itertools import combinations

    for count in range(len(HONOUR_HCP) + 1):
        for honours in combinations(HONOUR_HCP, count):
            spots = length - count
            if sum(map(HONOUR_HCP.get, honours)) == hcp and 0 <= spots <= len(SPOT_LABELS):
                return honours + SPOT_LABELS[:spots]
    return None


def hand_with(lengths: tuple[int, int, int, int], hcp: int):
    """A real hand with these suit lengths (clubs first) and high card points, found
    card by card without the package's own tables; None if no hand has them."""
    from bidder import parse_hand

    def split(suits: tuple[int, ...], left: int) -> list[tuple[str, ...]] | None:
        if not suits:
            return [] if left == 0 else None
        for points in range(min(left, 10) + 1):
            holding = suit_holding(suits[0], points)
            rest = split(suits[1:], left - points) if holding is not None else None
            if rest is not None:
                return [holding, *rest]
        return None

    holdings = split(tuple(lengths), hcp)
    if holdings is None:
        return None
    return parse_hand(" ".join(label + suit for suit, holding in zip("CDHS", holdings)
                               for label in holding))


def signal_main_thread(signum: int) -> None:
    """Send *signum* to this process's main thread, as Ctrl-C reaches a command with one
    thread. A signal sent to the whole process may be taken by any of its threads; taken
    by another one, it would not wake a main thread blocked in a read or a wait."""
    signal.pthread_kill(threading.main_thread().ident, signum)


@contextmanager
def uid_taken(uid: int):
    """Run the block while no other test of this machine runs processes as *uid*: the
    suite's parallel workers (and another run of the suite) take turns. A check's reaper
    kills every process of its student's uid, so two tests that run processes as one
    fixed uid (nobody's) at once would end each other's. The lock is the tests' own, not
    the checker's lease of the uid, which the code under test takes itself."""
    with open(Path(tempfile.gettempdir()) / f"bidder-tests-uid-{uid}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield
