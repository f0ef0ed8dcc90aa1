"""The site's template loader: the live table's fragments (templates/games/live/) are read
without their indentation, which a page would render as the single space it collapses to
anyway (none of them holds preformatted text). Every move sends some of them to every page
at the table, so their bytes are taken out once, when the template is read, not at every
render."""

import re

from django.template.loaders import filesystem

INDENTATION = re.compile(r"[ \t]*\n\s*")
LIVE = "games/live/"


class Loader(filesystem.Loader):
    def get_contents(self, origin):
        contents = super().get_contents(origin)
        return INDENTATION.sub("\n", contents) if origin.template_name.startswith(LIVE) else contents
