"""The bench's plain reference (bench/reference_bid.py), the yardstick of every speed
goal in bench/, answers as bidder's graded functions do, and as the shared reference
(../shared/bench/reference_bid.py) does where that file exists; and no bench reads
anything outside the repository, so `make bench` runs in a fresh clone."""

from __future__ import annotations

import ast
import importlib.util
import inspect
import random
import re
from functools import lru_cache
from itertools import islice
from pathlib import Path

import pytest

from bidder import distributionPoints, highCardPoints, openingBid
from bidder.cards import DECK
from bidder.dealing import RULES, deal, dealt_text, hand_stream, is_reachable, threshold_hands

REPO = Path(__file__).resolve().parents[1]
BENCH = REPO / "bench"
SHARED = REPO.parent / "shared" / "bench" / "reference_bid.py"
SEED = 2026
RANDOM_HANDS = 3000
SKEWED_HANDS = 3000
DEALS_PER_RULE = 40

# The spec's worked examples: hand, HCP, distribution points, bid.
WORKED_EXAMPLES = [
    ("5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C", 12, 1, "1C"),
    ("AS 4S KH QH 3H AD QD 7D 6D KC JC 8C 5C", 19, 0, "1C"),
    ("AS KS 4S AH QH 5H KD QD 6D KC 9C 8C 7C", 21, 0, "1C"),
    ("AS KS 4S AH QH KD 7D 6D KC QC 9C 8C 7C", 21, 1, "2NT"),
    ("AC KC 7C 6C 5C KS QS 4S AD 8D 7D 3H 2H", 16, 1, "1NT"),
    ("AH KH 7H 6H 5H KS QS 4S AD 8D 7D 3C 2C", 16, 1, "1H"),
    ("AS KS 7S 6S 5S KH QH 7H 6H 5H 2D 3D 2C", 12, 2, "1S"),
    ("AS KS 5S 4S 3S AH KH 6H 5H 2H AD QD KC", 23, 2, "2H"),
    ("AS KS QS 2S AH KH 3H 2H AD QD 4D 3D 5C", 22, 0, None),
    ("QS JS 7S 6S 5S KH 9H 8H 4H 3H 2D 3C 2C", 6, 2, None),
    ("KS QS JS 9S 8S 7S 6S 5S QH 2H 3D 2D 4C", 8, 4, "4S"),
    ("KS QS JS 8S 7S 6S 5S 4S 3S 2H 2D 2C 3C", 6, 5, None),
]
BAD_HANDS = [
    "5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD",  # 12 cards
    "5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C 3S",  # 14 cards
    "5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 1C",  # no such rank
    "5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10X",  # no such suit
    "5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 5C",  # a card twice
    "",
]


def load(path: Path, name: str):
    """A module loaded from its file."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@lru_cache(maxsize=1)
def reference():
    return load(BENCH / "reference_bid.py", "bench_reference_bid")


def skewed_hands(count: int, seed: int) -> list[str]:
    """Hands of every shape alike (long suits and two-suiters are common) and often
    rich in honours, so that the rare rules (R5 to R8, R6's tie-breaks) come up."""
    rng = random.Random(seed)
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    hands = []
    while len(hands) < count:
        cuts = sorted(rng.sample(range(1, 17), 3))  # 13 cards into 4 suits, stars and bars
        lengths = [cuts[0] - 1, cuts[1] - cuts[0] - 1, cuts[2] - cuts[1] - 1, 16 - cuts[2]]
        rich = rng.random() < 0.5
        cards = []
        for suit, length in zip("CDHS", lengths):
            weights = [1 + 6 * (rich and rank in "JQKA") for rank in ranks]
            chosen = set()
            while len(chosen) < length:
                chosen.add(rng.choices(ranks, weights)[0])
            cards += [rank + suit for rank in chosen]
        rng.shuffle(cards)
        hands.append(" ".join(cards))
    return hands


@lru_cache(maxsize=1)
def hands() -> tuple[str, ...]:
    """Worked examples, threshold hands, hands dealt for every reachable rule, bidder's
    dealt random hands and skewed ones: each once, in the assignment's notation."""
    found = [hand for hand, *_ in WORKED_EXAMPLES]
    found += [hand for _, hand in threshold_hands(SEED)]
    found += [str(deal(seed, rule=rule)) for rule in RULES if is_reachable(rule)
              for seed in range(SEED, SEED + DEALS_PER_RULE)]
    found += [dealt_text(indexes) for indexes in islice(hand_stream(SEED), RANDOM_HANDS)]
    found += skewed_hands(SKEWED_HANDS, SEED)
    return tuple(dict.fromkeys(found))


def answers(module, hand: str) -> tuple:
    return module.highCardPoints(hand), module.distributionPoints(hand), module.openingBid(hand)


@pytest.mark.slow
def test_the_hands_reach_every_bid_the_rules_make():
    assert {openingBid(hand) for hand in hands()} == {
        "1C", "1D", "1H", "1S", "1NT", "2C", "2D", "2H", "2S", "2NT", "3C", "3D", "3H",
        "3S", "4C", "4D", "4H", "4S", None}


@pytest.mark.parametrize("hand, hcp, distribution, bid", WORKED_EXAMPLES)
def test_the_reference_gives_the_worked_examples(hand, hcp, distribution, bid):
    assert answers(reference(), hand) == (hcp, distribution, bid)


@pytest.mark.slow
def test_the_reference_answers_as_bidder_does():
    ours = (highCardPoints, distributionPoints, openingBid)
    differ = [hand for hand in hands()
              if answers(reference(), hand) != tuple(function(hand) for function in ours)]
    assert not differ, differ[:5]


def test_the_reference_parts_answer_as_its_whole():
    """The pieces the benches call (parse, count by suit, chooseBid) give openingBid's
    answer; chooseBid takes the HCP by suit as a dict or as a function giving one."""
    plain = reference()
    for hand in hands()[:500]:
        lengths, suit_hcp = plain._by_suit(plain.parseHand(hand))
        hcp = sum(suit_hcp.values())
        assert hcp == plain.highCardPoints(hand)
        assert plain._distribution_points(lengths) == plain.distributionPoints(hand)
        assert plain.suitLengths(hand) == lengths
        assert plain.evaluate(hand) == (hcp, tuple(lengths[suit] for suit in "SHDC"))
        assert plain.chooseBid(hcp, lengths, suit_hcp) == plain.chooseBid(
            hcp, lengths, lambda: suit_hcp) == plain.openingBid(hand)


@pytest.mark.parametrize("hand", BAD_HANDS)
def test_the_reference_refuses_what_is_not_a_hand(hand):
    plain = reference()
    for function in (plain.parseHand, plain.highCardPoints, plain.distributionPoints,
                     plain.openingBid):
        with pytest.raises(ValueError):
            function(hand)


def test_the_reference_deck_is_the_52_cards():
    assert sorted(reference().DECK) == sorted(str(card) for card in DECK)


def test_every_name_a_bench_uses_is_in_the_reference():
    used = set()
    for script in BENCH.glob("bench_*.py"):
        used |= set(re.findall(r"\breference\.(\w+)", script.read_text()))
        for names in re.findall(r"^from reference_bid import (.+)$", script.read_text(), re.M):
            used |= {name.split(" as ")[0].strip() for name in names.split(",")}
    assert {"openingBid", "chooseBid", "parseHand"} <= used
    assert not [name for name in used if not hasattr(reference(), name)]


def test_no_bench_reads_outside_the_repository():
    """A fresh clone has no ../shared: every bench uses bench/reference_bid.py, which
    imports nothing (it may name the shared one in words)."""
    for script in BENCH.glob("*.py"):
        text = script.read_text()
        if script.name == "reference_bid.py":
            imported = [node.module if isinstance(node, ast.ImportFrom) else node.names[0].name
                        for node in ast.walk(ast.parse(text))
                        if isinstance(node, (ast.Import, ast.ImportFrom))]
            assert imported == ["__future__"]
        else:
            assert not re.search(r"""["']shared["']|parents\[2\]|\.\./shared""", text), (
                script.name)


@pytest.fixture(scope="module")
def shared():
    if not SHARED.is_file():
        pytest.skip(f"no shared reference at {SHARED} (a clone of the repository alone)")
    return load(SHARED, "shared_reference_bid")


@pytest.mark.slow
def test_the_reference_answers_as_the_shared_reference_does(shared):
    plain = reference()
    differ = [hand for hand in hands() if answers(plain, hand) != answers(shared, hand)
              or plain.evaluate(hand) != shared.evaluate(hand)
              or plain.suitLengths(hand) != shared.suitLengths(hand)]
    assert not differ, differ[:5]
    for hand in BAD_HANDS:
        with pytest.raises(ValueError):
            shared.openingBid(hand)


def test_the_reference_has_the_shared_references_functions(shared):
    """Same names and parameters, so a bench runs against either."""
    plain = reference()
    for name, function in vars(shared).items():
        if inspect.isfunction(function) and not name.startswith("_"):
            assert list(inspect.signature(getattr(plain, name)).parameters) == list(
                inspect.signature(function).parameters), name
    for name in ("_by_suit", "_distribution_points", "RANKS", "SUITS", "HCP_VALUES"):
        assert hasattr(plain, name), name
