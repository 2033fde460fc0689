"""`civrules build`: typed, installable Python engine packages for the rulesets of this family.

``generated/python/<package>/`` is a distribution (``pip install generated/python/<package>``) of
one import package that needs only the standard library, the shared runtime ``civrules_runtime``
(its errors and the record base) and the family's runtime ``civrules_runtime_sid_meiers_civilization``
(``generated/python/civrules_runtime_sid_meiers_civilization/``, from ``runtime/`` beside this
module: the records, vocabularies, rule logic and the ``RulesetPackage`` protocol every package of
the family satisfies). Read from the typed model, never the raw YAML (the settings table is the
exported settings). The data module is written by :mod:`civrules.emit.pyfmt`, already laid out as
``ruff format`` lays it out; every string from the data is a quoted literal.
"""

from __future__ import annotations

import ast
import contextlib
import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import jinja2

from civrules.emit import entity_sources
from civrules.emit import players as player_range
from civrules.emit.export import fingerprint
from civrules.emit.packaging import (
    RUNTIME,
    enum_member,
    family_runtime_distribution,
    family_runtime_package,
    import_name,
)
from civrules.emit.pyfmt import (
    LINE_LENGTH,
    Code,
    Module,
    Node,
    Source,
    call,
    dct,
    lazy_dct,
    record_call,
    statement,
    string,
    tup,
    used_makers,
)
from civrules.emit.runtimes import PackageFiles, family_runtime, package_files, public_names
from civrules.emit.settings_types import settings_classes, settings_types, settings_value
from civrules.emit.sheets.languages import names_paragraph
from civrules.emit.templating import template_environment
from civrules.families.sid_meiers_civilization import FAMILY, rules
from civrules.families.sid_meiers_civilization.model import (
    FAMILY_ID,
    Building,
    CivilizationRuleset,
    CombatBonus,
    CultureSpace,
    Technology,
    UnitType,
    Wonder,
)
from civrules.model import Entity, Unknown

FAMILY_PACKAGE = "civrules.families.sid_meiers_civilization"
#: The family's runtime: its import name, distribution name, version, and its sources (``runtime/``).
FAMILY_RUNTIME = family_runtime_package(FAMILY_ID)
FAMILY_RUNTIME_DISTRIBUTION = family_runtime_distribution(FAMILY_ID)
#: 1.14.2: the same API; ``Research.costs`` and ``Pyramid.minimums``, given as dicts by an engine, are
#: held as FrozenMaps (the record held the caller's dict: it changed with it and did not hash).
#: 1.14.3: the same API; each record or protocol name the runtime's ``__getattr__`` finds is bound
#: at its first read (every read called it: 0.75 us, against a global lookup); its vocabularies
#: refuse a value they lack with UnknownIdError naming the closest (a ValueError, as Enum's), and a
#: member's name they lack naming the closest member (``errors.IdEnumType``); ``dir()`` of the runtime
#: lists its records and protocol before a read binds one (``mock.create_autospec`` missed them).
#: Also (same step, unreleased): its pyproject.toml names ``dev-mode-dirs``, so ``pip install -e``
#: puts generated/python/ on sys.path, not the runtime's own folder (which made its modules
#: top-level ones, ``import records``, and left the runtime unimportable).
#: 1.14.4: the same API, on civrules-runtime 2.19: its ``__init__``'s ``__getattr__`` and ``__dir__``
#: are the shared runtime's ``lazy_names`` (the three family runtimes had one copy each), and each
#: record class's ``replace`` is declared with ``typed_replace``, so ``inspect.signature`` and
#: ``help()`` read its fields keyword-only with their types (they read ``(*args, **changes)``).
#: Also (same step, unreleased): its refusals show an id enum's member given for an id as the id
#: (``errors.shown``: ``'pottery'``, where they said ``<TechnologyId.POTTERY: 'pottery'>``).
#: Also (same step, unreleased): its pyproject.toml declares the sdist's files (the wheel's, not whatever else lies in
#: the folder), ignores a `.gitignore` above the folder (one naming `data.py` emptied it), and
#: gives its docstring as the long description; an empty `.gitignore` and `.hgignore` beside it
#: keep a checkout's own out of the sdist.
#: Also (same step, unreleased): ``combat_bonus(defending=10**5000)`` (or a list nested past the stack) is
#: UnknownIdError, where showing the value raised the interpreter's ValueError or RecursionError.
#: 1.14.5 refuses a building that says what it upgrades is not in the sources while giving it
#: (``upgrade_unknown`` with ``upgrade_of``): the flag is cleared with the value (``_problem``).
#: Also (same step, unreleased): an id whose own ``__hash__`` or ``__eq__`` fails is no id
#: (UnknownIdError), as an unhashable one (a vocabulary, a table, ``combat_bonus``'s defence): the
#: caller's exception came out of some helpers.
FAMILY_RUNTIME_VERSION = "1.14.5"
FAMILY_RUNTIME_SOURCES = Path(__file__).resolve().parent / "runtime"
FAMILY_RUNTIME_FILES = (
    "__init__.py",
    "assumptions.py",
    "bounds.py",
    "logic.py",
    "protocol.py",
    "records.py",
    "settings.py",
    "vocab.py",
)


@functools.cache
def vocabularies() -> frozenset[str]:
    """The names the family runtime's ``vocab`` module defines (read, not imported)."""
    tree = ast.parse((FAMILY_RUNTIME_SOURCES / "vocab.py").read_text(encoding="utf-8"))
    return frozenset(node.name for node in tree.body if isinstance(node, ast.ClassDef))


def member(value: str) -> str:
    """The enum member name of an id (an id that starts with a digit gets a leading underscore)."""
    name = value.upper()
    return enum_member(f"_{name}" if name[:1].isdigit() else name, value)


def lit(value: Any) -> str:
    """A Python literal for a string, a number, a bool or None (for the templates)."""
    if isinstance(value, Unknown) or value is None:
        return "None"
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, str):
        return string(value).flat()
    return repr(value)


def doc(value: str) -> str:
    """Free text for inside a docstring: backslashes and double quotes escaped."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


def environment() -> jinja2.Environment:
    # Python source, not HTML: every data value goes through `lit` (or `doc` in docstrings).
    env = template_environment("python", autoescape=False, family=FAMILY_PACKAGE)
    env.filters["lit"] = lit
    env.filters["doc"] = doc
    return env


#: Each table of a package: its name, the model's collection, the id enum and the record type.
TABLES = (
    ("TECHNOLOGIES", "technologies", "TechnologyId", "Technology"),
    ("TERRAINS", "terrains", "TerrainId", "Terrain"),
    ("BUILDINGS", "buildings", "BuildingId", "Building"),
    ("UNIT_TYPES", "unit_types", "UnitTypeId", "UnitType"),
    ("ERAS", "eras", "EraId", "Era"),
    ("WONDERS", "wonders", "WonderId", "Wonder"),
    ("SPACE_KINDS", "space_kinds", "SpaceKindId", "SpaceKind"),
    ("CULTURE_SPACES", "spaces", "CultureSpaceId", "CultureSpace"),
    ("CULTURE_DECKS", "decks", "CultureDeckId", "CultureDeck"),
    ("GREAT_PEOPLE", "great_people", "GreatPersonId", "GreatPerson"),
    ("TILES", "tiles", "TileId", "Tile"),
    ("PHASES", "phases", "PhaseId", "Phase"),
    ("GOVERNMENTS", "governments", "GovernmentId", "Government"),
    ("VICTORIES", "victories", "VictoryId", "Victory"),
    ("RESOURCES", "resources", "ResourceId", "Resource"),
    ("COMBAT_BONUSES", "combat_bonuses", "CombatBonusId", "CombatBonus"),
    ("CITY_ACTIONS", "city_actions", "CityActionId", "CityAction"),
    ("CIVILIZATIONS", "civilizations", "CivilizationId", "Civilization"),
    ("HUTS", "huts", "HutId", "Marker"),
    ("VILLAGES", "villages_markers", "VillageId", "Marker"),
)
#: The docstring of each id enum.
ENUM_DOCS = {
    "TechnologyId": "Technologies.",
    "TerrainId": "Terrains of the map squares.",
    "BuildingId": "Buildings.",
    "UnitTypeId": "Unit types.",
    "EraId": "Eras of wonders.",
    "WonderId": "Wonders.",
    "SpaceKindId": "Kinds of culture track space.",
    "CultureSpaceId": "Spaces of the culture track, in order.",
    "CultureDeckId": "Culture event decks.",
    "GreatPersonId": "Great people.",
    "TileId": "Map tiles.",
    "PhaseId": "Phases of a turn, in order.",
    "GovernmentId": "Governments.",
    "VictoryId": "Victories.",
    "ResourceId": "Resources.",
    "CombatBonusId": "Combat bonuses.",
    "CityActionId": "City actions.",
    "CivilizationId": "Civilizations.",
    "HutId": "Hut markers.",
    "VillageId": "Village markers.",
}


class _Writer:
    """Builds the data module's statements, remembering which runtime names they use."""

    def __init__(self) -> None:
        self.runtime: set[str] = set()
        self.statements = Source()

    def rt(self, name: str) -> str:
        self.runtime.add(name)
        return name

    def enum(self, enum: str, value: str | None) -> Node:
        return Code("None") if value is None else Code(f"{self.rt(enum)}.{member(value)}")

    def add(self, comment: str | None, target: str, value: Node) -> None:
        text = "".join(f"#: {line}\n" for line in comment.splitlines()) if comment else ""
        if not isinstance(value, Code):  # encoded a batch of lines at a time: a table's lines never all held
            self.statements.statement(text, target, value)
            return
        line = statement(target, value)
        if isinstance(value, Code) and len(line.rstrip("\n")) > LINE_LENGTH and len(value.flat()) + 4 <= LINE_LENGTH:
            line = f"{target} = (\n    {value.flat()}\n)\n"  # as the formatter parenthesises a long right-hand side
        self.statements.append(text + line, target, value)


def value(item: Any) -> Node:
    """A literal of plain data; Unknown is None."""
    if isinstance(item, (tuple, list)):
        return tup([value(i) for i in item])
    if isinstance(item, str):
        return string(item)
    return Code(lit(item))


def _strs(items: Iterable[str] | Unknown) -> Node:
    return Code("None") if isinstance(items, Unknown) else tup([string(i) for i in items])


def _technology(tech: Technology, w: _Writer) -> Node:
    unlocks: Node = Code("None")
    u = rules.known_unlocks(tech)
    if u is not None:
        unlocks = record_call(
            w.rt("Unlocks"),
            buildings=_strs(u.buildings),
            units=tup([record_call(w.rt("UnitRef"), string(r.type), value(r.rank)) for r in u.units]),
            governments=_strs(u.governments),
            wonders=_strs(u.wonders),
        )
    effects = [
        record_call(
            w.rt("TechEffect"),
            w.enum("EffectKind", e.kind),
            *([value(e.value), value(e.resource)] if e.value is not None or e.resource is not None else []),
        )
        for e in tech.effects
    ]
    return record_call(
        w.rt("Technology"),
        id=string(tech.id),
        name=value(tech.name),
        level=value(tech.level),
        unlocks=unlocks,
        effects=tup(effects),
    )


def _building(b: Building, w: _Writer) -> Node:
    return record_call(
        w.rt("Building"),
        id=string(b.id),
        name=value(b.name),
        terrains=_strs(b.terrains),
        city_centre=value(b.city_centre),
        limited=value(b.limited),
        upgrade_of=value(b.upgrade_of if isinstance(b.upgrade_of, str) else None),
        **({"upgrade_unknown": Code("True")} if isinstance(b.upgrade_of, Unknown) else {}),
        cost=value(b.cost),
        combat_bonus=value(b.combat_bonus),
    )


def _unit_type(u: UnitType, w: _Writer) -> Node:
    ranks = [
        record_call(
            w.rt("Rank"),
            value(r.rank),
            value(r.name),
            value(r.cost),
            value(None if isinstance(r.strength, Unknown) else r.strength[0]),
            value(None if isinstance(r.strength, Unknown) else r.strength[1]),
        )
        for r in u.ranks
    ]
    return record_call(
        w.rt("UnitType"),
        id=string(u.id),
        name=value(u.name),
        available_at_start=value(u.available_at_start),
        trumps=value(u.trumps),
        never_trumped=value(u.never_trumped),
        deck_size=value(u.deck_size),
        ranks=tup(ranks),
    )


def _wonder(wonder: Wonder, w: _Writer) -> Node:
    d = wonder.discount
    return record_call(
        w.rt("Wonder"),
        id=string(wonder.id),
        name=value(wonder.name),
        era=value(wonder.era),
        cost=value(wonder.cost),
        discount_cost=value(d.cost if d else None),
        discount_technology=value(d.technology if d else None),
        research_discount=value(wonder.research_discount),
    )


def _space(s: CultureSpace, w: _Writer) -> Node:
    cost = s.cost
    return record_call(
        w.rt("CultureSpace"),
        id=string(s.id),
        position=value(s.position),
        kind=string(s.kind),
        culture=value(None if isinstance(cost, Unknown) else cost[0]),
        trade=value(None if isinstance(cost, Unknown) else cost[1]),
        deck=value(s.deck),
    )


def _bonus(b: CombatBonus, w: _Writer) -> Node:
    return record_call(
        w.rt("CombatBonus"),
        id=string(b.id),
        name=value(b.name),
        amount=value(b.amount),
        per=w.enum("BonusPer", b.per),
        building=value(b.building),
        situation=w.enum("CombatSituation", b.situation),
    )


def _record(collection: str, entity: Any, w: _Writer) -> Node:
    """The record of one entity of ``collection``."""
    special: dict[str, Callable[[Any, _Writer], Node]] = {
        "technologies": _technology,
        "buildings": _building,
        "unit_types": _unit_type,
        "wonders": _wonder,
        "spaces": _space,
        "combat_bonuses": _bonus,
    }
    if collection in special:
        return special[collection](entity, w)
    head = [string(entity.id), value(entity.name)]
    if collection == "terrains":
        return record_call(w.rt("Terrain"), *head, value(entity.water))
    if collection in ("eras", "space_kinds", "resources"):
        record = {"eras": "Era", "space_kinds": "SpaceKind", "resources": "Resource"}
        return record_call(w.rt(record[collection]), *head)
    if collection == "city_actions":
        gives = {f: value(getattr(entity, f)) for f in ("culture", "per_culture_icon", "per_action")}
        return record_call(
            w.rt("CityAction"), *head, **{f: v for f, v in gives.items() if getattr(entity, f) is not None}
        )
    if collection == "decks":
        return record_call(w.rt("CultureDeck"), *head, value(entity.cards))
    if collection == "great_people":
        return record_call(w.rt("GreatPerson"), *head, value(entity.category), value(entity.combat_bonus))
    if collection == "tiles":
        return record_call(w.rt("Tile"), *head, value(entity.civilization), value(entity.squares))
    if collection == "phases":
        allows = tup([w.enum("Activity", a) for a in entity.allows])
        return record_call(w.rt("Phase"), *head, value(entity.order), allows)
    if collection == "governments":
        return record_call(
            w.rt("Government"),
            *head,
            starting=value(entity.starting),
            transitional=value(entity.transitional),
            coins=value(entity.coins),
            battle_hand=value(entity.battle_hand),
        )
    if collection == "victories":
        return record_call(
            w.rt("Victory"),
            *head,
            kind=w.enum("VictoryKind", entity.kind),
            technology=value(entity.technology),
            coins=value(entity.coins),
            ends=w.enum("VictoryEnds", entity.ends),
        )
    if collection == "civilizations":
        return record_call(
            w.rt("Civilization"), *head, value(entity.starting_technology), value(entity.starting_government)
        )
    if collection in ("huts", "villages_markers"):
        return record_call(w.rt("Marker"), *head, value(entity.count))
    raise ValueError(f"no record for the collection {collection}")


def _mapping(items: list[tuple[Node, Node]], w: _Writer) -> Node:
    return call(w.rt("FrozenMap"), dct(items)) if items else Code(f"{w.rt('FrozenMap')}({{}})")


def _records(collection: str, entities: Sequence[Entity], w: _Writer) -> Node:
    """:func:`_mapping` of each entity's id to its record, each record made as it is written."""
    if not entities:
        return Code(f"{w.rt('FrozenMap')}({{}})")
    return call(
        w.rt("FrozenMap"),
        lazy_dct(len(entities), lambda: ((string(e.id), _record(collection, e, w)) for e in entities)),
    )


def _cited(entity: Entity) -> tuple[str, ...]:
    """The rule sections an entity cites, then the secondary source it cites (its spaces folded)."""
    source = entity.source
    return entity.rules + ((" ".join(source.split()),) if source is not None else ())


def _unknown_facts(ruleset: CivilizationRuleset, w: _Writer) -> Node:
    from civrules.checks.unknowns import fact_field, unknown_facts

    return tup(
        [
            record_call(
                w.rt("UnknownFact"),
                string(ruleset.file_name(document.file)),
                string(fact_field(document, path, FAMILY)),
                string(" ".join(reason.split())),
            )
            for document, path, reason in unknown_facts(ruleset)
        ]
    )


def _settings_tables(ruleset: CivilizationRuleset, w: _Writer) -> None:
    costs = rules.research_costs(ruleset)
    w.add(
        "What researching costs: the trade by level (p11), the trade a coin keeps, whether research spends all.",
        "RESEARCH: Final[Research]",
        record_call(
            w.rt("Research"),
            _mapping([(value(level), value(trade)) for level, trade in costs.items()], w),
            value(rules.trade_kept_per_coin(ruleset)),
            value(ruleset.rule("research").get("spends_all_trade") is True),
        ),
    )
    p = rules.pyramid(ruleset)
    w.add(
        "The technology pyramid: levels, the technologies each level needs for the technology victory.",
        "PYRAMID: Final[Pyramid]",
        record_call(
            w.rt("Pyramid"),
            levels=value(p.levels),
            top_level=value(p.top_level),
            minimums=_mapping([(value(k), value(v)) for k, v in p.minimums.items()], w),
            total=value(p.total),
            one_more_below=value(p.one_more_below),
            inferred=value(p.inferred),
            starting_technology_in_base_row=value(p.starting_technology_in_base_row),
        ),
    )
    hand = rules.battle_hand(ruleset)
    w.add(
        "The battle hand: its base, the cards a friendly figure beyond the first adds, defending a city.",
        "BATTLE_HAND: Final[BattleHand]",
        record_call(
            w.rt("BattleHand"), value(hand["base"]), value(hand["per_extra_figure"]), value(hand["defending_city"])
        ),
    )


def data_module(ruleset: CivilizationRuleset, exported: Mapping[str, Any], stamp: str | None = None) -> Module:
    """The source of ``data.py``: every table of the ruleset, typed with the runtime's records, and
    what it declares as written; ``stamp`` is ``fingerprint(exported)`` when the caller has it already."""
    w = _Writer()
    w.rt("UnknownFact")
    w.add(None, "RULESET_ID: Final[str]", string(ruleset.id))
    w.add(None, "RULESET_NAME: Final[str]", string(ruleset.name))
    w.add(player_range.DOC, player_range.ANNOTATION, player_range.player_range(exported, ruleset, makers=True))
    w.add(
        "A hash of the resolved ruleset: changes whenever any fact changes.",
        "RULESET_FINGERPRINT: Final[str]",
        string(fingerprint(exported) if stamp is None else stamp),
    )
    w.add(
        "True when the ruleset is a draft: facts a game needs are missing (see UNKNOWN_FACTS).",
        "DRAFT: Final[bool]",
        value(ruleset.draft),
    )
    w.add(
        "Every fact the sources do not give: the data file, the field, and why.",
        "UNKNOWN_FACTS: Final[tuple[UnknownFact, ...]]",
        _unknown_facts(ruleset, w),
    )
    w.add(
        "Ids a source spells differently, with the id this package uses for the same thing.",
        "ID_ALIASES: Final[Mapping[str, str]]",
        _mapping([], w),
    )
    w.add(
        "The id enum of each collection, for engines that handle ids generically.",
        "ID_ENUMS: Final[Mapping[str, type[StrEnum]]]",
        _mapping([(string(coll), Code(enum)) for _, coll, enum, _ in TABLES], w),
    )
    for table, coll, _, record in TABLES:
        entities: tuple[Entity, ...] = tuple(getattr(ruleset, coll))
        w.rt(record)
        w.add(
            None,
            f"{table}: Final[Mapping[str, {record}]]",
            # Each record made as it is written (as advanced-civilization's cards): entities that
            # alias one long list each have nodes of their own for it, never all held at once.
            _records(coll, entities, w),
        )
    _settings_tables(ruleset, w)
    w.add(
        "Every ruleset-level rule as the data writes it (the settings of `civrules export`), as typed,\n"
        "read-only records (the runtime's `settings` module), each also the Mapping[str, object] it was\n"
        "before they were typed; unknown facts are None.",
        "SETTINGS: Final[settings.Settings]",
        settings_value(settings_types(FAMILY), exported.get("settings") or {}, "settings.", makers=True),
    )
    sources = [(string(f"{c.name}.{e.id}"), value(_cited(e))) for c in ruleset.collections() for e in c if _cited(e)]
    w.add(
        'The rule sections (or secondary sources) each entity\'s entry cites, by "collection.id".',
        "ENTITY_SOURCES: Final[Mapping[str, tuple[str, ...]]]",
        call("FrozenMap", dct(sources)) if sources else Code("FrozenMap({})"),
    )
    w.add(
        entity_sources.DOC,
        entity_sources.ANNOTATION,
        entity_sources.entity_field_sources(ruleset, lambda collection, entity: f"{collection}.{entity.id}"),
    )
    empty = sorted(table for table, coll, _, _ in TABLES if not tuple(getattr(ruleset, coll)))
    w.add(
        "The tables that are empty because the sources do not give them (unknown, not none): every\n"
        "collection of this game has members, so an empty one is one the sources leave out (see\n"
        "SETTINGS['not_in_sources'] and UNKNOWN_FACTS).",
        "UNKNOWN_COLLECTIONS: Final[frozenset[str]]",
        call("OrderedFrozenSet", tup([string(table) for table in empty])),
    )
    enums = sorted(w.runtime & vocabularies())
    records = sorted(w.runtime - {"FrozenMap", *enums})
    head = [
        f'"""The data of `{ruleset.id}` as read-only tables (generated by civrules; do not edit)."""\n',
        "from __future__ import annotations\n",
        "# The names the annotations use, imported at run time too: `typing.get_type_hints(data)`\n"
        "# evaluates them (the runtimes import `typing` already).\n"
        "from collections.abc import Mapping\n"
        "from enum import StrEnum\n"
        "from typing import Final\n",
        "from civrules_runtime.mappings import FrozenMap, OrderedFrozenSet\n"
        "from civrules_runtime.records import PlayerRange, data_maker\n"
        f"from {FAMILY_RUNTIME} import settings\n"
        f"from {FAMILY_RUNTIME}.records import (\n"
        + "".join(f"    {r},\n" for r in records)
        + ")\n"
        + (f"from {FAMILY_RUNTIME}.vocab import (\n" + "".join(f"    {e},\n" for e in enums) + ")\n" if enums else ""),
        "from .ids import (\n"
        + "".join(f"    {enum},\n" for _, _, enum, _ in sorted(TABLES, key=lambda t: t[2]))
        + ")\n",
        used_makers(w.statements, ("PlayerRange", *records, *settings_classes(settings_types(FAMILY), "settings."))),
    ]
    return w.statements.rendered(head)


#: The public names of every package (RulesetPackage): tables of data.py, then helpers.
DATA_NAMES = (
    *(t[0] for t in TABLES),
    "BATTLE_HAND", "DRAFT", "ENTITY_FIELD_SOURCES", "ENTITY_SOURCES", "ID_ALIASES", "ID_ENUMS", "PLAYERS", "PYRAMID",
    "RESEARCH",
    "RULESET_FINGERPRINT", "RULESET_ID", "RULESET_NAME", "SETTINGS", "UNKNOWN_COLLECTIONS", "UNKNOWN_FACTS",
)  # fmt: skip
HELPER_NAMES = (
    "battle_hand_size", "canonical_id", "combat_bonus", "may_place_technology", "may_stand_on", "pyramid_needs",
    "require_complete", "research_cost", "trade_after_research", "unit_cost", "unlocked_by", "unlocks_of",
    "upgrade_of", "victories_met", "wonder_cost", "assuming",
)  # fmt: skip
ID_NAMES = tuple(sorted(t[2] for t in TABLES))
ERROR_NAMES = ("DraftRulesetError", "UnknownFactError", "UnknownIdError")


def _examples(ruleset: CivilizationRuleset) -> dict[str, Any]:
    """Worked examples for the helpers' docstrings, computed by the compiler (doctests check them)."""
    out: dict[str, Any] = {"research": None, "unit": None, "wonder": None, "hand": None, "bonus": None}
    costs = rules.research_costs(ruleset)
    if 2 in costs:
        trade = costs[2] + 7
        with contextlib.suppress(rules.CannotJudgeError):
            out["research"] = (2, costs[2], trade, rules.trade_after_research(ruleset, 2, trade, 4))
    for unit in ruleset.unit_types:
        for rank in unit.ranks:
            if isinstance(rank.cost, int):
                out["unit"] = (unit.id, rank.rank, rank.cost)
                break
        if out["unit"]:
            break
    for wonder in ruleset.wonders:
        if wonder.discount is not None and isinstance(wonder.cost, int):
            out["wonder"] = (wonder.id, wonder.cost, wonder.discount.technology, wonder.discount.cost)
            break
    with contextlib.suppress(rules.CannotJudgeError):
        out["hand"] = (2, rules.battle_hand_size(ruleset, 2))
    out["bonus"] = rules.combat_bonus(ruleset, defending="defending_capital", walled=True)
    return out


def render_package(ruleset: CivilizationRuleset, exported: Mapping[str, Any]) -> PackageFiles:
    """Every file of the ruleset's distribution, by path relative to ``generated/python/``."""
    stamp = fingerprint(exported)  # once: it encodes and hashes every exported fact
    all_names = public_names(DATA_NAMES, ID_NAMES, ERROR_NAMES, HELPER_NAMES)
    context = {
        "ruleset": ruleset,
        "names": names_paragraph(ruleset),
        "package": import_name(ruleset.id),
        "runtime": RUNTIME,
        "family_runtime": FAMILY_RUNTIME,
        "member": member,
        "draft": ruleset.draft,
        "examples": _examples(ruleset),
        "tables": [(enum, ENUM_DOCS[enum], list(getattr(ruleset, coll))) for _, coll, enum, _ in TABLES],
        "id_names": ID_NAMES,
        "data_names": sorted(DATA_NAMES, key=str.lower),
        "helper_names": sorted(HELPER_NAMES, key=str.lower),
        "all_names": all_names,
    }
    return package_files(
        environment(),
        ruleset.id,
        ruleset.name,
        FAMILY_ID,
        stamp,
        context,
        data_module(ruleset, exported, stamp),
        base_ruleset=ruleset.extends,
        family_runtime_version=FAMILY_RUNTIME_VERSION,
    )


def render_runtime() -> dict[str, bytes]:
    """The family's runtime distribution, by path relative to ``generated/python/``."""
    return family_runtime(
        FAMILY_ID, "Sid Meier's Civilization", FAMILY_RUNTIME_SOURCES, FAMILY_RUNTIME_FILES, FAMILY_RUNTIME_VERSION
    )
