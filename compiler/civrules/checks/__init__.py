"""Semantic checks over the resolved ruleset model: the register, and the checks every family shares.

Each concern is one module: the family-neutral ones here (``identity.py``, ``references.py``,
``citations.py``, ``unknowns.py``), a family's own in its room
(``civrules/families/<family>/checks/``). A check is a generator registered with :func:`check`:
its code, a name, a severity, and its docstring, which is the user documentation ``civrules
explain CODE`` prints (What / Why / Fix, with the smallest PASS and FAIL snippets). Adding a check
never touches the others. A family's checks run only on that family's rulesets.

The core's codes: ``I`` identity, ``X`` references, ``Q`` rule citations and unknown facts (and,
outside the checks, ``L`` loading, ``S`` schema, ``R`` rulesets, ``V`` variants). Each family owns
the prefixes it declares (:attr:`civrules.families.Family.code_prefixes`); a check whose code is
not of its room's prefixes is refused when it is registered.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from civrules.diagnostics import Diagnostic, Related, Severity, Span, codes
from civrules.families import CORE_PREFIXES, FamilyError, families, family_of_module

if TYPE_CHECKING:
    from civrules.model import Ruleset

#: A check's function: a family's checks take the family's model (a subclass of the core's Ruleset).
CheckFunction = Callable[[Any], Iterable[Diagnostic]]
R = TypeVar("R", bound="Ruleset")


@dataclass(frozen=True, slots=True)
class Check:
    code: codes.Code
    run: CheckFunction
    #: The id of the family whose rulesets the check runs on; None: every ruleset (the core's).
    family: str | None = None


_CHECKS: list[Check] = []


def check(
    code: str, name: str, severity: Severity
) -> Callable[[Callable[[R], Iterable[Diagnostic]]], Callable[[R], Iterable[Diagnostic]]]:
    """Register a check; its docstring becomes the documentation of ``code``."""

    def register(function: Callable[[R], Iterable[Diagnostic]]) -> Callable[[R], Iterable[Diagnostic]]:
        owner = family_of_module(function.__module__)
        if owner is not None and not owner.owns_code(code):
            raise FamilyError(
                f"{function.__module__}: check {code} is not of the family `{owner.id}`'s prefixes "
                f"({', '.join(owner.code_prefixes)})"
            )
        if owner is None and code[:1] not in CORE_PREFIXES:
            raise FamilyError(f"{function.__module__}: check {code} is not of the core's prefixes")
        entry = codes.define(code, name, severity, function.__doc__ or "")
        _CHECKS.append(Check(entry, function, owner.id if owner is not None else None))
        return function

    return register


def diagnostic(
    code: codes.Code | str,
    message: str,
    span: Span | None,
    hint: str | None = None,
    related: Iterable[Related] = (),
    suggestion: str | None = None,
) -> Diagnostic:
    """Build a diagnostic for a registered code (its severity comes from the registry).

    ``suggestion`` is the replacement for the text at ``span`` that a "did you mean" hint proposes.
    """
    entry = codes.lookup(code) if isinstance(code, str) else code
    if entry is None:
        raise KeyError(f"unregistered diagnostic code {code}")
    return Diagnostic(entry.code, entry.severity, message, span, hint, tuple(related), suggestion)


def entity_word(collection: str, family: str | None = None) -> str:
    """One entity of ``collection`` in words (``calamities`` → ``calamity``), as ``family`` (or the
    first family that has such a collection) words it."""
    if collection == "rulesets":
        return "ruleset"
    known = families()
    candidates = [known[family]] if family is not None and family in known else list(known.values())
    for candidate in candidates:
        if collection in candidate.collections:
            return candidate.entity_word(collection)
    return collection


def all_checks() -> list[Check]:
    _import_all()
    return sorted(_CHECKS, key=lambda c: c.code.code)


def catalogue() -> dict[str, codes.Code]:
    """Every diagnostic code by code: the registry's own and every check's (imported here, so
    registered). The registry (:mod:`civrules.diagnostics.codes`) does not import its users; this does."""
    _import_all()
    return {entry.code: entry for entry in codes.all_codes()}


def run_checks(
    ruleset: Ruleset, select: Iterable[str] = (), ignore: Iterable[str] = (), *, debug: bool = False
) -> Iterator[Diagnostic]:
    """Run every registered check (or the selected ones) over a ruleset.

    A check that crashes is a bug in civrules: it becomes an internal-error diagnostic (R900) and
    the other checks still run, so one bug does not hide every other finding.
    """
    selected = {c.upper() for c in select}
    ignored = {c.upper() for c in ignore}
    for entry in all_checks():
        code = entry.code.code
        if entry.family is not None and entry.family != ruleset.family:
            continue
        if (selected and not any(code.startswith(s) for s in selected)) or any(code.startswith(i) for i in ignored):
            continue
        try:
            found = list(entry.run(ruleset))
        except Exception as error:  # reported as R900, never swallowed
            if debug:
                raise
            found = [
                Diagnostic(
                    codes.INTERNAL_ERROR.code,
                    codes.INTERNAL_ERROR.severity,
                    f"check {code} ({entry.code.name}) crashed on ruleset `{ruleset.id}`: "
                    f"{type(error).__name__}: {error}",
                    None,
                    "this is a bug in civrules, not in your rules: please report it with the output of --debug",
                )
            ]
        yield from found


#: The packages of checks imported so far (a family registered later is imported when first asked for).
_imported: set[str] = set()


def _import_all() -> None:
    packages = [__name__, *(package for family in families().values() for package in family.checks)]
    for package in packages:
        if package in _imported:
            continue
        _imported.add(package)
        for module in pkgutil.iter_modules(importlib.import_module(package).__path__):
            importlib.import_module(f"{package}.{module.name}")
