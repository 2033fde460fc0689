"""The data audits' samples still say what the data says (provenance/audits/round-32.md onwards),
and each audit drew as compiler/tools/audit_draw.py says a round draws.

An audit row records a fact's path, its value and the source it was read against. Once the data
changes under it, the row vouches for a value the data no longer holds, and nothing said so: the
audits were prose only. Each row's path is looked up in `civrules export` of its section's ruleset
(the draw's labels: a list of mappings is entered by each one's `id`, `step`, `level`, `card`,
`rank` or `name`, else by its index) and its value held to the row's. A change of a drawn fact
must redo the row's check against its source, or record why not.

Each ruleset is in every audit, 10 facts of a base ruleset and 2 of a variant. A fact is read again
only when its ruleset has too few facts no round read (the Imperial Settlers variants, from round
34): its row says `(re-read, round N)`, N the round that last read it for that ruleset, and the
facts re-read are the ruleset's least recently read.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO
from tools.audit_draw import VARIANTS, label, readings

# The audits whose rows are held to the data: each round's draw leaves out every fact an earlier
# round read (but the re-reads of a ruleset with too few left), so every audited fact stays held.
AUDITS = tuple(REPO / "provenance" / "audits" / f"round-{n}.md" for n in (32, 33, 34, 35, 36))
SECTION = re.compile(r"^## .*\(`([a-z0-9-]+)`, seed (\d+)\)$")
ROW = re.compile(
    r"^\| (\d+)(?: \(re-read, round (\d+)\))? \| `((?:[^`\\]|\\.)+)` \| ((?:[^|\\]|\\.)+) \| `[^`]+` \(\d+\) \|"
    r".*\| (agrees|differs[^|]*) \|$"
)


def marked_rows(audit: Path) -> list[tuple[str, str, str, str, int | None]]:
    """(ruleset, path, value as JSON, verdict, the round a re-read names or None) of each row."""
    found: list[tuple[str, str, str, str, int | None]] = []
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
            unescape = row.group(3).replace("\\|", "|"), row.group(4).strip().replace("\\|", "|")
            again = int(row.group(2)) if row.group(2) else None
            found.append((ruleset, unescape[0], unescape[1], row.group(5), again))
    return found


def rows(audit: Path) -> list[tuple[str, str, str, str]]:
    """(ruleset, path, value as JSON, verdict) of each row of an audit's tables."""
    return [(ruleset, path, value, verdict) for ruleset, path, value, verdict, _ in marked_rows(audit)]


def _round(audit: Path) -> int:
    return int(audit.stem.removeprefix("round-"))


def _earlier(number: int) -> dict[int, str]:
    """Every audit of a round before `number` (rounds 24-31 too: the draw leaves out what they read)."""
    audits = (REPO / "provenance" / "audits").glob("round-*.md")
    return {_round(audit): audit.read_text(encoding="utf-8") for audit in audits if _round(audit) < number}


@cache
def exported(ruleset: str) -> dict[str, Any]:
    from tests.engine.facts import exported as export

    return export(ruleset)


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
            labelled = {label(item, index): item for index, item in enumerate(node)}
            if parts[at] not in labelled:
                raise KeyError(f"{path}: no element {parts[at]!r}")
            node, at = labelled[parts[at]], at + 1
        else:
            raise KeyError(f"{path}: {parts[at]!r} below a value")
    return node


@pytest.mark.parametrize("audit", AUDITS, ids=[audit.stem for audit in AUDITS])
def test_the_audit_draws_ten_facts_of_each_shipped_ruleset_and_two_of_each_variant(audit: Path) -> None:
    from tests.rulefiles import CachedWorkspace

    found = rows(audit)
    shipped = set(CachedWorkspace().manifests())
    assert {ruleset for ruleset, *_ in found} == shipped
    assert Counter(ruleset for ruleset, *_ in found) == {r: 2 if r in VARIANTS else 10 for r in shipped}
    assert len({(ruleset, path) for ruleset, path, *_ in found}) == len(found)  # no fact twice


def test_the_row_parser_reads_escaped_pipes_and_refuses_other_lines() -> None:
    good = '| 2 | `borders.a\\|b.kind` | "both" | `borders/kind` (13) | a, b: x | y.csv | agrees |'
    assert ROW.match(good) is not None
    assert ROW.match(good.replace("| agrees |", "| maybe |")) is None
    assert lookup({"borders": {"a|b": {"kind": "both"}}}, "borders.a|b.kind") == "both"
    assert lookup({"steps": [{"step": 4, "pick": "left"}]}, "steps.4.pick") == "left"
    with pytest.raises(KeyError):
        lookup({"steps": [{"step": 4}]}, "steps.3.pick")


@pytest.mark.parametrize("audit", AUDITS, ids=[audit.stem for audit in AUDITS])
def test_a_fact_read_before_is_read_again_only_as_a_marked_re_read_of_the_least_recently_read(audit: Path) -> None:
    """A base ruleset draws among the paths no earlier table lists; a variant among its own facts no
    earlier section of its own lists (the same path listed for its base is another value). A fact
    read before comes back only marked `(re-read, round N)`, N its ruleset's last reading of it, and
    only the ruleset's least recently read facts (among the held audits) are read again."""
    number = _round(audit)
    listed, latest = readings(_earlier(number))
    held = min(_round(other) for other in AUDITS)
    again: dict[str, list[int]] = {}
    for ruleset, path, _, _, reread in marked_rows(audit):
        read = latest.get(ruleset, {})
        if reread is None:
            assert path not in (read if ruleset in VARIANTS else listed), f"{ruleset} {path}: read before, not marked"
        else:
            assert read.get(path) == reread, f"{ruleset} {path}: last read in round {read.get(path)}, not {reread}"
            again.setdefault(ruleset, []).append(reread)
    for ruleset, rounds in again.items():
        reread_paths = {path for r, path, *_ in rows(audit) if r == ruleset}
        waiting = [n for path, n in latest[ruleset].items() if n >= held and path not in reread_paths]
        assert max(rounds) <= min(waiting, default=number), f"{ruleset}: a fact read in round {min(waiting)} waits"


def test_the_draw_takes_the_facts_no_round_read_then_the_least_recently_read() -> None:
    from tools.audit_draw import draw

    facts: list[tuple[str, object, str]] = [("a", 1, "k/a"), ("b", 2, "k/b"), ("c", 3, "k/c"), ("d", 4, "k/d")]
    last = {"a": 32, "b": 33, "c": 32}
    one_fresh = draw(facts, 2, 34, set(last), {}, last)
    assert [(fact.path, fact.reread) for fact in one_fresh if fact.reread is None] == [("d", None)]
    assert [fact.reread for fact in one_fresh if fact.reread is not None] == [32]  # a or c, never b
    assert [fact.path for fact in draw(facts, 1, 34, set(last), {}, last)] == ["d"]
    every = draw(facts, 4, 34, set(last), {}, last)
    assert [(fact.path, fact.reread) for fact in every] == [("a", 32), ("b", 33), ("c", 32), ("d", None)]
    # d listed for another ruleset only: neither fresh nor this ruleset's to re-read
    assert [fact.path for fact in draw(facts, 2, 34, {"a", "b", "c", "d"}, {}, last)] == ["a", "c"]


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "path", "value", "verdict"), [row for audit in AUDITS for row in rows(audit)])
def test_each_audited_fact_still_holds_the_value_the_audit_read(
    ruleset: str, path: str, value: str, verdict: str
) -> None:
    held = lookup(exported(ruleset), path)
    if verdict.startswith("differs: fixed"):  # found wrong by its round and fixed there (round 35's Tempest)
        assert held != json.loads(value), f"{ruleset} {path}: the audit found {value} wrong, the data still holds it"
        return
    assert held == json.loads(value), f"{ruleset} {path}: the audit read {value}, the data now holds {held!r}"
    assert verdict == "agrees"  # a disagreement is recorded in the data's `disagreements`, not left in a table
