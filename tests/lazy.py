"""Libraries that only some tests use, imported when a test first uses them, not when its module
is collected.

Every pytest-xdist worker imports and collects every test module (`make test`: three workers), and
runs about a third of them. A library imported at a module's top is imported by every worker: the
sheet modules' pypdf, html5lib and Pillow (about 0.25 s of CPU), whose tests run on the one worker
of the browser modules, and networkx (0.15 s), which three modules use and the compiler itself
imports only where a graph algorithm runs. Such a module binds the name to :func:`module` instead,
and mypy reads the real import::

    if TYPE_CHECKING:
        import pypdf
    else:
        pypdf = lazy.module("pypdf")

:data:`LIBRARIES` lists them; ``core/test_suite_rules.py`` holds the suite to them: none is imported
once every module is collected.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any, cast

#: The libraries only some tests use: no test module imports one when it is collected.
LIBRARIES = ("networkx", "pypdf", "html5lib", "PIL")


class _Lazy:
    """A module's stand-in: the module is imported at the first attribute a test asks of it."""

    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attribute: str) -> Any:
        if attribute.startswith("_"):
            # pytest asks every global of a module it collects for its marks (``__test__``,
            # ``_fixture_function_marker``, ...): no answer, rather than the import.
            raise AttributeError(attribute)
        return getattr(importlib.import_module(self._name), attribute)

    def __repr__(self) -> str:
        return f"<lazy module {self._name!r}>"


def module(name: str) -> ModuleType:
    """A stand-in for the module ``name`` (typed as the module: bind it under ``TYPE_CHECKING``'s
    ``else``), which imports it at its first use."""
    if name.split(".")[0] not in LIBRARIES:
        raise ValueError(f"{name} is not in tests/lazy.py LIBRARIES")
    return cast(ModuleType, _Lazy(name))
