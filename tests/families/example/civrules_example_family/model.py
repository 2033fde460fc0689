"""The typed model of an example-dice ruleset: the core's ruleset with its dice."""

from __future__ import annotations

from dataclasses import dataclass

from civrules.model import Collection, Entity, Origin, Ruleset, Unknown, known, rule_index_of
from civrules.resolve import Resolved


@dataclass(frozen=True, slots=True)
class Die(Entity):
    """A die: how many faces it has (unknown where no source says)."""

    faces: int | Unknown


@dataclass(frozen=True, slots=True, kw_only=True)
class DiceRuleset(Ruleset):
    """An example-dice ruleset."""

    dice: Collection[Die]

    def collections(self) -> tuple[Collection[Entity], ...]:
        return (self.dice,)


def build_model(resolved: Resolved) -> DiceRuleset:
    """The model of a resolved example-dice ruleset (the family's ``assemble`` hook)."""
    data = resolved.data
    dice = [
        Die(
            id=entry.raw["id"],
            name=known(entry.raw.get("name", entry.raw["id"])),
            origin=entry.origin,
            raw=entry.raw,
            faces=known(entry.raw.get("faces")),
        )
        for entry in resolved.collections.get("dice", [])
    ]
    players = data.get("players") or {}
    return DiceRuleset(
        id=data["id"],
        name=data["name"],
        family=resolved.family.id,
        manifest=Origin(resolved.manifest, ()),
        extends=data.get("extends"),
        players=(players.get("min", 0), players.get("max", 0)),
        rule_index=rule_index_of(resolved.rule_index),
        documents=tuple({id(d): d for d in resolved.documents}.values()),
        settings=resolved.settings,
        removed={name: dict(ids) for name, ids in resolved.removed.items()},
        chain=resolved.chain,
        data=resolved.data,
        setting_origins=dict(resolved.setting_origins),
        layers=dict(resolved.layers),
        names=dict(resolved.names),
        dice=Collection.of("dice", dice),
    )
