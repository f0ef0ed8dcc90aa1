"""Just enough HTML reading for the page tests, with the standard library."""

from html.parser import HTMLParser


class _Collector(HTMLParser):
    def __init__(self):
        super().__init__()
        self.elements = []  # (tag, attrs, enclosing classes)
        self.main_text = []
        self._open = []  # (tag, class) of the open elements
        self._in_main = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = {cls for _tag, cls in self._open}
        self.elements.append((tag, attrs, classes))
        if tag == "main":
            self._in_main += 1
        if tag not in ("link", "meta", "br", "img", "input"):
            self._open.append((tag, attrs.get("class", "")))

    def handle_endtag(self, tag):
        while self._open:
            open_tag, _cls = self._open.pop()
            if open_tag == tag:
                break
        if tag == "main":
            self._in_main -= 1

    def handle_data(self, data):
        if self._in_main:
            self.main_text.append(data)


def parse(html):
    collector = _Collector()
    collector.feed(html)
    return collector


def elements(html, tag, inside=None, **wanted):
    """Attribute dicts of every <tag> whose attributes include `wanted` (aria_current=…
    for aria-current, class_=… for class),
    optionally only those within an element of class `inside`."""
    return [
        attrs
        for found, attrs, classes in parse(html).elements
        if found == tag
        and (inside is None or inside in classes)
        and all(attrs.get(name.rstrip("_").replace("_", "-")) == value for name, value in wanted.items())
    ]


def main_text(html):
    """The visible text inside <main>, whitespace collapsed."""
    return " ".join("".join(parse(html).main_text).split())
