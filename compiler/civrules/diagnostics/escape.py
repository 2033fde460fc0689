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
import unicodedata
from typing import Any

#: Characters never printed as themselves: C0 controls (newline and tab included: a field is one
#: line), DEL, C1 controls, the Unicode line and paragraph separators, bidirectional embeddings,
#: overrides and isolates, and lone surrogates (which cannot even be encoded as UTF-8).
UNSAFE = "\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff"
#: Invisible format characters (Unicode's Cf), printed as escapes too: a byte order mark left at a
#: later line's start by `cat a.yaml b.yaml`, a zero width space, a word joiner, the direction
#: marks, the soft hyphen, the tag characters. Not the zero width joiner and non-joiner, which
#: scripts (Persian, Indic, emoji) write inside words. Printed raw, a file, key or id holding one
#: looked the same as the one without ("the manifest `base\u200b.yaml` declares the id `base`:
#: name the file `base.yaml`").
INVISIBLE = (
    "\u00ad\u061c\u180e\u200b\u200e\u200f\u2060-\u2064\u206a-\u206f\ufeff\ufff9-\ufffb\U000e0001\U000e0020-\U000e007f"
)
_UNSAFE = re.compile(f"[{UNSAFE}{INVISIBLE}]")
#: Those JSON leaves as they are (json.dumps already escapes C0 controls in strings).
_UNSAFE_IN_JSON = re.compile(f"[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff{INVISIBLE}]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    named = _NAMED.get(char)
    return named if named is not None else _escape_char(char)


def _escape_in_json(match: re.Match[str]) -> str:
    """A character as JSON escapes it: one ``\\uXXXX``, or the two of its UTF-16 surrogate pair."""
    code = ord(match.group())
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def printable(text: str) -> str:
    """``text`` on one line, each unsafe or invisible character written as a visible escape (a line
    of a rule file a diagnostic quotes, too: it shows what libyaml read), and each character of a
    sequence Unicode's composed form (NFC) writes otherwise (:func:`_composable`).

    >>> printable("key\\n::error::pwned \\x1b[31m")
    'key\\\\n::error::pwned \\\\x1b[31m'
    >>> printable("\ufeffx: 1")
    '\\\\ufeffx: 1'
    >>> printable("cafe\u0301.yaml"), printable("caf\u00e9.yaml")
    ('cafe\\\\u0301.yaml', 'café.yaml')
    """
    safe = _UNSAFE.sub(_escape, text) if _UNSAFE.search(text) else text
    return safe if safe.isascii() or unicodedata.is_normalized("NFC", safe) else _composable(safe)


def _follows(char: str) -> bool:
    """Whether ``char`` joins the character before it in a composed form: a combining mark, or a
    Hangul vowel or final consonant written apart (conjoining jamo)."""
    return unicodedata.combining(char) != 0 or "\u1160" <= char <= "\u11ff"


def _composable(text: str) -> str:
    """``text`` with each non-ASCII character of a sequence that NFC writes otherwise (``e`` and a
    combining acute accent, written ``é`` composed) as its escape.

    Two names that differ only so look the same printed: two manifests `café.yaml`, one composed
    and one decomposed (as a Mac's older file system names files, or an editor pastes), were told
    as "ruleset id `cafe1` is declared twice" at `café.yaml:3:5`, "first declared here" at
    `café.yaml:3:5`. The decomposed one is now `cafe\\u0301.yaml`; composed text prints as it is."""
    pieces: list[str] = []
    cluster: list[str] = []

    def told(chars: list[str]) -> str:
        joined = "".join(chars)
        if unicodedata.is_normalized("NFC", joined):
            return joined
        return "".join(c if c.isascii() else _escape_char(c) for c in chars)

    for char in text:
        if cluster and not _follows(char):
            pieces.append(told(cluster))
            cluster = []
        cluster.append(char)
    pieces.append(told(cluster))
    return "".join(pieces)


def _escape_char(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


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
    indent = options.get("indent")
    text = None
    if options.keys() == {"indent"} and type(indent) is int and indent >= 0:
        try:
            text = _indented(value, " " * indent, "\n")
        except _NotPlainError:
            text = None
    if text is None:
        text = json.dumps(value, ensure_ascii=False, **options)
    return _UNSAFE_IN_JSON.sub(_escape_in_json, text)


class _NotPlainError(Exception):
    """A value :func:`_indented` leaves to :func:`json.dumps` (not text, a number, a literal, a list or
    a mapping with text keys)."""


def _indented(value: Any, indent: str, newline: str) -> str:
    """``json.dumps(value, ensure_ascii=False, indent=len(indent))`` of plain data, character for
    character, without the encoder that indents: that one is written in Python and each call makes
    its functions anew, referring to each other (a cycle, about 25 objects only the collector
    frees): one per diagnostic of `--format json` and SARIF, whose collections grew to a quarter of
    a 10,000-diagnostic run (round 25). Text and numbers are still written by :mod:`json` itself."""
    kind = type(value)
    if kind is str:
        return _STRING(value)
    if kind is dict:
        if not value:
            return "{}"
        inner = newline + indent
        parts = []
        for key, item in value.items():
            if type(key) is not str:
                raise _NotPlainError
            parts.append(_STRING(key) + ": " + _indented(item, indent, inner))
        return "{" + inner + ("," + inner).join(parts) + newline + "}"
    if kind is list or kind is tuple:
        if not value:
            return "[]"
        inner = newline + indent
        return "[" + inner + ("," + inner).join(_indented(item, indent, inner) for item in value) + newline + "]"
    if value is None or kind is bool or kind is int or (kind is float and value == value and value not in _INFINITE):
        return json.dumps(value)
    raise _NotPlainError


_STRING = json.encoder.encode_basestring  # what json.dumps(..., ensure_ascii=False) writes of text
_INFINITE = (float("inf"), float("-inf"))
