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
import collections
import itertools
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from civrules.checks import check, diagnostic, made_of, setting
from civrules.checks.unknowns import is_unknown
from civrules.diagnostics import Diagnostic, Related, Severity, Span, blanks, words
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
from civrules.support import memo
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
    (issue 32, point 5: see :mod:`civrules.support.walks`). The path a diagnostic names between two
    cards is a breadth-first walk of the adjacency (:meth:`shortest_path`).
    """

    __slots__ = ("_closure", "_graph", "_required_by", "_walked", "requires")

    def __init__(self, requires: dict[str, list[str]]) -> None:
        self.requires = requires
        self._closure: Closure | None = None
        self._required_by: dict[str, list[str]] | None = None
        self._graph: Any = None
        self._walked: _Walk | None = None

    def __contains__(self, card: object) -> bool:
        return card in self.requires

    def __iter__(self) -> Iterator[str]:
        return iter(self.requires)

    def acyclic(self) -> bool:
        return acyclic(self.requires)

    def closure(self) -> Closure:
        """What each card requires through others, for every card at once (made once per graph)."""
        if self._closure is None:
            self._closure = Closure(self)
        return self._closure

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

    def shortest_path(self, source: str, target: str) -> Route:
        """A shortest path ``source`` → ``target`` (``target`` must be reachable): the first in data
        order, from a breadth-first walk over each card's prerequisites in the order written; as a
        message shows it (:class:`Route`: a long path by its ends and its length).

        The walk from the last source asked for is kept, so a card's every diagnostic reads its
        paths from one walk: asked once per path, networkx's search began again at the source,
        whose thousands of prerequisites it expanded each time (a card requiring and crediting
        5,000 cards took 9 s of C005's paths); and a path is not spelt out card by card (5,000
        prerequisites implied through one chain named 12.5 million cards).
        """
        if self._walked is None or self._walked.source != source:
            self._walked = _Walk(self.requires, source)
        return self._walked.route(target)


class Closure:
    """Every card's transitive prerequisites (what every holder of it holds, 31.62) as a set of bits:
    bit ``i`` stands for the ``i``-th card of the graph (data order).

    Made in one pass over the cards, each after the cards it requires (over the graph's strongly
    connected components where there is a cycle): a card's bits are the union of its prerequisites'
    bits and their own, a union of machine words. Asking each card's prerequisites by a walk instead
    cost the square of a chain's length (a chain of 5,000 cards: 40 s of C005 and C006).
    """

    __slots__ = ("below", "ids", "position")

    def __init__(self, graph: Prerequisites) -> None:
        requires = graph.requires
        self.ids = list(requires)
        self.position = {card: at for at, card in enumerate(self.ids)}
        position = self.position
        #: Each card's transitive prerequisites, itself excluded (as :func:`reachable` leaves it out).
        self.below: dict[str, int] = {}
        below = self.below
        if graph.acyclic():
            waiting = {card: len(required) for card, required in requires.items()}
            required_by: dict[str, list[str]] = {card: [] for card in requires}
            for card, required in requires.items():
                for other in required:
                    required_by[other].append(card)
            ready = [card for card, count in waiting.items() if count == 0]
            while ready:
                card = ready.pop()
                bits = 0
                for other in requires[card]:
                    bits |= below[other] | 1 << position[other]
                below[card] = bits
                for user in required_by[card]:
                    waiting[user] -= 1
                    if waiting[user] == 0:
                        ready.append(user)
            return
        import networkx as nx  # only where there is a cycle (see Prerequisites)

        condensed = nx.condensation(graph.graph)
        mapping: dict[str, int] = condensed.graph["mapping"]
        own: dict[int, int] = {}  # a component's members
        looped: set[int] = set()  # the components whose members reach each other (a cycle)
        reach: dict[int, int] = {}  # what a component reaches outside itself
        for component in reversed(list(nx.topological_sort(condensed))):
            members = condensed.nodes[component]["members"]
            bits = 0
            for successor in condensed.successors(component):
                bits |= reach[successor] | own[successor]
            reach[component] = bits
            own[component] = self.mask(members)
            if len(members) > 1 or any(card in requires[card] for card in members):
                looped.add(component)
        for card in requires:
            component = mapping[card]
            bits = reach[component] | own[component] if component in looped else reach[component]
            below[card] = bits & ~(1 << position[card])

    def holds(self, card: str, other: str) -> bool:
        """Whether every holder of ``card`` holds ``other`` (``other`` is one of its transitive prerequisites)."""
        return bool(self.below[card] >> self.position[other] & 1)

    def mask(self, cards: Iterable[str]) -> int:
        """The bits of ``cards`` (each a card of the graph)."""
        bits = 0
        for card in cards:
            bits |= 1 << self.position[card]
        return bits

    def cards(self, bits: int, limit: int | None = None) -> list[str]:
        """The cards of ``bits`` in data order (the first ``limit`` of them, where one is given)."""
        found: list[str] = []
        digits = bin(bits)[:1:-1]  # bit i is the i-th character
        at = digits.find("1")
        while at >= 0 and (limit is None or len(found) < limit):
            found.append(self.ids[at])
            at = digits.find("1", at + 1)
        return found


@dataclass(frozen=True, slots=True)
class Route:
    """A path of cards as a diagnostic names it: ``head`` is the whole path when it has at most
    ``2 * _ENDS + 1`` cards, else its first ``_ENDS`` cards, ``tail`` its last ``_ENDS``; ``length``
    counts its cards."""

    head: tuple[str, ...]
    tail: tuple[str, ...]
    length: int


class _Walk:
    """A breadth-first walk of the prerequisites from one card: each card reached, the card it was
    reached from, how far it is, and the first cards of the path to it (shared along the path)."""

    __slots__ = ("depth", "heads", "parents", "source")

    def __init__(self, requires: Mapping[str, Sequence[str]], source: str) -> None:
        self.source = source
        self.parents: dict[str, str] = {}
        self.depth: dict[str, int] = {source: 0}
        self.heads: dict[str, tuple[str, ...]] = {source: (source,)}
        queue = collections.deque([source])
        while queue:
            node = queue.popleft()
            head = self.heads[node]
            for other in requires.get(node, ()):
                if other not in self.depth:
                    self.parents[other] = node
                    self.depth[other] = self.depth[node] + 1
                    self.heads[other] = (*head, other) if len(head) < 2 * _ENDS + 1 else head
                    queue.append(other)

    def route(self, target: str) -> Route:
        length = self.depth[target] + 1
        if length <= 2 * _ENDS + 1:
            return Route(self.heads[target], (), length)
        tail = [target]
        while len(tail) < _ENDS:
            tail.append(self.parents[tail[-1]])
        return Route(self.heads[target][:_ENDS], tuple(reversed(tail)), length)


def prerequisite_graph(ruleset: Ruleset) -> Prerequisites:
    """The directed graph card → card it requires; prerequisites that do not exist are left to X001.

    Made once per model (every card check asks for it; its closure is made once with it)."""
    found = _GRAPHS.get(ruleset)
    if found is None:
        found = _GRAPHS.put(
            ruleset,
            Prerequisites(
                {
                    card.id: list(dict.fromkeys(r for r in card.prerequisite_list() if r in ruleset.cards))
                    for card in cards_of(ruleset)
                }
            ),
        )
    return found


#: Prerequisite graphs by model, for as long as the model lives.
_GRAPHS: memo.Attached[Ruleset, Prerequisites] = memo.Attached()


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


def prerequisite_span(card: Card, required: str, listed: Mapping[str, int] | None = None) -> Span:
    """The span of the first prerequisite entry of ``card`` that names ``required`` (``listed``:
    :func:`first_listed` of its prerequisites, for a caller placing many of one card's entries)."""
    at = listed[required] if listed is not None else card.prerequisite_list().index(required)
    return card.origin.span("prerequisites", at, "card")


def first_listed(card: Card) -> dict[str, int]:
    """Where each prerequisite of ``card`` is first listed: one pass, where a search per entry made
    a card of thousands of prerequisites cost their square."""
    found: dict[str, int] = {}
    for at, required in enumerate(card.prerequisite_list()):
        found.setdefault(required, at)
    return found


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


#: How an entry a hint writes for a variant cites its change: a house rule, why left blank (L016).
_HOUSE_RULE = f'source: "{blanks.HOUSE_RULE}"'


def _points_written(line: Any) -> str:
    """A credit's points as an overlay entry writes them: the number, or an unknown with its blank."""
    return str(line.points) if known_points(line) else f'{{unknown: "{blanks.WHY}"}}'


def describe(line: Any) -> str:
    """A credit line as a designer reads it: `10 to group crafts` or `20 to military`."""
    extra = " extra" if line.extra else ""
    target = f"group `{line.group}`" if line.card is None else f"`{line.card}`"
    return f"{points_of(line)}{extra} to {target}"


def arrow(path: Sequence[str] | Route) -> str:
    """A path of cards as a message shows it: `a` → `b` → `c`; a path of more than nine cards by its
    first and last four and how many are between (a message stays a line, whatever the chain)."""
    if not isinstance(path, Route):
        path = (
            Route(tuple(path), (), len(path))
            if len(path) <= 2 * _ENDS + 1
            else Route(tuple(path[:_ENDS]), tuple(path[-_ENDS:]), len(path))
        )
    shown = " → ".join(f"`{card}`" for card in path.head)
    if not path.tail:
        return shown
    tail = " → ".join(f"`{card}`" for card in path.tail)
    return f"{shown} → … {path.length - 2 * _ENDS:,} more … → {tail}"


#: The cards shown at each end of a long path (:func:`arrow`).
_ENDS = 4


def _members_by_cost(
    ruleset: Ruleset, matrix: CreditMatrix
) -> tuple[dict[tuple[str, ...], tuple[list[int], list[str]]], dict[str, list[tuple[str, ...]]]]:
    """The cards of known cost that take group credits, by the groups they belong to (a card of two
    groups under the pair), each list sorted by cost (then card order): costs and ids; and for each
    group, the sets of groups that hold it."""
    priced: dict[tuple[str, ...], list[tuple[int, int, str]]] = {}
    for at, (card_id, groups) in enumerate(matrix.groups_of.items()):
        card = ruleset.cards.get(card_id)
        cost = card.cost if card is not None and groups and card_id not in matrix.two_groups else None
        if isinstance(cost, int) and not isinstance(cost, bool):
            priced.setdefault(tuple(dict.fromkeys(groups)), []).append((cost, at, card_id))
    by_groups: dict[tuple[str, ...], tuple[list[int], list[str]]] = {}
    sets_of: dict[str, list[tuple[str, ...]]] = {}
    for groups, cards in priced.items():
        cards.sort()
        by_groups[groups] = ([cost for cost, _, _ in cards], [card_id for _, _, card_id in cards])
        for group in groups:
            sets_of.setdefault(group, []).append(groups)
    return by_groups, sets_of


def coverable(
    lines: Iterable[CreditLine],
    by_groups: Mapping[tuple[str, ...], tuple[Sequence[int], Sequence[str]]],
    sets_of: Mapping[str, Sequence[tuple[str, ...]]],
    policy: CreditPolicy,
) -> set[str]:
    """The cards whose whole cost a giver's ``lines`` might reach: the targets of its specific lines,
    and the members of the groups it credits that cost no more than its group lines give a card of
    their groups (the cell of each such card no line names: its groups' lines combined under
    ``policy``), bisected from each set of groups' members by cost. The points of the lines added
    up bounded it before: a card crediting its group by 200 lines of 10 took every member of the
    group for a candidate where a member receives 10 under `highest` (cards x members over a deck)."""
    candidates: set[str] = set()
    plain: dict[str, list[CreditLine]] = {}
    extra: dict[str, list[CreditLine]] = {}
    for line in lines:
        if line.card is not None:
            candidates.add(line.card)
        elif line.group is not None:
            (extra if line.extra else plain).setdefault(line.group, []).append(line)
    # A group's lines of each kind as one line giving what they give together (the highest or the
    # sum, the extras' sum): a set of groups is combined in a step per group, however many lines
    # credit them, to what all of their lines combine to.
    summed = {
        group: [
            *([CreditLine(combine(plain[group], policy), group=group)] if group in plain else ()),
            *([CreditLine(combine(extra[group], policy), group=group, extra=True)] if group in extra else ()),
        ]
        for group in dict.fromkeys([*plain, *extra])
    }
    for groups in dict.fromkeys(s for group in summed for s in sets_of.get(group, ())):
        costs, ids = by_groups[groups]
        value = combine([line for group in groups for line in summed.get(group, ())], policy)
        candidates.update(ids[: bisect.bisect_right(costs, value)])
    return candidates


# --- Prerequisites -----------------------------------------------------------------------------


@check("C001", "prerequisite-cycle", Severity.ERROR, reads=("civilization_cards.prerequisites",))
@made_of("cards")
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
        tangled = f"; {words.listed(others)} {verb} tangled in the same knot of cycles" if others else ""
        yield diagnostic(
            "C001",
            f"prerequisite cycle {arrow([*path, path[0]])}: none of these cards can ever be acquired{tangled}",
            prerequisite_span(closing, path[0]),
            "remove the prerequisite that is wrong; a card can only require cards acquired in an earlier turn (31.62)",
            related,
            subjects=(*[*path, path[0]],),
        )


@check("C002", "redundant-prerequisite", Severity.WARNING, reads=("civilization_cards.prerequisites",))
@made_of("cards")
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
    closure: Closure | None = None
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
                    subjects=(card.id, required),
                )
            first.setdefault(required, index)
        if card.id in cyclic:
            continue
        distinct = [r for r in first if r in graph and r not in cyclic]
        if len(distinct) < 2:
            continue
        # Each prerequisite implied by another of the list, by the first (in list order) that
        # requires it: what each of them requires is a set of bits, and each entry is claimed once
        # (not a test of every pair: a card may list thousands).
        closure = graph.closure() if closure is None else closure
        unclaimed = closure.mask(distinct)
        implied: dict[str, str] = {}
        for other in distinct:
            claimed = closure.below[other] & unclaimed
            if claimed:
                unclaimed &= ~claimed
                implied.update(dict.fromkeys(closure.cards(claimed), other))
        for required in distinct:
            if required not in implied:
                continue
            other = implied[required]
            chain = graph.shortest_path(other, required)
            yield diagnostic(
                "C002",
                f"prerequisite `{required}` of `{card.id}` is implied by its prerequisite `{other}`: {arrow(chain)}",
                card.origin.span("prerequisites", first[required], "card"),
                f"delete this entry; every holder of `{other}` already holds `{required}`",
                [Related(card.origin.span("prerequisites", first[other], "card"), "implied through here")],
                subjects=(required, card.id, other, *chain.head, *chain.tail),
            )


# --- Credits -----------------------------------------------------------------------------------


@check("C003", "self-credit", Severity.ERROR, reads=("civilization_cards.credits",))
@made_of("cards")
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
                    subjects=(card.id,),
                )


@check(
    "C004",
    "credit-target-twice",
    Severity.WARNING,
    reads=("civilization_cards.credits", "civilization_cards.groups", setting("credit_policy")),
)
@made_of("cards", "credit_policy")
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

    Fix: keep one line per target: delete the shadowed line, or fold the two into one value. A
    variant whose patch adds a line over one of its base's deletes the base's in that patch
    (`credits: {remove: [{card: monotheism, points: 15}], append: [...]}`).

        - id: pottery
          credits:
            - {group: crafts, points: 10, rule: "32.212"}
            - {card: agriculture, points: 5, rule: "32.212"}  # FAIL: agriculture is a craft card
    """
    policy = credit_policy(ruleset)
    members = group_members(credit_sources(ruleset))
    # Where each card stands in each group's list: targets are taken in the order the lines reach them.
    position = {group: {card: at for at, card in enumerate(cards)} for group, cards in members.items()}
    listed: dict[str, list[str]] = {}
    for group, cards in members.items():
        for member in cards:
            listed.setdefault(member, []).append(group)
    # As tuples: the targets of the same groups share one look at them (_overlap_routes).
    groups_of = {member: tuple(groups) for member, groups in listed.items()}
    for card in cards_of(ruleset):
        lines = [line for line in card.credit_list() if known_points(line)]
        if len(lines) < 2:
            continue
        routes = _overlap_routes(card.id, lines, members, position, groups_of)
        # Targets reached by the same lines share one verdict: a group credited by many lines is
        # judged once, not once per member of the group.
        verdicts: dict[Hashable, bool] = {}
        overlaps: dict[Hashable, tuple[list[WrittenLine], list[str]]] = {}
        for target, (key, reaching) in routes.items():
            if key not in verdicts:
                plain = [line for line in reaching if not line.extra]
                extra = [line for line in reaching if line.extra]
                groups = [line.group for line in plain if line.group is not None]
                specific = len(groups) < len(plain)
                verdicts[key] = (len(plain) > 1 and (specific or len(set(groups)) < len(groups))) or len(extra) > 1
            if verdicts[key]:
                overlaps.setdefault(key, (reaching, []))[1].append(target)
        for reaching, targets in overlaps.values():
            credits = card.credit_list()
            yield _overlap(card, [(line.index, credits[line.index]) for line in reaching], targets, policy)


def _overlap_routes(
    owner: str,
    lines: Sequence[WrittenLine],
    members: Mapping[str, Sequence[str]],
    position: Mapping[str, Mapping[str, int]],
    groups_of: Mapping[str, tuple[str, ...]],
) -> dict[str, tuple[Hashable, list[WrittenLine]]]:
    """The lines of ``owner`` reaching each target that C004 may report, in the order the lines
    reach the targets, each with a key shared by the targets the same lines reach. Only a target
    reached by a specific line, by a group credited twice, or by two extra credits can be reported:
    those are the only targets looked at, so a card crediting a group of thousands is not walked
    card by card; and the targets no line names, reached through the same groups, share one list of
    lines (the check stays linear in the credits written, however many lines credit one group)."""
    plain = [line for line in lines if not line.extra]
    extra = [line for line in lines if line.extra]
    groups = [line.group for line in plain if line.card is None and line.group is not None]
    twice = {group for group, times in collections.Counter(groups).items() if times > 1}
    candidates: set[str] = {line.card for line in plain if line.card is not None and line.card != owner}
    for group in twice:
        candidates.update(card for card in members.get(group, ()) if card != owner)
    if len(extra) > 1:
        # Each target card and group of the extra lines once, however many lines name it.
        for line in {(line.card, line.group): line for line in extra}.values():
            candidates.update(line_targets(owner, as_credit(line), members))

    # Where each target card and each group is written: a target's lines are found by looking it up,
    # not by testing every line (a card may write thousands of specific credits).
    by_card: dict[str, list[int]] = {}
    by_group: dict[str, list[int]] = {}
    for at, line in enumerate(lines):
        if line.card is not None:
            by_card.setdefault(line.card, []).append(at)
        else:
            by_group.setdefault(line.group or "", []).append(at)

    # The targets of the same groups reach the same groups' lines: each set of groups a target may
    # belong to is looked at once (a group of thousands: one lookup per target, nothing more).
    through: dict[tuple[str, ...], tuple[frozenset[str], list[int], str]] = {}
    reached_lines: dict[frozenset[str], list[int]] = {}

    def reaching(groups: tuple[str, ...]) -> tuple[frozenset[str], list[int], str]:
        reached = frozenset(group for group in groups if group in by_group)
        shared = reached_lines.get(reached)
        if shared is None:
            shared = reached_lines[reached] = sorted(i for group in reached for i in by_group[group])
        first = lines[shared[0]] if shared else None
        found = through[groups] = (reached, shared, first.group or "" if first is not None else "")
        return found

    routes: dict[str, tuple[Hashable, list[int]]] = {}
    # Each target with where the lines first reach it: the first line, then its place in that
    # line's group (a line naming a card reaches only that card).
    order: list[tuple[int, int, str]] = []
    for target in candidates:
        of = groups_of.get(target, ())
        reached, shared, group = through.get(of) or reaching(of)
        own = by_card.get(target)
        if own is None:
            routes[target] = (reached, shared)
            order.append((shared[0], position[group][target], target))
            continue
        lines_of = sorted([*own, *shared])
        routes[target] = (tuple(lines_of), lines_of)
        at = lines_of[0]
        line = lines[at]
        order.append((at, 0 if line.card is not None else position[line.group or ""][target], target))
    order.sort()
    made: dict[Hashable, list[WrittenLine]] = {}
    found: dict[str, tuple[Hashable, list[WrittenLine]]] = {}
    for _, _, target in order:
        key, where = routes[target]
        if key not in made:
            made[key] = [lines[i] for i in where]
        found[target] = (key, made[key])
    return found


def as_credit(line: Any) -> CreditLine:
    return CreditLine(line.points, line.group, line.card, line.extra)


def _overlap(card: Card, placed: Sequence[tuple[int, Any]], targets: Sequence[str], policy: CreditPolicy) -> Diagnostic:
    """C004 of the lines of ``card`` toward ``targets`` (``placed``: each with its place in the card's
    credit list). Where a variant's patch adds
    a line (one written elsewhere than the card) that shadows one the card's definition writes, the
    fix is the deletion of that line in the patch, written as its list operations write it: the
    base's file is not the designer's to edit. (Told by the lines' places, not the ruleset's
    layers: C004's findings are shared by the rulesets holding the same cards.)"""
    reaching = [line for _, line in placed]
    # each line's place in the card's credit list (its span), given by the caller: looking it up in
    # the whole list at each finding made a card of n lines cost n for each of its findings
    at = {id(line): index for index, line in placed}
    last = reaching[-1]
    value = combine([as_credit(line) for line in reaching], policy)
    names = words.listed(targets)
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
    # a patch's line shadows one of the card's definition: that one is deleted in the patch
    defined = card.origin.document.file
    patched = any(credit_span(card, at[id(line)]).file != defined for line in reaching)
    based = [line for line in dead if patched and credit_span(card, at[id(line)]).file == defined]
    if policy.same_target is SameTarget.HIGHEST and based:
        message += "; " + ", ".join(f"the credit {describe(line)}" for line in dead) + " has no effect"
        shown = ", ".join(describe(line) for line in based)
        removed = ", ".join(f"{{card: {line.card}, points: {line.points}}}" for line in based)
        hint = (
            f"the shadowed credit ({shown}) is the base's: delete it in this patch, beside the `append:` of its "
            f"`credits:`, `remove: [{removed}]`"
        )
    elif policy.same_target is SameTarget.HIGHEST and dead:
        message += "; " + ", ".join(f"the credit {describe(line)}" for line in dead) + " has no effect"
        above = "the group credit" if counted is None or counted.card is None else f"the credit {describe(counted)}"
        hint = f"delete the shadowed credit, or raise it above {above} if it is meant to replace it"
    else:
        hint = "keep one credit line per target card (or per group)"
    related = [Related(credit_span(card, line.index), "also reaches it") for line in reaching[:-1]]
    return diagnostic("C004", message, credit_span(card, last.index), hint, related, subjects=(card.id, *targets))


def max_line(lines: Sequence[Any]) -> Any:
    """The line that counts under `highest` (the first of the largest)."""
    return max(lines, key=lambda line: line.points)


def counting_line(giver: Card, target: str, matrix: CreditMatrix) -> Any:
    """The largest credit line of ``giver`` that reaches ``target`` (where a matrix cell comes from)."""
    return counting_lines(giver, [target], matrix)[target]


def counting_lines(giver: Card, targets: Iterable[str], matrix: CreditMatrix) -> dict[str, Any]:
    """:func:`counting_line` for each of ``targets`` at once (the first of the largest lines), reading
    the giver's lines per target: never a walk over the members of a group it credits."""
    by_card: dict[str, list[Any]] = {}
    by_group: dict[str, list[Any]] = {}
    for line in giver.credit_list():
        if known_points(line):
            if line.card is not None:
                by_card.setdefault(line.card, []).append(line)
            else:
                by_group.setdefault(line.group or "", []).append(line)
    found: dict[str, Any] = {}
    # The targets no line names, reached through the same groups, share their counting line.
    shared: dict[frozenset[str], Any] = {}
    for target in targets:
        if target == giver.id:
            continue
        groups = frozenset(group for group in matrix.groups_of.get(target, ()) if group in by_group)
        own = by_card.get(target, [])
        if not own and groups in shared:
            counting = shared[groups]
        else:
            counting = None
            reaching = [*own, *(line for group in groups for line in by_group[group])]
            for line in sorted(reaching, key=lambda line: line.index):
                if counting is None or line.points > counting.points:
                    counting = line
            if not own:
                shared[groups] = counting
        if counting is not None:
            found[target] = counting
    return found


@check(
    "C005",
    "credit-to-prerequisite",
    Severity.WARNING,
    reads=(
        "civilization_cards.credits",
        "civilization_cards.prerequisites",
    ),
)
@made_of("cards")
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
    cyclic = cyclic_cards(graph)
    closure: Closure | None = None
    for card in cards_of(ruleset):
        if card.id in cyclic:
            continue
        listed: dict[str, int] | None = None
        for line in card.credit_list():
            if line.card is None or line.card not in graph:
                continue
            closure = graph.closure() if closure is None else closure
            if not closure.holds(card.id, line.card):
                continue
            listed = first_listed(card) if listed is None else listed
            chain = graph.shortest_path(card.id, line.card)
            yield diagnostic(
                "C005",
                f"`{card.id}`'s credit of {points_of(line)} to `{line.card}` can never be used: every holder of "
                f"`{card.id}` already holds `{line.card}` ({arrow(chain)})",
                card.origin.span("credits", line.index, "card"),
                f"did you mean a credit from `{line.card}` to `{card.id}`? Otherwise delete it",
                [Related(prerequisite_span(card, chain.head[1], listed), "the prerequisite")],
                subjects=(card.id, line.card, *chain.head, *chain.tail),
                # the prerequisite is most often the base's card, changed from the variant; read
                # only in a variant, written always (made of the cards, shared by their rulesets)
                from_variant=f"for a credit from `{line.card}` to `{card.id}`, patch `{line.card}` in "
                f"`overlay.civilization_cards`: `patch: [{{id: {line.card}, credits: {{append: [{{card: {card.id}, "
                f"points: {_points_written(line)}, {_HOUSE_RULE}}}]}}, {_HOUSE_RULE}}}]`",
            )


@check(
    "C006",
    "free-for-every-holder",
    Severity.WARNING,
    reads=(
        "civilization_cards.cost",
        "civilization_cards.credits",
        "civilization_cards.groups",
        "civilization_cards.prerequisites",
        setting("credit_policy"),
    ),
)
@made_of("cards", "credit_policy")
def check_free_cards(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: the credits a card receives from its own prerequisites (which every buyer must hold,
    31.62) reach its whole cost, so every player who may buy it gets it at no cost (31.57).

    Why: a card that is free the moment it becomes available is not a purchase decision any more;
    usually a cost or a credit has a typo (200 for 20).

    Fix: correct the cost or the credits; if the card is meant to come free with its prerequisite,
    say so in a `note:` and silence the warning with `# civrules: ignore[C006] reason`. A variant
    that makes a card free is given the patch of its cost in `overlay.civilization_cards`.

        - id: law
          credits:
            - {card: democracy, points: 200, rule: "32.81"}
        - id: democracy
          cost: 200                   # FAIL: law, its prerequisite, credits 200
          prerequisites: [{card: law, rule: "31.62"}]
    """
    graph = prerequisite_graph(ruleset)
    cyclic = cyclic_cards(graph)
    matrix = matrix_of(ruleset)
    closure: Closure | None = None
    toward: _CreditsToward | None = None
    for card in cards_of(ruleset):
        if card.id in cyclic or not isinstance(card.cost, int) or card.id not in graph:
            continue
        closure = graph.closure() if closure is None else closure
        owned = closure.below[card.id]
        if not owned:
            continue
        toward = _CreditsToward(matrix, closure) if toward is None else toward
        givers, total = toward.from_among(card.id, owned)
        if not givers or total < card.cost:
            continue
        shown = closure.cards(givers, words.SHOWN)
        related = [
            Related(
                credit_span(ruleset.cards.by_id[g], counting_line(ruleset.cards.by_id[g], card.id, matrix).index),
                f"`{g}` gives {matrix[g][card.id]}",
            )
            for g in shown
        ]
        yield diagnostic(
            "C006",
            f"`{card.id}` comes free to every player who may buy it: its prerequisites "
            f"({words.listed(shown, givers.bit_count())}) credit {total} toward it, its whole cost of {card.cost} "
            "(31.57)",
            card.origin.span("cost"),
            "check the cost and the credits toward this card from its prerequisites",
            related,
            subjects=(card.id, *shown),
            # made whatever the ruleset (the findings are kept for every ruleset holding these
            # cards); read only where a variant's finding is told
            from_variant=_free_card_in_overlay(card.id, total, words.listed(shown, givers.bit_count())),
        )


def _free_card_in_overlay(card: str, total: int, givers: str) -> str:
    """C006's fix as a variant makes it: the card's cost raised above what its prerequisites
    credit, in its patch, or their credits toward it lowered (``givers``: them, as the message names them)."""
    return (
        f"patch `{card}` in `overlay.civilization_cards` to a cost of more than {total}, "
        f'`- {{id: {card}, cost: "write a cost above {total} here", '
        'source: "house rule: write why here"}`, or lower the credits toward it from '
        f"{givers} to less than its cost"
    )


class _CreditsToward:
    """The credit toward a card from the cards of a set (C006: from its transitive prerequisites),
    without looking at each card of the set.

    A card credits another by a specific line to it, or by group lines to the target's groups: what
    a card's group lines give depends only on the target's groups. So the givers by group lines
    alone are sets of bits per target groups and per value, and the total from a set of cards is
    counted bit by bit in machine words; only the cards writing a specific line to the target are
    looked at one by one (as many as those lines).
    """

    def __init__(self, matrix: CreditMatrix, closure: Closure) -> None:
        self.matrix = matrix
        self.closure = closure
        self.specific: dict[str, list[str]] = {}
        self.by_group: dict[str, list[str]] = {}
        for giver in matrix:
            if giver not in closure.position:
                continue
            for line in matrix.lines(giver):
                if line.card is not None:
                    self.specific.setdefault(line.card, []).append(giver)
                elif line.group is not None:
                    self.by_group.setdefault(line.group, []).append(giver)
        self._values: dict[tuple[str, ...], dict[int, int]] = {}

    def _by_value(self, groups: tuple[str, ...]) -> dict[int, int]:
        """The cards whose group lines credit a card of ``groups`` (and no specific line), by the value."""
        found = self._values.get(groups)
        if found is None:
            found = {}
            policy = self.matrix.policy
            for giver in dict.fromkeys(g for group in groups for g in self.by_group.get(group, ())):
                lines = [line for line in self.matrix.lines(giver) if line.card is None and line.group in groups]
                value = lines[0].points if len(lines) == 1 else combine(lines, policy)
                if value:
                    found[value] = found.get(value, 0) | 1 << self.closure.position[giver]
            self._values[groups] = found
        return found

    def from_among(self, target: str, cards: int) -> tuple[int, int]:
        """The cards of ``cards`` (bits) that give ``target`` a credit, and the total they give."""
        matrix, closure = self.matrix, self.closure
        specific = [g for g in dict.fromkeys(self.specific.get(target, ())) if cards >> closure.position[g] & 1]
        givers = total = 0
        for giver in specific:
            value = matrix[giver].get(target)
            if value:
                givers |= 1 << closure.position[giver]
                total += value
        groups = () if target in matrix.two_groups else matrix.groups_of.get(target, ())
        if groups:
            others = cards & ~closure.mask(specific) & ~(1 << closure.position[target])
            for value, bits in self._by_value(tuple(groups)).items():
                reached = others & bits
                if reached:
                    givers |= reached
                    total += value * reached.bit_count()
        return givers, total


@check(
    "C007",
    "credit-covers-cost",
    Severity.WARNING,
    reads=(
        "civilization_cards.cost",
        "civilization_cards.credits",
        "civilization_cards.groups",
        "civilization_cards.prerequisites",
        setting("credit_policy"),
    ),
)
@made_of("cards", "credit_policy")
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
    by_groups, sets_of = _members_by_cost(ruleset, matrix)
    for giver in cards_of(ruleset):
        if giver.id not in matrix:
            continue
        covered: dict[int, list[tuple[Card, int]]] = {}
        # Only a target costing no more than the lines reaching it give can be covered: a group
        # credit of 10 to thousands of cards costing 45 looks at none of them, even from a giver
        # whose specific credits add up to more (all its points together bounded every group: a
        # candidate per giver and member, quadratic in a deck of many such cards).
        candidates = coverable(matrix.lines(giver.id), by_groups, sets_of, matrix.policy)
        # Each set of lines combined once for the candidates it reaches, not once per candidate (a
        # card crediting its group by many lines: cards x members x lines).
        cells = matrix[giver.id].cells_of(sorted(candidates))
        whole: list[tuple[Card, int]] = []
        for target_id, points in cells.items():
            target = ruleset.cards.get(target_id)
            if target is None or not isinstance(target.cost, int) or points < target.cost:
                continue
            if target_id == giver.id or (
                giver.id in graph and target_id in graph and graph.closure().holds(target_id, giver.id)
            ):
                continue  # the target requires the giver: C006's
            whole.append((target, points))
        # Counting lines once per giver that covers anything, for the targets covered.
        counting = counting_lines(giver, [target.id for target, _ in whole], matrix) if whole else {}
        for target, points in whole:
            covered.setdefault(counting[target.id].index, []).append((target, points))
        # One diagnostic per credit line: a group credit may cover several cheap cards at once.
        for index, targets in covered.items():
            free = ", ".join(f"`{t.id}` ({points} for a cost of {t.cost})" for t, points in targets[: words.SHOWN])
            if len(targets) > words.SHOWN:
                free += f" and {len(targets) - words.SHOWN:,} more"
            yield diagnostic(
                "C007",
                f"`{giver.id}`'s credit covers the whole cost of {free}: any holder of `{giver.id}` gets "
                f"{'it' if len(targets) == 1 else 'them'} free (31.57)",
                credit_span(giver, index),
                "check the points of this credit and the cost of its target",
                [Related(t.origin.span("cost"), f"`{t.id}` costs {t.cost}") for t, _ in targets],
                subjects=(giver.id,),
            )


@check("C008", "overpayment-stated-twice", Severity.ERROR, reads=(setting("credit_policy"),))
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
        subjects=("excess_lost", "purchases.overpayment"),
    )
