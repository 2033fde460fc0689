"""The guard against copied text in the rule data: facts from the sources, never their text.

The rule data cites the public transcriptions it takes facts from as ``owner/repo@commit:path``,
and the project's own sources (``../shared/sources``: the rulebooks, and the prose of the community
transcriptions beside them) by rule section or file. This tool keeps fingerprints of every cited
file and of those sources, so that no string of ``rules/`` can repeat a run of :data:`N` words of
one of them. A note may quote a rulebook where the note is about its wording, marked as a quote
(``'…'`` or ``"…"``); the strings that state a rule (:data:`STATED`) never quote:

* ``refresh`` finds every citation in the strings of ``rules/**/*.yaml``, reads each cited file at
  its commit (from the git mirrors in ``--mirrors DIR``, ``DIR/<owner>+<repo>/repo``, or from
  ``--extra DIR/<owner>+<repo>/<commit>/<path>`` for a file no mirror holds), cuts its words into
  overlapping runs of :data:`N` and writes the hash of each run to ``provenance/fingerprints.bin``,
  with ``provenance/index.json`` naming the files; and likewise each source text under
  ``--sources`` (default ``../shared/sources``: :func:`source_texts`). Neither holds a word of the
  files' text.
* ``check`` reads every string of ``rules/**/*.yaml`` but the citations themselves (``source``,
  a value made only of citations, the citations inside a sentence), ids and names, and reports
  each run of :data:`N` or more consecutive words whose hashes are fingerprints; every citation
  the index does not cover, every index entry no citation uses, and (where the sources folder is
  beside the checkout) every source text the index does not hold as it is (run ``refresh``); and
  every citation the last ``refresh`` could not read at its commit (a path or commit the repository
  does not have, or one no mirror held): a citation that leads a reader to no file. Where the
  sources folder is there, ``check`` also holds the citations of the project's own sources to it
  (:func:`source_citations`): a ``community/…`` file or a source text a string names, the lines it
  cites of that text, and each rule index's ``source_file`` and sections (:func:`index_problems`).

Run it from ``compiler/`` (``make provenance MIRRORS=DIR`` and ``make provenance-check``)::

    cd compiler && python -m tools.provenance refresh --mirrors DIR [--extra DIR] [--sources DIR]
    cd compiler && python -m tools.provenance check

Exit status: 0 clean, 1 findings (copied words, a citation not covered, not read or leading to no
file or line of the sources, a stale entry), 2 usage.
civrules itself never runs git; this developer's tool does, to read the mirrors.
"""

from __future__ import annotations

import argparse
import hashlib
import html
import json
import os
import re
import struct
import subprocess
import sys
import zipfile
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from typing import Any, TextIO

from civrules.load import Document, NodePath, read_yaml_file
from civrules.support.stored import json_document

#: How many consecutive words make a match: short enough to catch a copied clause, long enough
#: that the project's own words (game terms, card names, "1 to all other Craft cards") never do.
N = 8
#: Bytes of each hash. With F fingerprints and Q runs looked up, the chance that any two different
#: runs share a hash is about F * Q / 2**64: some 10**5 fingerprints against 10**5 runs of the
#: rule data is 10**10 / 1.8 * 10**19, one in a billion.
DIGEST = 8

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "rules"
#: Where the fingerprints and their index are committed.
DATA = ROOT / "provenance"
FINGERPRINTS = "fingerprints.bin"
INDEX = "index.json"
#: The project's own sources, beside the checkout (``refresh`` reads them; ``check`` needs only the
#: committed fingerprints, and compares the index with them where the folder is there).
SOURCES = ROOT.parent / "shared" / "sources"

#: A third-party citation: ``owner/repo@<40 hex>:path``. The path ends at a space, a quote, a
#: ``;``, ``,``, ``)``, ``]`` or ``}`` (what the data writes after one: "…:path; other/repo@…",
#: "…:path §12 (…)", "(…:path)"); a full stop that ends a sentence is not part of it.
CITATION = re.compile(
    r"(?<![\w./-])(?P<owner>[A-Za-z0-9][A-Za-z0-9-]*)/(?P<repo>[A-Za-z0-9._-]+)"
    r"@(?P<commit>[0-9a-f]{40}):(?P<path>[^\s;,)\]}\"'`]+)"
)
_WORD = re.compile(r"\w+")
#: Fields never checked: citations, ids and names (a name is the source's, by the project's rule).
SKIPPED_FIELDS = frozenset({"source", "id", "name", "rule", "section"})
#: The titles of a rule index's entries: a section's heading or first words, and a paragraph printed
#: twice's first words (``duplicates``), quoted from the rulebook to find them.
INDEX_TITLES = frozenset({("sections", "title"), ("duplicates", "title")})
#: The strings that state a rule in the project's words (what the sheets and the helper print): a
#: quotation of a rulebook is no statement of its own, so it is checked as any copy is. Any other
#: string (a note, a reason) may quote a rulebook, marked as a quote, where its point is the wording.
STATED = frozenset({"text", "description", "eligibility", "order_text"})
#: A passage marked as a quotation: '…' (not an apostrophe: no word character outside either mark),
#: "…", “…” or ‘…’.
_QUOTED = re.compile(r"(?<!\w)'(?=\S).*?(?<=\S)'(?!\w)|\"[^\"]*\"|“[^”]*”|‘[^’]*’")
#: Escapes in a program's string literals (``"…made.\\n" + "2) You…"``), read as the spaces they are.
_ESCAPE = re.compile(r"\\[nrt]")
_TAG = re.compile(r"<[^>]*>")
_ATTRIBUTE = re.compile(r"=\s*\"([^\"]*)\"")


@dataclass(frozen=True, order=True, slots=True)
class Citation:
    """A file of a public repository at a commit."""

    repo: str
    commit: str
    path: str

    def __str__(self) -> str:
        return f"{self.repo}@{self.commit}:{self.path}"

    @property
    def mirror_name(self) -> str:
        """The repository's folder name under ``--mirrors`` and ``--extra``: ``owner+repo``."""
        return self.repo.replace("/", "+")


@dataclass(frozen=True, order=True, slots=True)
class SourceText:
    """A text of the project's sources folder (``../shared/sources``), by its path there and the
    SHA-256 of its bytes (the index says which content its fingerprints are of)."""

    path: str
    sha256: str

    def __str__(self) -> str:
        return f"../shared/sources/{self.path}"

    @property
    def rulebook(self) -> bool:
        """A rulebook the data transcribes (a note may quote it), not a community transcription's prose."""
        return "/" not in self.path


#: What the index holds fingerprints of.
Fingerprinted = Citation | SourceText


def source_texts(sources: Path) -> list[tuple[SourceText, bytes]]:
    """The texts of ``sources`` whose wording the data must not repeat: each rulebook (``*.txt``;
    not its ``*.lined.txt`` copy, the same words) and the prose of the community transcriptions
    (``community/*.md``; their tables are facts). The folder's own README describes the files."""
    found = []
    for path in sorted([*sources.glob("*.txt"), *sources.glob("community/*.md")]):
        if path.name.endswith(".lined.txt") or not path.is_file() or path.is_symlink():
            continue
        raw = path.read_bytes()
        found.append((SourceText(path.relative_to(sources).as_posix(), hashlib.sha256(raw).hexdigest()), raw))
    return found


def find_citations(text: str) -> list[Citation]:
    """The citations written in ``text``, in order: ``"a/b@<40 hex>:src/x.java §12 (…); c/d@…:y.json."``
    cites ``src/x.java`` of a/b and ``y.json`` of c/d."""
    return [Citation(f"{m['owner']}/{m['repo']}", m["commit"], m["path"].rstrip(".:")) for m in CITATION.finditer(text)]


def words(text: str) -> list[str]:
    """The words of ``text``: lower-cased runs of Unicode word characters."""
    return _WORD.findall(text.lower())


def run_hash(run: Sequence[str]) -> int:
    """The fingerprint of a run of words: BLAKE2b of the words joined by one space, :data:`DIGEST` bytes."""
    return int.from_bytes(hashlib.blake2b(" ".join(run).encode("utf-8"), digest_size=DIGEST).digest(), "big")


def run_hashes(stream: Sequence[str]) -> list[int]:
    """The fingerprint of each run of :data:`N` consecutive words of ``stream``, in order."""
    return [run_hash(stream[i : i + N]) for i in range(len(stream) - N + 1)]


# --- the words of a cited file -------------------------------------------------------------------


def file_words(path: str, raw: bytes) -> list[list[str]]:
    """The word streams of a cited file (a run never crosses from one stream into the next).

    A spreadsheet (``.xlsx``): each string of its shared strings and of its sheets' inline strings.
    JSON: each string value, decoded (an escape does not split a word). XML: its text and attribute
    values, entities decoded. Anything else (a program, a data file): its whole text, with the
    ``\\n`` escapes of string literals read as spaces.
    """
    suffix = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    if suffix == "xlsx":
        return [words(text) for text in xlsx_strings(raw)]
    text = raw.decode("utf-8", errors="replace")
    if suffix == "json":
        try:
            document = json.loads(text)
        except (ValueError, RecursionError):  # a cited file that is not JSON, or nested past the parser's depth
            pass
        else:
            return [words(value) for value in json_strings(document)]
    if suffix == "xml":
        text = _TAG.sub(lambda tag: " " + " ".join(_ATTRIBUTE.findall(tag.group())) + " ", text)
        return [words(html.unescape(text))]
    return [words(_ESCAPE.sub(" ", text))]


def json_strings(value: Any) -> Iterator[str]:
    """The string values of a JSON document, in document order (keys are field names: left out)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from json_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from json_strings(item)


_SHARED_STRING = re.compile(r"<(?:si|is)\b[^>]*>(.*?)</(?:si|is)>", re.DOTALL)
_TEXT_RUN = re.compile(r"<t\b[^>]*>(.*?)</t>", re.DOTALL)


def xlsx_strings(raw: bytes) -> list[str]:
    """The strings of a spreadsheet: its shared strings, then each sheet's inline strings (the runs
    of a rich-text string joined), read with :mod:`zipfile` from the XML parts."""
    strings: list[str] = []
    with zipfile.ZipFile(BytesIO(raw)) as book:
        parts = sorted(name for name in book.namelist() if name.startswith("xl/worksheets/") and name.endswith(".xml"))
        for name in ["xl/sharedStrings.xml", *parts]:
            if name not in book.namelist():
                continue
            xml = book.read(name).decode("utf-8", errors="replace")
            for item in _SHARED_STRING.findall(xml):
                strings.append(html.unescape("".join(_TEXT_RUN.findall(item))))
    return strings


def file_fingerprints(path: str, raw: bytes) -> list[int]:
    """The sorted, distinct fingerprints of a cited file."""
    return sorted({digest for stream in file_words(path, raw) for digest in run_hashes(stream)})


# --- the rule data ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Scalar:
    """A string of the rule data and where it is written."""

    file: str
    line: int
    column: int
    path: NodePath
    text: str
    #: The file read (``file`` is its path from the repository, for messages).
    read_from: Path | None = None
    #: The document's ``kind`` (``rule_index``: an index of a primary rulebook's sections).
    kind: str | None = None

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {field_path(self.path)}"


def field_path(path: NodePath) -> str:
    """``cards[3].note`` for ``("cards", 3, "note")``."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text


def rule_files(rules: Path) -> list[Path]:
    return sorted(rules.rglob("*.yaml"))


def display_path(path: Path) -> str:
    """``rules/cards/x.yaml``: the path from the repository (or as given, for a copy elsewhere)."""
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return path.as_posix()


def read_scalars(rules: Path) -> Iterator[Scalar]:
    """Every string value of ``rules/**/*.yaml``, located by the project's reader."""
    for file in rule_files(rules):
        display = display_path(file)
        document, diagnostics = read_yaml_file(file, display)
        if document is None:
            reasons = "; ".join(diagnostic.message for diagnostic in diagnostics) or "unreadable"
            raise UsageError(f"{display}: cannot be read ({reasons}): run `civrules validate`")
        data = document.data
        kind = data.get("kind") if isinstance(data, dict) else None
        yield from _scalars(document, file, display, data, (), kind if isinstance(kind, str) else None)


def _scalars(
    document: Document, file: Path, display: str, value: Any, path: NodePath, kind: str | None
) -> Iterator[Scalar]:
    if isinstance(value, str):
        span = document.span(path)
        yield Scalar(display, span.line, span.column, path, value, file, kind)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _scalars(document, file, display, item, (*path, str(key)), kind)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _scalars(document, file, display, item, (*path, index), kind)


def cited(scalars: Iterable[Scalar]) -> dict[Citation, Scalar]:
    """Each third-party citation of the rule data, with the first string that writes it."""
    found: dict[Citation, Scalar] = {}
    for scalar in scalars:
        for citation in find_citations(scalar.text):
            found.setdefault(citation, scalar)
    return dict(sorted(found.items()))


def checked_text(scalar: Scalar) -> list[str]:
    """The parts of a string that are the project's own words: none of a citation field (``source``,
    ``rule``, a rule index's ``section``; a list of them too), an id or a name, nor a rule index's
    section or duplicate's title (:data:`INDEX_TITLES`: the primary rulebook's heading or first
    words, quoted to find the passage: the rulebook is the project's own source, not a
    transcription); the text between the citations of any other (a value made only of citations
    has none)."""
    if field_of(scalar.path) in SKIPPED_FIELDS:
        return []
    if scalar.kind == "rule_index" and len(scalar.path) >= 3 and scalar.path[-3::2] in INDEX_TITLES:
        return []  # a rulebook's sections, or those of a part of it (its online help's)
    return [part for part in CITATION.split(scalar.text)[:: CITATION.groups + 1] if words(part)]


def field_of(path: NodePath) -> str | None:
    """The field a string is the value of: ``note`` for ``cards[3].note``, ``rule`` for ``cards[3].rule[1]``."""
    if path and isinstance(path[-1], str):
        return path[-1]
    if len(path) >= 2 and isinstance(path[-2], str):
        return path[-2]
    return None


# --- the committed fingerprints --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Entry:
    """One cited file (or source text) in the index: how many fingerprints it has, or why it could not be read."""

    citation: Fingerprinted
    ngrams: int = 0
    unavailable: str | None = None


@dataclass(frozen=True, slots=True)
class Fingerprints:
    entries: tuple[Entry, ...]
    #: Each fingerprint, with the entries (positions in ``entries``) whose files hold its run.
    owners: dict[int, tuple[int, ...]]


class UsageError(Exception):
    """A wrong command line or an unusable input: exit status 2."""


def _order(entry: tuple[Fingerprinted, object]) -> tuple[bool, str]:
    """The index's order: the cited files, then the source texts, each by name."""
    return isinstance(entry[0], SourceText), str(entry[0])


def write_fingerprints(data: Path, entries: Sequence[tuple[Fingerprinted, list[int] | str]]) -> Path:
    """Write ``fingerprints.bin`` (each available file's sorted fingerprints, 8 bytes big-endian,
    one file after another in the index's order) and ``index.json``; returns the index's path."""
    data.mkdir(parents=True, exist_ok=True)
    blob = bytearray()
    files: list[dict[str, Any]] = []
    for citation, found in sorted(entries, key=_order):
        record: dict[str, Any] = (
            {"source": citation.path, "sha256": citation.sha256}
            if isinstance(citation, SourceText)
            else {"repo": citation.repo, "commit": citation.commit, "path": citation.path}
        )
        if isinstance(found, str):
            record["unavailable"] = found
        else:
            record["ngrams"] = len(found)
            blob += struct.pack(f">{len(found)}Q", *found)
        files.append(record)
    index = {
        "about": (
            "Fingerprints of the third-party files the rule data cites and of the project's source texts "
            "(tools/provenance.py): no word of their text, only hashes of their runs of words, for `check` "
            "to find copied wording."
        ),
        "words": "runs of Unicode word characters (\\w+), lower-cased",
        "n": N,
        "hash": f"blake2b, digest_size {DIGEST}, of the {N} words joined by one space (UTF-8), big-endian",
        "fingerprints": FINGERPRINTS,
        "fingerprints_sha256": hashlib.sha256(blob).hexdigest(),
        "files": files,
    }
    (data / FINGERPRINTS).write_bytes(bytes(blob))
    path = data / INDEX
    path.write_text(json.dumps(index, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def load_fingerprints(data: Path) -> Fingerprints:
    """The committed fingerprints and their index."""
    try:
        # The tool's own file, read back as civrules reads back what it wrote: a forged one is no index.
        index = json_document((data / INDEX).read_bytes())
        if not isinstance(index, dict):
            raise ValueError("not an index this tool writes")
        blob = (data / str(index["fingerprints"])).read_bytes()
        entries = tuple(
            Entry(
                SourceText(f["source"], f["sha256"]) if "source" in f else Citation(f["repo"], f["commit"], f["path"]),
                int(f.get("ngrams", 0)),
                f.get("unavailable"),
            )
            for f in index["files"]
        )
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise UsageError(f"{data / INDEX}: no usable fingerprint index ({error}): run `make provenance`") from error
    if index.get("n") != N or len(blob) != DIGEST * sum(e.ngrams for e in entries):
        raise UsageError(f"{data / FINGERPRINTS} does not match {INDEX}: run `make provenance`")
    if hashlib.sha256(blob).hexdigest() != index.get("fingerprints_sha256"):
        raise UsageError(f"{data / FINGERPRINTS} is not the file {INDEX} was written with: run `make provenance`")
    owners: dict[int, tuple[int, ...]] = {}
    offset = 0
    for position, entry in enumerate(entries):
        for digest in struct.unpack_from(f">{entry.ngrams}Q", blob, offset):
            owners[digest] = (*owners.get(digest, ()), position)
        offset += DIGEST * entry.ngrams
    return Fingerprints(entries, owners)


# --- refresh ----------------------------------------------------------------------------------------


def read_cited(citation: Citation, mirrors: Path, extra: Path | None) -> bytes | str:
    """The cited file at its commit, or why it cannot be read (with no path of this machine in it)."""
    mirror = mirrors / citation.mirror_name / "repo"
    if (mirror / ".git").is_dir():
        mirror = mirror / ".git"
    why = f"no mirror of {citation.repo}"
    if mirror.is_dir():
        blob = _git(mirror, "cat-file", "blob", f"{citation.commit}:{citation.path}")
        if blob is not None:
            return blob
        known = _git(mirror, "cat-file", "-e", f"{citation.commit}^{{commit}}") is not None
        why = "no such path at that commit" if known else "the mirror's history lacks that commit"
    if extra is not None:
        copy = (extra / citation.mirror_name / citation.commit / citation.path).resolve()
        if copy.is_relative_to(extra.resolve()) and copy.is_file():
            return copy.read_bytes()
        why += " and no --extra copy"
    return why


def _previous(data: Path) -> dict[Fingerprinted, list[int]]:
    """The fingerprints of each file the committed index holds (none if it is missing or unusable)."""
    try:
        fingerprints = load_fingerprints(data)
    except UsageError:
        return {}
    found: dict[Fingerprinted, list[int]] = {
        entry.citation: [] for entry in fingerprints.entries if entry.unavailable is None
    }
    for digest, owners in fingerprints.owners.items():
        for owner in owners:
            found[fingerprints.entries[owner].citation].append(digest)
    return {citation: sorted(digests) for citation, digests in found.items()}


def _git(git_dir: Path, *arguments: str) -> bytes | None:
    done = subprocess.run(
        ["git", f"--git-dir={git_dir}", *arguments], capture_output=True, check=False, stdin=subprocess.DEVNULL
    )
    return done.stdout if done.returncode == 0 else None


Refreshed = list[tuple[Fingerprinted, list[int] | str]]


def refresh(
    rules: Path, data: Path, mirrors: Path, extra: Path | None, sources: Path | None = SOURCES
) -> tuple[Refreshed, dict[Fingerprinted, str]]:
    """Fingerprint every file the rule data cites, and the source texts of ``sources``, and write
    them to ``data``; returns the entries and the files not readable here whose fingerprints the
    previous index held (kept), with why. Without the sources folder, the index's source texts are kept."""
    if not mirrors.is_dir():
        raise UsageError(f"--mirrors {mirrors}: no such folder (it holds <owner>+<repo>/repo, a git directory)")
    if extra is not None and not extra.is_dir():
        raise UsageError(f"--extra {extra}: no such folder (it holds <owner>+<repo>/<commit>/<path>)")
    previous = _previous(data)
    entries: Refreshed = []
    kept: dict[Fingerprinted, str] = {}
    for citation in cited(read_scalars(rules)):
        raw = read_cited(citation, mirrors, extra)
        if isinstance(raw, str):
            # A file at a commit never changes: fingerprints read on another machine (one with a
            # mirror or a copy this one lacks) stay true, and are kept rather than lost.
            entries.append((citation, previous.get(citation, raw)))
            if citation in previous:
                kept[citation] = raw
            continue
        try:
            entries.append((citation, file_fingerprints(citation.path, raw)))
        except zipfile.BadZipFile:
            entries.append((citation, "not a readable spreadsheet"))
    if sources is not None and sources.is_dir():
        entries += [(text, file_fingerprints(text.path, raw)) for text, raw in source_texts(sources)]
    else:
        for text in sorted(cited for cited in previous if isinstance(cited, SourceText)):
            entries.append((text, previous[text]))
            kept[text] = f"no sources folder at {sources}" if sources is not None else "no sources folder"
    write_fingerprints(data, entries)
    return entries, kept


# --- check ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Finding:
    """A run of words of the rule data that a cited file holds too."""

    scalar: Scalar
    count: int
    citation: Fingerprinted
    run: str
    #: Where the run's first word is written (the string's start where it cannot be found: a word
    #: written with an escape).
    line: int
    column: int

    def __str__(self) -> str:
        where = f"{self.scalar.file}:{self.line}:{self.column}: {field_path(self.scalar.path)}"
        return f"{where}: {self.count} words match {self.citation}"


def locate_run(scalar: Scalar, run: Sequence[str], texts: dict[Path, str]) -> tuple[int, int]:
    """The line and column of ``run``'s first word in the file, searched from the string's start."""
    if scalar.read_from is None:
        return scalar.line, scalar.column
    if scalar.read_from not in texts:
        texts[scalar.read_from] = scalar.read_from.read_text(encoding="utf-8")
    text = texts[scalar.read_from]
    lines = text.split("\n")
    start = sum(len(line) + 1 for line in lines[: scalar.line - 1]) + scalar.column - 1
    pattern = r"(?<!\w)" + r"\W+".join(re.escape(word) for word in run) + r"(?!\w)"
    found = re.compile(pattern, re.IGNORECASE).search(text, start)
    if found is None:
        return scalar.line, scalar.column
    line = text.count("\n", 0, found.start()) + 1
    return line, found.start() - (text.rfind("\n", 0, found.start()) + 1) + 1


def find_copies(scalars: Iterable[Scalar], fingerprints: Fingerprints) -> list[Finding]:
    """Each longest run of :data:`N` or more consecutive words that a cited file holds too."""
    findings: list[Finding] = []
    texts: dict[Path, str] = {}
    quotable = {position for position, entry in enumerate(fingerprints.entries) if _quotable(entry.citation)}
    for scalar in scalars:
        field = field_of(scalar.path)
        for part in checked_text(scalar):
            stream = words(part)
            hits = [fingerprints.owners.get(digest, ()) for digest in run_hashes(stream)]
            if field not in STATED and quotable and any(hits):
                hits = _unquoted(part, hits, quotable)
            start = 0
            while start < len(hits):
                if not hits[start]:
                    start += 1
                    continue
                end = start
                while end + 1 < len(hits) and hits[end + 1]:
                    end += 1
                votes: dict[int, int] = {}
                for owners in hits[start : end + 1]:
                    for owner in owners:
                        votes[owner] = votes.get(owner, 0) + 1
                best = min(votes, key=lambda owner: (-votes[owner], owner))
                run = stream[start : end + N]
                line, column = locate_run(scalar, run, texts)
                citation = fingerprints.entries[best].citation
                findings.append(Finding(scalar, len(run), citation, " ".join(run), line, column))
                start = end + 1
    return findings


def _quotable(entry: Fingerprinted) -> bool:
    return isinstance(entry, SourceText) and entry.rulebook


def _unquoted(part: str, hits: list[tuple[int, ...]], quotable: set[int]) -> list[tuple[int, ...]]:
    """``hits`` (the owners of each run of :data:`N` words of ``part``) without the rulebooks a run
    quotes: a run whose every word is inside a quotation's marks, but for numbers (the section
    number a quotation follows: ``8.2.1: 'There are …'``)."""
    lowered = part.lower()
    passages = [(found.start(), found.end()) for found in _QUOTED.finditer(lowered)]
    inside = [
        word.group().isdigit() or any(start <= word.start() < end for start, end in passages)
        for word in _WORD.finditer(lowered)
    ]
    kept = []
    for i, owners in enumerate(hits):
        if owners and all(inside[i : i + N]) and any(owner in quotable for owner in owners):
            owners = tuple(owner for owner in owners if owner not in quotable)
        kept.append(owners)
    return kept


def coverage(
    scalars: Iterable[Scalar], fingerprints: Fingerprints, data: Path, sources: Path | None = None
) -> list[str]:
    """The citations the index lacks and the index entries no citation uses, each as a message;
    with ``sources`` (where the folder is), the source texts the index does not hold as they are."""
    citations = cited(scalars)
    indexed = {entry.citation for entry in fingerprints.entries if isinstance(entry.citation, Citation)}
    problems = [
        f"{scalar.where}: cites {citation}, which {display_path(data / INDEX)} does not cover"
        for citation, scalar in citations.items()
        if citation not in indexed
    ]
    problems += [
        f"{display_path(data / INDEX)}: {entry.citation} is cited nowhere in the rule data (a stale entry)"
        for entry in fingerprints.entries
        if isinstance(entry.citation, Citation) and entry.citation not in citations
    ]
    if sources is not None and sources.is_dir():
        held = {entry.citation for entry in fingerprints.entries if isinstance(entry.citation, SourceText)}
        now = {text for text, _ in source_texts(sources)}
        problems += [
            f"{text}: its fingerprints in {display_path(data / INDEX)} are not of it as it is now"
            for text in sorted(now - held)
        ]
        problems += [
            f"{display_path(data / INDEX)}: {text} is no longer in the sources folder" for text in sorted(held - now)
        ]
    return problems


REFRESH_HINT = (
    "hint: run `make provenance MIRRORS=DIR [EXTRA=DIR]` (tools/provenance.py refresh) and commit provenance/"
)
UNREAD_HINT = (
    "hint: correct the citation's commit or path to the file as the repository holds it at that commit, "
    "or give the refresh a mirror or an --extra copy of it (`make provenance MIRRORS=DIR [EXTRA=DIR]`)"
)
REWORD_HINT = (
    "hint: say the fact in the project's own words, or leave the text out and keep the citation "
    "(rules/README.md, 'Citing sources')"
)


def unread(scalars: Iterable[Scalar], fingerprints: Fingerprints) -> list[str]:
    """The citations the last refresh could not read at their commits, each as a message at the
    first string that writes it: a citation of a path or commit the repository does not have leads
    a reader to no file, and one no mirror held was never seen to lead to one."""
    citations = cited(scalars)
    return [
        f"{citations[entry.citation].where}: cites {entry.citation}, which the refresh could not read: "
        f"{entry.unavailable}"
        for entry in fingerprints.entries
        if entry.unavailable is not None and isinstance(entry.citation, Citation) and entry.citation in citations
    ]


# --- citations of the project's own sources ----------------------------------------------------------

#: A community transcription named in a string of the data: ``community/advciv_map_areas.csv``.
_COMMUNITY = re.compile(r"(?<![\w./-])community/[\w.-]*\w")
#: A text of the sources folder named in a string (``…-rules.lined.txt``), with the lines the string
#: cites of it where it gives them right after the name: ``….txt, line 1057``, ``….txt (lines 562-1053``.
_SOURCE_TEXT = re.compile(
    r"(?<![\w./-])(?P<name>[\w-]+(?:\.lined)?\.txt)(?:(?:,\s*|\s*\()lines?\s+(?P<first>\d+)(?:-(?P<last>\d+))?)?"
)
#: A rule index's ``source_file`` is written from the folder that holds the checkout:
#: ``shared/sources/<name>``.
SOURCE_FILE_PREFIX = "shared/sources/"
#: The text's pages are split by lines ``---`` (a page-and-heading index's ``p7``).
PAGE_BREAK = "---"
#: What a rule index's note says is printed in place of a section's number: ``Printed '29.8.1.6'``.
_PRINTED_INSTEAD = re.compile(r"Printed '([^']+)'")
RESOLVE_HINT = (
    "hint: cite a file the sources folder holds (../shared/sources, its README lists them) and lines "
    "within it; correct a rule index's line, page or heading to where the text prints it"
)


def _number_on(line: str, number: str) -> bool:
    """Whether ``number`` (5.6) is printed on ``line``, with full stops or commas ('5,6'), and not as
    the start of a longer one (2 in '2,1')."""
    parts = [re.escape(part) for part in number.split(".")]
    return re.search(r"(?<!\d)" + r"[.,]".join(parts) + r"(?![.,]?\d)", line) is not None


def index_problems(index: dict[str, Any], text: str) -> Iterator[str]:
    """Where the sections of a rule index are not where it says in ``text``, the text it indexes: a
    line outside the part indexed; a page (``p7``, ``p7/its-heading``) that is not the page its line
    is on (the text's pages split by lines ``---``) or beyond the last; a printed heading not on its
    line; a printed section number not on its line, unless the note says what is printed instead
    (``Printed '29.8.1.6'``) and that is."""
    lines = text.split("\n")  # the index counts lines as an editor does: other breaks are text
    rulebook = index.get("rulebook") or {}
    part = rulebook.get("part") or {}
    first, last = part.get("first_line", 1), part.get("last_line", len(lines))
    if not 1 <= first <= last <= len(lines):
        yield f"part: lines {first}-{last}, the text has {len(lines)}"
    breaks = [number for number, line in enumerate(lines, 1) if line.strip() == PAGE_BREAK]
    # A break after the last page ends the text; it opens no page.
    pages = 1 + sum(1 for number in breaks if any(line.strip() for line in lines[number:]))
    by_pages = rulebook.get("numbering") == "pages_and_headings"
    for section in index.get("sections") or []:
        name, at, status = str(section["section"]), section["line"], section.get("status")
        if not first <= at <= last or at > len(lines):
            yield f"{name}: line {at} is outside the part indexed, lines {first}-{last}"
            continue
        line = lines[at - 1]
        if by_pages:
            page = int(name.split("/")[0][1:])
            on_page = 1 + sum(1 for number in breaks if number < at)
            if page != on_page:
                yield f"{name}: line {at} is on page {on_page} of the text ({pages} pages)"
            title = section.get("title")
            heading = "/" in name and status == "printed" and isinstance(title, str)
            if heading and title.rstrip("…").casefold() not in line.casefold():
                yield f"{name}: its heading {title!r} is not on line {at}"
        elif status == "printed" and not _number_on(line, name):
            instead = _PRINTED_INSTEAD.search(str(section.get("note", "")))
            if instead is None or instead.group(1) not in line:
                yield f"{name}: the number is not printed on line {at}, and no note says what is"


def _line_count(path: Path, counted: dict[Path, int]) -> int:
    if path not in counted:
        counted[path] = len(path.read_text(encoding="utf-8").split("\n"))
    return counted[path]


def _index_resolves(scalar: Scalar, sources: Path) -> list[str]:
    """A rule index's ``source_file`` (``scalar``) is in the sources folder, and each of the index's
    sections is where the index says in it."""
    if not scalar.text.startswith(SOURCE_FILE_PREFIX):
        return [f"{scalar.where}: {scalar.text} is not under {SOURCE_FILE_PREFIX}"]
    text_path = sources / scalar.text[len(SOURCE_FILE_PREFIX) :]
    if not text_path.is_file():
        return [f"{scalar.where}: {scalar.text}, which the sources folder does not hold"]
    document = read_yaml_file(scalar.read_from, scalar.file)[0] if scalar.read_from is not None else None
    index = document.data if document is not None else None
    if not isinstance(index, dict):
        return []
    text = text_path.read_text(encoding="utf-8")
    return [f"{scalar.file}: sections: {problem} ({scalar.text})" for problem in index_problems(index, text)]


def source_citations(scalars: Iterable[Scalar], sources: Path) -> list[str]:
    """The citations of the project's own sources that lead a reader to nothing, each as a message
    at the string that writes it: a community transcription or a source text the sources folder
    does not hold, lines beyond the end of the text named, and (in a rule index, whose sections
    every `rule:` is held to by Q001) a ``source_file`` that is not there or a section that is not
    where the index says in it (:func:`index_problems`)."""
    problems: list[str] = []
    counted: dict[Path, int] = {}
    for scalar in scalars:
        for found in _COMMUNITY.finditer(scalar.text):
            if not (sources / found.group(0)).is_file():
                problems.append(f"{scalar.where}: cites {found.group(0)}, which the sources folder does not hold")
        for found in _SOURCE_TEXT.finditer(scalar.text):
            name, first = found.group("name"), found.group("first")
            path = sources / name
            if not path.is_file():
                problems.append(f"{scalar.where}: cites {name}, which the sources folder does not hold")
            elif first is not None:
                last, length = int(found.group("last") or first), _line_count(path, counted)
                if not 1 <= int(first) <= last <= length:
                    lines = f"line {first}" if found.group("last") is None else f"lines {first}-{last}"
                    problems.append(f"{scalar.where}: cites {lines} of {name}, which has {length} lines")
        if scalar.kind == "rule_index" and scalar.path == ("rulebook", "source_file"):
            problems += _index_resolves(scalar, sources)
    return problems


def check(rules: Path, data: Path, out: TextIO | None = None, sources: Path | None = SOURCES) -> int:
    """Print the findings and the citations the index does not match; 1 when there is any."""
    out = out or sys.stdout
    fingerprints = load_fingerprints(data)
    scalars = list(read_scalars(rules))
    problems = coverage(scalars, fingerprints, data, sources)
    for problem in problems:
        print(problem, file=out)
    if problems:
        print(REFRESH_HINT, file=out)
    findings = find_copies(scalars, fingerprints)
    for finding in findings:
        print(f'{finding}\n  the words: "{finding.run}"', file=out)
    if findings:
        print(REWORD_HINT, file=out)
    unreadable = unread(scalars, fingerprints)
    for problem in unreadable:
        print(problem, file=out)
    if unreadable:
        print(UNREAD_HINT, file=out)
    unresolved = source_citations(scalars, sources) if sources is not None and sources.is_dir() else []
    for problem in unresolved:
        print(problem, file=out)
    if unresolved:
        print(RESOLVE_HINT, file=out)
    return 1 if problems or findings or unreadable or unresolved else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.provenance", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    do_refresh = commands.add_parser("refresh", help="fingerprint every cited file again")
    do_refresh.add_argument("--mirrors", type=Path, required=True, help="the git mirrors: DIR/<owner>+<repo>/repo")
    do_refresh.add_argument("--extra", type=Path, help="files no mirror holds: DIR/<owner>+<repo>/<commit>/<path>")
    do_check = commands.add_parser("check", help="find copied wording and citations the index does not match")
    for command in (do_refresh, do_check):
        command.add_argument("--rules", type=Path, default=RULES, help="the rule data (default: rules/)")
        command.add_argument("--data", type=Path, default=DATA, help="the fingerprints (default: provenance/)")
        command.add_argument(
            "--sources", type=Path, default=SOURCES, help="the project's sources (default: ../shared/sources)"
        )
    arguments = parser.parse_args(argv)
    try:
        if arguments.command == "check":
            return check(arguments.rules, arguments.data, sources=arguments.sources)
        entries, kept = refresh(arguments.rules, arguments.data, arguments.mirrors, arguments.extra, arguments.sources)
    except UsageError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    total = sum(len(found) for _, found in entries if not isinstance(found, str))
    unavailable = [(citation, found) for citation, found in entries if isinstance(found, str)]
    print(
        f"{display_path(arguments.data / INDEX)}: {len(entries)} cited files, {len(entries) - len(unavailable)} "
        f"fingerprinted ({total} runs of {N} words, {DIGEST * total} bytes), {len(unavailable)} unavailable"
    )
    for citation, why in unavailable:
        print(f"unavailable: {citation}: {why}", file=sys.stderr)
    for citation, why in kept.items():
        print(f"kept from the previous index: {citation} ({why} here)", file=sys.stderr)
    return 0


if __name__ == "__main__":  # pragma: no cover
    try:
        sys.exit(main())
    except BrokenPipeError:  # `check | head`: the reader has gone, and so has the point of printing
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
