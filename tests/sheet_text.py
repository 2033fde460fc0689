"""A sheet's HTML without the marks of its names' languages (round 29), for the tests that read
what a sheet says rather than which language it says it in (tests/generated/test_sheet_languages.py
holds the marks)."""

from __future__ import annotations

import re

_MARK = re.compile(r'<span lang="[^"<>]*">([^<]*)</span>')


def unmarked(html: str) -> str:
    """``html`` with each ``<span lang="...">NAME</span>`` the renderer wraps a name in left as NAME."""
    return _MARK.sub(r"\1", html)
