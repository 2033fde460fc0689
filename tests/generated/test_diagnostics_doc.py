"""The table of diagnostic codes in docs/ is generated from the catalogue and kept current."""

from __future__ import annotations

from pathlib import Path

import pytest

from civrules.checks.catalogue import catalogue
from tests.conftest import REPO
from tools.diagnostics import main, render_diagnostics


def test_the_committed_table_of_codes_is_the_generated_one() -> None:
    committed = (REPO / "docs" / "diagnostics.md").read_text(encoding="utf-8")
    assert committed == render_diagnostics(), "docs/diagnostics.md is stale: run `make diagnostics`"


def test_every_code_has_a_row_and_a_section_with_its_documentation() -> None:
    text = render_diagnostics()
    for code in catalogue().values():
        assert f"| [{code.code}](#{code.code.lower()}) | {code.name} | {code.severity.value} |" in text, code.code
        assert f"\n## {code.code}\n" in text and f"`civrules explain {code.code}`" in text, code.code
    assert "| [L012](#l012) | unreadable-file | error | core |" in text
    assert "| [A001](#a001) | epoch-order | error | advanced-civilization |" in text


def test_check_writes_nothing_and_fails_on_a_stale_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    current = tmp_path / "diagnostics.md"
    current.write_text(render_diagnostics(), encoding="utf-8")
    stale = tmp_path / "stale.md"
    stale.write_text("# older codes\n", encoding="utf-8")
    assert main(["--check", str(current)]) == 0
    assert main(["--check", str(stale)]) == 1
    assert stale.read_text(encoding="utf-8") == "# older codes\n"
    assert "stale.md: differs from what tools.diagnostics writes" in capsys.readouterr().err
