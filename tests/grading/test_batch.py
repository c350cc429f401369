"""The NumPy batch reader: a chunk of hands read at once, exactly as the parser and the
packed engine read each."""

from hypothesis import given, strategies as st

from bidder import packed, parse_hand
from bidder.cards import DECK, EXAMPLE_HAND
from bidder.grading.batch import read_batch


def hands():
    """Any 13 different cards."""
    return st.permutations(DECK).map(lambda deck: deck[:13])


def test_read_batch_reads_the_assignments_notation_and_leaves_the_rest():
    weak = "AS KS QS 4S 3S QH JH 6H 5H 2H AD KD KC"
    hands = [EXAMPLE_HAND, "as ks", EXAMPLE_HAND.replace("7H", "5C"), weak,
             EXAMPLE_HAND.replace("AS", "1S"), EXAMPLE_HAND.replace("10C", "TC"), "",
             EXAMPLE_HAND.replace("10C", "110C"), EXAMPLE_HAND.replace(" ", "  ", 1),
             EXAMPLE_HAND + " "]
    texts, keys, profiles = read_batch([hand.encode() for hand in hands])
    for hand, text, key, value in zip(hands, texts, keys, profiles):
        if text is not None:
            code = packed.encode_cards(parse_hand(hand))
            assert (text, value) == (packed.text(code), packed.profile(code))
            assert packed.decide_key(key) == (None if hand == weak else packed.decide(code))
    assert [text is None for text in texts] == [False, True, True, False, True, False, True,
                                                True, True, True]


TOKENS = [str(card) for card in DECK] + ["TS", "TH", "1S", "10", "T", "s", "AS ", " ", ",",
                                          "\t", "\n", "as", "1", "0", "10S10H"]


@given(st.lists(st.lists(st.sampled_from(TOKENS), min_size=11, max_size=15).map(" ".join),
                max_size=12))
def test_read_batch_reads_a_hand_as_the_parser_does_or_leaves_it_to_the_parser(texts):
    found, keys, profiles = read_batch([text.encode() for text in texts])
    for text, hand_text, key, value in zip(texts, found, keys, profiles):
        if hand_text is not None:
            code = packed.encode_cards(parse_hand(text))
            assert (hand_text, key, value) == (packed.text(code), packed.key(code),
                                               packed.profile(code))


@given(st.lists(hands(), min_size=1, max_size=20))
def test_read_batch_reads_every_hand_as_encode_does(many):
    texts = [" ".join(map(str, cards)) for cards in many]
    found, _, profiles = read_batch([text.encode() for text in texts])
    assert found == [packed.text(packed.encode(text)) for text in texts]
    assert profiles == [packed.profile(packed.encode(text)) for text in texts]


def test_read_batch_of_nothing():
    assert read_batch([]) == ([], [], [])
    assert read_batch([b"AS"]) == ([None], [0], [0])
