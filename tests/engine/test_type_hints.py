"""``typing.get_type_hints`` answers for every public class and function of every runtime and of a
package of each family: the tools engines introspect with (dataclass-style field readers, cattrs,
typeguard, pydantic's ``TypeAdapter``, ``inspect.get_annotations(eval_str=True)``) evaluate the
postponed annotations in the module's globals, so each name an annotation uses must be there at run
time, not only for type checkers (``NameError: name 'Callable' is not defined`` before round 31).

The modules walked are those the ledger of released runtime names lists (every module of every
runtime) and the modules of one package of each family, so a module or a name added later is
walked too.
"""

from __future__ import annotations

import importlib
import inspect
import json
import sys
import typing
from collections.abc import Iterable, Iterator
from random import Random
from types import ModuleType

import pytest

from tests.conftest import REPO

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

#: Every module of every runtime, as the ledger of released names has them.
RUNTIME_MODULES = sorted(json.loads((REPO / "compiler" / "tools" / "runtime_names.json").read_text(encoding="utf-8")))
#: One package of each family.
PACKAGES = ("advanced_civilization", "imperial_settlers", "sid_meiers_civilization")


def package_modules(package: str) -> list[str]:
    folder = GENERATED / "civrules_rulesets" / package
    return sorted(
        f"civrules_rulesets.{package}" + ("" if path.stem == "__init__" else f".{path.stem}")
        for path in folder.glob("*.py")
    )


def annotated(module: ModuleType) -> Iterator[tuple[str, object]]:
    """Each public class and function ``module`` defines (a name it re-exports is walked in the
    module that defines it), with each function, property, class and static method a class defines
    itself, by its dotted name."""
    for name, value in list(vars(module).items()):  # not __all__'s names: those loaded on use are walked where defined
        if name.startswith("_") or not (inspect.isclass(value) or inspect.isfunction(value)):
            continue
        if value.__module__ != module.__name__:
            continue
        yield f"{module.__name__}.{name}", value
        if inspect.isclass(value):
            for attribute, member in vars(value).items():
                if isinstance(member, staticmethod | classmethod):
                    member = member.__func__
                elif isinstance(member, property):
                    member = member.fget
                if inspect.isfunction(member):
                    yield f"{module.__name__}.{name}.{attribute}", member


@pytest.mark.parametrize("module", [*RUNTIME_MODULES, *(m for package in PACKAGES for m in package_modules(package))])
def test_every_public_class_and_function_has_type_hints_that_evaluate(module: str) -> None:
    imported = importlib.import_module(module)
    failed = {}
    for name, value in annotated(imported):
        try:
            typing.get_type_hints(value)
        except NameError as error:  # a name an annotation uses is imported for type checkers only
            failed[name] = str(error)
    assert not failed


def test_the_hints_are_the_types_a_type_checker_reads() -> None:
    from civrules_rulesets import advanced_civilization
    from civrules_rulesets.advanced_civilization.ids import CalamityIdName
    from civrules_runtime_advanced_civilization.records import Card, Credit

    suffered = typing.get_type_hints(advanced_civilization.calamities_suffered)
    assert suffered["received"] == Iterable[CalamityIdName]
    assert suffered["rng"] == Random | None
    assert typing.get_type_hints(Card)["credits"] == tuple[Credit, ...] | None
    assert typing.get_type_hints(Card.replace)["return"] is typing.Self
    assert inspect.get_annotations(advanced_civilization.calamities_suffered, eval_str=True) == suffered
