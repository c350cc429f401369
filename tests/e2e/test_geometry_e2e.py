"""Layout checked by geometry, not by eye: on every page the app serves, at 390 and 1280
pixels, on screen, in print, dark and projector (large type) modes, nothing scrolls
sideways, no two sibling boxes of visible content overlap, no box clips its content
(overflow hidden, text cut off), no content spills out of its box, no table breaks a word
over two lines (every table of every page: they wrap between words only) and no text field
cuts its example."""

import re

import pytest

from bidder import explain
from bidder.variants import CATALOGUE
from bidder.web import create_app

from buttons import press

pytestmark = pytest.mark.e2e

HAND = "5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C"
DEAL = "N:AKQ2.J54.T9.8765 JT98.AK32.AK.432 7654.Q876.QJ8.KQ 3.T9.765432.AJT9"

# Every page a GET reaches, with the inputs that fill it: each rule's page, each
# catalogued misreading and a composed one, a deal on the advisor and on /boards, the
# dealing pages hidden, shown and printed, and the pages' answers to bad input.
PAGES = [
    ("/", "advisor"),
    ("/?hand=" + HAND.replace(" ", "+"), "advice"),
    ("/?hand=" + DEAL.replace(" ", "+"), "advice for a deal"),
    ("/?hand=AS+KS", "advisor error"),
    ("/rules", "rules"),
    ("/deal", "deal"),
    ("/deal?bid=2NT&seed=7", "dealt 2NT"),
    ("/deal?bid=2NT&seed=7&hide=1", "hidden hand"),
    ("/deal?rule=R6&seed=3", "dealt by rule"),
    ("/deal?count=12&print=1&seed=5", "printed set"),
    ("/deal?bid=9Z", "deal error"),
    ("/variants", "variants"),
    *[(f"/variants?variant={variant.id}", f"variant {variant.id}") for variant in CATALOGUE],
    ("/variants?variant=r8-6-8+shortness-points", "composed variant"),
    ("/variants?variant=nonsense", "variant error"),
    ("/boards", "boards"),
    ("/practice", "practice"),
    ("/practice?set=42&rule=R3,R7", "practice set"),
    ("/practice?set=31&bid=1NT,2NT", "practice set by bid"),
    ("/practice?set=31&bid=7NT", "practice set error"),
    ("/stats", "stats"),
    ("/live", "live start"),
    ("/live/join?code=ZZZZZ", "live unknown code"),
    ("/practice/diagnosis", "diagnostic round"),
    ("/lti/scores", "LTI scores without a launch"),
    ("/lti/login?iss=https://lms.example&login_hint=u&target_link_uri=x",
     "LTI login from an unknown LMS"),
    ("/nowhere", "not found"),
]
MODES = ["screen", "print", "dark", "projector"]

# Every problem the layout can have, as lines naming the box: the page scrolling
# sideways; a box whose content spills out (overflow visible) or is cut (overflow
# hidden or clipped, text cut with an ellipsis), or that scrolls sideways inside; two
# sibling boxes of visible content overlapping; a suit's count wrapped under its label.
PROBE = """() => {
  const problems = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth + 1) {
    problems.push("page scrolls sideways: " + doc.scrollWidth + " > " + doc.clientWidth);
  }
  const name = (node) => node.tagName.toLowerCase() + (node.id ? "#" + node.id : "") +
    (typeof node.className === "string" && node.className.trim()
      ? "." + node.className.trim().split(/\\s+/).join(".") : "") +
    " '" + node.textContent.trim().replace(/\\s+/g, " ").slice(0, 40) + "'";
  const hidden = (node) => node.closest(".visually-hidden, [hidden], [aria-hidden=true]");
  const shown = (node) => {
    const style = getComputedStyle(node);
    return style.display !== "none" && style.visibility !== "hidden" &&
      node.getClientRects().length > 0 && !hidden(node);
  };
  const boxes = [...document.body.querySelectorAll("*")].filter(
    (node) => !(node instanceof SVGElement) && !["SCRIPT", "STYLE", "OPTION", "BR"]
      .includes(node.tagName) && shown(node));
  const boxSet = new Set(boxes);
  const spilling = [];
  for (const node of boxes) {
    const style = getComputedStyle(node);
    if (style.display === "inline" || style.display === "contents" ||
        node.clientWidth <= 1 || node.clientHeight <= 1) {  /* read by screen readers only */
      continue;
    }
    const wide = node.scrollWidth > node.clientWidth + 1;
    const tall = node.scrollHeight > node.clientHeight + 1;
    const cuts = (value) => value === "hidden" || value === "clip";
    if ((wide && cuts(style.overflowX)) || (tall && cuts(style.overflowY)) ||
        (wide && style.textOverflow === "ellipsis")) {
      problems.push("clips its content: " + name(node));
    } else if (wide && ["auto", "scroll"].includes(style.overflowX)) {
      problems.push("scrolls sideways inside: " + name(node));
    } else if ((wide && style.overflowX === "visible") ||
               (tall && style.overflowY === "visible" && style.height !== "auto" &&
                node.tagName !== "HTML")) {
      spilling.push(node);
    }
  }
  // A spill shows in every box around it: name the innermost only.
  for (const node of spilling) {
    if (!spilling.some((other) => other !== node && node.contains(other))) {
      problems.push("content spills out of " + name(node) + " (" + node.scrollWidth + "x" +
                    node.scrollHeight + " in " + node.clientWidth + "x" + node.clientHeight + ")");
    }
  }
  const overlap = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 &&
    a.top < b.bottom - 1 && b.top < a.bottom - 1;
  for (const parent of [document.body, ...boxes]) {
    const children = [...parent.children].filter((child) => boxSet.has(child) &&
      getComputedStyle(child).display !== "inline");
    const rects = children.map((child) => child.getBoundingClientRect());
    rects.forEach((rect, index) => rects.slice(index + 1).forEach((other, offset) => {
      if (rect.width > 1 && rect.height > 1 && other.width > 1 && other.height > 1 &&
          overlap(rect, other)) {
        problems.push("overlap: " + name(children[index]) + " and " +
                      name(children[index + 1 + offset]));
      }
    }));
  }
  // A table's words wrap only between words: a word over two lines is broken inside.
  for (const cell of document.querySelectorAll("table :is(th, td, caption)")) {
    if (!shown(cell)) {
      continue;
    }
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      if (hidden(text.parentElement)) {
        continue;
      }
      for (const word of text.data.matchAll(/[^\\s\\-\\u2013\\u2014\\/]+/g)) {
        const range = document.createRange();
        range.setStart(text, word.index);
        range.setEnd(text, word.index + word[0].length);
        const rects = [...range.getClientRects()].filter((rect) => rect.width > 0);
        if (rects.some((rect) => rect.top >= rects[0].bottom - 1)) {
          problems.push("word broken inside: '" + word[0] + "' in " + name(cell));
        }
      }
    }
  }
  // A text field shows the whole of its example (placeholder).
  for (const field of document.querySelectorAll("input[placeholder]")) {
    if (!shown(field) || field.value) {
      continue;
    }
    const style = getComputedStyle(field);
    const context = document.createElement("canvas").getContext("2d");
    context.font = style.font;
    const room = field.clientWidth - parseFloat(style.paddingLeft) -
      parseFloat(style.paddingRight);
    if (context.measureText(field.placeholder).width > room + 1) {
      problems.push("cuts its example: " + name(field) + " '" + field.placeholder + "'");
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
  return problems;
}"""


def board_of_a_deal(page, server: str) -> None:
    """The boards page with a whole deal pasted."""
    page.goto(server + "/boards")
    page.locator("textarea").first.fill(DEAL)
    press(page, "Show the boards")


def answered_wrongly(page, server: str) -> None:
    """Practice after a wrong answer, with why the bid chosen is not the hand's."""
    page.goto(server + "/practice?set=7")
    hand = page.locator('input[name="hand"]').first.input_value()
    press(page, "No bid" if explain(hand).bid else "2NT")


def counting_first(page, server: str) -> None:
    """Practice in count-first mode, the counts answered wrongly: the distribution points
    counted for short suits, named as that misreading."""
    page.goto(server + "/practice?set=1")
    page.get_by_label("Count first").check()
    press(page, "Save settings")
    page.get_by_label("HCP", exact=True).fill("40")
    page.get_by_label("Distribution points", exact=True).fill("2")
    press(page, "Check my count")


def round_summary(page, server: str) -> None:
    """The summary of a round of practice, every hand answered No bid."""
    page.goto(server + "/practice?set=9")
    while page.locator("#summary-title").count() == 0:
        press(page, "No bid")
        last = page.get_by_role("button", name="Round summary").count()
        press(page, "Round summary" if last else "Next hand")


def live_host(page, server: str) -> str:
    """A live poll's projector page; its code."""
    page.goto(server + "/live")
    page.get_by_label("Hand to paste").fill(HAND)
    press(page, "Start the poll")
    return page.locator("#code").inner_text()


def live_host_closed(page, server: str) -> None:
    """A live poll's projector page with the vote closed: the form for the next hand."""
    live_host(page, server)
    press(page, "Close the vote")


def live_phone(page, server: str) -> None:
    """A phone's page in a live poll, after its vote."""
    code = live_host(page, server)
    page.goto(f"{server}/live/{code}")
    press(page, "1 club")


def live_teacher(page, server: str) -> None:
    """The instructor's own view of a live poll, after a phone's vote."""
    code = live_host(page, server)
    host = page.url
    page.goto(f"{server}/live/{code}")
    press(page, "1 club")
    page.goto(host)
    with page.expect_navigation():
        page.get_by_role("link", name="Your own view: the answers so far").click()


def live_names(page, server: str) -> None:
    """Who answered what, opened from the instructor's own view."""
    live_teacher(page, server)
    page.goto(page.url.replace("/teacher", "/names"))


def live_remote(page, server: str) -> None:
    """The one-time link that adds a phone to the instructor's, from the own view."""
    code = live_host(page, server)
    page.goto(f"{server}/live/{code}/teacher")
    press(page, "Steer from a phone too: a one-time link")


def live_added(page, server: str) -> None:
    """The page a one-time link opens on the phone it adds."""
    live_remote(page, server)
    page.goto(page.locator("#remote-link").inner_text())


def live_start_refused(page, server: str) -> None:
    """The start form refused (a hand of two cards), shown again as it was sent."""
    page.goto(server + "/live")
    page.get_by_label("Hand to paste").fill("AS KS")
    page.get_by_label("Class size").fill("30")
    press(page, "Start the poll")


def live_summary(page, server: str) -> None:
    """A live session's summary page as downloaded, opened on its own."""
    live_teacher(page, server)
    page.go_back()
    link = page.get_by_role("link", name="a page").get_attribute("href")
    page.set_content(page.request.get(server + link).text())


VISITS = [(board_of_a_deal, "boards for a deal"), (answered_wrongly, "practice answered"),
          (counting_first, "practice counting first"), (round_summary, "round summary"),
          (live_host, "live projector"), (live_host_closed, "live projector, vote closed"),
          (live_phone, "live phone"),
          (live_teacher, "live teacher"), (live_names, "live names"), (live_remote, "live one-time link"),
          (live_added, "live phone added"), (live_start_refused, "live start refused")]

WIDTHS = (390, 1280)


def modes(width: int) -> list[str]:
    """The modes a page is seen in at *width*: print is laid out on paper, about 800
    pixels wide, so it is checked at the desktop width only."""
    return [mode for mode in MODES if not (mode == "print" and width < 1280)]


def problems(page, width: int, large_type: bool = True) -> dict[str, list[str]]:
    """What the probe finds on the page as it is, seen in each mode at *width* (large
    type only where the page offers it), one mode after another on the page once loaded:
    each mode is undone before the next (the forms that lead to a page are filled on
    screen: print hides them)."""
    found = {"screen": page.evaluate(PROBE)}
    if "print" in modes(width):
        page.emulate_media(media="print")
        found["print"] = page.evaluate(PROBE)
    page.emulate_media(media="screen", color_scheme="dark")  # print undone with it
    found["dark"] = page.evaluate(PROBE)
    page.emulate_media(color_scheme="light")
    if large_type:
        page.locator("#large-type").check()
        found["projector"] = page.evaluate(PROBE)
        page.locator("#large-type").uncheck()
    return {mode: lines for mode, lines in found.items() if lines}


def test_each_mode_is_probed_and_undone_before_the_next(kept_page, server):
    """The modes of one page load are independent: dark and large type are undone, so a
    problem found in one mode is that mode's."""
    page = kept_page(width=390)
    page.goto(server + "/rules")
    problems(page, 390)
    assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") is False
    assert page.evaluate("matchMedia('print').matches") is False
    assert not page.locator("#large-type").is_checked()


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("path, name", PAGES, ids=[name for _, name in PAGES])
def test_no_page_served_spills_overlaps_clips_or_scrolls_sideways(kept_page, server, path,
                                                                   name, width):
    page = kept_page(width=width)
    page.goto(server + path)
    assert problems(page, width) == {}


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("visit, name", VISITS, ids=[name for _, name in VISITS])
def test_no_page_reached_by_a_form_spills_overlaps_clips_or_scrolls_sideways(
        kept_page, server, visit, name, width):
    page = kept_page(width=width)
    visit(page, server)
    assert problems(page, width) == {}


@pytest.mark.parametrize("width", WIDTHS)
def test_a_downloaded_live_summary_spills_overlaps_clips_or_scrolls_sideways_nowhere(
        kept_page, server, width):
    """The summary stands alone, with no switch to large type: screen, dark and print."""
    page = kept_page(width=width)
    live_summary(page, server)
    assert problems(page, width, large_type=False) == {}


def test_every_page_the_app_serves_is_visited(tmp_path):
    """A new page must join the lists: every GET route answering HTML is named."""
    app = create_app({"TESTING": True, "STATE_URL": f"sqlite:///{tmp_path / 'state.db'}"})
    visited = {re.sub(r"\?.*", "", path) for path, _ in PAGES} | {
        "/boards", "/practice", "/live/<code>/host", "/live/<code>", "/live/join",
        "/live/<code>/teacher", "/live/<code>/summary.<kind>", "/live/<code>/remote/<ticket>",
        "/live/<code>/names", "/lti/jwks"}  # the LTI key set is JSON
    rules = {rule.rule for rule in app.url_map.iter_rules()
             if "GET" in rule.methods and not rule.rule.startswith(("/api", "/static"))
             and not rule.rule.endswith((".json", "/events", ".svg", ".ico"))}
    assert rules - visited == set()


def test_a_hand_selected_on_the_page_copies_as_its_cards_and_pastes_back(expect, new_page,
                                                                         server):
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
    expect(page.locator("#card-count")).to_have_text("13 of 13 cards")
    page.press("#hand", "Enter")
    page.wait_for_load_state()
    assert page.locator("#result").count() == 1


def test_the_live_count_names_a_whole_deal(expect, new_page, server):
    page = new_page()
    page.goto(server + "/")
    page.fill("#hand", "N:AKQ2.J54.T9.8765 JT98.AK32.AK.432 7654.Q876.QJ8.KQ "
                       "3.T9.765432.AJT9")
    expect(page.locator("#card-count")).to_have_text(
        "a whole deal of 4 hands (N, E, S, W): send it to see every seat's opening")
    page.press("#hand", "Enter")
    page.wait_for_load_state()
    assert page.locator(".seat-bid").count() == 4
