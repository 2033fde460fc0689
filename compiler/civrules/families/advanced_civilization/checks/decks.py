"""Commodities and trade decks: the card counts, the stacks, set values and Mining.

The commodities file gives each good's value, count and stack, the declared total, the set value
rule with worked examples, Mining's bonus, and the numbered trade stacks with their set-up (15.2).
These checks hold them together and against the players the ruleset supports.

Not checked here, on purpose:

- the calamities in the stacks: the K checks (:mod:`civrules.families.advanced_civilization.checks.calamities`) do that;
- the Expansion Project's per-block decks (`deck_compositions`, `count_per_stack:
  players_in_block`): the model has no trade blocks yet, so a stack's size per block is unknown;
- unknown values and counts (`{unknown: ...}`): skipped, Q006 reports them.
"""

from __future__ import annotations

from collections.abc import Iterator

from civrules.checks import check, diagnostic, made_of, setting
from civrules.checks.players import seats_nobody
from civrules.diagnostics import Diagnostic, Related, Severity, Span, words
from civrules.families.advanced_civilization.commodities import declared_stacks
from civrules.families.advanced_civilization.model import Commodity, Ruleset
from civrules.model import Origin, Unknown


def commodities_of(ruleset: Ruleset) -> list[Commodity]:
    """Each commodity once (the first of a duplicated id; I001 reports the copy), in data order."""
    return list(ruleset.commodities.by_id.values())


def _stack_cards(ruleset: Ruleset) -> dict[int, list[Commodity]]:
    by_stack: dict[int, list[Commodity]] = {}
    for commodity in commodities_of(ruleset):
        if commodity.stack is not None:
            by_stack.setdefault(commodity.stack, []).append(commodity)
    return by_stack


@check("D001", "total-cards-mismatch", Severity.ERROR, reads=("commodities.count", setting("total_cards")))
def check_total_cards(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: the total number of commodity cards the file declares (`total_cards`) is not the sum of
    the goods' counts (Advanced Civilization: 114, 8.1).

    Why: a count mistyped in one good changes the deck, the largest possible set and the set-up;
    the declared total is the rulebook's own cross-check.

    Fix: correct the count that differs from the rulebook's table (or the total).

    A variant that changes the counts (or adds or removes goods) without restating the total is
    not held to its base's total: its deck's total is derived from its counts (in `export`, the
    package and the sheets too, with a note naming the base's).

        total_cards:
          count: 114
        commodities:
          - {id: ochre, count: 8, ...}     # FAIL: the counts now add up to 115
    """
    found = ruleset.total_cards
    if found is None:
        return
    declared, origin = found.count, found.origin
    goods = commodities_of(ruleset)
    counts = [c.count for c in goods]
    if not isinstance(declared, int) or any(not isinstance(n, int) for n in counts):
        return
    if ruleset.changed_after(origin.child("count"), "commodities", goods, ("count",)):
        return  # a variant recounted the goods without restating the total: its total is derived
    total = sum(n for n in counts if isinstance(n, int))
    if total != declared:
        yield diagnostic(
            "D001",
            f"the commodity counts add up to {words.count(total, 'card')}, but `total_cards` declares {declared}",
            origin.span("count"),
            f"check each good's `count` against the rulebook: they are {abs(total - declared)} "
            f"{'over' if total > declared else 'short of'} the total",
            subjects=("total_cards",),
        )


@check(
    "D002",
    "stack-is-not-face-value",
    Severity.ERROR,
    reads=("commodities.stack", "commodities.value", setting("trade_stacks")),
)
@made_of("commodities", "trade_stacks")
def check_stack_is_value(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: the file declares that the stacks are numbered by face value
    (`trade_stacks.numbered_by_value: true`; Advanced Civilization 15.2 sorts the cards "by
    number"), but a good's `stack` is not its `value`.

    Why: the stack decides when a good comes into play and with which calamities it is shuffled;
    the value decides what its sets are worth. One of the two is mistyped.

    Fix: correct the good's `stack` or `value`.

        - id: ochre
          value: 1
          stack: 2          # FAIL: ochre's face value is 1
    """
    found = ruleset.trade_stacks
    if found is None or not found.numbered_by_value:
        return
    for commodity in commodities_of(ruleset):
        if isinstance(commodity.value, Unknown) or commodity.stack is None or commodity.stack == commodity.value:
            continue
        yield diagnostic(
            "D002",
            f"`{commodity.id}` is in stack {commodity.stack}, but its face value is {commodity.value}",
            commodity.origin.span("stack"),
            f"stacks are numbered by face value here: `stack: {commodity.value}`, or correct `value`",
            [
                Related(commodity.origin.span("value"), "the face value"),
                Related(found.origin.span("numbered_by_value"), "stacks numbered by face value"),
            ],
            subjects=(commodity.id,),
        )


@check("D003", "commodity-in-undeclared-stack", Severity.ERROR, reads=("commodities.stack", setting("trade_stacks")))
@made_of("commodities", "trade_stacks")
def check_commodity_stacks(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: goods are in a trade stack that `trade_stacks.stacks` does not declare.

    Why: the set-up (15.2) and the stacks' properties (calamities, purchases) come from the
    declarations; cards of an undeclared stack are never dealt, or dealt by no stated rule.

    Fix: declare the stack, or correct the goods' `stack`.

        trade_stacks:
          stacks: [{number: 2, ...}, ...]    # no stack 1
        commodities:
          - {id: ochre, stack: 1, ...}       # FAIL: stack 1 is not declared
    """
    stacks = {stack.number for stack in declared_stacks(ruleset)}
    if not stacks:
        return
    for number, goods in sorted(_stack_cards(ruleset).items()):
        if number in stacks:
            continue
        names = words.listed([c.id for c in goods])
        yield diagnostic(
            "D003",
            f"{names} {'is' if len(goods) == 1 else 'are'} in trade stack {number}, which is not declared",
            goods[0].origin.span("stack"),
            f"declare stack {number} in `trade_stacks.stacks`, or move the goods to a declared stack",
            [Related(c.origin.span("stack"), f"`{c.id}` is in stack {number} too") for c in goods[1:]],
            subjects=(*(c.id for c in goods), number),
        )


@check("D004", "stack-numbering", Severity.ERROR, reads=("commodities.stack", setting("trade_stacks")))
@made_of("commodities", "trade_stacks")
def check_stack_numbering(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: the trade stack declarations do not fit together: a stack number declared twice,
    `trade_stacks.count` not matching the stacks declared (numbered 1 to count), or a set-up step
    naming stacks that are not declared (or a range from a higher to a lower stack).

    Why: the stacks are the deck's skeleton (Advanced Civilization has nine, 10.3); every stack
    rule (calamities, purchases, set-up) is keyed by its number.

    Fix: number the stacks 1 to `count`, once each, and keep the set-up ranges within them.

        trade_stacks:
          count: 8            # FAIL: stacks 1-9 are declared
    """
    found = ruleset.trade_stacks
    if found is None:
        return
    origin = found.origin
    stacks = declared_stacks(ruleset)
    first: dict[int, Origin] = {}
    for stack in stacks:
        previous = first.setdefault(stack.number, stack.origin)
        if previous is not stack.origin:
            yield diagnostic(
                "D004",
                f"trade stack {stack.number} is declared twice",
                stack.origin.span("number"),
                "merge the two declarations",
                [Related(previous.span("number"), "first declared here")],
                subjects=(stack.number,),
            )
    count = found.count
    used = set(_stack_cards(ruleset))
    numbers = set(first)
    if isinstance(count, int):
        beyond = sorted(n for n in numbers if n > count)
        # a stack goods use but nobody declared is D003's; here only the declarations' own gaps
        missing = sorted(n for n in range(1, count + 1) if n not in numbers and n not in used)
        if beyond or missing:
            parts = [f"stack {', '.join(map(str, beyond))} beyond it"] if beyond else []
            parts += [f"no stack {', '.join(map(str, missing))}"] if missing else []
            yield diagnostic(
                "D004",
                f"`trade_stacks.count` is {count}, but the declarations have {' and '.join(parts)}",
                origin.span("count"),
                f"set `count: {max(numbers, default=0)}`, or declare the stacks 1 to {count}",
                subjects=("trade_stacks.count",),
            )
    for step in found.setup:
        i = step.index
        if step.stacks is None or not numbers:
            continue
        low, high = step.stacks
        outside = [n for n in range(low, high + 1) if n not in numbers]
        if low > high or outside:
            what = f"runs from {low} down to {high}" if low > high else f"names undeclared stack(s) {outside}"
            yield diagnostic(
                "D004",
                f"set-up step `{step.step}` {what}",
                origin.span("setup", "steps", i, "stacks"),
                f"name a range of declared stacks, lowest first ({min(numbers)}-{max(numbers)})",
                subjects=(step.step,),
            )


@check(
    "D005",
    "stack-too-small-for-players",
    Severity.ERROR,
    reads=("commodities.count", "commodities.stack", setting("trade_stacks"), setting("players")),
)
def check_stack_sizes(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a trade stack with calamities holds fewer commodity cards than the most players the
    ruleset supports. (Where its `players.min` is above its `max`, R024 reports the range.)

    Why: the set-up (15.2) counts off one commodity card per player from each of those stacks and
    puts them back on top, so that no tradable calamity is drawn before the game is well under
    way; with fewer cards than players the set-up cannot be done.

    Fix: correct the goods' counts or stacks, or the ruleset's `players.max`.

        players: {min: 2, max: 8}
        commodities:
          - {id: gold, count: 5, stack: 9}
          - {id: ivory, count: 2, stack: 9}   # FAIL: stack 9 has 7 cards for 8 players
    """
    low, high = ruleset.players
    if high < 1 or seats_nobody(low, high):
        return  # a range that seats nobody is R024's: no stack is judged against it
    steps = ruleset.trade_stacks.setup if ruleset.trade_stacks is not None else ()
    if any(s.count_per_stack == "players_in_block" for s in steps):
        return
    by_stack = _stack_cards(ruleset)
    for stack in declared_stacks(ruleset):
        if not stack.calamities:
            continue
        goods = by_stack.get(stack.number, [])
        counts = [c.count for c in goods]
        if any(not isinstance(n, int) for n in counts):
            continue
        cards = sum(n for n in counts if isinstance(n, int))
        if cards >= high:
            continue
        fits = f"at most {words.count(cards, 'player')}" if cards >= max(low, 1) else "no number of players it supports"
        yield diagnostic(
            "D005",
            f"trade stack {stack.number} holds {cards} commodity cards, so the set-up (one card set aside per "
            f"player, 15.2) works for {fits}, not for {high}",
            stack.origin.span("number"),
            f"the ruleset supports {low}-{high} players: each stack with calamities needs {high} commodity cards",
            [Related(_players_span(ruleset), "the most players")]
            + [Related(c.origin.span("count"), f"{c.count} `{c.id}`") for c in goods],
            subjects=(stack.number, *(c.id for c in goods)),
        )


def _players_span(ruleset: Ruleset) -> Span:
    """Where the ruleset's most players are stated: the base's manifest, unless a variant restated them."""
    found = ruleset.setting_origins.get("players")
    return found.span("max") if found is not None else ruleset.manifest.span("players", "max")


@check(
    "D006",
    "set-value-example-mismatch",
    Severity.ERROR,
    reads=("commodities.count", "commodities.value", setting("set_value")),
)
def check_set_value_examples(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a worked example of `set_value` does not follow the declared formula (`n x n x v`, for n
    cards of face value v), or is a set larger than the good has cards.

    Why: the examples are the rulebook's own cross-check of the formula and of the goods' values
    (28.53: three Bronze are worth 54, four 96); one that disagrees means a mistyped value, count
    or example.

    Fix: correct the example as the rulebook prints it, or the good's value. A variant that
    changes a good's value or count is not held to its base's examples of that good (they state the
    base's values); the examples a variant writes itself are checked.

        examples:
          - {commodity: iron, cards: 3, set_value: 19, rule: "32.261"}   # FAIL: 3 x 3 x 2 is 18
    """
    rule = ruleset.set_value
    if rule is None or not rule.mapping:
        return
    origin = rule.origin
    if rule.formula != "count_squared_times_value":
        return
    for example in rule.examples:
        i = example.index
        commodity = ruleset.commodities.get(example.commodity)
        if commodity is None or isinstance(commodity.value, Unknown):
            continue
        # An example is its rulebook's statement about the values of the ruleset that declares it: a
        # variant that changes the good's value or count later is held to its own examples only.
        if ruleset.changed_after(origin.child("examples", i), "commodities", [commodity], ("value", "count")):
            continue
        n, stated = example.cards, example.set_value
        if not isinstance(n, int) or not isinstance(stated, int):
            continue
        if isinstance(commodity.count, int) and n > commodity.count and rule.max_set_size == "count_of_good":
            yield diagnostic(
                "D006",
                f"a set of {n} `{commodity.id}` cannot exist: there {'is' if commodity.count == 1 else 'are'} "
                f"{words.count(commodity.count, 'card')} of it",
                origin.span("examples", i, "cards"),
                "correct the example's `cards`, or the good's `count`",
                [Related(commodity.origin.span("count"), "the good's count")],
                subjects=(commodity.id,),
            )
            continue
        expected = n * n * commodity.value
        if stated != expected:
            yield diagnostic(
                "D006",
                f"{n} `{commodity.id}` are worth {n} x {n} x {commodity.value} = {expected}, "
                f"but the example says {stated}",
                origin.span("examples", i, "set_value"),
                "correct the example as the rulebook prints it, or the good's `value`",
                [Related(commodity.origin.span("value"), "the good's face value")],
                subjects=(commodity.id,),
            )


@check("D007", "mining-goods-inconsistent", Severity.ERROR, reads=("commodities.mining", setting("mining")))
@made_of("commodities", "mining")
def check_mining_goods(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: Mining's set bonus (`mining.set_bonus`) is declared but no good is marked `mining: true`,
    or goods are marked `mining: true` but the file declares no Mining set bonus.

    Why: Mining adds a card to a set of Iron, Bronze, Silver, Gems or Gold (32.261); the bonus and
    the goods it applies to are two halves of one rule, and either half alone does nothing.

    Fix: mark the goods Mining applies to, or declare the bonus (or remove the marks).

        mining:
          set_bonus: {extra_cards: 1, ...}
        commodities:
          - {id: iron, ...}        # FAIL: no good has `mining: true`
    """
    goods = [c for c in commodities_of(ruleset) if c.mining]
    found = ruleset.mining
    bonus = found is not None and found.set_bonus
    if bonus and not goods and found is not None:
        yield diagnostic(
            "D007",
            "Mining's set bonus is declared, but no good is marked `mining: true`",
            found.origin.key_span("set_bonus"),
            "mark the goods Mining applies to (Advanced Civilization: Iron, Bronze, Silver, Gems, Gold)",
            subjects=("mining.set_bonus",),
        )
    elif goods and not bonus:
        names = words.listed([c.id for c in goods])
        yield diagnostic(
            "D007",
            f"{names} {'is' if len(goods) == 1 else 'are'} marked `mining: true`, but no Mining set bonus is declared",
            goods[0].origin.span("mining"),
            "declare `mining.set_bonus`, or remove the marks",
            [Related(c.origin.span("mining"), f"`{c.id}` is marked too") for c in goods[1:]]
            + ([Related(found.origin.span(), "Mining is declared here")] if found else []),
            subjects=(*(c.id for c in goods), "mining"),
        )
