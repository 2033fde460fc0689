"""Civilization cards: prerequisites and credits.

Prerequisites form a directed graph (a card → the cards it requires, 31.62); credits are derived
into the owned → target matrix by the ruleset's credit policy (:mod:`civrules.families.advanced_civilization.credits`).

Not checked here, on purpose:

- a group credit toward a group the giving card is not in. Advanced Civilization happens to give
  group credits only to the giver's own groups (31.51), but the Expansion Project and Mega
  Civilization give them to other groups as a rule ("10 Craft credits and 5 Science credits",
  EP 30.26.1), so it is not a mistake;
- the number of groups of a card and their uniqueness: the schema holds them (one or two groups,
  no repeats). Which cards have two groups is a fact of each game (31.55), tested against the
  sources, not a rule a designer can break.
- a card that can never be acquired because a prerequisite is unacquirable: the root cause is a
  cycle (C001, whose notes list the cards it blocks) or a prerequisite that does not exist (X001);
  a second error on every blocked card would report one cause many times.

Unknown facts (cost, groups, prerequisites, credits or points `{unknown: ...}`) are skipped.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from civrules.checks import check, diagnostic
from civrules.checks.unknowns import is_unknown
from civrules.diagnostics import Diagnostic, Related, Severity, Span, words
from civrules.families.advanced_civilization.checks import CARDS
from civrules.families.advanced_civilization.credits import (
    CreditLine,
    CreditMatrix,
    CreditPolicy,
    SameTarget,
    combine,
    credit_matrix,
    credit_policy,
    credit_sources,
    group_members,
    line_targets,
)
from civrules.families.advanced_civilization.model import Card, Ruleset
from civrules.families.advanced_civilization.model import CreditLine as WrittenLine
from civrules.support.walks import acyclic, reachable

# --- Shared helpers ----------------------------------------------------------------------------


def cards_of(ruleset: Ruleset) -> list[Card]:
    """Each card once (the first of a duplicated id; I001 reports the copy), in data order."""
    return list(ruleset.cards.by_id.values())


class Prerequisites:
    """The directed graph card → the cards it requires, as adjacency in data order.

    What every ruleset asks of it (is there a cycle, which cards a card requires through others,
    which cards require it) is a walk over the adjacency; ``graph``, the same graph as a networkx
    ``DiGraph``, is built (and networkx imported) only for what a diagnostic reports: the cycles
    and their paths (issue 32, point 5: see :mod:`civrules.support.walks`).
    """

    __slots__ = ("_graph", "_required_by", "requires")

    def __init__(self, requires: dict[str, list[str]]) -> None:
        self.requires = requires
        self._required_by: dict[str, list[str]] | None = None
        self._graph: Any = None

    def __contains__(self, card: object) -> bool:
        return card in self.requires

    def __iter__(self) -> Iterator[str]:
        return iter(self.requires)

    def acyclic(self) -> bool:
        return acyclic(self.requires)

    def descendants(self, card: str) -> set[str]:
        """The cards ``card`` requires, directly or through others (networkx's ``descendants``)."""
        return reachable(self.requires, card)

    def ancestors(self, card: str) -> set[str]:
        """The cards that require ``card``, directly or through others (networkx's ``ancestors``)."""
        if self._required_by is None:
            self._required_by = {node: [] for node in self.requires}
            for node, required in self.requires.items():
                for other in required:
                    self._required_by[other].append(node)
        return reachable(self._required_by, card)

    @property
    def graph(self) -> Any:
        """The graph as a networkx ``DiGraph``: nodes in data order, each card's edges in its order."""
        if self._graph is None:
            import networkx as nx  # only where a graph algorithm runs (see the class)

            self._graph = nx.DiGraph()
            self._graph.add_nodes_from(self.requires)
            self._graph.add_edges_from((card, other) for card, required in self.requires.items() for other in required)
        return self._graph

    def shortest_path(self, source: str, target: str) -> list[str]:
        import networkx as nx  # only for a diagnostic's path (see the class)

        path: list[str] = nx.shortest_path(self.graph, source, target)
        return path


def prerequisite_graph(ruleset: Ruleset) -> Prerequisites:
    """The directed graph card → card it requires; prerequisites that do not exist are left to X001."""
    return Prerequisites(
        {
            card.id: list(dict.fromkeys(r for r in card.prerequisite_list() if r in ruleset.cards))
            for card in cards_of(ruleset)
        }
    )


def cyclic_cards(graph: Prerequisites) -> set[str]:
    """The cards on some prerequisite cycle (C001 reports them; other checks leave them alone)."""
    if graph.acyclic():
        return set()
    import networkx as nx  # only where there is a cycle (see Prerequisites)

    cyclic: set[str] = set(nx.nodes_with_selfloops(graph.graph))
    for component in nx.strongly_connected_components(graph.graph):
        if len(component) > 1:
            cyclic |= component
    return cyclic


def prerequisite_span(card: Card, required: str) -> Span:
    """The span of the first prerequisite entry of ``card`` that names ``required``."""
    return card.origin.span("prerequisites", card.prerequisite_list().index(required), "card")


def credit_span(card: Card, index: int) -> Span:
    """The span of the target (card or group) of the credit line at ``index``."""
    line = card.credit_list()[index]
    return card.origin.span("credits", index, "card" if line.card is not None else "group")


def matrix_of(ruleset: Ruleset) -> CreditMatrix:
    """The ruleset's credit matrix (built once per model; computed per lookup)."""
    return credit_matrix(ruleset)


def known_points(line: Any) -> bool:
    return isinstance(line.points, int) and not isinstance(line.points, bool)


def points_of(line: Any) -> str:
    """A credit's points as written, or `unknown` (the model keeps `{unknown: ...}` as written)."""
    return str(line.points) if known_points(line) else "unknown"


def describe(line: Any) -> str:
    """A credit line as a designer reads it: `10 to group crafts` or `20 to military`."""
    extra = " extra" if line.extra else ""
    target = f"group `{line.group}`" if line.card is None else f"`{line.card}`"
    return f"{points_of(line)}{extra} to {target}"


def arrow(path: Sequence[str]) -> str:
    return " → ".join(f"`{card}`" for card in path)


def _members_by_cost(ruleset: Ruleset, matrix: CreditMatrix) -> dict[str, tuple[list[int], list[str]]]:
    """Each group's members of known cost, sorted by cost (then card order): costs and ids."""
    out: dict[str, tuple[list[int], list[str]]] = {}
    for group, members in matrix.members.items():
        priced = []
        for at, card_id in enumerate(members):
            card = ruleset.cards.get(card_id)
            if card is not None and isinstance(card.cost, int) and not isinstance(card.cost, bool):
                priced.append((card.cost, at, card_id))
        priced.sort()
        out[group] = ([cost for cost, _, _ in priced], [card_id for _, _, card_id in priced])
    return out


# --- Prerequisites -----------------------------------------------------------------------------


@check("C001", "prerequisite-cycle", Severity.ERROR, reads=CARDS)
def check_prerequisite_cycles(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: cards require each other in a circle (a card that requires itself, or `a` requires `b`
    which requires `a`), so none of them can ever be acquired: a prerequisite must be held from an
    earlier turn (31.62). The cycle is reported once, as its full path, at the prerequisite entry
    that closes it (the one pointing back to the card of the cycle that comes first in the file);
    notes point at the other entries of the cycle and at the cards it blocks.

    Why: every card on the cycle, and every card that requires one of them, is dead; the A.S.T.
    and victory totals of the ruleset can never be reached as designed.

    Fix: remove the prerequisite that is wrong (31.62 lists Advanced Civilization's: Engineering for
    Roadbuilding and Mining, Law for Democracy and Philosophy, Enlightenment for Monotheism and
    Theology).

        - id: law
          prerequisites:
            - {card: democracy, rule: "31.62"}
        - id: democracy
          prerequisites:
            - {card: law, rule: "31.62"}    # FAIL: `law` → `democracy` → `law`
    """
    prerequisites = prerequisite_graph(ruleset)
    if prerequisites.acyclic():
        return
    import networkx as nx  # only where there is a cycle (see Prerequisites)

    graph = prerequisites.graph
    order = {card: n for n, card in enumerate(graph)}
    cycles: list[tuple[list[str], set[str]]] = []
    for component in nx.strongly_connected_components(graph):
        start = min(component, key=order.__getitem__)
        if len(component) == 1 and not graph.has_edge(start, start):
            continue
        edges = nx.find_cycle(graph.subgraph(component).copy(), source=start)  # a copy: a view is slow to walk
        path = [u for u, _ in edges]
        first = path.index(min(path, key=order.__getitem__))
        cycles.append((path[first:] + path[:first], component))
    cycles.sort(key=lambda cycle: order[cycle[0][0]])
    for path, members in cycles:
        closing = ruleset.cards.by_id[path[-1]]
        related = [
            Related(prerequisite_span(ruleset.cards.by_id[a], b), f"`{a}` requires `{b}` here")
            for a, b in itertools.pairwise(path)
        ]
        # Every card of a strongly connected component has the same ancestors: the cards it blocks.
        blocked = prerequisites.ancestors(path[0]) - members
        for card in sorted(blocked, key=order.__getitem__):
            requiring = ruleset.cards.by_id[card]
            needed = next(r for r in requiring.prerequisite_list() if r in members or r in blocked)
            related.append(Related(prerequisite_span(requiring, needed), f"`{card}` can never be acquired either"))
        others = sorted(members - set(path), key=order.__getitem__)
        verb = "is" if len(others) == 1 else "are"
        tangled = f"; {', '.join(f'`{c}`' for c in others)} {verb} tangled in the same knot of cycles" if others else ""
        yield diagnostic(
            "C001",
            f"prerequisite cycle {arrow([*path, path[0]])}: none of these cards can ever be acquired{tangled}",
            prerequisite_span(closing, path[0]),
            "remove the prerequisite that is wrong; a card can only require cards acquired in an earlier turn (31.62)",
            related,
        )


@check("C002", "redundant-prerequisite", Severity.WARNING, reads=CARDS)
def check_redundant_prerequisites(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a prerequisite that says nothing: it is listed twice, or another prerequisite of the same
    card already requires it (directly or through further prerequisites).

    Why: it is usually a leftover of an edit (the designer changed the chain and forgot the old
    link), and it makes the prerequisite tree on the player aids harder to read. If the chain was
    meant to be different, the redundant entry hides that.

    Fix: delete the redundant entry.

        - id: philosophy
          prerequisites: [{card: law, rule: "31.62"}]
        - id: democracy
          prerequisites:
            - {card: law, rule: "31.62"}         # FAIL: `philosophy` already requires `law`
            - {card: philosophy, rule: "31.62"}
    """
    graph = prerequisite_graph(ruleset)
    cyclic = cyclic_cards(graph)
    reach: dict[str, set[str]] = {}
    for card in cards_of(ruleset):
        listed = card.prerequisite_list()
        first: dict[str, int] = {}
        for index, required in enumerate(listed):
            if required in first:
                yield diagnostic(
                    "C002",
                    f"`{card.id}` lists prerequisite `{required}` twice",
                    card.origin.span("prerequisites", index, "card"),
                    "delete the second entry",
                    [Related(card.origin.span("prerequisites", first[required], "card"), "first listed here")],
                )
            first.setdefault(required, index)
        if card.id in cyclic:
            continue
        distinct = [r for r in first if r in graph and r not in cyclic]
        if len(distinct) < 2:
            continue
        for required in distinct:
            for other in distinct:
                if other == required:
                    continue
                if other not in reach:
                    reach[other] = graph.descendants(other)
                if required in reach[other]:
                    chain = graph.shortest_path(other, required)
                    yield diagnostic(
                        "C002",
                        f"prerequisite `{required}` of `{card.id}` is implied by its prerequisite "
                        f"`{other}`: {arrow(chain)}",
                        card.origin.span("prerequisites", first[required], "card"),
                        f"delete this entry; every holder of `{other}` already holds `{required}`",
                        [Related(card.origin.span("prerequisites", first[other], "card"), "implied through here")],
                    )
                    break


# --- Credits -----------------------------------------------------------------------------------


@check("C003", "self-credit", Severity.ERROR, reads=CARDS)
def check_self_credits(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a card gives a specific credit to itself.

    Why: a player holds at most one of each card (31.61), so the credit can never apply; it is
    almost always a copy-paste slip for another card's id. (A group credit to the card's own group
    is fine: it goes to the *other* cards of the group.)

    Fix: point the credit at the card it was meant for, or delete it.

        - id: pottery
          credits:
            - {card: pottery, points: 10, rule: "32.212"}   # FAIL: credits itself
    """
    for card in cards_of(ruleset):
        for line in card.credit_list():
            if line.card == card.id:
                yield diagnostic(
                    "C003",
                    f"`{card.id}` gives a credit of {points_of(line)} to itself",
                    card.origin.span("credits", line.index, "card"),
                    "a card never credits itself (31.61); point the credit at the card it was meant for",
                )


@check("C004", "credit-target-twice", Severity.WARNING, reads=CARDS)
def check_credit_targets_twice(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: several credit lines of one card reach the same target card: a specific credit to a card
    of a group the card already credits, two specific credits to one card, or one group credited
    twice. The message gives the credit a holder actually receives under the ruleset's
    `credit_policy.same_target` (`highest`: the largest line counts; `sum`: they add up), and says
    when a specific credit has no effect at all.

    Not reported: credits to two different groups that both reach a card of those two groups (how
    they combine is exactly what `same_target` declares, and Mega Civilization cards credit up to
    five groups), and an extra credit (Expansion Project 26.5.1, Mega Civilization) to a card of a
    credited group: the extra is a bonus on top of the group credit by design (Pottery: 10 to
    Crafts, and 10 extra to Agriculture, a Craft); two extras to one card are reported.

    Why: a card's credits as printed name each target once, so the overlap is either a shadowed
    credit that does nothing (under `highest`) or a silent double credit (under `sum`).

    Fix: keep one line per target: delete the shadowed line, or fold the two into one value.

        - id: pottery
          credits:
            - {group: crafts, points: 10, rule: "32.212"}
            - {card: agriculture, points: 5, rule: "32.212"}  # FAIL: agriculture is a craft card
    """
    policy = credit_policy(ruleset)
    members = group_members(credit_sources(ruleset))
    # Where each card stands in each group's list: targets are taken in the order the lines reach them.
    position = {group: {card: at for at, card in enumerate(cards)} for group, cards in members.items()}
    for card in cards_of(ruleset):
        lines = [line for line in card.credit_list() if known_points(line)]
        if len(lines) < 2:
            continue
        routes = _overlap_routes(card.id, lines, members, position)
        overlaps: dict[tuple[int, ...], list[str]] = {}
        for target, reaching in routes.items():
            plain = [line for line in reaching if not line.extra]
            extra = [line for line in reaching if line.extra]
            groups = [line.group for line in plain if line.group is not None]
            specific = len(groups) < len(plain)
            if (len(plain) > 1 and (specific or len(set(groups)) < len(groups))) or len(extra) > 1:
                overlaps.setdefault(tuple(line.index for line in reaching), []).append(target)
        for indexes, targets in overlaps.items():
            reaching = [card.credit_list()[i] for i in indexes]
            yield _overlap(card, reaching, targets, policy)


def _overlap_routes(
    owner: str,
    lines: Sequence[WrittenLine],
    members: Mapping[str, Sequence[str]],
    position: Mapping[str, Mapping[str, int]],
) -> dict[str, list[WrittenLine]]:
    """The lines of ``owner`` reaching each target that C004 may report, in the order the lines
    reach the targets. Only a target reached by a specific line, by a group credited twice, or by
    two extra credits can be reported: those are the only targets looked at, so a card crediting a
    group of thousands is not walked card by card (the check stays linear in the credits written)."""
    plain = [line for line in lines if not line.extra]
    extra = [line for line in lines if line.extra]
    groups = [line.group for line in plain if line.card is None and line.group is not None]
    twice = {group for group in groups if groups.count(group) > 1}
    candidates: set[str] = {line.card for line in plain if line.card is not None and line.card != owner}
    for group in twice:
        candidates.update(card for card in members.get(group, ()) if card != owner)
    if len(extra) > 1:
        for line in extra:
            candidates.update(line_targets(owner, as_credit(line), members))

    def reaches(line: WrittenLine, target: str) -> bool:
        if target == owner:
            return False
        return line.card == target if line.card is not None else target in position.get(line.group or "", {})

    def first_reached(target: str) -> tuple[int, int]:
        at, line = next((at, line) for at, line in enumerate(lines) if reaches(line, target))
        return at, 0 if line.card is not None else position[line.group or ""][target]

    ordered = sorted(candidates, key=first_reached)
    return {target: [line for line in lines if reaches(line, target)] for target in ordered}


def as_credit(line: Any) -> CreditLine:
    return CreditLine(line.points, line.group, line.card, line.extra)


def _overlap(card: Card, reaching: Sequence[Any], targets: Sequence[str], policy: CreditPolicy) -> Diagnostic:
    last = reaching[-1]
    value = combine([as_credit(line) for line in reaching], policy)
    names = ", ".join(f"`{t}`" for t in targets)
    written = "; ".join(describe(line) for line in reaching)
    each = "it" if len(targets) == 1 else "each"
    message = (
        f"`{card.id}` credits {names} by {words.count(len(reaching), 'line')} ({written}): under `same_target: "
        f"{policy.same_target.value}` a holder of `{card.id}` gets {value} toward {each}"
    )
    plain = [line for line in reaching if not line.extra]
    counted = max_line(plain) if plain else None
    # Under `highest` only the largest line counts; a shadowed specific credit reaches nothing else.
    dead = [line for line in plain if line.card is not None and line is not counted]
    if policy.same_target is SameTarget.HIGHEST and dead:
        message += "; " + ", ".join(f"the credit {describe(line)}" for line in dead) + " has no effect"
        hint = "delete the shadowed credit, or raise it above the group credit if it is meant to replace it"
    else:
        hint = "keep one credit line per target card (or per group)"
    related = [Related(credit_span(card, line.index), "also reaches it") for line in reaching[:-1]]
    return diagnostic("C004", message, credit_span(card, last.index), hint, related)


def max_line(lines: Sequence[Any]) -> Any:
    """The line that counts under `highest` (the first of the largest)."""
    return max(lines, key=lambda line: line.points)


def counting_line(giver: Card, target: str, matrix: CreditMatrix) -> Any:
    """The largest credit line of ``giver`` that reaches ``target`` (where a matrix cell comes from)."""
    return counting_lines(giver, [target], matrix)[target]


def counting_lines(giver: Card, targets: Iterable[str], matrix: CreditMatrix) -> dict[str, Any]:
    """:func:`counting_line` for each of ``targets`` at once (the first of the largest lines), reading
    the giver's lines per target: never a walk over the members of a group it credits."""
    written = [line for line in giver.credit_list() if known_points(line)]
    found: dict[str, Any] = {}
    for target in targets:
        if target == giver.id:
            continue
        groups = matrix.groups_of.get(target, ())
        for line in written:
            if (line.card == target if line.card is not None else line.group in groups) and (
                target not in found or line.points > found[target].points
            ):
                found[target] = line
    return found


def holders_already_own(ruleset: Ruleset, graph: Prerequisites, cyclic: set[str]) -> Iterator[tuple[Card, set[str]]]:
    """Each card off the cycles with the cards every holder of it holds: its transitive prerequisites."""
    for card in cards_of(ruleset):
        if card.id not in cyclic:
            yield card, graph.descendants(card.id)


@check("C005", "credit-to-prerequisite", Severity.WARNING, reads=CARDS)
def check_credits_to_prerequisites(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a card gives a specific credit to one of its own prerequisites (directly or through
    further prerequisites). Whoever holds the card already holds that prerequisite (31.62), so the
    credit can never be used. (A *group* credit that happens to reach a prerequisite, such as
    Roadbuilding's 10 to all other Craft cards reaching Engineering, is printed that way and is
    not reported.)

    Why: a dead credit is usually a credit written in the wrong direction (the prerequisite should
    credit the card), or a prerequisite on the wrong card.

    Fix: move the credit to the card it was meant for (often the reverse direction), or delete it.

        - id: democracy
          prerequisites: [{card: law, rule: "31.62"}]
          credits:
            - {card: law, points: 10, rule: "32.82"}   # FAIL: every holder of democracy holds law
    """
    graph = prerequisite_graph(ruleset)
    for card, owned in holders_already_own(ruleset, graph, cyclic_cards(graph)):
        for line in card.credit_list():
            if line.card is None or line.card not in owned:
                continue
            chain = graph.shortest_path(card.id, line.card)
            yield diagnostic(
                "C005",
                f"`{card.id}`'s credit of {points_of(line)} to `{line.card}` can never be used: every holder of "
                f"`{card.id}` already holds `{line.card}` ({arrow(chain)})",
                card.origin.span("credits", line.index, "card"),
                f"did you mean a credit from `{line.card}` to `{card.id}`? Otherwise delete it",
                [Related(prerequisite_span(card, chain[1]), "the prerequisite")],
            )


@check("C006", "free-for-every-holder", Severity.WARNING, reads=CARDS)
def check_free_cards(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: the credits a card receives from its own prerequisites (which every buyer must hold,
    31.62) reach its whole cost, so every player who may buy it gets it at no cost (31.57).

    Why: a card that is free the moment it becomes available is not a purchase decision any more;
    usually a cost or a credit has a typo (200 for 20).

    Fix: correct the cost or the credits; if the card is meant to come free with its prerequisite,
    say so in a `note:` and silence the warning with `# civrules: ignore[C006] reason`.

        - id: law
          credits:
            - {card: democracy, points: 200, rule: "32.81"}
        - id: democracy
          cost: 200                   # FAIL: law, its prerequisite, credits 200
          prerequisites: [{card: law, rule: "31.62"}]
    """
    graph = prerequisite_graph(ruleset)
    matrix = matrix_of(ruleset)
    for card, owned in holders_already_own(ruleset, graph, cyclic_cards(graph)):
        if not isinstance(card.cost, int) or not owned:
            continue
        givers = sorted(g for g in owned if matrix.get(g, {}).get(card.id))
        total = sum(matrix[g][card.id] for g in givers)
        if total < card.cost:
            continue
        related = [
            Related(
                credit_span(ruleset.cards.by_id[g], counting_line(ruleset.cards.by_id[g], card.id, matrix).index),
                f"`{g}` gives {matrix[g][card.id]}",
            )
            for g in givers
        ]
        yield diagnostic(
            "C006",
            f"`{card.id}` comes free to every player who may buy it: its prerequisites "
            f"({', '.join(f'`{g}`' for g in givers)}) credit {total} toward it, its whole cost of {card.cost} (31.57)",
            card.origin.span("cost"),
            "check the cost and the credits toward this card from its prerequisites",
            related,
        )


@check("C007", "credit-covers-cost", Severity.WARNING, reads=CARDS)
def check_credits_covering_cost(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: the credit one card gives toward another reaches the target's whole cost, so any holder
    of the giver gets the target free (31.57). (When the giver is a prerequisite of the target,
    C006 reports it instead.)

    Why: in every published game a single card's credit is a fraction of the target's cost (at
    most 25 toward a card of 45 or more in Advanced Civilization); a credit this large is almost
    always a typo in the points or in the cost.

    Fix: correct the points of the credit or the cost of the target.

        - id: pottery
          credits:
            - {card: democracy, points: 200, rule: "32.212"}   # FAIL: Democracy costs 200
    """
    graph = prerequisite_graph(ruleset)
    matrix = matrix_of(ruleset)
    by_cost = _members_by_cost(ruleset, matrix)
    for giver in cards_of(ruleset):
        if giver.id not in matrix:
            continue
        covered: dict[int, list[tuple[Card, int]]] = {}
        # A cell is never more than all the giver's points together: only a target costing no more
        # can be covered, found by bisecting each credited group's members sorted by cost (a group
        # credit of 10 to thousands of cards costing 45 looks at none of them).
        most = sum(max(0, line.points) for line in matrix.lines(giver.id))
        candidates: set[str] = set()
        for line in matrix.lines(giver.id):
            if line.card is not None:
                candidates.add(line.card)
            else:
                costs, ids = by_cost.get(line.group or "", ((), ()))
                candidates.update(ids[: bisect.bisect_right(costs, most)])
        row = matrix[giver.id]
        # Paths and counting lines once per giver that covers anything, not once per target.
        requiring_giver: set[str] | None = None
        counting: dict[str, Any] = {}
        for target_id in sorted(candidates):
            points = row.get(target_id)
            target = ruleset.cards.get(target_id)
            if points is None or target is None or not isinstance(target.cost, int) or points < target.cost:
                continue
            if requiring_giver is None:
                requiring_giver = graph.ancestors(giver.id) if giver.id in graph else set()
                counting = counting_lines(giver, candidates, matrix)
            if target_id == giver.id or target_id in requiring_giver:
                continue
            covered.setdefault(counting[target_id].index, []).append((target, points))
        # One diagnostic per credit line: a group credit may cover several cheap cards at once.
        for index, targets in covered.items():
            free = ", ".join(f"`{t.id}` ({points} for a cost of {t.cost})" for t, points in targets)
            yield diagnostic(
                "C007",
                f"`{giver.id}`'s credit covers the whole cost of {free}: any holder of `{giver.id}` gets "
                f"{'it' if len(targets) == 1 else 'them'} free (31.57)",
                credit_span(giver, index),
                "check the points of this credit and the cost of its target",
                [Related(t.origin.span("cost"), f"`{t.id}` costs {t.cost}") for t, _ in targets],
            )


@check("C008", "overpayment-stated-twice", Severity.ERROR, reads=())
def check_overpayment_agrees(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: the ruleset states what an overpayment returns twice, and the two disagree:
    `credit_policy.excess_lost` and `credit_policy.purchases.overpayment` are the same rule (no
    change is given when commodity cards and credits exceed the price: Advanced Civilization 31.58,
    Expansion Project 26.5.9). Either one says the excess is lost and the other does not, or one
    states the rule and the other calls it unknown.

    Why: the player helper's purchase planner shows both facts, and an engine may read either: a
    disagreement puts two answers to one question in front of the players.

    Fix: make the two agree, citing the same rule; where the sources do not give the rule, both
    are `{unknown: why}` (or `excess_lost` is left out).

        credit_policy:
          excess_lost: false                                # FAIL: overpayment says lost
          purchases:
            overpayment: {value: lost, rule: "31.58", text: "No change is given."}
    """
    origin = ruleset.setting_origins.get("credit_policy")
    policy = ruleset.credit_policy
    excess_lost = policy.get("excess_lost")
    purchases = policy.get("purchases")
    overpayment = purchases.get("overpayment") if isinstance(purchases, Mapping) else None
    if origin is None or excess_lost is None or not isinstance(overpayment, Mapping):
        return
    value = overpayment.get("value")
    if (value == "lost" and excess_lost is True) or (is_unknown(value) and is_unknown(excess_lost)):
        return
    flag = "unknown" if is_unknown(excess_lost) else f"`{str(excess_lost).lower()}`"
    said = "unknown" if is_unknown(value) else f"`{value}`"
    yield diagnostic(
        "C008",
        f"`excess_lost` ({flag}) disagrees with `purchases.overpayment`, whose value is "
        f"{said}: both state what an overpayment returns",
        origin.span("excess_lost"),
        "make the two agree, citing the same rule (no change is given: 31.58)",
        [Related(origin.span("purchases", "overpayment", "value"), "the overpayment's value")],
    )
