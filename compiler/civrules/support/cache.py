"""A content-hash cache of data (never code), in the user's cache directory.

Entries are keyed by a SHA-256 of everything that determines them, written atomically, read
through :mod:`civrules.support.files` (no link followed, size bounded) and never trusted beyond that:
each user parses what it reads with :func:`civrules.support.stored.json_document` and validates its
form, and a corrupt, forged or unreadable entry is recomputed. The
cache only ever holds data (map layouts, build stamps, manifest headers); nothing read from it is
executed.

The directory is ``$CIVRULES_CACHE_DIR``, else ``$XDG_CACHE_HOME/civrules``, else
``~/.cache/civrules`` — never the working directory, which a pull request can write.
``CIVRULES_CACHE_DIR=""`` disables caching, and so does a relative ``CIVRULES_CACHE_DIR`` or
``HOME`` (it would name a folder in the working directory) or a cache folder that is a symbolic link (civrules
writes only into folders it reaches without following one; the folders above it are the user's).
It is safe to delete at any time. The temporary file of a run killed while it wrote an entry is
removed by a later run (the first entry it writes), once no process holds it.

A cache the project could have written is not used (round 34): an entry says what a file's header
or a build's inputs were without civrules reading them again, so one committed by a pull request
(`CIVRULES_CACHE_DIR` set into the checkout) made civrules judge a manifest by another header than
the file holds. A checksum cannot help (whoever writes the entry writes its checksum), so where the
folder is decides: it is refused when it is or lies in the work tree of the repository holding the
rules folder (a `.git`, `.hg`, … in the rules folder or a folder above it; another repository's work
tree, such as a home folder kept as a dotfiles repository, is not the project's), in the rules
folder of this run or an output folder it writes, or belongs to another user or is writable by
others. A project with no repository's mark (an unpacked archive) is the folder holding the rules
folder, and a cache anywhere in it is refused too (round 35: `XDG_CACHE_HOME=$PWD` made the cache
`$PWD/civrules`, beside the rules, where the archive could have brought its entries) — unless that
folder is the home folder or above it (`~/rules`), or others can write it (`/tmp/rules`).
:func:`refusal` says why, for the command line to say it (R008) before anything is read.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
import stat
from pathlib import Path

from civrules.support import files, interrupts

try:
    import fcntl
except ImportError:  # Windows: a leftover's writer cannot be told, so none is removed
    fcntl = None  # type: ignore[assignment]

#: The largest entry read back (a map layout of thousands of areas is a few hundred KiB).
MAX_ENTRY_BYTES = 16 * 1024 * 1024


#: How the cache folder is opened: never through a link (see :func:`write`).
_FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
#: How a leftover temporary file is opened to try its lock: never through a link, never waiting.
_LEFTOVER = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
#: What a temporary file's name starts with (the entries' names never start with a dot).
_TEMPORARY = ".tmp-"
#: The most leftover temporary files one process looks at (and removes): the work a run spends on
#: what killed runs left stays bounded; more are removed by the next runs.
MOST_LEFTOVERS = 64
#: Whether this process has looked for leftovers (once: the first entry it writes).
_SWEPT: list[bool] = []


#: What marks a repository's work tree: a folder in one can hold committed files.
_REPOSITORY_MARKS = (".git", ".hg", ".svn", ".bzr", "_darcs", ".jj", ".pijul", ".fslckout", "_FOSSIL_")

#: Folders of this run a cache may not lie in (the rules folders read), by their real paths: what
#: each is, the work tree of the repository holding it with that tree's mark (None outside any),
#: and a rules folder's project tree (:func:`_project_tree`), found once, as the folder is protected.
_PROJECT: dict[str, tuple[str, tuple[str, str] | None, str | None]] = {}
#: The folders' last verdict on a cache folder: its real path and how many folders were protected
#: then (:data:`_PROJECT` only grows until :func:`forget` clears both), and why it lies where the
#: project could write it, or None.
_JUDGED: dict[tuple[str, int], str | None] = {}


def protect(folder: Path, what: str) -> None:
    """Make ``folder`` (``what`` it is: "the rules folder") one the cache may not lie in, for the
    rest of the process (an output folder is judged where it is written: :func:`lies_in`).

    The repository and the project's tree holding it are looked for here, once: every entry read or
    written asks whether the cache folder lies in the project, and walking up from each folder of
    the run for a repository's mark on each of them cost a process that read many rules folders (a
    language server's workspaces, a test run: 0.1 s of CPU per entry with a thousand of them) work
    growing as their number times its entries."""
    real = os.path.realpath(folder)
    if real not in _PROJECT:
        tree = _project_tree(real) if what == "the rules folder" else None
        _PROJECT[real] = (what, _repository(real), tree)


def forget() -> None:
    """Forget the folders protected so far: a process that serves one run after another (the test
    suite's workers) starts the next as a new process would."""
    _PROJECT.clear()
    _JUDGED.clear()


def cache_dir() -> Path | None:
    """Where entries live, or None: caching disabled (``CIVRULES_CACHE_DIR=""``, or a relative
    value, which would name a folder in the working directory), no home known (or a relative
    ``HOME``, for the same reason), the folder is a symbolic link, or the project could have
    written it (:func:`refusal`)."""
    directory = _configured()
    if directory is None or files.is_link(directory) or _untrusted(directory) is not None:
        return None
    return directory


def refusal() -> tuple[str, str] | None:
    """Why the configured cache folder is not used, and the variable that named it, where it is one
    the project or another user could have written; None otherwise (fine, or no cache)."""
    directory = _configured()
    why = None if directory is None else _untrusted(directory)
    if directory is None or why is None:
        return None
    return f"the cache folder `{directory}` {why}", _variable()


def lies_in(folder: Path) -> tuple[Path, str] | None:
    """The configured cache folder and the variable that named it, where it is ``folder`` or lies
    in it (an output folder: replaced whole, and written from what the project holds); else None."""
    directory = _configured()
    if directory is None:
        return None
    real, within = os.path.realpath(directory), os.path.realpath(folder)
    if real != within and not real.startswith(within.rstrip("/") + "/"):
        return None
    return directory, _variable()


def _variable() -> str:
    """The environment variable that named the cache folder."""
    if "CIVRULES_CACHE_DIR" in os.environ:
        return "CIVRULES_CACHE_DIR"
    if os.environ.get("XDG_CACHE_HOME", "").startswith("/"):
        return "XDG_CACHE_HOME"
    return "HOME"


def _untrusted(directory: Path) -> str | None:
    """Why ``directory`` is a cache folder someone other than this user could have written, or None."""
    real = os.path.realpath(directory)
    key = (real, len(_PROJECT))
    if key not in _JUDGED:
        _JUDGED.clear()  # one cache folder per process, but for tests: the last verdict is all kept
        _JUDGED[key] = _in_project(real)
    if _JUDGED[key] is not None:
        return _JUDGED[key]
    try:
        found = os.stat(real)
    except OSError:
        return None  # not made yet: write() makes it, this user's, for this user alone
    if hasattr(os, "geteuid") and found.st_uid != os.geteuid():
        return "belongs to another user"
    if found.st_mode & 0o022:
        return "can be written by other users"
    return None


def _in_project(real: str) -> str | None:
    """Why the folder whose real path is ``real`` lies where the project could write it, or None."""
    for folder, (what, _, _) in _PROJECT.items():
        if _within(real, folder):
            return f"lies in {what} (`{folder}`), which a pull request can write"
    for what, repository, _ in _PROJECT.values():
        if repository is not None:
            root, mark = repository
            if _within(real, root):
                return (
                    f"lies in the work tree of the repository holding {what} (`{root}` holds `{mark}`), "
                    "where committed files are"
                )
    for _, _, project in _PROJECT.values():
        if project is not None and _within(real, project):
            where = "is" if real == project else "lies in"
            return (
                f"{where} the project's folder (`{project}`, which holds the rules folder), where an "
                "unpacked archive or a pull request brings files"
            )
    return None


def _within(real: str, folder: str) -> bool:
    """Whether the real path ``real`` is ``folder`` or lies in it."""
    return real == folder or real.startswith(folder.rstrip("/") + "/")


def project_trees(rules: Path) -> tuple[str, ...]:
    """The trees of the project the rules folder ``rules`` belongs to, as real paths: the rules
    folder, its project tree (:func:`_project_tree`) and the work tree of the repository holding it,
    where that is not the home folder or one above it (a home kept as a dotfiles repository is the
    user's own, as are the programs in it). A pull request or an archive can write any of them:
    civrules runs no program found there (:func:`civrules.support.search_path.outside`)."""
    real = os.path.realpath(rules)
    trees = [real]
    project = _project_tree(real)
    if project is not None:
        trees.append(project)
    repository = _repository(real)
    if repository is not None and not _holds_home(repository[0]):
        trees.append(repository[0])
    return tuple(dict.fromkeys(trees))


def _holds_home(folder: str) -> bool:
    """Whether ``folder`` (a real path) is the home folder or one above it."""
    try:
        home = Path.home()
    except (RuntimeError, KeyError):
        return False
    return home.is_absolute() and _within(os.path.realpath(home), folder)


def _project_tree(rules: str) -> str | None:
    """The project's tree of the rules folder ``rules`` (a real path): the folder holding it, whose
    files came with the rules (a checkout, an unpacked archive with no repository's mark), or None
    where that folder is no one project's: the home folder or one above it (`~/rules`: the default
    cache lies there, as every folder of the user does), or a folder others can write (`/tmp/rules`:
    the cache folder's own owner and mode are judged instead)."""
    project = os.path.dirname(rules)
    if _holds_home(project):
        return None
    try:
        if os.stat(project).st_mode & 0o022:
            return None
    except OSError:
        return None
    return project


def _repository(folder: str) -> tuple[str, str] | None:
    """The work tree ``folder`` lies in, the nearest folder at or above it holding a repository's
    mark, and that mark; None outside any. Only the repository holding the project is judged: a
    cache in another repository's work tree (a home folder kept as a dotfiles repository, where
    ``~/.cache`` lies) is not one a pull request to this project can write."""
    above = folder
    while True:
        for mark in _REPOSITORY_MARKS:
            if os.path.lexists(os.path.join(above, mark)):
                return above, mark
        parent = os.path.dirname(above)
        if parent == above:
            return None
        above = parent


def _configured() -> Path | None:
    """The cache folder the environment names (see the module), or None: caching disabled."""
    configured = os.environ.get("CIVRULES_CACHE_DIR")
    if configured is not None:
        if not os.path.isabs(configured):
            return None
        directory = Path(configured)
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        if xdg and os.path.isabs(xdg):  # a relative XDG_CACHE_HOME is invalid and ignored (XDG spec)
            directory = Path(xdg) / "civrules"
        else:
            try:
                home = Path.home()
            except (RuntimeError, KeyError):
                return None
            if not home.is_absolute():  # `HOME=.`: `.cache/civrules` was made in the working directory
                return None
            directory = home / ".cache" / "civrules"
    return directory


def digest(*parts: str | bytes) -> str:
    """The SHA-256 of ``parts``, each one's length first (no two lists of parts share a digest)."""
    hasher = hashlib.sha256()
    for part in parts:
        data = digest_bytes(part)
        hasher.update(len(data).to_bytes(8, "little"))
        hasher.update(data)
    return hasher.hexdigest()


def digest_bytes(part: str | bytes) -> bytes:
    """The bytes a digest takes of ``part``: a text's UTF-8, a surrogate kept as one. A name read from
    the disk that is no UTF-8 (``rules/cards/\\xff.yaml``) holds one (Python's ``surrogateescape``),
    and strict UTF-8 ended the run that digested it in an internal error (R900). Texts without
    surrogates are digested as before, so no entry or stamp goes stale."""
    return part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part


def read(name: str) -> bytes | None:
    """An entry's bytes, or None (missing, a link, not a regular file, too large, unreadable)."""
    directory = cache_dir()
    if directory is None or "/" in name or name.startswith("."):
        return None
    try:
        return files.read_under(directory, name, MAX_ENTRY_BYTES)
    except (files.RefusedError, OSError):
        return None


def _new_file(folder: int) -> tuple[int, str]:
    """A new file of a name no one else uses in the folder ``folder`` (a descriptor of it), open
    for writing, and its name (``mkstemp``, relative to a folder opened without following a link)."""
    name = f"{_TEMPORARY}{secrets.token_hex(8)}"
    handle = os.open(name, _NEW_FILE, 0o600, dir_fd=folder)
    if fcntl is not None:
        try:
            # Held until the entry is in place: the file of a writer that was killed is then the
            # only one a later run finds free (see _remove_leftovers).
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:  # a run sweeping leftovers took it in the instant between: not written
            os.close(handle)
            raise
        except OSError:  # no locks on this file system: nothing is removed as a leftover either
            pass
    return handle, name


def _remove_leftovers(folder: int) -> None:
    """Delete the temporary files of writers that were killed between making one and putting it in
    place (``.tmp-*``, which nothing else removed): those no process holds the lock of
    (:func:`_new_file`), at most :data:`MOST_LEFTOVERS`, once per process. One a writer is still
    making is held, and left alone; where locks cannot be tried nothing is removed."""
    if fcntl is None or _SWEPT:
        return
    _SWEPT.append(True)
    try:
        names = [name for name in os.listdir(folder) if name.startswith(_TEMPORARY)][:MOST_LEFTOVERS]
    except OSError:
        return
    for name in names:
        try:
            handle = os.open(name, _LEFTOVER, dir_fd=folder)
        except OSError:  # gone (put in place, removed), or a link
            continue
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            found = os.fstat(handle)
            there = os.stat(name, dir_fd=folder, follow_symlinks=False)
            same = (found.st_dev, found.st_ino) == (there.st_dev, there.st_ino)  # still that file under the name
            if same and stat.S_ISREG(found.st_mode):
                os.unlink(name, dir_fd=folder)
        except OSError:  # held by a writer, no locks here, or gone meanwhile
            pass
        finally:
            os.close(handle)


def write(name: str, content: bytes) -> None:
    """Store an entry atomically; a cache that cannot be written is simply not used."""
    directory = cache_dir()
    if directory is None or "/" in name or name.startswith(".") or len(content) > MAX_ENTRY_BYTES:
        return
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        # Everything below happens in the folder as opened here: a link put in its place after
        # cache_dir() looked is refused (ELOOP), not written through.
        folder = os.open(directory, _FOLDER)
    except OSError:
        return
    temporary: str | None = None
    handle = -1
    try:
        _remove_leftovers(folder)
        with interrupts.deferred():  # Ctrl-C cannot come between making the file and knowing it
            handle, temporary = _new_file(folder)
        view = memoryview(content)
        while view:
            view = view[os.write(handle, view) :]
        # Replaces a link by the entry, never writes through it; the file is held (locked) until then.
        os.replace(temporary, name, src_dir_fd=folder, dst_dir_fd=folder)
        temporary = None
    except OSError:
        pass
    finally:
        with interrupts.deferred():
            if handle >= 0:
                os.close(handle)
            if temporary is not None:
                with contextlib.suppress(OSError):
                    os.unlink(temporary, dir_fd=folder)
            os.close(folder)
