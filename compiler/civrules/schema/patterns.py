"""A schema's `pattern`, read as JSON Schema reads it: an ECMA-262 regular expression.

Python's `re` differs from ECMA-262 where an anchored pattern is concerned: its `$` also matches
just before a final line break, so `^[a-z][a-z0-9_]*$` took `"brewing\\n"` for an id, which
`validate` passed and `build` turned into a broken module (round 19). Every pattern civrules runs
(jsonschema's `pattern`, the hint code's look-ups, the fast validators ``tools.validators``
writes) is compiled here, with each `$` outside a character class made `\\Z`,
the end of the text only. No schema uses `patternProperties`, whose keys jsonschema would match
with ``re.search`` in `additionalProperties` too (tests/core/test_schema_patterns.py holds them to it).

>>> python_source("^[a-z][a-z0-9_]*$")
'^[a-z][a-z0-9_]*\\\\Z'
>>> matches("^[a-z][a-z0-9_]*$", "brewing"), matches("^[a-z][a-z0-9_]*$", "brewing\\n")
(True, False)
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any


def python_source(pattern: str) -> str:
    """The Python regular expression that means what the ECMA-262 ``pattern`` means: each `$`
    (not escaped, not inside `[...]`) is `\\Z`."""
    out: list[str] = []
    in_class = False
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "\\":
            out.append(pattern[index : index + 2])
            index += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "$":
            char = "\\Z"
        out.append(char)
        index += 1
    return "".join(out)


@functools.cache
def compiled(pattern: str) -> re.Pattern[str]:
    """``pattern`` compiled with ECMA-262's `$`; search it, as JSON Schema's `pattern` does."""
    return re.compile(python_source(pattern))


def matches(pattern: str, text: str) -> bool:
    """Whether ``text`` matches the schema pattern ``pattern`` anywhere, as JSON Schema says."""
    return compiled(pattern).search(text) is not None


def pattern_keyword(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[Any]:
    """jsonschema's `pattern` keyword with :func:`compiled` in place of ``re.search``."""
    from jsonschema.exceptions import ValidationError

    if validator.is_type(instance, "string") and not matches(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


#: The pattern of a text that must say something (a removal's `why`, an unknown's reason): more
#: than spaces. `minLength: 1` let `"   "` pass where `""` was refused.
NOT_BLANK = "\\S"

#: A repository as a citation names it: `owner/repo` (GitHub's characters).
_REPOSITORY = "[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]+"
#: What follows a repository that does not make a citation of one: `@` and no 40-hex commit and
#: `:path` after it.
_NO_COMMIT = "@(?![0-9a-f]{40}:\\S)"

#: The pattern of every `source:` (a citation where the rulebook is silent): not blank, and a text
#: that starts as a citation of a repository (`owner/repo@` or `owner/repo:path`), or a part of it
#: after a `;` that names one with `@` (`…; other/repo@…`), or a repository in parentheses
#: (`community/x.csv (owner/repo:path)`, as the shipped data's guard reads it), is one:
#: `owner/repo@<40-hex commit>:path` (rules/README.md). Any other text is taken as written
#: (`"house rule: ..."`, a file of `shared/sources/community/`, words). Each lookahead is anchored
#: at the start and walks the text once: no part of it is tried again from every position.
SOURCE = (
    f"^(?!\\s*$)(?!{_REPOSITORY}(?::\\S|{_NO_COMMIT}))(?!(?:[^;]*;)+\\s*{_REPOSITORY}{_NO_COMMIT})"
    f"(?!(?:[^(]*\\()+\\s*{_REPOSITORY}(?::\\S|{_NO_COMMIT}))"
)

_CITED_REPOSITORY = re.compile(rf"(?:^|;|\()\s*(?P<repository>{_REPOSITORY})(?P<rest>(?::\S|@)[^\s;)]*)")


def citation_shape(text: str) -> str | None:
    """Why a `source:` text does not have the shape of a citation (:data:`SOURCE`), in words;
    None where it has one.

    >>> citation_shape("   "), citation_shape("house rule: a dearer canal")
    ('it is blank', None)
    >>> citation_shape("cash1981/playciv:packages/engine/src/building-data.ts")
    '`cash1981/playciv` is cited without the commit the file was read at'
    >>> citation_shape("cash1981/playciv@abc:x.ts")
    '`cash1981/playciv` is cited at `abc`, which is not a commit: a commit is 40 lower-case hex digits'
    """
    if not text.strip():
        return "it is blank"
    if matches(SOURCE, text):
        return None
    for found in _CITED_REPOSITORY.finditer(text):
        repository, rest = found["repository"], found["rest"]
        if not rest.startswith("@"):
            if found.start() == 0 or found.group().startswith("("):
                return f"`{repository}` is cited without the commit the file was read at"
            continue
        commit, colon, path = rest[1:].partition(":")
        if re.fullmatch("[0-9a-f]{40}", commit) and colon and path:
            continue
        if not re.fullmatch("[0-9a-f]{40}", commit):
            return f"`{repository}` is cited at `{commit}`, which is not a commit: a commit is 40 lower-case hex digits"
        return f"`{repository}@{commit}` names no file: `:path` follows the commit"
    return "it is not written as a citation"


#: A repository's file cited at a commit: `owner/repo@<40-hex commit>:path`, the path up to a space,
#: a `;` or a `)` (as :data:`_CITED_REPOSITORY` reads it).
_CITED_FILE = re.compile(rf"(?:^|;|\()\s*{_REPOSITORY}@[0-9a-f]{{40}}:(?P<path>[^\s;)]+)")


def slashed_paths(text: str) -> str | None:
    """``text`` with the path of each repository file it cites written with `/` where it has a `\\`
    (`rules\\cards\\x.yaml`, a Windows path); None where no cited path has one.

    Git names a file with `/`: a path with `\\` is one file of that name, which a reader on GitHub,
    the provenance guard and the citation checks look for in vain. Only the cited path changes:
    words around it (`house rule: a\\b`) are taken as written.

    >>> slashed_paths("o/r@" + "a" * 40 + ":rules\\\\cards\\\\x.yaml") == "o/r@" + "a" * 40 + ":rules/cards/x.yaml"
    True
    >>> slashed_paths("o/r@" + "a" * 40 + ":rules/cards/x.yaml"), slashed_paths("house rule: a\\\\b")
    (None, None)
    """
    found = _backslashed(text)
    if not found:
        return None
    out, at = [], 0
    for start, end in found:
        out += [text[at:start], with_slashes(text[start:end])]
        at = end
    return "".join(out) + text[at:]


def backslashed_paths(text: str) -> tuple[str, ...]:
    """The paths of the repository files ``text`` cites that hold a `\\`, as written (see
    :func:`slashed_paths`)."""
    return tuple(text[start:end] for start, end in _backslashed(text))


def _backslashed(text: str) -> list[tuple[int, int]]:
    if "\\" not in text:
        return []
    return [m.span("path") for m in _CITED_FILE.finditer(text) if "\\" in m["path"]]


#: A path on one computer's disk, at the start of a word of a `source:`: a Windows drive (`C:\\`,
#: `C:/`), a network share (`\\\\server\\`), a `file:` URL, a home folder (`~/`), or an absolute
#: path under a folder where people's own files are (`/home/`, `/Users/`, `/tmp/`...). Not every
#: `/`-rooted word: `/r/boardgames` names no disk.
_LOCAL_PATH = re.compile(
    r"(?:^|(?<=[\s;(]))(?P<path>(?:[A-Za-z]:[\\/]|\\\\[^\\\s;()]|file:/|~[\\/]"
    r"|/(?:home|Users|root|tmp|mnt|media|Volumes|private|var|opt|srv)/)[^\s;)]*)",
    re.IGNORECASE,
)


def may_name_a_path(text: str) -> bool:
    """Whether ``text`` may cite a path :func:`backslashed_paths` or :func:`local_paths` finds (the
    walk keeps only the `source:` texts those two read)."""
    return "\\" in text or _LOCAL_PATH.search(text) is not None


def local_paths(text: str) -> tuple[str, ...]:
    """The paths on one computer's disk that ``text`` cites, as written: a file no reader of the
    data can open (Q012).

    >>> local_paths("C:\\\\Users\\\\me\\\\notes.txt; o/r@" + "a" * 40 + ":x.yaml")
    ('C:\\\\Users\\\\me\\\\notes.txt',)
    >>> local_paths("house rule (see ~/civ/notes.md)"), local_paths("/r/boardgames: a thread, 2/3/2020")
    (('~/civ/notes.md',), ())
    >>> local_paths("community/x.csv (file:///home/me/x.csv)"), local_paths("house rule: 2 a:b/c")
    (('file:///home/me/x.csv',), ())
    """
    return tuple(found["path"] for found in _LOCAL_PATH.finditer(text))


def with_slashes(path: str) -> str:
    """``path`` with each run of `\\` a `/` (`a\\\\b`, a Windows path written in YAML's escapes, too)."""
    return re.sub(r"\\+", "/", path)


#: The Python types of the values each JSON schema `type` takes (the schema's judges share it).
JSON_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
}
