"""The page's live count (static/app.js, run under Node) reads every case of the
parser's test table as the server does: a hand exactly when the server takes one, the
same cards whenever the server can read them, and a whole deal named as one."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from bidder.cards import InvalidHandError, parse_hand, read_cards
from bidder.web.render import HAND_NOTATION
from needs import missing
from tests.test_cards import ACCEPTED, REFUSED

SCRIPT = Path(__file__).parents[2] / "static" / "app.js"
RUNNER = """
const {Reader, countOf} = require(process.argv[1]);
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
const reader = new Reader(input.notation);
const out = input.texts.map((text) => {
  const read = reader.read(text);
  const shown = countOf(input.notation, read);
  return {complete: shown.complete, deal: Boolean(shown.deal),
          cards: Object.keys(shown.held).sort()};
});
process.stdout.write(JSON.stringify(out));
"""
CASES = [param.values[0] for param in ACCEPTED] + [text for text, _, _ in REFUSED
                                                   if len(text) < 5000]

@pytest.fixture(scope="module")
def counted():
    """The script's verdict on every case, in one run of Node."""
    if shutil.which("node") is None:
        missing("Node is not installed (apt-get install nodejs)", "the live count's tests")
    sent = json.dumps({"notation": json.loads(HAND_NOTATION), "texts": CASES})
    done = subprocess.run(["node", "-e", RUNNER, str(SCRIPT)], input=sent, text=True,
                          capture_output=True, check=True, timeout=60)
    return dict(zip(CASES, json.loads(done.stdout)))


def server_verdict(text):
    """(a hand?, the different cards read or None, a whole deal?) as the server sees it."""
    try:
        return True, sorted({str(card) for card in parse_hand(text)}), False
    except InvalidHandError as error:
        try:
            cards = sorted({str(card) for card in read_cards(text)})
        except InvalidHandError:
            cards = None
        return False, cards, error.code == "whole_deal"


@pytest.mark.parametrize("index", range(len(CASES)))
def test_the_live_count_agrees_with_the_server(counted, index):
    text = CASES[index]
    script = counted[text]
    hand, cards, deal = server_verdict(text)
    assert script["complete"] is hand, text
    assert script["deal"] is deal, text
    if cards is not None:
        assert script["cards"] == cards, text
