"""`civrules build`: typed, installable Python engine packages for a resolved ruleset.

``generated/python/<package>/`` is a distribution (``pip install generated/python/<package>``) of
one import package that needs only the standard library, the shared runtime ``civrules_runtime``
(its errors and the record base) and the family's runtime ``civrules_runtime_advanced_civilization``
(``generated/python/civrules_runtime_advanced_civilization/``, from ``runtime/`` beside this module:
the records, vocabularies, rule logic and the :class:`RulesetPackage` protocol every package of the
family satisfies). The data module is
written by :mod:`civrules.emit.pyfmt`, already laid out as ``ruff format`` lays it out; every
string from the data is a quoted literal, so no name can break the code.
"""

from __future__ import annotations

import ast
import contextlib
import functools
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import jinja2

from civrules.emit import entity_sources
from civrules.emit import players as player_range
from civrules.emit.export import fingerprint
from civrules.emit.packaging import (
    RUNTIME,
    PackageRefusedError,
    enum_member,
    family_runtime_distribution,
    family_runtime_package,
    import_name,
)
from civrules.emit.pyfmt import (
    Code,
    Module,
    Node,
    Source,
    Target,
    call,
    dct,
    frozen,
    lazy_dct,
    lazy_tup,
    record_call,
    string,
    tup,
    used_makers,
)
from civrules.emit.runtimes import PackageFiles, family_runtime, package_files, public_names
from civrules.emit.settings_types import settings_classes, settings_types, settings_value
from civrules.emit.sheets.languages import names_paragraph
from civrules.emit.templating import template_environment
from civrules.families.advanced_civilization import FAMILY
from civrules.families.advanced_civilization.calamities import modified_effects, resolution_order
from civrules.families.advanced_civilization.commodities import block_bonuses, deck_compositions, set_value_rule
from civrules.families.advanced_civilization.credits import credit_matrix
from civrules.families.advanced_civilization.mapgraph import LAND_KINDS, SEA_KINDS, adjacency
from civrules.families.advanced_civilization.model import (
    AstTrack,
    Attribute,
    Calamity,
    CalamityEffect,
    Card,
    Combination,
    Configuration,
    Effect,
    Epoch,
    Modifier,
    Phase,
    PurchaseEffect,
    Ruleset,
    SubActivity,
)
from civrules.families.advanced_civilization.succession import STANDARD_LEVEL, ast_levels, tracks_by_level
from civrules.load.document import Document
from civrules.model import Entity, Unknown
from civrules.support.memo import register, run_memo
from civrules.support.tracked import shared

#: The family's runtime: its import name, distribution name, version, and its sources (``runtime/``).
FAMILY_RUNTIME = family_runtime_package(FAMILY.id)
FAMILY_RUNTIME_DISTRIBUTION = family_runtime_distribution(FAMILY.id)
#: 2.10.2: the same API; a docstring on every public class and function (``help(Calamity)`` showed
#: only its constructor, ``help(Tax)`` the record base's words); ``CreditMatrix.credit_toward``
#: refuses a target that is no card (it answered 0) and a held that is no collection; an ``Epoch``
#: made by an engine with a dict of requirements holds a FrozenMap of them (it held the caller's
#: dict: the record changed with it and did not hash).
#: 2.10.3: the same API; each record or protocol name the runtime's ``__getattr__`` finds is bound
#: at its first read (every read called it: 0.75 us, against a global lookup); its vocabularies
#: refuse a value they lack with UnknownIdError naming the closest (a ValueError, as Enum's), and a
#: member's name they lack naming the closest member (``errors.IdEnumType``); ``dir()`` of the runtime
#: lists its records and protocol before a read binds one (``mock.create_autospec`` missed them).
#: Also (same step, unreleased): its pyproject.toml names ``dev-mode-dirs``, so ``pip install -e``
#: puts generated/python/ on sys.path, not the runtime's own folder (which made its modules
#: top-level ones, ``import records``, and left the runtime unimportable).
#: Also (same step, unreleased, round 34): counts in its messages agree with their nouns
#: (``trade_problems``' "1 card given", "a game of 1 player"; ``CreditMatrix(1 card)``).
#: 2.10.4: the same API, on civrules-runtime 2.19: its ``__init__``'s ``__getattr__`` and ``__dir__``
#: are the shared runtime's ``lazy_names`` (the three family runtimes had one copy each), and each
#: record class's ``replace`` is declared with ``typed_replace``, so ``inspect.signature`` and
#: ``help()`` read its fields keyword-only with their types (they read ``(*args, **changes)``).
#: Also (same step, unreleased): ``calamities_suffered`` refuses an ``rng`` that is no generator (a
#: seed, ``rng=5``) whatever the hand (an AttributeError from inside on a hand over the limit), and
#: its refusals show an id enum's member given for an id as the id (``errors.shown``).
#: Also (same step, unreleased): its pyproject.toml declares the sdist's files (the wheel's, not whatever else lies in
#: the folder), ignores a `.gitignore` above the folder (one naming `data.py` emptied it), and
#: gives its docstring as the long description; an empty `.gitignore` and `.hgignore` beside it
#: keep a checkout's own out of the sdist.
#: Also (same step, unreleased): a refusal of a value whose repr fails (``trade_problems(..., 10**5000, ...)``,
#: a region or a role given as a list nested past the stack, such a value in an exported credit matrix)
#: raises the rule's error, where it raised the interpreter's ValueError or RecursionError.
#: Also (same step, unreleased): the comment of each settings field typed None (``Settings.nations``,
#: ``Ast.tracks``, ``NotInSources``'s) says it is always None and where the fact is read.
#: 2.10.5 refuses a calamity effect, modifier or combination that says its amount or mode is not in the
#: sources while giving it (``CALAMITY_COMBINATIONS[x].replace(mode=...)`` left ``mode_unknown``, which the
#: helpers read as unknown): the flag is cleared with the value (``_problem``).
#: Also (same step, unreleased): an id whose own ``__hash__`` or ``__eq__`` fails is no id
#: (UnknownIdError), as an unhashable one, in every lookup of an id (a vocabulary, a table, the credit
#: matrix's ``in``): the caller's exception came out of some helpers and a TypeError was "no id" in others.
#: Also (same step, unreleased): ``CreditMatrix.from_export`` (and a pickle's or a call's parts) refuse
#: a credit line's points outside 1 to 1000 and a credit toward a card the matrix lacks, naming the part.
#: Also (same step, unreleased): a phase's fact given as a whole float (3.0) is refused as "a float, not an
#: int", where it said "not a whole number".
FAMILY_RUNTIME_VERSION = "2.10.5"
FAMILY_RUNTIME_SOURCES = Path(__file__).resolve().parent / "runtime"
FAMILY_RUNTIME_FILES = (
    "__init__.py",
    "assumptions.py",
    "bounds.py",
    "credits.py",
    "logic.py",
    "protocol.py",
    "records.py",
    "settings.py",
    "vocab.py",
)


@functools.cache
def vocabularies() -> frozenset[str]:
    """The names the family runtime's ``vocab`` module defines (read, not imported: the runtime
    imports ``civrules_runtime``, which the compiler does not install)."""
    return frozenset(vocabulary_members())


@functools.cache
def vocabulary_members() -> Mapping[str, frozenset[str]]:
    """The members of each enum of the family runtime's ``vocab`` module, by the enum's name (read,
    not imported)."""
    tree = ast.parse((FAMILY_RUNTIME_SOURCES / "vocab.py").read_text(encoding="utf-8"))
    return {
        node.name: frozenset(
            target.id
            for statement in node.body
            if isinstance(statement, ast.Assign)
            for target in statement.targets
            if isinstance(target, ast.Name)
        )
        for node in tree.body
        if isinstance(node, ast.ClassDef)
    }


def unwritable_members(ruleset: Ruleset, named: Iterable[tuple[str, str]]) -> str | None:
    """What of ``named`` (enum, id) the package of ``ruleset`` cannot name, said for the build's
    report; None when every member exists: an id of the ruleset's collection (its ``ids.py``), or a
    member of the runtime's vocabulary."""
    members: dict[str, frozenset[str]] = dict(vocabulary_members())
    collections = {collection.name: collection for collection in ruleset.collections()}
    missing: list[str] = []
    for enum, value in sorted(set(named)):
        if enum not in members:
            found = collections.get(ID_ENUMS.get(enum, ""))
            members[enum] = frozenset(member(i) for i in found.ids()) if found is not None else frozenset()
        if member(value) not in members[enum]:
            among = f"the ruleset's {ID_ENUMS[enum]}" if enum in ID_ENUMS else f"the runtime's {enum}"
            missing.append(f"`{enum}.{member(value)}` (`{value}` is not among {among})")
    if not missing:
        return None
    shown = ", ".join(missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
    return f"its package would name {shown} and fail at import: a reference no check reported"


def environment() -> jinja2.Environment:
    # Python source, not HTML: every data value goes through `lit` (or `doc` in docstrings).
    env = template_environment("python", autoescape=False, family=FAMILY.package)
    env.filters["lit"] = lit
    env.filters["doc"] = doc
    return env


def member(value: str) -> str:
    """The enum member name of an id (refused, R900, where it would be no Python name)."""
    return enum_member(value.upper(), value)


@run_memo(4096)
def _enum_code(enum: str, value: str) -> Code:
    """``Enum.MEMBER`` of the id ``value``: made once per run for each (a data module names the same
    few hundred ids thousands of times: mega-civilization's 13,700 times). Never changed once made."""
    return Code(f"{enum}.{member(value)}")


def lit(value: Any) -> str:
    """A Python literal for plain data, quoted as the formatter quotes: strings, numbers, bools,
    None, and tuples of those. Unknown facts become None."""
    kind = type(value)  # the exact types first: most values are, and isinstance asks each class in turn
    if kind is str:
        return string(value).flat()
    if kind is int:
        return repr(value)
    if isinstance(value, Unknown) or value is None:
        return "None"
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, str):
        return string(value).flat()
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (tuple, list)):
        return tup([Code(lit(v)) for v in value]).flat()
    raise TypeError(f"no literal for {type(value).__name__}")


def doc(value: str) -> str:
    """Free text for inside a docstring: backslashes and double quotes escaped, so that no text
    (a name holding `\"\"\"`, or ending in a backslash) can end the docstring or break it."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


# --- The data module ---------------------------------------------------------------------------


class _Writer:
    """Builds the data module's statements, remembering which runtime names they use."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.runtime: set[str] = set()
        self.statements = Source()

    def rt(self, name: str) -> str:
        """A name of the runtime (records, vocabularies), imported by the module."""
        self.runtime.add(name)
        return name

    def member(self, enum: str, value: str | None) -> Node:
        """``Enum.MEMBER`` of a shared vocabulary, or None."""
        if value is None:
            return Code("None")
        _named(enum, value)
        return _enum_code(self.rt(enum), value)

    def add(self, comment: str | None, target: str, value: Node) -> None:
        text = "".join(f"#: {line}\n" for line in comment.splitlines()) if comment else ""
        self.statements.statement(text, target, value)

    def add_same(self, key: str, comment: str | None, target: str, make: Callable[[], Node]) -> None:
        """:meth:`add` of ``make()``, written once per process for the same ``key`` (see :data:`_WRITTEN`).

        ``key`` must say everything the statement is made of (the exact facts it writes, by their
        ``repr``, which tells ``True`` from ``1`` and a string from a number); the runtime names
        the statement used are remembered with its source and recorded again when it is reused, and
        so are the enum members it names (:func:`_naming`)."""
        found = _WRITTEN.get((target, comment, key))
        if found is not None:
            chunk, declares, used, named = found
            self.statements.extend((chunk,), declares)
            self.runtime.update(used)
            if _NAMING:
                _NAMING[-1].update(named)
            return
        outer, self.runtime = self.runtime, set()
        try:
            with _naming() as naming:
                self.add(comment, target, make())
            used = frozenset(self.runtime)
        finally:
            self.runtime = outer | self.runtime
        chunk = self.statements.chunks[-1]
        declares = None if self.statements.targets is None else self.statements.targets[-1:]
        if len(chunk) <= _WRITTEN_MAX_BYTES and len(key) <= _WRITTEN_MAX_BYTES:
            if len(_WRITTEN) >= _WRITTEN_ENTRIES:
                del _WRITTEN[next(iter(_WRITTEN))]
            _WRITTEN[(target, comment, key)] = (chunk, declares, used, frozenset(naming))


#: The source of the map's large statements by what they are made of, kept for the process: a
#: variant that leaves its base's map alone writes the same AREAS, BORDERS and ADJACENCY (a chain
#: of 60 variants wrote them 61 times; they were two fifths of each data module). Bounded: a few
#: entries, none of a statement (or a key) over :data:`_WRITTEN_MAX_BYTES`, so a large map (50x)
#: is written as before and holds nothing after its build (the memory of issue 32, point 2).
_WRITTEN: dict[
    tuple[str, str | None, str], tuple[bytes, list[Target] | None, frozenset[str], frozenset[tuple[str, str]]]
] = {}
register(_WRITTEN)
_WRITTEN_ENTRIES = 12
_WRITTEN_MAX_BYTES = 512 * 1024


#: The enum members the statements being written name, as (enum, id): the innermost set is the
#: one being filled (see :func:`_naming`). :func:`data_module` refuses a module that names a member
#: its enum lacks (``CardId.MONARCHY`` for a card the ruleset does not have): it would not import.
_NAMING: list[set[tuple[str, str]]] = []


@contextlib.contextmanager
def _naming() -> Iterator[set[tuple[str, str]]]:
    """Collect the enum members named within the block (and give them to the enclosing block too)."""
    named: set[tuple[str, str]] = set()
    _NAMING.append(named)
    try:
        yield named
    finally:
        _NAMING.pop()
        if _NAMING:
            _NAMING[-1].update(named)


def _named(enum: str, value: str) -> None:
    if _NAMING:
        _NAMING[-1].add((enum, value))


def ref(enum: str, value: Any) -> Node:
    """An id enum member of the ruleset (``CardId.POTTERY``), or None for an unknown or absent id."""
    if not isinstance(value, str):
        return Code("None")
    _named(enum, value)
    return _enum_code(enum, value)


def refs(enum: str, values: Iterable[str] | Unknown | None) -> Node:
    if values is None or isinstance(values, Unknown):
        return Code("None")
    return tup([ref(enum, v) for v in values])


def value(item: Any) -> Node:
    """A literal of plain data; Unknown is None."""
    kind = type(item)  # by exact type first (most values are a str or an int), as lit does
    if kind is str:
        return string(item)
    if kind is int:
        return Code(repr(item))
    if isinstance(item, str):
        return string(item)
    if isinstance(item, (tuple, list)):
        return tup([value(i) for i in item])
    return Code(lit(item))


def name(entity_name: str | Unknown) -> Node:
    return Code("None") if isinstance(entity_name, Unknown) else string(entity_name)


def _int(item: Any) -> int | None:
    return item if isinstance(item, int) and not isinstance(item, bool) else None


def _cited(rules: tuple[str, ...], source: str | None) -> tuple[str, ...]:
    """The rule sections an entry cites, then its public source (where it has no rulebook text)."""
    return rules + ((" ".join(source.split()),) if source is not None else ())


def _words(text: str | None) -> Node:
    """A text of the data (whitespace of folded YAML joined), or None (absent or unknown)."""
    return string(" ".join(text.split())) if isinstance(text, str) else Code("None")


def mapping(items: list[tuple[Node, Node]], w: _Writer) -> Node:
    """A read-only mapping of the items."""
    return call(w.rt("FrozenMap"), dct(items)) if items else Code(f"{w.rt('FrozenMap')}({{}})")


#: Effect kinds: the runtime record of each.
EFFECT_RECORDS = {
    "immunity": "Immunity",
    "movement": "Movement",
    "population_limit": "PopulationLimit",
    "city_build": "CityBuild",
    "city_support": "CitySupport",
    "conflict": "Conflict",
    "turn_order": "TurnOrder",
    "tax": "Tax",
    "treasury": "Treasury",
    "commodity_exchange": "CommodityExchange",
    "trade_card_purchase": "TradeCardPurchase",
    "hand_limit": "HandLimitChange",
    "commodity_value": "CommodityValue",
    "special_ability": "SpecialAbility",
    "credit_tokens": "CreditTokens",
    "victory_points": "VictoryPoints",
}

#: Effect parameters whose values are of a shared vocabulary: the runtime enum of each.
EFFECT_VOCABULARIES = {
    "against": "ImmunityAgainst",
    "targets": "Targets",
    "units": "MovementUnits",
    "where": "PopulationWhere",
    "from_treasury": "TreasuryShare",
    "aspect": "ConflictAspect",
    "activities": "Activity",
    "position": "TurnPosition",
    "goods": "Goods",
    "action": "AbilityAction",
    "phase": "AbilityPhase",
    "colours": "TokenColours",
}

#: Effect parameters that name cards (one id, or a list of ids).
EFFECT_CARDS = ("card", "unless_holding", "before_holders_of", "exempt_holders")


def _effect(effect: Effect, w: _Writer) -> Node:
    kwargs: dict[str, Node] = {}
    for key, item in effect.params.items():
        if key in EFFECT_CARDS:
            kwargs[key] = ref("CardId", item) if isinstance(item, str) else refs("CardId", item)
        elif effect.kind == "commodity_exchange" and key == "phase":
            kwargs[key] = string(item)
        elif key == "per_turn" and item == "unlimited":
            kwargs["unlimited"] = Code("True")
        elif key in EFFECT_VOCABULARIES:
            enum = EFFECT_VOCABULARIES[key]
            kwargs[key] = tup([w.member(enum, i) for i in item]) if isinstance(item, list) else w.member(enum, item)
        elif isinstance(item, list):
            kwargs[key] = tup([value(i) for i in item])
        else:
            kwargs[key] = string(item) if isinstance(item, str) else value(item)
    return record_call(w.rt(EFFECT_RECORDS[effect.kind]), **kwargs)


def _attribute(attribute: Attribute, w: _Writer) -> Node:
    links = [
        record_call(w.rt("CalamityLink"), ref("CalamityId", c.calamity), w.member("LinkEffect", c.effect))
        for c in attribute.calamities
    ]
    kwargs: dict[str, Node] = {
        "text": string(" ".join(attribute.text.split())),
        "rules": value(attribute.rules),
        "effects": tup([_effect(e, w) for e in attribute.effects]),
        "calamities": tup(links),
    }
    if attribute.source is not None:
        kwargs["source"] = string(attribute.source)
    return record_call(w.rt("Attribute"), **kwargs)


def _purchase_effect(effect: PurchaseEffect, w: _Writer) -> Node:
    kwargs: dict[str, Node] = {
        "kind": w.member("PurchaseKind", effect.kind),
        "text": string(" ".join(effect.text.split())),
        "rules": value(effect.cited),
    }
    for key, amount in (
        ("points", effect.points),
        ("max_cards", effect.max_cards),
        ("max_face_value_below", effect.max_face_value_below),
    ):
        if amount is not None:
            kwargs[key] = value(amount)
    if effect.colours is not None:
        kwargs["colours"] = w.member("TokenColours", effect.colours)
    if effect.next_turn:
        kwargs["next_turn"] = Code("True")
    if effect.groups is not None:
        kwargs["groups"] = tup([w.member("GroupId", g) for g in effect.groups])
    return record_call(w.rt("PurchaseEffect"), **kwargs)


def _card(card: Card, w: _Writer, made: dict[Any, Node]) -> Node:
    """``card``'s record; ``made`` keeps its credit lines, and the whole list, by what is written of
    them, for the cards that write the same (cards naming one list of credits through an alias)."""
    credits: Node = Code("None")
    if isinstance(card.credits, tuple):
        keys = tuple(
            [
                (type(line.points), line.points, line.group, line.card, line.extra, line.target_name)
                for line in card.credits
            ]
        )
        row = made.get(keys)
        if row is None:
            lines = []
            for key, line in zip(keys, card.credits, strict=True):
                node = made.get(key)
                if node is None:
                    node = made[key] = record_call(
                        w.rt("Credit"),
                        value(line.points),
                        w.member("GroupId", line.group),
                        ref("CardId", line.card),
                        *([Code("True")] if line.extra else []),
                        **({"target_name": string(line.target_name)} if line.target_name is not None else {}),
                    )
                lines.append(node)
            row = made[keys] = tup(lines)
        credits = row
    attributes: Node = Code("None")
    if isinstance(card.attributes, tuple):
        attributes = tup([_attribute(a, w) for a in card.attributes])
    groups = Code("None") if isinstance(card.groups, Unknown) else tup([w.member("GroupId", g) for g in card.groups])
    kwargs: dict[str, Node] = {
        "id": ref("CardId", card.id),
        "name": name(card.name),
        "groups": groups,
        "cost": value(card.cost),
        "prerequisites": refs("CardId", card.prerequisites),
        "credits": credits,
        "victory_points": value(card.victory_points),
        "attributes": attributes,
    }
    if card.purchase_effects:
        kwargs["purchase_effects"] = tup([_purchase_effect(e, w) for e in card.purchase_effects])
    kwargs["rules"] = value(card.rules)
    return record_call(w.rt("Card"), **kwargs)


def _calamity_effects(ruleset: Ruleset) -> list[dict[str, Any]]:
    """Per calamity: its effects, its modifiers (with what each states), combination and immunities."""
    out = []
    for calamity in ruleset.calamities:
        effects = [e for e in calamity.effects if e.id is not None]
        modifiers = []
        for modifier in calamity.modifiers:
            stated = modifier.stated
            if stated is None and modifier.effect == "nullifies" and modifier.amount is None:
                stated = 0
            modifiers.append(
                {
                    "modifier": modifier,
                    "effects": list(modified_effects(calamity, modifier)),
                    "stated": _int(stated),
                    "per_commodity": modifier.per_commodity if modifier.per_kind == "commodity_card" else None,
                    "per_any_commodity": modifier.per_kind == "any_commodity_card",
                    "per": modifier.per_kind
                    if modifier.per_kind not in ("commodity_card", "any_commodity_card")
                    else None,
                }
            )
        combination = calamity.combination if calamity.combination is not None else Combination(None, False)
        lost = calamity.unknown_parts
        out.append(
            {
                "id": calamity.id,
                "effects_known": not lost & {"effects", "primary", "secondary"},
                "modifiers_known": not lost & {"effects", "modifiers"},
                "immunities_known": not lost & {"effects", "immune"},
                "effects": effects,
                "modifiers": modifiers,
                "immunities": calamity.immune,
                "mode": calamity.modifier_combination,
                "mode_unknown": combination.mode_unknown is not None,
                "precedence": list(combination.precedence),
                "overrides": [(o.card, list(o.overrides)) for o in combination.overrides],
            }
        )
    return out


def _calamity_details(calamity: Calamity, w: _Writer) -> dict[str, Node]:
    beneficiary = calamity.beneficiary
    conditions = [c.condition for c in calamity.no_effect_when if c.condition is not None]
    out: dict[str, Node] = {
        "rules": value(calamity.rules + ((calamity.source,) if calamity.source is not None else ()))
    }
    out["copies"] = value(calamity.copies)
    if beneficiary is not None and beneficiary.selection is not None:
        out["beneficiary"] = string(beneficiary.selection)
    if conditions:
        out["no_effect_when"] = value(conditions)
    if beneficiary is not None:
        if beneficiary.overflow is not None:
            out["beneficiary_overflow"] = string(beneficiary.overflow)
        points = (beneficiary.city_unit_points, beneficiary.token_unit_points)
        if points[0] is not None and points[1] is not None:
            out["beneficiary_unit_points"] = value(points)
        if beneficiary.eligibility is not None:
            out["beneficiary_eligibility"] = _words(beneficiary.eligibility)
    bands = [
        record_call(
            w.rt("CopiesBand"),
            value(band.players_min),
            value(band.players_max),
            value(band.copies),
            value(_cited(band.rules, band.source)),
        )
        for band in calamity.copies_by_players
        if band.players_min is not None and band.players_max is not None and band.copies is not None
    ]
    if bands:
        out["copies_by_players"] = tup(bands)
    return out


def _effect_details(effect: CalamityEffect, w: _Writer) -> dict[str, Node]:
    out: dict[str, Node] = {}
    if effect.per_city is not None:
        out["per_city"] = value(effect.per_city)
    if effect.unit is not None:
        out["unit"] = w.member("CalamityUnit", effect.unit)
    # Who chooses may be written {unknown: why}: only a named role is a string.
    for key, said in (
        ("where", effect.where),
        ("condition", effect.condition),
        ("chosen_by", effect.chosen_by),
        ("allocated_by", effect.allocated_by),
        ("replaced_by", effect.replaced_by),
    ):
        if isinstance(said, str):
            out[key] = string(said)
    if effect.victim_count is not None:
        out["victim_count"] = value(effect.victim_count)
    if effect.constraints:
        out["constraints"] = value(effect.constraints)
    out["text"] = _words(effect.text)
    out["rules"] = value(_cited(effect.rules, effect.source))
    alternative = effect.alternative
    if alternative is not None:
        extra: dict[str, Node] = {}
        for key, flag in (("per_unit", alternative.per_unit), ("required_in_full", alternative.required_in_full)):
            if flag:
                extra[key] = Code("True")
        out["alternative"] = record_call(
            w.rt("CalamityAlternative"),
            w.member("CalamityKind", alternative.kind),
            value(alternative.amount),
            w.member("CalamityUnit", alternative.unit),
            **extra,
            text=_words(alternative.text),
            rules=value(_cited(alternative.rules, alternative.source)),
        )
    fallback = effect.fallback
    if fallback is not None:
        out["fallback"] = record_call(
            w.rt("CalamityFallback"),
            w.member("CalamityKind", fallback.kind),
            text=_words(fallback.text),
            rules=value(_cited(fallback.rules, fallback.source)),
        )
    if effect.chosen_by_if_not_traded is not None:
        out["chosen_by_if_not_traded"] = string(effect.chosen_by_if_not_traded)
    if effect.site is not None:
        out["site"] = string(effect.site)
    if effect.site_tie_broken_by is not None:
        out["site_tie_broken_by"] = string(effect.site_tie_broken_by)
    return out


def _modifier_details(modifier: Modifier, w: _Writer) -> dict[str, Node]:
    out: dict[str, Node] = {}
    if modifier.optional:
        out["optional"] = Code("True")
    out["text"] = _words(modifier.text)
    out["rules"] = value(_cited(modifier.rules, modifier.source))
    if modifier.adds_unit is not None:
        out["adds_unit"] = w.member("CalamityUnit", modifier.adds_unit)
    return out


def _hand_limit(ruleset: Ruleset, w: _Writer) -> Node:
    found = ruleset.hand_limit
    if found is None:
        return Code("None")
    changes = [
        tup([ref("CardId", c.card), value(c.change)])
        for c in found.card_changes
        if c.card is not None and c.change is not None
    ]
    bands = [
        record_call(
            w.rt("HandLimitBand"),
            value(band.players_min),
            value(band.players_max),
            value(band.commodity_cards),
            value(_cited(band.rules, band.source)),
        )
        for band in found.by_players
        if band.players_min is not None and band.players_max is not None and band.commodity_cards is not None
    ]
    return record_call(
        w.rt("HandLimit"),
        commodity_cards=value(_int(found.commodity_cards)),
        card_changes=tup(changes),
        cumulative=value(found.cumulative),
        rules=value(_cited(found.rules, found.source)),
        **({"by_players": tup(bands)} if bands else {}),
    )


def _taxation(ruleset: Ruleset, w: _Writer) -> Node:
    found = ruleset.taxation
    if found is None:
        return Code("None")
    base = _int(found.tokens_per_city)
    changes = [
        record_call(
            w.rt("RateChange"), ref("CardId", change.card), value(change.raise_by or 0), value(change.lower_by or 0)
        )
        for change in found.rate_changes
        if change.card is not None
    ]
    if found.rate_card is not None and base is not None:
        rates = [r for r in found.rates or () if isinstance(r, int)]
        if rates:
            changes.append(
                record_call(
                    w.rt("RateChange"),
                    ref("CardId", found.rate_card),
                    value(max(rates) - base),
                    value(base - min(rates)),
                )
            )
    immune = found.revolt_immune_card
    return record_call(
        w.rt("Taxation"),
        tokens_per_city=value(base),
        rate_changes=tup(changes),
        cumulative=value(found.cumulative),
        revolt_immune_cards=tup([ref("CardId", immune)] if immune is not None else []),
        rules=value(_cited(found.rules, found.source)),
    )


def _scoring(ruleset: Ruleset, w: _Writer) -> Node:
    if ruleset.scoring is None:
        return Code("None")
    return tup(
        [
            record_call(
                w.rt("ScoringItem"),
                id=string(item.id),
                name=string(item.name) if item.name is not None else Code("None"),
                per=string(item.per) if item.per is not None else Code("None"),
                points=value(item.points),
                text=_words(item.text),
                rules=value(_cited(item.rules, item.source)),
            )
            for item in ruleset.scoring
        ]
    )


def _stack_setup(ruleset: Ruleset, w: _Writer) -> Node:
    steps = ruleset.trade_stacks.setup if ruleset.trade_stacks is not None else ()
    return tup(
        [
            record_call(w.rt("StackSetupStep"), string(str(step.step)), _words(step.text), value(step.rules))
            for step in steps
        ]
    )


def _unknown_facts(ruleset: Ruleset, w: _Writer) -> Node:
    from civrules.checks.unknowns import fact_field, unknown_facts

    # Raw by nature: an unknown fact may be anywhere in any document, and its field is named by
    # its path in the document as written (the same walk as the core's check Q006). Each document's
    # path is named once, not once per fact (mega-civilization's 194 facts lie in 5 files).
    relative: dict[int, str] = {}

    def relative_path(document: Document) -> str:
        found = relative.get(id(document))
        if found is None:
            found = relative[id(document)] = ruleset.file_name(document.file)
        return found

    return tup(
        [
            record_call(
                w.rt("UnknownFact"),
                string(relative_path(document)),
                string(fact_field(document, path, FAMILY)),
                string(" ".join(reason.split())),
            )
            for document, path, reason in unknown_facts(ruleset)
        ]
    )


def _entity_sources(ruleset: Ruleset) -> Node:
    items = []
    for collection in ruleset.collections():
        for entity in collection:
            cited = _cited(entity.rules, entity.source)
            key = _source_key(collection.name, entity)
            if cited and key is not None:
                items.append((string(key), value(cited)))
            if isinstance(entity, Phase) and key is not None:  # a limit with parts cites its own (Mega §8)
                own = _cited(entity.calamity_limit_rules, entity.calamity_limit_source)
                if own:
                    items.append((string(f"{key}.max_primary_calamities"), value(own)))
    return call("FrozenMap", dct(items)) if items else Code("FrozenMap({})")


def _source_key(collection: str, entity: Entity) -> str | None:
    """An entity's key in ENTITY_SOURCES and ENTITY_FIELD_SOURCES ("collection.id", a track's
    level after it); None for a border, which the package cites nowhere."""
    if collection == "borders":
        return None
    level = entity.level if isinstance(entity, AstTrack) else None
    return f"{collection}.{entity.id}" + (f".{level}" if isinstance(level, str) else "")


#: Ids a source spells differently from the id the rule data uses for the same thing, with the
#: canonical id (Mega Civilization's transcriptions, the Expansion Project's phase name).
ID_ALIASES = {
    "spice": "spices",
    "gemstones": "gems",
    "acquisition_of_civilization_advancements": "acquisition_of_civilization_cards",
}


#: The record types the data module's annotations name.
ANNOTATED = (
    "Area", "AstTrack", "BlockBonus", "Border", "Calamity", "CalamityEffect", "CalamityImmunity",
    "CalamityModifier", "Card", "Combination", "Commodity", "DeckBand", "Epoch", "Group", "HandLimit",
    "Nation", "Phase", "PlayerCount", "Region", "ScoringItem", "StackSetupStep", "Taxation", "TradeStack",
    "UnknownFact",
)  # fmt: skip

#: The ruleset's own id enums (ids.py), by the collection they enumerate.
ID_ENUMS = {
    "AreaId": "areas",
    "CalamityId": "calamities",
    "CardId": "civilization_cards",
    "CommodityId": "commodities",
    "EpochId": "epochs",
    "NationId": "nations",
    "PhaseId": "phases",
}


def _identity_tables(ruleset: Ruleset, exported: Mapping[str, Any], stamp: str, w: _Writer) -> None:
    """The ruleset's identity, completeness and ids: RULESET_*, DRAFT, UNKNOWN_FACTS, ID_ALIASES, ID_ENUMS."""
    w.add(None, "RULESET_ID: Final[str]", string(ruleset.id))
    w.add(None, "RULESET_NAME: Final[str]", string(ruleset.name))
    w.add(player_range.DOC, player_range.ANNOTATION, player_range.player_range(exported, ruleset, makers=True))
    w.add(
        "A hash of the resolved ruleset: changes whenever any fact changes.",
        "RULESET_FINGERPRINT: Final[str]",
        string(stamp),
    )
    w.add(
        "True when the ruleset is a draft: facts a game needs are missing (see UNKNOWN_FACTS).",
        "DRAFT: Final[bool]",
        value(ruleset.status == "draft"),
    )
    w.add(
        "Every fact the sources do not give: the data file, the field, and why.",
        "UNKNOWN_FACTS: Final[tuple[UnknownFact, ...]]",
        _unknown_facts(ruleset, w),
    )
    aliases = {a: c for a, c in ID_ALIASES.items() if any(c in coll for coll in ruleset.collections())}
    w.add(
        "Ids a source spells differently, with the id this package uses for the same thing.",
        "ID_ALIASES: Final[Mapping[str, str]]",
        mapping([(string(a), string(c)) for a, c in sorted(aliases.items())], w),
    )
    w.add(
        "The id enum of each collection, for engines that handle ids generically.",
        "ID_ENUMS: Final[Mapping[str, type[StrEnum]]]",
        mapping(
            [
                (string("groups"), Code(w.rt("GroupId"))),
                (string("civilization_cards"), Code("CardId")),
                (string("commodities"), Code("CommodityId")),
                (string("calamities"), Code("CalamityId")),
                (string("nations"), Code("NationId")),
                (string("epochs"), Code("EpochId")),
                (string("phases"), Code("PhaseId")),
                (string("areas"), Code("AreaId")),
                (string("border_kinds"), Code(w.rt("BorderKind"))),
            ],
            w,
        ),
    )


def _card_tables(ruleset: Ruleset, w: _Writer) -> None:
    """The civilization cards: GROUPS, CARDS and the derived CREDIT_MATRIX."""
    w.add(
        None,
        "GROUPS: Final[Mapping[str, Group]]",
        mapping(
            [
                (
                    w.member("GroupId", g.id),
                    record_call(
                        w.rt("Group"),
                        w.member("GroupId", g.id),
                        string(g.display_name),
                        value(g.colour),
                        value(g.shape),
                    ),
                )
                for g in ruleset.groups
            ],
            w,
        ),
    )
    made: dict[Any, Node] = {}
    # Each card made as it is written: a card's attributes are nodes of their own for every card
    # that names them, and cards aliasing one list of 200 attributes held 1.8 million of them at
    # the reader's node bound (900 cards: 390 MB for a 16 MB data module).
    w.add(
        None,
        "CARDS: Final[Mapping[str, Card]]",
        _lazy_mapping(len(ruleset.cards), lambda: ((ref("CardId", c.id), _card(c, w, made)) for c in ruleset.cards), w),
    )
    matrix = credit_matrix(ruleset)
    w.runtime.add("CreditMatrix")
    exported = matrix.export()
    policy = exported["policy"]
    # The same lines are made, and written flat, once: cards naming one list of 200 credit lines
    # through an alias made and flattened 141,000 of them at the reader's node bound (705 cards).
    lines_made: dict[tuple[Any, ...], Node] = {}
    rows_made: dict[tuple[tuple[Any, ...], ...], Node] = {}

    def credit_lines(lines: list[Mapping[str, Any]]) -> Node:
        keys = tuple([_credit_key(ln) for ln in lines])
        row = rows_made.get(keys)
        if row is None:
            made = []
            for key, line in zip(keys, lines, strict=True):
                node = lines_made.get(key)
                if node is None:
                    node = lines_made[key] = _credit_line(line)
                made.append(node)
            row = rows_made[keys] = tup(made)
        return row

    w.add(
        "Credit each owned card gives toward each other card under the ruleset's credit policy\n"
        "(every card has a row, empty when it gives no credit): stored as each card's groups and\n"
        "credit lines (points, group, card, extra) and computed per lookup."
        + (
            "\nA cell is what one card held alone gives: toward a card of two groups, which takes only\n"
            "its group whose credits held total most, a set of cards is not the sum of its cells\n"
            "(credit_toward totals each group over the cards held and takes the highest)."
            if policy["two_group_cards"] == "highest_group"
            else ""
        ),
        "CREDIT_MATRIX: Final[Mapping[str, Mapping[str, int]]]",
        call(
            "CreditMatrix",
            string(policy["same_target"]),
            value(policy["two_group_cards_known"]),
            dct([(ref("CardId", card), value(groups)) for card, groups in exported["groups"].items()]),
            dct(
                [
                    (
                        ref("CardId", card),
                        credit_lines(lines),
                    )
                    for card, lines in exported["credits"].items()
                ]
            ),
            # Written only where it is not what two_group_cards_known implies (both groups, or unknown).
            *([string(policy["two_group_cards"])] if policy["two_group_cards"] == "highest_group" else []),
        ),
    )


def _credit_key(line: Mapping[str, Any]) -> tuple[Any, ...]:
    """What :func:`_credit_line` writes of ``line``: two lines of the same key are written the same."""
    points = line["points"]
    return (type(points), points, line.get("group"), line.get("card"), bool(line.get("extra")))


def _credit_line(line: Mapping[str, Any]) -> Node:
    """A credit line of the package's matrix: (points, group, card, extra), the card as its id member."""
    card = line.get("card")
    target = ref("CardId", card) if card is not None else Code("None")
    return tup([value(line["points"]), value(line.get("group")), target, value(bool(line.get("extra")))])


def _commodity_tables(ruleset: Ruleset, w: _Writer) -> None:
    """The commodities and how a set is valued: SET_VALUE_FORMULA, MINING_EXTRA_CARDS, COMMODITIES."""
    rule = set_value_rule(ruleset)
    w.add(
        "How the ruleset values a set of commodity cards (None: not in the sources).",
        "SET_VALUE_FORMULA: Final[str | None]",
        value(rule.formula),
    )
    w.add(
        "How many cards Mining adds to one set (0: none).",
        "MINING_EXTRA_CARDS: Final[int]",
        value(rule.mining_extra_cards),
    )
    w.add(
        None,
        "COMMODITIES: Final[Mapping[str, Commodity]]",
        mapping(
            [
                (
                    ref("CommodityId", c.id),
                    record_call(
                        w.rt("Commodity"),
                        ref("CommodityId", c.id),
                        name(c.name),
                        value(c.value),
                        value(c.count),
                        value(c.stack),
                        value(c.mining),
                        w.member("Block", c.block if isinstance(c.block, str) else None),
                        *(
                            [tup([tup([w.member("Block", b), value(n)]) for b, n in c.block_counts])]
                            if c.block_counts is not None
                            else []
                        ),
                        **({"inferred": tup([value(f) for f in c.inferred])} if c.inferred else {}),
                        **({"name_language": value(c.name_language)} if c.name_language is not None else {}),
                    ),
                )
                for c in ruleset.commodities
            ],
            w,
        ),
    )


def _calamity_tables(ruleset: Ruleset, w: _Writer) -> None:
    """The calamities, their order, effects, the cards that change them and who is immune."""
    calamities = _calamity_effects(ruleset)
    w.add(
        None,
        "CALAMITIES: Final[Mapping[str, Calamity]]",
        mapping(
            [
                (
                    ref("CalamityId", c.id),
                    record_call(
                        w.rt("Calamity"),
                        ref("CalamityId", c.id),
                        name(c.name),
                        value(c.stack),
                        value(c.tradable),
                        w.member("Severity", c.severity),
                        **_calamity_details(c, w),
                    ),
                )
                for c in ruleset.calamities
            ],
            w,
        ),
    )
    w.add(
        "The order calamities are resolved in, derived from their stacks and trade status.",
        "CALAMITY_ORDER: Final[tuple[str, ...]]",
        tup([ref("CalamityId", c.id) for c in resolution_order(ruleset)]),
    )
    w.add(
        "Each calamity's effects, by calamity.",
        "CALAMITY_EFFECTS: Final[Mapping[str, tuple[CalamityEffect, ...] | None]]",
        mapping(
            [
                (
                    ref("CalamityId", c["id"]),
                    Code("None")
                    if not c["effects_known"]
                    else tup(
                        [
                            record_call(
                                w.rt("CalamityEffect"),
                                string(str(e.id)),
                                w.member("Role", e.side),
                                w.member("CalamityKind", e.kind),
                                value(_int(e.amount)),
                                value(e.all_but),
                                value(e.max_per_victim),
                                value(e.amount_unknown is not None),
                                **_effect_details(e, w),
                            )
                            for e in c["effects"]
                        ]
                    ),
                )
                for c in calamities
            ],
            w,
        ),
    )
    w.add(
        "The civilization cards' modifiers of each calamity, by calamity.",
        "CALAMITY_MODIFIERS: Final[Mapping[str, tuple[CalamityModifier, ...] | None]]",
        mapping(
            [
                (
                    ref("CalamityId", c["id"]),
                    Code("None")
                    if not c["modifiers_known"]
                    else tup(
                        [
                            record_call(
                                w.rt("CalamityModifier"),
                                card=ref("CardId", m["modifier"].card),
                                applies_to=w.member("AppliesTo", m["modifier"].applies_to),
                                effect=w.member("ModifierEffect", m["modifier"].effect),
                                effects=value(m["effects"]),
                                amount=value(_int(m["modifier"].amount)),
                                amount_unknown=value(isinstance(m["modifier"].amount, Unknown)),
                                stated=value(m["stated"]),
                                cap=value(m["modifier"].cap),
                                per_commodity=ref("CommodityId", m["per_commodity"]),
                                adds=value(m["modifier"].adds),
                                becomes_kind=w.member("CalamityKind", m["modifier"].becomes_kind),
                                per_any_commodity=value(m["per_any_commodity"]),
                                per=value(m["per"]),
                                adds_kind=w.member("CalamityKind", m["modifier"].adds_kind),
                                **_modifier_details(m["modifier"], w),
                            )
                            for m in c["modifiers"]
                        ]
                    ),
                )
                for c in calamities
            ],
            w,
        ),
    )
    w.add(
        "How each calamity's modifiers of different cards combine.",
        "CALAMITY_COMBINATIONS: Final[Mapping[str, Combination]]",
        mapping(
            [
                (
                    ref("CalamityId", c["id"]),
                    record_call(
                        w.rt("Combination"),
                        w.member("CombinationMode", c["mode"]),
                        refs("CardId", c["precedence"]),
                        tup([tup([ref("CardId", card), refs("CardId", over)]) for card, over in c["overrides"]]),
                        mode_unknown=value(c["mode_unknown"]),
                    ),
                )
                for c in calamities
            ],
            w,
        ),
    )
    w.add(
        "Who cannot be a victim of each calamity (nations, card holders, the trading player).",
        "CALAMITY_IMMUNITIES: Final[Mapping[str, tuple[CalamityImmunity, ...] | None]]",
        mapping(
            [
                (
                    ref("CalamityId", c["id"]),
                    Code("None")
                    if not c["immunities_known"]
                    else tup(
                        [
                            record_call(
                                w.rt("CalamityImmunity"),
                                who=string(str(i.who)),
                                side=w.member("Role", i.side if i.side in ("primary", "secondary") else None),
                                nation=value(i.nation),
                                card=ref("CardId", i.card),
                                text=value(i.text),
                                **({"effects": value(i.effects)} if i.effects else {}),
                                **({"rules": value(i.rules)} if i.rules else {}),
                            )
                            for i in c["immunities"]
                        ]
                    ),
                )
                for c in calamities
            ],
            w,
        ),
    )


def _trade_tables(ruleset: Ruleset, w: _Writer) -> None:
    """The trade: TRADE_STACKS, STACK_SETUP, DECK_COMPOSITIONS, BLOCK_BONUSES."""
    w.add(
        None,
        "TRADE_STACKS: Final[tuple[TradeStack, ...]]",
        tup(
            [
                record_call(
                    w.rt("TradeStack"),
                    value(s["number"]),
                    refs("CommodityId", s["commodities"]),
                    refs("CalamityId", s["calamities"]),
                    *([tup([tup([value(p), ref("CardId", c)]) for p, c in s["purchases"]])] if s["purchases"] else []),
                )
                for s in _stacks(ruleset)
            ]
        ),
    )
    w.add(
        "How the trade stacks are prepared before play, step by step.",
        "STACK_SETUP: Final[tuple[StackSetupStep, ...]]",
        _stack_setup(ruleset, w),
    )
    w.add(
        "The trade decks by player count (games with trade blocks or per-count decks; empty otherwise).",
        "DECK_COMPOSITIONS: Final[tuple[DeckBand, ...]]",
        tup(
            [
                record_call(
                    w.rt("DeckBand"),
                    value(band.players_min),
                    value(band.players_max),
                    w.member("MapRegion", band.region),
                    tup(
                        [
                            record_call(
                                w.rt("Deck"),
                                w.member("Block", deck.block),
                                tup(
                                    [tup([ref("CommodityId", good), value(cards)]) for good, cards in deck.commodities]
                                ),
                                value(deck.calamity_sets),
                                Code("None")
                                if deck.calamity_severities is None
                                else tup([w.member("Severity", s) for s in deck.calamity_severities]),
                            )
                            for deck in band.decks
                        ]
                    ),
                )
                for band in deck_compositions(ruleset)
            ]
        ),
    )
    w.add(
        "When a set redeemed outside its native trade block gains its face value per card (26.3.3).",
        "BLOCK_BONUSES: Final[tuple[BlockBonus, ...]]",
        tup(
            [
                record_call(w.rt("BlockBonus"), value(b.players_min), value(b.players_max), value(b.shared_goods))
                for b in block_bonuses(ruleset)
            ]
        ),
    )


def _succession_tables(ruleset: Ruleset, w: _Writer) -> None:
    """The nations and the A.S.T.: NATIONS, AST_LEVELS, EPOCHS, AST_TRACKS."""
    levels = ast_levels(ruleset)
    w.add(
        None,
        "NATIONS: Final[Mapping[str, Nation]]",
        mapping(
            [
                (
                    ref("NationId", n.id),
                    record_call(
                        w.rt("Nation"),
                        ref("NationId", n.id),
                        name(n.name),
                        refs("AreaId", n.start_areas),
                        value(n.ast_position),
                        *([w.member("MapRegion", n.region)] if n.region in ("west", "east") else []),
                        **({"colour": value(n.colour)} if n.colour is not None else {}),
                    ),
                )
                for n in ruleset.nations
            ],
            w,
        ),
    )
    w.add(
        'The A.S.T. levels of the game ("standard" when it has only one), the first being the default.',
        "AST_LEVELS: Final[tuple[str, ...]]",
        value(levels),
    )
    epochs = []
    for order, e in enumerate(ruleset.epochs, start=1):
        by_level = []
        for level in levels:
            r = _requirements(e, level)
            by_level.append(
                (
                    string(level),
                    record_call(
                        w.rt("Requirements"),
                        min_cities=value(r["min_cities"]),
                        min_card_groups=value(r["min_card_groups"]),
                        min_cards=value(r["min_cards"]),
                        all_card_groups=value(r["all_card_groups"]),
                        two_group_cards_count_twice=value(r["two_group_cards_count_twice"]),
                        card_value_per_space=value(r["card_value_per_space"]),
                        min_victory_points=value(r["min_victory_points"]),
                        min_cards_of_value=tup(
                            [tup([value(c[0]), value(c[1]), value(c[2])]) for c in r["min_cards_of_value"]]
                        ),
                        known=value(r["requirements_known"]),
                    ),
                )
            )
        epochs.append(
            (
                ref("EpochId", e.id),
                record_call(
                    w.rt("Epoch"),
                    id=ref("EpochId", e.id),
                    name=name(e.name),
                    order=value(order),
                    requirements=mapping(by_level, w),
                ),
            )
        )
    w.add(None, "EPOCHS: Final[Mapping[str, Epoch]]", mapping(epochs, w))
    tracks = []
    for nation, track_levels in tracks_by_level(ruleset).items():
        entries: list[tuple[Node, Node]] = []
        for level, t in track_levels.items():
            starts = (
                Code("None")
                if not isinstance(t.epoch_starts, tuple)
                else tup([tup([ref("EpochId", ep), value(sp)]) for ep, sp in t.epoch_starts])
            )
            values = (
                Code("None")
                if not isinstance(t.late_iron_age, tuple)
                else tup([tup([value(sp), value(v)]) for sp, v in t.late_iron_age])
            )
            entries.append(
                (
                    string(level),
                    record_call(
                        w.rt("AstTrack"), ref("NationId", nation), string(level), value(t.spaces), starts, values
                    ),
                )
            )
        tracks.append((ref("NationId", nation), mapping(entries, w)))
    w.add(None, "AST_TRACKS: Final[Mapping[str, Mapping[str, AstTrack]]]", mapping(tracks, w))


def _turn_tables(ruleset: Ruleset, w: _Writer) -> None:
    """The turn and the players: PHASES, PHASE_ORDER, PLAYER_COUNTS."""
    w.add(
        None,
        "PHASES: Final[Mapping[str, Phase]]",
        mapping(
            [
                (
                    ref("PhaseId", p.id),
                    record_call(
                        w.rt("Phase"),
                        ref("PhaseId", p.id),
                        name(p.name),
                        value(p.number),
                        value(p.condition),
                        value(p.order),
                        value(p.min_trade_cards),
                        value(p.rules),
                        value(p.max_primary_calamities),
                        value(p.unit_points),
                        value(p.ship_moves),
                        value(p.named_trade_cards),
                        tup([_sub_activity(sub, w) for sub in p.sub_activities]),
                        ref("CardId", p.military_last) if p.military_last is not None else Code("None"),
                        **{
                            field: value(limit)
                            for field, limit in (
                                ("max_major_calamities", p.max_major_calamities),
                                ("max_minor_calamities", p.max_minor_calamities),
                                ("max_of_one_calamity", p.max_of_one_calamity),
                            )
                            if limit is not None
                        },
                    ),
                )
                for p in ruleset.phases
            ],
            w,
        ),
    )
    w.add(None, "PHASE_ORDER: Final[tuple[str, ...]]", tup([ref("PhaseId", p.id) for p in ruleset.phases]))
    w.add(
        None,
        "PLAYER_COUNTS: Final[Mapping[int, PlayerCount]]",
        mapping(
            [
                (
                    value(c.players),
                    record_call(
                        w.rt("PlayerCount"),
                        value(c.players),
                        value(c.given),
                        value(_int(c.tokens_per_player)),
                        tup([refs("NationId", ns) for ns in c.nations]),
                        tup([_configuration(conf, w) for conf in c.configurations]),
                        tup([record_call(w.rt("SpecialRule"), value(r.id), value(r.text)) for r in c.special_rules]),
                    ),
                )
                for c in ruleset.player_counts
            ],
            w,
        ),
    )


def _sub_activity(sub: SubActivity, w: _Writer) -> Node:
    card = ref("CardId", sub.card) if sub.card is not None else Code("None")
    return record_call(w.rt("SubActivity"), value(sub.id), value(sub.name), value(sub.rules), card)


def _configuration(conf: Configuration, w: _Writer) -> Node:
    """One set-up of a player count, its unknown nations None (UNKNOWN_FACTS gives why)."""
    nations = refs("NationId", conf.nations) if conf.nations is not None else Code("None")
    decks = tup(
        [record_call(w.rt("TradeDeckSetup"), value(d.id), value(d.name), value(d.text)) for d in conf.trade_decks]
    )
    return record_call(
        w.rt("Configuration"),
        value(conf.id),
        value(conf.name),
        nations,
        value(conf.panels),
        value(conf.boundary if isinstance(conf.boundary, str) else None),
        value(conf.western_extension),
        value(conf.open_sea_on_boundary_usable),
        value(conf.map_text),
        value(conf.island_city_cost_tokens),
        value(conf.island_city_sites_ignored),
        decks,
    )


def _lazy_mapping(count: int, make: Callable[[], Iterable[tuple[Node, Node]]], w: _Writer) -> Node:
    """:func:`mapping` of the ``count`` items ``make()`` yields, each made as it is written."""
    return call(w.rt("FrozenMap"), lazy_dct(count, make)) if count else Code(f"{w.rt('FrozenMap')}({{}})")


def _map_tables(ruleset: Ruleset, w: _Writer) -> None:
    """The map: AREAS, BORDERS, ADJACENCY, FLOOD_PLAINS, VOLCANOES.

    The three large tables are made entry by entry as they are written (at 50x their nodes took
    12 MB at once), and the neighbours are read from :func:`adjacency`, not from the checks'
    networkx graphs (let go once the ruleset is checked). Those three are written once per process
    for the same facts (:meth:`_Writer.add_same`)."""
    area_facts = repr(
        [
            (
                a.id,
                a.name,
                a.land,
                a.water,
                a.open_sea,
                a.coastal,
                a.population_limit,
                a.city_site,
                a.flood_plain,
                a.panel,
            )
            for a in ruleset.areas
        ]
    )
    w.add_same(
        area_facts,
        None,
        "AREAS: Final[Mapping[str, Area]]",
        lambda: _lazy_mapping(
            len(ruleset.areas),
            lambda: (
                (
                    ref("AreaId", a.id),
                    record_call(
                        w.rt("Area"),
                        ref("AreaId", a.id),
                        name(a.name),
                        land=value(a.land),
                        water=value(a.water),
                        open_sea=value(a.open_sea),
                        coastal=value(a.coastal),
                        population_limit=value(a.population_limit),
                        city_site=value(a.city_site),
                        flood_plain=value(a.flood_plain),
                        panel=value(a.panel),
                    ),
                )
                for a in ruleset.areas
            ),
            w,
        ),
    )
    w.add_same(
        repr([(b.a, b.b, b.kind) for b in ruleset.borders]),
        None,
        "BORDERS: Final[tuple[Border, ...]]",
        lambda: lazy_tup(
            len(ruleset.borders),
            lambda: (
                record_call(
                    w.rt("Border"),
                    ref("AreaId", b.a),
                    ref("AreaId", b.b),
                    w.member("BorderKind", b.kind if b.kind in ("land", "sea", "both") else None),
                )
                for b in ruleset.borders
            ),
        ),
    )
    # One node per area, shared by every entry that names it (the table names each area about ten
    # times: a node each took 12 MB at 50x while the table was written).
    areas = {area.id: ref("AreaId", area.id) for area in ruleset.areas}
    borders = adjacency(ruleset)
    kinds = {"land": LAND_KINDS, "sea": SEA_KINDS, "all": None}

    def neighbours(kind: str) -> Node:
        wanted = kinds[kind]
        return _lazy_mapping(
            len(areas),
            lambda: (
                (
                    areas[area],
                    frozen(
                        [
                            areas.get(n) or ref("AreaId", n)
                            for n in sorted(n for n, k in across.items() if wanted is None or k in wanted)
                        ]
                    ),
                )
                for area, across in borders.items()
            ),
            w,
        )

    w.add_same(
        repr(borders),
        'Neighbours of each area by kind of adjacency: "land" (land or both), "sea" (sea or both), "all".',
        "ADJACENCY: Final[Mapping[str, Mapping[str, frozenset[str]]]]",
        lambda: mapping([(w.member("Adjacency", kind), neighbours(kind)) for kind in kinds], w),
    )
    for target, regions in (("FLOOD_PLAINS", ruleset.flood_plains), ("VOLCANOES", ruleset.volcanoes)):
        w.add(
            None,
            f"{target}: Final[Mapping[str, Region]]",
            mapping(
                [
                    (string(r.id), record_call(w.rt("Region"), string(r.id), name(r.name), refs("AreaId", r.areas)))
                    for r in regions
                ],
                w,
            ),
        )


def _settings_tables(ruleset: Ruleset, exported: Mapping[str, Any], w: _Writer) -> None:
    """The ruleset-level rules: HAND_LIMIT, TAXATION, SCORING, SETTINGS, ENTITY_SOURCES."""
    w.add(
        "The commodity cards a player may keep, and the cards that change it.",
        "HAND_LIMIT: Final[HandLimit | None]",
        _hand_limit(ruleset, w),
    )
    w.add(
        "Taxation: tokens per city, the cards that change the rate, the cards that prevent revolts.",
        "TAXATION: Final[Taxation | None]",
        _taxation(ruleset, w),
    )
    w.add(
        "The items of the final score (None: the scoring is not in the sources).",
        "SCORING: Final[tuple[ScoringItem, ...] | None]",
        _scoring(ruleset, w),
    )
    w.add(
        "Every ruleset-level rule as the data writes it (the settings of `civrules export`), as typed,\n"
        "read-only records (the runtime's `settings` module), each also the Mapping[str, object] it was\n"
        "before they were typed; unknown facts are None.",
        "SETTINGS: Final[settings.Settings]",
        settings_value(settings_types(FAMILY), exported.get("settings") or {}, "settings.", makers=True),
    )
    w.add(
        'The rule sections (or secondary sources) each entity\'s entry cites, by "collection.id".',
        "ENTITY_SOURCES: Final[Mapping[str, tuple[str, ...]]]",
        _entity_sources(ruleset),
    )
    w.add(entity_sources.DOC, entity_sources.ANNOTATION, entity_sources.entity_field_sources(ruleset, _source_key))
    w.add(
        "The tables that are empty because the sources do not give them (unknown, not none): an empty\n"
        "table not named here is known to hold nothing.",
        "UNKNOWN_COLLECTIONS: Final[frozenset[str]]",
        call("OrderedFrozenSet", tup([string(t) for t in unknown_collections(ruleset, exported)])),
    )


#: The tables of each collection (or setting) of the rule data, for UNKNOWN_COLLECTIONS.
COLLECTION_TABLES = {
    "groups": ("GROUPS",),
    "civilization_cards": ("CARDS", "CREDIT_MATRIX"),
    "commodities": ("COMMODITIES",),
    "calamities": ("CALAMITIES", "CALAMITY_ORDER"),
    "nations": ("NATIONS",),
    "epochs": ("EPOCHS",),
    "ast_tracks": ("AST_TRACKS",),
    "phases": ("PHASES", "PHASE_ORDER"),
    "player_counts": ("PLAYER_COUNTS",),
    "areas": ("AREAS", "ADJACENCY"),
    "borders": ("BORDERS",),
    "flood_plains": ("FLOOD_PLAINS",),
    "volcanoes": ("VOLCANOES",),
    "trade_stacks": ("TRADE_STACKS", "STACK_SETUP"),
    "deck_compositions": ("DECK_COMPOSITIONS",),
    "non_native_block_bonus": ("BLOCK_BONUSES",),
}
#: The collections a ruleset's `not_in_sources: {map: ...}` leaves unknown.
MAP_COLLECTIONS = ("areas", "borders", "flood_plains", "volcanoes")


def unknown_collections(ruleset: Ruleset, exported: Mapping[str, Any]) -> tuple[str, ...]:
    """The tables that are empty because the sources do not give them: the collection (or setting)
    is named by `not_in_sources` (the map's collections by its `map`), or written `{unknown: why}`
    (its unknown fact's field is the collection's own, `ast.tracks` for the A.S.T. tracks). An
    empty table not among them is known to have nothing."""
    from civrules.checks.unknowns import fact_field, unknown_facts

    fields = {fact_field(document, path, FAMILY) for document, path, _ in unknown_facts(ruleset)}
    absent = set(ruleset.not_in_sources) | {f for f in fields if "." not in f and "[" not in f}
    if "map" in ruleset.not_in_sources:
        absent.update(MAP_COLLECTIONS)
    if "ast.tracks" in fields:
        absent.add("ast_tracks")
    emptied = {name: not exported.get(name) for name in COLLECTION_TABLES}
    emptied["ast_tracks"] = not ruleset.ast_tracks
    emptied["trade_stacks"] = ruleset.trade_stacks is None
    emptied["deck_compositions"] = not deck_compositions(ruleset)
    emptied["non_native_block_bonus"] = not block_bonuses(ruleset)
    return tuple(
        sorted(
            table for name, tables in COLLECTION_TABLES.items() if name in absent and emptied[name] for table in tables
        )
    )


def data_module(ruleset: Ruleset, exported: Mapping[str, Any], stamp: str | None = None) -> Module:
    """The source of ``data.py``: every table of the ruleset, typed with the runtime's records, and
    what it declares as written; ``stamp`` is ``fingerprint(exported)`` when the caller has it already."""
    w = _Writer(ruleset)
    for annotation in ANNOTATED:
        w.rt(annotation)
    with _naming() as named:
        _identity_tables(ruleset, exported, fingerprint(exported) if stamp is None else stamp, w)
        for tables in (
            _card_tables,
            _commodity_tables,
            _calamity_tables,
            _trade_tables,
            _succession_tables,
            _turn_tables,
            _map_tables,
        ):
            _write_tables(tables, ruleset, w)
        _settings_tables(ruleset, exported, w)
    refused = unwritable_members(ruleset, named)
    if refused:
        raise PackageRefusedError(refused)
    body = w.statements
    ids = [i for i in ID_ENUMS if f"{i}." in body or f"Code({i})" in body or f" {i})" in body or f"{i}," in body]
    enums = sorted(w.runtime & vocabularies())
    records = sorted(w.runtime - {"FrozenMap", "CreditMatrix", *enums})
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
        f"from {FAMILY_RUNTIME}.credits import CreditMatrix\n"
        f"from {FAMILY_RUNTIME}.records import (\n"
        + "".join(f"    {r},\n" for r in records)
        + f")\nfrom {FAMILY_RUNTIME}.vocab import (\n"
        + "".join(f"    {e},\n" for e in enums)
        + ")\n",
        "from .ids import (\n" + "".join(f"    {i},\n" for i in ids) + ")\n",
        used_makers(body, ("PlayerRange", *records, *settings_classes(settings_types(FAMILY), "settings."))),
    ]
    return body.rendered(head)


def _write_tables(tables: Callable[[Ruleset, _Writer], None], ruleset: Ruleset, w: _Writer) -> None:
    """``tables(ruleset, w)``; in a build of several rulesets (:func:`civrules.support.tracked.sharing`),
    the statements it wrote for the ruleset before, where every fact it read is the same (a variant
    that keeps its base's cards writes the same card tables)."""

    def write(
        read: Ruleset,
    ) -> tuple[tuple[bytes, ...], tuple[Target, ...] | None, frozenset[str], frozenset[tuple[str, str]]]:
        own = _Writer(read)
        with _naming() as named:
            tables(read, own)
        targets = None if own.statements.targets is None else tuple(own.statements.targets)
        return tuple(own.statements.chunks), targets, frozenset(own.runtime), frozenset(named)

    chunks, targets, used, named = shared(f"{__name__}.{tables.__name__}", ruleset, write)
    w.statements.extend(chunks, targets)
    w.runtime.update(used)
    if _NAMING:
        _NAMING[-1].update(named)


def _requirements(epoch: Epoch, level: str) -> dict[str, Any]:
    from civrules.families.advanced_civilization.succession import requirement_numbers

    numbers, known = requirement_numbers(epoch, None if level == STANDARD_LEVEL else level)
    del numbers["text"]
    return {**numbers, "requirements_known": known}


def _stacks(ruleset: Ruleset) -> list[dict[str, Any]]:
    """Trade stacks: number → commodities and calamities in it."""
    numbers = sorted(
        {c.stack for c in ruleset.commodities if isinstance(c.stack, int)} | {c.stack for c in ruleset.calamities}
    )
    purchases: dict[int, list[tuple[int, str | None]]] = {}
    for stack in ruleset.trade_stacks.stacks if ruleset.trade_stacks is not None else ():
        for purchase in stack.purchases:
            price = _int(purchase.price)
            if price is not None:
                purchases.setdefault(stack.number, []).append((price, purchase.requires_card))
    goods_of: dict[object, list[str]] = {}  # each stack's, in one pass (not all walked per stack)
    for commodity in ruleset.commodities:
        goods_of.setdefault(commodity.stack, []).append(commodity.id)
    calamities_of: dict[object, list[str]] = {}
    for calamity in ruleset.calamities:
        calamities_of.setdefault(calamity.stack, []).append(calamity.id)
    return [
        {
            "number": n,
            "commodities": goods_of.get(n, []),
            "calamities": calamities_of.get(n, []),
            "purchases": purchases.get(n, []),
        }
        for n in numbers
    ]


#: The public names of every package (RulesetPackage): tables of data.py, then helpers.
DATA_NAMES = (
    "ADJACENCY", "AREAS", "AST_LEVELS", "AST_TRACKS", "BLOCK_BONUSES", "BORDERS", "CALAMITIES",
    "CALAMITY_COMBINATIONS", "CALAMITY_EFFECTS", "CALAMITY_IMMUNITIES", "CALAMITY_MODIFIERS", "CALAMITY_ORDER",
    "CARDS", "COMMODITIES", "CREDIT_MATRIX", "DECK_COMPOSITIONS", "DRAFT", "ENTITY_FIELD_SOURCES", "ENTITY_SOURCES",
    "EPOCHS", "FLOOD_PLAINS", "GROUPS", "HAND_LIMIT", "ID_ALIASES", "ID_ENUMS", "MINING_EXTRA_CARDS", "NATIONS",
    "PHASES", "PHASE_ORDER", "PLAYERS", "PLAYER_COUNTS", "SCORING", "SETTINGS", "SET_VALUE_FORMULA", "STACK_SETUP",
    "TAXATION", "TRADE_STACKS", "UNKNOWN_COLLECTIONS", "UNKNOWN_FACTS", "VOLCANOES", "RULESET_FINGERPRINT",
    "RULESET_ID", "RULESET_NAME",
)  # fmt: skip
HELPER_NAMES = (
    "calamity_amount", "calamity_resolution_order", "can_enter_epoch", "can_enter_space", "canonical_id",
    "credit_toward", "decks_for", "effects_held", "hand_limit", "neighbours", "purchase_cost",
    "require_complete", "set_value", "tax_rates",
    "assuming", "calamities_suffered", "finish_space", "has_finished", "reduction_points", "secondary_losses",
    "ship_range", "trade_problems", "unit_points",
)  # fmt: skip
ID_NAMES = ("AreaId", "BorderKind", "CalamityId", "CardId", "CommodityId", "EpochId", "GroupId", "NationId", "PhaseId")
ERROR_NAMES = ("DraftRulesetError", "UnknownFactError", "UnknownIdError")


def render_package(ruleset: Ruleset, exported: Mapping[str, Any]) -> PackageFiles:
    """Every file of the ruleset's distribution, by path relative to ``generated/python/``."""
    draft = ruleset.status == "draft"
    all_names = public_names(DATA_NAMES, ID_NAMES, ERROR_NAMES, HELPER_NAMES)
    stamp = fingerprint(exported)  # once: it encodes and hashes every exported fact
    context = {
        "ruleset": ruleset,
        "names": names_paragraph(ruleset),
        "package": import_name(ruleset.id),
        "runtime": RUNTIME,
        "family_runtime": FAMILY_RUNTIME,
        "fingerprint": stamp,
        "member": member,
        "draft": draft,
        "examples": _examples(ruleset),
        "effect_ids": list(dict.fromkeys(str(e.id) for c in ruleset.calamities for e in c.effects)),
        "ast_levels": list(ast_levels(ruleset)),
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
        FAMILY.id, "Advanced Civilization", FAMILY_RUNTIME_SOURCES, FAMILY_RUNTIME_FILES, FAMILY_RUNTIME_VERSION
    )


def _examples(ruleset: Ruleset) -> dict[str, Any]:
    """Worked examples for the helpers' docstrings, computed by the compiler (doctests check them)."""
    from civrules.families.advanced_civilization.calamities import Role, calamity_amount
    from civrules.families.advanced_civilization.commodities import set_value

    out: dict[str, Any] = {
        "credit": None,
        "purchase": None,
        "set": None,
        "calamities": [],
        "epoch": None,
        "bonus": None,
    }
    matrix = credit_matrix(ruleset)
    for owned, row in matrix.items():
        for target, points in row.items():
            card = ruleset.cards.get(target)
            if card is not None and isinstance(card.cost, int):
                out["credit"] = (owned, target, points)
                out["purchase"] = (owned, target, max(0, card.cost - points))
                break
        if out["credit"]:
            break
    rule = set_value_rule(ruleset)
    for commodity in ruleset.commodities:
        if (
            rule.formula is not None
            and commodity.mining
            and isinstance(commodity.count, int)
            and commodity.count >= 4
            and isinstance(commodity.value, int)
        ):
            out["set"] = (commodity.id, set_value(commodity, 3, rule=rule), set_value(commodity, 3, True, rule))
            break
    out["bonus"] = _bonus_example(ruleset) if rule.formula is not None else None
    # The first modifier that changes an amount: each (effect, card, side) asked once, and the
    # search stops at the first found (a card of thousands of modifiers asked the same amount for
    # each of them, each asking walking all of them).
    asked: set[tuple[str, str, str, str]] = set()
    for calamity in ruleset.calamities:
        if out["calamities"]:
            break
        every_effect = _calamity_effects_of(calamity)
        for modifier in calamity.modifiers:
            if out["calamities"]:
                break
            modifies = set(modifier.modifies)
            side: Role = "secondary" if modifier.applies_to == "secondary" else "primary"
            for effect in (e for e in every_effect if e in modifies):
                if (calamity.id, effect, modifier.card, side) in asked:
                    continue
                asked.add((calamity.id, effect, modifier.card, side))
                try:
                    base = calamity_amount(calamity, effect, set(), side).value
                    held = calamity_amount(calamity, effect, {modifier.card}, side).value
                except (KeyError, ValueError):
                    continue
                if base is not None and held is not None and base != held:
                    out["calamities"].append((calamity.id, effect, [], side, base))
                    out["calamities"].append((calamity.id, effect, [modifier.card], side, held))
                    break
    for epoch in ruleset.epochs:
        need = _requirements(epoch, ast_levels(ruleset)[0])
        if (
            need["min_cities"]
            and need["requirements_known"]
            and not (
                need["min_card_groups"] or need["min_cards"] or need["all_card_groups"] or need["min_cards_of_value"]
            )
        ):
            out["epoch"] = (epoch.id, need["min_cities"])
            break
    return out


def _bonus_example(ruleset: Ruleset) -> tuple[str, int, int, str, int] | None:
    """A set redeemed outside its native block, for the docstring: (good, cards, players, block, value)."""
    from civrules.families.advanced_civilization.commodities import block_bonus, set_value

    bonuses = block_bonuses(ruleset)
    if not bonuses:
        return None
    band = bonuses[0]
    # A set the decks of that count can hold (set_value refuses the others).
    bands = [b for b in deck_compositions(ruleset) if b.players_min <= band.players_min <= b.players_max]
    held: dict[str, int] = {}
    for b in bands:
        in_band: dict[str, int] = {}
        for deck in b.decks:
            for good, cards in deck.commodities:
                in_band[good] = in_band.get(good, 0) + (cards if cards is not None else 3)
        for good, cards in in_band.items():
            held[good] = max(held.get(good, 0), cards)
    for commodity in ruleset.commodities:
        block = commodity.block
        if bands and held.get(commodity.id, 0) < 3:
            continue
        if block in ("west", "east") and isinstance(commodity.count, int) and commodity.count >= 3:
            other = "east" if block == "west" else "west"
            value = set_value(commodity, 3, rule=set_value_rule(ruleset)) + block_bonus(
                commodity, 3, bonuses, players=band.players_min, redeemed_in=other
            )
            return (commodity.id, 3, band.players_min, other, value)
    return None


def _calamity_effects_of(calamity: Calamity) -> list[str]:
    return [e.id for e in calamity.effects if e.id is not None]


Renderer = Callable[[Ruleset, Mapping[str, Any]], dict[str, bytes]]
