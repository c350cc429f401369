"""bidder.terminal.wrapped: the lines textwrap would give, without importing it."""

import textwrap

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bidder.cli.terminal import WRAP, wrapped

# Words of every length up to past a line, hyphens, symbols, and blanks of every kind.
WORDS = st.one_of(st.text("ab-", min_size=0, max_size=12), st.just("x" * (WRAP - 2)),
                  st.just("y" * (WRAP + 5)), st.just("♠A"), st.just("five-card"))
TEXTS = st.lists(WORDS, max_size=30).flatmap(
    lambda words: st.lists(st.sampled_from([" ", " ", " ", "  ", "\n", "\t"]),
                           min_size=len(words), max_size=len(words)).map(
        lambda gaps: "".join(word + gap for word, gap in zip(words, gaps)).rstrip(" ")))
INDENTS = st.sampled_from(["", "  ", " " * 6, " " * 11])


@given(TEXTS, INDENTS, st.one_of(st.none(), st.sampled_from(["", "     why: "])))
def test_wrapped_gives_the_lines_textwrap_gives(text, indent, lead):
    expected = textwrap.fill(text, WRAP, initial_indent=indent if lead is None else lead,
                             subsequent_indent=indent, break_on_hyphens=False)
    assert wrapped(text, indent, lead) == expected


@pytest.mark.parametrize("text, lines", [
    ("a " * 50, ["  " + "a " * 42 + "a", "  " + "a " * 6 + "a"]),
    ("five-card " * 10, ["  " + "five-card " * 7 + "five-card", "  five-card five-card"]),
    ("one", ["  one"]),
])
def test_wrapped_breaks_at_spaces_only(text, lines):
    assert wrapped(text.strip(), "  ").split("\n") == lines
