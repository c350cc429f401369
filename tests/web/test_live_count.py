"""The live count under the advisor's hand field is the server's own verdict, word for word:
the page asks /api/count, whose answer for every case of the parser's table is what the page
says once the text is sent. The deck's script (static/app.js, run under Node) reads the same
cards as the server whenever the server can read them, and knows a whole deal as one."""

import html
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from bidder.cards import InvalidHandError, read_cards
from bidder.web.render import HAND_NOTATION
from needs import missing
from tests.test_cards import ACCEPTED, REFUSED

SCRIPT = Path(__file__).parents[2] / "static" / "app.js"
RUNNER = """
const {Reader, heldOf} = require(process.argv[1]);
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
const reader = new Reader(input.notation);
const out = input.texts.map((text) => {
  const read = reader.read(text);
  return {deal: Boolean(read.deal), cards: Object.keys(heldOf(read)).sort()};
});
process.stdout.write(JSON.stringify(out));
"""
CASES = [param.values[0] for param in ACCEPTED] + [text for text, _, _ in REFUSED
                                                   if len(text) < 5000]
# What a browser can send: a lone surrogate is no text it sends as it is.
SENDABLE = [text for text in CASES if text.encode("utf-8", "replace").decode() == text]
WHOLE_PASTE = ("Opening bid advisor\n" + "Your hand 5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C\n"
               * 40)[:1695]  # cleaned (runs of blanks made one space), 1,695 still
TYPED = [("5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 2X",
          "card 13 '2X' is not a card: 'X' is not a suit; suits are C, D, H, S (or ♣ ♦ ♥ ♠)"),
         (WHOLE_PASTE,
          "the input is 1,695 characters long; a hand is at most 200: paste just the 13 cards"),
         ("AKQ2 K32 432 432", "13 of 13 cards"),
         ("AKQ2,K32,432,432", "13 of 13 cards"),
         ("-.AKQJ1098765432..", "13 of 13 cards"),
         ("N:AKQ2.J54.T9.8765 JT98.AK32.AK.432 7654.Q876.QJ8.KQ 3.T9.765432.AJT9",
          "a whole deal of 4 hands (N, E, S, W): send it to see every seat's opening"),
         ("N:AKQ2.J54.T9.8765 AKQ2.J54.T9.8765 - -",
          "'AS' is in more than one hand (North and East): each card is dealt once")]


def verdict(client, text: str) -> dict:
    response = client.post("/api/count", json={"hand": text})
    assert response.status_code == 200
    return response.get_json()


def page_says(client, text: str) -> tuple[bool, str | None]:
    """(shown?, the page's message when it refuses the text) once the text is sent."""
    response = client.post("/", data={"hand": text})
    if response.status_code == 200:
        return True, None
    assert response.status_code == 400
    found = re.search(r'id="hand-error"><strong>Not a hand yet:</strong> (.*?)</p>',
                      response.get_data(as_text=True), re.S)
    return False, html.unescape(found.group(1))


@pytest.mark.parametrize("index", range(len(SENDABLE)))
def test_the_live_count_says_what_the_page_says_once_the_text_is_sent(client, index):
    text = SENDABLE[index]
    said = verdict(client, text)
    shown, message = page_says(client, text)
    assert said["complete"] is shown, text
    if not shown:
        assert said["text"] == message, text


@pytest.mark.parametrize("text, said", TYPED, ids=[
    "a-typo", "a-paste-too-long", "suit-groups", "suit-groups-with-commas",
    "a-dash-for-a-void", "a-whole-deal", "a-deal-dealing-a-card-twice"])
def test_the_live_count_gives_the_servers_words(client, text, said):
    assert verdict(client, text)["text"] == said


@pytest.fixture(scope="module")
def read_by_script():
    """The script's reading of every case, in one run of Node."""
    if shutil.which("node") is None:
        missing("Node is not installed (apt-get install nodejs)", "the live count's tests")
    sent = json.dumps({"notation": json.loads(HAND_NOTATION), "texts": CASES})
    done = subprocess.run(["node", "-e", RUNNER, str(SCRIPT)], input=sent, text=True,
                          capture_output=True, check=True, timeout=60)
    return dict(zip(CASES, json.loads(done.stdout)))


def server_reading(text):
    """(the different cards read or None, a whole deal?) as the server reads the text."""
    try:
        return sorted({str(card) for card in read_cards(text)}), False
    except InvalidHandError as error:
        return None, error.code == "whole_deal"


@pytest.mark.parametrize("index", range(len(CASES)))
def test_the_deck_presses_the_cards_the_server_reads(read_by_script, index):
    text = CASES[index]
    script = read_by_script[text]
    cards, deal = server_reading(text)
    assert script["deal"] is deal, text
    if cards is not None:
        assert script["cards"] == cards, text
