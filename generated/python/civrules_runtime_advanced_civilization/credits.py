"""The credit matrix of a package, stored as the credits written and answered per lookup.

A group credit reaches every other card of its group, so a matrix of cells grows with the square
of the deck; this one holds each card's groups and credit lines (linear in what is written) and
computes ``matrix[owned][target]`` from them under the ruleset's policy, as the compiler derives
it: a group credit reaches the other cards of its group (not a card of two groups where the policy
does not know how such a card takes group credits), several lines of one owned card toward one
target give the highest or their sum (``same_target``), and an extra credit always adds.

A cell is what one held card *alone* gives toward a card. Where a card of two groups takes only the
credits of the one group whose credits held total most (``two_group_cards`` ``highest_group``: Mega
Civilization, §12 of its rulebook: the two colours are never combined), a cell toward such a card is
that card's higher group credit (plus what it gives toward the card by name), and the credit of a
*set* of held cards is not the sum of their cells: :meth:`CreditMatrix.credit_toward` totals each
group over the cards held and takes the highest, then adds the extra credits toward the card.

Every pair of the ruleset's cards has a value: ``matrix[owned][target]`` is 0 where ``owned`` gives
no credit toward ``target`` (a row reads like :class:`collections.Counter`: it iterates, counts and
compares only the cards it credits, and answers 0 for any other card). An id that is no card of the
ruleset, as ``owned`` or as ``target``, raises UnknownIdError (a KeyError) with the closest card id.

A lookup costs what the target's own lines cost, not the owned card's whole row: each row's lines
are indexed by the card and the group they credit when the row is first asked (an index linear in
the lines, kept by the matrix), so reading a row of n lines cell by cell is linear in n, not n².
"""

from collections.abc import ItemsView, Iterable, Iterator, Mapping, ValuesView
from typing import Any

from civrules_runtime.errors import collection, once_each

TYPE_CHECKING = False

#: How a card of two groups takes group credits (the ruleset's `credit_policy.two_group_cards`).
_TWO_GROUP_CARDS = ("both_groups", "highest_group", "unknown")
#: How several lines of one held card toward one target combine (`credit_policy.same_target`).
_SAME_TARGET = ("highest", "sum")

#: The points a credit line may give: the data's (its schema's `points`, 1 to 1000). A line of
#: other points is no line civrules writes: a negative one raised a card's cost.
_POINTS = range(1, 1001)

#: One credit line: points, the group it credits (or None), the card it credits (or None), extra.
Line = tuple[int, "str | None", "str | None", bool]


class CreditRow(Mapping[str, int]):
    """The credit one owned card gives toward each other card: 0 toward a card it does not credit
    (iteration, ``len`` and ``in`` cover the cards it credits, in target order); UnknownIdError for
    an id that is no card of the ruleset."""

    __slots__ = ("_lines", "_matrix", "_owned")

    def __init__(self, matrix: "CreditMatrix", owned: str, lines: "tuple[Line, ...]") -> None:
        # A pickle makes a row again from these (anyone can write one): a row whose lines are not its
        # matrix's for its card would answer other credits, and index them into the matrix for it.
        lines = _row_lines(matrix, owned, lines)
        self._matrix = matrix
        self._owned = owned
        self._lines = lines

    def _reaching(self, target: str) -> "list[Line]":
        if not isinstance(target, str) or target == self._owned or not self._lines:
            return []
        matrix = self._matrix
        by_card, by_group = matrix._index(self._owned, self._lines)
        found = list(by_card.get(target, ()))
        if target not in matrix._no_group_credits:
            for group in dict.fromkeys(matrix._groups.get(target, ())):
                found.extend(by_group.get(group, ()))
        return found

    def __getitem__(self, target: str) -> int:
        lines = self._reaching(target)
        if not lines:
            if not isinstance(target, str) or target not in self._matrix._groups:
                from civrules_runtime.errors import unknown_id  # on the refusal path only

                raise unknown_id(target, self._matrix._groups, "civilization card")
            return 0
        return self._matrix._combine(lines, target)

    def _targets(self) -> "tuple[str, ...]":
        """The cards this row credits, sorted: made once per owned card and kept by the matrix (each
        len() or iteration of a row gathered every member of the groups it credits again)."""
        matrix = self._matrix
        kept = matrix._targets.get(self._owned)
        if kept is None:
            found: set[str] = set()
            groups: dict[str, None] = {}
            for _, group, card, _ in self._lines:
                if card is not None:
                    found.add(card)
                else:
                    groups[group or ""] = None
            for group in groups:  # each group once, however many lines credit it
                found.update(c for c in matrix._members.get(group, ()) if c not in matrix._no_group_credits)
            found.discard(self._owned)
            kept = matrix._targets[self._owned] = tuple(sorted(found))
        return kept

    def _cells(self) -> "dict[str, int]":
        """Every cell of the row, in target order: what ``row[target]`` gives for each target. The
        targets no line names by card, reached through the same groups, share one combination of
        those groups' lines (a row read whole combined every line toward each target: a card
        crediting its group by many lines cost the group's size times its lines)."""
        matrix = self._matrix
        by_card, by_group = matrix._index(self._owned, self._lines)
        shared: dict[tuple[str, ...], int] = {}
        cells: dict[str, int] = {}
        for target in self._targets():
            if target in by_card:
                cells[target] = self[target]
                continue
            groups = () if target in matrix._no_group_credits else matrix._groups.get(target, ())
            reached = tuple(group for group in dict.fromkeys(groups) if group in by_group)
            value = shared.get(reached)
            if value is None:
                value = shared[reached] = matrix._combine([line for g in reached for line in by_group[g]], target)
            cells[target] = value
        return cells

    def items(self) -> "ItemsView[str, int]":
        return self._cells().items()

    def values(self) -> "ValuesView[int]":
        return self._cells().values()

    def __iter__(self) -> "Iterator[str]":
        return iter(self._targets())

    def __len__(self) -> int:
        return len(self._targets())

    def __contains__(self, target: object) -> bool:
        return isinstance(target, str) and bool(self._reaching(target))

    def __repr__(self) -> str:
        return repr(dict(self.items()))

    # A value like every table of a package: equal to any mapping of the same cells (Mapping's
    # __eq__), hashed as a FrozenMap of those cells is, pickled and copied by what it is made of.
    # Two rows of one matrix written alike are equal without reading their cells.
    def __eq__(self, other: object) -> bool:
        if (
            isinstance(other, CreditRow)
            and other._matrix is self._matrix
            and other._owned == self._owned
            and other._lines == self._lines
        ):
            return True
        return Mapping.__eq__(self, other)

    def __hash__(self) -> int:
        return hash(frozenset(self.items()))

    def __reduce__(self) -> "tuple[type[CreditRow], tuple[CreditMatrix, str, tuple[Line, ...]]]":
        return (type(self), (self._matrix, self._owned, self._lines))


#: Where a part of an exported credit_matrix object is: its keys and indexes, from the object down.
_Where = tuple[object, ...]

#: Makes a row without its ``__init__``'s checks, for the matrix's own rows.
_new_row = object.__new__

#: What a pickled CreditMatrix is made again from (its constructor's arguments, in order).
_Pickled = tuple[str, bool, Mapping[str, tuple[str, ...]], Mapping[str, tuple[Line, ...]], str]


class CreditMatrix(Mapping[str, Mapping[str, int]]):
    """Every card's row (empty when it gives no credit), in card order.

    ``groups``: each card's groups, in card order; ``credits``: the credit lines of each card that
    gives any. ``two_group_cards_known`` False: group credits do not reach a card of two groups.
    ``two_group_cards`` (the policy's word): ``both_groups``, a card of two groups takes the credits
    of both; ``highest_group``, only those of its group whose credits held total most (a cell is then
    one card's higher group credit, and :meth:`credit_toward` totals a set group by group);
    ``unknown`` where ``two_group_cards_known`` is False. Left out, it follows
    ``two_group_cards_known``.

    Examples
    --------
    >>> matrix = CreditMatrix("highest", True, {"mining": ("crafts",), "pottery": ("crafts",)},
    ...                       {"pottery": ((10, "crafts", None, False),)})
    >>> matrix["pottery"]["mining"], matrix["mining"]["pottery"], dict(matrix["mining"]), list(matrix)
    (10, 0, {}, ['mining', 'pottery'])
    """

    __slots__ = (
        "_empty",
        "_groups",
        "_hash",
        "_indexes",
        "_known",
        "_lines",
        "_members",
        "_no_group_credits",
        "_targets",
        "same_target",
        "two_group_cards",
    )

    def __init__(
        self,
        same_target: str,
        two_group_cards_known: bool,
        groups: "Mapping[str, tuple[str, ...]]",
        credits: "Mapping[str, tuple[Line, ...]]",
        two_group_cards: "str | None" = None,
    ) -> None:
        self.same_target = same_target
        self._known = two_group_cards_known
        if two_group_cards is None:
            two_group_cards = "both_groups" if two_group_cards_known else "unknown"
        if (two_group_cards == "unknown") == two_group_cards_known or two_group_cards not in _TWO_GROUP_CARDS:
            raise ValueError(
                f"two_group_cards {two_group_cards!r} with two_group_cards_known {two_group_cards_known}: "
                f"one of {', '.join(_TWO_GROUP_CARDS)}, 'unknown' exactly where the rule is not known"
            )
        self.two_group_cards = two_group_cards
        _check_parts(same_target, two_group_cards_known, groups, credits)
        self._hash: int | None = None
        self._groups = groups
        self._lines = credits
        members: dict[str, list[str]] = {}
        for card, of in groups.items():
            for group in of:
                members.setdefault(group, []).append(card)
        self._members = members
        self._no_group_credits = (
            frozenset() if two_group_cards_known else frozenset(c for c, of in groups.items() if len(of) > 1)
        )
        self._empty: tuple[Line, ...] = ()
        self._indexes: dict[str, tuple[dict[str, list[Line]], dict[str, list[Line]]]] = {}
        self._targets: dict[str, tuple[str, ...]] = {}

    def _index(self, owned: str, lines: "tuple[Line, ...]") -> "tuple[dict[str, list[Line]], dict[str, list[Line]]]":
        """``owned``'s lines by the card they credit and by the group they credit, made once."""
        index = self._indexes.get(owned)
        if index is None:
            by_card: dict[str, list[Line]] = {}
            by_group: dict[str, list[Line]] = {}
            for line in lines:
                if line[2] is not None:
                    by_card.setdefault(line[2], []).append(line)
                elif line[1] is not None:
                    by_group.setdefault(line[1], []).append(line)
            index = self._indexes[owned] = (by_card, by_group)
        return index

    def _combine(self, lines: "list[Line]", target: str) -> int:
        """The credit several lines of one owned card give toward ``target``: plain lines the
        highest or their sum (``same_target``), a card of two groups taking one group's lines only
        under ``highest_group``; extra lines always add."""
        extra = sum(line[0] for line in lines if line[3])
        plain = [line for line in lines if not line[3]]
        if self.two_group_cards == "highest_group":
            by_group: dict[str, list[int]] = {}
            for line in plain:
                if line[2] is None and line[1] is not None:
                    by_group.setdefault(line[1], []).append(line[0])
            if len(by_group) > 1:  # the colours of one card are never combined: its best one
                best = max(self._total(points) for points in by_group.values())
                named = [line[0] for line in plain if line[2] is not None]
                return self._total([best, *named]) + extra
        return self._total([line[0] for line in plain]) + extra

    def _total(self, points: "list[int]") -> int:
        return sum(points) if self.same_target == "sum" else max(points, default=0)

    def credit_toward(self, held: "Iterable[str]", target: str) -> int:
        """The credit a holder of the ``held`` cards (ids of this ruleset, the target's own left out;
        a card listed twice is OutOfDomainError: a player holds one of each) receives toward ``target``.
        A ``target`` or a card held that is no card of the matrix is UnknownIdError, ``held`` given as
        a string or a number NotACollectionError, as for the package's ``credit_toward``.

        Credits of different cards add up; toward a card of two groups under ``highest_group``
        (Mega Civilization §12), the group credits held are totalled group by group and only the
        highest total counts, the extra credits toward the card itself on top. A plain credit toward
        the card by name, from a card held beside others that give its groups' credits, is
        UnknownFactError under ``highest_group``: the rule does not say how it combines with them.

        Examples
        --------
        >>> groups = {"music": ("arts",), "deism": ("religion",), "mysticism": ("arts", "religion")}
        >>> credits = {"music": ((10, "arts", None, False), (5, "religion", None, False)),
        ...            "deism": ((10, "religion", None, False),)}
        >>> highest = CreditMatrix("highest", True, groups, credits, "highest_group")
        >>> highest.credit_toward(["music", "deism"], "mysticism")
        15
        >>> CreditMatrix("highest", True, groups, credits).credit_toward(["music", "deism"], "mysticism")
        20
        """
        collection(held, "held")  # a string's letters, or a number, are no cards held
        if not isinstance(target, str) or target not in self._groups:  # never a credit of 0 toward no card
            from civrules_runtime.errors import unknown_id  # on the refusal path only

            raise unknown_id(target, self._groups, "civilization card")
        owned = [
            card for card in once_each(held, "held", "a player holds one of each civilization card") if card != target
        ]
        groups = tuple(dict.fromkeys(self._groups.get(target, ())))
        if self.two_group_cards != "highest_group" or len(groups) < 2 or len(owned) < 2:
            return sum(self[card][target] for card in owned)
        totals = dict.fromkeys(groups, 0)
        extra = 0
        for card in owned:
            row = self[card]  # an id that is no card: UnknownIdError
            lines = row._reaching(target)
            if any(line[2] is not None and not line[3] for line in lines):
                from civrules_runtime.errors import UnknownFactError  # on the refusal path only

                raise UnknownFactError(
                    f"{card} gives a credit toward {target} by name, and {target} takes only the credits of its "
                    f"one group whose credits held total most: the sources do not say how the two combine"
                )
            extra += sum(line[0] for line in lines if line[3])
            for group in groups:
                points = [line[0] for line in lines if not line[3] and line[1] == group and line[2] is None]
                if points:
                    totals[group] += self._total(points)
        return max(totals.values()) + extra

    @classmethod
    def from_export(cls, exported: "Mapping[str, Any]") -> "CreditMatrix":
        """The matrix of ``civrules export``'s ``credit_matrix`` object (its linear form):
        ``CreditMatrix.from_export(exported["credit_matrix"])``. Anything else (the whole export, an
        empty object) raises ValueError saying so, as does a part of it that is not what the export
        writes (naming the part: a misspelt policy, a line without points, a credit toward no card);
        a value that is no mapping, TypeError. Its facts are checked as far as the object itself
        tells them: points from 1 to 1000 (the data's), a line's card one of the matrix's cards.
        Its card and group ids are not checked against a package's tables: the export of another
        ruleset of the family (a house rule's added card) is a matrix of its own, and a group no
        card has is credited to no card, as where a variant removed that group's cards."""
        if not isinstance(exported, Mapping):
            raise TypeError(
                f"CreditMatrix.from_export takes the export's credit_matrix object "
                f'(exported["credit_matrix"]), not a {type(exported).__name__}'
            )
        missing = [key for key in ("policy", "groups", "credits") if key not in exported]
        if missing:
            whole = " (this is the whole export)" if "credit_matrix" in exported else ""
            raise ValueError(
                f"CreditMatrix.from_export takes the export's credit_matrix object, "
                f'exported["credit_matrix"]{whole}: it has no {", ".join(repr(k) for k in missing)}'
            )
        policy, groups, credits = _read_export(exported)
        two_group_cards = policy.get("two_group_cards")  # an export written before it: by two_group_cards_known
        return cls(policy["same_target"], policy["two_group_cards_known"], groups, credits, two_group_cards)

    def __getitem__(self, owned: str) -> CreditRow:
        if not isinstance(owned, str) or owned not in self._groups:
            from civrules_runtime.errors import unknown_id  # on the refusal path only

            raise unknown_id(owned, self._groups, "civilization card")
        row = _new_row(CreditRow)  # its own lines: not checked again, as a pickle's row is (CreditRow())
        row._matrix, row._owned, row._lines = self, owned, self._lines.get(owned, self._empty)
        return row

    def __iter__(self) -> "Iterator[str]":
        return iter(self._groups)

    def __len__(self) -> int:
        return len(self._groups)

    def __contains__(self, owned: object) -> bool:
        try:
            return isinstance(owned, str) and owned in self._groups  # an unhashable key too: in no matrix
        except Exception:  # noqa: BLE001 - a str of the caller's whose own hash or == fails: in no matrix
            return False

    def __repr__(self) -> str:
        return f"CreditMatrix({len(self._groups)} card{'' if len(self._groups) == 1 else 's'})"

    # A value like every table of a package (see CreditRow): the hash is of the cells, made once.
    # Two matrices written alike (the policy, each card's groups, each card's lines) hold the same
    # cells: equal without reading them, in the time of what is written, not of the deck's square.
    # Written otherwise, they are compared cell by cell (the same cells may be written two ways).
    def __eq__(self, other: object) -> bool:
        if self is other or (isinstance(other, CreditMatrix) and other._written() == self._written()):
            return True
        return Mapping.__eq__(self, other)

    def _written(
        self,
    ) -> "tuple[str, bool, Mapping[str, tuple[str, ...]], Mapping[str, tuple[Line, ...]], str]":
        return (self.same_target, self._known, self._groups, self._lines, self.two_group_cards)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self.items()))
        return self._hash

    def __reduce__(self) -> "tuple[type[CreditMatrix], _Pickled]":
        written = (self.same_target, self._known, dict(self._groups), dict(self._lines), self.two_group_cards)
        return (type(self), written)

    def __copy__(self) -> "CreditMatrix":
        return self  # it cannot change: a copy is itself, as for a tuple

    def __deepcopy__(self, memo: "dict[int, object]") -> "CreditMatrix":
        return self


def _altered(what: str, wanted: str, value: object) -> ValueError:
    """The refusal of a credit matrix's or a row's part that is not what the package makes: an
    OutOfDomainError (a ValueError) saying what it should be, and that a pickle holding it was
    changed or made otherwise (a pickle is its constructor's arguments, which anyone can write)."""
    from civrules_runtime.errors import OutOfDomainError, shown

    return OutOfDomainError(
        f"{what} should be {wanted}, not {shown(value)}: a pickle that holds it was changed, or made by"
        " other code than civrules' (make the value again from the package: its CREDIT_MATRIX)"
    )


def _row_lines(matrix: object, owned: object, lines: object) -> "tuple[Line, ...]":
    """The lines a row of ``owned`` in ``matrix`` is made with (the matrix's own, equal to
    ``lines``), or the refusal of a row no matrix makes."""
    from civrules_runtime.errors import shown  # on the refusal path only

    if not isinstance(matrix, CreditMatrix) or not isinstance(owned, str) or owned not in matrix._groups:
        raise _altered(f"CreditRow of {shown(owned)}", "a credit matrix and one of its cards", (matrix, owned))
    held = matrix._lines.get(owned, matrix._empty)
    if lines != held:
        card = repr(str(owned))  # an id as its id, not as its enum's member
        raise _altered(f"CreditRow of {card}", f"its matrix's {len(held)} credit lines of {card}", lines)
    return held


def _check_parts(
    same_target: object,
    known: object,
    groups: "Mapping[str, tuple[str, ...]]",
    credits: "Mapping[str, tuple[Line, ...]]",
) -> None:
    """What a credit matrix holds, checked as :meth:`CreditMatrix.from_export` checks an export: a
    pickle (or a call) with a policy, a group or a credit line of another shape made a matrix that
    answered wrong credits, or failed at a later lookup from inside it (``'<' not supported``)."""
    if same_target not in _SAME_TARGET:
        raise _altered("CreditMatrix.same_target", f"one of {', '.join(_SAME_TARGET)}", same_target)
    if not isinstance(known, bool):
        raise _altered("CreditMatrix.two_group_cards_known", "True or False", known)
    if not isinstance(groups, Mapping):
        raise _altered("CreditMatrix.groups", "a mapping of each card to its groups", groups)
    for card, of in groups.items():
        if not isinstance(card, str) or not isinstance(of, tuple) or not all(isinstance(g, str) for g in of):
            raise _altered(f"CreditMatrix.groups[{card!r}]", "a tuple of group ids, keyed by a card id", of)
    if not isinstance(credits, Mapping):
        raise _altered("CreditMatrix.credits", "a mapping of cards to their credit lines", credits)
    for card, lines in credits.items():
        if card not in groups:
            raise _altered("CreditMatrix.credits", "keyed by the cards of its groups", card)
        if not isinstance(lines, tuple):
            raise _altered(f"CreditMatrix.credits[{card!r}]", "a tuple of credit lines", lines)
        for n, line in enumerate(lines):
            if not (
                isinstance(line, tuple)
                and len(line) == 4
                and type(line[0]) is int
                and isinstance(line[1], str | None)
                and isinstance(line[2], str | None)
                and (line[1] is not None or line[2] is not None)
                and type(line[3]) is bool
            ):
                raise _altered(
                    f"CreditMatrix.credits[{card!r}][{n}]",
                    "(points, group or None, card or None, extra), a group or a card given",
                    line,
                )
            if line[0] not in _POINTS:
                raise _altered(f"CreditMatrix.credits[{card!r}][{n}] points", "a whole number from 1 to 1000", line[0])
            if line[2] is not None and line[2] not in groups:
                raise _altered(f"CreditMatrix.credits[{card!r}][{n}] card", "one of the cards of its groups", line[2])


def _read_export(
    exported: "Mapping[str, Any]",
) -> "tuple[Mapping[str, Any], dict[str, tuple[str, ...]], dict[str, tuple[Line, ...]]]":
    """The policy, groups and credit lines of a ``credit_matrix`` object, each part checked to be what
    ``civrules export`` writes: a part that is not (an object edited by hand, or written by another
    tool) is a ValueError naming it, here, rather than a KeyError or TypeError from a later lookup."""

    def refuse(path: _Where, wanted: str, value: object) -> ValueError:
        import json  # on the refusal path only

        where = "".join(f"[{json.dumps(step)}]" if isinstance(step, str) else f"[{step}]" for step in path)
        from civrules_runtime.errors import shown as shown_value

        shown = shown_value(value)  # its repr fails for `10**5000` or a list nested past the stack
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        return ValueError(
            f'CreditMatrix.from_export: exported["credit_matrix"]{where} should be {wanted}, not {shown} '
            f"(pass the credit_matrix object civrules export writes)"
        )

    def mapping(path: _Where, value: object) -> "Mapping[Any, Any]":
        if not isinstance(value, Mapping):
            raise refuse(path, "an object", value)
        return value

    def word(path: _Where, value: object, words: "tuple[str, ...] | None" = None) -> str:
        if not isinstance(value, str) or (words is not None and value not in words):
            raise refuse(path, f"one of {', '.join(words)}" if words else "a string", value)
        return value

    def listed(path: _Where, value: object) -> "list[Any] | tuple[Any, ...]":
        if not isinstance(value, list | tuple):
            raise refuse(path, "a list", value)
        return value

    policy = mapping(("policy",), exported["policy"])
    for key in ("same_target", "two_group_cards_known"):
        if key not in policy:
            raise refuse(("policy",), f"an object with {key!r}", dict(policy))
    word(("policy", "same_target"), policy["same_target"], _SAME_TARGET)
    known = policy["two_group_cards_known"]
    if not isinstance(known, bool):
        raise refuse(("policy", "two_group_cards_known"), "true or false", known)
    two_group_cards = policy.get("two_group_cards")
    if two_group_cards is not None:
        word(("policy", "two_group_cards"), two_group_cards, _TWO_GROUP_CARDS)
        if (two_group_cards == "unknown") == known:
            wanted = "not 'unknown'" if known else "'unknown'"
            raise refuse(
                ("policy", "two_group_cards"), f"{wanted} where two_group_cards_known is {known}", two_group_cards
            )
    groups: dict[str, tuple[str, ...]] = {}
    for card, of in mapping(("groups",), exported["groups"]).items():
        word(("groups",), card)
        groups[card] = tuple(word(("groups", card, n), group) for n, group in enumerate(listed(("groups", card), of)))
    credits: dict[str, tuple[Line, ...]] = {}
    for card, lines in mapping(("credits",), exported["credits"]).items():
        if word(("credits",), card) not in groups:
            raise refuse(("credits",), "keyed by the cards of its groups", card)
        read: list[Line] = []
        for n, written in enumerate(listed(("credits", card), lines)):
            line = mapping(("credits", card, n), written)
            points = line.get("points")
            if not isinstance(points, int) or isinstance(points, bool) or points not in _POINTS:
                raise refuse(("credits", card, n, "points"), "a whole number from 1 to 1000", points)
            group, target = line.get("group"), line.get("card")
            if group is None and target is None:
                raise refuse(("credits", card, n), "a line with a group or a card", dict(line))
            if group is not None:
                word(("credits", card, n, "group"), group)
            if target is not None and word(("credits", card, n, "card"), target) not in groups:
                # civrules exports no credit toward a card the ruleset lacks (a removed card still
                # named is V006, which stops the export): such a line answered 0 where it was asked
                raise refuse(("credits", card, n, "card"), "one of the cards of its groups", target)
            extra = line.get("extra", False)
            if not isinstance(extra, bool):
                raise refuse(("credits", card, n, "extra"), "true or false", extra)
            read.append((points, group, target, extra))
        credits[card] = tuple(read)
    return policy, groups, credits


#: The names a released version of this module had and this one lacks (the ledger of released names,
#: compiler/tools/runtime_names.json): a pickle of that version that names one is told which this is.
_RETIRED: frozenset[str] = frozenset()

if not TYPE_CHECKING:  # a name this module lacks stays a type error

    def __getattr__(name: str) -> object:
        # A pickle names a credit matrix's class by its module and name: one this version lacks is said so.
        from civrules_runtime.errors import absent

        raise absent(__name__, name, _RETIRED)
