"""Knowing, cheaply, that a build would write exactly what is already there.

A build's output is a pure function of its inputs: the rule files, the schemas, civrules' own
source and templates, the versions of the libraries that shape the output, and the command's
arguments. After a build, civrules records a digest of those inputs and of the tree it wrote in
the user's cache (:mod:`civrules.support.cache`); a later build whose inputs and output tree still hash
the same has nothing to do and stops before reading a single rule. Deleting the cache only costs
one build.

Files are hashed through :mod:`civrules.support.files`: a link is hashed as a link (its target is never
read), and a tree holding anything civrules cannot vouch for — a FIFO, a device, a file over the
size bound, an unreadable file, folders nested too deep — has no digest, so it is never "up to
date": the build runs and reports the problem. A stamp entry that is corrupt or forged is ignored.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from civrules.emit.output import DEFAULT_MAX_BYTES
from civrules.schema import schema_dir
from civrules.support import cache, files
from civrules.support.stored import json_document

#: Libraries whose version can change the bytes of the output (templates, map layout).
_SHAPING = ("jinja2", "networkx", "numpy", "markupsafe")
#: 3: the output's digest is of each file's SHA-256 (:func:`tree_digest`), so that it is made from
#: what a build wrote, not from the tree read again.
_VERSION = 3


@dataclass(frozen=True, slots=True)
class _File:
    """A file's content as a part of a digest, read when it is hashed (not all at once)."""

    root: Path
    relative: str
    max_bytes: int


_Part = str | bytes | _File


def _tree_parts(root: Path, max_bytes: int) -> list[_Part] | None:
    """Path and content of everything under ``root``, or None when something cannot be vouched for."""
    parts: list[_Part] = []
    if not root.is_dir():
        return ["<absent>"]
    for entry in sorted(files.walk(root), key=lambda e: e.relative):
        if "__pycache__" in entry.relative.split("/") or entry.kind == "dir":
            continue
        if entry.kind == "link":
            try:
                parts.extend((entry.relative, "link", os.readlink(root / entry.relative)))
            except OSError:
                return None
            continue
        if entry.kind != "file" or entry.size > max_bytes:
            return None
        parts.extend((entry.relative, _File(root, entry.relative, max_bytes)))
    return parts


@dataclass(frozen=True, slots=True)
class _OwnFile:
    """A file of civrules' own package, as a part of a digest: its folder's path and name."""

    folder: str
    name: str


def _own_parts(root: Path) -> list[_Part | _OwnFile] | None:
    """:func:`_tree_parts` of civrules' own installed package, the same parts (so the same digest)
    made with a plain descriptor-free walk: it is not the user's tree, no one else writes in it, and
    the guarded walk and reads of :mod:`civrules.support.files` (each folder and file opened from the
    root, a component at a time) were a sixth of a no-op build (20 ms of its 185). Links are hashed as
    links, and anything else not a regular file within the bound makes no digest, as there."""
    found: list[tuple[str, tuple[_Part | _OwnFile, ...]]] = []
    pending = [(str(root), "", 0)]
    while pending:
        folder, prefix, depth = pending.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            return None
        for entry in entries:
            relative = f"{prefix}{entry.name}"
            try:
                if entry.is_symlink():
                    found.append((relative, ("link", os.readlink(entry.path))))
                elif entry.is_dir(follow_symlinks=False):
                    if entry.name == "__pycache__":
                        continue
                    if depth + 1 > files.MAX_DEPTH:
                        return None
                    pending.append((entry.path, f"{relative}/", depth + 1))
                elif (
                    entry.is_file(follow_symlinks=False)
                    and entry.stat(follow_symlinks=False).st_size <= DEFAULT_MAX_BYTES
                ):
                    found.append((relative, (_OwnFile(folder, entry.name),)))
                else:
                    return None
            except OSError:
                return None
    parts: list[_Part | _OwnFile] = []
    for relative, what in sorted(found, key=lambda item: item[0]):  # the guarded walk's order: by path
        parts.append(relative)
        parts.extend(what)
    return parts


def _digest(parts: Iterable[_Part | _OwnFile]) -> str | None:
    """:func:`civrules.support.cache.digest` of the parts, each file read as it is hashed (the
    input and output trees were held whole: at 50× the synthetic ruleset's 30 MB, the build's
    peak); None when a file cannot be read."""
    hasher = hashlib.sha256()
    for part in parts:
        if isinstance(part, _File):
            try:
                data = files.read_under(part.root, part.relative, part.max_bytes)
            except (files.RefusedError, OSError):
                return None
        elif isinstance(part, _OwnFile):
            try:  # opened without following a link (nor waiting on a FIFO), a regular file within the bound
                data = files.read_file(Path(part.folder, part.name), DEFAULT_MAX_BYTES)
            except (files.RefusedError, OSError):
                return None
        else:
            data = cache.digest_bytes(part)  # a file name read from the disk may be no UTF-8
        hasher.update(len(data).to_bytes(8, "little"))
        hasher.update(data)
        del data
    return hasher.hexdigest()


def input_digest(rules: Path, arguments: Iterable[str], max_bytes: int = DEFAULT_MAX_BYTES) -> str | None:
    """A digest of everything a build reads, and of how it was asked for (None: cannot be vouched for)."""
    package = Path(__file__).resolve().parent.parent
    parts: list[_Part | _OwnFile] = [json.dumps(sorted(arguments))]
    for name in _SHAPING:
        try:
            parts.append(f"{name}={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            parts.append(f"{name}=absent")
    roots = ((rules, max_bytes), (package, DEFAULT_MAX_BYTES), (schema_dir(), DEFAULT_MAX_BYTES))
    for root, bound in roots:
        found: list[_Part | _OwnFile] | None
        if root == package and root.is_dir():
            found = _own_parts(root)
        else:
            tree = _tree_parts(root, bound)
            found = None if tree is None else list(tree)
        if found is None:
            return None
        parts.append(f"<{len(found)}>")
        parts.extend(found)
    return _digest(parts)


def output_digest(out: Path) -> str | None:
    """A digest of the tree ``out`` as it is now (:func:`tree_digest` of its files), or None when it
    holds something a build never writes (a link, a FIFO, a file over the bound) or cannot be read."""
    if files.kind_of(out.absolute().parent, out.absolute().name) != "dir":
        return None
    found: dict[str, str] = {}
    for entry in files.walk(out):
        if "__pycache__" in entry.relative.split("/") or entry.kind == "dir":
            continue
        if entry.kind != "file" or entry.size > DEFAULT_MAX_BYTES:
            return None
        try:
            found[entry.relative] = hashlib.sha256(files.read_under(out, entry.relative, DEFAULT_MAX_BYTES)).hexdigest()
        except (files.RefusedError, OSError):
            return None
    return tree_digest(found)


def tree_digest(written: Mapping[str, str]) -> str:
    """A digest of a tree given as the SHA-256 of each file by relative path: of the tree as it is
    (:func:`output_digest`), or as civrules wrote it (the digests of the bytes it wrote: read back
    after the swap, a change made there meanwhile was vouched for as the build's)."""
    hasher = hashlib.sha256()
    for relative in sorted(written):
        for part in (cache.digest_bytes(relative), written[relative].encode("ascii")):
            hasher.update(len(part).to_bytes(8, "little"))
            hasher.update(part)
    return hasher.hexdigest()


def _entry(out: Path, arguments: Iterable[str]) -> str:
    return f"build-{cache.digest(str(out.resolve()), json.dumps(sorted(arguments)))}.json"


def _recorded(raw: bytes | None) -> tuple[str, str] | None:
    """The digests a stamp entry holds, or None when it is not a well-formed entry."""
    recorded = json_document(raw)
    if not isinstance(recorded, dict) or recorded.get("version") != _VERSION:
        return None
    inputs, outputs = recorded.get("inputs"), recorded.get("outputs")
    if not all(isinstance(d, str) and len(d) == 64 and set(d) <= set("0123456789abcdef") for d in (inputs, outputs)):
        return None
    assert isinstance(inputs, str) and isinstance(outputs, str)
    return inputs, outputs


def is_up_to_date(
    rules: Path, out: Path, arguments: Iterable[str], max_bytes: int = DEFAULT_MAX_BYTES, *, inputs: str | None = None
) -> bool:
    """True when the last build into ``out`` had the same inputs and ``out`` is as it left it.
    ``inputs``: :func:`input_digest` as taken already (else it is taken here)."""
    arguments = list(arguments)
    recorded = _recorded(cache.read(_entry(out, arguments)))
    if recorded is None:
        return False
    outputs = output_digest(out)
    if outputs is None or outputs != recorded[1]:
        return False
    return (inputs if inputs is not None else input_digest(rules, arguments, max_bytes)) == recorded[0]


def record(out: Path, arguments: Iterable[str], inputs: str | None, written: Mapping[str, str]) -> None:
    """Record that ``out`` now holds what a build of the inputs ``inputs`` writes: the
    :func:`input_digest` taken *before* the build read them (None: nothing is recorded). Taken
    after the write, it held a rule file saved while the build ran, and the next build said "up
    to date" over a tree built from the text before the save. ``written``: the SHA-256 of each file
    the build put in ``out``, from the bytes it wrote (the tree read again after the swap held a
    change made in it meanwhile, and the next build said "up to date" over it)."""
    arguments = list(arguments)
    if inputs is None:
        return
    entry = {"version": _VERSION, "inputs": inputs, "outputs": tree_digest(written)}
    cache.write(_entry(out, arguments), json.dumps(entry).encode("utf-8"))


#: The form of a record of the files a build wrote (:func:`record_written`).
_WRITTEN_VERSION = 1


def _written_entry(out: Path) -> str:
    return f"written-{cache.digest(str(out.resolve()))}.json"


def _file_digests(out: Path) -> dict[str, str]:
    """The SHA-256 of each regular file of the tree ``out`` within the size bound, by relative path
    (links, special files and ``__pycache__`` left out: a build writes none of them)."""
    found: dict[str, str] = {}
    absolute = out.absolute()
    if files.kind_of(absolute.parent, absolute.name) != "dir":
        return found
    for entry in files.walk(out):
        if entry.kind != "file" or entry.size > DEFAULT_MAX_BYTES or "__pycache__" in entry.relative.split("/"):
            continue
        try:
            data = files.read_under(out, entry.relative, DEFAULT_MAX_BYTES)
        except (files.RefusedError, OSError):
            continue
        found[entry.relative] = hashlib.sha256(data).hexdigest()
    return found


def record_written(out: Path, swapped: Mapping[str, str], carried: Iterable[str] = ()) -> None:
    """Record what each file of ``out`` holds as civrules just wrote it: ``swapped``, the SHA-256 of
    the bytes it wrote, by relative path (the tree read again after the swap took a change made in
    it meanwhile for civrules' own). The next build tells the files changed since (:func:`edits`)
    from those it wrote. ``carried``: the files a partial build copied over from the old tree (the
    other rulesets'): recorded as civrules last wrote them, so that a change made there by hand,
    before the copy, is still one (a file it never wrote stays unrecorded); as copied where it
    kept no record."""
    previous = _record_of(out)
    written = dict(swapped)
    for relative in carried if previous is not None else ():
        if previous is not None and relative in previous:
            written[relative] = previous[relative]
        else:
            written.pop(relative, None)
    entry = {"version": _WRITTEN_VERSION, "files": written}
    _WRITTEN_HERE[_written_entry(out)] = written
    cache.write(_written_entry(out), json.dumps(entry, sort_keys=True).encode("utf-8"))


#: The records of written files this process made (:func:`record_written`), by entry name: what a
#: `watch --build` round wrote is known to its next round with the cache off, or cleared meanwhile.
_WRITTEN_HERE: dict[str, dict[str, str]] = {}


def _record_of(out: Path) -> dict[str, str] | None:
    """What civrules last wrote into ``out``, by relative path: the cache's record (another
    civrules, a `build` beside a `watch --build`, may have written since), else this process's;
    None where neither holds one."""
    name = _written_entry(out)
    cached = _recorded_files(cache.read(name))
    return cached if cached is not None else _WRITTEN_HERE.get(name)


def _recorded_files(raw: bytes | None) -> dict[str, str] | None:
    """The digests a record of written files holds, or None when it is not a well-formed one."""
    recorded = json_document(raw)
    if not isinstance(recorded, dict) or recorded.get("version") != _WRITTEN_VERSION:
        return None
    written = recorded.get("files")
    if not isinstance(written, dict) or not all(isinstance(d, str) for d in written.values()):
        return None
    return written


@dataclass(frozen=True, slots=True)
class Edit:
    """A file of an output tree that is not what civrules last wrote there: ``digest``, what it holds
    now; ``written``, what civrules wrote there (None: a file put there, civrules wrote none)."""

    relative: str
    digest: str
    written: str | None


def edits(out: Path) -> list[Edit]:
    """The files of ``out`` changed or added since civrules last wrote it (by hand, or by anything
    else), by path; none when civrules kept no record of that write (another cache, or none, and
    not this process: :func:`unrecorded` is for that case)."""
    recorded = _record_of(out)
    if recorded is None:
        return []
    return [
        Edit(relative, digest, recorded.get(relative))
        for relative, digest in sorted(_file_digests(out).items())
        if recorded.get(relative) != digest
    ]


def unrecorded(out: Path) -> dict[str, str] | None:
    """The SHA-256 of each file of ``out`` (by relative path) where civrules kept no record of what
    it last wrote there (:func:`edits` can tell nothing), for :func:`not_kept` after the write;
    None where it kept one (then :func:`edits` tells), or ``out`` holds no file."""
    if _record_of(out) is not None:
        return None
    return _file_digests(out) or None


def not_kept(before: dict[str, str] | None, written: Mapping[str, str]) -> int:
    """How many files of ``before`` (:func:`unrecorded`, before a write) the tree civrules wrote
    (``written``: :func:`record_written`'s) does not hold as they were: written anew, or gone. Any
    of them may have been changed by hand."""
    if not before:
        return 0
    return sum(written.get(relative) != digest for relative, digest in before.items())


def why_unrecorded(out: Path) -> str:
    """Why civrules has no record of what it last wrote into ``out``, in words for a sentence."""
    folder = cache.cache_dir()
    if folder is None:
        if os.environ.get("CIVRULES_CACHE_DIR") == "":
            return "the cache, where civrules records what it writes, is off (`CIVRULES_CACHE_DIR` is empty)"
        return (
            "civrules has no cache folder to record what it writes in (`CIVRULES_CACHE_DIR` is relative, there is"
            " no home folder, or the cache folder is a symbolic link)"
        )
    if os.path.isdir(folder) and not os.access(folder, os.W_OK):  # a read-only disk, its permissions
        return f"the cache (`{folder}`) cannot be written, so it holds no record of what civrules wrote"
    return (
        f"the cache (`{folder}`) holds no record of what civrules last wrote there (the first build into it "
        "with this cache, or the cache was cleared)"
    )


def lost(found: Iterable[Edit], written: Mapping[str, str], carried: Iterable[str] = ()) -> list[Edit]:
    """Those of ``found`` (:func:`edits`, before a write) that the tree civrules wrote (``written``,
    ``carried``: :func:`record_written`'s) does not hold: written anew, or gone. A file carried over
    by a partial build, or written as it was, is kept."""
    carried = set(carried)
    return [edit for edit in found if edit.relative not in carried and written.get(edit.relative) != edit.digest]
