"""Moved: the rule logic of the Advanced Civilization family live in
``civrules_runtime_advanced_civilization.logic``; their names stay importable from here for now."""

TYPE_CHECKING = False

#: The names a released version of this module had and this one lacks (the ledger of released names,
#: compiler/tools/runtime_names.json): a pickle of that version that names one is told which this is.
_RETIRED: frozenset[str] = frozenset(
    (
        "Addition",
        "Adjacency",
        "AppliesTo",
        "AstTrack",
        "Block",
        "BlockBonus",
        "COUNT_SQUARED_TIMES_VALUE",
        "CalamityAmount",
        "CalamityEffect",
        "CalamityImmunity",
        "CalamityModifier",
        "Card",
        "Combination",
        "CombinationMode",
        "Commodity",
        "Deck",
        "DeckBand",
        "Effect",
        "EffectKind",
        "Epoch",
        "HandLimit",
        "MapRegion",
        "ModifierEffect",
        "Role",
        "Taxation",
        "UnknownFactError",
        "UnknownIdError",
    )
)

if not TYPE_CHECKING:

    def __getattr__(name: str) -> object:
        from . import _moved

        return _moved.attribute(__name__, name, "logic", _RETIRED)
