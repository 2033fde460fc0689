"""The catalogue of checks: every registered check (the core's and each family's), and running them.

The checks register themselves into :mod:`civrules.checks` when their module is imported; this
module imports them all — the core's by name, each family's from the packages its register entry
lists (:attr:`civrules.families.Family.checks`) — and says which family each belongs to. It is the
only module that imports the checks, and no check imports it.
"""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING

from civrules import checks as register
from civrules.diagnostics import Diagnostic, codes
from civrules.families import CORE_PREFIXES, Family, FamilyError, families, family_of_code, family_of_module

if TYPE_CHECKING:
    from civrules.model import Ruleset

#: The package of the core's checks: each of its modules is a check module.
CORE = "civrules.checks"


def all_checks(family: str | None = None) -> list[register.Check]:
    """Every registered check, by code, each with the id of the family whose rulesets it runs on.

    With ``family`` (a family's id), only the core's checks and that family's are imported first:
    running the checks of one ruleset imports no other family's checks and models (start-up time);
    the checks imported before are listed all the same (:func:`run_checks` skips other families').

    Raises :class:`~civrules.families.FamilyError` for a check whose code is not of its room's
    prefixes (a family's check under the core's letters or another family's, a check of civrules
    outside a family under a family's). A check registered from outside civrules and every family
    (a test's double) runs on every ruleset, unchecked.
    """
    _import_all(family)
    rooms, registered = families(), register._CHECKS
    listed = _LISTED.get("checks")
    if (
        listed is not None
        and listed[0] is rooms
        and len(listed[1]) == len(registered)
        and all(one is other for one, other in zip(listed[1], registered, strict=True))
    ):
        return list(listed[2])
    found = []
    for entry in registered:
        module = entry.run.__module__
        owner = family_of_module(module)
        code = entry.code.code
        if owner is not None and not owner.owns_code(code):
            raise FamilyError(
                f"{module}: check {code} is not of the family `{owner.id}`'s prefixes "
                f"({', '.join(owner.code_prefixes)})"
            )
        if owner is None and module.startswith("civrules.") and code[:1] not in CORE_PREFIXES:
            raise FamilyError(f"{module}: check {code} is not of the core's prefixes")
        found.append(dataclasses.replace(entry, family=owner.id) if owner is not None else entry)
    found.sort(key=lambda c: c.code.code)
    _LISTED["checks"] = (rooms, list(registered), found)
    return list(found)


#: The last list :func:`all_checks` made, with the families and the registered checks it was made
#: from (the same objects, in the same order, give the same list): it was made again for every
#: ruleset checked, about 0.3 ms each, 13 times in an edit of a base under twelve variants.
_LISTED: dict[str, tuple[Mapping[str, Family], list[register.Check], list[register.Check]]] = {}


def catalogue() -> dict[str, codes.Code]:
    """Every diagnostic code by code: the registry's own and every check's (imported here, so
    registered). The registry (:mod:`civrules.diagnostics.codes`) does not import its users; this does."""
    all_checks()
    return {entry.code: entry for entry in codes.all_codes()}


codes.provide_catalogue(catalogue)


def run_checks(
    ruleset: Ruleset,
    select: Iterable[str] = (),
    ignore: Iterable[str] = (),
    *,
    debug: bool = False,
    reuse: Callable[[register.Check, Ruleset], list[Diagnostic] | None] | None = None,
    found_by: dict[str, list[Diagnostic]] | None = None,
) -> Iterator[Diagnostic]:
    """Run every registered check (or the selected ones) over a ruleset.

    A check that crashes is a bug in civrules: it becomes an internal-error diagnostic (R900) and
    the other checks still run, so one bug does not hide every other finding. ``reuse`` may give a
    check's findings without running it (a session's, from before an edit the check does not
    read: it is given the check and the model it would run on); ``found_by`` collects each
    check's findings by code.
    """
    selected = {c.upper() for c in select}
    ignored = {c.upper() for c in ignore}
    for entry in all_checks(ruleset.family):
        code = entry.code.code
        if entry.family is not None and entry.family != ruleset.family:
            continue
        if (selected and not any(code.startswith(s) for s in selected)) or any(code.startswith(i) for i in ignored):
            continue
        reused = reuse(entry, ruleset) if reuse is not None else None
        try:
            found = list(entry.run(ruleset)) if reused is None else reused
        except MemoryError:  # not a bug in the check: the input outgrew the machine (the command says so)
            raise
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
                    subjects=(ruleset.id,),
                )
            ]
        if found_by is not None:
            found_by[code] = found
        yield from found


#: The packages of checks imported so far (a family registered later is imported when first asked for).
_imported: set[str] = set()


def known_code(code: str) -> bool:
    """Whether ``code`` is a diagnostic code: the registry's, or a check's of the family its prefix
    names (only that family's checks are imported, unlike :func:`catalogue`)."""
    owner = family_of_code(code)
    all_checks(owner.id if owner is not None else "")
    return any(entry.code == code for entry in codes.all_codes())


def _import_all(only: str | None = None) -> None:
    chosen = families().values() if only is None else [f for f in families().values() if f.id == only]
    packages = [CORE, *(package for family in chosen for package in family.checks)]
    for package in packages:
        if package in _imported:
            continue
        _imported.add(package)
        for module in pkgutil.iter_modules(importlib.import_module(package).__path__):
            if f"{package}.{module.name}" != __name__:
                importlib.import_module(f"{package}.{module.name}")
