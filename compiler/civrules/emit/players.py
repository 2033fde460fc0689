"""Every package's ``PLAYERS``: the players its ruleset seats, as ``civrules export`` gives them
(``ruleset.players``: min, max, the best number where the source names one, and the citation), a
``civrules_runtime.records.PlayerRange``. Each family's ``data.py`` writes it the same way, so an
engine reads the range of any package as one type (``RulesetPackageBase.PLAYERS``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from civrules.emit.pyfmt import Code, Node, call, string, tup

#: The annotation of the constant, and its docstring.
ANNOTATION = "PLAYERS: Final[PlayerRange | None]"
DOC = (
    "How many players the ruleset seats (civrules export's ruleset.players): the fewest, the most, the\n"
    "best number where the source names one, and what it cites; None where the ruleset does not say.\n"
    "`n in PLAYERS` tells whether it seats n players."
)


def player_range(exported: Mapping[str, Any]) -> Node:
    """The ``PlayerRange(...)`` of ``exported`` (``civrules export``'s object), or ``None``."""
    players = (exported.get("ruleset") or {}).get("players")
    if not isinstance(players, Mapping) or not _whole(players.get("min")) or not _whole(players.get("max")):
        return Code("None")
    rule = players.get("rule")
    rules = [rule] if isinstance(rule, str) else [r for r in rule or () if isinstance(r, str)]
    best, source = players.get("best"), players.get("source")
    return call(
        "PlayerRange",
        Code(str(players["min"])),
        Code(str(players["max"])),
        best=Code(str(best) if _whole(best) else "None"),
        rule=tup([string(r) for r in rules]),
        source=string(source) if isinstance(source, str) else Code("None"),
    )


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
