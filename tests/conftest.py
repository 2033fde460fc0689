"""Shared fixtures: the repository root and a scratch copy of the real rules."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
RULES = REPO / "rules"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture
def rules_copy(tmp_path: Path) -> Path:
    """A writable copy of the shipped rules/ directory."""
    target = tmp_path / "rules"
    shutil.copytree(RULES, target)
    return target
