"""Game families: the rooms of the games civrules compiles, and the register that finds them.

The core (load, schema, resolve, checks, emit, lsp, cli) names no game. What one game adds — its
file kinds and their schemas, its checks and their code prefix, its typed model, its engine
package and runtime, its sheets — is declared by one :class:`Family` object in the game's room
(``civrules/families/<family>/``), and every stage asks the register for the family of the ruleset
at hand.

Families come from installed distributions only: each registers its object under the entry-point
group ``civrules.families`` (``[project.entry-points."civrules.families"]`` in its
``pyproject.toml``), so a family can be a distribution of its own. Nothing is ever imported from a
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
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

#: The entry-point group a family distribution registers its :class:`Family` object under.
ENTRY_POINT_GROUP = "civrules.families"

#: The families shipped inside civrules itself, registered even where no metadata is installed.
BUILTIN = ("civrules.families.advanced_civilization:FAMILY",)

#: The letters of the codes the core's own diagnostics use (loading, schema, resolution, identity,
#: references, citations and unknown facts, variants); no family may take them.
CORE_PREFIXES = ("I", "L", "Q", "R", "S", "V", "X")

_FAMILY_ID = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
_PREFIX = re.compile(r"^[A-Z]$")


@dataclass(frozen=True, slots=True)
class CollectionSpec:
    """Where a collection of a family lives and how its entities are keyed.

    ``slot`` is the manifest's file slot that holds it (``ruleset``: the manifest itself), ``path``
    the keys down to its list in such a file, ``key`` the field that identifies an entity. Two
    ways of keying besides one field: ``qualifier`` (an entity per key *and* qualifier, written
    ``key@qualifier``), and ``pair`` (the key is a pair of ids in either order, written ``a|b``).
    """

    slot: str
    path: tuple[str, ...]
    key: str = "id"
    qualifier: str | None = None
    pair: bool = False
    #: One entity in words (``card group``), for messages.
    word: str = ""


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
        ``ruleset`` (its manifests) is required. Two families may use the same kind names: a
        file is read as a kind of the family of the ruleset that uses it.
    slots:
        The manifest's file slots (``files: {slot: [paths]}``), each with the kind its files
        must declare.
    collections:
        The family's collections of entities by name: where each lives and how it is keyed
        (:class:`CollectionSpec`); a variant's ``overlay:`` changes them by name.
    settings:
        The family's settings (every top-level fact that is not a collection) by the slot of
        the file that holds them; a variant changes them in ``overlay: settings:``.
    checks:
        Packages whose every module registers checks of this family.
    sheets:
        Packages whose every module registers sheets of this family.
    hooks:
        ``name → "module:attribute"`` of the family's functions, imported when first asked for:
        ``assemble`` (resolved ruleset → typed model), ``export`` (the derived facts ``export``
        adds), ``package`` (the engine package's files) and ``runtime`` (the runtime's files).
    default:
        Whether a manifest without ``family:`` belongs to this family (one family at most).
    schemas:
        The import package whose files are the schemas named in ``kinds`` (for a family that is a
        distribution of its own); None for the families shipped with civrules (``schemas/``).
    """

    id: str
    name: str
    package: str
    code_prefixes: tuple[str, ...]
    kinds: Mapping[str, str] = field(default_factory=dict)
    slots: Mapping[str, str] = field(default_factory=dict)
    collections: Mapping[str, CollectionSpec] = field(default_factory=dict)
    settings: Mapping[str, str] = field(default_factory=dict)
    checks: tuple[str, ...] = ()
    sheets: tuple[str, ...] = ()
    hooks: Mapping[str, str] = field(default_factory=dict)
    default: bool = False
    #: The import package that holds the family's schema files (a family from a distribution of
    #: its own ships them there); None: they are civrules' own, under ``schemas/``.
    schemas: str | None = None

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

    def qualified_kind(self, kind: str) -> str:
        """The kind as the schema register knows it: the default family's kinds by their own
        names (their schemas are at the top of ``schemas/``), another family's as ``<id>/<kind>``."""
        return kind if self.default else f"{self.id}/{kind}"

    def slot_kind(self, slot: str) -> str:
        """The qualified kind of the files of a manifest's slot (``ruleset``: the manifest itself)."""
        return self.qualified_kind(self.slots.get(slot, slot))

    def entity_word(self, collection: str) -> str:
        """One entity of ``collection`` in words (``calamities`` → ``calamity``)."""
        spec = self.collections.get(collection)
        return spec.word if spec is not None and spec.word else collection


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
    for entry in sorted(metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: (e.name, e.value)):
        if entry.value in BUILTIN:
            continue
        try:
            family = entry.load()
        except Exception as error:  # a broken third-party family is named, not a traceback
            raise FamilyError(
                f"the family `{entry.name}` ({entry.value}) could not be imported: {type(error).__name__}: {error}"
            ) from error
        _register(found, sources, family, entry.value)
    defaults = [f.id for f in found.values() if f.default]
    if len(defaults) > 1:
        raise FamilyError(f"more than one family declares itself the default: {', '.join(defaults)}")
    return dict(sorted(found.items()))


def _load(target: str) -> Family:
    module, _, attribute = target.partition(":")
    family: Family = getattr(importlib.import_module(module), attribute)
    return family


def _register(found: dict[str, Family], sources: dict[str, str], family: object, where: str) -> None:
    if not isinstance(family, Family):
        raise FamilyError(f"{where} is not a civrules Family object")
    if not _FAMILY_ID.match(family.id):
        raise FamilyError(f"{where}: family id `{family.id}` is not lower-case words joined by '-'")
    if "assemble" not in family.hooks:
        raise FamilyError(f"{where}: family `{family.id}` has no `assemble` hook (resolved ruleset → its model)")
    if family.id in found:
        raise FamilyError(f"two families take the id `{family.id}`: {sources[family.id]} and {where}")
    for prefix in family.code_prefixes:
        if not _PREFIX.match(prefix):
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
