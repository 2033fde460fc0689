"""Every helper's id parameters at run time, in every package of every family, held to the types
the package declares for them (``CardIdName``, ``RazeTargetName``, ``DefenceName`` ...: a member of
the enum or one of its values as a string literal):

- an id outside a parameter's type is UnknownIdError naming the id, and naming as candidates ("did
  you mean", "one of") only ids of that type, never another table's (``raze_price("build")`` said
  "not in the sources", an UnknownFactError that tells an engine to assume a fact that does not
  exist, and its refusals offered ``build`` and ``deal`` as raze actions);
- it is refused so whatever the other arguments are, even where a fact of theirs is missing (an
  engine that falls back on UnknownFactError must not be told to assume a fact about a misspelling);
- an id of the type is never UnknownIdError: where the answer needs a fact the sources do not
  give, that is UnknownFactError.

The types are read from the packages themselves (the annotations of ``helpers.py``, the
``TypeAlias`` literals of ``ids.py`` and of the family runtime's ``vocab.py``): a helper or a
parameter added later is held to this without a word here. Each package is asked three ways: as
it is, as a view ``package.assuming(Assumptions())``, and as the same ruleset with every fact it
could leave out left out (its helpers run over its tables with each optional field and value set
to None, as the compiler writes a fact the sources do not give): a shipped ruleset gives most
facts, and an argument checked only after a fact is looked up would pass unseen there.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import re
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest

from tests import shipped
from tests.conftest import REPO

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

from civrules_runtime import UnknownFactError, UnknownIdError  # noqa: E402 - the committed runtime
from civrules_runtime.records import Record  # noqa: E402

PACKAGES = shipped.package_names()  # never a designer's variant built beside them
#: The fast suite asks one package of each family (its base, whose helpers its variants share); the
#: others are asked with the slow tests (make test-slow), which CI runs too.
_FAST = {"advanced_civilization", "mega_civilization", "imperial_settlers", "sid_meiers_civilization"}
PACKAGE_CASES = [name if name in _FAST else pytest.param(name, marks=pytest.mark.slow) for name in PACKAGES]

#: The helpers that are no rule over ids (their arguments are checked elsewhere).
NOT_RULES = frozenset({"require_complete", "canonical_id", "assuming"})

#: A value for each required argument that is no id, inside the domain its rule is defined for
#: (a helper given a new one fails here, naming it: add it).
SAMPLES: dict[str, object | Callable[[ModuleType], object]] = {
    "n": 1,
    "players": 5,
    "cities": 1,
    "space": 1,
    "stated_count": 3,
    "allotment": {},
    "tokens_left": 0,
    "level": 1,  # Sid Meier's research level (the Advanced Civilization A.S.T. level is an id)
    "trade": 30,
    "rank": 1,
    "figures": 1,
    "goods": [],
    "workers": 0,
    "common_locations": 0,
    "faction_locations": 0,
    "score": 0,
    "printed_id": lambda module: min(module.PRINTED_IDS),  # Imperial Settlers' card_of: a copy's printed id
}

#: Ids of another type a helper answers as a breach of the rules rather than refusing, by design:
#: (helper, parameter) -> the type of those ids and what its answer says of one. A civilization
#: card offered in a trade is one (Advanced Civilization 28.2: only trade cards are traded).
ANSWERED: dict[tuple[str, str], tuple[str, str]] = {
    ("trade_problems", "given"): ("CardIdName", "is a civilization card: only trade cards are traded"),
    ("trade_problems", "named"): ("CardIdName", "was named but is not among the cards given"),
}


# --- What a package declares: each helper's id parameters and the ids of their types ----------


@dataclass(frozen=True)
class Ids:
    """A parameter that takes one id of ``allowed`` (named by the aliases ``types``)."""

    allowed: frozenset[str]
    types: frozenset[str]


@dataclass(frozen=True)
class Each:
    """A parameter that takes a collection of ``inner``."""

    inner: Ids | Each | ByKey


@dataclass(frozen=True)
class ByKey:
    """A parameter that takes a mapping of keys (players) to ``inner``."""

    inner: Ids | Each | ByKey


Shape = Ids | Each | ByKey


@dataclass(frozen=True)
class Parameter:
    name: str
    shape: Shape
    required: bool


@dataclass(frozen=True)
class Helper:
    name: str
    ids: tuple[Parameter, ...]
    #: Required arguments that are no ids, with their samples.
    others: tuple[tuple[str, object], ...]


@dataclass(frozen=True)
class Declared:
    module: ModuleType
    #: The package asked three ways: "package", "view" (``assuming``) and "unknown facts".
    asked: Mapping[str, object]
    helpers: tuple[Helper, ...]
    #: Every id and vocabulary value the package and its family declare a type for.
    every_type: dict[str, frozenset[str]]


def _literals(path: Path) -> dict[str, frozenset[str]]:
    """The ``TypeAlias`` names of a module (read, not imported: they exist for type checkers only)
    and the string literals each allows."""
    found: dict[str, frozenset[str]] = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and isinstance(node.annotation, ast.Name)
            and node.annotation.id == "TypeAlias"
            and node.value is not None
        ):
            found[node.target.id] = frozenset(
                constant.value
                for literal in ast.walk(node.value)
                if isinstance(literal, ast.Subscript)
                and isinstance(literal.value, ast.Name)
                and literal.value.id == "Literal"
                for constant in ast.walk(literal.slice)
                if isinstance(constant, ast.Constant) and isinstance(constant.value, str)
            )
    return found


def _shape(node: ast.expr | None, aliases: dict[str, frozenset[str]]) -> Shape | None:
    """What an annotation takes in ids: one id of its aliases, a collection of them, a mapping to
    them; None when it takes no id of a declared type (a count, a ``Mapping[str, int]``)."""
    if isinstance(node, ast.Name) and node.id in aliases:
        return Ids(aliases[node.id], frozenset({node.id}))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        sides = [s for s in (_shape(node.left, aliases), _shape(node.right, aliases)) if s is not None]
        if len(sides) == 2 and isinstance(sides[0], Ids) and isinstance(sides[1], Ids):
            return Ids(sides[0].allowed | sides[1].allowed, sides[0].types | sides[1].types)
        return sides[0] if len(sides) == 1 else None
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        if node.value.id == "Iterable":
            inner = _shape(node.slice, aliases)
            return None if inner is None else Each(inner)
        if node.value.id == "Mapping" and isinstance(node.slice, ast.Tuple):
            inner = _shape(node.slice.elts[1], aliases)
            return None if inner is None else ByKey(inner)
    return None


@functools.cache
def declared(name: str) -> Declared:
    module = importlib.import_module(f"civrules_rulesets.{name}")
    folder = GENERATED / "civrules_rulesets" / name
    tree = ast.parse((folder / "helpers.py").read_text(encoding="utf-8"))
    runtime = next(
        node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        and node.module is not None
        and node.module.startswith("civrules_runtime_")
        and any(alias.name == "logic" for alias in node.names)
    )
    every_type = {**_literals(folder / "ids.py"), **_literals(GENERATED / runtime / "vocab.py")}
    imported = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    aliases = {alias: ids for alias, ids in every_type.items() if alias in imported}
    helpers = []
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef) or node.name not in module.__all__ or node.name in NOT_RULES:
            continue
        signature = inspect.signature(getattr(module, node.name))
        ids, others = [], []
        for argument in (*node.args.args, *node.args.kwonlyargs):
            shape = _shape(argument.annotation, aliases)
            required = signature.parameters[argument.arg].default is inspect.Parameter.empty
            if shape is not None:
                ids.append(Parameter(argument.arg, shape, required))
            elif required:
                assert argument.arg in SAMPLES, f"{name}.{node.name}: give SAMPLES a value of {argument.arg!r}"
                sample = SAMPLES[argument.arg]
                others.append((argument.arg, sample(module) if callable(sample) else sample))
        helpers.append(Helper(node.name, tuple(ids), tuple(others)))
    assumptions = importlib.import_module(runtime).Assumptions()
    asked = {"package": module, "view": module.assuming(assumptions), "unknown facts": _unknown_facts(module, folder)}
    return Declared(module, asked, tuple(helpers), every_type)


# --- The same ruleset with every fact it could leave out left out -------------------------------


def _optional(annotation: object) -> bool:
    """Whether a type written as text (``int | None``) takes None at its top."""
    if not isinstance(annotation, str):
        return False
    node = ast.parse(annotation, mode="eval").body
    while isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        if isinstance(node.right, ast.Constant) and node.right.value is None:
            return True
        node = node.left
    return False


def _left_out(value: object) -> object:
    """``value`` with every optional field of every record in it None (mappings as dicts)."""
    if isinstance(value, Record):
        fields = inspect.signature(type(value)).parameters
        changes = {
            name: None if _optional(parameter.annotation) else _left_out(getattr(value, name))
            for name, parameter in fields.items()
        }
        try:
            return value.replace(**changes)
        except (TypeError, ValueError):  # a record that checks its fields and refuses: kept as it is
            return value
    if isinstance(value, Mapping):
        return {key: _left_out(item) for key, item in value.items()}
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        return tuple(_left_out(item) for item in value)
    return value


#: A table of ``data.py`` and its type: ``NAME: Final[TYPE] = ...``.
_TABLE = re.compile(r"^([A-Z][A-Z0-9_]*): Final\[(.*)\] = ", re.MULTILINE)


def _unknown_facts(module: ModuleType, folder: Path) -> SimpleNamespace:
    """The package's helpers over its tables with every fact the sources could leave out left
    out: a table of an optional type None, each value of a mapping to an optional type None, and
    every optional field of every record None. Its ids (the tables' keys) are the package's."""
    data = module.data
    tables: dict[str, object] = {}
    for name, annotation in _TABLE.findall((folder / "data.py").read_text(encoding="utf-8")):
        value = getattr(data, name)
        if _optional(annotation):
            tables[name] = None
            continue
        mapping = re.fullmatch(r"Mapping\[(\w+), (.*)\]", annotation)
        if mapping is not None and _optional(mapping.group(2)) and isinstance(value, Mapping):
            tables[name] = dict.fromkeys(value)
            continue
        tables[name] = _left_out(value)
    namespace: dict[str, object] = {"__name__": f"{module.__name__}.helpers", "__package__": module.__name__}
    exec(compile((folder / "helpers.py").read_text(encoding="utf-8"), str(folder / "helpers.py"), "exec"), namespace)
    namespace["data"] = SimpleNamespace(**{**vars(data), **tables})
    return SimpleNamespace(**namespace)


# --- Calls -------------------------------------------------------------------------------------


def _allowed(shape: Shape) -> Ids:
    return shape if isinstance(shape, Ids) else _allowed(shape.inner)


def _given(shape: Shape, value: str) -> object:
    """``value`` as the argument ``shape`` takes: itself, in a list, or as a player's."""
    if isinstance(shape, Ids):
        return value
    if isinstance(shape, Each):
        return [_given(shape.inner, value)]
    return {"ann": _given(shape.inner, value)}


def _empty(shape: Shape) -> object | None:
    """A valid argument of ``shape`` naming no id (None: it needs one)."""
    return [] if isinstance(shape, Each) else {} if isinstance(shape, ByKey) else None


def _base(helper: Helper, given: dict[str, object]) -> dict[str, object] | None:
    """``given``, and valid arguments for every other required parameter: no id where none is
    needed, else the first of its type; None when a parameter needs an id and its type has none
    (a table the ruleset leaves empty: the helper cannot be called with a valid id)."""
    arguments: dict[str, object] = dict(helper.others)
    for parameter in helper.ids:
        if parameter.required and parameter.name not in given:
            empty = _empty(parameter.shape)
            allowed = _allowed(parameter.shape).allowed
            if empty is None and not allowed:
                return None
            arguments[parameter.name] = empty if empty is not None else min(allowed)
    return {**arguments, **given}


def _consistent(declared_: Declared, helper: Helper, arguments: dict[str, object], fixed: str) -> dict[str, object]:
    """``arguments`` with an effect that is one of its calamity's (unless the effect is ``fixed``,
    the argument under test): an effect of the type yet not the calamity's is refused by the
    calamity, as a rank a unit does not have is."""
    calamity, effects = arguments.get("calamity"), getattr(declared_.module, "CALAMITY_EFFECTS", None)
    if fixed == "effect" or "effect" not in arguments or effects is None or calamity not in effects:
        return arguments
    listed = [e for e in effects[calamity] or () if helper.name != "secondary_losses" or e.side == "secondary"]
    if not listed:
        return arguments
    changed = {**arguments, "effect": listed[0].id}
    if "role" in changed and fixed != "role":
        changed["role"] = listed[0].side
    return changed


def _callers(declared_: Declared, helper: Helper, *ways: str) -> Iterator[tuple[str, Callable[..., object]]]:
    for way in ways or declared_.asked:
        yield way, getattr(declared_.asked[way], helper.name)


def _outside(declared_: Declared, allowed: frozenset[str]) -> list[str]:
    """Ids outside ``allowed``: the first of every other type the package declares, a misspelling
    of an allowed one, and a word that is no id at all."""
    others = {min(ids - allowed) for ids in declared_.every_type.values() if ids - allowed}
    misspelt = {min(allowed) + "x"} if allowed else set()
    return sorted(others | misspelt | {"zzz"})


def _named(message: str) -> list[str]:
    """The ids a refusal offers: its "did you mean", its "one of" and the effects it lists."""
    found = re.findall(r"did you mean '([^']+)'", message)
    for tail in re.findall(r"(?:one of|its effects:|those it has:) ([^()]*?)(?:\)|$)", message):
        if tail != "none":
            found.extend(item.strip().strip("'") for item in tail.split(", ") if item.strip() not in ("", "..."))
    return found


def _refused(
    function: Callable[..., object], arguments: dict[str, object], bad: str, allowed: frozenset[str] | None, where: str
) -> list[str]:
    """What is wrong with the refusal of ``bad`` by ``function(**arguments)`` (nothing: it is refused
    as it should be).
    ``allowed``: the ids it may offer instead (None: not asked, where the facts left out took the
    ids a table lists, such as a calamity's effects, out of the ruleset)."""
    try:
        answer = function(**arguments)
    except UnknownIdError as refused:
        message = str(refused)
        if repr(bad) not in message:
            return [f"{where}: refused another argument than {bad!r}: {message}"]
        if allowed is None:
            return []
        named = _named(message)
        if not named and not (not allowed and message.endswith("it has none")):
            return [f"{where}: names no id of the type: {message}"]
        foreign = [word for word in named if word not in allowed]
        return [f"{where}: offers {foreign}, not of the type: {message}"] if foreign else []
    except Exception as error:  # noqa: BLE001 - the test reports which error it was
        return [f"{where}: {type(error).__name__}, not UnknownIdError: {error}"]
    return [f"{where}: answered {answer!r}, not UnknownIdError"]


def _problems(found: list[str]) -> str:
    return f"{len(found)} problems:\n" + "\n".join(found[:25])


# --- The tests ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", PACKAGE_CASES)
def test_an_id_outside_a_parameters_type_is_refused_naming_only_ids_of_the_type(name: str) -> None:
    declared_ = declared(name)
    found: list[str] = []
    for helper in declared_.helpers:
        for parameter in helper.ids:
            ids = _allowed(parameter.shape)
            answered = ANSWERED.get((helper.name, parameter.name))
            for bad in _outside(declared_, ids.allowed):
                arguments = _base(helper, {parameter.name: _given(parameter.shape, bad)})
                if arguments is None:
                    continue
                arguments = _consistent(declared_, helper, arguments, parameter.name)
                for caller, function in _callers(declared_, helper):
                    where = f"{caller}.{helper.name}({parameter.name}={bad!r})"
                    if answered is not None and bad in declared_.every_type[answered[0]]:
                        try:
                            answer = function(**arguments)
                        except UnknownFactError:
                            continue  # the rule cannot be judged without the facts: not a refusal of the id
                        if not any(bad in line and answered[1] in line for line in answer):  # type: ignore[attr-defined]
                            found.append(f"{where}: answered {answer!r}, not that it {answered[1]}")
                        continue
                    allowed = None if caller == "unknown facts" else ids.allowed
                    found.extend(_refused(function, arguments, bad, allowed, where))
    assert not found, _problems(found)


@pytest.mark.parametrize("name", PACKAGE_CASES)
def test_an_id_outside_its_type_is_refused_whatever_the_other_arguments(name: str) -> None:
    """Each other id argument takes every id of its type in turn, among them those whose facts
    the sources do not give: the misspelling is still what is refused."""
    declared_ = declared(name)
    found: list[str] = []
    for helper in declared_.helpers:
        for parameter in helper.ids:
            ids = _allowed(parameter.shape)
            bad = "zzz"  # far from every id: no did-you-mean to work out at each call
            for other in helper.ids:
                if other.name == parameter.name:
                    continue
                for value in sorted(_allowed(other.shape).allowed):
                    given = {other.name: _given(other.shape, value), parameter.name: _given(parameter.shape, bad)}
                    arguments = _base(helper, given)
                    if arguments is None:
                        continue
                    arguments = _consistent(declared_, helper, arguments, parameter.name)
                    for caller, function in _callers(declared_, helper, "package", "unknown facts"):
                        where = f"{caller}.{helper.name}({parameter.name}={bad!r}, {other.name}={value!r})"
                        allowed = None if caller == "unknown facts" else ids.allowed
                        found.extend(_refused(function, arguments, bad, allowed, where))
    assert not found, _problems(found)


@pytest.mark.parametrize("name", PACKAGE_CASES)
def test_an_id_of_a_parameters_type_is_never_refused_as_unknown(name: str) -> None:
    """Every id of each parameter's type is taken: an answer, or the fact it lacks
    (UnknownFactError), or a rule it is outside (OutOfDomainError), never "no such id". An effect
    is taken with its own calamity (another calamity's is refused by that calamity, as a rank a
    unit does not have is), and a primary effect is no secondary victim's; with the facts left
    out, no calamity's effects are known, and so no effect is of the type."""
    declared_ = declared(name)
    module = declared_.module
    found: list[str] = []
    for helper in declared_.helpers:
        for parameter in helper.ids:
            calamities: dict[str, str] = {}
            if parameter.name == "effect" and "calamity" in {p.name for p in helper.ids}:
                calamities = {e.id: c for c, listed in module.CALAMITY_EFFECTS.items() for e in listed or ()}
            for value in sorted(_allowed(parameter.shape).allowed):
                given = {parameter.name: _given(parameter.shape, value)}
                if value in calamities:
                    given["calamity"] = calamities[value]
                arguments = _base(helper, given)
                if arguments is None:
                    continue
                arguments = _consistent(declared_, helper, arguments, parameter.name)
                for caller, function in _callers(declared_, helper):
                    if caller == "unknown facts" and "effect" in arguments:
                        continue  # no calamity's effects known: no effect is of the type
                    try:
                        function(**arguments)
                    except UnknownIdError as refused:
                        if helper.name == "secondary_losses" and "on secondary victims" in str(refused):
                            continue  # a primary effect: not one secondary victims suffer
                        found.append(f"{caller}.{helper.name}({arguments}): {refused}")
                    except Exception:  # noqa: BLE001 - any other answer is the helper's to give
                        continue
    assert not found, _problems(found)


def test_the_types_are_read_from_the_packages() -> None:
    """The reading finds what it must: a raze target takes the two raze actions, not every action;
    a defence the two defending situations, not the walls; an effect every calamity effect."""
    imperial = {h.name: h for h in declared("imperial_settlers").helpers}
    (target,) = imperial["raze_price"].ids
    assert _allowed(target.shape).allowed == {"raze_card_in_hand", "raze_opponent_location"}
    assert {p.name: type(p.shape) for p in imperial["production"].ids} == {
        "faction": Ids,
        "deals": Each,
        "locations": Each,
    }
    smc = {h.name: h for h in declared("sid_meiers_civilization").helpers}
    defending = next(p for p in smc["combat_bonus"].ids if p.name == "defending")
    assert _allowed(defending.shape).allowed == {"defending_city", "defending_capital"}
    assert len(_allowed(next(p for p in smc["unlocked_by"].ids).shape).types) == 4
    ac = {h.name: h for h in declared("advanced_civilization").helpers}
    held = next(p for p in ac["secondary_losses"].ids if p.name == "held")
    assert held.shape == ByKey(Each(_allowed(held.shape)))
    assert "famine_primary" in _allowed(next(p for p in ac["calamity_amount"].ids if p.name == "effect").shape).allowed
    (area, _) = {h.name: h for h in declared("expansion_project").helpers}["neighbours"].ids
    assert not _allowed(area.shape).allowed  # a ruleset without a map: no area is of the type
    assert _named("no raze action 'x' in this ruleset; one of a, b") == ["a", "b"]
    assert _named("'x' is not a card of this ruleset: did you mean 'law'?") == ["law"]
    assert _named("famine has no effect 'x' (its effects: 'famine_primary', 'famine_secondary')") == [
        "famine_primary",
        "famine_secondary",
    ]


# --- Ids the types above do not name, and facts every shipped ruleset gives -------------------


def _imperial() -> ModuleType:
    return declared("imperial_settlers").module


def _smc() -> ModuleType:
    return declared("sid_meiers_civilization").module


def _ac() -> ModuleType:
    return declared("advanced_civilization").module


def test_a_misspelt_good_is_refused_before_the_cost_of_the_card_is_looked_up() -> None:
    """The goods of ``can_pay`` and ``missing_to_pay`` are ids though typed as any str: where the
    card's cost is not in the sources, a misspelt good was reported as that cost unknown."""
    from civrules_runtime_imperial_settlers import logic

    imperial = _imperial()
    cards = {**imperial.CARDS, "com003": imperial.CARDS["com003"].replace(cost=None)}
    with pytest.raises(UnknownIdError, match=r"^no good 'wod' in this ruleset; did you mean 'wood'\?$"):
        logic.missing_to_pay(cards, imperial.GOODS, "com003", ["wod"])
    with pytest.raises(UnknownIdError, match=r"^no good 'wod' in this ruleset"):
        logic.missing_to_pay(cards, imperial.GOODS, "com003", iter({"wod": 1}))
    with pytest.raises(
        UnknownFactError, match=r"^this ruleset does not give the building cost of 'com003' \(cards\[com003\]\.cost\)$"
    ):
        logic.missing_to_pay(cards, imperial.GOODS, "com003", ["wood"])
    held = iter(["gold", "wood", "stone"])  # an iterator is read once
    assert logic.missing_to_pay(imperial.CARDS, imperial.GOODS, "com003", held) == imperial.missing_to_pay(
        "com003", ["gold", "wood", "stone"]
    )


def test_a_raze_action_the_ruleset_lacks_or_gives_no_price_is_an_unknown_fact() -> None:
    """A raze action is of ``raze_price``'s type in every ruleset of the family: one a ruleset
    removed, or whose price in raze tokens it does not give, is a fact it lacks; any other action
    is no raze at all."""
    from civrules_runtime_imperial_settlers import logic

    actions = _imperial().ACTIONS
    without = {action: record for action, record in actions.items() if action != "raze_opponent_location"}
    with pytest.raises(
        UnknownFactError,
        match=r"^this ruleset does not give the price of the raze action 'raze_opponent_location' .*: it is not among",
    ):
        logic.raze_price(without, "raze_opponent_location")
    unpriced = {**actions, "raze_card_in_hand": actions["raze_card_in_hand"].replace(price={"food": 1})}
    with pytest.raises(
        UnknownFactError, match=r"^this ruleset does not give the price of 'raze_card_in_hand' in raze tokens"
    ):
        logic.raze_price(unpriced, "raze_card_in_hand")
    for action in ("build", "deal", "spend_workers"):
        with pytest.raises(UnknownIdError, match=rf"^no raze action '{action}' in this ruleset; one of "):
            logic.raze_price(actions, action)


def test_a_misspelt_wonder_is_refused_before_the_research_cost_is_looked_up() -> None:
    from civrules_runtime_sid_meiers_civilization import logic

    smc = _smc()
    research = smc.RESEARCH.replace(costs={1: 6, 3: 16})  # the cost of level 2 left out
    with pytest.raises(UnknownIdError, match=r"^'colosus' is not a wonder of this ruleset: did you mean 'colossus'\?$"):
        logic.research_cost(research, smc.WONDERS, 2, ["colosus"])
    with pytest.raises(UnknownIdError, match=r"^'colosus' is not a wonder"):
        logic.trade_after_research(research, smc.WONDERS, 2, 20, 0, ["colosus"])
    with pytest.raises(
        UnknownFactError, match=r"^this ruleset does not give the research cost of level 2 \(research\.costs\)$"
    ):
        logic.research_cost(research, smc.WONDERS, 2, ["colossus"])


def test_every_technology_of_a_pyramid_is_checked_before_any_answer() -> None:
    """``may_place_technology`` answered False for a technology the pyramid already held without
    looking at the pyramid's other ids; ``pyramid_needs`` reported the level of the first unknown
    before a misspelling after it."""
    smc = _smc()
    assert smc.TECHNOLOGIES["pottery"].level is None  # a level the rulebook does not give
    with pytest.raises(
        UnknownIdError, match=r"^'potery' is not a technology of this ruleset: did you mean 'pottery'\?$"
    ):
        smc.may_place_technology(["potery", "pottery"], "pottery")
    with pytest.raises(UnknownIdError, match=r"^'potery' is not a technology"):
        smc.pyramid_needs(["pottery", "potery"])
    assert smc.may_place_technology(["pottery"], "pottery") is False
    with pytest.raises(
        UnknownFactError,
        match=r"^the sources do not give the level of pottery \(the pyramid cannot be judged\): the rulebook",
    ):
        smc.pyramid_needs(["pottery"])


def test_the_walls_are_no_defending_situation() -> None:
    """``defending`` takes a city or a capital (DefenceName); the walls are ``walled``. The walls
    were taken as a situation (a bonus of a defence that was never named) and offered when a
    situation was misspelt. A package built before passes the situation as its enum member: the
    rule logic refuses the walls from it too."""
    from civrules_runtime_sid_meiers_civilization import CombatSituation, logic

    smc = _smc()
    refused = r"^'defending_walls' is not a defending situation: one of 'defending_city', 'defending_capital'$"
    with pytest.raises(UnknownIdError, match=refused):
        smc.combat_bonus(defending="defending_walls", walled=True)
    with pytest.raises(UnknownIdError, match=refused):
        logic.combat_bonus(smc.COMBAT_BONUSES, smc.BUILDINGS, None, 0, CombatSituation.DEFENDING_WALLS, True)
    assert smc.combat_bonus(defending=CombatSituation.DEFENDING_CAPITAL, walled=True) == smc.combat_bonus(
        defending="defending_capital", walled=True
    )


def test_an_effect_of_the_type_whose_calamity_lacks_its_effects_is_an_unknown_fact() -> None:
    """An effect id of the ruleset asked of a calamity whose effects the sources do not give is
    UnknownFactError; an effect no calamity has is UnknownIdError proposing one that is, whatever
    the calamity asked (it was "the effects of famine are not in the sources")."""
    from civrules_runtime_advanced_civilization import logic

    ac = _ac()
    effects = {**ac.CALAMITY_EFFECTS, "famine": None}
    tables = (effects, ac.CALAMITY_MODIFIERS, ac.CALAMITY_COMBINATIONS, ac.CALAMITY_IMMUNITIES, ac.CARDS)
    ids = (ac.NATIONS, ac.COMMODITIES)
    with pytest.raises(
        UnknownFactError, match=r"^this ruleset does not give the effects of famine \(calamities\[famine\]\.effects\)$"
    ):
        logic.calamity_amount(*tables, *ids, "famine", "flood_primary", [], "primary", None, None)
    with pytest.raises(UnknownIdError, match=r"^'flood_primry' is not a calamity effect of this ruleset: did you mean"):
        logic.calamity_amount(*tables, *ids, "famine", "flood_primry", [], "primary", None, None)
    with pytest.raises(UnknownIdError, match=r"^'flood_secondry' is not a calamity effect of this ruleset: did you"):
        logic.secondary_losses(*tables, *ids, "famine", "flood_secondry", {}, None, None, None)
    with pytest.raises(UnknownIdError, match=r"^famine has no effect 'flood_primary' \(its effects: 'famine_primary'"):
        ac.calamity_amount("famine", "flood_primary", [], "primary")


def test_an_epoch_a_track_does_not_place_is_an_unknown_fact() -> None:
    """A track that does not say where an epoch starts raised StopIteration from inside the rule
    logic when the epoch's entry needs the value of its first space."""
    from civrules_runtime_advanced_civilization import logic

    ac = _ac()
    track = ac.AST_TRACKS["egypt"]["standard"]
    starts = tuple((epoch, space) for epoch, space in track.epoch_starts if epoch != "late_iron_age")
    tracks = {**ac.AST_TRACKS, "egypt": {"standard": track.replace(epoch_starts=starts)}}
    arguments = (ac.EPOCHS, ac.CARDS, tracks, ac.NATIONS, len(ac.GROUPS), ac.AST_LEVELS, "late_iron_age", 20)
    with pytest.raises(
        UnknownFactError, match=r"^this ruleset does not give where late_iron_age starts on the A.S.T. track of egypt"
    ):
        logic.can_enter_epoch(*arguments, list(ac.CARDS), "egypt", None)
