"""Deriving the owned → target credit matrix from credits as written and the ruleset's policy.

Credits are data on the giving card (group credits and specific credits); how they combine is the
ruleset's declared :class:`CreditPolicy`, not code. For Advanced Civilization (31.54, 31.55):

- a group credit goes to every *other* card of that group ("all other Craft cards");
- a two-group card receives credits aimed at either of its groups, and gives the credits of both;
- when several credit lines of one owned card reach the same target, the policy says whether the
  highest counts or they add up;
- an *extra* credit (Expansion Project 26.5.1, Mega Civilization) is a bonus given on top of the
  group credits, so it always adds to them, whatever the policy;
- each owned card's credit applies once per target (31.54); credits of different owned cards add up.

The Expansion Project declares its group credits as credit tokens (`group_credits:
credit_tokens_of_group`, 6.1-6.2, 26.5.1): tokens of a group's colour, kept for good and shown at every
later purchase of a card of that group. They reach the same cards as "all other cards of the group"
(a card is never bought twice). Its rule for a card of two groups is lost (26.5.2, 26.5.4-26.5.6), so
its policy writes `two_group_cards` as unknown: group credits toward a two-group card are then left
out of the matrix (a cell is never larger than the truth), while specific and extra credits still count.

Mega Civilization's rulebook (§12) gives a card of two colours the discount of the one colour whose
credit tokens held are worth most, the two never combined (`two_group_cards: highest_group`). A cell
of the matrix is what one held card alone gives (its higher group credit toward such a card, plus
what it gives the card by name); the credit of several held cards toward it is not the sum of their
cells but the highest of the group totals, plus the extra credits (:meth:`CreditMatrix.credit_toward`).
"""

from __future__ import annotations

import enum
from collections.abc import ItemsView, Iterable, Iterator, Mapping, Sequence, ValuesView
from typing import TYPE_CHECKING, Any

from civrules.support import memo
from civrules.support.values import frozen_value

if TYPE_CHECKING:
    from civrules.families.advanced_civilization.model import Ruleset


class TwoGroupCards(enum.StrEnum):
    """How a card of two groups takes the group credits of the cards held."""

    BOTH_GROUPS = "both_groups"
    HIGHEST_GROUP = "highest_group"
    UNKNOWN = "unknown"


class SameTarget(enum.StrEnum):
    """How several credit lines of one owned card toward one target combine."""

    HIGHEST = "highest"
    SUM = "sum"


@frozen_value
class CreditPolicy:
    """How credit lines combine. ``two_group_cards_known`` is False where the ruleset does not know
    how a card of two groups receives group credits (its `two_group_cards` is unknown)."""

    same_target: SameTarget = SameTarget.HIGHEST
    two_group_cards_known: bool = True
    two_group_cards: TwoGroupCards = TwoGroupCards.BOTH_GROUPS


@frozen_value
class CreditLine:
    """One credit as written: toward a group (every other card of it) or toward one card.

    ``extra`` marks a bonus given on top of the group credits (it always adds, see the module).
    """

    points: int
    group: str | None = None
    card: str | None = None
    extra: bool = False


@frozen_value
class CreditSource:
    """What the derivation needs of a card: its id, groups and credit lines."""

    id: str
    groups: tuple[str, ...]
    credits: tuple[CreditLine, ...]


def group_members(cards: Iterable[CreditSource]) -> dict[str, list[str]]:
    """The ids of the cards of each group, in card order (a two-group card is in both)."""
    members: dict[str, list[str]] = {}
    for card in cards:
        for group in card.groups:
            members.setdefault(group, []).append(card.id)
    return members


def line_targets(owned: str, line: CreditLine, members: Mapping[str, Sequence[str]]) -> list[str]:
    """The cards one credit line of ``owned`` reaches: its card, or the *other* cards of its group."""
    if line.card is not None:
        return [line.card] if line.card != owned else []
    return [card for card in members.get(line.group or "", ()) if card != owned]


def combine(lines: Iterable[CreditLine], policy: CreditPolicy) -> int:
    """The credit several lines of one owned card give toward one target, under ``policy``.

    Examples
    --------
    >>> lines = [CreditLine(10, group="crafts"), CreditLine(20, card="military"), CreditLine(5, card="x", extra=True)]
    >>> combine(lines, CreditPolicy(SameTarget.HIGHEST)), combine(lines, CreditPolicy(SameTarget.SUM))
    (25, 35)
    """
    extra = sum(line.points for line in lines if line.extra)
    plain = [line for line in lines if not line.extra]
    if policy.two_group_cards is TwoGroupCards.HIGHEST_GROUP:
        by_group: dict[str, list[int]] = {}
        for line in plain:
            if line.card is None and line.group is not None:
                by_group.setdefault(line.group, []).append(line.points)
        if len(by_group) > 1:  # one card's two colours toward a card of both: never combined
            best = max(_total(points, policy) for points in by_group.values())
            return _total([best, *(line.points for line in plain if line.card is not None)], policy) + extra
    return _total([line.points for line in plain], policy) + extra


def _total(points: Iterable[int], policy: CreditPolicy) -> int:
    return max(points, default=0) if policy.same_target is SameTarget.HIGHEST else sum(points)


def derive_credit_matrix(cards: Sequence[CreditSource], policy: CreditPolicy) -> dict[str, dict[str, int]]:
    """The credit each owned card gives toward each other card (cells without credit are omitted).

    Examples
    --------
    >>> pottery = CreditSource("pottery", ("crafts",), (CreditLine(10, group="crafts"),))
    >>> mining = CreditSource("mining", ("crafts",), (CreditLine(10, group="crafts"),))
    >>> derive_credit_matrix([pottery, mining], CreditPolicy())
    {'mining': {'pottery': 10}, 'pottery': {'mining': 10}}

    Where the policy does not know how a two-group card receives group credits, only specific and
    extra credits reach it:

    >>> engineering = CreditSource("engineering", ("crafts", "sciences"), ())
    >>> derive_credit_matrix([pottery, engineering], CreditPolicy(two_group_cards_known=False))
    {}
    """
    members = group_members(cards)
    two_groups = set() if policy.two_group_cards_known else {card.id for card in cards if len(card.groups) > 1}
    matrix: dict[str, dict[str, int]] = {}
    for owned in cards:
        first: dict[str, CreditLine] = {}
        several: dict[str, list[CreditLine]] = {}
        for line in owned.credits:
            for target in line_targets(owned.id, line, members):
                if line.group is not None and target in two_groups:
                    continue  # how a two-group card takes group credits is not known
                seen = first.setdefault(target, line)
                if seen is not line:
                    several.setdefault(target, [seen]).append(line)
        row = {target: line.points for target, line in first.items()}
        row.update((target, combine(lines, policy)) for target, lines in several.items())
        if row:
            matrix[owned.id] = dict(sorted(row.items()))
    return dict(sorted(matrix.items()))


#: A row of at most this many lines is scanned per lookup; a longer one is looked up through an
#: index of its lines by target (:meth:`CreditMatrix.line_index`), so that a card writing thousands
#: of specific credits costs a lookup what one of its targets' lines cost, not all of them.
_SCANNED = 16


class CreditRow(Mapping[str, int]):
    """The credit one owned card gives toward each other card, computed per lookup from its credit
    lines (a lookup reads the owned card's lines, never a stored cell); iteration is in target order."""

    __slots__ = ("_lines", "_matrix", "_owned")

    def __init__(self, matrix: CreditMatrix, owned: str, lines: tuple[CreditLine, ...]) -> None:
        self._matrix = matrix
        self._owned = owned
        self._lines = lines

    def reaching(self, target: str) -> list[CreditLine]:
        """The lines of the owned card that reach ``target``, in the order written."""
        if target == self._owned:
            return []
        matrix = self._matrix
        groups = () if target in matrix.two_groups else matrix.groups_of.get(target, ())
        lines = self._lines
        if len(lines) <= _SCANNED:
            return [line for line in lines if (line.card == target if line.card is not None else line.group in groups)]
        by_card, by_group = matrix.line_index(self._owned)
        at = [*by_card.get(target, ()), *(i for group in set(groups) for i in by_group.get(group, ()))]
        return [lines[i] for i in sorted(at)]

    def __getitem__(self, target: str) -> int:
        lines = self.reaching(target)
        if not lines:
            raise KeyError(target)
        return lines[0].points if len(lines) == 1 else combine(lines, self._matrix.policy)

    def cells_of(self, targets: Iterable[str]) -> dict[str, int]:
        """``row[target]`` for each of ``targets`` that the row credits, in the order given. The
        targets no line names by card, reached through the same groups, share one combination of
        those groups' lines: a card crediting a group by many lines reads them once, not once per
        member of the group (cards x members x lines over a deck)."""
        matrix, lines, policy = self._matrix, self._lines, self._matrix.policy
        by_card, by_group = matrix.line_index(self._owned)
        shared: dict[tuple[str, ...], int | None] = {}
        found: dict[str, int] = {}
        for target in targets:
            if target == self._owned:
                continue
            groups = () if target in matrix.two_groups else matrix.groups_of.get(target, ())
            reached = tuple(group for group in dict.fromkeys(groups) if group in by_group)
            own = by_card.get(target)
            if own is None and reached in shared:
                value = shared[reached]
            else:
                at = sorted([*(own or ()), *(i for group in reached for i in by_group[group])])
                value = None if not at else lines[at[0]].points
                if len(at) > 1:
                    value = combine([lines[i] for i in at], policy)
                if own is None:
                    shared[reached] = value
            if value is not None:
                found[target] = value
        return found

    def targets(self) -> set[str]:
        """Every card this row gives a credit toward (unordered): each group credited read once,
        however many lines credit it."""
        matrix = self._matrix
        found: set[str] = set()
        for group in dict.fromkeys(line.group or "" for line in self._lines if line.card is None):
            found.update(matrix.group_takers(group))
        found.update(line.card for line in self._lines if line.card is not None)
        found.discard(self._owned)
        return found

    def cells(self) -> dict[str, int]:
        """Every cell of the row, in target order: what a lookup per target gives, each set of
        lines combined once (:meth:`cells_of`), not once per target it reaches."""
        return self.cells_of(sorted(self.targets()))

    def items(self) -> ItemsView[str, int]:
        return self.cells().items()

    def values(self) -> ValuesView[int]:
        return self.cells().values()

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self.targets()))

    def __len__(self) -> int:
        return len(self.targets())

    def __contains__(self, target: object) -> bool:
        return isinstance(target, str) and bool(self.reaching(target))

    def __repr__(self) -> str:
        return repr(dict(self.items()))


class CreditMatrix(Mapping[str, Mapping[str, int]]):
    """The owned → target credit matrix of a deck, stored as the credits written (linear in them)
    and answered per lookup: ``matrix[owned][target]`` is the credit under the policy, a row
    iterates its targets in order, and only owned cards that give some credit are keys (in order).

    It answers what :func:`derive_credit_matrix` lists, cell for cell, without the ``n²`` cells of a
    group credit to a large group.

    Examples
    --------
    >>> pottery = CreditSource("pottery", ("crafts",), (CreditLine(10, group="crafts"),))
    >>> mining = CreditSource("mining", ("crafts",), (CreditLine(10, group="crafts"),))
    >>> matrix = CreditMatrix([pottery, mining], CreditPolicy())
    >>> matrix["pottery"]["mining"], dict(matrix["mining"]), list(matrix)
    (10, {'pottery': 10}, ['mining', 'pottery'])
    """

    __slots__ = ("_giving", "_indexes", "_lines", "_owned", "_takers", "groups_of", "members", "policy", "two_groups")

    def __init__(self, cards: Sequence[CreditSource], policy: CreditPolicy) -> None:
        self.policy = policy
        self.groups_of: dict[str, tuple[str, ...]] = {card.id: card.groups for card in cards}
        self.members = group_members(cards)
        self.two_groups: frozenset[str] = (
            frozenset() if policy.two_group_cards_known else frozenset(c.id for c in cards if len(c.groups) > 1)
        )
        self._lines: dict[str, tuple[CreditLine, ...]] = {card.id: card.credits for card in cards if card.credits}
        # The owned cards whose row is not empty: a line to another card, or to a group with a member
        # (other than the giver) that takes group credits.
        takers = {group: [c for c in cards if c not in self.two_groups][:2] for group, cards in self.members.items()}
        self._owned = sorted(
            owned
            for owned, lines in self._lines.items()
            if any(
                (line.card != owned)
                if line.card is not None
                else any(c != owned for c in takers.get(line.group or "", ()))
                for line in lines
            )
        )
        self._giving = frozenset(self._owned)
        self._takers: dict[str, tuple[str, ...]] = {}
        self._indexes: dict[str, tuple[dict[str, list[int]], dict[str, list[int]]]] = {}

    def line_index(self, owned: str) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
        """Where each target card and each group is written among the lines of ``owned``: the
        positions of its specific lines by card and of its group lines by group (made once per card)."""
        found = self._indexes.get(owned)
        if found is None:
            by_card: dict[str, list[int]] = {}
            by_group: dict[str, list[int]] = {}
            for at, line in enumerate(self._lines.get(owned, ())):
                if line.card is not None:
                    by_card.setdefault(line.card, []).append(at)
                else:
                    by_group.setdefault(line.group or "", []).append(at)
            found = self._indexes[owned] = (by_card, by_group)
        return found

    def group_takers(self, group: str) -> tuple[str, ...]:
        """The cards a credit to ``group`` reaches (its members that take group credits), the giver
        included: once per group, not once per row."""
        found = self._takers.get(group)
        if found is None:
            found = self._takers[group] = tuple(c for c in self.members.get(group, ()) if c not in self.two_groups)
        return found

    def credit_toward(self, held: Iterable[str], target: str) -> int:
        """The credit a holder of ``held`` receives toward ``target`` (the target's own left out; a
        card listed twice is ValueError, as the packages' OutOfDomainError: a player holds one of
        each): the sum of the cells, but toward a card of two groups under
        ``highest_group`` the highest of the group totals held plus the extra credits toward it.
        :class:`UnknownFactError` where the rule leaves the answer open (a plain credit by name
        beside group credits of other cards toward such a card), as the generated packages do."""
        owned = [card for card in _once(held) if card != target]
        groups = tuple(dict.fromkeys(self.groups_of.get(target, ())))
        if self.policy.two_group_cards is not TwoGroupCards.HIGHEST_GROUP or len(groups) < 2 or len(owned) < 2:
            return sum(self[card].get(target, 0) if card in self else 0 for card in owned)
        totals = dict.fromkeys(groups, 0)
        extra = 0
        for card in owned:
            lines = CreditRow(self, card, self.lines(card)).reaching(target)
            if any(line.card is not None and not line.extra for line in lines):
                raise UnknownFactError(card, target)
            extra += sum(line.points for line in lines if line.extra)
            for group in groups:
                points = [line.points for line in lines if not line.extra and line.card is None and line.group == group]
                if points:
                    totals[group] += _total(points, self.policy)
        return max(totals.values()) + extra

    def export(self) -> dict[str, Any]:
        """The linear form ``civrules export`` writes: the policy, every card's groups and the credit
        lines of each card that gives any (each `{points, group | card, extra?}`)."""

        def line(credit: CreditLine) -> dict[str, Any]:
            out: dict[str, Any] = {"points": credit.points}
            if credit.card is not None:
                out["card"] = credit.card
            if credit.group is not None:
                out["group"] = credit.group
            if credit.extra:
                out["extra"] = True
            return out

        return {
            "policy": {
                "same_target": self.policy.same_target.value,
                "two_group_cards_known": self.policy.two_group_cards_known,
                "two_group_cards": (
                    self.policy.two_group_cards.value
                    if self.policy.two_group_cards_known
                    else TwoGroupCards.UNKNOWN.value
                ),
            },
            "groups": {card: list(groups) for card, groups in self.groups_of.items()},
            "credits": {card: [line(credit) for credit in lines] for card, lines in self._lines.items()},
        }

    def lines(self, owned: str) -> tuple[CreditLine, ...]:
        """The credit lines of ``owned`` as the derivation sees them."""
        return self._lines.get(owned, ())

    def __getitem__(self, owned: str) -> CreditRow:
        if owned not in self._giving:
            raise KeyError(owned)
        return CreditRow(self, owned, self._lines[owned])

    def __contains__(self, owned: object) -> bool:
        return owned in self._giving

    def __iter__(self) -> Iterator[str]:
        return iter(self._owned)

    def __len__(self) -> int:
        return len(self._owned)

    def __repr__(self) -> str:
        return repr({owned: dict(row) for owned, row in self.items()})


def credit_toward(matrix: Mapping[str, Mapping[str, int]], owned: Iterable[str], target: str) -> int:
    """Total credit a holder of ``owned`` cards receives toward ``target`` (31.54: once per owned card;
    a card listed twice is ValueError: a player holds one of each): a :class:`CreditMatrix` by its
    policy (:meth:`CreditMatrix.credit_toward`), a mapping of cells by their sum.

    Examples
    --------
    >>> credit_toward({"astronomy": {"coinage": 20, "medicine": 20}}, ["astronomy"], "coinage")
    20
    >>> credit_toward({"astronomy": {"coinage": 20}}, ["astronomy", "astronomy"], "coinage")
    Traceback (most recent call last):
    ValueError: 'astronomy' is listed twice in owned: a player holds one of each civilization card
    """
    if isinstance(matrix, CreditMatrix):
        return matrix.credit_toward(owned, target)
    return sum(matrix.get(card, {}).get(target, 0) for card in _once(owned) if card != target)


def _once(held: Iterable[str]) -> list[str]:
    """``held`` as a list; ValueError naming a card listed twice (a holding is no multiset)."""
    listed = list(held)
    seen: set[str] = set()
    for card in listed:
        if card in seen:
            raise ValueError(f"{card!r} is listed twice in owned: a player holds one of each civilization card")
        seen.add(card)
    return listed


class UnknownFactError(LookupError):
    """The credit a set of held cards gives is left open by the rule (the package's helper raises
    its own UnknownFactError there): ``args`` are the card and the target."""


def credit_policy(ruleset: Ruleset) -> CreditPolicy:
    """The ruleset's declared policy (`credit_policy:` of its manifest); the default where it is silent.

    A `two_group_cards` written `{unknown: why}` (Expansion Project) makes ``two_group_cards_known`` False.
    """
    same_target = ruleset.credit_policy.get("same_target")
    two_groups = ruleset.credit_policy.get("two_group_cards")
    known = not (isinstance(two_groups, dict) and "unknown" in two_groups)
    how = (
        TwoGroupCards(two_groups)
        if isinstance(two_groups, str) and two_groups in {t.value for t in TwoGroupCards}
        else TwoGroupCards.BOTH_GROUPS
    )
    if not known:
        how = TwoGroupCards.UNKNOWN
    chosen = SameTarget(same_target) if same_target in {s.value for s in SameTarget} else SameTarget.HIGHEST
    return CreditPolicy(chosen, known, how)


def credit_sources(ruleset: Ruleset) -> list[CreditSource]:
    """The cards of a ruleset as the derivation sees them.

    The first card of a duplicated id stands for it (I001 reports the copy); unknown groups give no
    group membership and credit lines whose points are unknown are left out, so a derived cell is
    never larger than the truth.
    """
    sources = []
    for card in ruleset.cards.by_id.values():
        lines = tuple(
            CreditLine(line.points, line.group, line.card, line.extra)
            for line in card.credit_list()
            if isinstance(line.points, int) and not isinstance(line.points, bool)
        )
        sources.append(CreditSource(card.id, card.group_list(), lines))
    return sources


def credit_matrix(ruleset: Ruleset) -> CreditMatrix:
    """The owned → target credit matrix of a ruleset, under its own credit policy.

    Checks, code generation, export and sheets all ask for it: it is built once per ruleset object
    (a model never changes once built, nor does the matrix, which is read-only).
    """
    found = _MATRICES.get(ruleset)
    return (
        found
        if found is not None
        else _MATRICES.put(ruleset, CreditMatrix(credit_sources(ruleset), credit_policy(ruleset)))
    )


#: Matrices by model, for as long as the model lives (8 entries each kept their model, and its
#: documents, alive past the session's round that made it).
_MATRICES: memo.Attached[Ruleset, CreditMatrix] = memo.Attached()
