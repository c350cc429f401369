"""Layout checked by geometry, not by eye: on the pages the issue names, at 390 and 1280
pixels, on screen, in print, dark and projector (large type) modes, nothing scrolls
sideways, no text spills out of its box, and the cards of a diagram do not overlap."""

import pytest

pytestmark = pytest.mark.e2e

PAGES = [
    ("/", "advisor"),
    ("/?hand=5C+7H+AS+JD+9D+2C+KH+10H+4C+8H+8C+AD+10C", "advice"),
    ("/deal?count=12&print=1&seed=5", "printed set"),
    ("/variants?variant=balanced-first", "variants"),
    ("/practice", "practice"),
    ("/deal?bid=2NT&seed=7&hide=1", "hidden hand"),
]
MODES = ["screen", "print", "dark", "projector"]

# Elements whose content spills past their own box (text wider than a button, a label
# wrapped under its count), and overlapping cards within one suit's row.
PROBE = """() => {
  const problems = [];
  const width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > width + 1) {
    problems.push("scrolls sideways: " + document.documentElement.scrollWidth + " > " + width);
  }
  for (const node of document.querySelectorAll("button, .button, dt, .suit-label, th, td")) {
    const style = getComputedStyle(node);
    if (style.display === "none" || style.visibility === "hidden" || !node.offsetParent) {
      continue;
    }
    if (node.scrollWidth > node.clientWidth + 1 && style.overflowX === "visible") {
      problems.push("spills: " + node.tagName + " " + node.textContent.trim().slice(0, 40));
    }
  }
  for (const label of document.querySelectorAll("dt")) {
    const count = label.querySelector(".suit-count");
    const word = label.querySelector(".suit-word");
    if (count && word && word.getBoundingClientRect().height > 2 &&  /* not hidden */
        count.getBoundingClientRect().top >= word.getBoundingClientRect().bottom - 1) {
      problems.push("count wrapped under its label: " + label.textContent.trim());
    }
  }
  for (const row of document.querySelectorAll("ul.cards")) {
    const boxes = [...row.querySelectorAll(".card")].map((card) => card.getBoundingClientRect());
    boxes.forEach((box, index) => boxes.slice(index + 1).forEach((other) => {
      if (box.left < other.right - 1 && other.left < box.right - 1 &&
          box.top < other.bottom - 1 && other.top < box.bottom - 1) {
        problems.push("cards overlap in " + row.closest("section, div").className);
      }
    }));
  }
  return problems;
}"""


# Print is laid out on paper, about 800 pixels wide: it is checked at the desktop width only.
VIEWS = [(width, mode) for width in (390, 1280) for mode in MODES
         if not (mode == "print" and width < 1280)]


@pytest.mark.parametrize("width, mode", VIEWS, ids=[f"{width}-{mode}" for width, mode in VIEWS])
@pytest.mark.parametrize("path, name", PAGES, ids=[name for _, name in PAGES])
def test_nothing_spills_overlaps_or_scrolls_sideways(new_page, server, path, name, width,
                                                      mode):
    page = new_page(width=width)
    if mode == "print":
        page.emulate_media(media="print")
    if mode == "dark":
        page.emulate_media(color_scheme="dark")
    page.goto(server + path)
    if mode == "projector":
        page.check("#large-type")
    assert page.evaluate(PROBE) == [], page.evaluate(PROBE)


HAND = "5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C"


def test_a_hand_selected_on_the_page_copies_as_its_cards_and_pastes_back(new_page, server):
    page = new_page()
    page.goto(server + "/?hand=" + HAND.replace(" ", "+"))
    copied = page.evaluate("""() => {
      const range = document.createRange();
      range.selectNodeContents(document.querySelector("dl.hand"));
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      return selection.toString();
    }""")
    assert "ace of spades" not in copied and "A♠" in copied
    page.fill("#hand", copied)
    assert page.text_content("#card-count") == "13 of 13 cards"
    page.press("#hand", "Enter")
    page.wait_for_load_state()
    assert page.locator("#result").count() == 1


def test_the_live_count_names_a_whole_deal(new_page, server):
    page = new_page()
    page.goto(server + "/")
    page.fill("#hand", "N:AKQ2.J54.T9.8765 JT98.AK32.AK.432 7654.Q876.QJ8.KQ "
                       "3.T9.765432.AJT9")
    assert page.text_content("#card-count").startswith("a whole deal of 4 hands (N, E, S, W)")
    page.press("#hand", "Enter")
    page.wait_for_load_state()
    assert page.locator(".seat-bid").count() == 4
