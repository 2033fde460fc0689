"""How civrules names a rule file in what it writes for others to read.

Diagnostics locate a file where it is on this machine (relative to the working directory, or
absolute), to be opened. What is committed or compared between machines (a package's unknown facts,
a sheet's sources, a message that counts files) names it by :func:`artifact_name` instead: a file of
the rules folder by its path in it, a file shipped with civrules behind :data:`SHIPPED`. A variant's
generated files named its shipped base's files by their install path, so `build --check` failed on
every other machine (round 20).
"""

from __future__ import annotations

import os
from pathlib import Path

#: The prefix of the keys of the shipped files (``<civrules>/cards/...``): no manifest path starts
#: so. It is also how a shipped file is named in what civrules writes (:func:`artifact_name`).
SHIPPED = "<civrules>/"


def artifact_name(display: str, rules: Path, shipped: Path | None) -> str:
    """The name of a file (by its name in diagnostics, ``display``) in what civrules writes, with
    the rules folder ``rules`` and the shipped rules ``shipped`` (None: none are read).

    A file of the rules folder by its path in it (``cards/x.yaml``); a shipped file by its path
    among the shipped rules behind :data:`SHIPPED`, the same wherever civrules is installed and
    whatever the working directory; any other name as it is.

    >>> artifact_name("rules/cards/x.yaml", Path("rules"), Path("/opt/civrules/_rules"))
    'cards/x.yaml'
    >>> artifact_name("/opt/civrules/_rules/cards/y.yaml", Path("rules"), Path("/opt/civrules/_rules"))
    '<civrules>/cards/y.yaml'
    """
    try:
        cwd = os.getcwd()
    except OSError:  # the working directory is gone: only absolute names can be placed
        cwd = os.sep
    file = os.path.normpath(os.path.join(cwd, display))
    # The more specific folder first: the shipped rules of a checkout are inside no rules folder,
    # but a rules folder may be named above them (`--rules /`).
    given = ((shipped, SHIPPED), (rules, ""))
    roots = sorted(
        ((os.path.normpath(os.path.join(cwd, root)), prefix) for root, prefix in given if root is not None),
        key=lambda found: -len(found[0]),
    )
    for root, prefix in roots:
        try:
            inside = os.path.relpath(file, root)
        except ValueError:  # pragma: no cover - another drive on Windows
            continue
        if inside != ".." and not inside.startswith(("../", "..\\")) and inside != ".":
            return prefix + Path(inside).as_posix()
    return display
