"""A content-hash cache of data (never code), in the user's cache directory.

Entries are keyed by a SHA-256 of everything that determines them, written atomically, read
through :mod:`civrules.support.files` (no link followed, size bounded) and never trusted beyond that:
each user validates what it reads, and a corrupt, forged or unreadable entry is recomputed. The
cache only ever holds data (map layouts, build stamps, manifest headers); nothing read from it is
executed.

The directory is ``$CIVRULES_CACHE_DIR``, else ``$XDG_CACHE_HOME/civrules``, else
``~/.cache/civrules`` — never the working directory, which a pull request can write.
``CIVRULES_CACHE_DIR=""`` disables caching. It is safe to delete at any time.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

from civrules.support import files, interrupts

#: The largest entry read back (a map layout of thousands of areas is a few hundred KiB).
MAX_ENTRY_BYTES = 16 * 1024 * 1024


def cache_dir() -> Path | None:
    """Where entries live, or None when caching is disabled or no home is known."""
    configured = os.environ.get("CIVRULES_CACHE_DIR")
    if configured is not None:
        return Path(configured).absolute() if configured else None
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg and os.path.isabs(xdg):  # a relative XDG_CACHE_HOME is invalid and ignored (XDG spec)
        return Path(xdg) / "civrules"
    try:
        home = Path.home()
    except (RuntimeError, KeyError):
        return None
    return home / ".cache" / "civrules"


def digest(*parts: str | bytes) -> str:
    hasher = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        hasher.update(len(data).to_bytes(8, "little"))
        hasher.update(data)
    return hasher.hexdigest()


def read(name: str) -> bytes | None:
    """An entry's bytes, or None (missing, a link, not a regular file, too large, unreadable)."""
    directory = cache_dir()
    if directory is None or "/" in name or name.startswith("."):
        return None
    try:
        return files.read_under(directory, name, MAX_ENTRY_BYTES)
    except (files.RefusedError, OSError):
        return None


def write(name: str, content: bytes) -> None:
    """Store an entry atomically; a cache that cannot be written is simply not used."""
    directory = cache_dir()
    if directory is None or "/" in name or name.startswith(".") or len(content) > MAX_ENTRY_BYTES:
        return
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        temporary: str | None = None
        try:
            with interrupts.deferred():  # Ctrl-C cannot come between making the file and knowing it
                handle, temporary = tempfile.mkstemp(dir=directory, prefix=".tmp-")
            with os.fdopen(handle, "wb") as stream:
                stream.write(content)
            os.replace(temporary, directory / name)  # replaces a link by the entry, never writes through it
        except BaseException:
            if temporary is not None:
                with interrupts.deferred():
                    Path(temporary).unlink(missing_ok=True)
            raise
    except OSError:
        return
