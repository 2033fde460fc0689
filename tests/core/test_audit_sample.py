"""The data audits' samples still say what the data says (provenance/audits/round-32.md, round-33.md).

An audit row records a fact's path, its value and the source it was read against. Once the data
changes under it, the row vouches for a value the data no longer holds, and nothing said so: the
audits were prose only. Each row's path is looked up in `civrules export` of its section's ruleset
(the draw's labels: a list of mappings is entered by each one's `id`, `step`, `level`, `card`,
`rank` or `name`, else by its index) and its value held to the row's. A change of a drawn fact
must redo the row's check against its source, or record why not.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO

# The audits whose rows are held to the data: each round's draw leaves out every path an earlier
# round drew, so the rows of one audit are never another's and every audited fact stays held.
AUDITS = tuple(REPO / "provenance" / "audits" / f"round-{n}.md" for n in (32, 33))
KEYS = ("id", "step", "level", "card", "rank", "name")
SECTION = re.compile(r"^## .*\(`([a-z0-9-]+)`, seed (\d+)\)$")
ROW = re.compile(
    r"^\| (\d+) \| `((?:[^`\\]|\\.)+)` \| ((?:[^|\\]|\\.)+) \| `[^`]+` \(\d+\) \|.*\| (agrees|differs[^|]*) \|$"
)


def rows(audit: Path) -> list[tuple[str, str, str, str]]:
    """(ruleset, path, value as JSON, verdict) of each row of an audit's tables."""
    found: list[tuple[str, str, str, str]] = []
    ruleset = None
    if not audit.exists():
        return found  # the count test below says so; collection does not break
    seed = audit.stem.removeprefix("round-")
    for line in audit.read_text(encoding="utf-8").splitlines():
        section = SECTION.match(line)
        if section:
            # a section of another seed (copied from an older audit) would be read as this round's
            ruleset = section.group(1) if section.group(2) == seed else None
            continue
        row = ROW.match(line)
        if row and ruleset is not None:
            unescape = row.group(2).replace("\\|", "|"), row.group(3).strip().replace("\\|", "|")
            found.append((ruleset, unescape[0], unescape[1], row.group(4)))
    return found


@cache
def exported(ruleset: str) -> dict[str, Any]:
    from tests.engine.facts import exported as export

    return export(ruleset)


def _label(item: object, index: int) -> str:
    if isinstance(item, dict):
        for key in KEYS:
            value = item.get(key)
            if isinstance(value, (str, int)) and not isinstance(value, bool):
                return str(value)
    return str(index)


def lookup(document: dict[str, Any], path: str) -> object:
    """The value at a drawn path; a key holding a dot (none does today) is tried whole first."""
    node: object = document
    parts = path.split(".")
    at = 0
    while at < len(parts):
        if isinstance(node, dict):
            for end in range(len(parts), at, -1):
                key = ".".join(parts[at:end])
                if key in node:
                    node, at = node[key], end
                    break
            else:
                raise KeyError(f"{path}: no {parts[at]!r}")
        elif isinstance(node, list):
            labelled = {_label(item, index): item for index, item in enumerate(node)}
            if parts[at] not in labelled:
                raise KeyError(f"{path}: no element {parts[at]!r}")
            node, at = labelled[parts[at]], at + 1
        else:
            raise KeyError(f"{path}: {parts[at]!r} below a value")
    return node


@pytest.mark.parametrize("audit", AUDITS, ids=[audit.stem for audit in AUDITS])
def test_the_audit_lists_at_least_sixty_facts_of_every_shipped_ruleset(audit: Path) -> None:
    from tests.rulefiles import CachedWorkspace

    found = rows(audit)
    assert len(found) >= 60
    assert {ruleset for ruleset, *_ in found} == set(CachedWorkspace().manifests())
    assert len({(ruleset, path) for ruleset, path, *_ in found}) == len(found)  # no fact twice


def test_the_row_parser_reads_escaped_pipes_and_refuses_other_lines() -> None:
    good = '| 2 | `borders.a\\|b.kind` | "both" | `borders/kind` (13) | a, b: x | y.csv | agrees |'
    assert ROW.match(good) is not None
    assert ROW.match(good.replace("| agrees |", "| maybe |")) is None
    assert lookup({"borders": {"a|b": {"kind": "both"}}}, "borders.a|b.kind") == "both"
    assert lookup({"steps": [{"step": 4, "pick": "left"}]}, "steps.4.pick") == "left"
    with pytest.raises(KeyError):
        lookup({"steps": [{"step": 4}]}, "steps.3.pick")


def test_no_fact_is_audited_in_two_rounds() -> None:
    """Each round draws among the facts no earlier round drew: a path twice in one ruleset is a draw
    that did not read the earlier audits."""
    seen = [(ruleset, path) for audit in AUDITS for ruleset, path, *_ in rows(audit)]
    assert len(seen) == len(set(seen))


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "path", "value", "verdict"), [row for audit in AUDITS for row in rows(audit)])
def test_each_audited_fact_still_holds_the_value_the_audit_read(
    ruleset: str, path: str, value: str, verdict: str
) -> None:
    held = lookup(exported(ruleset), path)
    assert held == json.loads(value), f"{ruleset} {path}: the audit read {value}, the data now holds {held!r}"
    assert verdict == "agrees"  # a disagreement is recorded in the data's `disagreements`, not left in a table
