"""Every file civrules reads under ``rules/`` or an output tree, and every file it creates there.

One rule for all of them: civrules never follows a symbolic link below the folder it was given
and reads only regular files, never more than a size bound. Paths are opened one component at a
time relative to the folder above (``openat`` with ``O_NOFOLLOW``), so a link swapped in between
a check and the read is refused too; a FIFO or a device is refused before it is opened for
reading (``O_NONBLOCK``, then ``fstat``), so nothing blocks.

A refused file raises :class:`RefusedError`, whose ``reason`` is a plain sentence for a diagnostic;
the ``kind`` says why: ``link``, ``special`` (not a regular file or folder), ``large``,
``missing``, ``deep`` or ``unreadable`` (its ``errno`` then says why: :func:`cause` puts it in words).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path, PurePosixPath

from civrules.diagnostics.words import named_path
from civrules.support.values import frozen_value

#: Folders nested deeper than this under a root are not walked (rules need two or three levels).
MAX_DEPTH = 32
#: Entries found by one walk at most (the shipped rules hold 30, a generated tree a hundred): a
#: walk of a home folder or of ``/`` given as the rules folder ends there instead of running on.
MAX_ENTRIES = 20_000

_DIRECTORY = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
_FILE = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)


class RefusedError(Exception):
    """A path civrules will not read or write, and why."""

    def __init__(
        self,
        kind: str,
        reason: str,
        size: int | None = None,
        error: int | None = None,
        *,
        not_folder: str = "",
        what: str = "",
        changing: bool = False,
    ) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = reason
        self.size = size
        #: The ``errno`` of the failure, where the system refused (permission denied, an I/O error).
        self.errno = error
        #: Where a folder on the way is not a folder (a FIFO at ``maps``): that path, and
        #: :attr:`reason` says what it is; the file named is not the one at fault.
        self.not_folder = not_folder
        #: What stands at :attr:`not_folder` (`a FIFO (a named pipe)`), for a caller that names it
        #: by another path (its own display of the folder it gave).
        self.what = what
        #: The file changed each time it was read (:data:`READ_AGAIN`): a program is writing it.
        self.changing = changing


def no_folder(mode: int) -> str:
    """What a name that is no folder names, by its ``st_mode``: `a file`, `a FIFO (a named pipe)`..."""
    if stat.S_ISREG(mode):
        return "a file"
    if stat.S_ISFIFO(mode):
        return "a FIFO (a named pipe)"
    return "a socket" if stat.S_ISSOCK(mode) else "a device"


@frozen_value
class Entry:
    """One thing found by :func:`walk`: its path relative to the root, what it is, its size."""

    relative: str
    #: "file", "dir", "link", "special", "deep", "many" (the walk stopped before this one), or
    #: "unreadable": a folder that could not be listed (``""`` the root), ``errno`` saying why.
    kind: str
    size: int = 0
    errno: int = 0


def _parts(relative: str) -> list[str]:
    try:
        os.fsencode(relative)
    except UnicodeError as error:  # a lone surrogate: a name no file system can hold
        raise RefusedError("missing", f"{relative!a} cannot name a file") from error
    if "\x00" in relative:  # no file system holds it (os.open would raise ValueError)
        raise RefusedError("missing", f"{relative!a} cannot name a file (it holds a NUL character)")
    parts = [p for p in PurePosixPath(relative.replace("\\", "/")).parts if p not in ("", ".")]
    if not parts or ".." in parts or relative.startswith("/"):
        raise RefusedError("unreadable", f"{named_path(relative)} is not a path below the folder")
    return parts


def _open_parent(root: Path, parts: list[str], relative: str) -> int:
    """A descriptor of the folder holding ``parts[-1]``, reached without following links."""
    fd = _open_root(root)
    try:
        for depth, part in enumerate(parts[:-1], start=1):
            next_fd = _enter(fd, part, "/".join(parts[:depth]), "read")
            _close_read(fd)
            fd = next_fd
    except BaseException:
        _close_read(fd)
        raise
    return fd


def _enter(fd: int, part: str, shown: str, doing: str) -> int:
    """A descriptor of the folder ``part`` of the folder ``fd``, opened without following a link
    (:class:`RefusedError` for a link, or what stands in the way: ``shown`` names it)."""
    try:
        return os.open(part, _DIRECTORY, dir_fd=fd)
    except OSError as error:
        if error.errno in (errno.ENOTDIR, errno.ELOOP) and _is_link(part, fd):
            # O_DIRECTORY | O_NOFOLLOW on a link to a folder says ENOTDIR on Linux.
            raise RefusedError(
                "link", f"{named_path(shown)} is a symbolic link; civrules does not follow links"
            ) from error
        if error.errno == errno.ENOTDIR:
            # A FIFO at `maps` was "cannot read `maps/x.yaml`: not a regular file", the file blamed
            # for the folder on its way (round 33): say what stands where a folder should be.
            try:
                what = no_folder(os.lstat(part, dir_fd=fd).st_mode)
            except OSError:
                what = "no folder"
            # Raised without the system's ENOTDIR as its cause: a writer that says the system's cause
            # said "a part of the path is not a folder" (round 33: `new-variant` with a FIFO at
            # `rules/rulesets`), where this says which part, and what it is.
            raise RefusedError(
                "special",
                f"{named_path(shown)} is not a folder but {what}",
                error=error.errno,
                not_folder=shown,
                what=what,
            ) from None
        raise _explain(error, shown, doing) from error


def _is_link(name: str, dir_fd: int) -> bool:
    try:
        return stat.S_ISLNK(os.lstat(name, dir_fd=dir_fd).st_mode)
    except OSError:
        return False


def _explain(error: OSError, shown: str, doing: str = "read") -> RefusedError:
    if error.errno == errno.ELOOP:
        return RefusedError("link", f"{named_path(shown)} is a symbolic link; civrules does not follow links")
    if error.errno == errno.ENOTDIR:
        return RefusedError("special", f"{named_path(shown)} is not a folder")
    if error.errno == errno.ENOENT:
        return RefusedError("missing", f"{named_path(shown)} does not exist")
    if error.errno in (errno.ENXIO, errno.ENODEV):
        # A socket, or a device without its driver, refuses to be opened at all: as a FIFO (opened,
        # then found not regular), it is no file to read or write, not a matter of permissions.
        return RefusedError("special", f"{named_path(shown)} is not a regular file (a device, a FIFO or a socket)")
    return RefusedError("unreadable", f"cannot {doing} {named_path(shown)}: {cause(error)}", error=error.errno)


#: What to do where the system refused for a limit of this process or of the system, not for the
#: path: out of file descriptors (`ulimit -n 8`), `build` was told to check the folder's permissions
#: and the free space, and an unread rule file to check its permissions.
_LIMIT_HINTS = {
    errno.EMFILE: "civrules reached the limit of files a process may hold open: raise it (`ulimit -n 1024`), "
    "then run civrules again",
    errno.ENFILE: "the system holds as many open files as it allows: close some programs or raise its limit "
    "(`fs.file-max`), then run civrules again",
    errno.EFBIG: "a file would pass the limit of a file's size this process may write: raise it "
    "(`ulimit -f unlimited`), then run civrules again",
    # Failures of the system, not of the path either: "check the permissions, the free space" was
    # the hint for an fsync's EIO and a lock's ENOLCK (round 36).
    errno.EIO: "the device failed (a failing disk, a network file system gone): check it, then run civrules again",
    errno.ENOLCK: "the file system gives no locks (a network file system whose lock service is not running): "
    "start that service, or work on a local disk",
    errno.EAGAIN: "the system could not do it at that moment (it was busy): run civrules again",
    errno.ENOMEM: "the system had no memory left for it: close some programs, or raise the address-space limit "
    "(`ulimit -v`), then run civrules again",
}


def limit_hint(error: OSError | int | None) -> str | None:
    """The hint for a refusal caused by a limit of the process or of the system (open files, a
    file's size, memory) or by a failure of the system (the device, its locks), or None for any
    other: what to do is then not about the path refused."""
    number = error.errno if isinstance(error, OSError) else error
    return _LIMIT_HINTS.get(number or 0)


#: The attribute of an OSError saying what civrules was doing when the system refused it (see :func:`doing`).
_DOING = "civrules_doing"


def doing(error: OSError, what: str, path: str | os.PathLike[str] | None = None) -> OSError:
    """``error``, marked with ``what`` civrules was doing (``"sync"``, ``"lock"``, ``"write the
    output"``) and, where it names no file, ``path``: the file or descriptor it was done on. A call
    on a descriptor (fsync, flock, a write, a read) raises an OSError with no file name, and the
    command line took every such error that reached it for standard output's ("cannot write the
    output", hinted to free space): an fsync's EIO and a lock's ENOLCK were told so (round 36).
    :func:`what_doing` reads the mark back."""
    if error.filename is None and path is not None:
        error.filename = os.fspath(path)
    if getattr(error, _DOING, None) is None:  # the innermost call, the one that failed, names it
        setattr(error, _DOING, what)
    return error


def what_doing(error: OSError) -> str | None:
    """What :func:`doing` marked ``error`` with, or None."""
    what = getattr(error, _DOING, None)
    return what if isinstance(what, str) else None


@contextlib.contextmanager
def done_on(what: str, path: str | os.PathLike[str] | None = None) -> Iterator[None]:
    """Mark any OSError raised within with ``what`` and ``path`` (:func:`doing`)."""
    try:
        yield
    except OSError as error:
        doing(error, what, path)
        raise


def cause(error: OSError | int | None) -> str:
    """Why the system refused, in lower-case words for a sentence: ``permission denied``."""
    number = error.errno if isinstance(error, OSError) else error
    if number in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if number == errno.EIO:
        return "an input/output error (the disk or the file system)"
    if number == errno.EISDIR:
        return "it is a folder"
    if number == errno.ENAMETOOLONG:
        return "the name is too long"
    said = (error.strerror if isinstance(error, OSError) else None) or (os.strerror(number) if number else "")
    return said[:1].lower() + said[1:] if said else "an unknown failure"


def kind_of(root: Path, relative: str) -> str:
    """What ``root/relative`` is, reached without following links: file, dir, link, special or missing."""
    try:
        parts = _parts(relative)
        fd = _open_parent(root, parts, relative)
    except RefusedError as refused:
        return refused.kind if refused.kind in ("link", "missing") else "special"
    except OSError as error:  # the root itself (the rules folder, deleted while an editor has it open)
        return "missing" if error.errno in (errno.ENOENT, errno.ENOTDIR) else "special"
    try:
        info = os.lstat(parts[-1], dir_fd=fd)
    except FileNotFoundError:
        return "missing"
    except OSError as error:
        # No file can have a name too long for the system: nothing is there (what was asked for
        # it, `--out` a folder of 300 letters, then fails as writing it does, with the cause).
        return "missing" if error.errno == errno.ENAMETOOLONG else "special"
    finally:
        _close_read(fd)
    return _kind(info.st_mode)


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "link"
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISDIR(mode):
        return "dir"
    return "special"


#: The coarsest step of a file system's modification times that civrules allows for (FAT's two
#: seconds; ext3 and HFS+ keep whole seconds, some network file systems as coarse).
TIME_STEP_NS = 2_000_000_000


def settled(found: os.stat_result, now_ns: int) -> bool:
    """Whether a file whose ``stat`` is ``found``, taken at ``now_ns`` (``time.time_ns()``), will show
    its next change in its modification or change time: neither is within :data:`TIME_STEP_NS` of
    now. A file written again within that step, keeping its size, can keep both times where the
    file system counts them coarsely (git's "racily clean" index entries): its stamp alone is not
    to be trusted until it has settled. A time in the future is never settled: the file system's
    clock is ahead of this machine's (a network share whose server's clock is off, this clock set
    back since), and two saves within one of its steps keep the stamp there as well (it was judged
    "far from now" and trusted). Such a file is judged by its content until the clock passes it."""
    return all(now_ns - moment >= TIME_STEP_NS for moment in (found.st_mtime_ns, found.st_ctime_ns))


def _close_read(fd: int) -> None:
    """Close ``fd``, a folder or a file civrules only read through: nothing was written through it,
    and what was read stands, so its close failing (EIO, as a network file system may say) is no
    failure. It raised, naming no file, and ended `validate` (round 36)."""
    with contextlib.suppress(OSError):
        os.close(fd)


def read_under(root: Path, relative: str, max_bytes: int) -> bytes:
    """The bytes of the regular file ``root/relative``, at most ``max_bytes`` of them.

    Raises :class:`RefusedError` for a link anywhere below ``root``, a file that is not regular, one
    larger than ``max_bytes`` (by its size or by what could be read), or one that cannot be read.
    """
    parts = _parts(relative)
    parent = _open_parent(root, parts, relative)
    try:
        try:
            fd = os.open(parts[-1], _FILE, dir_fd=parent)
        except OSError as error:
            raise _explain(error, relative) from error
    finally:
        _close_read(parent)
    try:
        return _read_open(fd, relative, max_bytes)
    except OSError as error:  # an fstat on the descriptor (EIO): named, as a failed read is
        raise _explain(error, relative) from error
    finally:
        _close_read(fd)


def read_file(path: Path, max_bytes: int) -> bytes:
    """The bytes of the regular file ``path`` (not a link, at most ``max_bytes``); see :func:`read_under`."""
    try:
        fd = os.open(path, _FILE)
    except OSError as error:
        raise _explain(error, str(path)) from error
    try:
        return _read_open(fd, str(path), max_bytes)
    except OSError as error:  # an fstat on the descriptor (EIO): named, as a failed read is
        raise _explain(error, str(path)) from error
    finally:
        _close_read(fd)


#: How many times a file found changed while it was read is read again before it is given up on.
READ_AGAIN = 3
#: Why a file that changed each time it was read was not read.
CHANGING = f"it changed each of the {READ_AGAIN + 1} times it was read (a program is writing it)"


def _read_open(fd: int, shown: str, max_bytes: int) -> bytes:
    """The bytes of the open regular file ``fd`` (see :func:`read_under`), read whole again where it
    changed while it was read (its size, modification or change time moved: a file being rewritten
    in place gave a mix of its old and new bytes, judged as a file no one wrote). One that keeps
    changing is :data:`READ_AGAIN` times refused, said as being written."""
    info = _regular(fd, shown, max_bytes)
    for _ in range(READ_AGAIN + 1):
        data = _read_from_start(fd, shown, max_bytes, info.st_size)
        after = os.fstat(fd)
        if _same_state(info, after):
            return data
        info = _regular(fd, shown, max_bytes, after)
    raise RefusedError("unreadable", f"cannot read {named_path(shown)}: {CHANGING}", changing=True)


def _same_state(before: os.stat_result, after: os.stat_result) -> bool:
    return (before.st_size, before.st_mtime_ns, before.st_ctime_ns) == (
        after.st_size,
        after.st_mtime_ns,
        after.st_ctime_ns,
    )


def _regular(fd: int, shown: str, max_bytes: int, info: os.stat_result | None = None) -> os.stat_result:
    """The ``fstat`` of ``fd`` (``info``, where taken already), refused unless a regular file within the bound."""
    info = info or os.fstat(fd)
    if stat.S_ISDIR(info.st_mode):
        raise RefusedError("special", f"{named_path(shown)} is a folder, not a file", error=errno.EISDIR)
    if not stat.S_ISREG(info.st_mode):
        raise RefusedError("special", f"{named_path(shown)} is not a regular file (a device, a FIFO or a socket)")
    if info.st_size > max_bytes:
        raise RefusedError(
            "large",
            f"{named_path(shown)} is {info.st_size:,} bytes, more than the {max_bytes:,} civrules reads",
            info.st_size,
        )
    return info


def _read_from_start(fd: int, shown: str, max_bytes: int, size: int) -> bytes:
    """The bytes of ``fd`` from its start (``size``: what ``fstat`` said it holds), at most ``max_bytes``."""
    chunks: list[bytes] = []
    left = max_bytes + 1  # bounded even if the file grows after fstat, or /proc says 0 bytes
    # The first read asks for the size fstat gave and one byte more, into a buffer of that size;
    # after a read that came back short (the end, for a regular file) the read that makes sure of
    # the end asks for little. Reads of a fixed 1 MB made and unmapped a 1 MB buffer twice per file,
    # the one that found the end included: a fifth of hashing civrules' own 306 files. The file is
    # still read until a read returns nothing (a file system may return a short read before the end).
    want = min(left, size + 1)
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        while left > 0:
            chunk = os.read(fd, want)
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
            want = min(left, (1 << 20) if len(chunk) == want else (1 << 12))
    except OSError as error:
        raise RefusedError(
            "unreadable", f"cannot read {named_path(shown)}: {cause(error)}", error=error.errno
        ) from error
    data = b"".join(chunks)
    if len(data) > max_bytes:
        raise RefusedError("large", f"{named_path(shown)} is more than the {max_bytes:,} bytes civrules reads")
    return data


def walk(
    root: Path, max_depth: int = MAX_DEPTH, max_entries: int | None = None, first: tuple[str, ...] = ()
) -> Iterator[Entry]:
    """Everything below ``root``, sorted, without following links and at most ``max_depth`` deep.

    The folders of ``root`` named in ``first`` are walked before the others (a rules folder's
    ``rulesets/``: what a run starts from is found whatever else the folder holds before the bound).

    Links and special files are yielded (to be reported), not entered or read; a folder deeper
    than ``max_depth`` is yielded once as ``deep`` and not entered. A folder the system will not
    let civrules list or look into (permissions, an I/O error) is yielded as ``unreadable``, the
    root as ``""``: what it holds is never silently missing. After ``max_entries`` entries
    (:data:`MAX_ENTRIES` by default) the next is yielded as ``many`` and the walk ends. Nothing
    here recurses, and at most two descriptors are open at a time.
    """
    count, most = 0, MAX_ENTRIES if max_entries is None else max_entries
    stack: list[tuple[str, int]] = [("", 0)]
    while stack:
        prefix, depth = stack.pop()
        folder = prefix.rstrip("/")
        try:
            fd = _open_parent(root, [*_parts(prefix), "."], prefix) if prefix else _open_root(root)
        except RefusedError as refused:
            if refused.kind == "unreadable" and refused.errno is not None:
                yield Entry(folder, "unreadable", errno=refused.errno)
            continue  # gone since it was listed, or a link swapped in: nothing of it is read
        except OSError as error:
            if error.errno not in (errno.ENOENT, errno.ENOTDIR):  # a root that is not there: said by its users
                yield Entry(folder, "unreadable", errno=error.errno or 0)
            continue
        below: list[tuple[str, int]] = []
        try:
            for name in _names(fd):
                relative = f"{prefix}{name}"
                count += 1
                if count > most:
                    yield Entry(relative, "many")
                    return
                try:
                    info = _status(name, fd)
                except FileNotFoundError:
                    continue  # removed since it was listed
                except OSError as error:  # a folder that can be listed but not looked into
                    yield Entry(folder, "unreadable", errno=error.errno or 0)
                    below = []
                    break
                kind = _kind(info.st_mode)
                if kind == "dir" and depth + 1 > max_depth:
                    yield Entry(relative, "deep")
                elif kind == "dir":
                    yield Entry(relative, "dir")
                    below.append((f"{relative}/", depth + 1))
                else:
                    yield Entry(relative, kind, info.st_size if kind == "file" else 0)
        except OSError as error:
            yield Entry(folder, "unreadable", errno=error.errno or 0)
        finally:
            _close_read(fd)
        if not prefix and first:
            below.sort(key=lambda item: item[0].rstrip("/") not in first)  # stable: sorted within each part
        stack.extend(reversed(below))


def _names(fd: int) -> list[str]:
    """The names in the open folder ``fd``, sorted (a test makes it fail as a locked folder does)."""
    return sorted(os.listdir(fd))


def _status(name: str, fd: int) -> os.stat_result:
    """``lstat`` of ``name`` in the open folder ``fd`` (a test makes it fail as a folder that can be
    listed but not entered does)."""
    return os.lstat(name, dir_fd=fd)


def not_folder_on(path: Path) -> tuple[Path, str] | None:
    """The first folder on the way to ``path`` (``path`` itself last) that is something else, and
    what it is (:func:`no_folder`), or None (all folders, or one missing first): what the system's
    ENOTDIR, "a part of the path is not a folder", leaves unsaid. A link is judged by what it
    leads to, as the system that refused followed it. A relative ``path`` gives the part as
    relative as it was given (`plain` of `plain/rules`)."""
    for part in (*reversed(path.parents), path):
        try:
            mode = os.stat(part).st_mode
        except (OSError, ValueError):
            return None
        if not stat.S_ISDIR(mode):
            return part, no_folder(mode)
    return None


def _open_root(root: Path) -> int:
    """The folder given, which may not itself be a link (a committed ``rules -> ~`` is refused);
    the folders above it are the user's to choose."""
    try:
        return os.open(root, _DIRECTORY)
    except OSError as error:
        if error.errno in (errno.ENOTDIR, errno.ELOOP) and is_link(root):
            raise RefusedError(
                "link", f"{named_path(root)} is a symbolic link; civrules does not follow links"
            ) from error
        raise


def open_folder(root: Path) -> int:
    """A descriptor of the folder ``root``, which may not itself be a link (OSError otherwise: a
    link, a file, nothing there); the folders above it are the user's to choose."""
    return os.open(root, _DIRECTORY)


def open_below(folder: int, name: str) -> int:
    """A read-only descriptor of the entry ``name`` of the open folder ``folder``, opened without
    following a link and without blocking (a FIFO): OSError for a link. What it is (a regular
    file, a folder) is for the caller to ask ``fstat``."""
    return os.open(name, _FILE, dir_fd=folder)


def enter_below(folder: int, name: str) -> int:
    """A descriptor of the folder ``name`` in the open folder ``folder``, never through a link
    (OSError for a link, a file, nothing there)."""
    return os.open(name, _DIRECTORY, dir_fd=folder)


class LinkOnTheWayError(Exception):
    """A ``..`` goes back through ``link``, a symbolic link inside the project (:func:`dots_taken`)."""

    def __init__(self, link: Path) -> None:
        super().__init__(str(link))
        self.link = link


def dots_taken(path: Path, inside: Iterable[Path]) -> Path:
    """``path`` made absolute, each ``..`` taken where the system takes it: after a link, the parent
    of the folder the link leads to, not the folder holding the link (`L/..` with `L -> rules/maps`
    is `rules/`; made absolute by its letters, it was the working directory, the link unjudged).

    Every path option goes through it, read or written (`--rules`, `--out`, `init`'s folder): a
    link inside one of ``inside`` (the project: real paths) that a ``..`` goes back through is
    :class:`LinkOnTheWayError`, as the link itself would be; above them, the link is followed.
    """
    given = path if path.is_absolute() else Path.cwd() / path
    if ".." not in given.parts:
        return Path(os.path.abspath(given))
    roots = list(inside)
    walked = Path(given.anchor)
    for part in given.parts[1:]:
        if part != "..":
            walked = walked / part
            continue
        if is_link(walked):
            if any(Path(os.path.realpath(walked.parent)).is_relative_to(root) for root in roots):
                raise LinkOnTheWayError(walked)
            walked = Path(os.path.realpath(walked))
        walked = walked.parent  # nothing there: the system refuses `missing/..` too, the read says so
    return walked


def is_link(path: Path) -> bool:
    """Whether ``path`` itself (not what it points at) is a symbolic link."""
    try:
        return stat.S_ISLNK(os.lstat(path).st_mode)
    except (OSError, ValueError):
        return False


def real_place(path: Path) -> Path:
    """Where ``path`` is, its links resolved: its real path, but for a ``path`` that is itself a link,
    which civrules does not follow, the real path of its folder with its own name (where it leads
    is no place of it: retargeted, it stays where it is). May raise as :meth:`Path.resolve`."""
    if is_link(path):
        return path.absolute().parent.resolve() / path.name
    return path.resolve()


def make_folders(root: Path, relative: str) -> None:
    """Make the folder ``root/relative`` and every missing one on the way, following no link.

    Each folder is made (``mkdir`` relative to the one above) and opened with ``O_NOFOLLOW`` before
    the next, so a link on the way, there before or swapped in, is refused, never followed. Raises
    :class:`RefusedError` for a link or a file on the way, or a folder that cannot be made (its
    ``__cause__`` the OSError); OSError when ``root`` cannot be opened.
    """
    fd = _open_root(root)
    try:
        parts = _parts(relative)
        for depth, part in enumerate(parts, start=1):
            try:
                os.mkdir(part, 0o777, dir_fd=fd)
            except FileExistsError:
                pass  # a folder (entered below), or a link or a file (refused below)
            except OSError as error:  # read-only, no space, permission denied
                raise _explain(error, "/".join(parts[:depth]), "create") from error
            next_fd = _enter(fd, part, "/".join(parts[:depth]), "create")
            os.close(fd)
            fd = next_fd
    finally:
        os.close(fd)


def create_under(root: Path, relative: str, content: bytes) -> None:
    """Create the new regular file ``root/relative``: never through a link, never over anything.

    The file appears whole or not at all, its content synced (``fsync``) before it has its name:
    a process killed (or a machine losing power) while it wrote leaves no file cut short under
    the name. Raises :class:`RefusedError` when a folder on the way is a link or the name is taken
    (by a file, a folder or a link, dangling or not), or when the system refuses the file (its
    ``__cause__`` the OSError). A file whose content cannot be written whole (a full disk, a
    file-size limit) is removed before the failure is raised.
    """
    parts = _parts(relative)
    parent = _open_parent(root, parts, relative)
    try:
        _remove_unheld(parent)
        if _create_whole(parent, parts[-1], relative, content):
            return
        if _create_then_link(parent, parts[-1], relative, content):
            return
        # Neither a file without a name nor a second name (a file system without hard links):
        # made by name, then written; a kill between the two leaves it empty.
        try:
            fd = os.open(parts[-1], os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644, dir_fd=parent)
        except FileExistsError as error:
            raise RefusedError("exists", f"{named_path(relative)} already exists") from error
        except OSError as error:
            raise _explain(error, relative, "create") from error
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(content)
                handle.flush()
                os.fsync(handle.fileno())
        except BaseException as error:
            # A file cut short (a full disk, a file-size limit, Ctrl-C) is no file of ours to leave:
            # the next run would find the name taken.
            with contextlib.suppress(OSError):
                os.unlink(parts[-1], dir_fd=parent)
            if isinstance(error, OSError):
                # A write to a descriptor names no file: told as it was, a full disk under
                # `new-variant` read as standard output's ("cannot write the output").
                raise _explain(error, relative, "write") from error
            raise
    finally:
        os.close(parent)


def _create_whole(parent: int, name: str, relative: str, content: bytes) -> bool:
    """Create ``name`` in the folder ``parent`` holding ``content`` in one step, where the system
    can (Linux: a file with no name, written, then linked under ``name``, never over anything);
    False where it cannot, for the caller to create it by name. A process killed while it wrote
    leaves nothing: a file created by name first, then written, was left empty or cut short (an
    empty manifest after `new-variant`), and the next run found its name taken."""
    anonymous = getattr(os, "O_TMPFILE", 0)
    if not anonymous or not os.path.isdir(_OWN_DESCRIPTORS):
        return False
    try:
        fd = os.open(".", os.O_WRONLY | anonymous | getattr(os, "O_CLOEXEC", 0), 0o644, dir_fd=parent)
    except OSError:  # a file system without it (some network and FUSE ones): by name
        return False
    try:
        try:
            write_all(fd, content)
            os.fsync(fd)
        except OSError as error:
            raise _explain(error, relative, "write") from error
        try:
            os.link(f"{_OWN_DESCRIPTORS}/{fd}", name, dst_dir_fd=parent, follow_symlinks=True)
        except FileExistsError as error:
            raise RefusedError("exists", f"{named_path(relative)} already exists") from error
        except OSError:  # a /proc that cannot link (some sandboxes): the file goes with its descriptor
            return False
    finally:
        os.close(fd)
    return True


def _create_then_link(parent: int, name: str, relative: str, content: bytes) -> bool:
    """Create ``name`` in the folder ``parent`` holding ``content`` where no file can be made
    without a name (macOS, some FUSE and network file systems): written whole under a temporary
    name (:data:`_MAKING` and random letters, locked while it is made), then given ``name`` as a
    second name (``link``, never over anything), then the temporary name removed. A kill leaves at
    most the temporary file, never a cut-short ``name``; the next file made in that folder removes
    those no process holds (:func:`_remove_unheld`). False where the file system has no second names, for the caller to
    create the file by name."""
    import fcntl
    import secrets

    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    for _ in range(16):
        temporary = f"{_MAKING}{secrets.token_hex(8)}"
        try:
            fd = os.open(temporary, flags, 0o644, dir_fd=parent)
            break
        except FileExistsError:
            continue
        except OSError as error:
            raise _explain(error, relative, "create") from error
    else:  # pragma: no cover - 16 random names of 64 bits each taken
        raise RefusedError("unreadable", f"cannot create {named_path(relative)}: no free temporary name")
    linked = False
    try:
        # Held until it is removed: no other run takes it for a leftover. A file system with no locks
        # (ENOLCK: NFS with no lock daemon) refused the file, told as a full disk: it is made unheld,
        # and :func:`_remove_unheld` cannot lock it either, so keeps it.
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            write_all(fd, content)
            os.fsync(fd)
        except OSError as error:
            raise _explain(error, relative, "write") from error
        try:
            os.link(temporary, name, src_dir_fd=parent, dst_dir_fd=parent, follow_symlinks=False)
        except FileExistsError as error:
            raise RefusedError("exists", f"{named_path(relative)} already exists") from error
        except OSError:  # no second names here (EPERM, ENOTSUP on some FUSE ones): by name
            return False
        linked = True
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary, dir_fd=parent)
        os.close(fd)
    return linked


#: The start of the name of a file :func:`create_under` makes before it gives it its own name.
_MAKING = ".civrules-making-"


def _remove_unheld(parent: int) -> None:
    """Remove from the folder ``parent`` the regular files named :data:`_MAKING`… that no process
    holds: what a run killed while it made a file left. Links and folders under that name are left."""
    import fcntl

    try:
        names = [name for name in os.listdir(parent) if name.startswith(_MAKING)]
    except OSError:
        return
    for name in names[:64]:
        try:
            fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0), dir_fd=parent)
        except OSError:
            continue  # a link (refused), gone, or not ours to read
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                continue  # being made now
            if os.path.samestat(os.fstat(fd), os.stat(name, dir_fd=parent, follow_symlinks=False)):
                os.unlink(name, dir_fd=parent)
        except OSError:
            continue
        finally:
            os.close(fd)


def sync_folders(root: Path) -> None:
    """Sync (``fsync``) the folder ``root`` and every folder below it, following no link: the
    names they hold are then on the disk. Raises :class:`RefusedError` where a folder cannot be
    synced (an input/output error; its ``__cause__`` the OSError)."""
    pending = [(_open_root(root), ".")]
    try:
        while pending:
            fd, shown = pending[-1]
            for name in _names(fd):
                with contextlib.suppress(OSError):
                    if stat.S_ISDIR(_status(name, fd).st_mode):
                        pending.insert(0, (os.open(name, _DIRECTORY, dir_fd=fd), f"{shown}/{name}"))
            try:
                os.fsync(fd)
            except OSError as error:
                if error.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP):  # cannot sync a folder
                    raise _explain(error, shown, "write") from error
            pending.pop()
            os.close(fd)
    finally:
        for fd, _ in pending:
            os.close(fd)


def write_all(fd: int, content: bytes) -> None:
    """Write all of ``content`` to the descriptor ``fd`` (a write may take part of it)."""
    view = memoryview(content)
    while view:
        view = view[os.write(fd, view) :]


#: Where a process finds its open files by number (Linux): how a file made without a name is linked.
_OWN_DESCRIPTORS = "/proc/self/fd"


def plain_path(relative: str) -> str:
    """``relative`` as civrules names a file: no empty or `.` component (`maps//x.yaml`,
    `maps/./x.yaml`, a trailing `/`), separated by `/`.

    >>> plain_path("maps/./board.yaml"), plain_path("maps//x.yaml/")
    ('maps/board.yaml', 'maps/x.yaml')
    """
    return "/".join(p for p in relative.replace("\\", "/").split("/") if p not in ("", "."))
