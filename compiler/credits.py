"""Deriving the owned → target credit matrix from credits as written and the ruleset's policy.

Credits are data on the giving card (group credits and specific credits); how they combine is the
ruleset's declared :class:`CreditPolicy`, not code. For Advanced Civilization (31.54, 31.55):

- a group credit goes to every *other* card of that group ("all other Craft cards");
- a two-group card receives credits aimed at either of its groups, and gives the credits of both;
- when several credit lines of one owned card reach the same target, the policy says whether the
  highest counts or they add up;
- each owned card's credit applies once per target (31.54); credits of different owned cards add up.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass


class SameTarget(enum.StrEnum):
    """How several credit lines of one owned card toward one target combine."""

    HIGHEST = "highest"
    SUM = "sum"


@dataclass(frozen=True, slots=True)
class CreditPolicy:
    same_target: SameTarget = SameTarget.HIGHEST


@dataclass(frozen=True, slots=True)
class CreditLine:
    """One credit as written: toward a group (every other card of it) or toward one card."""

    points: int
    group: str | None = None
    card: str | None = None


@dataclass(frozen=True, slots=True)
class CreditSource:
    """What the derivation needs of a card: its id, groups and credit lines."""

    id: str
    groups: tuple[str, ...]
    credits: tuple[CreditLine, ...]


def derive_credit_matrix(cards: Sequence[CreditSource], policy: CreditPolicy) -> dict[str, dict[str, int]]:
    """The credit each owned card gives toward each other card (cells without credit are omitted).

    Examples
    --------
    >>> pottery = CreditSource("pottery", ("crafts",), (CreditLine(10, group="crafts"),))
    >>> mining = CreditSource("mining", ("crafts",), (CreditLine(10, group="crafts"),))
    >>> derive_credit_matrix([pottery, mining], CreditPolicy())
    {'mining': {'pottery': 10}, 'pottery': {'mining': 10}}
    """
    members: dict[str, list[str]] = {}
    for card in cards:
        for group in card.groups:
            members.setdefault(group, []).append(card.id)
    matrix: dict[str, dict[str, int]] = {}
    for owned in cards:
        row: dict[str, int] = {}
        for line in owned.credits:
            targets: Iterable[str] = [line.card] if line.card is not None else members.get(line.group or "", [])
            for target in targets:
                if target == owned.id:
                    continue
                if target in row and policy.same_target is SameTarget.HIGHEST:
                    row[target] = max(row[target], line.points)
                else:
                    row[target] = row.get(target, 0) + line.points
        if row:
            matrix[owned.id] = dict(sorted(row.items()))
    return dict(sorted(matrix.items()))


def credit_toward(matrix: Mapping[str, Mapping[str, int]], owned: Iterable[str], target: str) -> int:
    """Total credit a holder of ``owned`` cards receives toward ``target`` (31.54: once per owned card)."""
    return sum(matrix.get(card, {}).get(target, 0) for card in set(owned) if card != target)
