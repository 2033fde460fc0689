"""Writing an output tree atomically, and comparing one with what is on disk.

A build renders every file in memory first, writes the complete new tree beside the old one, then
swaps the two directories in one step (Linux ``renameat2(RENAME_EXCHANGE)``; elsewhere two renames,
with the old tree kept until the new one is in place). A build that fails or is killed leaves the
previous tree untouched: a reader sees the old tree or the new one, never a mix.
"""

from __future__ import annotations

import ctypes
import difflib
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from pathlib import Path

#: A rendered tree: relative POSIX path → file content.
Tree = Mapping[str, bytes]

_AT_FDCWD = -100
_RENAME_EXCHANGE = 2


def _write_delay() -> float:
    """Test hook: ``CIVRULES_TEST_WRITE_DELAY`` seconds of sleep after each file written, so that a
    test can kill a build in the middle of writing (tests/test_build_faults.py). 0 when unset."""
    try:
        return max(0.0, float(os.environ.get("CIVRULES_TEST_WRITE_DELAY") or 0))
    except ValueError:
        return 0.0


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
        errno = ctypes.get_errno()
        if errno in (38, 22, 95):  # ENOSYS, EINVAL, EOPNOTSUPP: fall back to renames
            return False
        raise OSError(errno, os.strerror(errno), str(b))
    return True


def _remove_abandoned(root: Path) -> None:
    """Delete staging trees left by builds that were killed (their process is gone)."""
    for leftover in root.parent.glob(f".{root.name}.new-*"):
        parts = leftover.name[len(f".{root.name}.new-") :].split("-", 1)
        if not parts[0].isdigit() or _alive(int(parts[0])):
            continue
        shutil.rmtree(leftover, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def read_tree(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` (empty when it does not exist), by relative POSIX path."""
    if not root.is_dir():
        return {}
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


def write_tree(root: Path, tree: Tree, keep: Mapping[str, bytes] | None = None) -> None:
    """Replace the directory ``root`` by ``tree`` (plus ``keep``: files carried over unchanged)."""
    root = root.absolute()
    root.parent.mkdir(parents=True, exist_ok=True)
    _remove_abandoned(root)
    staging = Path(tempfile.mkdtemp(prefix=f".{root.name}.new-{os.getpid()}-", dir=root.parent))
    delay = _write_delay()
    try:
        for relative, content in sorted({**(keep or {}), **tree}.items()):
            target = staging / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "wb") as handle:
                handle.write(content)
                handle.flush()
                os.fsync(handle.fileno())
            if delay:
                time.sleep(delay)
        staging.chmod(0o755)
        if not root.exists():
            staging.rename(root)
            return
        if _exchange(staging, root):
            shutil.rmtree(staging)
            return
        previous = root.with_name(f".{root.name}.old-{os.getpid()}")
        root.rename(previous)
        staging.rename(root)
        shutil.rmtree(previous)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def stale_files(root: Path, tree: Tree, scope: Iterator[str] | None = None) -> list[str]:
    """Unified diffs between what is on disk under ``root`` and ``tree`` (empty when up to date).

    Only paths under the prefixes in ``scope`` are compared when it is given.
    """
    on_disk = read_tree(root)
    prefixes = tuple(scope) if scope is not None else None
    if prefixes is not None:
        on_disk = {k: v for k, v in on_disk.items() if k.startswith(prefixes)}
    diffs = []
    for relative in sorted(set(on_disk) | set(tree)):
        old, new = on_disk.get(relative), tree.get(relative)
        if old == new:
            continue
        old_lines = _lines(old)
        new_lines = _lines(new)
        label = f"{root.name}/{relative}"
        diffs.append(
            "".join(
                difflib.unified_diff(
                    old_lines,
                    new_lines,
                    fromfile=f"a/{label}" if old is not None else "/dev/null",
                    tofile=f"b/{label}" if new is not None else "/dev/null",
                )
            )
        )
    return diffs


def _lines(content: bytes | None) -> list[str]:
    if content is None:
        return []
    text = content.decode("utf-8", errors="replace")
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n\\ No newline at end of file\n"
    return lines
