"""One place makes text from rule data safe to print, whatever the output format.

Rule data comes from strangers' pull requests. Printed raw, a newline inside a key starts a line of
its own, which GitHub Actions reads as a workflow command (``::error ...``, ``::stop-commands::``);
an escape sequence (ESC, CSI) drives the terminal it reaches; a bidirectional override reorders
what a reviewer sees. Every renderer passes every field it prints (messages, hints, file names,
ids, names, quoted source lines) through :func:`printable`, and every JSON document through
:func:`dumps_json`.
"""

from __future__ import annotations

import json
import re
from typing import Any

#: Characters never printed as themselves: C0 controls (newline and tab included: a field is one
#: line), DEL, C1 controls, the Unicode line and paragraph separators, bidirectional embeddings,
#: overrides and isolates, and lone surrogates (which cannot even be encoded as UTF-8).
UNSAFE = "\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff"
_UNSAFE = re.compile(f"[{UNSAFE}]")
#: Those JSON leaves as they are (json.dumps already escapes C0 controls in strings).
_UNSAFE_IN_JSON = re.compile("[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` on one line, each unsafe character written as a visible escape.

    >>> printable("key\\n::error::pwned \\x1b[31m")
    'key\\\\n::error::pwned \\\\x1b[31m'
    """
    return _UNSAFE.sub(_escape, text) if _UNSAFE.search(text) else text


def printable_lines(text: str) -> str:
    """Like :func:`printable`, but keeps the line breaks of ``text`` (a diff, a listing)."""
    return "\n".join(printable(line) for line in text.split("\n"))


def safe_line_start(text: str) -> str:
    """``text`` that cannot open a line as a GitHub Actions workflow command (``::name ...``)."""
    return f"./{text}" if text.lstrip().startswith("::") else text


def dumps_json(value: Any, **options: Any) -> str:
    """``json.dumps(value, ensure_ascii=False, **options)`` with every unsafe character as ``\\uXXXX``.

    Outside strings JSON holds only ASCII punctuation, digits and literals, so every character
    replaced here is inside a string, where the escape means the same character.
    """
    text = json.dumps(value, ensure_ascii=False, **options)
    return _UNSAFE_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
