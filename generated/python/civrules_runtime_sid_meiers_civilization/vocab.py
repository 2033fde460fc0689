"""The vocabularies every ruleset package of the Sid Meier's Civilization family shares, as string
enums (the values the family's schemas allow; no records: cheap to import)."""

from enum import StrEnum
from typing import Literal, TypeAlias

from civrules_runtime.errors import IdEnumType, absent_id

TYPE_CHECKING = False


class VictoryKind(StrEnum, metaclass=IdEnumType):
    """The four ways to win (p2, p13-14)."""

    _missing_ = classmethod(absent_id)  # a value it lacks: UnknownIdError, naming the closest

    CULTURE = "culture"
    TECHNOLOGY = "technology"
    ECONOMY = "economy"
    MILITARY = "military"


class VictoryEnds(StrEnum, metaclass=IdEnumType):
    """When a victory ends the game."""

    _missing_ = classmethod(absent_id)  # a value it lacks: UnknownIdError, naming the closest

    IMMEDIATELY = "immediately"
    END_OF_TURN = "end_of_turn"


class BonusPer(StrEnum, metaclass=IdEnumType):
    """What a combat bonus counts: each building of a kind, or each great person (a General)."""

    _missing_ = classmethod(absent_id)  # a value it lacks: UnknownIdError, naming the closest

    BUILDING = "building"
    GREAT_PERSON = "great_person"


class CombatSituation(StrEnum, metaclass=IdEnumType):
    """The situations that give a combat bonus (p15)."""

    _missing_ = classmethod(absent_id)  # a value it lacks: UnknownIdError, naming the closest

    DEFENDING_CITY = "defending_city"
    DEFENDING_CAPITAL = "defending_capital"
    DEFENDING_WALLS = "defending_walls"


class EffectKind(StrEnum, metaclass=IdEnumType):
    """What an ability of a technology card does, by kind."""

    _missing_ = classmethod(absent_id)  # a value it lacks: UnknownIdError, naming the closest

    CITY_LIMIT = "city_limit"
    STACKING_LIMIT = "stacking_limit"
    TRAVEL_SPEED = "travel_speed"
    CULTURE_HAND = "culture_hand"
    CROSS_WATER = "cross_water"
    END_ON_WATER = "end_on_water"
    BUILD_ON_WATER = "build_on_water"
    COINS = "coins"
    TRADE = "trade"
    SPLIT_PRODUCTION = "split_production"
    RESOURCE_ABILITY = "resource_ability"
    CULTURE_BUILDING = "culture_building"
    UNIT_UPGRADE = "unit_upgrade"
    OBSOLETE_WONDER = "obsolete_wonder"
    VICTORY = "victory"


class Activity(StrEnum, metaclass=IdEnumType):
    """What a phase of the turn allows."""

    _missing_ = classmethod(absent_id)  # a value it lacks: UnknownIdError, naming the closest

    BUILD_CITY = "build_city"
    CHANGE_GOVERNMENT = "change_government"
    PLACE_GREAT_PERSON = "place_great_person"
    DECLARE_SCOUT_GATHERING = "declare_scout_gathering"
    COLLECT_TRADE = "collect_trade"
    NEGOTIATE = "negotiate"
    TRADE = "trade"
    CITY_ACTION = "city_action"
    SPEND_CULTURE = "spend_culture"
    RUSH_PRODUCTION = "rush_production"
    MOVE_FIGURES = "move_figures"
    EXPLORE_TILE = "explore_tile"
    EXPLORE_HUT_OR_VILLAGE = "explore_hut_or_village"
    BATTLE = "battle"
    RESEARCH_TECHNOLOGY = "research_technology"


#: A defending situation as the enum or its value: what the combat helpers accept.
DefenceName: TypeAlias = (
    Literal[CombatSituation.DEFENDING_CITY, CombatSituation.DEFENDING_CAPITAL]
    | Literal["defending_city", "defending_capital"]
)


#: The names a released version of this module had and this one lacks (the ledger of released names,
#: compiler/tools/runtime_names.json): a pickle of that version that names one is told which this is.
_RETIRED: frozenset[str] = frozenset()
if not TYPE_CHECKING:  # a name this module lacks stays a type error

    def __getattr__(name: str) -> object:
        # A pickle names an enum by its module and name: one this version lacks is said so.
        from civrules_runtime.errors import absent

        raise absent(__name__, name, _RETIRED)
