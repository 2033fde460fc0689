"""One place makes text from rule data safe to show in an editor, as :mod:`civrules.diagnostics.escape`
does for terminals and CI annotations.

An editor renders a hover and a completion's documentation as Markdown: a name written
``![x](https://tracker.example/pixel.png)`` in a stranger's pull request fetched a remote image when
a reviewer hovered a variant's ``extends:``, ``[run](command:...)`` became a link that runs an
editor command, ``<img src=...>`` raw HTML, and a backtick ended the code span around an id. The
other fields (a diagnostic's message, related information, a code action's title, a log line)
are plain text, but an editor shows a control character or a bidirectional override as it is.

So every text the language server sends passes through one of these, chosen by what the field is:

- :func:`plain`: a plain-text field (one line: a message, a title, a label of related information);
- :func:`plain_lines`: plain text whose line breaks are civrules' own (a message and its hint);
- :func:`markdown_text`: rule data inside Markdown: every ASCII punctuation character escaped, so
  that no link, image, HTML, emphasis, heading, list or code span can start in it;
- :func:`markdown_code`: rule data shown as code (an id): a code span no backtick inside can end;
- :func:`markdown_block`: text shown as a fenced block (a code's documentation): a fence no line
  inside can close.

Each first makes the text :func:`civrules.diagnostics.escape.printable` (control characters,
line separators and bidirectional controls as visible escapes), so that what an editor shows is
what the file holds.

Examples
--------
>>> markdown_text("![x](https://evil.example/p.png) <img src=x>")
'\\\\!\\\\[x\\\\]\\\\(https\\\\:\\\\/\\\\/evil\\\\.example\\\\/p\\\\.png\\\\) \\\\<img src\\\\=x\\\\>'
>>> markdown_code("a`b")
'`` a`b ``'
>>> plain("name\\n::error::x")
'name\\\\n::error::x'
"""

from __future__ import annotations

import re

from civrules.diagnostics.escape import printable, printable_lines

#: Every ASCII punctuation character: CommonMark lets a backslash escape each of them, and every
#: construct that is not plain text (links, images, autolinks, HTML, entities, emphasis, code,
#: headings, lists, tables, GitHub's `www.` and `https:` autolinks) starts at one of them.
_PUNCTUATION = re.compile(r"""([!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~])""")
_BACKTICKS = re.compile(r"`+")


def plain(text: str) -> str:
    """A plain-text field of one line: every unsafe character as a visible escape."""
    return printable(text)


def plain_lines(text: str) -> str:
    """Plain text whose line breaks are civrules' own (each line made :func:`plain`)."""
    return printable_lines(text)


def markdown_text(text: str) -> str:
    """``text`` as Markdown that renders as exactly these characters (each line :func:`plain`)."""
    return _PUNCTUATION.sub(r"\\\1", printable(text))


def markdown_code(text: str) -> str:
    """``text`` as an inline code span: fenced by more backticks than any run of them inside.

    Inside a code span Markdown reads nothing (no link, no HTML), and only a run of backticks as
    long as the fence could end it.
    """
    shown = printable(text)
    longest = max((len(run) for run in _BACKTICKS.findall(shown)), default=0)
    fence = "`" * (longest + 1)
    # A space on each side where the text starts or ends with a backtick (CommonMark strips one).
    padded = f" {shown} " if shown.startswith("`") or shown.endswith("`") or longest else shown
    return f"{fence}{padded}{fence}"


def markdown_block(text: str, info: str = "text") -> str:
    """``text`` as a fenced code block (its line breaks kept), closed by a fence no line holds."""
    shown = printable_lines(text.rstrip("\n"))
    longest = max((len(run) for run in _BACKTICKS.findall(shown)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{info}\n{shown}\n{fence}"
