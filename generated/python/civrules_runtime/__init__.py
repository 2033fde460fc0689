"""civrules_runtime: what the generated packages of every game family share (standard library only).

The errors every package raises, the record base each family's records are built on
(:class:`Record`; :class:`SettingsRecord`, that of the typed settings), :class:`UnknownFact`,
:class:`PlayerRange` (the players a ruleset seats, every package's ``PLAYERS``),
:class:`FrozenMap` (the read-only mapping the packages' tables are made of),
:class:`OrderedFrozenSet` (their sets of ids, iterated in a fixed order), and
:class:`RulesetPackageBase`, the protocol of the names every package has whatever its family.
Each family has a runtime of its own with its records, vocabularies, rule logic, typed settings
(``settings``) and ``RulesetPackage`` protocol: ``civrules_runtime_<family>``.

The names of the first family's runtime lived here until the runtime was split by family; for
now they are still importable from here (loaded from that runtime on first use: import them from
there).
Names are loaded on first use: an engine that only needs the errors pays for nothing else.
"""

import sys as _sys

# Before anything of 3.11 is imported: on an older Python the runtime failed deep inside its own
# modules (``cannot import name 'EnumType' from 'enum'``), saying nothing of the Python it needs.
if _sys.version_info < (3, 11):  # noqa: UP036 - run on older Pythons too (emit/pyproject.py REQUIRES_PYTHON)
    raise ImportError(
        f"civrules_runtime needs Python 3.11 or later (its requires-python, >=3.11, as every civrules"
        f" package's), but this is Python {_sys.version.split()[0]} ({_sys.executable}): run the engine"
        f" with Python 3.11 or later (a pip of an older Python refuses to install the packages)",
        name=__name__,
    )
del _sys

from .errors import (  # noqa: E402 - after the check of the Python version
    DraftRulesetError,
    NotACollectionError,
    OtherVersionError,
    OutOfDomainError,
    UnknownFactError,
    UnknownIdError,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from civrules_runtime_advanced_civilization import (
        AbilityAction,
        AbilityPhase,
        Activity,
        Addition,
        Adjacency,
        AppliesTo,
        Area,
        AstTrack,
        Attribute,
        Block,
        BlockBonus,
        Border,
        BorderKind,
        Calamity,
        CalamityAlternative,
        CalamityAmount,
        CalamityEffect,
        CalamityFallback,
        CalamityImmunity,
        CalamityKind,
        CalamityLink,
        CalamityModifier,
        CalamityUnit,
        Card,
        CityBuild,
        CitySupport,
        Combination,
        CombinationMode,
        Commodity,
        CommodityExchange,
        CommodityValue,
        Conflict,
        ConflictAspect,
        Credit,
        CreditTokens,
        Deck,
        DeckBand,
        Effect,
        EffectKind,
        Epoch,
        Goods,
        Group,
        GroupId,
        HandLimit,
        HandLimitChange,
        Immunity,
        ImmunityAgainst,
        LinkEffect,
        MapRegion,
        ModifierEffect,
        Movement,
        MovementUnits,
        Nation,
        Phase,
        PlayerCount,
        PopulationLimit,
        PopulationWhere,
        PurchaseEffect,
        PurchaseKind,
        RateChange,
        Region,
        Requirements,
        Role,
        RulesetPackage,
        ScoringItem,
        Severity,
        SpecialAbility,
        StackSetupStep,
        Targets,
        Tax,
        Taxation,
        TokenColours,
        TradeCardPurchase,
        TradeStack,
        Treasury,
        TreasuryShare,
        TurnOrder,
        TurnPosition,
        VictoryPoints,
    )

    from .mappings import FrozenMap, OrderedFrozenSet
    from .protocol import RulesetPackageBase
    from .records import PlayerRange, Record, SettingsRecord, UnknownFact
else:

    def __getattr__(name: str) -> object:
        """The bases, imported on first use; a name that moved, from its family's runtime. A name
        found is bound in the module's globals, so a later read is a plain global lookup that never
        calls this again (an engine reads ``civrules_runtime.FrozenMap`` in its loops); a refusal is
        never bound: it is raised again at each read."""
        found: object
        if name == "RulesetPackageBase":  # each of _BASES
            from . import protocol

            found = protocol.RulesetPackageBase
        elif name in ("FrozenMap", "OrderedFrozenSet"):
            from . import mappings

            found = getattr(mappings, name)
        elif name in ("PlayerRange", "Record", "SettingsRecord", "UnknownFact"):
            from . import records

            found = getattr(records, name)
        elif name in _MOVED:
            from . import _moved

            found = _moved.attribute(__name__, name, "", _MOVED)
        else:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        return globals().setdefault(name, found)  # threads reading it first all get the one object

    def __dir__() -> list[str]:
        """The module's names, those ``__getattr__`` loads among them before a read binds one
        (``dir()``, ``inspect.getmembers`` and ``mock.create_autospec`` list what it gives)."""
        return sorted({*globals(), *__all__})


#: The names of the bases, each loaded from its module by __getattr__.
_BASES = (
    "RulesetPackageBase",
    "FrozenMap",
    "OrderedFrozenSet",
    "PlayerRange",
    "Record",
    "SettingsRecord",
    "UnknownFact",
)

#: The names of the Advanced Civilization family that lived here before the split.
_MOVED = frozenset(
    (
        "AbilityAction",
        "AbilityPhase",
        "Activity",
        "Addition",
        "Adjacency",
        "AppliesTo",
        "Area",
        "AstTrack",
        "Attribute",
        "Block",
        "BlockBonus",
        "Border",
        "BorderKind",
        "Calamity",
        "CalamityAlternative",
        "CalamityAmount",
        "CalamityEffect",
        "CalamityFallback",
        "CalamityImmunity",
        "CalamityKind",
        "CalamityLink",
        "CalamityModifier",
        "CalamityUnit",
        "Card",
        "CityBuild",
        "CitySupport",
        "Combination",
        "CombinationMode",
        "Commodity",
        "CommodityExchange",
        "CommodityValue",
        "Conflict",
        "ConflictAspect",
        "Credit",
        "CreditTokens",
        "Deck",
        "DeckBand",
        "Effect",
        "EffectKind",
        "Epoch",
        "Goods",
        "Group",
        "GroupId",
        "HandLimit",
        "HandLimitChange",
        "Immunity",
        "ImmunityAgainst",
        "LinkEffect",
        "MapRegion",
        "ModifierEffect",
        "Movement",
        "MovementUnits",
        "Nation",
        "Phase",
        "PlayerCount",
        "PopulationLimit",
        "PopulationWhere",
        "PurchaseEffect",
        "PurchaseKind",
        "RateChange",
        "Region",
        "Requirements",
        "Role",
        "RulesetPackage",
        "ScoringItem",
        "Severity",
        "SpecialAbility",
        "StackSetupStep",
        "Targets",
        "Tax",
        "Taxation",
        "TokenColours",
        "TradeCardPurchase",
        "TradeStack",
        "Treasury",
        "TreasuryShare",
        "TurnOrder",
        "TurnPosition",
        "VictoryPoints",
    )
)

# ``importlib.reload`` runs this file again in the same globals: the names reads bound are
# forgotten, and read again from where they live now.
for _name in (*_BASES, *_MOVED):
    globals().pop(_name, None)
del _name

__version__ = "2.20.0"

__all__ = [
    "AbilityAction",
    "AbilityPhase",
    "Activity",
    "Addition",
    "Adjacency",
    "AppliesTo",
    "Area",
    "AstTrack",
    "Attribute",
    "Block",
    "BlockBonus",
    "Border",
    "BorderKind",
    "Calamity",
    "CalamityAlternative",
    "CalamityAmount",
    "CalamityEffect",
    "CalamityFallback",
    "CalamityImmunity",
    "CalamityKind",
    "CalamityLink",
    "CalamityModifier",
    "CalamityUnit",
    "Card",
    "CityBuild",
    "CitySupport",
    "Combination",
    "CombinationMode",
    "Commodity",
    "CommodityExchange",
    "CommodityValue",
    "Conflict",
    "ConflictAspect",
    "Credit",
    "CreditTokens",
    "Deck",
    "DeckBand",
    "DraftRulesetError",
    "Effect",
    "EffectKind",
    "Epoch",
    "FrozenMap",
    "Goods",
    "Group",
    "GroupId",
    "HandLimit",
    "HandLimitChange",
    "Immunity",
    "ImmunityAgainst",
    "LinkEffect",
    "MapRegion",
    "ModifierEffect",
    "Movement",
    "MovementUnits",
    "Nation",
    "NotACollectionError",
    "OrderedFrozenSet",
    "OtherVersionError",
    "OutOfDomainError",
    "Phase",
    "PlayerCount",
    "PlayerRange",
    "PopulationLimit",
    "PopulationWhere",
    "PurchaseEffect",
    "PurchaseKind",
    "RateChange",
    "Record",
    "Region",
    "Requirements",
    "Role",
    "RulesetPackage",
    "RulesetPackageBase",
    "ScoringItem",
    "SettingsRecord",
    "Severity",
    "SpecialAbility",
    "StackSetupStep",
    "Targets",
    "Tax",
    "Taxation",
    "TokenColours",
    "TradeCardPurchase",
    "TradeStack",
    "Treasury",
    "TreasuryShare",
    "TurnOrder",
    "TurnPosition",
    "UnknownFact",
    "UnknownFactError",
    "UnknownIdError",
    "VictoryPoints",
    "__version__",
]
