"""A content-hash cache on disk, for work whose result depends only on its inputs.

Entries are keyed by a SHA-256 of everything that determines them (including the Python version
where the entry is bytecode), written atomically, and never trusted beyond that: a corrupt or
unreadable entry is recomputed. The directory is safe to delete at any time. It is
``$CIVRULES_CACHE_DIR`` or ``.civrules_cache`` in the working directory; ``CIVRULES_CACHE_DIR=""``
disables caching.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import CodeType


def cache_dir() -> Path | None:
    configured = os.environ.get("CIVRULES_CACHE_DIR")
    if configured == "":
        return None
    return Path(configured) if configured else Path.cwd() / ".civrules_cache"


def digest(*parts: str | bytes) -> str:
    hasher = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        hasher.update(len(data).to_bytes(8, "little"))
        hasher.update(data)
    return hasher.hexdigest()


def read(name: str) -> bytes | None:
    directory = cache_dir()
    if directory is None:
        return None
    try:
        return (directory / name).read_bytes()
    except OSError:
        return None


def write(name: str, content: bytes) -> None:
    """Store an entry atomically; a cache that cannot be written is simply not used."""
    directory = cache_dir()
    if directory is None:
        return
    try:
        directory.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=directory, prefix=".tmp-")
        with os.fdopen(handle, "wb") as stream:
            stream.write(content)
        os.replace(temporary, directory / name)
    except OSError:
        return


def cached_code(key: str, produce: Callable[[], str]) -> CodeType:
    """Compiled Python code for a source that ``produce`` generates, cached by ``key``."""
    name = f"code-{digest(key, sys.version)}.marshal"
    raw = read(name)
    if raw is not None:
        try:
            code = marshal.loads(raw)
            if isinstance(code, CodeType):
                return code
        except (EOFError, ValueError, TypeError):
            pass
    code = compile(produce(), f"<civrules cache {name}>", "exec")
    write(name, marshal.dumps(code))
    return code
