"""The pyramid and research rules as expression trees, the page's twins of the package's
``may_place_technology``, ``pyramid_needs``, ``research_cost`` and ``trade_after_research``.

A technology or a wonder listed twice is no pyramid or holding of the game (a player has one card
of each technology, the game one of each wonder): the package refuses it (OutOfDomainError) and
these rules answer null, no answer, as they do where the trade is short."""

from __future__ import annotations

from civrules.emit.helpers import Rule
from civrules.emit.helpers.expr import Expr, add, call, fn, get, if_, let, obj, op, sub, table, var


def _f(name: str, body: Expr) -> Expr:
    return fn([name], body)


def _level(tech: Expr) -> Expr:
    return if_(op("eq", tech, var("starting")), 1, get(get(table("technologies"), tech), "level"))


def _twice(ids: Expr) -> Expr:
    """Whether an id is listed twice in ``ids``."""
    return op("ne", op("len", op("unique", ids)), op("len", ids))


def _once(ids: Expr, answer: Expr) -> Expr:
    """``answer``, or null where an id is listed twice in ``ids`` (the package's OutOfDomainError)."""
    return if_(_twice(ids), None, answer)


#: Each held technology's row (a starting technology in the base row); unknown where a level is.
LEVELS = Rule(
    ("held", "starting"),
    let(
        [("levels", op("map", var("held"), _f("t", _level(var("t")))))],
        op("coalesce", op("first", op("filter", var("levels"), _f("l", op("is_unknown", var("l"))))), var("levels")),
    ),
)


def _count(level: Expr) -> Expr:
    return op("len", op("filter", var("levels"), _f("l", op("eq", var("l"), level))))


MAY_PLACE = Rule(
    ("held", "technology", "starting"),
    _once(
        var("held"),
        let(
            [
                ("levels", call("levels", var("held"), var("starting"))),
                ("level", get(get(table("technologies"), var("technology")), "level")),
                ("rule", get(table("pyramid"), "one_more_below")),
                ("top", get(table("pyramid"), "top_level")),
            ],
            if_(
                op("in", var("technology"), var("held")),
                False,
                if_(
                    op("is_unknown", var("level")),
                    var("level"),
                    if_(
                        op("is_unknown", var("levels")),
                        var("levels"),
                        if_(
                            op("eq", var("level"), 1),
                            True,
                            if_(
                                op("is_unknown", var("rule")),
                                var("rule"),
                                if_(
                                    op("and", op("not", op("is_null", var("top"))), op("gt", var("level"), var("top"))),
                                    False,
                                    let(
                                        [("below", _count(sub(var("level"), 1))), ("row", _count(var("level")))],
                                        if_(
                                            var("rule"),
                                            op("gt", var("below"), add(var("row"), 1)),
                                            op("gt", var("below"), var("row")),
                                        ),
                                    ),
                                ),
                            ),
                        ),
                    ),
                ),
            ),
        ),
    ),
)

#: What each level still needs for the technology victory: [{level, needs}] of the levels short.
NEEDS = Rule(
    ("held", "starting"),
    _once(
        var("held"),
        let(
            [("levels", call("levels", var("held"), var("starting")))],
            if_(
                op("is_unknown", var("levels")),
                var("levels"),
                op(
                    "filter",
                    op(
                        "map",
                        get(table("pyramid"), "minimums"),
                        _f(
                            "m",
                            obj(
                                level=get(var("m"), "level"),
                                needs=sub(get(var("m"), "count"), _count(get(var("m"), "level"))),
                            ),
                        ),
                    ),
                    _f("n", op("gt", get(var("n"), "needs"), 0)),
                ),
            ),
        ),
    ),
)

RESEARCH_COST = Rule(
    ("level", "wonders"),
    _once(
        var("wonders"),
        let(
            [("cost", get(table("research_costs"), var("level")))],
            if_(
                op("is_null", var("cost")),
                ["quote", {"unknown": "this ruleset does not give the research cost of this level"}],
                op(
                    "max",
                    0,
                    sub(
                        var("cost"),
                        op(
                            "sum",
                            op(
                                "map",
                                var("wonders"),
                                _f("w", op("coalesce", get(get(table("wonders"), var("w")), "research_discount"), 0)),
                            ),
                        ),
                    ),
                ),
            ),
        ),
    ),
)

#: The trade left after researching at ``level``; null where the trade is short of the cost or more
#: than the dial holds (``dial_max``, null where unknown: the package's OutOfDomainError).
TRADE_AFTER = Rule(
    ("level", "trade", "coins", "wonders"),
    _once(
        var("wonders"),
        let(
            [("cost", call("research_cost", var("level"), var("wonders")))],
            if_(
                op(
                    "or",
                    op("lt", var("trade"), var("cost")),
                    op("and", op("not", op("is_null", table("dial_max"))), op("gt", var("trade"), table("dial_max"))),
                ),
                None,
                if_(
                    op("not", table("spends_all_trade")),
                    sub(var("trade"), var("cost")),
                    op("min", var("trade"), op("mul", var("coins"), table("trade_kept_per_coin"))),
                ),
            ),
        ),
    ),
)

RULES = {
    "levels": LEVELS,
    "may_place": MAY_PLACE,
    "pyramid_needs": NEEDS,
    "research_cost": RESEARCH_COST,
    "trade_after": TRADE_AFTER,
}
