"""Renderers for diagnostics: text (for people), json (stable), github (annotations), sarif (2.1.0),
gitlab (GitLab's Code Quality report)."""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from civrules import __version__
from civrules.diagnostics import Diagnostic, Severity, Span
from civrules.diagnostics.escape import UNSAFE, dumps_json, printable, safe_line_start
from civrules.diagnostics.words import typed_path

FORMATS = ("text", "json", "github", "sarif", "gitlab")
#: The formats whose output is one document: a diagnostic printed after it would make it invalid.
DOCUMENTS = ("json", "sarif", "gitlab")


class SourceLines:
    """Source text by file, read lazily, for quoting the offending line.

    A file larger than ``max_bytes`` (one the loader refused as too large) or a symbolic link (one
    the workspace may have refused as leading out of rules/) is not quoted: quoting must not read
    unbounded data, nor print a line of a file outside the rules.
    """

    def __init__(
        self, root: Path | None = None, texts: Mapping[str, str] | None = None, max_bytes: int = 8 * 1024 * 1024
    ) -> None:
        self.root = root  # None: the working directory, looked up when a line is quoted (it may be gone)
        self.max_bytes = max_bytes
        self.cache: dict[str, list[str] | None] = {}
        if texts:
            # Imported here, as in `line`: a failure of the process itself is rendered where
            # `civrules.load` (and the YAML library it needs) cannot be imported (civrules.launch).
            from civrules.load.lines import split_lines

            self.cache = {k: split_lines(v) for k, v in texts.items()}

    def line(self, file: str, number: int) -> str | None:
        if file.startswith("<"):  # `<command line>`: no file (one of that name is not it)
            return None
        if file not in self.cache and not file.lower().endswith((".yaml", ".yml")):
            # Only a rule file's lines are read to be quoted: a diagnostic located at a folder that
            # is now a file (`rules`, `rules/rulesets`) quoted its first line as a source excerpt.
            return None
        if file not in self.cache:
            self.cache[file] = None
            from civrules.load.lines import decode, split_lines
            from civrules.support.files import RefusedError, read_file

            try:  # a regular file within the bound, not a link, not a FIFO (which would block)
                raw = read_file((self.root or Path.cwd()) / file, self.max_bytes)
                self.cache[file] = split_lines(decode(raw))
            except (RefusedError, OSError, ValueError):  # ValueError: a name no file system can hold
                pass
        lines = self.cache[file]
        if lines is None or not 1 <= number <= len(lines):
            return None
        return lines[number - 1]


_COLOURS = {Severity.ERROR: "\x1b[1;31m", Severity.WARNING: "\x1b[1;33m", Severity.INFO: "\x1b[1;36m"}
_BOLD, _BLUE, _RESET = "\x1b[1m", "\x1b[1;34m", "\x1b[0m"


def render_text(
    diagnostics: Sequence[Diagnostic], sources: SourceLines, *, colour: bool = False, shipped: Path | None = None
) -> str:
    """Compiler-style text: location, severity and code, the source line with a caret, hints and notes.

    Every field is passed through :func:`~civrules.diagnostics.escape.printable`, so each diagnostic prints as
    the lines this function makes and nothing in the rule data reaches the terminal as a control. A
    file of the rules shipped with civrules (under ``shipped``) is named behind `<civrules>/`, as
    the messages name it (Q007, R013) and every other format does: never where civrules is installed.
    """
    return "".join(text_chunks(diagnostics, sources, colour=colour, shipped=shipped))


def text_chunks(
    diagnostics: Iterable[Diagnostic], sources: SourceLines, *, colour: bool = False, shipped: Path | None = None
) -> Iterator[str]:
    """:func:`render_text`'s text, a diagnostic's lines at a time (each ending in a line break)."""

    def paint(text: str, style: str) -> str:
        return f"{style}{text}{_RESET}" if colour else text

    for diagnostic in diagnostics:
        style = _COLOURS[diagnostic.severity]
        label = paint(f"{diagnostic.severity.value}[{diagnostic.code}]", style)
        out = [f"{paint(_location(diagnostic.span, shipped), _BOLD)}: {label}: {printable(diagnostic.message)}"]
        quoted = _quote(diagnostic.span, sources) if diagnostic.span is not None else None
        if quoted is not None:
            number, text, start, width = quoted
            out.append(f"  {paint(number + ' |', _BLUE)} {text}")
            out.append(f"  {paint(' ' * len(number) + ' |', _BLUE)} {' ' * start}{paint('^' * width, style)}")
        if diagnostic.hint:
            out.append(f"  {paint('hint', _BOLD)}: {printable(diagnostic.hint)}")
        for related in diagnostic.related:
            out.append(f"  {paint('note', _BOLD)}: {_location(related.span, shipped)}: {printable(related.label)}")
        out.append("")
        yield "\n".join(out)


def _location(span: Span | None, shipped: Path | None = None) -> str:
    if span is None:
        return "civrules"
    name = json_file(span.file, shipped)
    shown = typed_path(span.file) if name == span.file else printable(name)
    return f"{safe_line_start(shown)}:{span.line}:{span.column}"


#: The most characters of a source line quoted under a diagnostic: a longer line is cut to a
#: window around the caret. Quoted whole, one 4 MB line holding 100 problems printed 450 MB.
QUOTE_WIDTH = 160
_QUOTE_BEFORE = 60
_ELLIPSIS = "…"


def _quote(span: Span, sources: SourceLines) -> tuple[str, str, int, int] | None:
    """The line number, the source line, and where the caret starts and how wide it is."""
    text = sources.line(span.file, span.line)
    if text is None:
        return None
    start = max(span.column - 1, 0)
    end = span.end_column - 1 if span.end_line == span.line else len(text.rstrip())
    width = max(1, min(end, max(len(text), start + 1)) - start)
    if len(text) > QUOTE_WIDTH:  # a window of the line around the caret, its cut ends marked
        first = max(0, min(start - _QUOTE_BEFORE, len(text) - QUOTE_WIDTH))
        last = min(len(text), first + QUOTE_WIDTH)
        width = max(1, min(width, last - start))
        text = (_ELLIPSIS if first else "") + text[first:last] + (_ELLIPSIS if last < len(text) else "")
        start = start - first + (1 if first else 0)
    # The quoted line is the file's own text (of a file refused for a control character, too):
    # escaped like any field, the caret moved to where the escaped token now is. A tab is shown as
    # `\t`, not as the blank it looks like: YAML refuses a tab where it allows a space; and an
    # invisible format character as its escape (`\ufeff`), not as nothing.
    shown = printable(text)
    if shown != text:
        before, token = text[:start], text[start : start + width]
        start, width = len(printable(before)), max(1, len(printable(token)))
    return str(span.line), shown, start, width


def diagnostic_record(diagnostic: Diagnostic, shipped: Path | None = None) -> dict[str, Any]:
    """The stable JSON object for one diagnostic; its text fields are printable, one line each
    (``subjects`` too: the ids, keys and files it is about, each whole). A
    file of the rules shipped with civrules (under ``shipped``) is named behind `<civrules>/`, as
    SARIF, GitHub's annotations and every artifact name it: its install path made two machines'
    records of the same rules differ, and told a script where civrules is installed, not which file."""
    span = diagnostic.span
    return {
        "code": diagnostic.code,
        "severity": diagnostic.severity.value,
        "message": printable(diagnostic.message),
        "file": printable(json_file(span.file, shipped)) if span else None,
        "line": span.line if span else None,
        "column": span.column if span else None,
        "end_line": span.end_line if span else None,
        "end_column": span.end_column if span else None,
        "hint": printable(diagnostic.hint) if diagnostic.hint is not None else None,
        "related": [
            {
                "file": printable(json_file(r.span.file, shipped)),
                "line": r.span.line,
                "column": r.span.column,
                "end_line": r.span.end_line,
                "end_column": r.span.end_column,
                "label": printable(r.label),
            }
            for r in diagnostic.related
        ],
        # What it is about, as data (ids, keys, files: :attr:`Diagnostic.subjects`), after the
        # fields CI already read: an addition, in the order the diagnostic names them.
        "subjects": [printable(subject) for subject in diagnostic.subjects],
    }


def json_file(file: str, shipped: Path | None) -> str:
    """``file`` as civrules' JSON output names it (a diagnostic's `file` and `related[].file`,
    `civrules list --format json`'s `file`): behind `<civrules>/` when it is among the shipped
    rules (under ``shipped``), the same on every machine, else as the diagnostic named it
    (relative to the working directory, or absolute).

    >>> json_file("/opt/civrules/_rules/maps/m.yaml", Path("/opt/civrules/_rules"))
    '<civrules>/maps/m.yaml'
    >>> json_file("rules/maps/m.yaml", Path("/opt/civrules/_rules"))
    'rules/maps/m.yaml'
    """
    if shipped is None or file.startswith("<"):
        return file
    inside = _shipped_path(os.path.normpath(os.path.abspath(file)), shipped)
    if inside is None:
        return file
    from civrules.load.names import SHIPPED

    return SHIPPED + inside


def render_json(diagnostics: Sequence[Diagnostic], shipped: Path | None = None) -> str:
    """The list of records, indented by two, as ``json.dumps(records, indent=2)`` writes it; a file
    of the shipped rules (under ``shipped``) named behind `<civrules>/` (:func:`diagnostic_record`).

    One record at a time: the encoder that indents is written in Python and holds every piece of
    the whole output at once, hundreds of megabytes for the diagnostics of a hostile file.
    """
    return "".join(json_chunks(diagnostics, shipped))


def json_chunks(diagnostics: Sequence[Diagnostic], shipped: Path | None = None) -> Iterator[str]:
    """:func:`render_json`'s text, a record at a time."""
    if not diagnostics:
        yield "[]\n"
        return
    last = len(diagnostics) - 1
    for index, diagnostic in enumerate(diagnostics):
        record = "  " + dumps_json(diagnostic_record(diagnostic, shipped), indent=2).replace("\n", "\n  ")
        yield ("[\n" if index == 0 else "") + record + (",\n" if index < last else "\n]\n")


def _escape_data(text: str) -> str:
    """GitHub's escaping of a workflow command's message (``escapeData`` in @actions/core).

    Fields are made printable first, so the only line breaks left are the ones this renderer puts
    between a message and its hint, and those become ``%0A``: an annotation is always one line.
    """
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


#: What a property of a workflow command holds escaped (GitHub's ``escapeProperty``, undone by the
#: runner), and the characters never printed as themselves (:data:`~civrules.diagnostics.escape.UNSAFE`).
_PROPERTY_ESCAPED = frozenset("%\r\n:,")
_UNSAFE_CHARACTER = re.compile(f"[{UNSAFE}]")


def _escape_file(name: str) -> str:
    r"""A file name as the ``file`` property of an annotation: GitHub's escaping of a property (``%``,
    CR, LF, ``:`` and ``,`` as ``%25``, ``%0D``, ``%0A``, ``%3A``, ``%2C``, which the runner reads
    back), so the annotation names the very file; any other control, separator, bidirectional
    override or lone surrogate as the percent-encoding of its bytes (``%09`` for a tab), which the
    runner leaves as it is: no name breaks the line or reaches the log as a control.

    >>> _escape_file("rules/a\nb,c.yaml")
    'rules/a%0Ab%2Cc.yaml'
    >>> _escape_file("rules/\x1b[2J\t.yaml")
    'rules/%1B[2J%09.yaml'
    """
    if not (_PROPERTY_ESCAPED.intersection(name) or _UNSAFE_CHARACTER.search(name)):
        return name
    out = []
    for character in name:
        if character in _PROPERTY_ESCAPED or _UNSAFE_CHARACTER.match(character):
            try:
                raw = os.fsencode(character)
            except UnicodeError:  # a lone surrogate that is no file-system byte
                raw = character.encode("utf-8", "surrogatepass")
            out.append("".join(f"%{byte:02X}" for byte in raw))
        else:
            out.append(character)
    return "".join(out)


def render_github(diagnostics: Sequence[Diagnostic], root: Path | None = None, shipped: Path | None = None) -> str:
    """GitHub Actions workflow commands: one annotation per diagnostic.

    A file is named as SARIF names it (:func:`repository_name`): relative to ``root``, the root of
    the repository (:func:`source_root`; the working directory when None), which GitHub resolves
    ``file`` against, however `--rules` was spelt and wherever civrules ran; a file of the rules
    shipped with civrules (under ``shipped``) behind `<civrules>/`, never where it is installed. A
    diagnostic about no file (`<command line>`: a usage error) is an annotation without ``file``,
    on no line.
    """
    return "".join(github_chunks(diagnostics, root, shipped))


def github_chunks(
    diagnostics: Iterable[Diagnostic], root: Path | None = None, shipped: Path | None = None
) -> Iterator[str]:
    """:func:`render_github`'s text, an annotation (one line) at a time."""
    level = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}
    for diagnostic in diagnostics:
        props = [f"title={_escape_property(printable(diagnostic.code))}"]
        span = diagnostic.span
        name = repository_name(span.file, root, shipped) if span is not None else None
        if span is not None and name is not None:
            props = [
                f"file={_escape_file(name)}",
                f"line={span.line}",
                f"col={span.column}",
                f"endLine={span.end_line}",
                f"endColumn={span.end_column}",
                *props,
            ]
        message = printable(diagnostic.message) + (f"\nhint: {printable(diagnostic.hint)}" if diagnostic.hint else "")
        for related in diagnostic.related:
            message += f"\nnote: {_repository_location(related.span, root, shipped)}: {printable(related.label)}"
        yield f"::{level[diagnostic.severity]} {','.join(props)}::{_escape_data(message)}\n"


def _repository_location(span: Span, root: Path | None, shipped: Path | None = None) -> str:
    name = repository_name(span.file, root, shipped)
    return _location(span) if name is None else f"{safe_line_start(printable(name))}:{span.line}:{span.column}"


def repository_name(file: str, root: Path | None = None, shipped: Path | None = None) -> str | None:
    """A file named in a diagnostic as the repository names it: its path from ``root`` (the source
    root, :func:`source_root`; the working directory when None), normalised, whether the file was
    named relative to the working directory or absolute; a file outside the root among the rules
    shipped with civrules (the folder ``shipped``) behind `<civrules>/`, as every artifact of
    civrules names it (:func:`civrules.load.names.artifact_name`); any other file outside the root
    by its normalised absolute path (no file of the repository); None for no file at all
    (`<command line>`).

    >>> repository_name("<command line>") is None
    True
    >>> repository_name("/opt/civrules/_rules/maps/m.yaml", Path("/repo"), Path("/opt/civrules/_rules"))
    '<civrules>/maps/m.yaml'
    """
    name = _repository_path(file, root)
    inside = _shipped_path(name, shipped) if name is not None else None
    if inside is None:
        return name
    from civrules.load.names import SHIPPED

    return SHIPPED + inside


def _repository_path(file: str, root: Path | None) -> str | None:
    """:func:`repository_name` but for the shipped rules: a file outside the root by its absolute path."""
    if file.startswith("<"):
        return None
    path = Path(file)
    try:
        cwd = Path.cwd()
    except OSError:  # the working directory is gone: a relative name cannot be placed
        return Path(os.path.normpath(path)).as_posix()
    absolute = Path(os.path.normpath(path if path.is_absolute() else cwd / path))
    relative = os.path.relpath(absolute, (root or cwd).absolute())
    if relative == os.pardir or relative.startswith((os.pardir + "/", os.pardir + "\\")):
        return absolute.as_posix()
    return Path(relative).as_posix()


def _shipped_path(name: str, shipped: Path | None) -> str | None:
    """``name`` (a file as :func:`_repository_path` names it) by its path in the folder of the
    shipped rules ``shipped``; None for a file of the repository, or of no shipped rules."""
    if shipped is None or not os.path.isabs(name):
        return None
    try:
        inside = os.path.relpath(name, os.path.normpath(shipped.absolute()))
    except ValueError:  # pragma: no cover - another drive on Windows
        return None
    if inside in (os.curdir, os.pardir) or inside.startswith((os.pardir + "/", os.pardir + "\\")):
        return None
    return Path(inside).as_posix()


def _family_of(code: str) -> str:
    from civrules.families import family_of_code

    owner = family_of_code(code)
    return owner.id if owner is not None else "core"


def sarif_uri(file: str) -> str:
    """The URI reference of a file named in a diagnostic (SARIF's ``artifactLocation.uri``).

    Every byte of the name outside the unreserved set is percent-encoded, so a name holding
    ``#``, ``?``, ``%``, a space, a control character or bytes that are not UTF-8 names that very
    file, and a first segment with a colon (``javascript:alert(1).yaml``) cannot read as a scheme.
    A path stays a path (an absolute one an absolute-path reference), as viewers resolve it.

    >>> sarif_uri("rules/cards/a b#1.yaml")
    'rules/cards/a%20b%231.yaml'
    >>> sarif_uri("javascript:alert(1).yaml")
    'javascript%3Aalert%281%29.yaml'
    """
    posix = Path(file).as_posix()
    try:
        raw = os.fsencode(posix)
    except UnicodeError:  # a lone surrogate that is no file-system byte: as UTF-8 would hold it
        raw = posix.encode("utf-8", "surrogatepass")
    return quote(raw, safe="/")


#: The base every repository-relative URI of a SARIF log is relative to: the root of the checkout,
#: which code scanning maps to the repository (GitHub resolves it itself).
SRCROOT = "%SRCROOT%"
#: The base of the URIs of the rules shipped with civrules (`<civrules>/...` in civrules' other
#: output): where civrules is installed is each machine's own, so the log gives it no location.
SHIPPED_ROOT = "%CIVRULES%"


def sarif_artifact(file: str, root: Path | None = None, shipped: Path | None = None) -> dict[str, str]:
    """SARIF's ``artifactLocation`` of a file named in a diagnostic: relative to ``root`` (the source
    root, the working directory when None) with ``uriBaseId: %SRCROOT%``, however the file was named
    (relative to the working directory, or absolute, as ``--rules /abs/rules`` names it).

    A file of the rules shipped with civrules (under ``shipped``: a variant's base) is relative to
    ``%CIVRULES%``, the same on every machine: its absolute ``file:`` URI put the machine's install
    path in CI's artifacts, and made the logs of two machines differ. Any other file outside the
    source root keeps an absolute ``file:`` URI (no base): it is no file of the repository, and code
    scanning cannot map it.

    >>> sarif_artifact("/opt/civrules/_rules/maps/m.yaml", Path("/repo"), Path("/opt/civrules/_rules"))
    {'uri': 'maps/m.yaml', 'uriBaseId': '%CIVRULES%'}
    """
    name = _repository_path(file, root)
    if name is None:  # `<command line>`: no file at all
        return {"uri": sarif_uri(file)}
    inside = _shipped_path(name, shipped)
    if inside is not None:
        return {"uri": sarif_uri(inside), "uriBaseId": SHIPPED_ROOT}
    if Path(name).is_absolute():
        return {"uri": "file://" + sarif_uri(name)}
    return {"uri": sarif_uri(name), "uriBaseId": SRCROOT}


def _sarif_location(span: Span, root: Path | None, shipped: Path | None) -> dict[str, Any]:
    return {
        "physicalLocation": {
            "artifactLocation": sarif_artifact(span.file, root, shipped),
            "region": {
                "startLine": span.line,
                "startColumn": span.column,
                "endLine": span.end_line,
                "endColumn": max(span.end_column, span.column),
            },
        }
    }


def render_sarif(
    diagnostics: Sequence[Diagnostic], root: Path | None = None, *, failed: bool = False, shipped: Path | None = None
) -> str:
    """A SARIF 2.1.0 log with one run, the codes used as rules; files relative to ``root`` (the
    source root, see :func:`source_root`), through the base ``%SRCROOT%``, and the files of the
    rules shipped with civrules (the folder ``shipped``) through the base ``%CIVRULES%``.

    A diagnostic about no file (located at ``<command line>``: a usage error, Ctrl-C, the machine
    failing) is no result, which code scanning would show as an alert on a file that does not
    exist: it is a notification of the run's invocation (``toolExecutionNotifications``, its code
    among the driver's ``notifications``). ``failed``: the command stopped without doing its work
    (exit 2 or 130), and the invocation says so (``executionSuccessful: false``), as it does for
    any error among the notifications.
    """
    return "".join(sarif_chunks(diagnostics, root, failed=failed, shipped=shipped))


def sarif_chunks(
    diagnostics: Sequence[Diagnostic], root: Path | None = None, *, failed: bool = False, shipped: Path | None = None
) -> Iterator[str]:
    """:func:`render_sarif`'s text: the log up to its results, then a result at a time, then the rest."""
    results = [d for d in diagnostics if not _about_no_file(d)]
    notes = [d for d in diagnostics if _about_no_file(d)]
    used = sorted({d.code for d in results})
    noted = sorted({d.code for d in notes})
    driver: dict[str, Any] = {"name": "civrules", "version": __version__, "rules": _descriptors(used, results=True)}
    if noted:
        driver["notifications"] = _descriptors(noted, results=False)
    invocation: dict[str, Any] = {
        "executionSuccessful": not failed and not any(d.severity is Severity.ERROR for d in notes)
    }
    if notes:
        invocation["toolExecutionNotifications"] = [
            {
                "descriptor": {"id": d.code, "index": noted.index(d.code)},
                "level": _sarif_level(d.severity),
                "message": {"text": _sarif_text(d)},
            }
            for d in notes
        ]
    log = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": driver},
                "invocations": [invocation],
                # No `uri`: where the checkout was on this machine says nothing to the reader of the
                # log (and would make two runs differ); code scanning takes its own checkout's root.
                "originalUriBaseIds": {
                    SRCROOT: {"description": {"text": "The root of the repository."}},
                    SHIPPED_ROOT: {
                        "description": {
                            "text": f"The rules shipped with civrules {__version__} (named `<civrules>/` in its "
                            "other output), wherever civrules is installed."
                        }
                    },
                },
                "results": [],
            }
        ],
    }
    if not results:
        yield dumps_json(log, indent=2) + "\n"
        return
    # Each result is dumped alone, in the place and at the depth the whole log's dump gives it:
    # the log of 50,000 results dumped whole took 422 MB (every piece of the text held at once).
    head, empty, tail = dumps_json(log, indent=2).rpartition('"results": []')
    assert empty and tail.startswith("\n")
    yield head + '"results": [\n'
    last = len(results) - 1
    for index, diagnostic in enumerate(results):
        result: dict[str, Any] = {
            "ruleId": diagnostic.code,
            "ruleIndex": used.index(diagnostic.code),
            "level": _sarif_level(diagnostic.severity),
            "message": {"text": _sarif_text(diagnostic)},
        }
        if diagnostic.span is not None:
            result["locations"] = [_sarif_location(diagnostic.span, root, shipped)]
        if diagnostic.related:
            result["relatedLocations"] = [
                {"id": i, **_sarif_location(r.span, root, shipped), "message": {"text": printable(r.label)}}
                for i, r in enumerate(diagnostic.related)
            ]
        if diagnostic.subjects:  # SARIF's property bag: what the result is about (the JSON output's `subjects`)
            result["properties"] = {"subjects": [printable(subject) for subject in diagnostic.subjects]}
        indent = " " * 8  # results are at depth 4: the log, `runs`, the run, `results`
        yield indent + dumps_json(result, indent=2).replace("\n", "\n" + indent) + (",\n" if index < last else "\n")
    yield "      ]" + tail + "\n"


#: GitLab's severity of each of civrules' (its scale: info, minor, major, critical, blocker): an
#: error fails the job as a major issue, a warning (an error with `--strict`) is minor.
_GITLAB_SEVERITY = {Severity.ERROR: "major", Severity.WARNING: "minor", Severity.INFO: "info"}


def gitlab_name(diagnostic: Diagnostic, root: Path | None, shipped: Path | None = None) -> str | None:
    """The path GitLab's Code Quality report names ``diagnostic``'s file by: relative to ``root``
    (the repository's root, :func:`source_root`); None where it is about no file of the
    repository (`<command line>`, a file of the shipped rules, a file outside the root), which the
    report cannot hold (GitLab reads ``location.path`` as a file of the repository)."""
    if diagnostic.span is None:
        return None
    name = repository_name(diagnostic.span.file, root, shipped)
    if name is None or name.startswith("<") or os.path.isabs(name):
        return None
    return name


def gitlab_chunks(
    diagnostics: Sequence[Diagnostic], sources: SourceLines, root: Path | None = None, shipped: Path | None = None
) -> Iterator[str]:
    """GitLab's Code Quality report (``artifacts: reports: codequality``), an issue at a time: a
    JSON list of {description, check_name, fingerprint, severity, location: {path, lines: {begin}}},
    each file named from ``root``. A diagnostic about no file of the repository is no issue
    (:func:`gitlab_name`; the command says it on standard error).

    The fingerprint is what GitLab tells an issue by, between the merge request's pipeline and its
    target's: one new there is "introduced", one gone "resolved", and two of one fingerprint are
    shown as one. It is the hash of the code, the file, the message and the source line's text
    without its indentation, not of the line's number, so that an issue a line added above it
    moves is the same issue; and of how many issues before it in the file have all of those, so
    that each is one of its own. The same rules give the same fingerprints in every run.
    """
    seen: dict[str, int] = {}
    first = True
    yield "["
    for diagnostic in diagnostics:
        name = gitlab_name(diagnostic, root, shipped)
        if name is None or diagnostic.span is None:
            continue
        line = sources.line(diagnostic.span.file, diagnostic.span.line)
        key = "\0".join((diagnostic.code, name, diagnostic.message, " ".join((line or "").split())))
        seen[key] = seen.get(key, 0) + 1
        fingerprint = hashlib.sha256(f"{key}\0{seen[key]}".encode("utf-8", "surrogatepass")).hexdigest()
        said = printable(diagnostic.message) + (f"; hint: {printable(diagnostic.hint)}" if diagnostic.hint else "")
        for related in diagnostic.related:  # (a base's file, where a variant's change leaves a reference)
            said += f"; note: {_repository_location(related.span, root, shipped)}: {printable(related.label)}"
        issue = {
            "description": said,
            "check_name": diagnostic.code,
            "fingerprint": fingerprint,
            "severity": _GITLAB_SEVERITY[diagnostic.severity],
            "location": {"path": name, "lines": {"begin": max(diagnostic.span.line, 1)}},
        }
        yield ("\n  " if first else ",\n  ") + dumps_json(issue, indent=2).replace("\n", "\n  ")
        first = False
    yield "]\n" if first else "\n]\n"


def _about_no_file(diagnostic: Diagnostic) -> bool:
    return diagnostic.span is not None and diagnostic.span.file.startswith("<")


def _sarif_text(diagnostic: Diagnostic) -> str:
    return printable(diagnostic.message) + (f"\nhint: {printable(diagnostic.hint)}" if diagnostic.hint else "")


def _descriptors(used: Sequence[str], *, results: bool) -> list[dict[str, Any]]:
    """SARIF's reportingDescriptor of each code: the driver's ``rules`` (``results``) or its
    ``notifications``.

    The codes of notifications are the core's, registered by :mod:`civrules.diagnostics.codes`:
    looking them up imports no check and no family, so a failure to import one of those (a broken
    family, a missing library) is still reported in SARIF.
    """
    from civrules.diagnostics import codes

    known: Mapping[str, codes.Code] = {}
    if results and used:
        from civrules.checks.catalogue import catalogue

        known = catalogue()
    described = []
    for code in used:
        entry = known.get(code) or codes.lookup(code)
        doc = entry.explain() if entry else code
        described.append(
            {
                "id": code,
                "name": entry.name if entry else code,
                # One whole sentence; the documentation (`civrules explain CODE`) is the full one.
                "shortDescription": {"text": entry.summary() if entry else code},
                "fullDescription": {"text": doc},
                "defaultConfiguration": {"level": _sarif_level(entry.severity if entry else Severity.ERROR)},
                # The game family whose rulesets the code is reported on (`core`: every ruleset's).
                "properties": {"family": _family_of(code) if results else "core"},
                # No helpUri: civrules has no published site, and a link that does not resolve is
                # worse than none (`civrules explain CODE` prints the same text as fullDescription).
            }
        )
    return described


def _sarif_level(severity: Severity) -> str:
    return {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}[severity]


def source_root(rules: Path) -> Path:
    """The root SARIF's URIs are relative to: the repository holding the rules folder (the nearest
    folder at or above it with a `.git`; of a submodule, the work tree of the repository holding it,
    see :func:`_superproject`), else the working directory when the rules are under it, else the
    folder holding the rules folder. The same whether ``--rules`` is written relative or
    absolute."""
    cwd = Path.cwd()
    rules = Path(os.path.normpath(rules if rules.is_absolute() else cwd / rules))
    for folder in (rules, *rules.parents):
        if os.path.lexists(folder / ".git"):
            return _superproject(folder) or folder
    if rules == cwd or cwd in rules.parents:
        return cwd
    return rules.parent


def _superproject(folder: Path) -> Path | None:
    """The work tree of the outermost repository holding ``folder`` as a submodule, or None.

    A submodule's `.git` is a file, `gitdir: <superproject>/.git/modules/<name>` (nested ones
    `.../modules/<a>/modules/<b>`). A workflow checks the superproject out (`submodules: true`) and
    GitHub resolves annotations and SARIF from its root: named from the submodule's
    (`rules/rulesets/x.yaml` for `data/rules/rulesets/x.yaml`), they attached to no file of it.
    A linked worktree's `.git` (`gitdir: .../.git/worktrees/<name>`) is a checkout of its own.
    Read from the file, as git reads it: no git is run."""
    try:
        with open(folder / ".git", "rb") as gitfile:
            head = gitfile.read(4096).decode("utf-8", "replace")
    except OSError:  # a folder (a repository's own), or unreadable
        return None
    if not head.startswith("gitdir:"):
        return None
    gitdir = Path(os.path.normpath(folder / head[len("gitdir:") :].strip()))
    parts = gitdir.parts
    for at in range(len(parts) - 1):
        if parts[at : at + 2] == (".git", "modules"):
            top = Path(*parts[:at])
            return top if top in folder.parents else None
    return None


def render(
    diagnostics: Sequence[Diagnostic],
    fmt: str,
    sources: SourceLines,
    *,
    colour: bool = False,
    root: Path | None = None,
    failed: bool = False,
    shipped: Path | None = None,
) -> str:
    """``diagnostics`` in ``fmt``; ``root`` is the source root of SARIF's URIs and of GitHub's
    annotations' files (the working directory when None), ``shipped`` the folder of the rules
    shipped with civrules, which every format names behind `<civrules>/` (text too: round 34);
    ``failed``: the command stopped
    without doing its work (SARIF says so)."""
    return "".join(render_chunks(diagnostics, fmt, sources, colour=colour, root=root, failed=failed, shipped=shipped))


def render_chunks(
    diagnostics: Sequence[Diagnostic],
    fmt: str,
    sources: SourceLines,
    *,
    colour: bool = False,
    root: Path | None = None,
    failed: bool = False,
    shipped: Path | None = None,
) -> Iterator[str]:
    """:func:`render`'s text in pieces, each whole diagnostics (or the frame of the document around
    them), joined as they come: the output of many diagnostics written as it is made is never held
    whole (the SARIF log of 50,000 results is 46 MB; joined, then encoded, it was held three times)."""
    if fmt == "json":
        return json_chunks(diagnostics, shipped)
    if fmt == "github":
        return github_chunks(diagnostics, root, shipped)
    if fmt == "sarif":
        return sarif_chunks(diagnostics, root, failed=failed, shipped=shipped)
    if fmt == "gitlab":
        return gitlab_chunks(diagnostics, sources, root, shipped)
    return text_chunks(diagnostics, sources, colour=colour, shipped=shipped)
