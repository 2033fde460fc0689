"""What a game family is: the :class:`Family` object a family's room declares.

This module is the contract between the core and a family, and it imports nothing of either: a
family's room imports it to declare itself, the register (:mod:`civrules.families`) imports the
rooms to find them, and neither depends on the other's module.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

#: The letters of the codes the core's own diagnostics use (loading, schema, resolution, identity,
#: references, citations and unknown facts, variants); no family may take them.
CORE_PREFIXES = ("I", "L", "Q", "R", "S", "V", "X")

FAMILY_ID = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
PREFIX = re.compile(r"^[A-Z]$")


class FamilyError(Exception):
    """A family that cannot be registered (a bad id, a prefix another family or the core holds)."""


@dataclass(frozen=True, slots=True)
class Family:
    """What one game family adds to the core.

    Parameters
    ----------
    id:
        The value of a manifest's ``family:`` (``advanced-civilization``).
    name:
        The family in words, for listings (``Advanced Civilization``).
    package:
        The import package of the family's room; its checks and sheets are modules under it.
    code_prefixes:
        The letters that begin the codes of the family's checks. One letter each, so that
        ``--select``/``--ignore``, which match by prefix, never select two families at once.
    kinds:
        The file kinds the family reads, each with its schema file (relative to ``schemas/``).
    checks:
        Packages whose every module registers checks of this family.
    sheets:
        Packages whose every module registers sheets of this family.
    hooks:
        ``name → "module:attribute"`` of the family's functions, imported when first asked for:
        ``assemble`` (resolved ruleset → typed model), ``references`` (the references its
        entities make), ``export`` (the derived facts ``export`` adds), ``package`` (the engine
        package's files), ``runtime`` (the runtime's files) and ``variant_example`` (resolved base
        → the commented overlay examples ``civrules new-variant`` writes: what a variant of this
        family may change, taken from the base's own data).
    default:
        Whether a manifest without ``family:`` belongs to this family (one family at most).
    """

    id: str
    name: str
    package: str
    code_prefixes: tuple[str, ...]
    kinds: Mapping[str, str] = field(default_factory=dict)
    checks: tuple[str, ...] = ()
    sheets: tuple[str, ...] = ()
    hooks: Mapping[str, str] = field(default_factory=dict)
    default: bool = False

    def hook(self, name: str) -> Callable[..., Any] | None:
        """The family's function ``name`` (imported now), or None where the family has none."""
        target = self.hooks.get(name)
        if target is None:
            return None
        module, _, attribute = target.partition(":")
        found: Callable[..., Any] = getattr(importlib.import_module(module), attribute)
        return found

    def owns_code(self, code: str) -> bool:
        return code[:1] in self.code_prefixes
