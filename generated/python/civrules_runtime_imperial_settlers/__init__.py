"""civrules_runtime_imperial_settlers: what the generated packages of the Imperial Settlers family
share (standard library and civrules_runtime only).

The records (frozen, slotted, on ``civrules_runtime``'s record base), the vocabularies (string
enums), the rule logic of the helpers, and :class:`RulesetPackage`, the protocol every package of
the family satisfies: an engine function typed ``def f(rules: RulesetPackage)`` accepts any of
their rulesets' packages. The errors and :class:`UnknownFact` are civrules_runtime's (every
family's), re-exported here.

Facts the ruleset does not give are None in the records; a helper that needs one raises
:class:`UnknownFactError`, saying whether the data records the fact as unknown (with its why) or
the ruleset leaves it out. The records and the protocol are loaded on first use.
"""

from civrules_runtime.errors import DraftRulesetError, UnknownFactError, UnknownIdError
from civrules_runtime.lazy import lazy_names as _lazy_names

from .vocab import LocationKind, RazeTarget

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .assumptions import AssumedPackage
    from .protocol import RulesetPackage
    from .records import (
        Action,
        Assumptions,
        Card,
        CardPart,
        Colour,
        Component,
        CopyFacts,
        CountedGoods,
        Deck,
        DeckRule,
        Faction,
        FactionRule,
        GeneralRule,
        Good,
        LocationRow,
        Phase,
        PhaseStep,
        Scoring,
        SoloLevel,
        SourceName,
        UnknownFact,
    )


_RECORDS = frozenset(
    (
        "Action",
        "Assumptions",
        "Card",
        "CardPart",
        "Colour",
        "Component",
        "CopyFacts",
        "CountedGoods",
        "Deck",
        "DeckRule",
        "Faction",
        "FactionRule",
        "GeneralRule",
        "Good",
        "LocationRow",
        "Phase",
        "PhaseStep",
        "Scoring",
        "SoloLevel",
        "SourceName",
        "UnknownFact",
    )
)


if not TYPE_CHECKING:
    # The records and the protocol, imported on first use and bound in the module's globals, so a
    # later read is a plain global lookup (``lazy_names`` forgets them again at a reload).
    __getattr__, __dir__ = _lazy_names(
        globals(),
        {"AssumedPackage": ".assumptions", "RulesetPackage": ".protocol", **dict.fromkeys(_RECORDS, ".records")},
    )

__version__ = "2.7.5"

__all__ = [
    "Action",
    "AssumedPackage",
    "Assumptions",
    "Card",
    "CardPart",
    "Colour",
    "Component",
    "CopyFacts",
    "CountedGoods",
    "Deck",
    "DeckRule",
    "DraftRulesetError",
    "Faction",
    "FactionRule",
    "GeneralRule",
    "Good",
    "LocationKind",
    "LocationRow",
    "Phase",
    "PhaseStep",
    "RazeTarget",
    "RulesetPackage",
    "Scoring",
    "SoloLevel",
    "SourceName",
    "UnknownFact",
    "UnknownFactError",
    "UnknownIdError",
    "__version__",
]
