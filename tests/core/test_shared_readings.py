"""The suite's shared readings of the shipped rule files (tests/rulefiles.py, install_shipped_reads):
what they keep, what they leave to the code under test, and the guard that nothing changed them."""

from __future__ import annotations

from pathlib import Path

from civrules.load.workspace import Workspace
from tests.conftest import RULES, copy_shipped
from tests.rulefiles import changed_shipped_reads, reading_apart

CARDS = "cards/advanced-civilization.yaml"


def test_a_copy_of_a_shipped_file_gets_the_kept_reading_under_its_own_name(rules_copy: Path) -> None:
    shipped, copied = Workspace(RULES).load(CARDS), Workspace(rules_copy).load(CARDS)
    assert shipped.document is not None and copied.document is not None
    assert copied.document.data is shipped.document.data
    assert copied.document is not shipped.document
    assert copied.path != shipped.path and copied.document.file == copied.path
    assert copied.document.span(("cards", 3, "cost")) is not None
    assert copied.document.span(("cards", 3, "cost")).line == shipped.document.span(("cards", 3, "cost")).line
    assert (copied.kind, copied.diagnostics) == (shipped.kind, shipped.diagnostics)


def test_a_changed_copy_and_a_reading_apart_are_read_by_the_code_under_test(rules_copy: Path) -> None:
    shipped = Workspace(RULES).load(CARDS).document
    path = rules_copy / CARDS
    path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    changed = Workspace(rules_copy).load(CARDS).document
    with reading_apart():
        apart = Workspace(RULES).load(CARDS).document
    assert shipped is not None and changed is not None and apart is not None
    assert changed.data is not shipped.data and changed.data == shipped.data
    assert apart.data is not shipped.data and apart.data == shipped.data


def test_a_shared_reading_a_run_changed_is_named(tmp_path: Path) -> None:
    copy_shipped(tmp_path / "rules")
    document = Workspace(tmp_path / "rules").load(CARDS).document
    assert document is not None and changed_shipped_reads() == []
    card = document.data["cards"][0]
    card["cost"], cost = card["cost"] + 1, card["cost"]
    try:
        assert CARDS in changed_shipped_reads()
    finally:
        card["cost"] = cost
    assert changed_shipped_reads() == []
