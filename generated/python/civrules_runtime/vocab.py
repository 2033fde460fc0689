"""Moved: the vocabularies of the Advanced Civilization family live in
``civrules_runtime_advanced_civilization.vocab``; their names stay importable from here for now."""

TYPE_CHECKING = False

#: The names a released version of this module had and this one lacks (the ledger of released names,
#: compiler/tools/runtime_names.json): a pickle of that version that names one is told which this is.
_RETIRED: frozenset[str] = frozenset(
    (
        "AbilityAction",
        "AbilityPhase",
        "Activity",
        "Adjacency",
        "AppliesTo",
        "Block",
        "BorderKind",
        "CalamityKind",
        "CalamityUnit",
        "CombinationMode",
        "ConflictAspect",
        "EffectKind",
        "Goods",
        "GroupId",
        "ImmunityAgainst",
        "LinkEffect",
        "MapRegion",
        "ModifierEffect",
        "MovementUnits",
        "PopulationWhere",
        "PurchaseKind",
        "Role",
        "Severity",
        "Targets",
        "TokenColours",
        "TreasuryShare",
        "TurnPosition",
    )
)

if not TYPE_CHECKING:

    def __getattr__(name: str) -> object:
        from . import _moved

        found = _moved.attribute(__name__, name, "vocab", _RETIRED)
        # A released name is bound at its first read: later reads are plain global lookups (a
        # refusal is raised, never bound, so it is said again at each read).
        return globals().setdefault(name, found) if name in _RETIRED else found

    # ``importlib.reload`` runs this file again in the same globals: the names reads bound are
    # forgotten, and read again from the family's runtime (none of them is defined here).
    for _name in _RETIRED:
        globals().pop(_name, None)
    del _name
