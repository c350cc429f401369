"""The `bidder` console script: `bidder bid HAND` answers at once, with no more than the
core imported; every other command, option or bad hand goes to the full command line."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> None:
    """Run the command line; SIGTERM ends a run cleanly, with exit status 143."""
    args = sys.argv[1:] if argv is None else list(argv)
    if not (len(args) > 1 and args[0] == "bid" and _answered(args[1:])):
        from .commands import main as full

        full(args)


def _answered(hand: list[str]) -> bool:
    """Show the advice for *hand* as `bidder bid` does, if it is plainly a hand (no
    option, cards the parser reads); False leaves it to the full command line."""
    if any(word.startswith("-") for word in hand):
        return False
    from ..advice import explain
    from ..cards import InvalidHandError
    from .terminal import advice_lines, can_show_symbols, painter, plain
    from .termination import terminable

    try:
        advice = explain(" ".join(hand))
    except InvalidHandError:
        return False  # the full command line says what is wrong, as for any usage error
    paint = painter() if sys.stdout.isatty() else plain
    with terminable():
        sys.stdout.write("\n".join(advice_lines(advice, paint, can_show_symbols())) + "\n")
        sys.stdout.flush()
    return True
