"""Game families: the rooms of the games civrules compiles, and the register that finds them.

The core (load, schema, resolve, checks, emit, lsp, cli) names no game. What one game adds — its
file kinds and their schemas, its checks and their code prefix, its typed model, its engine
package and runtime, its sheets — is declared by one :class:`Family` object in the game's room
(``civrules/families/<family>/``), and every stage asks the register for the family of the ruleset
at hand.

Families come from installed distributions only: each registers its object under the entry-point
group ``civrules.families`` (``[project.entry-points."civrules.families"]`` in its
``pyproject.toml``), so a family can be a distribution of its own, named as its authors choose
outside the names civrules gives what it generates (``civrules-rulesets-*``, ``civrules-runtime``,
``civrules-runtime-*``: installing a package so named would uninstall the family, so such a family
is refused before it is imported). Nothing is ever imported from a
rules tree: a rules repository cannot bring code. The families shipped with civrules are also
registered without metadata (a source checkout that was never installed still knows them).

A ruleset manifest names its family with ``family:``; without one, the family registered as the
default applies (Advanced Civilization declares itself the default, so every manifest written
before families existed keeps working unchanged).

``docs/families.md`` walks through adding a family with the example kept under
``tests/families/example/``.
"""

from __future__ import annotations

import functools
import importlib
import os
import sys
from collections.abc import Mapping
from typing import Any

from civrules.families.family import (
    CORE_PREFIXES,
    FAMILY_ID,
    FILE_METADATA,
    HOOK_TARGET,
    HOOKS,
    PREFIX,
    CollectionSpec,
    Continuation,
    Family,
    FamilyError,
    Hover,
    HoverList,
)

#: The entry-point group a family distribution registers its :class:`Family` object under.
ENTRY_POINT_GROUP = "civrules.families"

#: The families shipped inside civrules itself, registered even where no metadata is installed.
#: The register imports them (by name, when first read); they import only
#: :mod:`civrules.families.family`, never the register, so there is no cycle.
BUILTIN = (
    "civrules.families.advanced_civilization:FAMILY",
    "civrules.families.sid_meiers_civilization:FAMILY",
    "civrules.families.imperial_settlers:FAMILY",
)

__all__ = [
    "BUILTIN",
    "CORE_PREFIXES",
    "ENTRY_POINT_GROUP",
    "FILE_METADATA",
    "HOOKS",
    "CollectionSpec",
    "Continuation",
    "Family",
    "FamilyError",
    "Hover",
    "HoverList",
    "default_family",
    "families",
    "family_named",
    "family_of",
    "family_of_code",
    "family_of_module",
]


@functools.cache
def families() -> Mapping[str, Family]:
    """Every registered family by id: the built-in ones, then those installed distributions declare.

    Raises :class:`FamilyError` when two families share an id or a code prefix, or a family takes
    one of the core's prefixes: such a family would make users' ``--select`` and suppressions
    ambiguous, so it is refused when the register is first read, not when a code collides later.
    """
    found: dict[str, Family] = {}
    sources: dict[str, str] = {}
    for target in BUILTIN:
        _register(found, sources, _load(target), target)
    for entry in _installed_entry_points():
        if entry.value in BUILTIN:
            continue
        distribution = _distribution_of(entry)
        try:
            _refuse_generated_name(entry)
            try:
                family = entry.load()
            except Exception as error:  # a broken third-party family is named, not a traceback
                raise FamilyError(
                    f"the family `{entry.name}` ({entry.value}) could not be imported: {type(error).__name__}: {error}"
                ) from error
            _register(found, sources, family, entry.value)
        except FamilyError as error:  # said with the distribution at fault (R019)
            raise FamilyError(str(error), family=entry.name, distribution=distribution) from error.__cause__
    defaults = [f.id for f in found.values() if f.default]
    if len(defaults) > 1:
        raise FamilyError(f"more than one family declares itself the default: {', '.join(defaults)}")
    return dict(sorted(found.items()))


def _distribution_of(entry: Any) -> tuple[str, str] | None:
    """The name of the distribution that declares ``entry`` and the folder it is installed in."""
    distribution = getattr(entry, "dist", None)
    name = getattr(distribution, "name", None) if distribution is not None else None
    if distribution is None or not isinstance(name, str):
        return None
    try:
        folder = str(distribution.locate_file(""))
    except (AttributeError, NotImplementedError, OSError, TypeError, ValueError):
        folder = ""
    return name, folder


def _installed_entry_points() -> list[Any]:
    """The entry points of :data:`ENTRY_POINT_GROUP` installed distributions declare, by name.

    Most runs find only the built-in families there (civrules' own distribution declares them), and
    importing :mod:`importlib.metadata` and reading every distribution's metadata was a twentieth
    of a whole-process `validate` (issue 32, point 5). So the distributions' ``entry_points.txt``
    files are looked over first; only when one names another family in the group, or where some
    distribution cannot be looked over (an archive on ``sys.path``, a finder of distributions other
    than the standard one), does :mod:`importlib.metadata` read them.
    """
    if not _only_builtin_entry_points():
        from importlib import metadata  # see the docstring

        return sorted(metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: (e.name, e.value))
    return []


def _only_builtin_entry_points() -> bool:
    """Whether no installed distribution can declare a family besides :data:`BUILTIN` (False: unsure)."""
    for finder in sys.meta_path:
        if hasattr(finder, "find_distributions") and getattr(finder, "__name__", None) != "PathFinder":
            return False
    header = f"[{ENTRY_POINT_GROUP}]"
    for entry in sys.path:
        folder = entry or "."
        if not os.path.isdir(folder):
            if os.path.exists(folder):  # an archive: importlib.metadata reads inside it
                return False
            continue
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            if not name.lower().endswith((".dist-info", ".egg-info")):
                continue
            try:
                with open(os.path.join(folder, name, "entry_points.txt"), encoding="utf-8") as file:
                    text = file.read()
            except (OSError, UnicodeDecodeError):
                continue
            if header not in text:
                continue
            section = text.split(header, 1)[1].split("\n[", 1)[0]
            for line in section.splitlines():
                line = line.strip()
                if line and not line.startswith(("#", ";")) and line.partition("=")[2].strip() not in BUILTIN:
                    return False
    return True


def _refuse_generated_name(entry: Any) -> None:
    """Refuse a family whose distribution is named as one civrules generates (a ruleset's
    ``civrules-rulesets-<id>``, a runtime's ``civrules-runtime...``): pip would take the two for one
    project, so installing that package would uninstall the family. Refused before it is imported."""
    # Imported here: only a family from another distribution gets this far, and most runs have none.
    from civrules.emit.packaging import RULESETS_DISTRIBUTION, RUNTIME_DISTRIBUTION, is_generated_distribution

    distribution = getattr(entry, "dist", None)
    name = getattr(distribution, "name", None) if distribution is not None else None
    if isinstance(name, str) and is_generated_distribution(name):
        raise FamilyError(
            f"the family `{entry.name}` ({entry.value}) comes from the distribution `{name}`, a name civrules "
            f"gives what it generates (`{RULESETS_DISTRIBUTION}-<ruleset id>`, `{RUNTIME_DISTRIBUTION}-<family id>`): "
            "installing that package would uninstall the family; rename the family's distribution"
        )


def _load(target: str) -> Family:
    module, _, attribute = target.partition(":")
    family: Family = getattr(importlib.import_module(module), attribute)
    return family


def _register(found: dict[str, Family], sources: dict[str, str], family: object, where: str) -> None:
    if not isinstance(family, Family):
        raise FamilyError(f"{where} is not a civrules Family object")
    if not FAMILY_ID.match(family.id):
        raise FamilyError(f"{where}: family id `{family.id}` is not lower-case words joined by '-'")
    if "assemble" not in family.hooks:
        raise FamilyError(f"{where}: family `{family.id}` has no `assemble` hook (resolved ruleset → its model)")
    for name, target in family.hooks.items():
        if name not in HOOKS:
            known = ", ".join(f"`{known}`" for known in HOOKS)
            raise FamilyError(
                f"{where}: family `{family.id}` declares the hook `{name}`, which civrules never calls: "
                f"the hooks are {known}"
            )
        if not isinstance(target, str) or not HOOK_TARGET.match(target):
            raise FamilyError(f"{where}: family `{family.id}`'s hook `{name}` is {target!r}, not `module:attribute`")
    for collection in family.named_ids:
        if collection not in family.collections:
            # Never asked for: a rename of those ids would go ahead, unsaid.
            raise FamilyError(
                f"{where}: family `{family.id}` declares ids its rules name in `{collection}`, which is none of "
                "its collections"
            )
    if family.id in found:
        raise FamilyError(f"two families take the id `{family.id}`: {sources[family.id]} and {where}")
    for prefix in family.code_prefixes:
        if not PREFIX.match(prefix):
            raise FamilyError(f"{where}: code prefix `{prefix}` is not one capital letter")
        if prefix in CORE_PREFIXES:
            raise FamilyError(f"{where}: code prefix `{prefix}` is the core's")
        for other in found.values():
            if prefix in other.code_prefixes:
                raise FamilyError(f"{where}: code prefix `{prefix}` is already the family `{other.id}`'s")
    found[family.id] = family
    sources[family.id] = where


def default_family() -> Family:
    """The family of a manifest that names none."""
    for family in families().values():
        if family.default:
            return family
    raise FamilyError("no family declares itself the default")


def family_named(family_id: str) -> Family | None:
    return families().get(family_id)


def family_of(data: Mapping[str, Any]) -> Family | None:
    """The family a manifest's data names (the default where it names none; None: unknown)."""
    named = data.get("family")
    if named is None:
        return default_family()
    return family_named(named) if isinstance(named, str) else None


def family_of_code(code: str) -> Family | None:
    """The family whose checks report ``code`` (None: a code of the core's)."""
    for family in families().values():
        if family.owns_code(code):
            return family
    return None


def family_of_module(module: str) -> Family | None:
    """The family whose room holds the module ``module`` (None: the core)."""
    for family in families().values():
        if module == family.package or module.startswith(family.package + "."):
            return family
    return None
