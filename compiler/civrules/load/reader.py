"""Read YAML safely into a :class:`Document`, turning every problem into a diagnostic.

The reader drives libyaml's event parser (PyYAML's C extension, or its pure-Python parser where the
extension is missing) and builds plain data itself, iteratively, so that:

- every mapping, sequence and scalar keeps its file, line and column;
- scalars are resolved by YAML 1.2's core schema (``yes`` is a string, ``true`` a boolean), the
  dialect editors and check-jsonschema use;
- any tag outside the core schema, duplicate and non-string keys, several documents, undefined
  aliases, too-deep nesting and alias expansion beyond a bound are diagnostics;
- alias expansion is counted, never materialised, so a billion-laughs file is refused at once;
- nothing recurses, so depth is bounded by the limit, not by the C stack.
"""

from __future__ import annotations

import math
import re
import sys
import unicodedata
from array import array
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import yaml

from civrules.diagnostics import Diagnostic, Related, Severity, Span, Unreadable, blanks, codes, named, stopped, words
from civrules.diagnostics.escape import INVISIBLE
from civrules.diagnostics.words import named_path
from civrules.load.document import Document, NodePath, NodeTable, pack_position, unpack_position
from civrules.load.lines import LINE_END, line_column
from civrules.support import files

try:
    from yaml._yaml import CParser as _Parser
except ImportError:  # pragma: no cover - exercised only where libyaml is missing
    from yaml.parser import Parser as _PyParser
    from yaml.reader import Reader as _Reader
    from yaml.scanner import Scanner as _Scanner

    class _Parser(_Reader, _Scanner, _PyParser):  # type: ignore[no-redef]
        def __init__(self, stream: str) -> None:
            _Reader.__init__(self, stream)
            _Scanner.__init__(self)
            _PyParser.__init__(self)


def event_parser(text: str) -> Any:
    """The event parser the reader reads ``text`` with (libyaml's, or PyYAML's own where the
    extension is missing): ``get_event()`` gives one event at a time, None at the end."""
    return _Parser(text)


@dataclass(frozen=True, slots=True)
class Limits:
    """Bounds that keep hostile files from taking unbounded time or memory."""

    max_bytes: int = 8 * 1024 * 1024
    max_depth: int = 100
    max_nodes: int = 1_000_000
    #: Diagnostics listed per file; one line (R011) counts the rest. Bounds the work too: schema
    #: validation of a file stops at the first problem beyond it.
    max_diagnostics: int = 100


_CORE = "tag:yaml.org,2002:"
_ALLOWED_TAGS = {_CORE + t for t in ("str", "int", "float", "bool", "null", "map", "seq")}

# What an explicit core tag (`!!int 45`) requires its scalar to resolve to.
_EXPLICIT_TYPES: dict[str, type | tuple[type, ...]] = {
    "int": int,
    "float": (int, float),
    "bool": bool,
    "null": type(None),
}
#: What each scalar tag of :data:`_ALLOWED_TAGS` takes, as a hint says it.
_TAGGED_VALUES: dict[str, str] = {
    "int": "an integer",
    "float": "a number",
    "bool": "`true` or `false`",
    "null": "`null` (or nothing)",
}
_NULL = re.compile(r"^(?:~|null|Null|NULL|)$")
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT10 = re.compile(r"^[-+]?[0-9]+$")
_INT8 = re.compile(r"^0o[0-7]+$")
#: A decimal integer written with a leading zero (`012`, `-07`): YAML 1.1 tools read it as octal.
_LEADING_ZERO = re.compile(r"^[-+]?0[0-9]+$")
_INT16 = re.compile(r"^0x[0-9a-fA-F]+$")
_FLOAT = re.compile(r"^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$")
_INF = re.compile(r"^[-+]?\.(?:inf|Inf|INF)$")
_NAN = re.compile(r"^\.(?:nan|NaN|NAN)$")
#: A plain integer the reader takes as it is: no sign, no leading zero, a few digits.
_PLAIN_COUNT = re.compile(r"(?:0|[1-9][0-9]{0,17})\Z")
#: The plain scalars that are a boolean or null; any other plain scalar starting with one of
#: ``_LETTER_START`` is a string.
_PLAIN_WORDS: dict[str, bool | None] = {**_BOOL, **dict.fromkeys(("~", "null", "Null", "NULL", ""))}
_LETTER_START = frozenset("nNtTfF")
#: First characters of a plain scalar that may resolve to something other than a string.
_SPECIAL_START = frozenset(("", *"0123456789+-.~nNtTfF"))
# Characters YAML forbids in a stream (1.2, 5.1): C0 controls but tab/LF/CR, DEL, C1 but NEL, surrogates, U+FFFE/F;
# and some it allows that make text read otherwise than it is (a line break that is not one: NEL,
# U+2028/9; a bidirectional override that reorders what a reviewer sees): refused as well. Written
# as the forbidden characters, not as the complement of the printable ones (``[^...]`` up to
# U+10FFFF): the same set, a few milliseconds less to compile at every start.
_NON_PRINTABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028-\u202e\u2066-\u2069\ud800-\udfff\ufffe\uffff]")
#: What an escape in a quoted scalar (`"\x1b"`, `"\0"`, `"\ud800"`) may not produce: the characters
#: above, and the controls YAML allows only as escapes. Tab and line feed are text (a multi-line note).
_UNSAFE_VALUE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
#: The invisible format characters (Unicode's Cf) a quoted source line shows escaped (the soft
#: hyphen, zero width space, direction marks, word joiner, a byte order mark inside the text, the
#: tag characters; not the joiners, which scripts write inside words): L015 warns of each.
_INVISIBLE = re.compile(f"[{INVISIBLE}]")
_INVISIBLE_HINT = (
    "delete it: it prints as nothing, so a name holding it looks the same as one without, "
    "yet reads as another (text copied from a web page or a PDF brings such characters along)"
)


def _character_name(character: str) -> str:
    """``U+200B ZERO WIDTH SPACE``: a character by its code point and its Unicode name."""
    name = unicodedata.name(character, "")
    return f"U+{ord(character):04X}" + (f" {name}" if name else "")


#: The ASCII characters a file may hold (tab, line feed, carriage return, and the printable ones):
#: none of them is in ``_NON_PRINTABLE``.
_TEXT_BYTES = bytes((9, 10, 13, *range(32, 127)))


def forbidden_character(text: str) -> re.Match[str] | None:
    """The first character of ``text`` that the reader refuses in a file (``_NON_PRINTABLE``), or None.

    The expression is matched against the text only where the text holds such a character: what
    is left of its UTF-8 once every allowed ASCII byte is deleted (in C, a table look-up a byte)
    is looked through first. A multi-byte character's bytes are all above 127, so that rest is
    exactly the text's other characters, in order, and holds a refused one where the text does
    (matching the whole of a rule file character by character cost about 1 ms a run, every
    manifest's header included).
    """
    rest = text.encode("utf-8", "surrogatepass").translate(None, _TEXT_BYTES)
    if not rest or _NON_PRINTABLE.search(rest.decode("utf-8", "surrogatepass")) is None:
        return None
    return _NON_PRINTABLE.search(text)


def has_forbidden_character(text: str) -> bool:
    """Whether ``text`` holds a character the reader refuses in a file (see ``_NON_PRINTABLE``)."""
    return forbidden_character(text) is not None


def string_scalar(value: str, plain: bool) -> str | None:
    """``value`` when the reader surely resolves that scalar (``plain``, or quoted) to this string;
    None where it is a number, a boolean or null, or text the reader judges further (an escape
    that makes a control character, a plain scalar that might be a number)."""
    if not plain:  # quoted: a string, unless an escape makes a control character
        return value if _UNSAFE_VALUE.search(value) is None else None
    first = value[:1]
    if first not in _SPECIAL_START:
        return value
    if first in _LETTER_START and value not in _PLAIN_WORDS:
        return value
    return None


_HALF = (1 << 64) - 1


class _AbortError(Exception):
    """Stops reading a file after a diagnostic that makes the rest meaningless."""


def read_yaml_file(path: Path, display: str, limits: Limits = Limits()) -> tuple[Document | None, list[Diagnostic]]:
    """Read ``path`` (shown as ``display`` in diagnostics).

    Returns the document (None when it could not be read at all) and the diagnostics found. The
    file is read through :func:`civrules.support.files.read_file`: a link, a FIFO, a device or a folder is
    refused unread, and no more than ``limits.max_bytes`` are read whatever the file's size says.
    """
    try:
        raw = files.read_file(path, limits.max_bytes)
    except files.RefusedError as refused:
        if refused.kind == "large":
            size = f"{refused.size:,} bytes, " if refused.size is not None else ""
            return None, [
                _file_diag(
                    codes.TOO_LARGE,
                    display,
                    f"file is {size}more than the {limits.max_bytes:,} bytes civrules reads",
                    hint="split the file, or raise the bound with --max-file-size",
                )
            ]
        if refused.kind == "link":
            message = f"cannot read {named_path(display)}: it is a symbolic link"
            hint = "replace the link by the file itself"
            return None, [_file_diag(codes.UNREADABLE, display, message, hint, reason="it is a symbolic link")]
        return None, [unreadable_file(refused, display)]
    except OSError as error:
        return None, [unreadable_file(files.RefusedError("unreadable", "", error=error.errno), display)]
    return read_yaml_bytes(raw, display, limits)


def unreadable_file(refused: files.RefusedError, display: str) -> Diagnostic:
    """L012 for a rule file that was not read (not a link or too large: those have codes of their
    own): one sentence saying why, and the hint its cause calls for.

    The reason is carried as data too (:attr:`~civrules.diagnostics.Unreadable.reason`): a
    manifest's diagnostic for the path it names says it again in its own words.
    """
    import errno

    number = refused.errno
    if refused.kind == "missing":
        reason, hint = "no such file", "check the path: it is relative to the folder civrules was given"
    elif number == errno.EISDIR:
        reason, hint = "it is a folder", "a rule file is a regular YAML file: name the files in the folder"
    elif refused.not_folder:
        reason = refused.reason
        hint = f"{named_path(refused.not_folder)} must be a folder of rule files: move what is there away"
    elif refused.changing:
        reason, hint = files.CHANGING, "run civrules again once the file is saved"
    elif refused.kind == "special":
        reason = "it is not a regular file (a FIFO, a device or a socket)"
        hint = "a rule file is a regular YAML file"
    elif number in (errno.EACCES, errno.EPERM):
        reason = "permission denied"
        hint = "check the file's permissions: civrules must be able to read it, and to enter each folder above it"
    elif number == errno.EIO:
        reason, hint = files.cause(number), "check the disk, then run civrules again"
    elif number == errno.ENAMETOOLONG:
        reason, hint = files.cause(number), "give the file (or a folder above it) a shorter name"
    elif files.limit_hint(number) is not None:
        reason, hint = files.cause(number), str(files.limit_hint(number))
    else:
        reason, hint = files.cause(number), "check the file and its permissions"
    return _file_diag(codes.UNREADABLE, display, f"cannot read {named_path(display)}: {reason}", hint, reason=reason)


def unreadable_folder(number: int, display: str) -> Diagnostic:
    """L012 for a folder under the rules folder that could not be listed (``number``: its errno):
    the rule files in it are not read, and would otherwise be silently missing."""
    import errno

    if number in (errno.EACCES, errno.EPERM):
        hint = "check the folder's permissions: civrules must be able to list it and to enter it (read and execute)"
    elif number == errno.EIO:
        hint = "check the disk, then run civrules again"
    else:
        hint = files.limit_hint(number) or "check the folder and its permissions"
    cause = files.cause(number)
    message = f"cannot list the folder {named_path(display)}: {cause}; the rule files in it are not read"
    return _file_diag(codes.UNREADABLE, display, message, hint, reason=cause)


def read_yaml_bytes(raw: bytes, display: str, limits: Limits = Limits()) -> tuple[Document | None, list[Diagnostic]]:
    """Read YAML from bytes; see :func:`read_yaml_file`."""
    if len(raw) > limits.max_bytes:
        return None, [
            _file_diag(
                codes.TOO_LARGE,
                display,
                f"file is {len(raw):,} bytes, more than the {limits.max_bytes:,} bytes civrules reads",
                hint="split the file, or raise the bound with --max-file-size",
            )
        ]
    text, diagnostic = _decode(raw, display)
    if diagnostic is not None:
        return None, [diagnostic]
    assert text is not None
    return read_yaml_text(text, display, limits)


def scalar_text(value: str) -> str:
    """``value`` written as a YAML scalar that reads back as that very string: plain where civrules'
    reader reads it so, and YAML 1.1 too (yamllint's `truthy`, other tools: `yes`, `on`), else in
    double quotes. An id or name civrules writes into YAML goes through it: `id: true` is a boolean.

    >>> scalar_text("house-rules"), scalar_text("true"), scalar_text("yes"), scalar_text("12")
    ('house-rules', '"true"', '"yes"', '"12"')
    """
    import json

    line = f"v: {value}\n"
    document, problems = read_yaml_text(line, "<scalar>")
    plain = not problems and document is not None and document.data == {"v": value}
    if plain:
        try:
            plain = yaml.safe_load(line) == {"v": value}
        except yaml.YAMLError:
            plain = False
    return value if plain else json.dumps(value, ensure_ascii=False)


def read_yaml_text(
    text: str, display: str, limits: Limits = Limits(), *, anchors: Mapping[str, tuple[Any, NodePath]] | None = None
) -> tuple[Document | None, list[Diagnostic]]:
    """Read YAML from text already decoded; see :func:`read_yaml_file`. ``anchors``: scalars
    anchored before the text (name: value and path), which its aliases may repeat (a part of a
    file read again: :mod:`civrules.load.splice`)."""
    conflict = conflicted(text, display)
    if conflict is not None:
        return None, [conflict]
    bad = forbidden_character(text)
    if bad is not None:
        line, column = line_column(text, bad.start())
        return None, [
            Diagnostic(
                codes.BAD_ENCODING.code,
                codes.BAD_ENCODING.severity,
                f"control character U+{ord(bad.group()):04X} is not allowed in YAML",
                Span(display, line, column, line, column + 1),
                hint="remove the character; YAML files hold printable text only",
                subjects=(display,),
            )
        ]
    builder = _Builder(display, limits)
    builder.maybe_blank = "write " in text
    if not text.isascii():
        builder.find_invisible(text)
    for name, (value, path) in (anchors or {}).items():
        builder.anchors[name] = (value, 1, 0)
        builder.anchor_paths[name] = path
    try:
        builder.run(_Parser(text))
    except _AbortError:
        return None, builder.listed()
    except yaml.MarkedYAMLError as error:
        if "maximum nesting depth" in (error.problem or "") and error.problem_mark is not None:
            try:
                builder.read_ahead(text, error.problem_mark)
            except _AbortError:
                return None, builder.listed()
        return None, [*builder.listed(), _syntax_diag(error, display, limits, text)]
    except yaml.YAMLError as error:  # pragma: no cover - libyaml reports marked errors
        return None, [*builder.listed(), _file_diag(codes.YAML_SYNTAX, display, str(error), _SYNTAX_HINT)]
    builder.warn_invisible()  # read whole: at a syntax error, its hint names such a character
    if builder.documents == 0:
        return None, [
            _file_diag(
                codes.EMPTY_FILE,
                display,
                "the file holds no YAML document",
                hint="a rule file starts with `kind:` and holds its data",
            )
        ]
    document = Document(
        display,
        builder.root,
        refused=builder.refused,
        whole_floats=builder.whole_floats,
        aliases=builder.aliases,
        table=builder.table,
        # Unknown (None) when a name is anchored twice, or on a key (a node with no path).
        anchors=None
        if builder.anchored_twice or builder.anchors.keys() != builder.anchor_paths.keys()
        else builder.anchor_paths,
    )
    return document, builder.listed()


#: Byte order marks of the encodings civrules does not read, longest first.
_BYTE_ORDER_MARKS = (
    (b"\xff\xfe\x00\x00", "UTF-32"),
    (b"\x00\x00\xfe\xff", "UTF-32"),
    (b"\xff\xfe", "UTF-16"),
    (b"\xfe\xff", "UTF-16"),
)


def _decode(raw: bytes, display: str) -> tuple[str | None, Diagnostic | None]:
    # UTF-32's little-endian byte order mark begins with UTF-16's: it is looked for first.
    for mark, encoding in _BYTE_ORDER_MARKS:
        if raw.startswith(mark):
            return None, _file_diag(
                codes.BAD_ENCODING,
                display,
                f"the file is {encoding}; civrules reads UTF-8",
                hint="save the file as UTF-8",
            )
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError as error:
        prefix = raw[: error.start].decode("utf-8", errors="replace")
        line, column = line_column(prefix, len(prefix))
        return None, Diagnostic(
            codes.BAD_ENCODING.code,
            codes.BAD_ENCODING.severity,
            f"invalid UTF-8: byte 0x{raw[error.start]:02X} cannot start or continue a character",
            Span(display, line, column, line, column + 1),
            hint="save the file as UTF-8",
            subjects=(display,),
        )


def _file_diag(
    code: codes.Code, display: str, message: str, hint: str | None = None, *, reason: str | None = None
) -> Diagnostic:
    """A diagnostic about the file ``display`` as a whole: the file is its subject; L012's says why
    it was not read (``reason``) as data (:class:`~civrules.diagnostics.Unreadable`)."""
    if reason is not None:
        return Unreadable(
            code.code, code.severity, message, Span.at(display), hint=hint, subjects=(display,), reason=reason
        )
    return Diagnostic(code.code, code.severity, message, Span.at(display), hint=hint, subjects=(display,))


def _syntax_diag(error: yaml.MarkedYAMLError, display: str, limits: Limits, text: str = "") -> Diagnostic:
    if (
        error.context == "while scanning a quoted scalar"
        and error.context_mark is not None
        and "end of stream" in (error.problem or "")
    ):
        return _unclosed_quote(error.context_mark, error.problem_mark, display, text)
    mark = error.problem_mark or error.context_mark
    line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    problem = error.problem or "invalid YAML"
    if "maximum nesting depth" in problem:
        # libyaml's own guard fired, and no bound of civrules' is crossed in what it read ahead
        # (see _Builder.read_ahead): a file deeper than libyaml reads is deeper than civrules does.
        return Diagnostic(
            codes.TOO_DEEP.code,
            codes.TOO_DEEP.severity,
            f"nesting deeper than {limits.max_depth} levels",
            Span(display, line, column, line, column + 1),
            hint="flatten the structure; rule files need only a few levels",
            subjects=(display,),
        )
    message = f"{error.context}: {problem}" if error.context else problem
    related: tuple[Related, ...] = ()
    if (
        error.context_mark is not None
        and error.problem_mark is not None
        and (error.context_mark.line, error.context_mark.column) != (error.problem_mark.line, error.problem_mark.column)
    ):
        context = error.context_mark
        related = (
            Related(
                Span(display, context.line + 1, context.column + 1, context.line + 1, context.column + 2),
                error.context or "started here",
            ),
        )
    return Diagnostic(
        codes.YAML_SYNTAX.code,
        codes.YAML_SYNTAX.severity,
        message,
        Span(display, line, column, line, column + 1),
        hint=_invisible_character_hint(text, error)
        or _syntax_hint(message, _character_at(text, mark), _Context.of(text, error)),
        related=related,
        subjects=(display,),
    )


def _invisible_character_hint(text: str, error: yaml.MarkedYAMLError) -> str | None:
    """The hint of a syntax error at an invisible format character (Unicode's Cf: a byte order
    mark a `cat` left at a later line's start, a zero width space, a word joiner), or None.

    Looked for at libyaml's marks and just before them (libyaml steps over a byte order mark at a
    line's start and reports the column after it), before the hint of libyaml's wording: that
    one describes a line that looks right (round 19: "indent it like the keys beside it").
    """
    lines = text.split("\n")
    for mark in (error.problem_mark, error.context_mark):
        if mark is None or mark.line >= len(lines):
            continue
        line = lines[mark.line]
        for column in (mark.column, mark.column - 1):
            if 0 <= column < len(line) and unicodedata.category(line[column]) == "Cf":
                char = line[column]
                name = unicodedata.name(char, "format character")
                return (
                    f"line {mark.line + 1}, column {column + 1} holds the invisible U+{ord(char):04X} {name}, "
                    "which YAML reads as text, not as space: remove it"
                )
    return None


def _character_at(text: str, mark: Any) -> str:
    """The character at libyaml's ``mark``, by its line and column (its index may count bytes),
    or "" past the end of its line."""
    if mark is None:
        return ""
    lines = text.split("\n", mark.line + 1)
    line = lines[mark.line] if mark.line < len(lines) else ""
    return line[mark.column] if mark.column < len(line) else ""


def _unclosed_quote(start: Any, end: Any, display: str, text: str) -> Diagnostic:
    """A quoted value never closed: located at its opening quote, where the fix is, with the end of
    the file (where libyaml noticed) as a note."""
    quote = _character_at(text, start) or '"'
    line, column = start.line + 1, start.column + 1
    related: tuple[Related, ...] = ()
    if end is not None:
        related = (
            Related(
                Span(display, end.line + 1, end.column + 1, end.line + 1, end.column + 2),
                f"the file ends here, still inside the {quote}…{quote}",
            ),
        )
    return Diagnostic(
        codes.YAML_SYNTAX.code,
        codes.YAML_SYNTAX.severity,
        "the quoted value that starts here is never closed: the rest of the file is read as part of it",
        Span(display, line, column, line, column + 1),
        hint=f"close the quote: end the value with `{quote}` (on this line, or where the value ends)",
        related=related,
        subjects=(display,),
    )


#: The hint of a syntax error no more particular hint fits.
_SYNTAX_HINT = (
    "check this line and the one before it: every quote and bracket closed, and the line indented "
    "with spaces like the keys beside it"
)

#: The hint of a tab where YAML wants spaces.
_TAB_HINT = "replace the tab with spaces: YAML does not allow tabs for indentation"

#: libyaml's problem (a part of its text), and the hint for it; the first that fits is given.
_SYNTAX_HINTS = (
    ("tab character", _TAB_HINT),
    (
        "mapping values are not allowed",
        "a value containing ': ' must be quoted; or, if this line is a key of its own, indent it like the keys "
        "beside it",
    ),
    ("expected ',' or ']'", "close the bracket, or separate the items with commas"),
    ("expected ',' or '}'", "close the bracket, or separate the items with commas"),
    (
        "did not find expected key",
        "this line is no `key: value` of the mapping it is in: indent it like the keys beside it, begin a list "
        "item with `- ` under a key, and put nothing after a quoted value but a comment",
    ),
    (
        "did not find expected '-' indicator",
        "this line is inside a list: begin it with `- ` like the items above it, or indent it like the keys "
        "of the item above it",
    ),
    ("could not find expected ':'", "write `:` after the key (`name: value`), or quote a value that runs over lines"),
    (
        "unknown escape character",
        "in double quotes a backslash begins an escape (`\\n`, `\\t`): write `\\\\` for a backslash, or use "
        "single quotes",
    ),
    (
        "expected alphabetic or numeric character",
        "an anchor (`&`) or an alias (`*`) needs a name after it; quote the value if the sign is text",
    ),
    (
        "expected comment or line break",
        "after `|` or `>` only `+`, `-`, an indentation digit or a comment may follow: put the text on the "
        "lines below, indented",
    ),
    ("expected <document start>", "remove what follows the `...` line (the end of the document), or that line"),
    ("directive", "remove the `%` line: rule files need no directives"),
    ("tag", "remove the tag; only plain strings, numbers, booleans, null, lists and mappings are read"),
    (
        "block sequence entries are not allowed",
        "a `- ` list item cannot begin on its key's line: put the list on lines of its own under the key",
    ),
    ("expected node content", "a value is missing here: write it, or remove the comma or the `- `"),
)


def _syntax_hint(problem: str, character: str = "", context: _Context | None = None) -> str:
    """The hint of libyaml's ``problem`` (with its context), found at ``character``, on the lines
    of ``context`` (the file's text around the error) when known.

    The character decides first: libyaml words a tab that begins a line's indentation as a character
    that "cannot start any token", as it words a backtick or an `@`, and only a tab's fix is spaces.
    Then the lines decide where they can: libyaml words a key indented one column short inside a
    list item, and one indented short in a mapping, by what it expected, not by what the line is, so
    the hint names the line above that the line should be indented like, and its column.
    """
    if character == "\t":
        return _TAB_HINT
    if "cannot start any token" in problem:
        shown = "a backtick" if character == "`" else f"`{character}`" if character.strip() else "this character"
        return f'quote the value ("..."): {shown} cannot begin unquoted text in YAML'
    particular = context.hint(problem) if context is not None else None
    return particular or next((hint for part, hint in _SYNTAX_HINTS if part in problem), _SYNTAX_HINT)


#: How far above the error the lines are read for its context: enough for any block a designer
#: indents by hand, and bounded, so a hostile file's error costs no walk of the whole file.
_CONTEXT_LINES = 200

#: A plain key at the start of a line's content: ``name:`` followed by a space or the line's end.
_PLAIN_KEY = re.compile(r"([^\s#'\"\[\]{}&*!|>%@`,:-][^:#]*?|-[^\s:#][^:#]*?):(?:[ \t]|$)")


@dataclass(frozen=True)
class _Shape:
    """What a line begins with: the columns of its list dashes (``- - x`` has two), the column of
    its content after them, its plain key if the content begins with one, and whether anything
    follows that key on the line."""

    dashes: tuple[int, ...]
    column: int
    key: str | None
    valued: bool

    @classmethod
    def of(cls, line: str) -> _Shape | None:
        """The shape of ``line``, or None for a blank or comment line."""
        stripped = line.lstrip(" ")
        if not stripped.strip() or stripped.startswith("#"):
            return None
        column, dashes, end = len(line) - len(stripped), [], len(line.rstrip())
        while line[column : column + 2] == "- " or (column + 1 == end and line[column] == "-"):
            dashes.append(column)
            column += 1
            while line[column : column + 1] == " ":
                column += 1
        found = _PLAIN_KEY.match(line, column)
        key = found.group(1).rstrip() if found else None
        valued = bool(found) and bool(line[found.end() :].split("#", 1)[0].strip()) if found else False
        return cls(tuple(dashes), column, key, valued)

    @property
    def start(self) -> int:
        """The column the line's first token starts at: its first dash, or its content."""
        return self.dashes[0] if self.dashes else self.column

    def keys(self) -> tuple[tuple[int, str], ...]:
        """The keys this line shows to lines below: its key, at its content's column."""
        return ((self.column, self.key),) if self.key is not None else ()


#: The lines git writes around each side of a merge conflict, in their order (``|||||||``, the
#: base's side of `merge.conflictStyle diff3`, is between the first two).
_CONFLICT_LINES = re.compile(
    r"^(<<<<<<<(?:[ \t][^\n]*)?|\|\|\|\|\|\|\|(?:[ \t][^\n]*)?|=======[ \t]*|>>>>>>>(?:[ \t][^\n]*)?)\r?$",
    re.MULTILINE,
)


def conflict_markers(text: str) -> list[int]:
    """The lines (1-based) of the merge-conflict markers git left in ``text``: a ``<<<<<<<`` line,
    then a ``=======`` one, then a ``>>>>>>>`` one, each of every such conflict; none where the
    text holds no whole conflict (a ``=======`` alone may be a block scalar's)."""
    if "<<<<<<<" not in text:  # (most files: no line scanned)
        return []
    found: list[int] = []
    pending: list[int]
    expected, pending = "<", []
    for match in _CONFLICT_LINES.finditer(text):
        mark = match.group(1)[0]
        line = text.count("\n", 0, match.start()) + 1
        if mark == "<":
            expected, pending = "=", [line]
        elif mark == "|" and expected == "=":
            pending.append(line)
        elif mark == "=" and expected == "=":
            expected = ">"
            pending.append(line)
        elif mark == ">" and expected == ">":
            found += [*pending, line]
            expected, pending = "<", []
    return found


def conflicted(text: str, display: str) -> Diagnostic | None:
    """L001 for the file ``display`` whose ``text`` holds the merge-conflict markers git leaves
    (:func:`conflict_markers`), said once at the first, or None: the YAML error at a marker, the
    R022 of the file not marked resolved (`--staged`) and errors of what the file no longer
    defined were three diagnostics or more for one cause."""
    lines = conflict_markers(text)
    if not lines:
        return None
    shown = ", ".join(str(line) for line in lines[:6]) + (", ..." if len(lines) > 6 else "")
    return Diagnostic(
        codes.YAML_SYNTAX.code,
        codes.YAML_SYNTAX.severity,
        f"this file has unresolved merge conflict markers (lines {shown}): nothing in it is read",
        Span(display, lines[0], 1, lines[0], 8),
        hint=(
            "resolve the conflict: keep the lines you want between `<<<<<<<` and `>>>>>>>`, delete the "
            f"`<<<<<<<`, `=======` and `>>>>>>>` lines, then mark it resolved: {words.ticked(_git_add(display))}"
        ),
        subjects=(display,),
    )


def _git_add(display: str) -> str:
    """`git add` of the file shown as ``display``, as one word of a command pasted into a shell."""
    from civrules.diagnostics.escape import printable
    from civrules.support.install import path_word

    return f"git add {printable(path_word(display))}"


#: How the lines git writes around a merge conflict begin.
_CONFLICT_MARKERS = ("<<<<<<< ", "<<<<<<<\t", "=======", ">>>>>>> ", "||||||| ")


@dataclass(frozen=True)
class _Context:
    """The lines of a syntax error: the line libyaml stopped at (``line``, ``column``, 0-based) and
    a bounded number of lines above it, for the hints that depend on the line's indentation."""

    lines: tuple[str, ...]  # from ``first`` to the error's line
    first: int
    line: int
    column: int
    context_line: int | None

    @classmethod
    def of(cls, text: str, error: yaml.MarkedYAMLError) -> _Context | None:
        mark = error.problem_mark
        if not text or mark is None:
            return None
        first = max(0, mark.line - _CONTEXT_LINES)
        lines = [line.rstrip("\r") for line in text.split("\n", mark.line + 1)[first : mark.line + 1]]
        if len(lines) != mark.line + 1 - first:
            return None
        context = error.context_mark
        return cls(tuple(lines), first, mark.line, mark.column, None if context is None else context.line)

    def hint(self, problem: str) -> str | None:
        """The hint the lines give for ``problem``, or None to fall back on the table's."""
        for index, line in enumerate(self.lines):
            if line.startswith(_CONFLICT_MARKERS):
                # `<<<<<<< HEAD` read as a key wanting its `:`: the hint must not make a marker a key.
                return (
                    f"line {self.first + index + 1} is a merge-conflict marker (`{line[:7]}`): the file holds an "
                    "unresolved merge conflict; keep the lines you want between the markers, delete the "
                    "`<<<<<<<`, `=======` and `>>>>>>>` lines, then `git add` the file"
                )
        here = _Shape.of(self.lines[-1])
        if here is None:
            return None
        if "mapping values are not allowed" in problem:
            return self._colon_hint(here)
        if "did not find expected '-' indicator" in problem or "did not find expected key" in problem:
            if self.column > here.start:
                rest = self.lines[-1][self.column :].split(" #", 1)[0].strip()
                if rest and "did not find expected key" in problem:
                    # ``name: "x" y``: text after a quoted value.
                    return f"end the line after its value: put `{rest}` inside the quotes, or after a `#` as a comment"
                return None
            return self._indent_hint(here, in_list="'-' indicator" in problem)
        if "could not find expected ':'" in problem and self.context_line is not None:
            started = self._at(self.context_line) or ""
            shape = _Shape.of(started)
            if shape is not None and shape.key is None:
                word = started[shape.column :].split("#", 1)[0].strip()
                if word and ":" not in word:
                    return (
                        f"write `:` after the key on line {self.context_line + 1} (`{word}: value`), or "
                        "quote a value that runs over lines"
                    )
        return None

    def _at(self, line: int) -> str | None:
        index = line - self.first
        return self.lines[index] if 0 <= index < len(self.lines) else None

    def _above(self) -> list[tuple[int, _Shape]]:
        """The lines above the error's, nearest first, with their shapes (blank lines left out)."""
        shaped = []
        for index in range(len(self.lines) - 2, -1, -1):
            shape = _Shape.of(self.lines[index])
            if shape is not None:
                shaped.append((self.first + index, shape))
        return shaped

    def _colon_hint(self, here: _Shape) -> str | None:
        line = self.lines[-1]
        if here.key is not None and self.column == here.column + len(here.key) and not here.dashes:
            # ``name: x`` then ``  id: y``: a key indented under a key that already has a value.
            for number, shape in self._above():
                if shape.key is not None and shape.column < here.column:
                    key, above = words.clipped(here.key), words.clipped(shape.key)
                    return (
                        f"indent `{key}:` like `{above}:` on line {number + 1} (column {shape.column + 1}): "
                        f"`{above}` has a value of its own, so no key can be indented under it"
                    )
            return None
        if here.key is not None and self.column > here.column + len(here.key):
            value = line[here.column + len(here.key) + 1 :].split(" #", 1)[0].strip()
            if value and value[0] not in "\"'[{|>&*!":
                quoted = '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
                return f"a value containing `: ` must be quoted: write `{here.key}: {quoted}`"
        return None

    def _indent_hint(self, here: _Shape, in_list: bool) -> str | None:
        above = self._above()
        column = here.start
        if here.dashes:
            # A list item indented unlike the items above it.
            items = [(number, shape) for number, shape in above if shape.dashes]
            deeper = next(((n, s) for n, s in items if s.dashes[-1] > column), None)
            if deeper is not None:
                number, shape = deeper
                dash = next(d for d in shape.dashes if d >= column)
                return (
                    f"indent this `- ` like the item on line {number + 1} (column {dash + 1}): the items of "
                    "a list begin in one column"
                )
            parent = next(((n, s) for n, s in above if s.key is not None and not s.valued), None)
            if parent is not None:
                number, shape = parent
                return (
                    f"a list item goes under its key, indented more: indent this `- ` under `{shape.key}:` "
                    f"on line {number + 1} (column {shape.column + 3})"
                )
            return (
                "a list item goes under a key: write the key on a line of its own above this one "
                "(`name:`), then indent this `- ` under it"
            )
        if here.key is None:
            return None
        name = f"`{here.key}:`"
        keys = [(number, shape) for number, shape in above if shape.key is not None]
        deeper = next(((n, s) for n, s in keys if s.column > column), None)
        shallower = next(((n, s) for n, s in keys if s.column < column), None)
        if in_list:
            # Inside a list, short of its item's keys: a key of the item above, or a new item.
            list_dash = next((s.dashes[-1] for _, s in above if s.dashes and s.dashes[-1] <= column), None)
            options = []
            if deeper is not None:
                number, shape = deeper
                options.append(
                    f"indent {name} like `{shape.key}:` on line {number + 1} (column {shape.column + 1}), "
                    "to make it a key of the item above"
                )
            if list_dash is not None:
                options.append(f"begin a new item with `- ` at column {list_dash + 1} (`- {here.key}: ...`)")
            return "; or ".join(options) or None
        options = []
        for found in (deeper, shallower):
            if found is not None:
                number, shape = found
                options.append(f"like `{shape.key}:` on line {number + 1} (column {shape.column + 1})")
        if not options:
            return None
        return f"indent {name} " + ", or ".join(options) + ": the keys of a mapping begin in one column"


class _Frame:
    """An open mapping or sequence while its events arrive."""

    __slots__ = (
        "anchor",
        "block",
        "container",
        "event",
        "height",
        "indexed",
        "is_key",
        "is_list",
        "key",
        "key_end",
        "key_start",
        "keys",
        "nodes",
        "part",
        "positions",
        "records",
        "refused",
        "start",
    )

    def __init__(
        self,
        container: dict[str, Any] | list[Any],
        part: str | int | None,
        start: int,
        anchor: str | None,
        is_key: bool,
    ) -> None:
        self.container = container
        self.is_list = isinstance(container, list)
        self.part = part  # its key or index in its parent (None: the root, or a collection used as a key)
        self.start = start  # the start half of its position
        self.anchor = anchor
        self.nodes = 1
        self.height = 1  # levels of nesting, counting what aliases in it bring
        self.key: Any = None  # a str, or _DISCARD when the entry is refused
        self.key_start = 0
        self.key_end = 0
        self.is_key = is_key  # a collection used as a mapping key: read, then refused
        self.refused = False  # a collection with a forbidden tag: read, then replaced by null
        self.event: Any = None  # its start event: whether it is a flow collection, and where
        # The positions of its children, six values each (see NodeTable.add_block), and their keys:
        # added to the document's table as one block when the collection ends.
        self.records: array[int] = array("Q")
        self.keys: list[str | None] = []
        self.block = 0  # the node number of its first child, once added
        # Each key's place among ``keys``, made only when a key comes twice, and extended from the
        # ``indexed`` keys already placed: a duplicate's first definition is looked up, not searched
        # for (20,000 keys written twice took 4.9 s, the square of the mapping).
        self.positions: dict[str | None, int] | None = None
        self.indexed = 0


_DISCARD = object()  # the value of an entry whose key was refused


class _Builder:
    """Turns parser events into data and positions, one event at a time."""

    def __init__(self, display: str, limits: Limits) -> None:
        self.display = display
        self.limits = limits
        self.wide = limits.max_bytes >= 1 << 32  # a line or column might not fit in 32 bits
        self.diagnostics: list[Diagnostic] = []
        #: Errors found (listed or not), and problems found past ``limits.max_diagnostics``: those
        #: are counted, not made (245,000 duplicate keys made 245,000 diagnostics to list 100).
        self.errors_found = 0
        self.unlisted = 0
        self.table = NodeTable()
        self.anchors: dict[str, tuple[Any, int, int]] = {}  # value, nodes, height
        #: The characters of text each anchor's node holds, made at its first alias; and the text
        #: the aliases have repeated so far (bounded by the file size bound: see :meth:`on_alias`).
        self.anchor_text: dict[str, int] = {}
        self.aliased_text = 0
        self.anchor_paths: dict[str, NodePath] = {}  # where each anchored node is
        self.anchored_twice = False  # whether a name is given to two nodes
        self.aliases: dict[NodePath, NodePath] = {}  # an alias's path: the path of the node it repeats
        self.alias_of: str | None = None  # the anchor of the alias being placed
        self.refused_anchors: set[str] = set()  # anchors of nodes the reader refused (reported there)
        self.stack: list[_Frame] = []
        self.root: Any = None
        self.documents = 0
        self.total_nodes = 0
        self.refusing = False
        #: The lines holding an invisible character as such, with how many (an escape producing one
        #: elsewhere is warned of at its string).
        self.invisible_lines: dict[int, int] = {}
        self.invisible: list[tuple[int, int, str]] = []  # line, column, character: each line's first
        self.refused: set[NodePath] = set()
        self.whole_floats = False
        #: Whether the text may hold a blank a hint wrote (`write why here`): where it cannot, no
        #: scalar is looked at for one.
        self.maybe_blank = True
        #: The last event read before libyaml stopped on an error (see :meth:`crossing`).
        self.last_event: Any = None

    def span(self, event: Any) -> int:
        """The event's position, packed (see :func:`civrules.load.document.pack_position`)."""
        start, end = event.start_mark, event.end_mark
        if self.wide:
            return pack_position(start.line + 1, start.column + 1, end.line + 1, end.column + 1)
        # The same, inline: lines and columns fit in 32 bits below 4 GiB.
        packed: int = ((start.line + 1) << 96) | ((start.column + 1) << 64) | ((end.line + 1) << 32) | (end.column + 1)
        return packed

    def error(
        self,
        code: codes.Code,
        message: str,
        span: Span | int,
        hint: str | None = None,
        related: tuple[Related, ...] = (),
        *,
        subjects: Iterable[object],
        fatal: bool = False,
    ) -> None:
        """Report a problem; ``fatal``: the reading stops on it, so it is listed past the limit too;
        ``subjects``: the keys, tags and anchors it is about, as its message names them."""
        if code.severity is Severity.ERROR:
            self.errors_found += 1
        if len(self.diagnostics) >= self.limits.max_diagnostics and not fatal:
            self.unlisted += 1
            return
        at = unpack_position(self.display, span) if isinstance(span, int) else span
        self.diagnostics.append(
            Diagnostic(code.code, code.severity, message, at, hint, related, subjects=named(subjects))
        )

    def find_invisible(self, text: str) -> None:
        """Find each line of ``text`` that holds an invisible format character: its first, and how
        many the line holds (one pass over the text, however many there are)."""
        line, start, lines = 1, 0, LINE_END.finditer(text)
        ends = next(lines, None)
        # A byte order mark opening the text (an editor's buffer: a file's is taken off) marks it.
        for match in _INVISIBLE.finditer(text, 1 if text.startswith("\ufeff") else 0):
            while ends is not None and ends.start() < match.start():
                line, start, ends = line + 1, ends.end(), next(lines, None)
            if self.invisible and self.invisible[-1][0] == line:
                self.invisible_lines[line] += 1
                continue
            self.invisible.append((line, match.start() - start + 1, match.group()))
            self.invisible_lines[line] = 1

    def warn_invisible(self) -> None:
        """Warn of each line :meth:`find_invisible` found (L015), at its first character."""
        for at, column, character in self.invisible:
            more = self.invisible_lines[at] - 1
            self.error(
                codes.INVISIBLE_CHARACTER,
                f"invisible character {_character_name(character)} in the text"
                + (f" (and {more:,} more on this line)" if more else ""),
                Span(self.display, at, column, at, column + 1),
                hint=_INVISIBLE_HINT,
                subjects=(self.display,),
            )

    def listed(self) -> list[Diagnostic]:
        """The problems found, with one line saying reading went on past the last listed (R011)."""
        if not self.unlisted:
            return self.diagnostics
        return [*self.diagnostics, stopped(self.display, self.limits.max_diagnostics)]

    def read_ahead(self, text: str, mark: Any) -> None:
        """Report the bound of civrules' that the text libyaml read ahead crosses, as the events
        would have (:meth:`count`, :meth:`too_deep`, :meth:`charge_text` raise), when libyaml
        stopped at its own nesting guard (1,000 levels, at ``mark``) before giving them: the
        diagnostic is located at the node that crosses it, not at libyaml's mark. Returns when none
        is crossed there.

        libyaml's scanner reads ahead while the token the parser waits for may still be a key (on
        its line, within 1,024 characters): the text looked at, from the last event read to
        ``mark``, is short, and read once."""
        last = self.last_event
        start = 0 if last is None else _offset(text, last.end_mark)
        stop = min(_offset(text, mark) + 1, len(text))  # to the bracket libyaml stopped at
        kinds = [_kind(text, frame) for frame in self.stack]
        known = {name: found[2] for name, found in self.anchors.items()}
        line, begins, at = (1, 0, 0) if last is None else (last.end_mark.line + 1, start - last.end_mark.column, start)
        for offset, levels, alias in _read_ahead(text, start, stop, kinds, known):
            # The line breaks since the last node, counted in C (8 MiB of them took 2 s one by one).
            breaks = text.count("\n", at, offset) + text.count("\r", at, offset) - text.count("\r\n", at, offset)
            if breaks:
                line, begins = line + breaks, max(text.rfind("\n", at, offset), text.rfind("\r", at, offset)) + 1
            at = offset
            column = offset - begins + 1
            span = pack_position(line, column, line, column + 1)
            if alias is None:
                self.count(1, span)
                self.too_deep(levels, span)
                continue
            value, nodes, _ = self.anchors[alias]
            self.too_deep(levels, span, alias)
            self.count(nodes, span)
            self.charge_text(alias, value, span)

    def too_deep(self, levels: int, span: int, alias: str | None = None) -> None:
        """Stop if ``levels`` (a node's, counting the root as 1) are more than the bound."""
        if levels <= self.limits.max_depth:
            return
        if alias is None:
            self.error(
                codes.TOO_DEEP,
                f"nesting deeper than {self.limits.max_depth} levels",
                span,
                hint="flatten the structure; rule files need only a few levels",
                fatal=True,
                subjects=(self.display,),
            )
        else:
            # Aliases nest what they repeat: the bound holds for the data as read, not only as written.
            self.error(
                codes.TOO_DEEP,
                f"nesting deeper than {self.limits.max_depth} levels (through the alias `*{alias}`)",
                span,
                hint="flatten the structure; aliases of aliases nest the data they repeat",
                fatal=True,
                subjects=(alias,),
            )
        raise _AbortError

    def run(self, parser: Any) -> None:
        # One pass over libyaml's events. A plain word, a plain count or quoted text inside a
        # collection (most of a rule file's nodes) is placed here, without a method call;
        # everything else goes to its handler.
        get_event = parser.get_event
        scalar, alias, document = yaml.ScalarEvent, yaml.AliasEvent, yaml.DocumentStartEvent
        mapping, sequence = yaml.MappingStartEvent, yaml.SequenceStartEvent
        ends = (yaml.MappingEndEvent, yaml.SequenceEndEvent)
        stack = self.stack
        deepest = self.limits.max_depth
        add_block = self.table.add_block
        special = _SPECIAL_START
        plain_count = _PLAIN_COUNT.match
        words, letters = _PLAIN_WORDS, _LETTER_START
        intern = sys.intern
        unsafe = _UNSAFE_VALUE.search
        invisible = _INVISIBLE.search
        most = self.limits.max_nodes
        fast = not self.wide
        maybe_blank, blank_starts = self.maybe_blank, blanks.STARTS
        event = None
        while True:
            try:
                event = get_event()
            except yaml.MarkedYAMLError:
                self.last_event = event
                raise
            if event is None:
                return
            kind = type(event)
            if kind is scalar:
                if not (fast and stack and event.tag is None and event.anchor is None and self.total_nodes < most):
                    self.on_scalar(event)
                    continue
                value = event.value
                if maybe_blank and value.startswith(blank_starts):
                    self.on_scalar(event)  # perhaps a blank a hint wrote (L016)
                    continue
                if event.implicit[0]:  # plain
                    first = value[:1]
                    if first in special:
                        if value in words:
                            value = words[value]  # true, false, null
                        elif first in letters:
                            value = intern(value)  # a word (`trade`, `naval`): a string
                        elif plain_count(value) is not None:
                            value = int(value)  # a count or a cost: no sign, no leading zero
                        else:
                            self.on_scalar(event)
                            continue
                    else:  # a plain word: a string, nothing to judge; ids and keys repeat, kept once
                        value = intern(value)
                elif unsafe(value) is not None or (event.style == '"' and not value.isascii() and invisible(value)):
                    # quoted text: refused if it escapes a control character, warned of if a format one
                    self.on_scalar(event)
                    continue
                self.total_nodes += 1
                mark = event.start_mark
                start = (mark.line + 1) << 32 | (mark.column + 1)
                mark = event.end_mark
                end = (mark.line + 1) << 32 | (mark.column + 1)
                frame = stack[-1]
                frame.nodes += 1
                if frame.is_list:
                    frame.container.append(value)  # type: ignore[union-attr]
                    frame.records.extend((start, end, 0, 0, 0, 0))
                    frame.keys.append(None)
                elif frame.key is None:
                    if type(value) is str and value not in frame.container:  # a new key (as accept_key takes it)
                        frame.key_start, frame.key_end = start, end
                        frame.key = intern(value)
                    else:
                        self.accept_key(frame, value, start, end)
                else:
                    key, frame.key = frame.key, None
                    if key is not _DISCARD:
                        frame.container[key] = value
                        frame.records.extend((start, end, frame.key_start, frame.key_end, 0, 0))
                        frame.keys.append(key)
            elif kind is mapping or kind is sequence:
                # A plain collection inside a collection (no tag, no anchor, not a key), opened here.
                if (
                    not (fast and stack and event.tag is None and event.anchor is None and self.total_nodes < most)
                    or len(stack) >= deepest
                ):
                    self.on_start(event)
                    continue
                frame = stack[-1]
                if frame.is_list:
                    part: Any = len(frame.container)
                elif frame.key is None:
                    self.on_start(event)  # a collection used as a key: refused there
                    continue
                else:
                    part = frame.key
                self.total_nodes += 1
                mark = event.start_mark
                frame = _Frame(
                    {} if kind is mapping else [], part, (mark.line + 1) << 32 | (mark.column + 1), None, False
                )
                frame.event = event
                stack.append(frame)
            elif kind in ends:
                # A plain collection closed inside a collection: placed here, as :meth:`place` does.
                frame = stack[-1]
                if not fast or frame.is_key or frame.refused or frame.anchor is not None or len(stack) < 2:
                    self.on_end(event)
                    continue
                stack.pop()
                mark = event.end_mark
                end = (mark.line + 1) << 32 | (mark.column + 1)
                keys = frame.keys
                first, count = (add_block(frame.records, keys), len(keys)) if keys else (0, 0)
                frame.block = first
                parent = stack[-1]
                parent.nodes += frame.nodes
                if frame.height >= parent.height:
                    parent.height = frame.height + 1
                if parent.is_list:
                    parent.container.append(frame.container)  # type: ignore[union-attr]
                    parent.records.extend((frame.start, end, 0, 0, first, count))
                    parent.keys.append(None)
                else:
                    key, parent.key = parent.key, None
                    if key is not _DISCARD:
                        parent.container[key] = frame.container
                        parent.records.extend((frame.start, end, parent.key_start, parent.key_end, first, count))
                        parent.keys.append(key)
            elif kind is alias:
                self.on_alias(event)
            elif kind is document:
                self.on_document(event)

    def on_document(self, event: Any) -> None:
        self.documents += 1
        if self.documents > 1:
            self.error(
                codes.MULTIPLE_DOCUMENTS,
                "the file holds more than one YAML document",
                self.span(event),
                hint="civrules reads one document per file: split the documents into files",
                fatal=True,
                subjects=(self.display,),
            )
            raise _AbortError

    def count(self, nodes: int, span: int) -> None:
        self.total_nodes += nodes
        if self.total_nodes > self.limits.max_nodes:
            self.error(
                codes.ALIAS_BOMB,
                f"the document expands to more than {self.limits.max_nodes:,} nodes",
                span,
                hint="aliases here multiply the data; write it out or use fewer nested aliases",
                fatal=True,
                subjects=(self.display,),
            )
            raise _AbortError

    def charge_text(self, anchor: str, value: Any, span: int) -> None:
        """Count the text an alias repeats: an alias is one node, whatever its anchor holds, so a
        scalar of megabytes named a hundred times (``&r "..."`` then ``*r``) made every later stage
        read, check and print a hundred copies of it from a few bytes more. Past
        ``limits.max_bytes`` characters repeated, the reading stops, as it does past the node bound."""
        text = self.anchor_text.get(anchor)
        if text is None:
            text = self.anchor_text[anchor] = _text_in(value)
        self.aliased_text += text
        if self.aliased_text > self.limits.max_bytes:
            self.error(
                codes.ALIAS_BOMB,
                f"aliases repeat more than {self.limits.max_bytes:,} characters of text",
                span,
                hint="aliases here multiply the text; write it out, or name it once and refer to it",
                fatal=True,
                subjects=(self.display,),
            )
            raise _AbortError

    def check_tag(self, tag: str | None, span: int) -> bool:
        if tag is None or tag == "!" or tag in _ALLOWED_TAGS:
            return True
        self.error(
            codes.FORBIDDEN_TAG,
            f"tag `{_short_tag(tag)}` is not allowed in rule data",
            span,
            hint="remove the tag; only plain strings, numbers, booleans, null, lists and mappings are read",
            subjects=(_short_tag(tag),),
        )
        return False

    def on_scalar(self, event: Any) -> None:
        span = self.span(event)
        self.count(1, span)
        if event.value.startswith(blanks.STARTS) and blanks.is_blank(event.value):
            self.unfilled(event.value, span)
        if event.tag is None and event.implicit[0] and event.value[:1] not in _SPECIAL_START:
            self.place(event.value, span, event.anchor, 1)  # a plain word: a string, nothing to judge
            return
        reported = self.errors_found
        value = self.resolve_scalar(event, span) if self.check_tag(event.tag, span) else None
        if isinstance(value, str) and (bad := _UNSAFE_VALUE.search(value)) is not None:
            # Generated code, sheets and printed diagnostics would carry it: a NUL made the
            # generated package fail to import. Refused like a forbidden tag (a stand-in null).
            self.error(
                codes.BAD_ENCODING,
                f"control character U+{ord(bad.group()):04X} (written as an escape) is not allowed in rule text",
                span,
                hint="remove the escape; rule text may hold tabs and line breaks, no other control character",
                subjects=(self.display,),
            )
            value = _DISCARD if self._expects_key() else None
        elif (
            isinstance(value, str)
            and event.style == '"'
            and (hidden := _INVISIBLE.search(value)) is not None
            and not self.invisible_lines.keys() & range(event.start_mark.line + 1, event.end_mark.line + 2)
        ):  # none on the string's lines as such: an escape made it
            self.error(
                codes.INVISIBLE_CHARACTER,
                f"invisible character {_character_name(hidden.group())} (written as an escape) in the text",
                span,
                hint=_INVISIBLE_HINT,
                subjects=(self.display,),
            )
        # A value the reader refused (a forbidden tag, an unreadable number) is already reported:
        # mark it so that schema validation does not report the stand-in null a second time. In a
        # key's place it drops the entry, as an unsafe key does (not a second diagnostic: `null key`).
        self.refusing = self.errors_found > reported
        if self.refusing and value is None and self._expects_key():
            value = _DISCARD
        self.place(value, span, event.anchor, 1)
        self.refusing = False

    def _expects_key(self) -> bool:
        return bool(self.stack) and isinstance(self.stack[-1].container, dict) and self.stack[-1].key is None

    def resolve_scalar(self, event: Any, span: int) -> Any:
        text: str = event.value
        tag = event.tag
        if tag is None or tag == "!":
            if tag == "!" or not event.implicit[0]:
                return text
            return self.resolve_plain(text, span)
        kind = tag[len(_CORE) :]
        if kind == "str":
            return text
        value = self.resolve_plain(text, span)
        wanted = _EXPLICIT_TYPES.get(kind)
        if wanted is None or isinstance(value, bool) is not (kind == "bool") or not isinstance(value, wanted):
            # Only the tags of _ALLOWED_TAGS reach here (any other is L004 before it is resolved).
            hint = f"write {_TAGGED_VALUES[kind]} after `!!{kind}`, or drop the tag (quote the value if it is text)"
            shown = words.clipped(text)
            self.error(
                codes.SCHEMA_VIOLATION, f"`{shown}` is not a valid !!{kind}", span, hint, subjects=words.whole([text])
            )
            return None
        if kind == "float":
            value = float(cast(float, value))
            self.whole_floats = self.whole_floats or value.is_integer()
        return value

    def resolve_plain(self, text: str, span: int) -> Any:
        if _NULL.match(text):
            return None
        if text in _BOOL:
            return _BOOL[text]
        try:
            if _INT10.match(text):
                number = int(text)
                if _LEADING_ZERO.match(text):
                    self.leading_zero(text, number, span)
                return number
            if _INT8.match(text) or _INT16.match(text):
                number = int(text[2:], 8 if text[1] == "o" else 16)
                # Python reads any number of hex or octal digits, but every later stage (messages,
                # JSON, generated code) writes numbers in decimal, which is bounded: refuse it here.
                str(number)
                return number
        except ValueError:
            self.error(
                codes.BAD_NUMBER,
                f"the integer has {len(text):,} digits, too many to read",
                span,
                hint="rule data numbers are small; check for a pasted or generated value",
                subjects=(self.display,),
            )
            return None
        if _FLOAT.match(text) or _INF.match(text) or _NAN.match(text):
            value = float(
                text.replace(".inf", "inf")
                .replace(".Inf", "inf")
                .replace(".INF", "inf")
                .replace(".nan", "nan")
                .replace(".NaN", "nan")
                .replace(".NAN", "nan")
            )
            if not math.isfinite(value):
                if self._expects_key():
                    # Shown cut (words.clipped): a 3-million-digit number was a 3 MB message (round 33).
                    self.error(
                        codes.BAD_NUMBER,
                        f"the mapping key `{words.clipped(text)}` is read as a number that is not finite, not as "
                        "a string",
                        span,
                        hint=f'quote it if it is meant as text: "{words.clipped(text)}"',
                        subjects=words.whole([text]),
                    )
                    return None
                self.error(
                    codes.BAD_NUMBER,
                    f"`{words.clipped(text)}` is not a finite number",
                    span,
                    hint="write the intended finite number, or quote it if it is text",
                    subjects=words.whole([text]),
                )
                return None
            self.whole_floats = self.whole_floats or value.is_integer()
            return value
        return text

    def unfilled(self, text: str, span: int) -> None:
        """Report the blank ``text`` a hint wrote for the designer to fill, left as it was (L016);
        the value is kept, and the schema says nothing of it (:func:`civrules.schema.validate_document`)."""
        what = blanks.asked(text)
        words = text.removeprefix("house rule: ")
        kept = "keep `house rule: ` and " if words != text else ""
        self.error(
            codes.UNFILLED_BLANK,
            f"`{text}` is a blank a hint wrote for you to fill: {what}",
            span,
            hint=f"{kept}replace `{words}` with {what}, in your own words",
            subjects=(text,),
        )

    def leading_zero(self, text: str, number: int, span: int) -> None:
        """Warn that ``text`` (``012``) was read as the decimal ``number``, as YAML 1.2 reads it."""
        digits = text.lstrip("+-")
        older = "YAML 1.1 tools (PyYAML's default loader, older editors)"
        # Each shown cut (words.clipped): a number of thousands of digits is a message of a line.
        shown, decimal = words.clipped(text), words.clipped(str(number))
        if not set(digits) <= set("01234567"):
            octal = f"; {older} read it as the text `{shown}`"
        elif (value := int(digits, 8) * (-1 if text.startswith("-") else 1)) != number:
            octal = f"; {older} read it as octal, {words.clipped(str(value))}"
        else:
            octal = ""
        self.error(
            codes.LEADING_ZERO,
            f"`{shown}` has a leading zero: read as the decimal number {decimal}{octal}",
            span,
            hint=f'write `{decimal}`, or quote it if it is text (`"{shown}"`)',
            subjects=words.whole([text]),
        )

    def on_alias(self, event: Any) -> None:
        span = self.span(event)
        found = self.anchors.get(event.anchor)
        if found is None:
            self.error(
                codes.UNDEFINED_ALIAS,
                f"alias `*{event.anchor}` has no anchor `&{event.anchor}` before it",
                span,
                hint="define the anchor before the alias, outside the node that uses it",
                subjects=(event.anchor,),
            )
            self.place(None, span, None, 1)
            return
        value, nodes, height = found
        self.too_deep(len(self.stack) + height, span, event.anchor)
        self.count(nodes, span)
        self.charge_text(event.anchor, value, span)
        self.refusing = event.anchor in self.refused_anchors
        if self.refusing and self._expects_key():
            value = _DISCARD  # the key it repeats was refused (and reported) where it was written
        self.alias_of = event.anchor
        self.place(value, span, None, nodes, height=height)
        self.alias_of = None
        self.refusing = False

    def on_start(self, event: Any) -> None:
        span = self.span(event)
        self.count(1, span)
        if len(self.stack) >= self.limits.max_depth:
            self.too_deep(len(self.stack) + 1, span)
        allowed = self.check_tag(event.tag, span)
        container: dict[str, Any] | list[Any] = {} if isinstance(event, yaml.MappingStartEvent) else []
        parent = self.stack[-1] if self.stack else None
        is_key = parent is not None and not parent.is_list and parent.key is None
        part: str | int | None = None
        if parent is not None and not is_key:
            part = len(parent.container) if parent.is_list else parent.key
        frame = _Frame(container, part, span >> 64, event.anchor, is_key)
        frame.refused = not allowed
        frame.event = event
        self.stack.append(frame)

    def on_end(self, event: Any) -> None:
        frame = self.stack.pop()
        end = event.end_mark
        # The start line and column of the frame's position, with this end.
        span = (frame.start << 64) | pack_position(0, 0, end.line + 1, end.column + 1)
        if frame.is_key:
            self.error(
                codes.NON_STRING_KEY,
                "a mapping key must be a string, not a collection",
                span,
                hint="use a plain name as the key",
                subjects=(self.display,),
            )
            self.place(_DISCARD, span, frame.anchor, frame.nodes, height=frame.height)
            return
        if frame.refused:
            # Like a refused scalar: a null stand-in, marked so that the schema does not report it again.
            self.refusing = True
            self.place(None, span, frame.anchor, frame.nodes, height=frame.height)
            self.refusing = False
            return
        if frame.keys:
            frame.block = self.table.add_block(frame.records, frame.keys)
        self.place(frame.container, span, frame.anchor, frame.nodes, opened=frame, height=frame.height)

    def path_of(self, part: str | int) -> NodePath:
        """The path of the child ``part`` of the innermost open collection."""
        parts: list[str | int] = []
        for frame in self.stack[1:]:
            if frame.part is None:
                parts.clear()  # a collection used as a key: paths inside it start again (it is refused)
            else:
                parts.append(frame.part)
        return (*parts, part)

    def place(
        self, value: Any, span: int, anchor: str | None, nodes: int, opened: _Frame | None = None, height: int = 0
    ) -> None:
        """Attach a finished node to its parent (or make it the root) and record its position."""
        if anchor is not None:
            self.anchored_twice = self.anchored_twice or anchor in self.anchors
            # What an alias of a refused node (a collection used as a key) repeats is the stand-in
            # null, marked refused as the node was: never the internal marker of a dropped entry.
            self.anchors[anchor] = (None if value is _DISCARD else value, nodes, height)
            self.anchor_text.pop(anchor, None)  # an anchor named again holds the new node
            if value is _DISCARD or self.refusing:
                self.refused_anchors.add(anchor)
            else:
                self.refused_anchors.discard(anchor)
        start, end = span >> 64, span & _HALF
        first, count = (opened.block, len(opened.keys)) if opened is not None and opened.keys else (0, 0)
        if not self.stack:
            self.root = value
            self.table.set_root(start, end, first, count)
            self._remember((), anchor)
            return
        parent = self.stack[-1]
        parent.nodes += nodes
        if height >= parent.height:
            parent.height = height + 1
        container = parent.container
        if parent.is_list:
            part: str | int = len(container)
            container.append(value)  # type: ignore[union-attr]
            parent.records.extend((start, end, 0, 0, first, count))
            parent.keys.append(None)
        else:
            if parent.key is None:
                self.accept_key(parent, value, start, end)
                return
            key, parent.key = parent.key, None
            if key is _DISCARD:
                return
            part = key
            container[key] = value
            parent.records.extend((start, end, parent.key_start, parent.key_end, first, count))
            parent.keys.append(key)
        if anchor is not None or self.alias_of is not None or self.refusing:
            path = self.path_of(part)
            self._remember(path, anchor)
            if self.refusing:
                self.refused.add(path)

    def _remember(self, path: NodePath, anchor: str | None) -> None:
        """Where an anchored node is, and which node an alias repeats: a value inside an alias is
        located where it is written (at its anchor), not at the alias."""
        if anchor is not None:
            self.anchor_paths[anchor] = path
        if self.alias_of is not None and self.alias_of in self.anchor_paths:
            self.aliases[path] = self.anchor_paths[self.alias_of]

    def accept_key(self, parent: _Frame, key: Any, start: int, end: int) -> None:
        parent.key_start, parent.key_end = start, end
        if key is _DISCARD:
            parent.key = _DISCARD
            return
        span = start << 64 | end
        if not isinstance(key, str):
            shown = "null" if key is None else str(key).lower() if isinstance(key, bool) else repr(key)
            self.error(
                codes.NON_STRING_KEY,
                f"mapping key {shown} is a {_type_name(key)}, not a string",
                span,
                hint=f'quote it if it is meant as text: "{shown}"',
                subjects=(shown,),
            )
            parent.key = _DISCARD
            return
        if key in parent.container:
            positions = parent.positions if parent.positions is not None else {}
            parent.positions = positions
            keys = parent.keys
            for place in range(parent.indexed, len(keys)):
                positions.setdefault(keys[place], place)
            parent.indexed = len(keys)
            at = 6 * positions[key]
            first = parent.records[at + 2] << 64 | parent.records[at + 3]
            listed = len(self.diagnostics) < self.limits.max_diagnostics  # else counted, not made
            self.error(
                codes.DUPLICATE_KEY,
                f"duplicate key `{words.clipped(key)}`",
                span,
                hint="remove or merge one of the two entries; only one value can count",
                related=(Related(unpack_position(self.display, first), "first defined here"),) if listed else (),
                subjects=words.whole((key,)),
            )
            parent.key = _DISCARD
            return
        parent.key = sys.intern(key)  # a key is written once per entity: each copy would be kept


def _type_name(value: Any) -> str:
    return {bool: "boolean", int: "number", float: "number", type(None): "null"}.get(type(value), type(value).__name__)


def _text_in(value: Any) -> int:
    """The characters of every text a node holds, its keys included (walked without recursion)."""
    total = 0
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            total += len(item)
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return total


def _short_tag(tag: str) -> str:
    return "!!" + tag[len(_CORE) :] if tag.startswith(_CORE) else tag


def _offset(text: str, mark: Any) -> int:
    """The offset in ``text`` of libyaml's ``mark``: its index counts characters, from after a
    byte order mark; checked against its column, and found by its line where they disagree."""
    index: int = mark.index + (1 if text.startswith("\ufeff") else 0)
    begins = index - mark.column
    if (
        0 <= begins <= index <= len(text)
        and (begins == 0 or text[begins - 1] in "\r\n")
        and LINE_END.search(text, begins, index) is None
    ):
        return index
    begins, line, column = 0, 0, int(mark.column)
    for end in LINE_END.finditer(text):
        if line == mark.line:
            break
        begins, line = end.end(), line + 1
    return min(begins + column, len(text))


def _kind(text: str, frame: _Frame) -> str:
    """What an open collection is to the scanner: "b" block, "[" a flow sequence, "{" a flow
    mapping, "p" the one-entry mapping a `key: value` (or `? key`) in a flow sequence makes."""
    event = frame.event
    if event is None or not event.flow_style:
        return "b"
    if frame.is_list:
        return "["
    start, end = event.start_mark, event.end_mark
    if start.index == end.index:
        return "p"  # an implicit key: the mapping starts where its key does, and is empty
    return "p" if text[_offset(text, end) - 1 : _offset(text, end)] == "?" else "{"


#: Blanks, line breaks and comments between tokens.
_GAP = re.compile(r"(?:[ \t\r\n]+|#[^\r\n]*)*")
#: Where a plain scalar ends, in flow and in block context.
_PLAIN_END_FLOW = re.compile(r"[\r\n,\[\]{}]|:(?=[ \t\r\n,\[\]{}]|\Z)|(?<=[ \t])#")
_PLAIN_END_BLOCK = re.compile(r"[\r\n]|:(?=[ \t\r\n]|\Z)|(?<=[ \t])#")
#: The end of a name after `&`, `*` or `!`, and of a double-quoted scalar's rest.
_NAME = re.compile(r"[^ \t\r\n,\[\]{}]*")
_DOUBLE_QUOTED = re.compile(r'(?:[^"\\]|\\.)*"', re.DOTALL)


def _read_ahead(
    text: str, start: int, stop: int, kinds: list[str], anchors: dict[str, int]
) -> list[tuple[int, int, str | None]]:
    """The nodes written in ``text[start:stop]``, in the order their events come, the collections
    ``kinds`` (see :func:`_kind`) being open at ``start``: each node's offset (at its anchor or tag
    if it has one, as its event is), the levels it reaches counting the root as 1 (its own for a
    collection, 0 for a scalar: it opens none), and for an alias of an anchor in ``anchors`` (its
    levels by name) that anchor. An alias of another anchor is counted as a scalar.

    A `key: value` in a flow sequence is a mapping of one entry, started at its key: it is known
    at the `:`, after its key, so the levels are counted once everything is read."""
    stack = list(kinds)
    entries: list[tuple[int, int] | None] = [None] * len(stack)  # each flow sequence's entry: offset, first node
    found: list[list[Any]] = []  # offset, levels, alias: the nodes, in the order written
    named: set[str] = set()  # anchors named here: what they hold is not known
    props = -1  # where the properties (anchor, tag) of the coming node begin
    json = False  # the last token ends a quoted scalar or a collection: `:` needs no blank after it
    first = True
    i = start
    while True:
        i = _match(_GAP, text, i)
        if i >= stop:
            break
        c = text[i]
        top = stack[-1] if stack else "b"
        flow = top != "b"
        at = props if props >= 0 else i
        after = text[i + 1 : i + 2]
        indicator = after == "" or after in " \t\r\n" or (flow and after in ",[]{}")
        ended = False
        if c in "[{":
            _entry(stack, entries, at, len(found))
            found.append([at, len(stack) + 1, None])
            stack.append(c)
            entries.append(None)
            props, i = -1, i + 1
            json = False
            first = False
            continue
        if flow and c in "]},":
            if top == "p":
                stack.pop()
                entries.pop()
            if c == ",":
                if stack:
                    entries[-1] = None
            elif stack:
                stack.pop()
                entries.pop()
            props, i, json = -1, i + 1, c != ","
            first = False
            continue
        if c in "?:-" and (indicator or (c == ":" and flow and json)):
            if c == "-" and not flow and not first:
                found.append([i, len(stack) + 1, None])  # a list item on a list item's line: a list in it
                stack.append("b")
                entries.append(None)
            elif c in "?:" and top == "[":
                entry = entries[-1]
                place, index = (i, len(found)) if c == "?" or entry is None else entry
                for node in found[index:]:
                    if node[1]:
                        node[1] += 1  # inside the key of the one-entry mapping
                found.insert(index, [place, len(stack) + 1, None])
                stack.append("p")
                entries.append(None)
            i, json, first = i + 1, False, False
            continue
        if c in "&!":
            props = i if props < 0 else props
            end = _match(_NAME, text, i + 1)
            if c == "&":
                named.add(text[i + 1 : end])
            i, first = end, False
            continue
        _entry(stack, entries, at, len(found))
        if c == "*":
            end = _match(_NAME, text, i + 1)
            name = text[i + 1 : end]
            known = name in anchors and name not in named
            found.append([i, len(stack) + anchors[name], name] if known else [i, 0, None])
        else:
            found.append([at, 0, None])
        if c == "'":
            end = i + 1
            while True:
                close = text.find("'", end, stop)
                if close < 0:
                    ended = True
                    break
                if text[close + 1 : close + 2] != "'":
                    end = close + 1
                    break
                end = close + 2
        elif c == '"':
            match = _DOUBLE_QUOTED.match(text, i + 1, stop)
            ended = match is None
            end = match.end() if match is not None else stop
        else:
            match = (_PLAIN_END_FLOW if flow else _PLAIN_END_BLOCK).search(text, i + 1, stop)
            end = match.start() if match is not None else stop
        if ended:
            break  # a quoted scalar that does not end before libyaml stopped
        json = c in "'\""
        props, i, first = -1, end, False
    return [(offset, levels, alias) for offset, levels, alias in found]


def _match(pattern: re.Pattern[str], text: str, at: int) -> int:
    """Where ``pattern`` (which matches the empty text too) stops matching ``text`` from ``at``."""
    found = pattern.match(text, at)
    return found.end() if found is not None else at


def _entry(stack: list[str], entries: list[tuple[int, int] | None], at: int, count: int) -> None:
    """Note where the current entry of the innermost flow sequence begins, at its first node."""
    if stack and stack[-1] == "[" and entries[-1] is None:
        entries[-1] = (at, count)
