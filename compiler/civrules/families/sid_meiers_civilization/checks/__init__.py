"""Checks of the Sid Meier's Civilization family (code prefix T): one module per concern."""

from __future__ import annotations

from civrules.checks import cannot_judge

__all__ = ["cannot_judge"]
