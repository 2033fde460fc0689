"""Generators of the files civrules ships and commits (validators, compiled templates, the reference).

Not part of the installed package, which never imports them.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path


def write_or_check(rendered: Mapping[Path, str], argv: list[str]) -> int:
    """Writes each generated module of ``rendered`` whose file differs (``--check``: writes nothing),
    prints each one so (``wrote:`` or ``stale:``, relative to the repository) and returns the exit
    status: 1 where ``--check`` found one stale, else 0."""
    check = "--check" in argv
    stale = []
    for path, text in rendered.items():
        if path.exists() and path.read_text(encoding="utf-8") == text:
            continue
        stale.append(path)
        if not check:
            path.write_text(text, encoding="utf-8")
    root = Path(__file__).resolve().parent.parent.parent
    for path in stale:
        print(f"{'stale' if check else 'wrote'}: {path.relative_to(root).as_posix()}")
    return 1 if check and stale else 0
