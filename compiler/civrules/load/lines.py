"""What a line is, in one place: the line numbers civrules prints, the lines it quotes under a
diagnostic and the lines an editor numbers (LSP) must be the same lines.

YAML (libyaml) ends a line at CR LF, CR or LF, and also at NEL, U+2028 and U+2029, which civrules
refuses in rule files (they make text read otherwise than it is); LSP ends a line at CR LF, CR and
LF only. :meth:`str.splitlines` also breaks at form feeds, vertical tabs and the C1 separators, so
a file holding one (refused, with a diagnostic quoting its line) was quoted a line off.

>>> split_lines("a\\r\\nb\\rc\\x0cd\\n")
['a', 'b', 'c\\x0cd', '']
>>> line_column("a\\rb\\r\\nc", 5)
(3, 1)
"""

from __future__ import annotations

import re

#: What ends a line.
LINE_END = re.compile("\r\n|\r|\n")
_BOM = "\ufeff"


def split_lines(text: str) -> list[str]:
    """The lines of ``text``: only CR LF, CR and LF end one (a final line break leaves an empty last line)."""
    if "\r" not in text:  # the usual case, several times faster than the pattern
        return text.split("\n")
    return LINE_END.split(text)


def line_column(text: str, index: int) -> tuple[int, int]:
    """The 1-based line and code-point column of ``text[index]``."""
    line, start = 1, 0
    for end in LINE_END.finditer(text, 0, index):
        line, start = line + 1, end.end()
    return line, index - start + 1


def decode(raw: bytes) -> str:
    """A rule file's bytes as text for quoting: UTF-8 with the byte order mark removed, as the
    reader removes it (columns count from after it); undecodable bytes replaced."""
    return raw.decode("utf-8", errors="replace").removeprefix(_BOM)
