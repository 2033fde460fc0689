"""`civrules build`: the typed, installable engine package of an Imperial Settlers ruleset.

``generated/python/<package>/`` is a distribution of one import package that needs only the
standard library, the shared runtime ``civrules_runtime`` and this family's runtime
``civrules_runtime_imperial_settlers`` (``generated/python/civrules_runtime_imperial_settlers/``,
from ``runtime/`` beside this module: the records, vocabularies, rule logic and the
:class:`RulesetPackage` protocol every package of the family satisfies). The data module is
written by :mod:`civrules.emit.pyfmt`, already laid out as ``ruff format`` lays it out; every
string from the data is a quoted literal, so no name can break the code.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
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
from civrules.emit.pyfmt import Code, Module, Node, Source, call, dct, lazy_dct, record_call, string, tup, used_makers
from civrules.emit.runtimes import PackageFiles, family_runtime, package_files, public_names
from civrules.emit.settings_types import settings_classes, settings_types, settings_value
from civrules.emit.sheets.languages import names_paragraph
from civrules.emit.templating import template_environment
from civrules.families.imperial_settlers import FAMILY
from civrules.families.imperial_settlers.export import expanded_decks
from civrules.families.imperial_settlers.model import Card, Counted, Gives, Goods, ImperialSettlersRuleset, Step
from civrules.model import Unknown

#: The family's runtime: its import name, distribution name, version, and its sources (``runtime/``).
FAMILY_RUNTIME = family_runtime_package(FAMILY.id)
FAMILY_RUNTIME_DISTRIBUTION = family_runtime_distribution(FAMILY.id)
#: 2.7.2: the same API; a docstring on ``logic.card_cost``, the one public function without one; an
#: ``Action``'s ``price`` and a ``PhaseStep``'s ``draw`` and ``reveal``, given as dicts by an engine,
#: are held as FrozenMaps (the record held the caller's dict and did not hash).
#: 2.7.3: the same API; each record or protocol name the runtime's ``__getattr__`` finds is bound
#: at its first read (every read called it: 0.75 us, against a global lookup); its vocabularies
#: refuse a value they lack with UnknownIdError naming the closest (a ValueError, as Enum's), and a
#: member's name they lack naming the closest member (``errors.IdEnumType``); ``dir()`` of the runtime
#: lists its records and protocol before a read binds one (``mock.create_autospec`` missed them).
#: Also (same step, unreleased): its pyproject.toml names ``dev-mode-dirs``, so ``pip install -e``
#: puts generated/python/ on sys.path, not the runtime's own folder (which made its modules
#: top-level ones, ``import records``, and left the runtime unimportable).
#: 2.7.4: the same API, on civrules-runtime 2.19: its ``__init__``'s ``__getattr__`` and ``__dir__``
#: are the shared runtime's ``lazy_names`` (the three family runtimes had one copy each), and each
#: record class's ``replace`` is declared with ``typed_replace``, so ``inspect.signature`` and
#: ``help()`` read its fields keyword-only with their types (they read ``(*args, **changes)``).
#: Also (same step, unreleased): its refusals show an id enum's member given for an id as the id
#: (``errors.shown``: ``'com001'``, where they said ``<CardId.COM001: 'com001'>``); a card given to
#: ``card_of`` is told its printed ids, and a record of another table is not told to give its id.
#: Also (same step, unreleased): its pyproject.toml declares the sdist's files (the wheel's, not whatever else lies in
#: the folder), ignores a `.gitignore` above the folder (one naming `data.py` emptied it), and
#: gives its docstring as the long description; an empty `.gitignore` and `.hgignore` beside it
#: keep a checkout's own out of the sdist.
#: 2.7.5 (round 36): an id whose own ``__hash__`` or ``__eq__`` fails is no id
#: (UnknownIdError), as an unhashable one: the caller's exception came out of the lookup.
FAMILY_RUNTIME_VERSION = "2.7.5"
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

#: The id enums of a package: enum name, collection, what it holds.
ID_ENUMS = (
    ("ActionId", "actions", "Actions of the action phase."),
    ("CardId", "cards", "Cards (one per card, whatever its copies): the first printed id in lower case."),
    ("ColourId", "colours", "Colours (types) of locations."),
    ("DeckId", "decks", "Decks."),
    ("FactionId", "factions", "Factions."),
    ("GoodId", "goods", "Goods."),
    ("PhaseId", "phases", "Phases of a round, in order."),
)
ID_NAMES = tuple(name for name, _, _ in ID_ENUMS)
#: The public names of every package (RulesetPackage): tables of data.py, then helpers.
DATA_NAMES = (
    "ACTIONS", "CARDS", "CARD_ANATOMY", "COLOURS", "COMPONENTS", "DECKS", "DECK_CARDS", "DECK_RULE", "DRAFT",
    "ENTITY_FIELD_SOURCES", "ENTITY_SOURCES", "FACTIONS", "GENERAL_RULES", "GOODS", "ID_ALIASES", "ID_ENUMS",
    "LOCATION_KINDS", "PHASES",
    "PHASE_ORDER", "PLAYERS", "PRINTED_IDS", "ROUNDS", "RULESET_FINGERPRINT", "RULESET_ID", "RULESET_NAME", "SCORING",
    "SETTINGS", "SOLO_ACHIEVEMENTS", "STARTING_HAND", "UNKNOWN_COLLECTIONS", "UNKNOWN_FACTS",
)  # fmt: skip
#: The tables of each collection of the rule data (a derived table is unknown with its collection),
#: for UNKNOWN_COLLECTIONS.
COLLECTION_TABLES = {
    "actions": ("ACTIONS",),
    "cards": ("CARDS", "PRINTED_IDS"),
    "decks": ("DECKS", "DECK_CARDS"),
    "factions": ("FACTIONS",),
    "goods": ("GOODS",),
    "phases": ("PHASES", "PHASE_ORDER"),
    "colours": ("COLOURS",),
    "location_kinds": ("LOCATION_KINDS",),
    "card_anatomy": ("CARD_ANATOMY",),
    "components": ("COMPONENTS",),
    "general_rules": ("GENERAL_RULES",),
}
HELPER_NAMES = (
    "board_score", "build_gains", "build_samurai", "can_pay", "canonical_id", "card_of", "deck", "missing_to_pay",
    "production", "raze_price", "require_complete", "solo_achievement", "worker_exchange", "assuming",
)  # fmt: skip
ERROR_NAMES = ("DraftRulesetError", "UnknownFactError", "UnknownIdError")


def environment() -> jinja2.Environment:
    # Python source, not HTML: every data value goes through `lit` (or `doc` in docstrings).
    env = template_environment("python", autoescape=False, family=FAMILY.package)
    env.filters["lit"] = lit
    env.filters["doc"] = doc
    return env


def member(value: str) -> str:
    """The enum member name of an id (refused, R900, where it would be no Python name)."""
    return enum_member(value.upper(), value)


def lit(value: Any) -> str:
    """A Python literal for plain data (strings, numbers, bools, None, tuples); unknown is None."""
    if isinstance(value, Unknown) or value is None:
        return "None"
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, str):
        return string(value).flat()
    if isinstance(value, int):
        return repr(value)
    if isinstance(value, (tuple, list)):
        return tup([Code(lit(v)) for v in value]).flat()
    raise TypeError(f"no literal for {type(value).__name__}")


def doc(value: str) -> str:
    """Free text for inside a docstring: backslashes and double quotes escaped."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _name(name: str | Unknown) -> Node:
    return Code("None") if isinstance(name, Unknown) else string(name)


def _goods(goods: Goods | None) -> Node:
    if goods is None or isinstance(goods, Unknown):
        return Code("None")
    return tup([string(g) for g in goods])


def _gives(gives: Gives | None) -> Node:
    """Goods, or a CountedGoods record where they depend on the player's empire."""
    if not isinstance(gives, Counted):
        return _goods(gives)
    return record_call(
        "CountedGoods",
        string(gives.each),
        string(gives.per),
        string(gives.colour) if gives.colour is not None else Code("None"),
        Code(repr(gives.at_most)),
        **({"plus": _strings(gives.plus)} if gives.plus else {}),
        rules=_strings(_cited(gives.rules, gives.source)),
    )


def _text(item: str | Unknown | None) -> Node:
    return string(" ".join(item.split())) if isinstance(item, str) else Code("None")


def _strings(items: Iterable[str]) -> Node:
    return tup([string(i) for i in items])


def _mapping(items: list[tuple[Node, Node]]) -> Node:
    return call("FrozenMap", dct(items)) if items else Code("FrozenMap({})")


def _given(**fields: Any) -> dict[str, Node]:
    """Keyword arguments for the fields the data writes (a record's default stands for the rest)."""
    return {name: _plain(item) for name, item in fields.items() if item is not None}


def _plain(item: Any) -> Node:
    if isinstance(item, str):
        return _text(item)
    if isinstance(item, tuple):
        return tup([_plain(i) for i in item])
    return Code(repr(item))


def _step(step: Step) -> Node:
    """One step of a phase in full: its draws and reveals as read-only mappings."""
    pairs = {"draw": step.draw, "reveal": step.reveal}
    return record_call(
        "PhaseStep",
        Code(repr(step.number)),
        _text(step.text),
        **{name: _mapping([(string(k), _plain(v)) for k, v in items]) for name, items in pairs.items() if items},
        **_given(pick=step.pick, source_of_goods=step.source_of_goods),
    )


def _card(card: Card) -> Node:
    kwargs: dict[str, Node] = {
        "id": string(card.id),
        "name": _name(card.name),
        "kind": string(card.kind),
        "colours": _strings(card.colours),
        "deck": string(card.deck) if card.deck is not None else Code("None"),
        "printed_ids": _strings(card.printed_ids),
        "copies": Code(repr(card.copies)),
        "cost": _goods(card.cost),
    }
    if card.spoils is not None:
        kwargs["spoils"] = _goods(card.spoils)
    if card.deal is not None:
        kwargs["deal"] = _text(card.deal)
    if card.production is not None:
        kwargs["production"] = _gives(card.production)
    if card.build_bonus is not None:
        kwargs["build_bonus"] = _gives(card.build_bonus)
    if card.build_bonus_placed_as is not None:
        kwargs["build_bonus_placed_as"] = string(card.build_bonus_placed_as)
    if card.differing_copies:
        kwargs["differing_copies"] = tup(
            [
                record_call(
                    "CopyFacts",
                    string(c.printed_id),
                    **{
                        key: node
                        for key, value, node in (
                            ("cost", c.cost, _goods(c.cost)),
                            ("spoils", c.spoils, _goods(c.spoils)),
                            ("deal", c.deal, _text(c.deal)),
                        )
                        if value is not None
                    },
                )
                for c in card.differing_copies
            ]
        )
    if not card.can_be_razed:
        kwargs["can_be_razed"] = Code("False")
    if card.activations_per_round != 1:
        kwargs["activations_per_round"] = Code(repr(card.activations_per_round))
    if card.source_name is not None:
        kwargs["source_name"] = record_call("SourceName", string(card.source_name[0]), string(card.source_name[1]))
    kwargs["rules"] = _strings(_cited(card.rules, card.source))
    if isinstance(card.effect, str):
        kwargs["effect"] = string(card.effect)
    return record_call("Card", **kwargs)


def _cited(rules: tuple[str, ...], source: str | None) -> tuple[str, ...]:
    return rules + ((" ".join(source.split()),) if source is not None else ())


class _Writer:
    def __init__(self) -> None:
        self.statements = Source()

    def add(self, comment: str | None, target: str, value: Node) -> None:
        text = "".join(f"#: {line}\n" for line in comment.splitlines()) if comment else ""
        self.statements.statement(text, target, value)


def data_module(ruleset: ImperialSettlersRuleset, exported: Mapping[str, Any], stamp: str | None = None) -> Module:
    """The source of ``data.py``: every table of the ruleset, typed with the runtime's records, and
    what it declares as written; ``stamp`` is ``fingerprint(exported)`` when the caller has it already."""
    w = _Writer()
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
        Code(repr(ruleset.status == "draft")),
    )
    w.add(
        "Every fact the sources do not give: the data file, the field, and why.",
        "UNKNOWN_FACTS: Final[tuple[UnknownFact, ...]]",
        tup([record_call("UnknownFact", string(f), string(p), string(r)) for f, p, r in ruleset.unknown_fact_list()]),
    )
    w.add(
        "Ids a source spells differently, with the id this package uses for the same thing (none here).",
        "ID_ALIASES: Final[Mapping[str, str]]",
        Code("FrozenMap({})"),
    )
    w.add(
        "The id enum of each collection, for engines that handle ids generically.",
        "ID_ENUMS: Final[Mapping[str, type[StrEnum]]]",
        _mapping([(string(collection), Code(enum)) for enum, collection, _ in ID_ENUMS]),
    )
    w.add(
        "Every card by id, with its copies; name None where no source in the edition's language names it.",
        "CARDS: Final[Mapping[str, Card]]",
        call("FrozenMap", lazy_dct(len(ruleset.cards), lambda: ((string(c.id), _card(c)) for c in ruleset.cards)))
        if ruleset.cards
        else Code("FrozenMap({})"),
    )
    w.add(
        "The card of each printed id (each copy's id: BAR001, BAR002 ...).",
        "PRINTED_IDS: Final[Mapping[str, str]]",
        _mapping([(string(p), string(card.id)) for card in ruleset.cards for p in card.printed_ids]),
    )
    w.add(
        "The decks: printed code, size, faction (None: the common deck).",
        "DECKS: Final[Mapping[str, Deck]]",
        _mapping(
            [
                (
                    string(d.id),
                    record_call(
                        "Deck",
                        string(d.id),
                        _name(d.name),
                        string(d.prefix),
                        Code(repr(d.size)),
                        string(d.faction) if d.faction is not None else Code("None"),
                    ),
                )
                for d in ruleset.decks
            ]
        ),
    )
    w.add(
        "Each deck as a game uses it, one printed id per copy (a faction's custom deck where the ruleset\n"
        "uses one in place of its printed deck).",
        "DECK_CARDS: Final[Mapping[str, tuple[str, ...]]]",
        _mapping([(string(deck), _strings(ids)) for deck, ids in expanded_decks(ruleset).items()]),
    )
    w.add(
        "The factions: deck, what the board produces each production phase, what it lets a player store.",
        "FACTIONS: Final[Mapping[str, Faction]]",
        _mapping(
            [
                (
                    string(f.id),
                    record_call(
                        "Faction",
                        string(f.id),
                        _name(f.name),
                        string(f.deck),
                        _goods(f.production),
                        _goods(f.storage),
                        _strings(_cited(f.rules, f.source)),
                        special_rules=tup(
                            [
                                record_call(
                                    "FactionRule",
                                    string(r.id),
                                    _text(r.text),
                                    _strings(r.cards),
                                    **_given(at_most_per_location=r.at_most_per_location),
                                    rules=_strings(_cited(r.rules, r.source)),
                                )
                                for r in f.special_rules
                            ]
                        ),
                    ),
                )
                for f in ruleset.factions
            ]
        ),
    )
    w.add(
        "The goods; stands_for: the goods one may pay in place of (gold for any resource, p3).",
        "GOODS: Final[Mapping[str, Good]]",
        _mapping(
            [
                (
                    string(g.id),
                    record_call(
                        "Good",
                        string(g.id),
                        _name(g.name),
                        Code(repr(g.resource)),
                        Code(repr(g.token)),
                        _strings(g.stands_for),
                    ),
                )
                for g in ruleset.goods
            ]
        ),
    )
    w.add(
        "The actions of the action phase: price, whether allowed, extras per defence token and Samurai.",
        "ACTIONS: Final[Mapping[str, Action]]",
        _mapping(
            [
                (
                    string(a.id),
                    record_call(
                        "Action",
                        string(a.id),
                        _name(a.name),
                        _mapping([(string(k), Code(repr(v))) for k, v in sorted(a.price.items())]),
                        allowed=Code(repr(a.allowed)),
                        extra_per_defence=Code(repr(a.extra_per_defence)),
                        extra_per_samurai=Code(repr(a.extra_per_samurai)),
                        gives_one_of=_strings(a.gives_one_of),
                        rules=_strings(a.rules),
                        **_given(
                            pays=a.pays,
                            cards=a.cards,
                            gives=a.gives,
                            becomes=a.becomes,
                            owner_gains=a.owner_gains or None,
                            activations_per_round=a.activations_per_round,
                        ),
                    ),
                )
                for a in ruleset.actions
            ]
        ),
    )
    phases = sorted(ruleset.phases, key=lambda p: p.order)
    w.add(
        "The phases of a round, with their steps in words.",
        "PHASES: Final[Mapping[str, Phase]]",
        _mapping(
            [
                (
                    string(p.id),
                    record_call(
                        "Phase",
                        string(p.id),
                        _name(p.name),
                        Code(repr(p.order)),
                        _strings(step.text for step in p.phase_steps),
                        skipped_in_last_round=Code(repr(p.skipped_in_last_round)),
                        rules=_strings(p.rules),
                        step_facts=tup([_step(step) for step in p.phase_steps]),
                    ),
                )
                for p in phases
            ]
        ),
    )
    for constant, record, doc, items in (
        ("COLOURS", "Colour", "The colours (types) of location cards (p4).", ruleset.colours),
        (
            "LOCATION_KINDS",
            "LocationRow",
            "The kinds of location and the row of an empire each goes in (p4).",
            ruleset.location_kinds,
        ),
        ("CARD_ANATOMY", "CardPart", "The parts of a card and the side each is printed on (p4).", ruleset.card_anatomy),
        (
            "GENERAL_RULES",
            "GeneralRule",
            "The rules that hold throughout the game, in the data's words.",
            ruleset.general_rules,
        ),
    ):
        w.add(
            doc,
            f"{constant}: Final[Mapping[str, {record}]]",
            _mapping(
                [
                    (
                        string(f.id),
                        record_call(
                            record,
                            string(f.id),
                            _name(f.name),
                            **_given(row=f.row, side=f.side, text=f.text if record == "GeneralRule" else None),
                        ),
                    )
                    for f in items
                ]
            ),
        )
    w.add(
        "The components of the box: how many (or the fewest) of each (p2).",
        "COMPONENTS: Final[Mapping[str, Component]]",
        _mapping(
            [
                (
                    string(c.id),
                    record_call("Component", string(c.id), _name(c.name), **_given(count=c.count, minimum=c.minimum)),
                )
                for c in ruleset.components
            ]
        ),
    )
    w.add(
        "The cards each player draws before the first round, by deck (common, faction; p5): the\n"
        "setting `starting_hand` typed (empty where the ruleset does not give it).",
        "STARTING_HAND: Final[Mapping[str, int]]",
        _mapping([(string(deck), Code(repr(n))) for deck, n in ruleset.starting_hand().items()]),
    )
    w.add("The phases in their order.", "PHASE_ORDER: Final[tuple[str, ...]]", _strings(p.id for p in phases))
    rounds = ruleset.rounds()
    w.add("How many rounds a game lasts (None: not in the sources).", "ROUNDS: Final[int | None]", Code(repr(rounds)))
    scoring = ruleset.scoring()
    w.add(
        "The VP of each location in an empire at the end of the game (p7).",
        "SCORING: Final[Scoring | None]",
        Code("None")
        if scoring is None
        else record_call("Scoring", Code(repr(scoring.common_location_vp)), Code(repr(scoring.faction_location_vp))),
    )
    table = ruleset.solo_table()
    levels = [level for level in table.levels if level is not None and level.id is not None] if table else []
    w.add(
        "The solo game's achievement table (p14), lowest level first.",
        "SOLO_ACHIEVEMENTS: Final[tuple[SoloLevel, ...] | None]",
        tup(
            [
                record_call(
                    "SoloLevel",
                    string(str(level.id)),
                    string(level.name) if level.name is not None else Code("None"),
                    **({"at_least": Code(repr(level.at_least))} if level.at_least is not None else {}),
                    **({"below": Code(repr(level.below))} if level.below is not None else {}),
                )
                for level in levels
            ]
        )
        if levels
        else Code("None"),
    )
    rule = ruleset.deck_building()
    w.add(
        "The deck-building rule (p12): deck size, (copies, cards) pattern, every copy in or none.",
        "DECK_RULE: Final[DeckRule | None]",
        Code("None")
        if rule is None
        else record_call(
            "DeckRule",
            Code(repr(rule.size)),
            tup([tup([Code(repr(c)), Code(repr(n))]) for c, n in sorted(rule.pattern.items(), reverse=True)]),
            Code(repr(rule.all_copies)),
        ),
    )
    w.add(
        "Every ruleset-level rule as the data writes it (the settings of `civrules export`), as typed,\n"
        "read-only records (the runtime's `settings` module), each also the Mapping[str, object] it was\n"
        "before they were typed; unknown facts are None.",
        "SETTINGS: Final[settings.Settings]",
        settings_value(settings_types(FAMILY), exported.get("settings") or {}, "settings.", makers=True),
    )
    sources = [
        (string(f"{collection.name}.{entity.id}"), _strings(cited))
        for collection in ruleset.collections()
        for entity in collection
        if (cited := _cited(entity.rules, entity.source))
    ]
    w.add(
        'The rule sections (or secondary sources) each entity\'s entry cites, by "collection.id".',
        "ENTITY_SOURCES: Final[Mapping[str, tuple[str, ...]]]",
        _mapping(sources),
    )
    w.add(
        entity_sources.DOC,
        entity_sources.ANNOTATION,
        entity_sources.entity_field_sources(ruleset, lambda collection, entity: f"{collection}.{entity.id}"),
    )
    empty = sorted(
        table
        for collection, tables in COLLECTION_TABLES.items()
        if not tuple(getattr(ruleset, collection))
        for table in tables
    )
    w.add(
        "The tables that are empty because the sources do not give them (unknown, not none): every\n"
        "collection of this game has members, so an empty one is one the sources leave out (see\n"
        "SETTINGS['not_in_sources'] and UNKNOWN_FACTS).",
        "UNKNOWN_COLLECTIONS: Final[frozenset[str]]",
        call("OrderedFrozenSet", tup([string(table) for table in empty])),
    )
    body = w.statements
    records = sorted(
        {"Action", "Card", "Deck", "DeckRule", "Faction", "Good", "Phase", "Scoring", "SoloLevel", "UnknownFact"}
        | {"CardPart", "Colour", "Component", "GeneralRule", "LocationRow"}
        | ({"FactionRule"} if "FactionRule(" in body else set())
        | ({"PhaseStep"} if "PhaseStep(" in body else set())
        | ({"CopyFacts"} if "CopyFacts(" in body else set())
        | ({"CountedGoods"} if "CountedGoods(" in body else set())
        | ({"SourceName"} if "SourceName(" in body else set())
    )
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
        f"from {FAMILY_RUNTIME}.records import (\n" + "".join(f"    {r},\n" for r in records) + ")\n",
        "from .ids import (\n" + "".join(f"    {i},\n" for i in ID_NAMES) + ")\n",
        used_makers(w.statements, ("PlayerRange", *records, *settings_classes(settings_types(FAMILY), "settings."))),
    ]
    return body.rendered(head)


def _list(goods: Iterable[str]) -> str:
    """A list display of goods, for a docstring's example."""
    return "[" + ", ".join(string(g).flat() for g in goods) + "]"


def _examples(ruleset: ImperialSettlersRuleset) -> dict[str, Any]:
    """Worked examples for the helpers' docstrings, computed by the compiler (doctests check them)."""
    from civrules.families.imperial_settlers.rules import (
        board_score,
        build_gains,
        build_samurai,
        can_pay,
        raze_price,
        solo_achievement,
        worker_exchange,
    )

    out: dict[str, Any] = {}
    card = next((c for c in ruleset.cards if isinstance(c.cost, tuple) and "gold" not in c.cost and c.cost), None)
    if card is not None and isinstance(card.cost, tuple):
        paid = list(card.cost)
        short = [g if i else "gold" for i, g in enumerate(paid)] if paid[0] in ("wood", "stone", "food") else None
        out["pay"] = (card.id, _list(paid), can_pay(ruleset, card.id, paid))
        out["pay_gold"] = (card.id, _list(short), can_pay(ruleset, card.id, short)) if short else None
    try:
        out["raze"] = ("raze_opponent_location", raze_price(ruleset, "raze_opponent_location", defence=1))
    except LookupError:
        out["raze"] = None
    try:
        out["workers"] = (8, worker_exchange(ruleset, 8))
    except LookupError:
        out["workers"] = None
    try:
        out["score"] = (3, 2, 10, board_score(ruleset, 3, 2, 10))
    except LookupError:
        out["score"] = None
    try:
        out["solo"] = (45, solo_achievement(ruleset, 45).id)
    except LookupError:
        out["solo"] = None
    # p8: a production location gives its production at once when built (a faction's first)
    built = next(
        (
            (faction.id, card.id)
            for card in ruleset.cards
            if card.kind == "production" and isinstance(card.production, tuple)
            for faction in ruleset.factions
            if card.deck == faction.deck
        ),
        None,
    )
    try:
        out["build"] = (*built, dict(sorted(build_gains(ruleset, *built).items()))) if built else None
    except LookupError:
        out["build"] = None
    # p11: the Ninjas' bonus placed as Samurai, the card built the empire's only faction location
    placing = next(
        (
            (faction.id, card.id)
            for card in ruleset.cards
            if card.build_bonus_placed_as is not None and isinstance(card.build_bonus, tuple)
            for faction in ruleset.factions
            if card.deck == faction.deck
        ),
        None,
    )
    try:
        out["samurai"] = (*placing, build_samurai(ruleset, *placing)) if placing else None
    except (LookupError, ValueError):
        out["samurai"] = None
    first = next(iter(ruleset.decks), None)
    out["deck"] = (first.id, len(expanded_decks(ruleset)[first.id])) if first is not None else None
    return out


def render_package(ruleset: ImperialSettlersRuleset, exported: Mapping[str, Any]) -> PackageFiles:
    """Every file of the ruleset's distribution, by path relative to ``generated/python/``."""
    stamp = fingerprint(exported)  # once: it encodes and hashes every exported fact
    all_names = public_names(DATA_NAMES, ID_NAMES, ERROR_NAMES, HELPER_NAMES)
    collections = {c.name: c for c in ruleset.collections()}
    context = {
        "ruleset": ruleset,
        "names": names_paragraph(ruleset),
        "package": import_name(ruleset.id),
        "runtime": RUNTIME,
        "family_runtime": FAMILY_RUNTIME,
        "member": member,
        "draft": ruleset.status == "draft",
        "examples": _examples(ruleset),
        "enums": [(enum, what, [e.id for e in collections[collection]]) for enum, collection, what in ID_ENUMS],
        "id_names": ID_NAMES,
        "data_names": sorted(DATA_NAMES, key=str.lower),
        "helper_names": sorted(HELPER_NAMES, key=str.lower),
        "all_names": all_names,
    }
    return package_files(
        environment(),
        ruleset.id,
        ruleset.name,
        FAMILY.id,
        stamp,
        context,
        data_module(ruleset, exported, stamp),
        base_ruleset=ruleset.extends,
        family_runtime_version=FAMILY_RUNTIME_VERSION,
    )


def render_runtime() -> dict[str, bytes]:
    """The family's runtime distribution, by path relative to ``generated/python/``."""
    return family_runtime(
        FAMILY.id, "Imperial Settlers", FAMILY_RUNTIME_SOURCES, FAMILY_RUNTIME_FILES, FAMILY_RUNTIME_VERSION
    )
