"""Reading pages in tests: the text of an element, the attributes of the tags."""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser

from helpers import bid_text  # noqa: F401 (for the page tests)

VOID_TAGS = frozenset(("area", "base", "br", "col", "embed", "hr", "img", "input", "link",
                       "meta", "source", "track", "wbr"))


INLINE_TAG = re.compile(r"</?(?:a|abbr|b|code|em|span|strong)(?:\s[^>]*)?>")


class _Elements(HTMLParser):
    """Collects every start tag's attributes and the text inside each element with an id:
    all of it, what the eye sees (no .visually-hidden) and what a screen reader hears
    (no aria-hidden)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.texts: dict[str, list[str]] = {}
        self.seen: dict[str, list[str]] = {}
        self.heard: dict[str, list[str]] = {}
        self._open: list[tuple[str | None, bool, bool]] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self.tags.append((tag, attributes))
        if tag not in VOID_TAGS:
            unseen = "visually-hidden" in (attributes.get("class") or "").split()
            unheard = attributes.get("aria-hidden") == "true"
            self._open.append((attributes.get("id"), unseen, unheard))
            if attributes.get("id"):
                for texts in (self.texts, self.seen, self.heard):
                    texts[attributes["id"]] = []

    def handle_endtag(self, tag):
        if tag not in VOID_TAGS and self._open:
            self._open.pop()

    def handle_data(self, data):
        unseen = any(hidden for _, hidden, _ in self._open)
        unheard = any(hidden for _, _, hidden in self._open)
        for element_id in filter(None, (element_id for element_id, _, _ in self._open)):
            self.texts[element_id].append(data)
            if not unseen:
                self.seen[element_id].append(data)
            if not unheard:
                self.heard[element_id].append(data)


def parse(html: str) -> _Elements:
    """The elements of *html*."""
    parser = _Elements()
    parser.feed(html)
    parser.close()
    return parser


def text_of(html: str, element_id: str) -> str:
    """The text inside the element with *element_id*, white space collapsed."""
    return " ".join("".join(parse(html).texts[element_id]).split())


def seen_and_heard(html: str, element_id: str) -> tuple[str, str]:
    """What the eye sees in the element with *element_id* and what a screen reader hears,
    white space collapsed: ('1♣', '1 club')."""
    elements = parse(html)
    return tuple(" ".join("".join(texts[element_id]).split())
                 for texts in (elements.seen, elements.heard))


def tags(html: str, name: str) -> list[dict[str, str | None]]:
    """The attributes of every *name* tag in *html*."""
    return [attributes for tag, attributes in parse(html).tags if tag == name]


def field(html: str, name: str = "hand") -> dict[str, str | None]:
    """The attributes of the input or text area named *name*; a text area's text as its
    value (the browser drops one newline right after the opening tag)."""
    elements = parse(html)
    for tag, attributes in elements.tags:
        if tag in ("input", "textarea") and attributes.get("name") == name:
            if tag == "textarea":
                text = "".join(elements.texts[attributes["id"]])
                attributes = {**attributes, "value": text[1:] if text[:1] == "\n" else text}
            return attributes
    raise LookupError(f"no field named {name!r}")


BID_IN_TEXT = re.compile(r"(?<![\w-])[1-7](?:NT|[CDHS])(?!\w)")


def bids_read(text: str, read=bid_text) -> str:
    """A sentence of the core's as a page reads it, its bids shown as bids: 'would bid
    1D' reads 'would bid 1♦ diamond' (*read* says how one bid reads)."""
    return BID_IN_TEXT.sub(lambda bid: read(bid.group()), text)


def page_text(html: str) -> str:
    """All text of the page, tags removed and white space collapsed."""
    text = re.sub(INLINE_TAG, "", html)
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", text)).split())


def title_of(html: str) -> str:
    """The page's title as a browser shows it (character references read)."""
    return unescape(re.search(r"<title>(.*?)</title>", html, re.DOTALL).group(1))
