"""The files civrules' own sdist and wheel hold, listed one by one in pyproject.toml.

Hatchling builds from every file of the folder that no ``.gitignore`` names, unless the
configuration lists what to take (``[tool.hatch.build] only-include``). Without a list, civrules'
sdist took whatever lay in the checkout (``notes.txt``, ``scratch/try.py``) and its wheel a stray
module in ``compiler/civrules/``, a schema in ``schemas/`` or a designer's own ruleset in
``rules/rulesets/``, installed as one that civrules ships. The list names each file git tracks
under :data:`ROOTS`, so a build takes those and nothing else wherever it is made.

``python -m tools.package_files`` (``make package-files``) writes the list after a file under the
roots is added, moved or removed; ``--check`` writes nothing and fails while the list is stale, or
while hatchling would read or take a file beyond it (:func:`stray_files`: a ``hatch.toml`` or
``hatch_build.py`` at the root, which no option of pyproject.toml can turn off).
tests/core/test_own_distribution.py runs it on the checkout, so ``make test`` and CI fail on them.
"""

from __future__ import annotations

import json
import os
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


#: The files of the checkout beside the listed ones that civrules' sdist holds: its metadata, the
#: readme and licence it names, and the VCS ignore files hatchling copies into every sdist (the
#: first it finds from the root upward; the tracked, empty ``.hgignore`` stops it looking above).
SDIST_EXTRAS = ("pyproject.toml", "README.md", "LICENSE", ".gitignore", ".hgignore")

#: Files at the root that hatchling reads whatever pyproject.toml says, and copies into the sdist.
HATCH_FILES = {
    "hatch.toml": "hatchling reads it as build configuration over pyproject.toml's [tool.hatch] "
    "(its [build] table replaces the list of civrules' files) and copies it into the sdist",
    "hatch_build.py": "hatchling copies it into the sdist, and runs it while building when a "
    "configuration names a custom build hook",
}

#: How many strays ``--check`` prints (a hatch.toml replacing the list makes every file one).
SHOWN = 12

#: What every stray's message ends with.
WHAT_TO_DO = (
    "delete it or move it out of the checkout (civrules' sdist and wheel hold the files "
    "pyproject.toml lists, and its build is configured there alone)"
)


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


def stray_files(root: Path = REPO) -> list[str]:
    """What hatchling would read or take from the checkout at ``root`` beyond the listed files and
    :data:`SDIST_EXTRAS`, one message per file, saying what to do; empty when the build holds
    exactly the listed files. Asks hatchling's builders for their files, writing no archive."""
    problems = [f"{name}: {why}: {WHAT_TO_DO}" for name, why in HATCH_FILES.items() if os.path.lexists(root / name)]
    from hatchling.builders.sdist import SdistBuilder
    from hatchling.builders.wheel import WheelBuilder

    pyproject = (root / "pyproject.toml").read_text(encoding="utf-8")
    expected = set(listed(pyproject))
    try:
        sdist, wheel = SdistBuilder(str(root)), WheelBuilder(str(root))
        taken = {included.path: included.relative_path for included in sdist.recurse_included_files()}
        taken.update({included.path: included.relative_path for included in wheel.recurse_included_files()})
        forced = sdist.get_default_build_data()["force_include"]
    except (OSError, TypeError, ValueError, KeyError) as error:  # a stray hatch.toml can make it unreadable
        return [*problems, f"hatchling cannot read civrules' build configuration: {error}"]
    extra = sorted(path for path, relative in taken.items() if relative not in expected)
    left_out = sorted(expected - set(taken.values()))
    if problems:  # a hatch.toml's files follow from it: it is what to remove
        if extra or left_out:
            problems.append(
                f"with them, hatchling would take {len(extra)} files beyond the list and leave out "
                f"{len(left_out)} of the listed ({', '.join([*extra, *left_out][:3])}...)"
            )
        return problems
    problems += [f"{path}: hatchling would put it in civrules' sdist or wheel: {WHAT_TO_DO}" for path in extra]
    if left_out:
        problems.append(
            f"hatchling would leave out {len(left_out)} listed file{'s' if len(left_out) > 1 else ''}, not in the "
            f"checkout: {', '.join(left_out[:5])} (restore it with `git checkout -- FILE`, or remove it with "
            "`git rm FILE`, then `make package-files`)"
        )
    for path, name in sorted(forced.items()):
        if name not in SDIST_EXTRAS:
            problems.append(f"{path}: hatchling would copy it into civrules' sdist as `{name}`: {WHAT_TO_DO}")
        elif Path(path) != root / name:  # found in a folder above the checkout
            problems.append(
                f"{path}: hatchling would copy it into civrules' sdist as `{name}`, civrules' own being "
                f"missing: restore it (`git checkout -- {name}`)"
            )
    return problems


def main(argv: list[str], repo: Path = REPO) -> int:
    check = argv == ["--check"]
    if argv and not check:
        print("usage: python -m tools.package_files [--check]", file=sys.stderr)
        return 2
    strays = stray_files(repo) if check else []
    for problem in strays[:SHOWN]:
        print(problem, file=sys.stderr)
    if len(strays) > SHOWN:
        print(f"and {len(strays) - SHOWN} more files hatchling would take", file=sys.stderr)
    if not (repo / ".git").exists():
        print("not a git checkout: the list is written from the files git tracks", file=sys.stderr)
        return 2
    pyproject = repo / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    try:
        written = render(text, tracked(repo))
    except MarkersError as error:
        print(error, file=sys.stderr)
        return 1
    if written == text:
        return 1 if strays else 0
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
    pyproject.write_text(written, encoding="utf-8")
    print(f"pyproject.toml: {len(listed(written))} files of civrules' sdist and wheel")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
