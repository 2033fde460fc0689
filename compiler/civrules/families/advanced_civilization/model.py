"""The typed model of a ruleset of the Advanced Civilization family: frozen values built once
from validated documents (:mod:`civrules.families.advanced_civilization.assemble`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from civrules.load.document import NodePath
from civrules.model import Collection, Entity, Unknown
from civrules.model import Ruleset as CoreRuleset

#: The family's id (a manifest's ``family:``), which every ruleset of this model carries. It lives
#: here, not beside the family's register entry, so that the modules the entry names (assembly,
#: checks, sheets) never import the entry back.
FAMILY_ID = "advanced-civilization"

# --- Cards -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Group(Entity):
    colour: str | Unknown | None
    shape: str | Unknown | None


@dataclass(frozen=True, slots=True)
class CreditLine:
    """A credit as written on the giving card; ``index`` is its position in the card's `credits`."""

    points: int | Unknown
    index: int
    group: str | None = None
    card: str | None = None
    extra: bool = False


@dataclass(frozen=True, slots=True)
class CalamityLink:
    """An attribute's claim that the card changes a calamity; ``path`` locates it under the card."""

    calamity: str
    effect: str
    path: NodePath


@dataclass(frozen=True, slots=True)
class Effect:
    """One structured effect of a card attribute: its ``kind`` (a closed vocabulary, see the schema's
    `$defs/effect`) and the kind's parameters as written; ``path`` locates it under the card."""

    kind: str
    params: Mapping[str, Any]
    path: NodePath


@dataclass(frozen=True, slots=True)
class Attribute:
    """A card attribute: its wording, cited sections, structured effects and calamity links.

    An attribute without effects and without calamity links is text-only: no effect kind fits it.
    """

    text: str
    rules: tuple[str, ...]
    effects: tuple[Effect, ...]
    calamities: tuple[CalamityLink, ...]
    index: int


@dataclass(frozen=True, slots=True)
class Card(Entity):
    groups: tuple[str, ...] | Unknown
    cost: int | Unknown
    prerequisites: tuple[str, ...] | Unknown
    credits: tuple[CreditLine, ...] | Unknown
    calamity_links: tuple[CalamityLink, ...]
    victory_points: int | Unknown | None
    attributes: tuple[Attribute, ...] | Unknown = ()

    def group_list(self) -> tuple[str, ...]:
        return self.groups if isinstance(self.groups, tuple) else ()

    def prerequisite_list(self) -> tuple[str, ...]:
        return self.prerequisites if isinstance(self.prerequisites, tuple) else ()

    def credit_list(self) -> tuple[CreditLine, ...]:
        return self.credits if isinstance(self.credits, tuple) else ()


# --- Commodities and calamities ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Commodity(Entity):
    value: int | Unknown
    count: int | Unknown
    stack: int | None
    mining: bool


@dataclass(frozen=True, slots=True)
class Modifier:
    """A card's change to a calamity; ``index`` is its position in the calamity's `modifiers`."""

    card: str
    applies_to: str
    effect: str
    amount: int | Unknown | None
    modifies: tuple[str, ...]
    index: int


@dataclass(frozen=True, slots=True)
class Calamity(Entity):
    stack: int
    tradable: bool | Unknown
    severity: str | None
    modifiers: tuple[Modifier, ...]
    modifier_combination: str | None
    effect_ids: tuple[str, ...]


# --- Nations, A.S.T., game structure -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Nation(Entity):
    start_areas: tuple[str, ...] | Unknown | None
    ast_position: int | Unknown | None


@dataclass(frozen=True, slots=True)
class Epoch(Entity):
    requirements: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class AstTrack(Entity):
    """One nation's A.S.T. track (``id`` is the nation's id)."""

    spaces: int | None
    epoch_starts: tuple[tuple[str, int], ...] | Unknown
    late_iron_age: tuple[tuple[int, int | Unknown], ...] | Unknown


@dataclass(frozen=True, slots=True)
class Phase(Entity):
    number: int | None
    condition: str | None
    order: str | Unknown | None


@dataclass(frozen=True, slots=True)
class PlayerCount(Entity):
    """The rules for one number of players (``id`` is the count as text)."""

    players: int
    given: bool
    nations: tuple[tuple[str, ...], ...]


# --- Map ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Area(Entity):
    land: bool
    water: bool
    open_sea: bool
    coastal: bool | None
    population_limit: int | Unknown | None
    city_site: str | None
    flood_plain: str | None
    panel: str | None


@dataclass(frozen=True, slots=True)
class Border(Entity):
    """A border between two areas (``id`` is ``a|b``); ``kind`` is land, sea or both."""

    a: str
    b: str
    kind: str


@dataclass(frozen=True, slots=True)
class Region(Entity):
    """A named set of areas: a flood plain, or the areas a volcano touches."""

    areas: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Ruleset(CoreRuleset):
    """A resolved ruleset of the Advanced Civilization family: everything its checks and emitters read."""

    credit_policy: Mapping[str, Any]
    groups: Collection[Group]
    cards: Collection[Card]
    commodities: Collection[Commodity]
    calamities: Collection[Calamity]
    nations: Collection[Nation]
    epochs: Collection[Epoch]
    ast_tracks: Collection[AstTrack]
    phases: Collection[Phase]
    player_counts: Collection[PlayerCount]
    areas: Collection[Area]
    borders: Collection[Border]
    flood_plains: Collection[Region]
    volcanoes: Collection[Region]

    def collections(self) -> tuple[Collection[Entity], ...]:
        """Every collection of entities, in data-model order (borders included)."""
        return (
            self.groups,
            self.cards,
            self.commodities,
            self.calamities,
            self.nations,
            self.epochs,
            self.ast_tracks,
            self.phases,
            self.player_counts,
            self.areas,
            self.borders,
            self.flood_plains,
            self.volcanoes,
        )


def of_family(model: CoreRuleset | None) -> Ruleset:
    """``model`` as this family's model (a ruleset built by another family is a TypeError)."""
    if not isinstance(model, Ruleset):
        raise TypeError(f"not a ruleset of the Advanced Civilization family: {model!r:.80}")
    return model
