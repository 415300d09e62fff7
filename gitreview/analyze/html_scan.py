"""Anchors and links in a piece of raw HTML inside Markdown.

Its own module so that html.parser is imported only when a page holds raw HTML:
start-up dominates an everyday push.
"""

from __future__ import annotations

from collections.abc import Iterator
from html.parser import HTMLParser


class HtmlScanner(HTMLParser):
    """Anchors and links in a piece of raw HTML; comments hold neither."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.anchors: list[str] = []
        self.links: list[tuple[str, int, bool]] = []  # target, line offset, image

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value for name, value in attrs if value is not None}
        self.anchors += _names(tag, values)
        offset = self.getpos()[0] - 1
        if tag == "a" and "href" in values:
            self.links.append((values["href"].strip(), offset, False))
        elif tag == "img" and "src" in values:
            self.links.append((values["src"].strip(), offset, True))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)


def _names(tag: str, values: dict[str, str]) -> Iterator[str]:
    if "id" in values:
        yield values["id"]
    if tag == "a" and "name" in values:
        yield values["name"]
