"""Writing an output tree atomically, only where civrules may, and comparing one with what is on disk.

**Where.** civrules replaces only a folder it wrote itself. Every tree it writes carries a marker
file (:data:`MARKER`); before anything is removed or swapped, :func:`check_replaceable` refuses a
target that is a link, a file, a FIFO or a device, the working directory or one of its ancestors,
the rules folder, a folder inside it or one of its ancestors, and any existing folder that is
neither empty nor marked, or marked by another kind of tree (the marker names the command that
writes the tree: ``build``, ``schemas``, ``sheets`` or ``helpers``). Who owns a folder is never
guessed from the shape of its paths: a folder of ``python/<name>/`` and ``sheets/<name>/`` files
without the marker is the user's (a tree civrules wrote before it marked its trees is refused too,
with a hint to move it aside or delete it; the repository's own ``generated/`` carries the marker).

**Links.** civrules follows no symbolic link inside the project: a folder on the way to an
output tree that lies in the working directory, or in the folder holding the rules, is refused when
it is a link (``dist -> /tmp/elsewhere`` would write outside the project), and so is the output
folder itself, wherever it is. The folders above the working directory (and above the rules'
folder) are the user's to choose and are followed (``/tmp -> /private/tmp`` on macOS, a home
folder on another disk): an ``--out`` outside the project is the user's explicit choice. The
folders civrules creates on the way are made one at a time without following links
(:func:`civrules.support.files.make_folders`).

**How.** A build writes the complete new tree beside the old one (``civrules build`` puts each file
into that staging tree as it is rendered, :class:`StagedTree`; other callers hand a tree rendered in
memory to :func:`write_tree`), then swaps the two directories in one step (Linux
``renameat2(RENAME_EXCHANGE)``; elsewhere two renames, with the old tree kept until the new one is in
place). A build that fails, runs out of space or is killed leaves the previous tree untouched: a
reader sees the old tree or the new one, never a mix. Every staged file, and then every staged
folder, is synced to disk before the swap; the syncs run on threads of their own
(``_Syncer``) while the next files are rendered and written, and are all waited for before the
swap. A file of the old tree that already holds what is written in its place, and is in every
other way what a new file would be, is kept: linked into the staging tree (:class:`_Previous`),
synced like the others, its modification time unchanged. A failure of the file system (a sync's
too) is an :class:`OutputError` naming its cause.
The new tree's folder takes the mode and group of the folder it replaces, or the umask's mode
(:func:`_take_metadata`).

**Reading.** An output tree is read through :mod:`civrules.support.files`: a link, a FIFO, a device or a
file over the size bound in it is reported, never followed or read.
"""

from __future__ import annotations

import contextlib
import ctypes
import difflib
import errno
import hashlib
import os
import queue
import shutil
import stat
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from civrules import __version__
from civrules.diagnostics.words import count, named_path, ticked
from civrules.support import cache, files, interrupts

try:
    import fcntl
except ImportError:  # Windows: a staging folder's writer is known by its process number alone
    fcntl = None  # type: ignore[assignment]

#: A rendered tree: relative POSIX path → file content.
Tree = Mapping[str, bytes]

#: The file civrules writes into every tree it creates; only a tree holding it is replaced.
MARKER = ".civrules-output"
#: What every marker starts with (a marker of a civrules before round 20 is these lines alone).
MARKER_HEAD = (
    b"This folder is written by civrules, and replaced whole by its next build.\n"
    b"Keep nothing else here. civrules replaces only folders that hold this file.\n"
)

#: The kinds of tree civrules writes, each by one command: a tree is replaced only by its own kind.
KINDS = ("build", "schemas", "sheets", "helpers")


#: What starts the marker's line naming the civrules that wrote the tree (a marker of a civrules
#: before round 34 has none).
MARKER_VERSION = b"civrules: "


def marker_text(kind: str) -> bytes:
    """The marker of a tree of ``kind`` (one of :data:`KINDS`): the command that writes it, on a line
    of its own, after :data:`MARKER_HEAD`, then the version of civrules that wrote it. `build --check`
    reads the version (:func:`marked_version`): a repository that upgraded civrules and did not build
    again is told so, and a CI whose civrules is older than the one that wrote the tree is told to
    upgrade, not to write older output over it. The tree's other files do not name the version, so
    an upgrade that changes nothing else changes one line of one file."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind of output tree: {kind!r}")
    return (
        MARKER_HEAD
        + f"kind: {kind} (the command that writes it)\n".encode()
        + MARKER_VERSION
        + f"{__version__} (the version that wrote it)\n".encode()
    )


#: The marker of a `civrules build` tree (``generated/``).
MARKER_TEXT = marker_text("build")

#: Output files over this size are reported, not read, when a tree is compared or carried over.
DEFAULT_MAX_BYTES = 64 * 1024 * 1024

_AT_FDCWD = -100
#: How a staging folder is opened to lock it: never through a link.
_FOLDER = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_RENAME_EXCHANGE = 2

_CAUSES = {
    errno.EROFS: "the file system is read-only",
    errno.ENOSPC: "no space is left on the device",
    errno.EDQUOT: "the disk quota is exceeded",
    errno.EFBIG: "a file would exceed the file-size limit",
    errno.EACCES: "permission denied",
    errno.EPERM: "the operation is not permitted",
    errno.ENAMETOOLONG: "a file name is too long",
    errno.ENOTDIR: "a part of the path is not a folder",
    errno.EMLINK: "too many links",
    errno.EIO: "an input/output error",
    errno.EBUSY: "the folder is in use (a mount point)",
}


class OutputError(Exception):
    """Nothing was written: a plain sentence saying why (exit 2, not a bug in civrules), and
    ``hint``, what the user can do about it (None when the sentence says it)."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.hint = hint


def cause(error: OSError) -> str:
    """What an OSError means, in words a user can act on."""
    return _CAUSES.get(error.errno or 0) or (error.strerror or str(error)).lower()


def unwritable(root: Path, error: OSError) -> OutputError:
    """The failure of writing the tree ``root`` (nothing was changed), with a hint where the user's
    remedy is not the usual one (permissions, free space: the command line's hint).

    A tree is written beside ``root`` and renamed into its place, which the system refuses where
    ``root`` is a mount point (EBUSY) or the rename would cross file systems (EXDEV): checking that
    the folder can be written, as the usual hint says, finds nothing wrong."""
    hint = None
    if error.errno in (errno.EBUSY, errno.EXDEV):
        inside = root / "generated"
        hint = (
            f"{named_path(root)} is a mount point (or on another file system than its folder): civrules writes a "
            f"new tree beside it and renames it into place, which the system refuses there; name a "
            f"folder inside it with --out ({named_path(inside)})"
        )
    in_the_way = files.not_folder_on(root) if error.errno == errno.ENOTDIR else None
    if in_the_way is not None:
        there, what = in_the_way
        return OutputError(
            f"cannot write {named_path(root)}: {named_path(there)} is not a folder but {what}; nothing was changed",
            f"move what is at {named_path(there)} away, or name another folder with --out",
        )
    return OutputError(
        f"cannot write {named_path(root)}: {cause(error)}; nothing was changed", hint or path_hint(error)
    )


#: What to do where the system refused a path for its shape, not its permissions or the space
#: left: "check that the folder can be written (its permissions, the free space)" and "make it
#: readable" were the hints for a path too long or running through a file.
_PATH_HINTS = {
    errno.ENAMETOOLONG: "name a shorter path: each name in it at most 255 bytes, the whole of it at most 4,096",
    errno.ENOTDIR: "a part of the path is a file, not a folder: name a path whose every folder is one",
    errno.ELOOP: "a symbolic link in the path leads to itself: remove the loop, or name the folder it should reach",
}


def path_hint(error: OSError) -> str | None:
    """The hint for an OSError caused by the shape of its path (too long, through a file, a link
    loop) or by a limit of the process or the system (:func:`civrules.support.files.limit_hint`),
    or None."""
    return _PATH_HINTS.get(error.errno or 0) or files.limit_hint(error)


@dataclass(slots=True)
class Scan:
    """An output tree as found on disk: its readable files, and what could not be read."""

    files: dict[str, bytes] = field(default_factory=dict)
    #: relative path → why it was not read (a link, a FIFO, a device, too large, too deep).
    foreign: dict[str, str] = field(default_factory=dict)


def scan_tree(root: Path, max_bytes: int = DEFAULT_MAX_BYTES, *, wanted: Callable[[str], bool] | None = None) -> Scan:
    """Every regular file under ``root`` (nothing when it is not a folder), links and specials
    reported. ``wanted``: the only files read are those it takes (by relative path), and those over
    ``max_bytes``, which are reported, not read; all the others are left out unread."""
    absolute, sizes, foreign = _survey(root)
    found = Scan(foreign=foreign)
    for relative in sorted(sizes):
        if wanted is not None and sizes[relative] <= max_bytes and not wanted(relative):
            continue
        try:
            found.files[relative] = files.read_under(absolute, relative, max_bytes)
        except files.RefusedError as refused:
            found.foreign[relative] = refused.reason
    return found


def _survey(root: Path, *, empty: bool = False) -> tuple[Path, dict[str, int], dict[str, str]]:
    """``root`` made absolute, the size of each regular file under it (none read), and why each
    other thing found is not read (a link, a FIFO, a device, too deep; with ``empty``, a folder with
    nothing in it, which a tree civrules writes never holds: it writes files, and their folders)."""
    absolute, sizes, foreign, _ = _survey_folders(root, empty=empty)
    return absolute, sizes, foreign


def _survey_folders(root: Path, *, empty: bool = False) -> tuple[Path, dict[str, int], dict[str, str], set[str] | None]:
    """:func:`_survey`, and the folders found under ``root`` (``""``: ``root`` itself): all of them
    where the walk saw every entry (none where ``root`` is not there), else None (not known)."""
    sizes: dict[str, int] = {}
    foreign: dict[str, str] = {}
    folders: list[str] = []
    holding: set[str] = set()
    whole = True  # every entry walked: a folder is empty only where its entries were all seen
    absolute = _absolute(root)
    kind = files.kind_of(absolute.parent, absolute.name) if absolute.parent != absolute else "dir"
    if kind == "link":
        foreign[""] = "a symbolic link (civrules writes none; it is not followed)"
    if kind != "dir":
        return absolute, sizes, foreign, set() if kind == "missing" else None
    for entry in files.walk(absolute):
        holding.add(entry.relative.rpartition("/")[0])
        if "__pycache__" in entry.relative.split("/"):
            continue  # an import of a generated package wrote it: neither compared nor reported
        if entry.kind == "dir":
            folders.append(entry.relative)
        elif entry.kind == "file":
            sizes[entry.relative] = entry.size
        elif entry.kind == "link":
            foreign[entry.relative] = "a symbolic link (civrules writes none; it is not followed)"
        elif entry.kind == "special":
            foreign[entry.relative] = "not a regular file (civrules writes none; it is not read)"
        elif entry.kind == "deep":
            foreign[entry.relative] = f"folders nested more than {files.MAX_DEPTH} deep (not read)"
        elif entry.kind == "unreadable":
            foreign[entry.relative] = f"a folder that cannot be listed ({files.cause(entry.errno)})"
        elif entry.kind == "many":
            foreign[entry.relative] = f"more than {files.MAX_ENTRIES:,} entries in the tree (the rest not read)"
            whole = False
    if empty and whole:
        for folder in folders:
            if folder not in holding and folder not in foreign:
                foreign[folder] = "an empty folder (civrules writes none)"
    return absolute, sizes, foreign, {"", *folders} if whole else None


def read_tree(root: Path, max_bytes: int = DEFAULT_MAX_BYTES) -> dict[str, bytes]:
    """Every regular file under ``root`` (empty when it does not exist), by relative POSIX path."""
    return scan_tree(root, max_bytes).files


def check_replaceable(out: Path, protected: Iterable[Path] = (), *, contents: bool = True, kind: str = "build") -> None:
    """Raise :class:`OutputError` unless civrules may replace ``out`` by a tree of its own of ``kind``.

    ``protected`` are folders that must survive whatever is asked (the rules folder): ``out`` may
    be neither one of them, nor inside one, nor above one. The working directory and its
    ancestors are always protected. A folder on the way to ``out`` inside the project (see
    :func:`refuse_links`) may not be a link. With ``contents=False`` (for ``build --check`` and
    ``schemas --check``, which read the tree but write nothing) only where ``out`` is, and whose
    tree its marker says it is, are judged: another command's tree is not compared (its every file
    was called stale, and the hint's build refused); what else the write would refuse is compared,
    and :func:`before_replacing` says what to do before the write.

    A marked folder is replaced only by a tree of the kind its marker names (`civrules sheets X
    --out schemas` would have deleted the schemas `init` wrote); a marker that names no kind,
    written by a civrules before round 20, is taken by any kind, as it was, and then names one.
    """
    shown = named_path(out)
    guarded = tuple(protected)
    target = _absolute(out, [folder.parent for folder in guarded])
    if target.parent == target:
        raise OutputError(f"refusing to write into {shown}: it is the root of the file system")
    cwd = Path.cwd().resolve()
    if cwd.is_relative_to(target):
        what = "the working directory" if cwd == target else "a folder above the working directory"
        raise OutputError(f"refusing to replace {shown}: it is {what}; choose an --out folder of its own")
    for folder in guarded:
        real = folder.resolve()
        if real.is_relative_to(target) or target.is_relative_to(real):
            relation = "is" if real == target else "holds" if real.is_relative_to(target) else "is inside"
            raise OutputError(
                f"refusing to write into {shown}: it {relation} the rules folder {named_path(folder)}; "
                "choose an --out folder outside it"
            )
    inside = cache.lies_in(target)
    if inside is not None:
        folder, variable = inside
        raise OutputError(
            f"refusing to write into {shown}: it holds the cache folder {named_path(folder)} ({variable}), "
            "whose entries civrules trusts and which the output would replace",
            f"set {variable} to a folder of yours outside the project and its outputs (the default is "
            "~/.cache/civrules), or CIVRULES_CACHE_DIR= (empty) to run without a cache",
        )
    found = files.kind_of(target.parent, target.name) if target.parent.is_dir() else "missing"
    marked = marked_kind(target) if found == "dir" else None
    if marked not in (None, "", kind):
        raise _another_kind(out, printable_kind(marked or ""), kind, compare=not contents)
    if found == "missing" or not contents:
        return
    if found == "link":
        raise OutputError(f"refusing to replace {shown}: it is a symbolic link; civrules does not follow links")
    if found != "dir":
        try:
            what = files.no_folder(os.lstat(target).st_mode)
        except OSError:  # gone since it was looked at
            what = "no folder"
        raise OutputError(f"refusing to replace {shown}: it is not a folder but {what}")
    if marked is not None or _is_empty(target):
        return
    # Never judged by the shape of its paths: `python/<x>/<y>` and `sheets/<x>/<y>` files were
    # taken for a tree civrules wrote before it marked them, and a user's folder was replaced.
    unusable = _UNUSABLE_MARKER.get(files.kind_of(target, MARKER))
    if unusable is not None:  # there is one, and it is no marker: never said to be missing
        raise OutputError(
            f"refusing to replace {shown}: its `{MARKER}` is {unusable}, so civrules cannot tell that "
            "it wrote the folder",
            "civrules replaces only a folder whose marker it wrote, an empty one or a new one: choose "
            "another --out folder, or move this one aside (or delete it) yourself",
        )
    raise OutputError(
        f"refusing to replace {shown}: it holds files civrules did not write (no `{MARKER}` in it)",
        "civrules replaces only a folder it made (one holding that marker), an empty one or a new "
        "one: choose another --out folder, or move this one aside (or delete it) yourself; a "
        "generated/ written by a civrules older than the marker is taken once it is deleted",
    )


#: What a marker civrules cannot take is, by what :func:`civrules.support.files.kind_of` finds.
_UNUSABLE_MARKER = {
    "file": "not one civrules wrote (its first line is not civrules' marker, or it cannot be read)",
    "dir": "a folder",
    "link": "a symbolic link (civrules follows none)",
    "special": "not a regular file (a FIFO, a socket or a device)",
}


#: The commands that compare a tree of their kind with `--check`.
_CHECKED_KINDS = ("build", "schemas")


def _another_kind(out: Path, marked: str, kind: str, *, compare: bool) -> OutputError:
    """The refusal of ``kind`` (to replace, or with ``compare`` to compare) a folder whose marker
    says the command ``marked`` wrote it; its hint names what is the folder's to write or check."""
    shown = named_path(out)
    said = f"it holds the output of civrules' `{marked}` command (its `{MARKER}` says so)"
    if not compare:
        return OutputError(
            f"refusing to replace {shown}: {said}, not of `{kind}`",
            f"`{kind}` replaces only a folder of its own, an empty one or a new one: name another --out "
            f"folder for it; {shown} is written again by `{marked}` (delete it yourself first if it is "
            "no longer wanted)",
        )
    from civrules.support.commands import command

    if marked in _CHECKED_KINDS:
        own = f"{ticked(command(marked, '--check', '--out', out))} compares it"
    else:
        own = f"{shown} is written again by `{marked}`"
    return OutputError(
        f"refusing to compare {shown} with what `{kind}` writes: {said}",
        f"`{kind} --check` compares the folder `{kind}` writes: name that one with --out; {own}",
    )


def before_replacing(out: Path, protected: Iterable[Path] = (), *, kind: str = "build") -> str | None:
    """What the user must do before `civrules KIND --out OUT` takes ``out`` (None: nothing), for a
    hint that pastes that command: a folder the write would refuse is moved aside, a link removed."""
    guarded = tuple(protected)
    try:
        check_replaceable(out, guarded, kind=kind)
    except OutputError:
        target = _absolute(out, [folder.parent for folder in guarded])
        if files.kind_of(target.parent, target.name) == "link":
            return f"remove the link {named_path(out)} (civrules does not follow links)"
        return f"move {named_path(out)} aside (or delete it) yourself, as `{kind}` replaces only a folder it wrote"
    return None


def refuse_links(out: Path, roots: Iterable[Path] = ()) -> Path:
    """``out`` made absolute, its folders resolved; :class:`OutputError` when one inside the project is a link.

    The project is the working directory and each of ``roots`` (the folder holding the rules): a
    folder on the way to ``out`` that lies in one of them may not be a symbolic link, wherever the
    link points. Above them, links are followed (the user's own layout: ``/tmp ->
    /private/tmp``), and where a link leads into the project the folders below it are judged too.
    The last component is not judged here (:func:`check_replaceable` refuses it when it is a
    link); folders that do not exist yet are made by civrules without following links.
    """
    inside = [Path(os.path.realpath(root)) for root in (Path.cwd(), *roots)]
    absolute = _dots_taken(out, inside)
    if absolute.parent == absolute:
        return absolute
    real = Path(absolute.anchor)
    parts = absolute.parent.parts[1:]
    for index, part in enumerate(parts):
        candidate = real / part
        try:
            mode = os.lstat(candidate).st_mode
        except OSError:  # missing (civrules makes the rest) or unreadable (the write says why)
            return Path(real, *parts[index:], absolute.name)
        if stat.S_ISLNK(mode):
            if any(real.is_relative_to(root) for root in inside):
                raise _link_on_the_way(out, Path(absolute.anchor, *parts[: index + 1]))
            candidate = Path(os.path.realpath(candidate))
        real = candidate
    return real / absolute.name


def _dots_taken(out: Path, inside: list[Path]) -> Path:
    """``out`` made absolute, each ``..`` taken as the system takes it (:func:`files.dots_taken`); a
    link inside the project that a ``..`` goes back through is refused."""
    try:
        return files.dots_taken(out, inside)
    except files.LinkOnTheWayError as crossed:
        raise _link_on_the_way(out, crossed.link) from None


def _link_on_the_way(out: Path, link: Path) -> OutputError:
    """The refusal of ``out``, whose way goes through ``link``, a link inside the project."""
    shown = os.path.relpath(link) if link.is_relative_to(Path.cwd()) else str(link)
    return OutputError(
        f"refusing to write into {named_path(out)}: {named_path(shown)} is a symbolic link inside the "
        "project; civrules does not follow links",
        f"civrules writes only into real folders of the project; remove the link {named_path(shown)}, "
        "or give the folder it points at as --out if it is yours",
    )


def _absolute(path: Path, roots: Iterable[Path] = ()) -> Path:
    """``path`` made absolute with every folder above it resolved, but not the last component;
    :class:`OutputError` when one of those folders inside the project is a link (:func:`refuse_links`)."""
    return refuse_links(path, roots)


def marked_kind(root: Path) -> str | None:
    """The kind of tree the marker in ``root`` names (``"build"``, ``"schemas"``...), ``""`` for a
    marker that names none (a civrules before round 20 wrote it), None when ``root`` holds no marker."""
    try:
        text = files.read_under(root, MARKER, 4096)
    except (files.RefusedError, OSError):
        return None
    return _marker_kind(text)


def _marker_kind(text: bytes) -> str | None:
    """The kind of tree a marker's ``text`` names, as :func:`marked_kind` says it."""
    if not text.startswith(MARKER_HEAD.split(b"\n", 1)[0]):
        return None
    for line in text.split(b"\n"):
        if line.startswith(b"kind: "):
            named = line.removeprefix(b"kind: ").split(b" ", 1)[0].decode("ascii", "replace")
            return named or "?"
    return ""


def marked_version(root: Path) -> tuple[str | None, int] | None:
    """The civrules version the marker in ``root`` names and the line that names it, ``(None, 1)``
    for a marker that names none (a civrules before round 34 wrote it), None when ``root`` holds no
    marker. A version read is shown as it may be (a marker is anyone's to write): a text of the
    characters a version is written with, else ``"?"``."""
    try:
        text = files.read_under(root, MARKER, 4096)
    except (files.RefusedError, OSError):
        return None
    return marked_version_in(text)


def marked_version_in(text: bytes | None) -> tuple[str | None, int] | None:
    """:func:`marked_version` of a marker's ``text`` (None: no marker), read elsewhere than from
    disk: a commit's copy (`build --check --staged` in a commit of some paths)."""
    if text is None or _marker_kind(text[:4096]) is None:
        return None
    for number, line in enumerate(text[:4096].split(b"\n"), 1):
        if line.startswith(MARKER_VERSION):
            named = line.removeprefix(MARKER_VERSION).split(b" ", 1)[0].decode("ascii", "replace")
            shown = named if named and len(named) <= 64 and all(c.isalnum() or c in ".+!-_" for c in named) else "?"
            return shown, number
    return None, 1


def printable_kind(kind: str) -> str:
    """A kind read from a marker, as it may be shown (a marker is anyone's to write)."""
    return kind if kind.isascii() and kind.replace("-", "").isalnum() else "?"


def _is_marked(root: Path) -> bool:
    return marked_kind(root) is not None


def _is_empty(root: Path) -> bool:
    try:
        with os.scandir(root) as entries:
            return next(entries, None) is None
    except OSError:
        return False


#: Seconds of sleep after each file written: none, but in the processes the test suite starts to
#: kill a build in the middle of writing (tests/security/slow_writes.py sets it). It is read from no
#: environment variable: a test hook read in every run let a value left set (`inf`, `100000`) end a
#: build in an internal error or hang it.
WRITE_DELAY = 0.0


def _exchange(a: Path, b: Path) -> bool:
    """Atomically swap two directories; False where the platform cannot."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    result = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    if result != 0:
        number = ctypes.get_errno()
        if number in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP):  # fall back to renames
            return False
        raise OSError(number, os.strerror(number), str(b))
    return True


_RENAME_NOREPLACE = 1


def rename_new(source: Path, target: Path) -> None:
    """Rename ``source`` to ``target``, which must not exist (FileExistsError): never over anything.

    One step where the platform can (Linux's ``renameat2`` with ``RENAME_NOREPLACE``); elsewhere
    the name is looked at first, and a folder or file made in the moment between is replaced only
    where ``rename`` itself would (an empty folder by a folder)."""
    if sys.platform.startswith("linux"):
        try:
            renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
        except (OSError, AttributeError):
            renameat2 = None
        if renameat2 is not None:
            result = renameat2(_AT_FDCWD, os.fsencode(source), _AT_FDCWD, os.fsencode(target), _RENAME_NOREPLACE)
            if result == 0:
                return
            number = ctypes.get_errno()
            if number not in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP):  # else: as elsewhere
                raise OSError(number, os.strerror(number), str(target))
    if os.path.lexists(target):
        raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(target))
    source.rename(target)


def _remove_abandoned(root: Path) -> None:
    """Delete staging trees left by builds that were killed (and, where the system cannot swap two
    folders in one step, the old tree a build killed between its two renames left under another name).

    Only real folders that civrules marked (or that are still empty) are removed: a committed
    folder or a link that happens to share the name is left alone. A marked one is abandoned when
    no process holds its lock (:func:`_hold`): a process number in its name says nothing once the
    number is another process's, and a killed build run as process 1 of a container (or with any
    number a later run is given again) left its tree for good, every later run taking it for its
    own or for a build still running. An empty one (made, not yet locked) or one whose lock cannot
    be tried is judged by its process number, as before.
    """
    prefixes = (f".{root.name}.new-", f".{root.name}.old-")  # .old-: the tree replaced where no exchange is
    try:
        names = os.listdir(root.parent)
    except OSError:
        return
    for name in names:
        prefix = next((prefix for prefix in prefixes if name.startswith(prefix)), None)
        if prefix is None:
            continue
        parts = name[len(prefix) :].split("-", 1)
        leftover = root.parent / name
        if not parts[0].isdigit() or leftover in _HELD:
            continue
        if files.kind_of(root.parent, name) != "dir":
            continue
        pid = int(parts[0])
        lock: int | None = None
        if _is_marked(leftover):
            free, lock = _try_lock(leftover)
            if free is None:
                free = not _alive(pid)
        elif _is_empty(leftover):
            free = not _alive(pid) or pid == os.getpid()  # this process's own are in _HELD
        else:
            continue
        try:
            if free:
                shutil.rmtree(leftover, ignore_errors=True)
        finally:
            if lock is not None:
                os.close(lock)


#: The staging folders this process is writing (by path), each with the descriptors that hold its
#: lock: the folder's own and, once swapped, that of the tree it replaced (see :func:`_hold`).
_HELD: dict[Path, list[int]] = {}


def _hold(staging: Path, folder: Path | None = None) -> None:
    """Lock ``folder`` (``staging`` itself by default) for as long as this process writes ``staging``:
    an exclusive ``flock`` a killed process lets go of, whatever number the system gives it or the
    next process. ``_remove_abandoned`` removes only a staging tree no process holds. Taken before
    the marker is written into a new staging folder, and on the tree about to be swapped out (it then
    bears the staging folder's name until it is deleted). Where the system cannot lock, nothing is
    held and leftovers are judged by the process number in their names."""
    if fcntl is None:
        return
    try:
        descriptor = os.open(folder or staging, _FOLDER)
    except OSError:
        return
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:  # held by a build that swapped it in and is still deleting its old tree
        os.close(descriptor)
        return
    _HELD.setdefault(staging, []).append(descriptor)


def _let_go_of(staging: Path) -> None:
    """Release what :func:`_hold` took for ``staging``."""
    for descriptor in _HELD.pop(staging, []):
        os.close(descriptor)


def _try_lock(folder: Path) -> tuple[bool | None, int | None]:
    """Whether no process holds ``folder``'s lock (None: cannot be told), and the descriptor holding
    it now when it was free (for the caller to close once the folder is removed)."""
    if fcntl is None:
        return None, None
    try:
        descriptor = os.open(folder, _FOLDER)
    except OSError:
        return None, None
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)
        return False, None
    except OSError:  # no locks on this file system
        os.close(descriptor)
        return None, None
    return True, descriptor


def remove_abandoned_staging(
    folder: Path, prefix: str, marker: str, undo: Callable[[Path], None] | None = None
) -> None:
    """Delete the folders of ``folder`` whose names start with ``prefix`` that hold the file
    ``marker`` (put there first by the command that made them, :func:`hold`) and no process holds:
    staging folders of a command that was killed (`init`'s, inside the new repository). ``undo``
    is given each one first, while it is held: to take back what the killed command had moved out
    of it."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        leftover = folder / name
        if not name.startswith(prefix) or leftover in _HELD or files.kind_of(folder, name) != "dir":
            continue
        if files.kind_of(leftover, marker) != "file":
            continue
        free, lock = _try_lock(leftover)
        try:
            if free:
                if undo is not None:
                    undo(leftover)
                shutil.rmtree(leftover, ignore_errors=True)
        finally:
            if lock is not None:
                os.close(lock)


def hold(staging: Path) -> None:
    """Hold ``staging`` (a folder this process just made, not yet holding anything) as this process's
    own until :func:`let_go_of`: no other run takes it for a killed one's (see :func:`_hold`)."""
    _hold(staging)


def let_go_of(staging: Path) -> None:
    """Release what :func:`hold` took."""
    _let_go_of(staging)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def _unremovable(root: Path) -> Path | None:
    """A folder of the old tree whose entries civrules could not delete after the swap, or None."""
    if not os.access(root, os.W_OK | os.X_OK):
        return root
    for entry in files.walk(root):
        if entry.kind in ("dir", "deep", "unreadable"):
            folder = root / entry.relative
            if not os.access(folder, os.W_OK | os.X_OK):
                return folder
    return None


class StagedTree(MutableMapping[str, bytes]):
    """A tree written into its staging folder beside ``root`` as each file is made, for
    :func:`write_tree` to swap into place: only the paths are held in memory, a file's bytes are
    read back when asked for. A large build held every rendered file (25 MB at 50×) until the end.

    The staging folder is made (marked first, so that a killed build's is recognised and removed by
    the next) when the first file is written. A failure of the file system raises
    :class:`OutputError`; :meth:`discard` removes the folder when the tree is not swapped in.
    """

    def __init__(self, root: Path, kind: str = "build") -> None:
        self.root = root
        self.marker = marker_text(kind)
        self.kind = kind
        self.folder: Path | None = None
        self._names: dict[str, None] = {}
        self._delay = WRITE_DELAY
        self._syncer = _Syncer()
        #: The tree this one replaces, whose files equal to those written are kept (linked).
        self._previous: _Previous | None = None
        #: The SHA-256 of each file written, by relative path, taken from the bytes handed over.
        self._digests: dict[str, str] = {}

    def __getitem__(self, relative: str) -> bytes:
        if relative not in self._names or self.folder is None:
            raise KeyError(relative)
        return (self.folder / relative).read_bytes()

    def __setitem__(self, relative: str, data: bytes) -> None:
        try:
            folder = self.ensure()
            if relative in self._names:  # a file written again (a package's version, once decided)
                (folder / relative).unlink()
            _put(folder, relative, data, self._delay, self._syncer, self._previous)
        except OSError as error:
            self.discard()
            raise unwritable(self.root, error) from error
        self._names[relative] = None
        self._digests[relative] = _sha256(data)

    def ensure(self) -> Path:
        """The staging folder, made and marked when first asked for."""
        if self.folder is None:
            root = _absolute(self.root)
            _make_parent(root)
            _remove_abandoned(root)
            with interrupts.deferred():
                self.folder = _new_staging(root)
            _put(self.folder, MARKER, self.marker, self._delay, self._syncer)
            self._digests[MARKER] = _sha256(self.marker)
            self._previous = _Previous(root, self.kind, os.lstat(self.folder / MARKER))
        return self.folder

    def synced(self) -> None:
        """Wait until every file written and every folder of the staging tree is on disk; the first
        failure of a sync is raised (an OSError)."""
        self._let_go()
        if self.folder is not None:
            _sync_folders(self.folder, self._syncer)
        self._syncer.join()

    def _let_go(self) -> None:
        """Close the replaced tree's folders: nothing more is kept of it."""
        previous, self._previous = self._previous, None
        if previous is not None:
            previous.close()

    def shared(self, relatives: Iterable[str]) -> frozenset[str]:
        """Those of ``relatives`` whose file in the staging tree is the very file (a hard link,
        :class:`_Previous`) still at that path of the tree it replaces: a change made there in
        place since it was kept is in the new tree too (a build said it "wrote it anew")."""
        if self.folder is None:
            return frozenset()
        root = _absolute(self.root)
        found = set()
        for relative in relatives:
            try:
                if os.path.samestat(os.lstat(self.folder / relative), os.lstat(root / relative)):
                    found.add(relative)
            except (OSError, ValueError):
                continue
        return frozenset(found)

    def digests(self) -> dict[str, str]:
        """The SHA-256 of each file of the staging tree (its marker too), by relative path, from the
        bytes written: never read back, so a change made there by anything else is not taken for
        civrules' own."""
        return dict(self._digests)

    def __delitem__(self, relative: str) -> None:
        del self._names[relative]
        self._digests.pop(relative, None)
        if self.folder is not None:
            (self.folder / relative).unlink()

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def __contains__(self, relative: object) -> bool:
        return relative in self._names

    def discard(self) -> None:
        """Remove the staging folder (nothing when it was swapped in, or never made)."""
        self._let_go()
        self._syncer.abandon()
        with interrupts.deferred():
            staging, self.folder = self.folder, None
            if staging is not None and files.kind_of(staging.parent, staging.name) == "dir":
                shutil.rmtree(staging, ignore_errors=True)
            if staging is not None:
                _let_go_of(staging)


def write_tree(
    root: Path,
    tree: Tree,
    keep: Mapping[str, bytes] | None = None,
    *,
    protected: Iterable[Path] = (),
    kind: str = "build",
) -> dict[str, str]:
    """Replace the directory ``root`` by ``tree`` (plus ``keep``: files carried over unchanged), a
    tree of ``kind`` (:data:`KINDS`, named in its marker). Returns the SHA-256 of each file of the
    tree put in place (its marker too), by relative path, from the bytes civrules wrote: the tree
    read again just after the swap took a change made there meanwhile for civrules' own.

    ``tree`` may be a :class:`StagedTree` of ``root``, already written (its own kind is the one
    judged): ``keep`` is added to it and it is swapped in. Raises :class:`OutputError`, with
    nothing changed, when ``root`` may not be replaced (see :func:`check_replaceable`) or the file
    system fails (read-only, full, a file-size limit).
    """
    target = _absolute(root)
    if isinstance(tree, StagedTree):
        check_replaceable(root, protected, kind=tree.kind)
        try:
            for relative, data in (keep or {}).items():
                if relative not in tree and relative != MARKER:
                    tree[relative] = data
            staging = tree.ensure()
            tree.synced()
            written = tree.digests()
            _commit(staging, target)
        except OSError as error:
            raise unwritable(root, error) from error
        finally:
            tree.discard()
        return written
    content = {**(keep or {}), **tree, MARKER: marker_text(kind)}
    check_replaceable(root, protected, kind=kind)
    try:
        _write(target, content, kind)
    except OSError as error:
        raise unwritable(root, error) from error
    return {relative: _sha256(data) for relative, data in content.items()}


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _new_staging(root: Path) -> Path:
    """A new, empty staging folder beside ``root`` (named so that a killed build's is found), of
    the group of the folder it will replace (see :func:`_take_metadata`), so that what is made in it
    shares that group where the folder passes its group on (setgid).

    Call it with Ctrl-C deferred, and keep what it returns within the same deferral: the clean-up
    must always know the folder (it was left behind when the signal came in between)."""
    staging = Path(tempfile.mkdtemp(prefix=f".{root.name}.new-{os.getpid()}-", dir=root.parent))
    _hold(staging)
    _take_metadata(staging, root, final=False)
    return staging


def _take_metadata(staging: Path, root: Path, *, final: bool) -> None:
    """Give ``staging`` what the folder ``root`` it replaces has: its group where this process may
    give it (as ``cp -p`` would; a group it is no member of stays its own), and with ``final`` its
    mode, setgid and sticky bits included. Where there is no folder to replace, the mode is that of
    a folder made now, ``0o777`` less the umask (and the setgid bit of a parent that passes it on),
    as every folder made inside the tree is: a tree was 0755 at its root whatever the user's mode or
    umask (a private 0700 folder made readable by all, a group's 2770 one given to the user's group).
    Until ``final`` the staging folder stays private (``mkdtemp``'s 0700), its setgid bit aside."""
    try:
        old = os.lstat(root)
    except OSError:
        old = None
    if old is not None and not stat.S_ISDIR(old.st_mode):
        old = None
    current = os.lstat(staging)
    if old is not None and old.st_gid != current.st_gid and hasattr(os, "chown"):
        with contextlib.suppress(OSError):  # not a member of the group: the tree keeps this process's own
            os.chown(staging, -1, old.st_gid, follow_symlinks=False)
    if old is not None:
        mode = stat.S_IMODE(old.st_mode)
    else:
        mode = (0o777 & ~_umask()) | (stat.S_IMODE(current.st_mode) & stat.S_ISGID)
    staging.chmod(mode if final else 0o700 | (mode & stat.S_ISGID))


def _umask() -> int:
    """The process's umask: read where the system says it (Linux), else set and put back at once."""
    with (
        contextlib.suppress(OSError, ValueError, IndexError),
        open("/proc/self/status", encoding="ascii", errors="replace") as status,
    ):
        for line in status:
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _put(
    staging: Path, relative: str, data: bytes, delay: float, syncer: _Syncer, previous: _Previous | None = None
) -> None:
    """Write a new file of the staging tree, or keep ``previous``'s (the tree replaced) where it
    holds ``data`` already (:meth:`_Previous.keep`); its sync is handed to ``syncer`` (which closes it)."""
    target = staging / relative
    if target.parent != staging and target.parent not in syncer.folders:
        target.parent.mkdir(parents=True, exist_ok=True)
        folder = target.parent
        while folder not in syncer.folders and folder != staging:
            syncer.folders[folder] = None
            folder = folder.parent
    if previous is None or not previous.keep(relative, data, target, syncer):
        with open(target, "xb") as handle:
            handle.write(data)
            handle.flush()
            descriptor = os.dup(handle.fileno())
        syncer.sync(descriptor)
    if delay:
        time.sleep(delay)


def _sync_folders(staging: Path, syncer: _Syncer) -> None:
    """Hand ``staging`` and every folder made in it to ``syncer``, deepest first, so that the entries
    they hold are durable too (nothing where folders cannot be opened, as on Windows)."""
    if os.name == "nt":
        return
    for folder in sorted(syncer.folders, key=lambda path: -len(path.parts)):
        syncer.sync(os.open(folder, os.O_RDONLY))
    syncer.folders.clear()
    syncer.sync(os.open(staging, os.O_RDONLY))


#: Threads that sync files: several syncs at once can share one commit of the file system's journal
#: (the largest shipped ruleset's tree written: median 83-113 ms of wall time before, 47-76 ms with four
#: threads, about the same with one; the CPU time is the same).
_THREADS = 4

#: Files written and not yet synced, at most (each holds a descriptor open until its sync).
_PENDING = 64


def _open_share(most: int) -> int:
    """A quarter of the open files this process may hold (``most`` at the most, 1 at the least):
    what a build holds open to go faster (files waiting for their sync, the replaced tree's folders)
    is bounded by it. Under `ulimit -n 20` a build failed with "too many open files" where
    `validate` ran (round 36)."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (ImportError, OSError, ValueError):  # pragma: no cover - not on Linux or macOS
        return most
    if soft == resource.RLIM_INFINITY:
        return most
    return max(1, min(most, (soft - _THREADS) // 4))


def _pending() -> int:
    """How many written files may wait for their sync (each with its descriptor open)."""
    return _open_share(_PENDING)


class _Syncer:
    """Syncs (``fsync``) and closes the files handed to it on threads of its own (:data:`_THREADS`),
    so that a build renders and writes its next files while the disk takes the last ones; :meth:`join`
    waits for all of them and raises the first failure. Only a file's sync moves: it is written, and a write's
    failure (a full disk, a size limit) raised, where it is made. At most :data:`_PENDING` files wait.

    The threads are started with the first file and end at :meth:`join` (or :meth:`abandon`); where
    none can start, each file is synced on the thread that hands it over."""

    def __init__(self) -> None:
        self._queue: queue.Queue[int | None] = queue.Queue(maxsize=_pending())
        self._threads: list[threading.Thread] = []
        self._error: OSError | None = None
        #: True once no thread could be started: each file is then synced where it is handed over.
        self._inline = False
        #: The folders :func:`_put` made below the staging folder (in the order made).
        self.folders: dict[Path, None] = {}

    def sync(self, descriptor: int) -> None:
        """Sync and close ``descriptor`` (now the syncer's) on a thread (here, where none could start)."""
        # Ctrl-C held back until the descriptor is the threads': a thread started is a thread
        # :meth:`join` ends (one interrupted between its creation and its start was joined unstarted,
        # an internal error), and a descriptor handed over is one they close.
        with interrupts.deferred():
            if not self._threads and not self._inline:
                self._start()
            if self._inline:
                self._sync_here(descriptor)
                return
            self._queue.put(descriptor)

    def _start(self) -> None:
        """Start the threads; where none can be (no room for its stack under ``ulimit -v``, a
        process's thread limit), the files are synced here, one by one, as before there were
        threads: the threads only overlap the syncs with the work, and a build that cannot have
        them is still a whole build (it was R017, "out of memory", once the tree was written)."""
        for _ in range(_THREADS):
            thread = threading.Thread(target=self._run, name="civrules-sync", daemon=True)
            try:
                thread.start()
            except RuntimeError:  # "can't start new thread": those started do the work
                break
            self._threads.append(thread)
        self._inline = not self._threads

    def _sync_here(self, descriptor: int) -> None:
        """Sync and close ``descriptor`` on this thread, its failure kept for :meth:`join`."""
        try:
            if self._error is None:
                os.fsync(descriptor)
        except OSError as error:
            self._error = error
        finally:
            try:
                os.close(descriptor)
            except OSError as error:
                # A network file system says at close that a write failed (EIO): the file is not
                # whole. It raised on the thread, which died with a traceback, and the build went on
                # to swap the tree in and exit 0 (round 36).
                if self._error is None:
                    self._error = error

    def _run(self) -> None:
        while (descriptor := self._queue.get()) is not None:
            self._sync_here(descriptor)

    def join(self) -> None:
        """Wait until every file handed over is synced and closed; raise the first failure."""
        threads, self._threads = self._threads, []
        for _ in threads:
            self._queue.put(None)
        for thread in threads:
            thread.join()
        error, self._error = self._error, None
        if error is not None:
            raise error

    def abandon(self) -> None:
        """:meth:`join`, its failure ignored (the tree is being removed)."""
        with contextlib.suppress(OSError):
            self.join()


#: Whether a file of the replaced tree can be linked into the new one from the folders' descriptors
#: (not on Windows, where every file is written anew).
_CAN_KEEP = os.link in os.supports_dir_fd and os.open in os.supports_dir_fd


class _Previous:
    """The tree a write replaces (``root``, a tree of ``kind`` by its marker), whose files that
    already hold what is written are kept: each is linked (a hard link) into the staging tree in
    place of a new file with the same bytes. The new tree is still whole beside the old one until
    the swap, and its every file synced before it, the kept ones too (a tree put in place by
    ``git checkout`` was never synced); the old tree's removal then only drops a name of each.
    Writing an unchanged tree again (the largest shipped ruleset's: 41 files, 1.4 MB) was the largest part of
    a build's write on ext4: each file's inode and blocks made, written, synced, and the old ones
    freed.

    A file is kept only where it is what a file written now would be, in every way but its
    modification time (an unchanged file keeps it): a regular file, reached without following a
    link, of the bytes written, with the owner, group and mode of the staging tree's marker, just
    written (``like``), and no other name (a link count of 1: a generated file the user linked
    elsewhere is written anew, so that no change made there reaches the new tree). Where
    anything is in doubt, or the system cannot link (another file system, no hard links), the file
    is written anew, as always."""

    def __init__(self, root: Path, kind: str, like: os.stat_result) -> None:
        #: The old tree's folders opened so far (None: not a folder, or it could not be opened).
        self._folders: dict[str, int | None] = {}
        self._like = (like.st_mode, like.st_uid, like.st_gid)
        #: The most folders held open (a tree has dozens; under a low limit of open files, fewer).
        self._most = _open_share(1 << 16)
        if not _CAN_KEEP:
            return
        try:
            self._folders[""] = top = files.open_folder(root)
        except OSError:
            return
        marker = self._read(top, MARKER, 4096)
        if marker is None or _marker_kind(marker) != kind:  # a tree civrules wrote, of this kind, or none kept
            self.close()

    def keep(self, relative: str, data: bytes, target: Path, syncer: _Syncer) -> bool:
        """Whether the old tree's file at ``relative`` held ``data`` and is now linked at ``target``
        (a path of the staging tree, where nothing is yet); its sync is then ``syncer``'s."""
        folder, _, name = relative.rpartition("/")
        parent = self._folder(folder) if self._folders else None
        if parent is None:
            return False
        try:  # looked at before it is opened: a device, a FIFO or a file of another size is never opened
            found = os.lstat(name, dir_fd=parent)
            if not self._like_new(found, len(data)):
                return False
            descriptor = files.open_below(parent, name)
        except OSError:
            return False
        kept = linked = False
        try:
            opened = os.fstat(descriptor)
            if (
                (opened.st_dev, opened.st_ino) != (found.st_dev, found.st_ino)
                or not self._like_new(opened, len(data))
                or _read_at_most(descriptor, len(data) + 1) != data
            ):
                return False
            os.link(name, target, src_dir_fd=parent, follow_symlinks=False)
            linked = True
            made = os.lstat(target)  # the very file compared, not one renamed into its place since
            kept = (made.st_dev, made.st_ino) == (found.st_dev, found.st_ino)
        except OSError:
            return False
        finally:
            if not kept:
                os.close(descriptor)
                if linked:
                    with contextlib.suppress(OSError):  # else the new file's creation says why
                        target.unlink()
        syncer.sync(descriptor)
        return True

    def _like_new(self, found: os.stat_result, size: int) -> bool:
        """Whether ``found`` is a regular file of ``size`` bytes with one name, and the owner, group
        and mode of a file written now."""
        return (
            (found.st_mode, found.st_uid, found.st_gid) == self._like and found.st_nlink == 1 and found.st_size == size
        )

    def close(self) -> None:
        """Close the old tree's folders (nothing is kept after)."""
        folders, self._folders = self._folders, {}
        for descriptor in folders.values():
            if descriptor is not None:
                os.close(descriptor)

    def _folder(self, relative: str) -> int | None:
        """The old tree's folder ``relative`` (``""``: the root), opened without following a link."""
        if relative in self._folders:
            return self._folders[relative]
        above, _, name = relative.rpartition("/")
        parent = self._folder(above)
        opened = None
        if len(self._folders) >= self._most:  # each held open: its files are written anew instead
            return None
        if parent is not None:
            with contextlib.suppress(OSError):
                opened = files.enter_below(parent, name)
        self._folders[relative] = opened
        return opened

    @staticmethod
    def _read(folder: int, name: str, most: int) -> bytes | None:
        """The regular file ``name`` of ``folder``, if it is one of at most ``most`` bytes."""
        try:
            descriptor = files.open_below(folder, name)
        except OSError:
            return None
        try:
            if not stat.S_ISREG(os.fstat(descriptor).st_mode):
                return None
            found = _read_at_most(descriptor, most + 1)
            return found if len(found) <= most else None
        except OSError:
            return None
        finally:
            os.close(descriptor)


def _read_at_most(descriptor: int, most: int) -> bytes:
    """The first ``most`` bytes of the open file ``descriptor`` (fewer at its end)."""
    chunks: list[bytes] = []
    left = most
    while left > 0:
        chunk = os.read(descriptor, left)
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _commit(staging: Path, root: Path) -> None:
    """Swap the complete tree ``staging`` in the place of ``root``."""
    if files.kind_of(root.parent, root.name) == "dir":
        stuck = _unremovable(root)
        if stuck is not None:
            raise OSError(errno.EACCES, "permission denied", str(stuck))
    _take_metadata(staging, root, final=True)
    with interrupts.deferred():  # the swap is one step for a reader, and for Ctrl-C too
        _swap(staging, root)


def _make_parent(root: Path) -> None:
    """The folders above ``root`` (absolute, resolved by :func:`_absolute`), the missing ones made
    without following a link: one swapped in after the check is refused too."""
    parent = root.parent
    if parent == Path(parent.anchor):
        return
    try:
        files.make_folders(Path(parent.anchor), str(parent.relative_to(parent.anchor)))
    except files.RefusedError as refused:
        if refused.kind != "link" and isinstance(refused.__cause__, OSError):
            raise refused.__cause__ from None  # the file system's failure, said as the writes' are
        if refused.not_folder:
            there = named_path(Path(parent.anchor) / refused.not_folder)
            raise OutputError(
                f"cannot write {named_path(root)}: {there} is not a folder but {refused.what}; nothing was changed",
                f"move what is at {there} away, or name another folder with --out",
            ) from refused
        raise OutputError(f"refusing to write into {named_path(root)}: {refused.reason}") from refused


def _write(root: Path, content: Mapping[str, bytes], kind: str) -> None:
    # An old tree that could not be removed after the swap is found by _commit, just before it (the
    # staging tree is then removed): it was looked for here too, a second walk of the old tree.
    _make_parent(root)
    _remove_abandoned(root)
    delay = WRITE_DELAY
    staging: Path | None = None
    syncer = _Syncer()
    previous: _Previous | None = None
    try:
        with interrupts.deferred():
            staging = _new_staging(root)
        try:
            for relative, data in sorted(content.items(), key=lambda item: item[0] != MARKER):
                _put(staging, relative, data, delay, syncer, previous)
                if relative == MARKER:  # first: what every file written here is like
                    previous = _Previous(root, kind, os.lstat(staging / MARKER))
        finally:
            if previous is not None:
                previous.close()
        _sync_folders(staging, syncer)
        syncer.join()
        _commit(staging, root)
    except BaseException:
        syncer.abandon()
        with interrupts.deferred():
            if staging is not None and files.kind_of(staging.parent, staging.name) == "dir":
                shutil.rmtree(staging, ignore_errors=True)
        raise
    finally:
        if staging is not None:
            _let_go_of(staging)


def _swap(staging: Path, root: Path) -> None:
    """Put the complete tree ``staging`` in the place of ``root``; the old tree is deleted."""
    if files.kind_of(root.parent, root.name) == "missing":
        try:
            rename_new(staging, root)
            return
        except FileExistsError:
            pass  # another build of the same output put its tree there since: judged below
    # What is there now was judged replaceable when the write began, before a build's rendering:
    # another build's tree of the same kind put there since is replaced as it would have been a
    # moment later; anything else is refused, never swapped out and deleted.
    if files.kind_of(root.parent, root.name) != "dir" or (
        marked_kind(root) not in (marked_kind(staging), "") and not _is_empty(root)
    ):
        raise OutputError(
            f"refusing to replace {named_path(root)}: it changed while the new tree was written, "
            "and is no longer a tree civrules wrote; nothing was changed",
            "see what was put there, move it aside if it is yours, then run the command again",
        )
    _hold(staging, root)  # the old tree, which bears ``staging``'s name once swapped, until it is deleted
    if _exchange(staging, root):
        _discard_old(staging, root)
        return
    previous = root.with_name(f".{root.name}.old-{os.getpid()}")
    root.rename(previous)
    staging.rename(root)
    shutil.rmtree(previous, ignore_errors=True)


def _discard_old(old: Path, root: Path) -> None:
    """Delete the swapped-out tree; if that fails, swap it back so the previous tree stays."""
    failures: list[BaseException] = []
    shutil.rmtree(old, onerror=lambda _function, _path, info: failures.append(info[1]))
    if failures and old.exists():
        _exchange(old, root)  # the previous tree back in place; ``old`` now holds the new one
        raise failures[0]


@dataclass(frozen=True, slots=True)
class StaleFile:
    """A file of an output tree that is not what a build would write there; :meth:`lines` says how."""

    root: Path
    relative: str
    label: str
    #: What a build writes there (None: nothing).
    planned: bytes | None = None
    #: The file on disk, when it was read to be compared (else it is read when shown).
    found: bytes | None = None
    #: The one line that says it all (a file missing on one side, a link, a FIFO).
    note: str | None = None
    #: How it differs: its contents (``differs``), only its line endings (``line-endings``: CRLF on
    #: disk where civrules writes LF, as a checkout with git's `core.autocrlf` writes them), it is not
    #: on disk (``missing``), the build writes no such file (``unwritten``), or it is no regular file
    #: (``foreign``: :attr:`why`).
    #: Told by the note's words before, which begin with the output folder's name: a folder named
    #: ``missing: x`` made every link in it "missing".
    state: str = "differs"
    #: Why a ``foreign`` entry is not compared (a link, a FIFO, a device, an empty folder).
    why: str | None = None
    #: For a folder that is ``missing`` (the output folder itself, or a whole package's): how many
    #: files a build writes in it, told at the folder once rather than each at its own path.
    files: int = 0

    @property
    def reason(self) -> str | None:
        """Why the entry is not compared, for one that is no regular file (a link, a FIFO, a device,
        an empty folder, a folder that cannot be listed): named, never read. None for a file."""
        return self.why if self.state == "foreign" else None

    def what(self) -> str:
        """What is wrong with the file, in a few words (``is missing``, ``differs from ...``)."""
        if self.state == "missing":
            if self.files:
                return f"is missing, and the {'file' if self.files == 1 else f'{self.files:,} files'} in it"
            return "is missing"
        if self.state == "unwritten":
            return "is no file this build writes"
        if self.state == "foreign":
            return f"is not a file civrules writes ({self.why})"
        if self.state == "line-endings":
            return "differs only in its line endings: CRLF where civrules writes LF"
        return "differs from what this build writes"

    def read(self) -> StaleFile:
        """This file with the bytes compared held (:attr:`found`), read from disk once here for
        its diff and its place; one refused says why in its note."""
        if self.state != "differs" or self.note is not None or self.found is not None:
            return self
        try:
            return replace(self, found=files.read_under(self.root, self.relative, DEFAULT_MAX_BYTES))
        except files.RefusedError as refused:
            return replace(self, note=f"{self.label}: differs, and is not compared: {refused.reason}")

    def place(self) -> tuple[int, int]:
        """Where the file first differs from what a build writes there, as a line and a column
        (1-based) of the file compared (on disk, or the commit's copy): an R009 at 1:1 of a long
        file left the reader to find the edit. 1:1 for what is not compared by its contents, and
        for a file not read (:meth:`read`): one past the lines ``build --check`` prints."""
        if self.state != "differs" or self.found is None or self.planned is None:
            return 1, 1
        return first_difference(self.found, self.planned)

    def lines(self) -> Iterator[str]:
        """The lines that show the difference (a unified diff), without line breaks; made when asked."""
        if self.note is not None:
            yield self.note
            return
        old = self.found
        if old is None:
            try:
                old = files.read_under(self.root, self.relative, DEFAULT_MAX_BYTES)
            except files.RefusedError as refused:
                yield f"{self.label}: differs, and is not compared: {refused.reason}"
                return
        before, after = _lines(old), _lines(self.planned)
        changed = _changed_lines(before, after)
        if changed[0] * changed[1] > MOST_COMPARED:
            yield (
                f"{self.label}: differs in {count(changed[0], 'line')} on disk and {changed[1]:,} generated, "
                "too many to compare line by line (run `civrules build` to write it)"
            )
            return
        for chunk in difflib.unified_diff(before, after, fromfile=f"a/{self.label}", tofile=f"b/{self.label}"):
            yield from chunk.removesuffix("\n").split("\n")


def first_difference(old: bytes, new: bytes) -> tuple[int, int]:
    """The line and column (1-based, the column in characters) in ``old`` of its first byte that
    differs from ``new``; where ``old`` ends before that (``new`` only adds to it), the end of its
    last line: the place is one the file holds."""
    shortest = min(len(old), len(new))
    at = next((index for index in range(shortest) if old[index] != new[index]), shortest)
    if at == len(old) and old.endswith(b"\n"):
        at -= 1  # at the end of the last line, not on a line after it
    while at > 0 and at < len(old) and old[at] & 0xC0 == 0x80:  # in a character: at its first byte
        at -= 1
    start = old.rfind(b"\n", 0, at) + 1
    line = old.count(b"\n", 0, start) + 1
    return line, len(old[start:at].decode("utf-8", errors="replace")) + 1


def _crlf_only(
    root: Path, relative: str, label: str, planned: bytes, size: int, found: bytes | None = None
) -> StaleFile | None:
    """The file at ``relative`` as a :class:`StaleFile` that differs from ``planned`` only in its line
    endings (each LF written as CRLF: a checkout with git's `core.autocrlf`, the default of Git for
    Windows and of GitHub's Windows runners), or None. Read only where its ``size`` is the one that
    gives (no further than that size and a byte); ``found``: its bytes, read already."""
    if b"\n" not in planned or size != len(planned) + planned.count(b"\n") - planned.count(b"\r\n"):
        return None
    if found is None:
        try:
            found = files.read_under(root, relative, size)
        except files.RefusedError:
            return None
    if found.replace(b"\r\n", b"\n") != planned.replace(b"\r\n", b"\n") or b"\r\n" not in found:
        return None
    note = f"{label}: CRLF line endings where civrules writes LF (a checkout converted them)"
    return StaleFile(root, relative, label, planned, note=note, state="line-endings")


def stale_files(
    root: Path, tree: Tree, scope: Iterable[str] | None = None, committed: Mapping[str, bytes | None] | None = None
) -> Iterator[StaleFile]:
    """Each file that differs between what is on disk under ``root`` and ``tree``, found one at a time.

    A file of ``committed`` (by its path under ``root``) is compared as that mapping holds it, its
    bytes or no file (None), not as it is on disk: `build --check --staged` in a commit of some
    paths, which holds the last committed copy of an output file staged but not named.

    Only paths under the prefixes in ``scope`` are compared when it is given. A link, a FIFO or a
    device is reported as stale by its path, never read or followed. A file is compared with what
    civrules would write: one of another size differs unread, one of the same size is read no further
    than that size and a byte (the bound of rule files has nothing to do with output). A file on
    one side only is said in one line. An empty folder is stale too (a tree civrules writes has
    none); where ``root`` itself is a link, that is the one entry reported.
    """
    absolute, sizes, foreign, folders = _survey_folders(root, empty=True)
    committed = committed or {}
    for relative, copy in committed.items():
        if copy is None:
            sizes.pop(relative, None)
        elif relative not in foreign:
            sizes[relative] = len(copy)
            if folders is not None:  # (a staged deletion not named: its folder may be gone from disk)
                parts = relative.split("/")[:-1]
                folders.update("/".join(parts[:depth]) for depth in range(len(parts) + 1))
    prefixes = tuple(scope) if scope is not None else None
    if prefixes is not None:
        # The marker at the root belongs to every part of the tree.
        sizes = {k: v for k, v in sizes.items() if k.startswith(prefixes) or k == MARKER}
        tree = {k: v for k, v in tree.items() if k.startswith(prefixes) or k == MARKER}
        foreign = {k: v for k, v in foreign.items() if not k or k.startswith(prefixes)}
    for relative, why in sorted(foreign.items()):
        label = "/".join(filter(None, (root.name, relative)))
        yield StaleFile(absolute, relative, label, note=f"{label}: {why}", state="foreign", why=why)
        if not relative:  # the folder itself is a link: what it leads to is not compared, nor "missing"
            return
    # A folder that is not there is told once, with what it would hold: a missing output folder
    # was 233 errors, one for each file, each with the same hint.
    gone = _missing_folders([k for k in tree if k not in sizes and k not in foreign], folders, foreign)
    holds: dict[str, list[str]] = {}
    for relative, outermost in gone.items():
        holds.setdefault(outermost, []).append(relative)
    told: set[str] = set()
    for relative in sorted((set(sizes) | set(tree)) - set(foreign)):
        new, label = tree.get(relative), f"{root.name}/{relative}"
        folder = gone.get(relative)
        if folder is not None:
            if folder not in told:
                told.add(folder)
                inside = holds[folder]
                lines = sum(_line_count(tree[k]) for k in inside)
                shown = "/".join(filter(None, (root.name, folder)))
                note = f"missing: {shown}/ (a folder: {count(len(inside), 'file')}, {count(lines, 'line')})"
                yield StaleFile(absolute, folder, shown, note=note, state="missing", files=len(inside))
        elif new is None:
            yield StaleFile(absolute, relative, label, note=f"not written by this build: {label}", state="unwritten")
        elif relative not in sizes:
            note = f"missing: {label} ({count(_line_count(new), 'line')})"
            yield StaleFile(absolute, relative, label, note=note, state="missing")
        elif (copy := committed.get(relative)) is not None:
            if copy != new:
                crlf = _crlf_only(absolute, relative, label, new, len(copy), copy)
                yield crlf or StaleFile(absolute, relative, label, new, copy)
        elif sizes[relative] != len(new):
            crlf = _crlf_only(absolute, relative, label, new, sizes[relative])
            yield crlf or StaleFile(absolute, relative, label, new)
        else:
            try:
                old = files.read_under(absolute, relative, len(new))
            except files.RefusedError as refused:
                yield StaleFile(absolute, relative, label, new, note=f"{label}: {refused.reason}")
                continue
            if old != new:
                yield StaleFile(absolute, relative, label, new, old)


def _missing_folders(missing: Iterable[str], folders: set[str] | None, foreign: Mapping[str, str]) -> dict[str, str]:
    """Each of the ``missing`` files whose folder is not there either, mapped to the outermost folder
    on its way that is not (``""``: the root). None is where the folders are not all known, or
    where one on the way is a link, a FIFO or a folder not read (named by itself)."""
    if folders is None:
        return {}
    gone: dict[str, str] = {}
    for relative in missing:
        parts = relative.split("/")[:-1]
        for depth in range(len(parts) + 1):
            folder = "/".join(parts[:depth])
            if folder in foreign:
                break
            if folder not in folders:
                gone[relative] = folder
                break
    return gone


#: The most lines ``build --check`` prints of what differs; the rest is counted.
MOST_SHOWN = 2_000


@dataclass(slots=True)
class StaleReport:
    """The lines ``build --check`` prints: each stale file's, made one file at a time, at most
    ``most`` in all, then one that says what was not shown. ``files`` counts the stale files once
    the lines are all taken."""

    stale: Iterable[StaleFile]
    most: int = MOST_SHOWN
    files: int = 0
    #: Each stale file, once the lines are all taken: its path under the output folder, what is
    #: wrong with it, and how it differs (:attr:`StaleFile.state`; ``build --check`` reports each as
    #: R009, located at the file's first difference, :meth:`StaleFile.place`; a missing folder
    #: once, at the folder).
    found: list[tuple[str, str, str, tuple[int, int]]] = field(default_factory=list)

    def __iter__(self) -> Iterator[str]:
        shown = more_lines = more_files = 0
        cut = ""
        for one in self.stale:
            self.files += one.files or 1
            if shown >= self.most:  # not read: a tree of stale files is not read whole to be told
                self.found.append((one.relative, one.what(), one.state, (1, 1)))
                more_files += 1
                continue
            one = one.read()
            self.found.append((one.relative, one.what(), one.state, one.place()))
            for line in one.lines():
                if shown < self.most:
                    shown += 1
                    yield line
                else:
                    more_lines, cut = more_lines + 1, one.label
        if more_lines or more_files:
            parts = [f"{count(more_lines, 'more line')} of {cut}"] if more_lines else []
            parts += [f"{count(more_files, 'more file')} that differ"] if more_files else []
            yield (
                f"... cut after {count(self.most, 'line')}: {' and '.join(parts)} not shown; "
                "run `civrules build` to write them"
            )


#: The most pairs of differing lines ``stale_files`` diffs in one file (2,000 by 2,000): difflib's
#: matching takes up to their product, and a committed file is anyone's to write (a generated file
#: with a line inserted before each of its 16,000 took 121 s to diff).
MOST_COMPARED = 4_000_000


def _changed_lines(before: list[str], after: list[str]) -> tuple[int, int]:
    """How many lines of each side lie between their common first and last lines."""
    shortest = min(len(before), len(after))
    head = 0
    while head < shortest and before[head] == after[head]:
        head += 1
    tail = 0
    while tail < shortest - head and before[-1 - tail] == after[-1 - tail]:
        tail += 1
    return len(before) - head - tail, len(after) - head - tail


def _line_count(content: bytes) -> int:
    return content.count(b"\n") + (not content.endswith(b"\n") and bool(content))


def _lines(content: bytes | None) -> list[str]:
    if content is None:
        return []
    text = content.decode("utf-8", errors="replace")
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n\\ No newline at end of file\n"
    return lines
