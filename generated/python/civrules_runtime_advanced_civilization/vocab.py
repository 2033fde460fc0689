"""The vocabularies every ruleset package shares, as string enums (no dataclasses: cheap to import)."""

from enum import StrEnum
from typing import Literal, TypeAlias

TYPE_CHECKING = False

# --- Vocabularies shared by every ruleset -------------------------------------------------------


class GroupId(StrEnum):
    """The five civilization-card groups (the same ids in every ruleset)."""

    CRAFTS = "crafts"
    SCIENCES = "sciences"
    ARTS = "arts"
    CIVICS = "civics"
    RELIGION = "religion"


class BorderKind(StrEnum):
    """How two areas meet: across land, across water, or both."""

    LAND = "land"
    SEA = "sea"
    BOTH = "both"


class Adjacency(StrEnum):
    """Which neighbours to list: across land (land or both), across water (sea or both), or all."""

    LAND = "land"
    SEA = "sea"
    ALL = "all"


class Role(StrEnum):
    """A victim's part in a calamity."""

    PRIMARY = "primary"
    SECONDARY = "secondary"


class AppliesTo(StrEnum):
    """Which victims a card's calamity modifier applies to."""

    PRIMARY = "primary"
    SECONDARY = "secondary"
    BOTH = "both"


class ModifierEffect(StrEnum):
    """What a card's modifier does to a calamity effect."""

    REDUCES = "reduces"
    AGGRAVATES = "aggravates"
    NULLIFIES = "nullifies"
    ALTERS = "alters"
    IMMUNITY = "immunity"


class LinkEffect(StrEnum):
    """What a card attribute says it does to a calamity."""

    REDUCES = "reduces"
    AGGRAVATES = "aggravates"
    NULLIFIES = "nullifies"
    ALTERS = "alters"


class CombinationMode(StrEnum):
    """How modifiers of different cards combine: all add up, or only the highest card counts."""

    CUMULATIVE = "cumulative"
    HIGHEST = "highest"


class Severity(StrEnum):
    """Calamity severity (Expansion Project, Mega Civilization)."""

    MINOR = "minor"
    MAJOR = "major"


class Block(StrEnum):
    """A trade block: a good's native block, or the block of a deck."""

    WEST = "west"
    EAST = "east"
    SHARED = "shared"
    SINGLE = "single"


class MapRegion(StrEnum):
    """A half of a map split in two (West and East), for nations and trade decks; the whole map."""

    WEST = "west"
    EAST = "east"
    WHOLE = "whole"


class CalamityKind(StrEnum):
    """What a calamity effect does (schemas/calamities.schema.json effect_kind)."""

    LOSE_UNIT_POINTS = "lose_unit_points"
    REDUCE_CITIES = "reduce_cities"
    DESTROY_CITIES = "destroy_cities"
    ELIMINATE_UNITS_IN_AREA = "eliminate_units_in_area"
    CITIES_REPLACED_BY_TRADER = "cities_replaced_by_trader"
    CITIES_REPLACED_BY_PIRATES = "cities_replaced_by_pirates"
    TOKENS_CANNOT_SUPPORT_CITIES = "tokens_cannot_support_cities"
    FACTION_SPLIT = "faction_split"
    FACTION_ANNEXED = "faction_annexed"
    BARBARIAN_INVASION = "barbarian_invasion"
    FLOOD_PLAIN_LOSS = "flood_plain_loss"
    LOSE_TREASURY = "lose_treasury"
    LOSE_SHIPS = "lose_ships"
    DISCARD_COMMODITY_POINTS = "discard_commodity_points"
    SURRENDER_COMMODITY_POINTS = "surrender_commodity_points"
    AST_REGRESSION = "ast_regression"
    ANNEX_UNIT_POINTS = "annex_unit_points"
    DEPOPULATE_AREAS = "depopulate_areas"
    LOSE_TREASURY_OR_TOKENS = "lose_treasury_or_tokens"
    RAISE_CITY_SUPPORT_RATE = "raise_city_support_rate"


class CalamityUnit(StrEnum):
    """What a calamity effect's amount counts (schemas/calamities.schema.json unit)."""

    UNIT_POINTS = "unit_points"
    CITIES = "cities"
    TOKENS = "tokens"
    TREASURY_TOKENS = "treasury_tokens"
    SHIPS = "ships"
    COMMODITY_POINTS = "commodity_points"
    AST_SPACES = "ast_spaces"
    AREAS = "areas"
    COMMODITY_CARDS = "commodity_cards"


class EffectKind(StrEnum):
    """The kinds of structured card-attribute effects (schemas/civilization-cards.schema.json)."""

    IMMUNITY = "immunity"
    MOVEMENT = "movement"
    POPULATION_LIMIT = "population_limit"
    CITY_BUILD = "city_build"
    CITY_SUPPORT = "city_support"
    CONFLICT = "conflict"
    TURN_ORDER = "turn_order"
    TAX = "tax"
    TREASURY = "treasury"
    COMMODITY_EXCHANGE = "commodity_exchange"
    TRADE_CARD_PURCHASE = "trade_card_purchase"
    HAND_LIMIT = "hand_limit"
    COMMODITY_VALUE = "commodity_value"
    SPECIAL_ABILITY = "special_ability"
    CREDIT_TOKENS = "credit_tokens"
    VICTORY_POINTS = "victory_points"


class ImmunityAgainst(StrEnum):
    """What an immunity protects the holder from: tax_revolt (his cities never revolt over taxes), attack
    (players holding none of ``unless_holding`` may not attack his ``targets``), card_ability (the ability of
    the card ``card`` does not affect him)."""

    TAX_REVOLT = "tax_revolt"
    ATTACK = "attack"
    CARD_ABILITY = "card_ability"


class Targets(StrEnum):
    """For an immunity against attack, what may not be attacked: units (tokens and cities) or cities only."""

    UNITS = "units"
    CITIES = "cities"


class MovementUnits(StrEnum):
    """Which units a movement effect changes: ships, or tokens (land movement)."""

    SHIPS = "ships"
    TOKENS = "tokens"


class PopulationWhere(StrEnum):
    """Which areas a population limit effect changes: sole_occupant (areas holding units of the holder only, not
    during conflicts) or city_area (an area with one of the holder's cities, which may then also hold that
    many of his tokens)."""

    SOLE_OCCUPANT = "sole_occupant"
    CITY_AREA = "city_area"


class TreasuryShare(StrEnum):
    """The part of a city treasury tokens may pay: up_to_half (at least half, rounded up, must be tokens on the
    board)."""

    UP_TO_HALF = "up_to_half"


class ConflictAspect(StrEnum):
    """The part of a conflict an effect changes: the removal order, casualties from adjacent areas, ships as
    casualties, the attack on a city, a city's defence."""

    REMOVAL_ORDER = "removal_order"
    CASUALTIES_FROM_ADJACENT = "casualties_from_adjacent"
    SHIPS_AS_CASUALTIES = "ships_as_casualties"
    CITY_ATTACK = "city_attack"
    CITY_DEFENCE = "city_defence"


class Activity(StrEnum):
    """An activity of a turn in which a turn order effect makes the holder act later: movement, ship building,
    ship maintenance."""

    MOVEMENT = "movement"
    SHIP_BUILDING = "ship_building"
    SHIP_MAINTENANCE = "ship_maintenance"


class TurnPosition(StrEnum):
    """Where a turn order effect puts the holder: after_non_holders (after every player without the card; among
    holders the normal census order applies)."""

    AFTER_NON_HOLDERS = "after_non_holders"


class Goods(StrEnum):
    """Which goods a commodity value effect counts: mining (the goods marked ``mining`` in the commodities file)."""

    MINING = "mining"


class AbilityAction(StrEnum):
    """The action of a special ability: migrate, destroy, convert, annex, take or ask for a commodity, convert
    barbarians (civilization-cards.schema.json, effect_special_ability's ``action``)."""

    MIGRATE = "migrate"
    DESTROY = "destroy"
    CONVERT = "convert"
    ANNEX = "annex"
    TAKE_COMMODITY = "take_commodity"
    ASK_COMMODITY = "ask_commodity"
    CONVERT_BARBARIANS = "convert_barbarians"


class AbilityPhase(StrEnum):
    """When a special ability is used: special_abilities (its own phase) or end_of_calamities (end of the
    calamity phase, before city support)."""

    SPECIAL_ABILITIES = "special_abilities"
    END_OF_CALAMITIES = "end_of_calamities"


class TokenColours(StrEnum):
    """Which credit tokens are gained: any_combination (tokens of any colours, in any mix) or one_colour (all of
    one colour of the holder's choice)."""

    ANY_COMBINATION = "any_combination"
    ONE_COLOUR = "one_colour"


class PurchaseKind(StrEnum):
    """What a card's purchase effect gives: acquire_advancements (further cards, acquired at once), discount
    (another card bought in the same purchase costs less), credit_tokens."""

    ACQUIRE_ADVANCEMENTS = "acquire_advancements"
    DISCOUNT = "discount"
    CREDIT_TOKENS = "credit_tokens"


# Each vocabulary as a parameter type: the enum, or its values written as strings (checked
# statically by a type checker, and at run time by the helpers).
AdjacencyName: TypeAlias = Adjacency | Literal["land", "sea", "all"]
RoleName: TypeAlias = Role | Literal["primary", "secondary"]
BlockName: TypeAlias = Block | Literal["west", "east", "shared", "single"]
MapRegionName: TypeAlias = MapRegion | Literal["west", "east", "whole"]
EffectKindName: TypeAlias = (
    EffectKind
    | Literal[
        "immunity",
        "movement",
        "population_limit",
        "city_build",
        "city_support",
        "conflict",
        "turn_order",
        "tax",
        "treasury",
        "commodity_exchange",
        "trade_card_purchase",
        "hand_limit",
        "commodity_value",
        "special_ability",
        "credit_tokens",
        "victory_points",
    ]
)


#: The names a released version of this module had and this one lacks (the ledger of released names,
#: compiler/tools/runtime_names.json): a pickle of that version that names one is told which this is.
_RETIRED: frozenset[str] = frozenset()
if not TYPE_CHECKING:  # a name this module lacks stays a type error

    def __getattr__(name: str) -> object:
        # A pickle names an enum by its module and name: one this version lacks is said so.
        from civrules_runtime.errors import absent

        raise absent(__name__, name, _RETIRED)
