"""``help()`` and ``pydoc`` of the runtimes and packages, as an engine developer reads them: every
module renders, and every public class and function says what it is. Before round 33 the Advanced
Civilization family runtime's effect records (``Tax``, ``Conflict`` ...), ``Area``, ``Border``,
``Calamity``, ``Group``, ``TradeStack`` and thirteen of its vocabularies had no docstring:
``help(Calamity)`` showed only its constructor (the other two families' had theirs)."""

from __future__ import annotations

import importlib
import inspect
import pydoc

import pytest

from tests.engine.test_type_hints import EVERY_PACKAGE_SWEPT, PACKAGES, RUNTIME_MODULES, annotated, package_modules

MODULES = [*RUNTIME_MODULES, *(m for package in PACKAGES for m in package_modules(package))]


def own_doc(value: object) -> str | None:
    """A class's own docstring (``inspect.getdoc`` falls back to its base's: a record would show
    the record base's, a vocabulary StrEnum's), a function's docstring."""
    return vars(value).get("__doc__") if inspect.isclass(value) else getattr(value, "__doc__", None)


@pytest.mark.parametrize("module", MODULES)
def test_every_public_class_and_function_says_what_it_is(module: str) -> None:
    imported = importlib.import_module(module)
    assert (imported.__doc__ or "").strip()
    undocumented = [
        name
        for name, value in annotated(imported)
        if name.count(".") == module.count(".") + 1  # the module's own classes and functions, not their methods
        and not (own_doc(value) or "").strip()
    ]
    assert not undocumented


@pytest.mark.parametrize("package", EVERY_PACKAGE_SWEPT)
def test_help_renders_every_module_of_every_package(package: str) -> None:
    for module in package_modules(package):
        text = pydoc.render_doc(importlib.import_module(module), renderer=pydoc.plaintext)  # type: ignore[attr-defined]  # in pydoc, not in its stub
        assert module in text
