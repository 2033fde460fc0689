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
else:

    def __getattr__(name: str) -> object:
        """The records and the protocol, imported on first use and bound in the module's globals,
        so a later read is a plain global lookup that never calls this again (a name this
        runtime lacks is refused at each read)."""
        found: object
        if name == "AssumedPackage":
            from . import assumptions

            found = assumptions.AssumedPackage
        elif name == "RulesetPackage":
            from . import protocol

            found = protocol.RulesetPackage
        elif name in _RECORDS:
            from . import records

            found = getattr(records, name)
        else:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        return globals().setdefault(name, found)  # threads reading it first all get the one object

    def __dir__() -> list[str]:
        """The module's names, those ``__getattr__`` loads among them before a read binds one
        (``dir()``, ``inspect.getmembers`` and ``mock.create_autospec`` list what it gives)."""
        return sorted({*globals(), *__all__})


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


# ``importlib.reload`` runs this file again in the same globals: the names reads bound are
# forgotten, and read again from the modules they live in.
for _name in (*_RECORDS, "AssumedPackage", "RulesetPackage"):
    globals().pop(_name, None)
del _name

__version__ = "2.7.3"

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
