"""The files civrules' own sdist and wheel hold, listed one by one in pyproject.toml.

Hatchling builds from every file of the folder that no ``.gitignore`` names, unless the
configuration lists what to take (``[tool.hatch.build] only-include``). Without a list, civrules'
sdist took whatever lay in the checkout (``notes.txt``, ``scratch/try.py``) and its wheel a stray
module in ``compiler/civrules/``, a schema in ``schemas/`` or a designer's own ruleset in
``rules/rulesets/``, installed as one that civrules ships. The list names each file git tracks
under :data:`ROOTS`, so a build takes those and nothing else wherever it is made.

``python -m tools.package_files`` (``make package-files``) writes the list after a file under the
roots is added, moved or removed; ``--check`` writes nothing and fails while the list is stale
(tests/core/test_own_distribution.py runs it).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PYPROJECT = REPO / "pyproject.toml"

#: The folders whose tracked files are the distribution's: the package, the shipped rulesets and
#: the schemas (the wheel puts the last two inside the package, as ``civrules/_rules`` and
#: ``civrules/_schemas``).
ROOTS = ("compiler/civrules", "rules", "schemas")

#: The lines around the list in pyproject.toml; what lies between them is this tool's.
BEGIN = "    # BEGIN the files git tracks under compiler/civrules, rules and schemas (make package-files)"
END = "    # END make package-files"


class MarkersError(Exception):
    """pyproject.toml lacks the lines around the list, or has them out of order."""


def tracked(repo: Path = REPO) -> list[str]:
    """The files git tracks under :data:`ROOTS`, in git's (bytewise) order."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--", *ROOTS], cwd=repo, capture_output=True, check=True
    ).stdout.decode("utf-8", "surrogateescape")
    return sorted(name for name in listed.split("\0") if name)


def render(pyproject: str, files: list[str]) -> str:
    """``pyproject`` with the lines between :data:`BEGIN` and :data:`END` naming ``files``."""
    lines = pyproject.split("\n")
    try:
        begin, end = lines.index(BEGIN), lines.index(END)
    except ValueError:
        raise MarkersError(f"pyproject.toml has no line {BEGIN.strip()!r} followed by {END.strip()!r}") from None
    if end < begin:
        raise MarkersError(f"pyproject.toml has {END.strip()!r} before {BEGIN.strip()!r}")
    listed = [f"    {json.dumps(name)}," for name in files]  # a JSON string of these is a TOML one
    return "\n".join([*lines[: begin + 1], *listed, *lines[end:]])


def listed(pyproject: str) -> list[str]:
    """The files the list between the markers names, as written."""
    lines = pyproject.split("\n")
    begin, end = lines.index(BEGIN), lines.index(END)
    return [json.loads(line.strip().removesuffix(",")) for line in lines[begin + 1 : end]]


def main(argv: list[str]) -> int:
    check = argv == ["--check"]
    if argv and not check:
        print("usage: python -m tools.package_files [--check]", file=sys.stderr)
        return 2
    if not (REPO / ".git").exists():
        print("not a git checkout: the list is written from the files git tracks", file=sys.stderr)
        return 2
    text = PYPROJECT.read_text(encoding="utf-8")
    try:
        written = render(text, tracked())
    except MarkersError as error:
        print(error, file=sys.stderr)
        return 1
    if written == text:
        return 0
    if check:
        added = sorted(set(listed(written)) - set(listed(text)))
        gone = sorted(set(listed(text)) - set(listed(written)))
        print(
            "pyproject.toml's list of civrules' files is stale: run `make package-files`"
            + (f"; not listed: {', '.join(added[:5])}" if added else "")
            + (f"; listed but not tracked: {', '.join(gone[:5])}" if gone else ""),
            file=sys.stderr,
        )
        return 1
    PYPROJECT.write_text(written, encoding="utf-8")
    print(f"pyproject.toml: {len(listed(written))} files of civrules' sdist and wheel")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
