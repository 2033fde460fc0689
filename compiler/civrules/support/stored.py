"""Reading back a file civrules wrote: a cache entry (manifest headers, map layouts, build stamps)
or a manifest of an output tree (a package's ``api.json``).

Such a file is anyone's to change: the cache is the user's, and ``generated/`` comes from pull
requests. It is read as data from outside, and it is used only where it is a document civrules could
have written; anything else is as if there were no file (the caller recomputes, or starts over),
never a failure of the command. :func:`json_document` is the one way civrules parses such a file:
each caller then checks the document's form (its keys and the types of its values).

Not a document civrules writes: bytes that are not UTF-8 (a byte order mark included), not one JSON
value, nested deeper than the caller's files are (the parser's ``RecursionError`` at a thousand
levels was an internal error; below it, a caller's ``str()`` of a deep value could fail the same
way), holding ``NaN``, an infinity, a number too long to convert, or an escaped lone surrogate
(``"\\ud800"``: a string no file holds, which cannot be encoded to be printed or written).
"""

from __future__ import annotations

import json

#: The deepest nesting of lists and objects a file civrules reads back may have (the deepest it
#: writes, a manifest header's entry, has 4 levels).
MAX_DEPTH = 8


def json_document(raw: bytes | None, max_depth: int = MAX_DEPTH) -> object | None:
    """The JSON value ``raw`` holds, or None where ``raw`` is None or not a document civrules could
    have written (see the module's documentation); at most ``max_depth`` levels of lists and objects."""
    if raw is None:
        return None
    try:
        document = json.loads(raw.decode("utf-8"), parse_constant=_refuse, parse_float=_finite)
    except (ValueError, RecursionError):  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        return None
    return document if _plain(document, max_depth) else None


def _refuse(constant: str) -> float:
    raise ValueError(f"{constant} is no number civrules writes")


def _finite(text: str) -> float:
    number = float(text)
    if number - number != 0.0:  # an infinity (1e999), which json.dumps writes as no JSON number
        raise ValueError(f"{text} is out of range")
    return number


def _plain(document: object, max_depth: int) -> bool:
    """Whether ``document`` nests at most ``max_depth`` levels and holds no string (key or value)
    that cannot be encoded in UTF-8. Walked without recursion: its depth is what is being judged."""
    pending: list[tuple[object, int]] = [(document, 0)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, str):
            if not _encodable(value):
                return False
        elif isinstance(value, (list, dict)):
            if depth >= max_depth:
                return False
            if isinstance(value, dict):
                if not all(_encodable(key) for key in value):
                    return False
                pending.extend((item, depth + 1) for item in value.values())
            else:
                pending.extend((item, depth + 1) for item in value)
    return True


def _encodable(text: str) -> bool:
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
