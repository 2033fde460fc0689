"""The vocabularies of the Imperial Settlers family's packages: string enums whose members are their values.

Ids of a ruleset's own collections (cards, goods, factions, decks ...) are each package's id enums;
these are the words the rules themselves use, the same in every ruleset of the family.
"""

from enum import StrEnum
from typing import Literal, TypeAlias

from civrules_runtime.errors import IdEnumType, absent_id

TYPE_CHECKING = False

__all__ = ["LocationKind", "LocationKindName", "RazeTarget", "RazeTargetName"]


class LocationKind(StrEnum, metaclass=IdEnumType):
    """The three kinds of location, one per row of an empire (p4, p8)."""

    _missing_ = classmethod(absent_id)  # a value it lacks: UnknownIdError, naming the closest

    PRODUCTION = "production"
    ABILITY = "ability"
    ACTION = "action"


class RazeTarget(StrEnum, metaclass=IdEnumType):
    """What a raze action destroys (p9): a card from one's own hand, or an opponent's location."""

    _missing_ = classmethod(absent_id)  # a value it lacks: UnknownIdError, naming the closest

    CARD_IN_HAND = "raze_card_in_hand"
    OPPONENT_LOCATION = "raze_opponent_location"


LocationKindName: TypeAlias = LocationKind | Literal["production", "ability", "action"]
RazeTargetName: TypeAlias = RazeTarget | Literal["raze_card_in_hand", "raze_opponent_location"]


#: The names a released version of this module had and this one lacks (the ledger of released names,
#: compiler/tools/runtime_names.json): a pickle of that version that names one is told which this is.
_RETIRED: frozenset[str] = frozenset()
if not TYPE_CHECKING:  # a name this module lacks stays a type error

    def __getattr__(name: str) -> object:
        # A pickle names an enum by its module and name: one this version lacks is said so.
        from civrules_runtime.errors import absent

        raise absent(__name__, name, _RETIRED)
