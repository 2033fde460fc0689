"""Generating ``civrules/_generated/confusables.py``: Unicode's confusable prototypes, for the
skeleton of UTS #39 (I005, two names of one collection that look the same across scripts).

The sources are Unicode's own files, as the Unicode Consortium keeps them in its tools'
repository, each pinned by its SHA-256 (a copy that differs is refused, so the table is always
the one cited):

- ``confusables.txt`` 17.0.0 (:data:`CONFUSABLES`: ``unicodetools/data/security/17.0.0/`` at
  commit 2c1309ab2ac1de5c62f09089c8ed6bf6f1d37920 of ``unicode-org/unicodetools``, the file
  Unicode publishes as https://www.unicode.org/Public/security/17.0.0/confusables.txt);
- ``DerivedCoreProperties.txt`` 17.0.0 (:data:`DERIVED`, ``unicodetools/data/ucd/17.0.0/`` at the
  same commit), for its ``Default_Ignorable_Code_Point`` ranges, which the skeleton leaves out.

Both are under the Unicode License V3, whose notice the generated module keeps whole. Why a table
of our own and not the ``confusable-homoglyphs`` distribution: see that module's docstring.

Regenerate from copies of the two files (tests/core/test_confusables.py holds the table to the
digests written in it)::

    cd compiler && python -m tools.confusables CONFUSABLES_TXT DERIVED_CORE_PROPERTIES_TXT
    cd compiler && python -m tools.confusables --check CONFUSABLES_TXT DERIVED_CORE_PROPERTIES_TXT
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

from tools import write_or_check

TARGET = Path(__file__).resolve().parents[1] / "civrules" / "_generated" / "confusables.py"
COMMIT = "2c1309ab2ac1de5c62f09089c8ed6bf6f1d37920"
CONFUSABLES = f"unicode-org/unicodetools@{COMMIT}:unicodetools/data/security/17.0.0/confusables.txt"
DERIVED = f"unicode-org/unicodetools@{COMMIT}:unicodetools/data/ucd/17.0.0/DerivedCoreProperties.txt"
CONFUSABLES_SHA256 = "091c7f82fc39ef208faf8f94d29c244de99254675e09de163160c810d13ef22a"
DERIVED_SHA256 = "24c7fed1195c482faaefd5c1e7eb821c5ee1fb6de07ecdbaa64b56a99da22c08"
VERSION = "17.0.0"

#: The notice the Unicode License V3 asks to appear with every copy of its data files (the
#: repository's LICENSE at the commit cited).
NOTICE = """\
UNICODE LICENSE V3

COPYRIGHT AND PERMISSION NOTICE

Copyright © 2001-2024 Unicode, Inc.

NOTICE TO USER: Carefully read the following legal agreement. BY
DOWNLOADING, INSTALLING, COPYING OR OTHERWISE USING DATA FILES, AND/OR
SOFTWARE, YOU UNEQUIVOCALLY ACCEPT, AND AGREE TO BE BOUND BY, ALL OF THE
TERMS AND CONDITIONS OF THIS AGREEMENT. IF YOU DO NOT AGREE, DO NOT
DOWNLOAD, INSTALL, COPY, DISTRIBUTE OR USE THE DATA FILES OR SOFTWARE.

Permission is hereby granted, free of charge, to any person obtaining a
copy of data files and any associated documentation (the "Data Files") or
software and any associated documentation (the "Software") to deal in the
Data Files or Software without restriction, including without limitation
the rights to use, copy, modify, merge, publish, distribute, and/or sell
copies of the Data Files or Software, and to permit persons to whom the
Data Files or Software are furnished to do so, provided that either (a)
this copyright and permission notice appear with all copies of the Data
Files or Software, or (b) this copyright and permission notice appear in
associated Documentation.

THE DATA FILES AND SOFTWARE ARE PROVIDED "AS IS", WITHOUT WARRANTY OF ANY
KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF
MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT OF
THIRD PARTY RIGHTS.

IN NO EVENT SHALL THE COPYRIGHT HOLDER OR HOLDERS INCLUDED IN THIS NOTICE
BE LIABLE FOR ANY CLAIM, OR ANY SPECIAL INDIRECT OR CONSEQUENTIAL DAMAGES,
OR ANY DAMAGES WHATSOEVER RESULTING FROM LOSS OF USE, DATA OR PROFITS,
WHETHER IN AN ACTION OF CONTRACT, NEGLIGENCE OR OTHER TORTIOUS ACTION,
ARISING OUT OF OR IN CONNECTION WITH THE USE OR PERFORMANCE OF THE DATA
FILES OR SOFTWARE.

Except as contained in this notice, the name of a copyright holder shall
not be used in advertising or otherwise to promote the sale, use or other
dealings in these Data Files or Software without prior written
authorization of the copyright holder.
"""

#: The longest line of the table in the generated module (ruff's 120, with its indent and quotes).
WIDTH = 110


def prototypes(text: str) -> list[tuple[int, tuple[int, ...]]]:
    """Each mapping of ``confusables.txt`` (``source ; target ; MA # comment``), in code point
    order: the code point and its prototype's code points.

    >>> prototypes("# header\\n0430 ;\\t0061 ;\\tMA\\t# ( а → a )\\n\\n006D ;\\t0072 006E ;\\tMA\\t# m → rn\\n")
    [(109, (114, 110)), (1072, (97,))]
    """
    found = []
    for line in text.splitlines():
        data = line.partition("#")[0].strip()
        if not data:
            continue
        source, target, kind = (field.strip() for field in data.split(";")[:3])
        if kind != "MA":
            raise ValueError(f"an entry of another kind than MA: {line!r}")
        found.append((int(source, 16), tuple(int(point, 16) for point in target.split())))
    return sorted(found)


def ignorable(text: str) -> list[tuple[int, int]]:
    """The ranges (first, last) of ``Default_Ignorable_Code_Point`` in ``DerivedCoreProperties.txt``.

    >>> ignorable("00AD ; Default_Ignorable_Code_Point # Cf\\n200B..200F ; Default_Ignorable_Code_Point\\n")
    [(173, 173), (8203, 8207)]
    """
    ranges = []
    for line in text.splitlines():
        data = line.partition("#")[0]
        points, _, prop = data.partition(";")
        if prop.strip() != "Default_Ignorable_Code_Point":
            continue
        first, _, last = points.strip().partition("..")
        ranges.append((int(first, 16), int(last or first, 16)))
    return sorted(ranges)


def table_text(mappings: list[tuple[int, tuple[int, ...]]]) -> str:
    """The table as the generated module holds it: ``source:target[ target]`` in hexadecimal,
    entries separated by commas (what :func:`civrules._generated.confusables.table` reads)."""
    return ",".join(f"{source:X}:{' '.join(f'{point:X}' for point in target)}" for source, target in mappings)


def render(confusables: bytes, derived: bytes) -> str:
    """The generated module from the two sources' bytes (refused unless they are the copies cited)."""
    for name, data, digest in (
        ("confusables.txt", confusables, CONFUSABLES_SHA256),
        ("DerivedCoreProperties.txt", derived, DERIVED_SHA256),
    ):
        found = hashlib.sha256(data).hexdigest()
        if found != digest:
            raise SystemExit(f"{name} is not the {VERSION} copy cited: its SHA-256 is {found}, not {digest}")
    mappings = prototypes(confusables.decode("utf-8"))
    ranges = ignorable(derived.decode("utf-8"))
    table = table_text(mappings)
    lines: list[str] = []
    for entry in table.split(","):
        if lines and len(lines[-1]) + 1 + len(entry) <= WIDTH:
            lines[-1] += "," + entry
        else:
            lines.append(entry)
    body = "\n".join(f'    "{line}{"," if at < len(lines) - 1 else ""}"' for at, line in enumerate(lines))
    header = confusables.decode("utf-8").split("\n", 5)[:5]
    notice = "\n".join(f"# {line}".rstrip() for line in NOTICE.splitlines())
    return f'''# Generated by compiler/tools/confusables.py from Unicode's data files; do not edit.
#
# Sources (Unicode {VERSION}, each pinned by its SHA-256), at commit {COMMIT} of
# unicode-org/unicodetools:
#   unicodetools/data/security/{VERSION}/confusables.txt
#     sha256 {CONFUSABLES_SHA256}
#   unicodetools/data/ucd/{VERSION}/DerivedCoreProperties.txt
#     sha256 {DERIVED_SHA256}
# The first lines of confusables.txt:
{chr(10).join(f"#   {line[2:]}" for line in header)}
#
{notice}
"""The confusable prototypes of Unicode's ``confusables.txt`` {VERSION} and its default-ignorable
code points, for the skeleton of UTS #39 (:func:`civrules.support.confusables.skeleton`).

Generated from Unicode's own files by ``compiler/tools/confusables.py`` (sources, digests and the
Unicode License V3 notice above): {len(mappings):,} mappings, {len(ranges)} ranges.
"""

from __future__ import annotations

from typing import Final

VERSION: Final[str] = "{VERSION}"
#: The SHA-256 of :data:`TABLE` (tests/core/test_confusables.py holds it to the table).
TABLE_SHA256: Final[str] = "{hashlib.sha256(table.encode()).hexdigest()}"
#: Each mapping `source:target` (code points in hexadecimal, a target of several separated by
#: spaces), separated by commas.
TABLE: Final[str] = (
{body}
)
#: The ranges (first, last) of Default_Ignorable_Code_Point.
IGNORABLE: Final[tuple[tuple[int, int], ...]] = (
{chr(10).join(f"    (0x{first:X}, 0x{last:X})," for first, last in ranges)}
)
'''


def main(argv: list[str]) -> int:
    paths = [arg for arg in argv if arg != "--check"]
    if len(paths) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    text = render(Path(paths[0]).read_bytes(), Path(paths[1]).read_bytes())
    return write_or_check({TARGET: text}, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
