"""The typed model of a ruleset of the Advanced Civilization family: frozen values built once
from validated documents (:mod:`civrules.families.advanced_civilization.assemble`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Any, ClassVar

from civrules.families.advanced_civilization import FAMILY_ID as FAMILY_ID
from civrules.load.document import NodePath
from civrules.model import Collection, Entity, Origin, Unknown, known
from civrules.model import Ruleset as CoreRuleset
from civrules.support.values import frozen_value

# --- Cards -------------------------------------------------------------------------------------


@frozen_value
class Group(Entity):
    colour: str | Unknown | None
    shape: str | Unknown | None


@frozen_value
class CreditLine:
    """A credit as written on the giving card; ``index`` is its position in the card's `credits`."""

    points: int | Unknown
    index: int
    group: str | None = None
    card: str | None = None
    extra: bool = False
    #: The name the giving rule prints for its target card (`target_name.text`), where written: the
    #: name a player reads when the card's own name is unknown (Expansion Project 30.16.1).
    target_name: str | None = None


@frozen_value
class CalamityLink:
    """An attribute's claim that the card changes a calamity; ``path`` locates it under the card."""

    calamity: str
    effect: str
    path: NodePath


@frozen_value
class Effect:
    """One structured effect of a card attribute: its ``kind`` (a closed vocabulary, see the schema's
    `$defs/effect`) and the kind's parameters as written; ``path`` locates it under the card."""

    kind: str
    params: Mapping[str, Any]
    path: NodePath


@frozen_value
class Attribute:
    """A card attribute: its wording, cited sections, structured effects and calamity links.

    An attribute without effects and without calamity links is text-only: no effect kind fits it.
    """

    text: str
    rules: tuple[str, ...]
    effects: tuple[Effect, ...]
    calamities: tuple[CalamityLink, ...]
    index: int
    #: The public secondary source it cites (`source:`), where it has one.
    source: str | None = None


@frozen_value
class PurchaseEffect:
    """What buying a card brings at once (`purchase_effects`): its kind, wording and parameters.

    ``cited`` is the sections it cites, then its public source; a parameter not written is None.
    """

    kind: str | None
    text: str
    cited: tuple[str, ...]
    points: int | None = None
    max_cards: int | None = None
    max_face_value_below: int | None = None
    colours: str | None = None
    #: Whether what it brings is usable from the next turn only (`usable_from: next_turn`).
    next_turn: bool = False
    #: The groups it concerns, None where not written as a list.
    groups: tuple[str, ...] | None = None


@frozen_value
class Card(Entity):
    groups: tuple[str, ...] | Unknown
    cost: int | Unknown
    prerequisites: tuple[str, ...] | Unknown
    credits: tuple[CreditLine, ...] | Unknown
    calamity_links: tuple[CalamityLink, ...]
    victory_points: int | Unknown | None
    attributes: tuple[Attribute, ...] | Unknown = ()
    #: Whether the card writes `attributes` at all (an empty list included).
    writes_attributes: bool = False
    purchase_effects: tuple[PurchaseEffect, ...] = ()

    def group_list(self) -> tuple[str, ...]:
        return self.groups if isinstance(self.groups, tuple) else ()

    def prerequisite_list(self) -> tuple[str, ...]:
        return self.prerequisites if isinstance(self.prerequisites, tuple) else ()

    def credit_list(self) -> tuple[CreditLine, ...]:
        return self.credits if isinstance(self.credits, tuple) else ()


# --- Commodities and calamities ----------------------------------------------------------------


@frozen_value
class Commodity(Entity):
    value: int | Unknown
    count: int | Unknown
    stack: int | None
    mining: bool
    #: The trade block the good is native to (`block`: west, east, shared); None where not written.
    block: str | Unknown | None = None
    #: How many of its cards each trade block's deck holds (`block_counts`, Mega Civilization).
    block_counts: tuple[tuple[str, int], ...] | None = None
    #: The fields no source prints that the data reads from a table's layout (`inferred`: value, stack).
    inferred: tuple[str, ...] = ()
    #: The language its source prints the name in, where not the rulebook's (`name_language`).
    name_language: str | None = None


@frozen_value
class Modifier:
    """A card's change to a calamity; ``index`` is its position in the calamity's `modifiers`."""

    card: str
    applies_to: str
    effect: str
    amount: int | Unknown | None
    modifies: tuple[str, ...]
    index: int
    #: The value the modified amount becomes (`set_to`), as written; None where not given.
    set_to: int | Unknown | None = None
    #: Whether the change is counted per something (`per`): its total is not one number.
    per: bool = False
    #: Whether the modifier adds an effect of its own (`adds`) instead of changing one.
    adds: bool = False
    #: What it counts (`per.kind`) and, per card of a good, which good (`per.commodity`).
    per_kind: str | None = None
    per_commodity: str | None = None
    #: The parts of the modified effect that change (`becomes`): its new kind, amount and unit.
    becomes_kind: str | None = None
    becomes_amount: int | Unknown | None = None
    becomes_unit: str | None = None
    #: The kind and unit of the loss it adds (`adds`).
    adds_kind: str | None = None
    adds_unit: str | None = None
    #: The most the modified amount may become (`cap`).
    cap: int | None = None
    #: Whether the holder may choose not to use it (`optional: true`).
    optional: bool = False
    text: str | None = None
    rules: tuple[str, ...] = ()
    source: str | None = None

    @property
    def stated(self) -> int | Unknown | None:
        """The amount the rule states outright for the holder (`set_to`, else `becomes.amount`)."""
        return self.set_to if self.set_to is not None else self.becomes_amount


@frozen_value
class CalamityEffect:
    """One effect of a calamity on one side (``primary`` or ``secondary``), at ``index`` in it."""

    side: str
    index: int
    id: str | None
    #: The base amount as written (a number, `{unknown: why}`, or None where there is none).
    amount: Any
    condition: str | None = None
    #: Who chooses (`chosen_by`), allocates (`allocated_by`) or replaces (`replaced_by`) the losses.
    chosen_by: str | None = None
    allocated_by: str | None = None
    replaced_by: str | None = None
    kind: str | None = None
    unit: str | None = None
    #: `amount: {all_but: n}` and `amount: {per_city_owned: n}`: n; None where not so written.
    all_but: int | None = None
    per_city: int | None = None
    max_per_victim: int | None = None
    victim_count: int | None = None
    where: str | None = None
    constraints: tuple[str, ...] = ()
    text: str | None = None
    rules: tuple[str, ...] = ()
    source: str | None = None
    alternative: CalamityAlternative | None = None
    fallback: CalamityFallback | None = None
    chosen_by_if_not_traded: str | None = None
    #: How the site is chosen by damage (`site.selection`), and who breaks ties (`site.tie_broken_by`).
    site: str | None = None
    site_tie_broken_by: str | None = None

    @property
    def amount_unknown(self) -> Unknown | None:
        """The reason the base amount is unknown, where the data writes it `{unknown: why}`."""
        amount = known(self.amount)
        return amount if isinstance(amount, Unknown) else None


@frozen_value
class CalamityAlternative:
    """What a victim may lose instead (`alternative`)."""

    kind: str
    amount: Any
    unit: str
    per_unit: bool
    required_in_full: bool
    text: str | None
    rules: tuple[str, ...]
    source: str | None


@frozen_value
class CalamityFallback:
    """What happens when the effect cannot be carried out (`fallback`)."""

    kind: str
    text: str | None
    rules: tuple[str, ...]
    source: str | None


@frozen_value
class Immunity:
    """An entry of a calamity's `immune`: who is immune, from which side, to which effects."""

    index: int
    who: str | None
    card: str | None
    #: The side the immunity protects from (`from`): primary, secondary, or both (when not written).
    side: str
    effects: tuple[str, ...]
    nation: str | None = None
    text: str | None = None
    rules: tuple[str, ...] = ()
    #: `source:` (a house rule's, where a variant wrote it); None where it writes none.
    source: str | None = None


@frozen_value
class Override:
    """A card of a `modifier_combination` that overrides others (`overrides`), at ``index``."""

    index: int
    card: str
    overrides: tuple[str, ...]


@frozen_value
class Combination:
    """How a calamity's card modifiers combine (`modifier_combination`), as written."""

    mode: str | None
    #: Whether it is written as a mapping (mode, precedence, overrides) rather than a bare mode.
    detailed: bool
    precedence: tuple[str, ...] = ()
    overrides: tuple[Override, ...] = ()
    #: Why the mode is not known, where it is written `{unknown: why}`.
    mode_unknown: Unknown | None = None
    text: str | None = None
    rules: tuple[str, ...] = ()
    #: `source:` (a house rule's, where a variant wrote it); None where it writes none.
    source: str | None = None


@frozen_value
class Beneficiary:
    """Who gains what a calamity takes (`beneficiary`), as written."""

    selection: str | None
    overflow: str | None
    city_unit_points: int | None
    token_unit_points: int | None
    eligibility: str | None
    text: str | None
    rules: tuple[str, ...]
    #: `source:` (a house rule's, where a variant wrote it); None where it writes none.
    source: str | None = None


@frozen_value
class NoEffect:
    """A situation in which a calamity has no effect at all (`no_effect_when`)."""

    condition: str | None
    text: str | None
    rules: tuple[str, ...]
    #: `source:` (a house rule's, where a variant wrote it); None where it writes none.
    source: str | None = None


@frozen_value
class CopiesBand:
    """`copies_by_players[]` of a calamity: the cards of it a game of ``players_min`` to
    ``players_max`` players holds; ``rules`` its own citation (the calamity's where it has none)."""

    players_min: int | None
    players_max: int | None
    copies: int | None
    rules: tuple[str, ...]
    source: str | None = None


@frozen_value(weakref=True)  # memos of a calamity go with it (civrules.support.memo)
class Calamity(Entity):
    stack: int
    tradable: bool | Unknown
    severity: str | None
    modifiers: tuple[Modifier, ...]
    modifier_combination: str | None
    effect_ids: tuple[str, ...]
    #: The effects of each side in data order (`primary`, then `secondary`).
    effects: tuple[CalamityEffect, ...] = ()
    immune: tuple[Immunity, ...] = ()
    #: The written `modifier_combination`; None where the calamity has none.
    combination: Combination | None = None
    #: How many cards of it the game has: one where the data writes no `copies` (the schema's default).
    copies: int = 1
    beneficiary: Beneficiary | None = None
    no_effect_when: tuple[NoEffect, ...] = ()
    #: The parts the sources do not give (`effects`, `primary`, `secondary`, `modifiers`,
    #: `immune` written `{unknown: why}`).
    unknown_parts: frozenset[str] = frozenset()
    #: `copies_by_players`: the copies a game holds per band of player counts, in the order
    #: written; () where every game holds `copies`.
    copies_by_players: tuple[CopiesBand, ...] = ()
    #: The data's why of each part in ``unknown_parts``, by part, in the order of the parts.
    unknown_reasons: tuple[tuple[str, str], ...] = ()

    def effects_of(self, side: str) -> tuple[CalamityEffect, ...]:
        return tuple(e for e in self.effects if e.side == side)


# --- Game options ------------------------------------------------------------------------------


@frozen_value
class OptionChoice:
    """One choice of an option of the type ``enum`` (`values`): its id, name and what it does."""

    id: str
    name: str | None
    description: str | None


@frozen_value
class GameOption(Entity):
    """An option a game is created with (`options`: the online site's create-game form): what it
    does, its choices, its default and the value that corresponds to the printed rules."""

    #: The label the site shows; Unknown where the source does not give it.
    site_label: str | Unknown | None
    help_page: str | None
    help_section: str | None
    #: `type`: boolean, integer, enum.
    kind: str | None
    #: An enum's choices; Unknown where the source does not list them; () for other types.
    choices: tuple[OptionChoice, ...] | Unknown
    minimum: int | None
    maximum: int | None
    #: The site's default (a bool, a number, a choice's id), Unknown where not stated, None where not written.
    default: object
    #: The value that corresponds to the printed rules; None where not written.
    rulebook_value: object
    online_only: bool | None
    description: str | None


# --- Nations, A.S.T., game structure -----------------------------------------------------------


@frozen_value
class Nation(Entity):
    start_areas: tuple[str, ...] | Unknown | None
    ast_position: int | Unknown | None
    #: The part of a split map the nation plays in (`region`: west, east); None where not written.
    region: str | None = None
    #: The colour of its tokens as named (`colour.name`); None where unknown or not written.
    colour: str | None = None


@frozen_value
class LevelRequirements:
    """An epoch's requirements at one level of the game (`requirements_by_level`, at ``index``)."""

    index: int
    level: str | None
    #: None where the entry writes no mapping of requirements.
    requirements: Mapping[str, Any] | None


@frozen_value
class Epoch(Entity):
    requirements: Mapping[str, Any]
    #: The epoch's place from left to right on the A.S.T. (`order`); None where not written.
    order: int | None = None
    by_level: tuple[LevelRequirements, ...] = ()


@frozen_value
class AstTrack(Entity):
    """One nation's A.S.T. track (``id`` is the nation's id)."""

    spaces: int | None
    epoch_starts: tuple[tuple[str, int], ...] | Unknown
    late_iron_age: tuple[tuple[int, int | Unknown], ...] | Unknown
    #: The level of the game the track is for, where the A.S.T. prints one track per level.
    level: str | None = None
    points_per_space: Any = None
    #: What a reader of the track should know (`caveat`), and whether a second source confirms it.
    caveat: str = ""
    checked: bool | None = None

    KEY_FIELD: ClassVar[str] = "nation"

    @property
    def key(self) -> str:
        """A track is one per nation and level."""
        return f"{self.id}@{self.level or ''}"


@frozen_value
class Phase(Entity):
    number: int | None
    condition: str | None
    order: str | Unknown | None
    #: The condition and order in the rulebook's words (`condition_text`, `order_text`).
    condition_text: str | None = None
    order_text: str | None = None
    #: The fewest cards a trade must have (`min_trade_cards`).
    min_trade_cards: int | None = None
    sub_activities: tuple[SubActivity, ...] = ()
    #: How many of the cards given in a trade are named truthfully (`named_trade_cards`).
    named_trade_cards: int | None = None
    #: The most calamities one player suffers as primary victim a turn (`max_primary_calamities`, 29.5;
    #: a limit with parts: its `total`).
    max_primary_calamities: int | None = None
    #: What a city and a token count for in a loss of unit points (`unit_points`, 29.62).
    unit_points: tuple[int, int] | None = None
    #: The most sea areas a ship moves through in a movement phase (`ship_moves`, 23.52).
    ship_moves: int | None = None
    #: The civilization card whose holders act last in the phase (`military_last.card`).
    military_last: str | None = None
    #: A limit with parts (`max_primary_calamities.major`, `.minor`, `.of_one_calamity`: Mega
    #: Civilization §8): the most major and minor calamities, and cards of one calamity, a player
    #: keeps; None where the limit has no such part (a number, as 29.5, has none).
    max_major_calamities: int | None = None
    max_minor_calamities: int | None = None
    max_of_one_calamity: int | None = None
    #: The citation a limit with parts carries of its own (its `rule:` and `source:`); empty and
    #: None for a number, cited by the phase.
    calamity_limit_rules: tuple[str, ...] = ()
    calamity_limit_source: str | None = None


@frozen_value
class SubActivity:
    """A step of a phase (`sub_activities`): its id, name as written and citations, and the
    civilization card whose holders alone take it (`card`)."""

    id: str | None
    name: str | None
    rules: tuple[str, ...]
    card: str | None = None
    #: `source:` (a house rule's, where a variant wrote it); None where it writes none.
    source: str | None = None


@frozen_value
class TradeDeckSetup:
    """A trade deck a configuration uses (`trade_decks`): its id, name and make-up as written, and
    its citation."""

    id: str | None
    name: str | None
    text: str | None
    rules: tuple[str, ...] = ()
    source: str | None = None


@frozen_value
class SpecialRule:
    """A rule stated as text (a `rule_text`: a player count's or the ruleset's `special_rules`, a
    non-player force's rules and activation): its id, text and citation."""

    id: str | None
    text: str | None
    rules: tuple[str, ...] = ()
    #: `source:` (a variant's text, a house rule); None where it writes none.
    source: str | None = None


@frozen_value
class ForceAdvancement:
    """An advancement a non-player force holds: the card (Unknown where the source's name matches
    no card of the ruleset) and the name the source prints."""

    card: str | Unknown | None
    name: str | None


@frozen_value
class ForceCard:
    """The calamity card that brings a non-player force into play (`calamity_card`)."""

    name: str | None
    tradable: bool | Unknown | None
    stack: int | Unknown | None
    rules: tuple[str, ...] = ()
    source: str | None = None


@frozen_value
class NonPlayerForce:
    """A force on the board no player leads as his nation (`non_player_forces`: Central America's
    Conquistadors): what it replaces, the advancements it holds, how it comes into play, its rules."""

    id: str | None
    name: str | None
    #: What it replaces in the base game, as written (`barbarians`, `pirates`).
    replaces: tuple[str, ...]
    advancements: tuple[ForceAdvancement, ...]
    activation: SpecialRule | None
    calamity_card: ForceCard | None
    rules: tuple[SpecialRule, ...]
    #: Its own citation: `rule:` and `source:`.
    cited: tuple[str, ...] = ()
    source: str | None = None


@frozen_value
class Configuration:
    """One set-up of a player count (`configurations`, at ``index``): its nations and map in play."""

    index: int
    id: str | None
    #: The nations offered, None where the entry lists none.
    nations: tuple[str, ...] | None
    #: Whether the configuration writes a `map` mapping.
    has_map: bool = False
    #: `map.areas_in_play`: the areas listed, Unknown, or None where not written.
    areas_in_play: tuple[str, ...] | Unknown | None = None
    #: `map.boundary` as written.
    boundary: str | None = None
    name: str | None = None
    #: `map.panels`, `map.western_extension`, `map.open_sea_on_boundary_usable` and `map.text` as written
    #: (panels None where unknown or not written).
    panels: str | None = None
    western_extension: str | None = None
    open_sea_on_boundary_usable: bool | None = None
    map_text: str | None = None
    #: The tokens an island city costs, and whether city sites on islands are ignored (16.8).
    island_city_cost_tokens: int | None = None
    island_city_sites_ignored: bool | None = None
    trade_decks: tuple[TradeDeckSetup, ...] = ()


@frozen_value
class PlayerCount(Entity):
    """The rules for one number of players (``id`` is the count as text)."""

    players: int
    given: bool
    nations: tuple[tuple[str, ...], ...]
    configurations: tuple[Configuration, ...] = ()
    tokens_per_player: int | Unknown | None = None
    special_rules: tuple[SpecialRule, ...] = ()
    #: `configurations: {unknown: why}`: which nations and map the count plays is not in the sources.
    configurations_unknown: Unknown | None = None


# --- Map ---------------------------------------------------------------------------------------


@frozen_value
class Coast:
    """One coast of a two-coast area: the areas it touches (None where not written as a list)."""

    index: int
    touches: tuple[str, ...] | None


@frozen_value
class Area(Entity):
    land: bool
    water: bool
    open_sea: bool
    coastal: bool | None
    population_limit: int | Unknown | None
    city_site: str | None
    flood_plain: str | None
    panel: str | None
    #: The nation whose start area this is (`start_nation`); None where not written.
    start_nation: str | None = None
    #: The coasts of a two-coast area (23.57): each the areas it touches; None where not written.
    coasts: tuple[Coast, ...] | None = None


@frozen_value
class Border(Entity):
    """A border between two areas (``id`` is ``a|b``); ``kind`` is land, sea or both."""

    a: str
    b: str
    kind: str


@frozen_value
class Region(Entity):
    """A named set of areas: a flood plain, or the areas a volcano touches."""

    areas: tuple[str, ...]
    #: The areas its declaring entry lists (a flood plain's continuing entries add to ``areas``).
    listed: tuple[str, ...] = ()


@frozen_value
class FloodPlainEntry:
    """An entry of a map file's `flood_plains` as written (declaring or continuing a flood plain)."""

    id: str
    areas: tuple[str, ...]
    continues_from: str | None
    origin: Origin


@frozen_value
class ExcludedBorder:
    """An entry of a map file's `excluded_borders`: two areas the sources say share no border."""

    areas: tuple[str, ...]
    origin: Origin


@frozen_value
class MapFile:
    """One map file of the ruleset as written: what it says of itself, and its file-level lists.

    ``origin`` is the file's root, for spans of its top-level keys.
    """

    id: str | None
    #: The board panels the file declares (`panel`: one or a list).
    panels: tuple[str, ...]
    #: `two_coast_areas`: the areas listed, Unknown, or None where not written.
    two_coast_areas: tuple[str, ...] | Unknown | None
    flood_plains: tuple[FloodPlainEntry, ...]
    excluded_borders: tuple[ExcludedBorder, ...]
    origin: Origin


# --- Settings (ruleset-level facts), each with the origin of its mapping ----------------------


#: The calamity kinds a stack's `calamity_cards` counts.
CALAMITY_KINDS = ("non_tradable", "tradable", "minor")


@frozen_value
class TradeStack:
    """One numbered trade card stack as the commodities file declares it."""

    number: int
    calamities: bool
    #: Declared calamity cards by kind (`non_tradable`, `tradable`, `minor`); None if not declared.
    calamity_cards: Mapping[str, int] | None
    origin: Origin
    purchases: tuple[Purchase, ...] = ()


@frozen_value
class Purchase:
    """A price at which cards of a stack may be bought (`purchases`), and the card it needs."""

    price: int | Unknown | None
    requires_card: str | None
    rules: tuple[str, ...]
    #: `source:` (a house rule's, where a variant wrote it); None where it writes none.
    source: str | None = None


@frozen_value
class SetupStep:
    """A step of the trade stacks' set-up (`trade_stacks.setup.steps`, at ``index``)."""

    index: int
    step: Any
    #: The stacks it deals from (`stacks: {from, to}`) where both are numbers.
    stacks: tuple[int, int] | None
    count_per_stack: Any
    text: str | None = None
    rules: tuple[str, ...] = ()


@frozen_value
class TradeStacks:
    """`trade_stacks`: how many stacks, the stacks declared, whether numbered by value, the set-up."""

    origin: Origin
    count: Any
    numbered_by_value: bool
    stacks: tuple[TradeStack, ...]
    setup: tuple[SetupStep, ...]


@frozen_value
class TotalCards:
    """`total_cards`: the rulebook's count of commodity cards."""

    origin: Origin
    count: Any


@frozen_value
class SetValueExample:
    """A worked example of the set value rule (`set_value.examples`, at ``index``)."""

    index: int
    commodity: str
    cards: Any
    set_value: Any


@frozen_value
class SetValueSetting:
    """`set_value`: the formula, the largest set, worked examples (as written)."""

    origin: Origin
    #: Whether it is written as a mapping (an `{unknown: why}` is one too).
    mapping: bool
    #: Whether the sources do not say how a set is valued (`{unknown: why}`).
    unknown: bool
    formula_written: bool
    formula: Any
    max_set_size: Any
    examples: tuple[SetValueExample, ...]
    rules: tuple[str, ...] = ()
    #: The data's why, where the sources do not say how a set is valued; None otherwise.
    unknown_reason: str | None = None


@frozen_value
class MiningSetting:
    """`mining`: whether it declares Mining's set bonus (`set_bonus`), and the cards it adds."""

    origin: Origin
    set_bonus: bool
    extra_cards: int = 0
    #: The card that gives the bonus (`card`, Mining when not written); None where `mining` is
    #: not written as a mapping.
    card: str | None = None


@frozen_value
class AstSetting:
    """`ast`: the A.S.T.'s declared layout, its levels, and which of its keys are written."""

    origin: Origin
    written: frozenset[str]
    spaces_per_track: Any = None
    start_space: Any = None
    finish_space: Any = None
    points_per_space: Any = None
    #: The card value the finish box needs: a number, Unknown, or None where not written.
    finish_space_min_card_value: Any = None
    levels: tuple[str, ...] = ()
    #: Why the tracks are not listed, where the data marks them `{unknown: why}`.
    tracks_unknown: str | None = None
    #: Each level's name as the source prints it (``basic`` → ``Basic``), where written.
    level_names: tuple[tuple[str, str], ...] = ()
    #: The A.S.T. in words, for the sheet (its own `text`, then `epoch_entry`, `frozen`,
    #: `regression`, `order`, in that order, where they have a text): each text, its `rule:` as
    #: written, its `source:` (a house rule's, where a variant wrote it) and its key (`frozen` ...;
    #: `text` for its own).
    notes: tuple[tuple[str, Any, str | None, str], ...] = ()


@frozen_value
class BlockBonusBand:
    """An entry of `non_native_block_bonus`: a band of player counts and how shared goods fare."""

    players_min: int
    players_max: int
    #: `shared_goods` as written (`bonus`: shared goods gain it too).
    shared_goods: str | None
    #: The sections the band cites (`rule`).
    rules: tuple[str, ...] = ()
    #: `may_exceed_printed_maximum` as written (True: a set's value with the bonus may pass the
    #: highest set value printed for its good); None where not written.
    may_exceed_printed_maximum: bool | None = None
    #: `source:` (a house rule's, where a variant wrote it); None where it writes none.
    source: str | None = None


@frozen_value
class DeckGood:
    """A good of a trade deck (`deck_compositions[].decks[].commodities`): a count, or a share."""

    commodity: str
    count: int | Unknown | None
    #: `share` as written (`all`, `half`); None where a count is given instead.
    share: str | None


@frozen_value
class DeckSpec:
    """A trade deck of a deck composition as written."""

    block: str | None
    goods: tuple[DeckGood, ...]
    calamity_sets: int | Unknown | None
    #: The severities of its calamities: listed, Unknown, or None where not written.
    calamity_severities: tuple[str, ...] | Unknown | None


@frozen_value
class DeckComposition:
    """An entry of `deck_compositions`: the decks for a band of player counts (and a map region)."""

    players_min: int | None
    players_max: int | None
    region: str | None
    decks: tuple[DeckSpec, ...]
    rules: tuple[str, ...]
    #: `source:` (a house rule's, where a variant wrote it); None where it writes none.
    source: str | None = None


@frozen_value
class CardChange:
    """A card that changes the hand limit (`hand_limit.card_changes`) by ``change`` cards."""

    card: str | None
    change: int | None


@frozen_value
class HandLimitBand:
    """`hand_limit.by_players[]`: the commodity cards kept in a game of ``players_min`` to
    ``players_max`` players; ``rules`` its own citation (the section's where it has none)."""

    players_min: int | None
    players_max: int | None
    commodity_cards: int | None
    rules: tuple[str, ...]
    source: str | None = None


@frozen_value
class HandLimit:
    """`hand_limit`: the commodity cards a player may keep (one number, or ``by_players`` where the
    limit depends on the player count), and the cards that change it."""

    origin: Origin
    commodity_cards: int | Unknown | None
    card_changes: tuple[CardChange, ...]
    cumulative: bool
    count_public: bool
    #: `tradable_calamities_retained` as written; None where not written.
    tradable_calamities_retained: bool | None
    rules: tuple[str, ...]
    #: `source:` (a house rule's, where a variant changes the setting and cites it); None where none.
    source: str | None = None
    #: `by_players`: the limit per band of player counts, in the order written; () where one number.
    by_players: tuple[HandLimitBand, ...] = ()
    #: `text`: the rule in words; None where not written.
    text: str | None = None


@frozen_value
class RateChange:
    """A card that raises or lowers the tax rate (`taxation.rate_changes`)."""

    card: str | None
    raise_by: int | None
    lower_by: int | None


@frozen_value
class Taxation:
    """`taxation`: tokens per city, the cards that change the rate, revolts."""

    origin: Origin
    tokens_per_city: int | Unknown | None
    rate_changes: tuple[RateChange, ...]
    #: The card with a table of rates (`rate_card.card`) and its rates; None where not written.
    rate_card: str | None
    rates: tuple[Any, ...] | None
    #: `rate_changes_combination.cumulative: true`.
    cumulative: bool
    #: Whether it writes `revolt`, and the card that prevents revolts (`revolt.immune_card`).
    revolt: bool
    revolt_immune_card: str | None
    rules: tuple[str, ...]
    #: `source:` (a house rule's, where a variant changes the setting and cites it); None where none.
    source: str | None = None
    #: The revolt in words (`revolt.text`), who takes the revolting cities (`revolt.beneficiary`: a
    #: value of the schema, or unknown), and the revolt's own citation; None and () where not written.
    revolt_text: str | None = None
    revolt_beneficiary: str | Unknown | None = None
    revolt_rules: tuple[str, ...] = ()
    revolt_source: str | None = None
    #: How the cards' changes of the rate combine, in words (`rate_changes_combination.text`), and its
    #: citation; None and () where not written.
    combination_text: str | None = None
    combination_rules: tuple[str, ...] = ()
    combination_source: str | None = None


@frozen_value
class ScoringItem:
    """An item of the final score (`victory.scoring`)."""

    id: str
    name: str | None
    per: str | None
    points: int | None
    text: str | None
    rules: tuple[str, ...]
    source: str | None = None


@frozen_value
class Victory:
    """`victory`: when the game ends, whether the final turn is played out, who wins and what a tie is
    (the final score is :attr:`Ruleset.scoring`)."""

    origin: Origin
    end_conditions: tuple[SpecialRule, ...]
    #: `complete_final_turn`, `highest_wins` and `tie` (`tie`, `wealth`) as written; None where not written.
    complete_final_turn: bool | None
    highest_wins: bool | None
    tie: str | None


@frozen_value
class GeneralRule:
    """A rule of the whole turn (`sequence_of_play.general_rules`), with its text."""

    text: str
    rules: tuple[str, ...]
    #: `source:` (a house rule's, where a variant wrote it); None where it writes none.
    source: str | None = None
    #: Its `id` (what names it in a variant's changes); None where it has none.
    id: str | None = None


@frozen_value
class Components:
    """`components`: the playing pieces (a nation's city pieces, `cities_per_set`)."""

    origin: Origin
    cities_per_set: Any
    #: Each nation's set of pieces, by kind (`tokens`, `cities`, `ships`, `census_markers`,
    #: `succession_markers`: the `*_per_set` fields), in that order, where written.
    per_set: tuple[tuple[str, Any], ...] = ()
    #: `nation_sets`: how many sets of pieces the game has, one per nation; None where not written.
    nation_sets: Any = None


@frozen_value(kw_only=True)
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
    #: The ruleset's map files, in the order it reads them.
    map_files: tuple[MapFile, ...] = ()
    #: The settings its checks and rule logic read, typed; None where no file of the chain has one.
    trade_stacks: TradeStacks | None = None
    total_cards: TotalCards | None = None
    set_value: SetValueSetting | None = None
    mining: MiningSetting | None = None
    ast: AstSetting | None = None
    components: Components | None = None
    #: `status` of the manifest (`draft`: facts a game needs are missing).
    status: str | None = None
    hand_limit: HandLimit | None = None
    taxation: Taxation | None = None
    victory: Victory | None = None
    #: `victory.scoring`; None where the scoring is not written as a list.
    scoring: tuple[ScoringItem, ...] | None = None
    general_rules: tuple[GeneralRule, ...] = ()
    #: `player_counts.general_rules`: the rules of every player count (Advanced Civilization 16.11-16.12).
    player_count_rules: tuple[GeneralRule, ...] = ()
    #: `special_rules`: the ruleset's rules no other section holds (a variant's own rules).
    special_rules: tuple[SpecialRule, ...] = ()
    #: `non_player_forces`: the forces no player leads (Central America's Conquistadors).
    non_player_forces: tuple[NonPlayerForce, ...] = ()
    #: Why each missing setting is not in the sources (`not_in_sources`, key: reason).
    not_in_sources: Mapping[str, str] = field(default_factory=dict)
    block_bonuses: tuple[BlockBonusBand, ...] = ()
    deck_compositions: tuple[DeckComposition, ...] = ()
    #: `options`: what a game is created with on the online site; not among :meth:`collections`
    #: (no check or package reads them: the sheets print them).
    options: Collection[GameOption] = field(default_factory=lambda: Collection.of("options", ()))

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
