"""The vocabularies every ruleset package shares, as string enums (no dataclasses: cheap to import)."""

from enum import StrEnum
from typing import Literal, TypeAlias

from civrules_runtime.errors import IdEnumType, absent_id

TYPE_CHECKING = False

# --- Vocabularies shared by every ruleset -------------------------------------------------------


class GroupId(StrEnum, metaclass=IdEnumType):
    """The five civilization-card groups (the same ids in every ruleset)."""

    _missing_ = classmethod(absent_id)  # a value it lacks: UnknownIdError, naming the closest

    CRAFTS = "crafts"
    SCIENCES = "sciences"
    ARTS = "arts"
    CIVICS = "civics"
    RELIGION = "religion"


class BorderKind(StrEnum, metaclass=IdEnumType):
    """How two areas meet: across land, across water, or both."""

    _missing_ = classmethod(absent_id)  # a value it lacks: UnknownIdError, naming the closest

    LAND = "land"
    SEA = "sea"
    BOTH = "both"


class Adjacency(StrEnum, metaclass=IdEnumType):
    """Which neighbours to list: across land (land or both), across water (sea or both), or all."""

    _missing_ = classmethod(absent_id)  # a value it lacks: UnknownIdError, naming the closest

    LAND = "land"
    SEA = "sea"
    ALL = "all"


class Role(StrEnum, metaclass=IdEnumType):
    """A victim's part in a calamity."""

    _missing_ = classmethod(absent_id)  # a value it lacks: UnknownIdError, naming the closest

    PRIMARY = "primary"
    SECONDARY = "secondary"


class AppliesTo(StrEnum, metaclass=IdEnumType):
    """Which victims a card's calamity modifier applies to."""

    _missing_ = classmethod(absent_id)  # a value it lacks: UnknownIdError, naming the closest

    PRIMARY = "primary"
    SECONDARY = "secondary"
    BOTH = "both"


class ModifierEffect(StrEnum, metaclass=IdEnumType):
    """What a card's modifier does to a calamity effect."""

    _missing_ = classmethod(absent_id)  # a value it lacks: UnknownIdError, naming the closest

    REDUCES = "reduces"
    AGGRAVATES = "aggravates"
    NULLIFIES = "nullifies"
    ALTERS = "alters"
    IMMUNITY = "immunity"


class LinkEffect(StrEnum, metaclass=IdEnumType):
    """What a card attribute says it does to a calamity."""

    _missing_ = classmethod(absent_id)  # a value it lacks: UnknownIdError, naming the closest

    REDUCES = "reduces"
    AGGRAVATES = "aggravates"
    NULLIFIES = "nullifies"
    ALTERS = "alters"


class CombinationMode(StrEnum, metaclass=IdEnumType):
    """How modifiers of different cards combine: all add up, or only the highest card counts."""

    _missing_ = classmethod(absent_id)  # a value it lacks: UnknownIdError, naming the closest

    CUMULATIVE = "cumulative"
    HIGHEST = "highest"


class Severity(StrEnum, metaclass=IdEnumType):
    """Calamity severity (Expansion Project, Mega Civilization)."""

    _missing_ = classmethod(absent_id)  # a value it lacks: UnknownIdError, naming the closest

    MINOR = "minor"
    MAJOR = "major"


class Block(StrEnum, metaclass=IdEnumType):
    """A trade block: a good's native block, or the block of a deck."""

    _missing_ = classmethod(absent_id)  # a value it lacks: UnknownIdError, naming the closest

    WEST = "west"
    EAST = "east"
    SHARED = "shared"
    SINGLE = "single"


class MapRegion(StrEnum, metaclass=IdEnumType):
    """A half of a map split in two (West and East), for nations and trade decks; the whole map."""

    _missing_ = classmethod(absent_id)  # a value it lacks: UnknownIdError, naming the closest

    WEST = "west"
    EAST = "east"
    WHOLE = "whole"


class CalamityKind(StrEnum, metaclass=IdEnumType):
    """What a calamity effect does (schemas/calamities.schema.json effect_kind)."""

    _missing_ = classmethod(absent_id)  # a value it lacks: UnknownIdError, naming the closest

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


class CalamityUnit(StrEnum, metaclass=IdEnumType):
    """What a calamity effect's amount counts (schemas/calamities.schema.json unit)."""

    _missing_ = classmethod(absent_id)  # a value it lacks: UnknownIdError, naming the closest

    UNIT_POINTS = "unit_points"
    CITIES = "cities"
    TOKENS = "tokens"
    TREASURY_TOKENS = "treasury_tokens"
    SHIPS = "ships"
    COMMODITY_POINTS = "commodity_points"
    AST_SPACES = "ast_spaces"
    AREAS = "areas"
    COMMODITY_CARDS = "commodity_cards"


class EffectKind(StrEnum, metaclass=IdEnumType):
    """The kinds of structured card-attribute effects (schemas/civilization-cards.schema.json)."""

    _missing_ = classmethod(absent_id)  # a value it lacks: UnknownIdError, naming the closest

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


class ImmunityAgainst(StrEnum, metaclass=IdEnumType):
    """What an immunity protects the holder from: tax_revolt (his cities never revolt over taxes), attack
    (players holding none of ``unless_holding`` may not attack his ``targets``), card_ability (the ability of
    the card ``card`` does not affect him)."""

    _missing_ = classmethod(absent_id)  # a value it lacks: UnknownIdError, naming the closest

    TAX_REVOLT = "tax_revolt"
    ATTACK = "attack"
    CARD_ABILITY = "card_ability"


class Targets(StrEnum, metaclass=IdEnumType):
    """For an immunity against attack, what may not be attacked: units (tokens and cities) or cities only."""

    _missing_ = classmethod(absent_id)  # a value it lacks: UnknownIdError, naming the closest

    UNITS = "units"
    CITIES = "cities"


class MovementUnits(StrEnum, metaclass=IdEnumType):
    """Which units a movement effect changes: ships, or tokens (land movement)."""

    _missing_ = classmethod(absent_id)  # a value it lacks: UnknownIdError, naming the closest

    SHIPS = "ships"
    TOKENS = "tokens"


class PopulationWhere(StrEnum, metaclass=IdEnumType):
    """Which areas a population limit effect changes: sole_occupant (areas holding units of the holder only, not
    during conflicts) or city_area (an area with one of the holder's cities, which may then also hold that
    many of his tokens)."""

    _missing_ = classmethod(absent_id)  # a value it lacks: UnknownIdError, naming the closest

    SOLE_OCCUPANT = "sole_occupant"
    CITY_AREA = "city_area"


class TreasuryShare(StrEnum, metaclass=IdEnumType):
    """The part of a city treasury tokens may pay: up_to_half (at least half, rounded up, must be tokens on the
    board)."""

    _missing_ = classmethod(absent_id)  # a value it lacks: UnknownIdError, naming the closest

    UP_TO_HALF = "up_to_half"


class ConflictAspect(StrEnum, metaclass=IdEnumType):
    """The part of a conflict an effect changes: the removal order, casualties from adjacent areas, ships as
    casualties, the attack on a city, a city's defence."""

    _missing_ = classmethod(absent_id)  # a value it lacks: UnknownIdError, naming the closest

    REMOVAL_ORDER = "removal_order"
    CASUALTIES_FROM_ADJACENT = "casualties_from_adjacent"
    SHIPS_AS_CASUALTIES = "ships_as_casualties"
    CITY_ATTACK = "city_attack"
    CITY_DEFENCE = "city_defence"


class Activity(StrEnum, metaclass=IdEnumType):
    """An activity of a turn in which a turn order effect makes the holder act later: movement, ship building,
    ship maintenance."""

    _missing_ = classmethod(absent_id)  # a value it lacks: UnknownIdError, naming the closest

    MOVEMENT = "movement"
    SHIP_BUILDING = "ship_building"
    SHIP_MAINTENANCE = "ship_maintenance"


class TurnPosition(StrEnum, metaclass=IdEnumType):
    """Where a turn order effect puts the holder: after_non_holders (after every player without the card; among
    holders the normal census order applies)."""

    _missing_ = classmethod(absent_id)  # a value it lacks: UnknownIdError, naming the closest

    AFTER_NON_HOLDERS = "after_non_holders"


class Goods(StrEnum, metaclass=IdEnumType):
    """Which goods a commodity value effect counts: mining (the goods marked ``mining`` in the commodities file)."""

    _missing_ = classmethod(absent_id)  # a value it lacks: UnknownIdError, naming the closest

    MINING = "mining"


class AbilityAction(StrEnum, metaclass=IdEnumType):
    """The action of a special ability: migrate, destroy, convert, annex, take or ask for a commodity, convert
    barbarians (civilization-cards.schema.json, effect_special_ability's ``action``)."""

    _missing_ = classmethod(absent_id)  # a value it lacks: UnknownIdError, naming the closest

    MIGRATE = "migrate"
    DESTROY = "destroy"
    CONVERT = "convert"
    ANNEX = "annex"
    TAKE_COMMODITY = "take_commodity"
    ASK_COMMODITY = "ask_commodity"
    CONVERT_BARBARIANS = "convert_barbarians"


class AbilityPhase(StrEnum, metaclass=IdEnumType):
    """When a special ability is used: special_abilities (its own phase) or end_of_calamities (end of the
    calamity phase, before city support)."""

    _missing_ = classmethod(absent_id)  # a value it lacks: UnknownIdError, naming the closest

    SPECIAL_ABILITIES = "special_abilities"
    END_OF_CALAMITIES = "end_of_calamities"


class TokenColours(StrEnum, metaclass=IdEnumType):
    """Which credit tokens are gained: any_combination (tokens of any colours, in any mix) or one_colour (all of
    one colour of the holder's choice)."""

    _missing_ = classmethod(absent_id)  # a value it lacks: UnknownIdError, naming the closest

    ANY_COMBINATION = "any_combination"
    ONE_COLOUR = "one_colour"


class PurchaseKind(StrEnum, metaclass=IdEnumType):
    """What a card's purchase effect gives: acquire_advancements (further cards, acquired at once), discount
    (another card bought in the same purchase costs less), credit_tokens."""

    _missing_ = classmethod(absent_id)  # a value it lacks: UnknownIdError, naming the closest

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
