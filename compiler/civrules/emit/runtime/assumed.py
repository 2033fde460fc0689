"""What every family's view of a package with an engine's assumptions shares.

A draft lacks facts a game needs; an engine that plays it anyway states what it assumes in its
family's ``Assumptions`` record and asks the package for a view, ``package.assuming(...)``. Each
family's runtime builds its view on :class:`AssumedView` (the package's names forwarded, the
assumptions named, ``require_complete()`` still refusing) and fills its tables with :func:`fill`
(an assumption only ever supplies a fact the sources do not give: one the ruleset gives is an
OutOfDomainError, never overridden).
"""

from __future__ import annotations

from types import MappingProxyType

from .errors import OutOfDomainError, unknown_id

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from enum import StrEnum
    from typing import TypeVar

    from .protocol import RulesetPackageBase
    from .records import Record, UnknownFact

    R = TypeVar("R", bound=Record)


def given(what: str) -> OutOfDomainError:
    """The error for an assumption about a fact the rule data gives."""
    return OutOfDomainError(f"{what} is in the rule data: an assumption only supplies a fact the sources do not give")


def fill(
    table: Mapping[str, R], assumed: Iterable[tuple[str, object]], field: str, what: str
) -> MappingProxyType[str, R]:
    """``table`` with ``field`` of each record named in ``assumed`` set to the assumed value.

    UnknownIdError for an id ``table`` does not have (``what`` names its kind); OutOfDomainError
    where the record's ``field`` is given (not None).
    """
    filled = dict(table)
    for key, value in assumed:
        record = filled.get(key)
        if record is None:
            raise unknown_id(key, table, what)
        if getattr(record, field) is not None:
            raise given(f"the {field} of {key}")
        filled[key] = record.replace(**{field: value})
    return MappingProxyType(filled)


class AssumedView:
    """A view of a package with assumptions: the package's every name (forwarded, or replaced by the
    family's view where an assumption filled a fact), the assumptions (``ASSUMPTIONS``), and
    ``require_complete()`` refusing a draft as the package does: assumed facts are not the rules.

    The members every package has are written out, so that a family's view satisfies its
    protocol for a type checker; a family's view declares its own tables likewise.
    """

    def __init__(self, package: RulesetPackageBase, assumptions: object) -> None:
        self._package = package
        self.ASSUMPTIONS = assumptions

    def __getattr__(self, name: str) -> object:
        package = self.__dict__.get("_package")
        if package is None:  # copy and pickle probe names before __init__ has run
            raise AttributeError(name)
        return getattr(package, name)

    def __repr__(self) -> str:
        return f"<{self._package.RULESET_ID} assuming {self.ASSUMPTIONS!r}>"

    def require_complete(self) -> None:
        """Refuses a draft as the package does: assumed facts are not the rules."""
        self._package.require_complete()

    def canonical_id(self, name: str) -> str:
        return self._package.canonical_id(name)

    @property
    def RULESET_ID(self) -> str:  # noqa: N802 - the package's constant
        return self._package.RULESET_ID

    @property
    def RULESET_NAME(self) -> str:  # noqa: N802
        return self._package.RULESET_NAME

    @property
    def RULESET_FINGERPRINT(self) -> str:  # noqa: N802
        return self._package.RULESET_FINGERPRINT

    @property
    def BASE_RULESET(self) -> str | None:  # noqa: N802
        return self._package.BASE_RULESET

    @property
    def __version__(self) -> str:
        return self._package.__version__

    @property
    def DRAFT(self) -> bool:  # noqa: N802
        return self._package.DRAFT

    @property
    def UNKNOWN_FACTS(self) -> tuple[UnknownFact, ...]:  # noqa: N802
        return self._package.UNKNOWN_FACTS

    @property
    def UNKNOWN_COLLECTIONS(self) -> frozenset[str]:  # noqa: N802
        return self._package.UNKNOWN_COLLECTIONS

    @property
    def ID_ALIASES(self) -> Mapping[str, str]:  # noqa: N802
        return self._package.ID_ALIASES

    @property
    def ID_ENUMS(self) -> Mapping[str, type[StrEnum]]:  # noqa: N802
        return self._package.ID_ENUMS

    @property
    def SETTINGS(self) -> Mapping[str, object]:  # noqa: N802
        return self._package.SETTINGS

    @property
    def ENTITY_SOURCES(self) -> Mapping[str, tuple[str, ...]]:  # noqa: N802
        return self._package.ENTITY_SOURCES
