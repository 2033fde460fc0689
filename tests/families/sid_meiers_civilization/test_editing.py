"""Editing this family's rules: `civrules watch` reports what a save changes, and the language
server's index (diagnostics, hover, go-to-definition, references) works across its files."""

from __future__ import annotations

import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO

from civrules.lsp.index import Index
from civrules.pipeline.incremental import Session
from tests.conftest import copy_rulesets, default_sigint

UNITS = "cards/sid-meiers-civilization-units.yaml"
TECHNOLOGIES = "cards/sid-meiers-civilization-technologies.yaml"
VARIANT = "rulesets/sid-meiers-civilization-community.yaml"
HANG_GUARD = 120.0


def _lines(stream: IO[str] | None, into: queue.Queue[str]) -> None:
    assert stream is not None
    for line in stream:
        into.put(line.rstrip("\n"))


def _until(lines: queue.Queue[str], prefix: str) -> list[str]:
    seen: list[str] = []
    while True:
        seen.append(lines.get(timeout=HANG_GUARD))
        if seen[-1].startswith(prefix):
            return seen


def test_watch_reports_what_a_save_changes_in_this_family(tmp_path: Path) -> None:
    rules = copy_rulesets(tmp_path / "rules", "sid-meiers-civilization")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "civrules",
            "--rules",
            str(rules),
            "watch",
            "sid-meiers-civilization",
            "--interval",
            "0.05",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        preexec_fn=default_sigint,  # stops on Ctrl-C even where this run inherited SIGINT ignored
    )
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=_lines, args=(process.stdout, lines), daemon=True).start()
    try:
        assert not any("error[" in line for line in _until(lines, "civrules: "))
        units = rules / UNITS
        text = units.read_text(encoding="utf-8")
        units.write_text(text.replace("cost: 7,", "cost: 5,", 1), encoding="utf-8")  # rank 2 as cheap as rank 1
        changed = [line for line in _until(lines, "civrules: ") if "]: " in line]
        assert len(changed) == 1 and "error[T010]" in changed[0] and "rank 2 costs 5" in changed[0]
        units.write_text(text, encoding="utf-8")
        fixed = [line for line in _until(lines, "civrules: ") if "]: " in line]
        assert len(fixed) == 1 and fixed[0].startswith("fixed: ") and "error[T010]" in fixed[0]
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=HANG_GUARD) == 130
    finally:
        process.kill()


def test_the_index_goes_to_definitions_and_references_across_the_family_files(tmp_path: Path) -> None:
    rules = copy_rulesets(tmp_path / "rules", "sid-meiers-civilization-community")
    index = Index(Session(rules).update())
    # An unlock in a technology names a building of the buildings file.
    (celeiro,) = [s for s in index.by_id["celeiro"] if s.definition]
    assert celeiro.relative == "cards/sid-meiers-civilization-buildings.yaml"
    references = index.references(celeiro, include_definition=False)
    assert any(s.relative == TECHNOLOGIES for s in references)
    # The variant's overlay patches a technology of the base: definition through `extends`.
    patched = [s for s in index.by_id["pottery"] if s.relative == VARIANT and not s.definition]
    assert patched
    (definition,) = index.definitions(patched[0])
    assert definition.relative == TECHNOLOGIES
    assert "Pottery" in index.describe(definition)  # the hover names it as printed


def test_completion_offers_the_unit_types_where_a_technology_unlocks_one(tmp_path: Path) -> None:
    """`kind: technologies` is read as `sid-meiers-civilization/technologies`: completion offered
    nothing in the family's files before it looked the file's kind up as the session judged it."""
    import asyncio

    from tests.core.test_lsp import Editor, position

    rules = copy_rulesets(tmp_path / "rules", "sid-meiers-civilization-community")
    relative = "cards/sid-meiers-civilization-community-technologies.yaml"
    text = (rules / relative).read_text(encoding="utf-8")

    async def session() -> None:
        editor = Editor(rules)
        editor.initialize(rules, {})
        await editor.settle()
        uri = (rules / relative).absolute().as_uri()
        at = position(text, "{type: artilharia", len("{type: "))
        found = editor.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": at})
        labels = {item["label"] for item in found["items"]}
        assert {"artilharia", "cavalaria"} <= labels and "mathematics" not in labels

    asyncio.run(session())
