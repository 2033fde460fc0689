"""civrules_runtime_advanced_civilization: what the generated packages of the Advanced Civilization
family share (standard library and civrules_runtime only).

The records (frozen, slotted, on ``civrules_runtime``'s record base), the vocabularies (string
enums), the rule logic of the helpers, and :class:`RulesetPackage`, the protocol every package of
the family satisfies: an engine function typed ``def f(rules: RulesetPackage)`` accepts any of
their rulesets' packages. The errors and :class:`UnknownFact` are civrules_runtime's (every
family's), re-exported here.

Facts the ruleset does not give are None in the records; a helper that needs one raises
:class:`UnknownFactError`, saying whether the data records the fact as unknown (with its why) or
the ruleset leaves it out. Names are loaded on first use (the records and the protocol cost import
time an engine that only needs the errors or the vocabularies should not pay).
"""

from civrules_runtime.errors import DraftRulesetError, UnknownFactError, UnknownIdError

from .vocab import (
    AbilityAction,
    AbilityPhase,
    Activity,
    Adjacency,
    AppliesTo,
    Block,
    BorderKind,
    CalamityKind,
    CalamityUnit,
    CombinationMode,
    ConflictAspect,
    EffectKind,
    Goods,
    GroupId,
    ImmunityAgainst,
    LinkEffect,
    MapRegion,
    ModifierEffect,
    MovementUnits,
    PopulationWhere,
    PurchaseKind,
    Role,
    Severity,
    Targets,
    TokenColours,
    TreasuryShare,
    TurnPosition,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .assumptions import AssumedPackage
    from .protocol import RulesetPackage
    from .records import (
        Addition,
        Area,
        Assumptions,
        AstTrack,
        Attribute,
        BlockBonus,
        Border,
        Calamity,
        CalamityAlternative,
        CalamityAmount,
        CalamityEffect,
        CalamityFallback,
        CalamityImmunity,
        CalamityLink,
        CalamityModifier,
        Card,
        CityBuild,
        CitySupport,
        Combination,
        Commodity,
        CommodityExchange,
        CommodityValue,
        Configuration,
        Conflict,
        CopiesBand,
        Credit,
        CreditTokens,
        Deck,
        DeckBand,
        Effect,
        Epoch,
        Group,
        HandLimit,
        HandLimitBand,
        HandLimitChange,
        Immunity,
        Movement,
        Nation,
        Phase,
        PlayerCount,
        PopulationLimit,
        PurchaseEffect,
        RateChange,
        Region,
        Requirements,
        ScoringItem,
        SpecialAbility,
        SpecialRule,
        StackSetupStep,
        SubActivity,
        Tax,
        Taxation,
        TradeCardPurchase,
        TradeDeckSetup,
        TradeStack,
        Treasury,
        TurnOrder,
        UnknownFact,
        VictoryPoints,
    )
else:

    def __getattr__(name: str) -> object:
        """The records and the protocol, imported on first use and bound in the module's globals,
        so a later read is a plain global lookup that never calls this again (a name this
        runtime lacks is refused at each read)."""
        found: object
        if name == "RulesetPackage":
            from . import protocol

            found = protocol.RulesetPackage
        elif name == "AssumedPackage":
            from . import assumptions

            found = assumptions.AssumedPackage
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
        "Addition",
        "Area",
        "Assumptions",
        "AstTrack",
        "Attribute",
        "BlockBonus",
        "Border",
        "Calamity",
        "CalamityAlternative",
        "CalamityAmount",
        "CalamityEffect",
        "CalamityFallback",
        "CalamityImmunity",
        "CalamityLink",
        "CalamityModifier",
        "Card",
        "CityBuild",
        "CitySupport",
        "Combination",
        "Commodity",
        "CommodityExchange",
        "CommodityValue",
        "Configuration",
        "Conflict",
        "CopiesBand",
        "Credit",
        "CreditTokens",
        "Deck",
        "DeckBand",
        "Effect",
        "Epoch",
        "Group",
        "HandLimit",
        "HandLimitBand",
        "HandLimitChange",
        "Immunity",
        "Movement",
        "Nation",
        "Phase",
        "PlayerCount",
        "PopulationLimit",
        "PurchaseEffect",
        "RateChange",
        "Region",
        "Requirements",
        "ScoringItem",
        "SpecialAbility",
        "SpecialRule",
        "StackSetupStep",
        "SubActivity",
        "Tax",
        "Taxation",
        "TradeCardPurchase",
        "TradeDeckSetup",
        "TradeStack",
        "Treasury",
        "TurnOrder",
        "UnknownFact",
        "VictoryPoints",
    )
)


# ``importlib.reload`` runs this file again in the same globals: the names reads bound are
# forgotten, and read again from the modules they live in.
for _name in (*_RECORDS, "AssumedPackage", "RulesetPackage"):
    globals().pop(_name, None)
del _name

__version__ = "2.10.3"

__all__ = [
    "AbilityAction",
    "AbilityPhase",
    "Activity",
    "Addition",
    "Adjacency",
    "AppliesTo",
    "Area",
    "AssumedPackage",
    "Assumptions",
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
    "Configuration",
    "Conflict",
    "ConflictAspect",
    "CopiesBand",
    "Credit",
    "CreditTokens",
    "Deck",
    "DeckBand",
    "DraftRulesetError",
    "Effect",
    "EffectKind",
    "Epoch",
    "Goods",
    "Group",
    "GroupId",
    "HandLimit",
    "HandLimitBand",
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
    "SpecialRule",
    "StackSetupStep",
    "SubActivity",
    "Targets",
    "Tax",
    "Taxation",
    "TokenColours",
    "TradeCardPurchase",
    "TradeDeckSetup",
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
