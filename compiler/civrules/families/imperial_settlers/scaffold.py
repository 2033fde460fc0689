"""The examples ``civrules new-variant`` writes into a new variant of an Imperial Settlers ruleset."""

from __future__ import annotations

from civrules.resolve import Resolved


def variant_example(resolved: Resolved | None) -> str:
    """Placeholder replaced below."""
    return "# overlay:\n"
