# ruff: noqa: N802 - the protocol names the packages' constants, which are upper case
"""The public names every generated ruleset package has, whatever its family, as a protocol.

A module satisfies a protocol (PEP 544). Each family's runtime extends :class:`RulesetPackageBase`
with the tables and helpers of its games (its ``RulesetPackage``);
an engine typed against the base reads what every package has: its identity, its version and base, how
complete it is, its ids, settings and sources.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any, Protocol, TypeAlias

from .records import PlayerRange, UnknownFact

TYPE_CHECKING = False

#: An id where a family's protocol takes one. Each package's helpers take only its own ids (its
#: ``<Kind>IdName`` ...: an id enum's member or the id as a literal), which differ from ruleset to
#: ruleset, so the protocol, written once for all of them, takes any id: an engine typed against it
#: passes the ids it read from the package (``str``), and the package refuses one it does not have
#: at run time (UnknownIdError).
AnyId: TypeAlias = Any


class RulesetPackageBase(Protocol):
    """What an engine may rely on in every generated package, of any family."""

    @property
    def RULESET_ID(self) -> str: ...
    @property
    def RULESET_NAME(self) -> str: ...
    @property
    def RULESET_FINGERPRINT(self) -> str: ...
    @property
    def BASE_RULESET(self) -> str | None: ...
    @property
    def __version__(self) -> str: ...
    @property
    def PLAYERS(self) -> PlayerRange | None: ...
    @property
    def DRAFT(self) -> bool: ...
    @property
    def UNKNOWN_FACTS(self) -> tuple[UnknownFact, ...]: ...
    @property
    def UNKNOWN_COLLECTIONS(self) -> frozenset[str]: ...
    @property
    def ID_ALIASES(self) -> Mapping[str, str]: ...
    @property
    def ID_ENUMS(self) -> Mapping[str, type[StrEnum]]: ...
    @property
    def SETTINGS(self) -> Mapping[str, object]: ...
    @property
    def ENTITY_SOURCES(self) -> Mapping[str, tuple[str, ...]]: ...
    @property
    def ENTITY_FIELD_SOURCES(self) -> Mapping[str, Mapping[str, str | None]]: ...

    def require_complete(self) -> None: ...
    def canonical_id(self, name: str) -> str: ...


#: The names a released version of this module had and this one lacks (the ledger of released names,
#: compiler/tools/runtime_names.json): a pickle of that version that names one is told which this is.
_RETIRED: frozenset[str] = frozenset(("RulesetPackage",))

if not TYPE_CHECKING:

    def __getattr__(name: str) -> object:
        from . import _moved

        found = _moved.attribute(__name__, name, "protocol", _RETIRED)
        # A released name is bound at its first read: later reads are plain global lookups (a
        # refusal is raised, never bound, so it is said again at each read).
        return globals().setdefault(name, found) if name in _RETIRED else found

    # ``importlib.reload`` runs this file again in the same globals: the names reads bound are
    # forgotten, and read again from the family's runtime (none of them is defined here).
    for _name in _RETIRED:
        globals().pop(_name, None)
    del _name
