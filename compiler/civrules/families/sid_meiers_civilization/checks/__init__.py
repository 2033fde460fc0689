"""Checks of the Sid Meier's Civilization family (code prefix T): one module per concern."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from civrules.checks import diagnostic
from civrules.diagnostics import Diagnostic, Severity, Span


def cannot_judge(code: str, message: str, span: Span | None, hint: str, *, subjects: Iterable[object]) -> Diagnostic:
    """The one info a check gives where the data lacks the facts it needs (never a false error);
    ``subjects``: the ids of what lacks them."""
    return dataclasses.replace(diagnostic(code, message, span, hint, subjects=subjects), severity=Severity.INFO)
