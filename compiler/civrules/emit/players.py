"""Every package's ``PLAYERS``: the players its ruleset seats, as ``civrules export`` gives them
(``ruleset.players``: min, max, the best number where the source names one), a
``civrules_runtime.records.PlayerRange``. Each family's ``data.py`` writes it the same way, so an
engine reads the range of any package as one type (``RulesetPackageBase.PLAYERS``).

Its citation is that of its numbers, each cited by what wrote it: a variant's settings patch cites
a number it wrote (its `source: "house rule: ..."`), the range's definition the others. The
range's mapping, merged key by key, keeps the base's `rule:` beside the patch's `source:`, and
PLAYERS cited the base's section for a house rule's numbers while ``export``'s `setting_sources`
and ``diff`` cited the patch; ``field_sources`` is that `setting_sources.players`, field by field.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from civrules.emit.pyfmt import Code, Node, call, dct, record_call, string, tup
from civrules.model import Ruleset, rules_of, source_of
from civrules.resolve import cited_nodes, writer_nodes

#: The annotation of the constant, and its docstring.
ANNOTATION = "PLAYERS: Final[PlayerRange | None]"
DOC = (
    "How many players the ruleset seats (civrules export's ruleset.players): the fewest, the most, the\n"
    "best number where the source names one, and what cites them (a variant's patch for a number it\n"
    "wrote, field by field in field_sources, as export's setting_sources); None where the ruleset does\n"
    "not say. `n in PLAYERS` tells whether it seats n players."
)

#: The fields of the range whose values PLAYERS holds (what its citation cites).
NUMBERS = ("min", "max", "best")


def player_range(exported: Mapping[str, Any], ruleset: Ruleset, *, makers: bool = False) -> Node:
    """The ``PlayerRange(...)`` of ``exported`` (``civrules export``'s object of ``ruleset``, the
    model), or ``None``; ``makers``: made through its class's maker, ``_PlayerRange(...)``
    (:func:`civrules.emit.pyfmt.record_call`, unchecked), which the module's head binds
    (:func:`civrules.emit.pyfmt.used_makers`), else by a call of the class (checked)."""
    players = (exported.get("ruleset") or {}).get("players")
    if not isinstance(players, Mapping) or not _whole(players.get("min")) or not _whole(players.get("max")):
        return Code("None")
    rules, sources = _citations(players, ruleset)
    best = players.get("best")
    changed = (exported.get("setting_sources") or {}).get("players") or {}
    fields: dict[str, Node] = {}
    if changed:
        items = [
            (string(name), string(cited) if isinstance(cited, str) else Code("None")) for name, cited in changed.items()
        ]
        fields["field_sources"] = call("FrozenMap", dct(items))
    return (record_call if makers else call)(
        "PlayerRange",
        Code(str(players["min"])),
        Code(str(players["max"])),
        best=Code(str(best) if _whole(best) else "None"),
        rule=tup([string(r) for r in rules]),
        source=string("; ".join(sources)) if sources else Code("None"),
        **fields,
    )


def _citations(players: Mapping[str, Any], ruleset: Ruleset) -> tuple[list[str], list[str]]:
    """The rule sections and the secondary sources that cite the range's numbers: for each, the
    settings patch that last wrote it, else the range's definition (as `setting_sources` and
    `diff` cite a field)."""
    origin = ruleset.setting_origins.get("players")
    if origin is None:  # no origin kept: the mapping's own citation
        nodes: list[Mapping[str, Any]] = [players]
    else:
        nodes = []
        for name in NUMBERS:
            written = writer_nodes(origin, name)  # None: deleted, no fact to cite
            if written:
                nodes += [node for cited in written for node in cited]
            elif written is not None:
                nodes += cited_nodes(origin.document, origin.path, name)
    rules = [rule for node in nodes for rule in rules_of(node) if isinstance(rule, str)]
    sources = [source for node in nodes if (source := source_of(node)) is not None]
    return list(dict.fromkeys(rules)), list(dict.fromkeys(sources))


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
