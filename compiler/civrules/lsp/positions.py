"""Where civrules' positions meet the editor's: every line and column that crosses the LSP boundary is
converted here, and nowhere else.

civrules counts lines and columns from 1, columns in code points (as its diagnostics print them).
LSP counts both from 0, and a ``character`` in the code units of the position encoding agreed at
``initialize``: UTF-16 unless the client offered others in ``general.positionEncodings``, of which
pygls picks the client's first choice among UTF-8, UTF-16 and UTF-32 and announces it as the
server's ``positionEncoding``. The counts agree only on ASCII: after an emoji or a CJK
extension-B character a UTF-16 column is one more than civrules', a UTF-8 column three more. So a
conversion needs the text of the line as the editor has it, and :class:`Positions` reads each
file's lines once per request or publication (the open buffer, else the file on disk).

pygls' own ``PositionCodec`` is not used for the arithmetic: it splits lines with
:meth:`str.splitlines` (which also breaks at form feeds, NEL and U+2028, where LSP does not), moves a
position past the end of a line to before its last character, and writes that into the request
it was given.

Examples
--------
>>> line = "name: 😀 Ἀθῆναι 𠀋"
>>> to_units(line, line.index("𠀋"), UTF16), to_units(line, line.index("𠀋"), UTF8)
(16, 26)
>>> from_units(line, 16, UTF16) == line.index("𠀋")
True
"""

from __future__ import annotations

import functools
from array import array
from bisect import bisect_right
from collections.abc import Callable
from itertools import accumulate

from lsprotocol import types

from civrules.diagnostics import Span
from civrules.load.lines import LINE_END, split_lines

UTF8 = types.PositionEncodingKind.Utf8.value
UTF16 = types.PositionEncodingKind.Utf16.value
UTF32 = types.PositionEncodingKind.Utf32.value


def encoding_of(negotiated: object) -> str:
    """The encoding agreed at ``initialize`` (pygls' choice, an enum or a string) as one of ours."""
    value = getattr(negotiated, "value", negotiated)
    return value if value in (UTF8, UTF32) else UTF16


def units(text: str, encoding: str) -> int:
    """How many code units of ``encoding`` ``text`` takes (a lone surrogate a client sent counts as one)."""
    if encoding == UTF32 or text.isascii():
        return len(text)
    if encoding == UTF8:
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def to_units(line: str, column: int, encoding: str) -> int:
    """The 0-based LSP ``character`` of the 0-based code-point ``column`` of ``line``.

    A column past the end of the line (the text changed since it was checked) keeps its distance
    from the end, one unit per code point: the client brings it back to the line's end.
    """
    column = max(column, 0)
    past = max(column - len(line), 0)
    if encoding == UTF32 or line.isascii():
        return column
    return _ends(line, encoding)[column - past] + past


def from_units(line: str, character: int, encoding: str) -> int:
    """The 0-based code-point column of the 0-based LSP ``character`` of ``line``.

    A character that falls inside a code point (the second half of a surrogate pair) is that code
    point; one past the end of the line is its end, as LSP says.
    """
    character = max(character, 0)
    if encoding == UTF32 or line.isascii():
        return min(character, len(line))
    return min(bisect_right(_ends(line, encoding), character) - 1, len(line))


def edited(text: str, rng: types.Range, new_text: str, encoding: str) -> str | None:
    """``text`` with the LSP range ``rng`` (in ``encoding``'s code units) replaced by ``new_text``:
    a ranged content change applied as LSP says (lines end only at CR LF, CR and LF; a character
    past the end of a line is its end). None where the range is not in ``text``: a line past the
    last one, or an end before the start (the client's text is not the one the server has).
    """
    lines = split_lines(text)
    starts = [0, *(end.end() for end in LINE_END.finditer(text))]

    def offset(position: types.Position) -> int | None:
        if not 0 <= position.line < len(lines):
            return None
        return starts[position.line] + from_units(lines[position.line], position.character, encoding)

    start, end = offset(rng.start), offset(rng.end)
    if start is None or end is None or end < start:
        return None
    return text[:start] + new_text + text[end:]


@functools.lru_cache(maxsize=16)
def _ends(line: str, encoding: str) -> array[int]:
    """The code units of each start of ``line``: ``_ends(line)[i]`` is ``units(line[:i])``. Made
    once for a line that is not ASCII (a string's hash is kept with it, so asking again for the
    same line costs nothing): every position of a long line, each converted by counting the line
    up to it, was the product of the positions and the line's length."""
    return array("q", [0, *accumulate(units(char, encoding) for char in line)])


class Positions:
    """Conversions in the negotiated encoding, on the texts of one moment.

    ``text`` gives a document's text by URI as the editor has it (None when it cannot be read);
    each is read at most once, so make one of these per request or publication. A span is in
    civrules' terms (1-based, code points, end column exclusive), a position or range in LSP's.
    """

    def __init__(self, encoding: str, text: Callable[[str], str | None]) -> None:
        self.encoding = encoding
        self._text = text
        self._lines: dict[str, list[str] | None] = {}

    def text(self, uri: str) -> str | None:
        """The text of the document at ``uri`` as the editor has it (None when it cannot be read)."""
        return self._text(uri)

    def lines(self, uri: str) -> list[str]:
        """The lines of the document at ``uri`` (none when it cannot be read)."""
        if uri not in self._lines:
            text = self._text(uri)
            self._lines[uri] = split_lines(text) if text is not None else None
        return self._lines[uri] or []

    def _line(self, uri: str, number: int) -> str | None:
        if uri not in self._lines:
            self.lines(uri)
        lines = self._lines[uri]
        return lines[number] if lines is not None and 0 <= number < len(lines) else None

    def position(self, uri: str, line: int, column: int) -> types.Position:
        """The LSP position of a 1-based line and code-point column."""
        number = max(line - 1, 0)
        text = self._line(uri, number)
        character = to_units(text, column - 1, self.encoding) if text is not None else max(column - 1, 0)
        return types.Position(line=number, character=character)

    def range(self, uri: str, span: Span) -> types.Range:
        """The LSP range of a span of the document at ``uri``."""
        return types.Range(
            start=self.position(uri, span.line, span.column), end=self.position(uri, span.end_line, span.end_column)
        )

    def location(self, uri: str, span: Span) -> types.Location:
        return types.Location(uri=uri, range=self.range(uri, span))

    def point(self, uri: str, position: types.Position) -> tuple[int, int]:
        """The 1-based line and code-point column of an LSP position in the document at ``uri``."""
        text = self._line(uri, position.line)
        column = from_units(text, position.character, self.encoding) if text is not None else position.character
        return position.line + 1, max(column, 0) + 1

    def span(self, uri: str, rng: types.Range) -> tuple[int, int, int, int]:
        """The 1-based (line, column, end line, end column) of an LSP range, columns in code points."""
        return (*self.point(uri, rng.start), *self.point(uri, rng.end))
