"""The deck-building rule (p12) as expression trees: the problems of a chosen faction deck.

Each problem names the code of the check that reports it in a ruleset (F001-F004, in
``checks/decks.py``) and follows that check: F003 (a card in other than its copies) and F004 (a
card of another deck, where the ruleset's rule says a deck holds only its faction's) for each
card; then, as the checks do, the size (F001) only where no card has those problems, and the copies
pattern (F002) only for a deck of the right size.
"""

from __future__ import annotations

from civrules.emit.helpers import Rule
from civrules.emit.helpers.expr import Expr, fn, get, if_, let, obj, op, table, var


def _f(name: str, body: Expr) -> Expr:
    return fn([name], body)


def _g(item: str, key: str) -> Expr:
    return get(var(item), key)


_CARD = get(table("cards"), _g("e", "card"))
_RULE = table("deck_rule")

DECK_PROBLEMS = Rule(
    ("faction", "chosen"),
    let(
        [
            ("deck", get(get(table("factions"), var("faction")), "deck")),
            (
                "entries",
                op(
                    "map",
                    op("filter", op("keys", var("chosen")), _f("k", op("gt", get(var("chosen"), var("k")), 0))),
                    _f("k", obj(card=var("k"), copies=get(var("chosen"), var("k")))),
                ),
            ),
            (
                "copies",
                op(
                    "map",
                    op("filter", var("entries"), _f("e", op("ne", _g("e", "copies"), get(_CARD, "copies")))),
                    _f("e", obj(code="F003", card=_g("e", "card"), have=_g("e", "copies"), want=get(_CARD, "copies"))),
                ),
            ),
            (
                "foreign",
                if_(
                    op("and", op("not", op("is_null", _RULE)), get(_RULE, "own_faction_only")),
                    op(
                        "map",
                        op("filter", var("entries"), _f("e", op("ne", get(_CARD, "deck"), var("deck")))),
                        _f("e", obj(code="F004", card=_g("e", "card"), deck=get(_CARD, "deck"), want=var("deck"))),
                    ),
                    op("list"),
                ),
            ),
            ("total", op("sum", op("map", var("entries"), _f("e", _g("e", "copies"))))),
        ],
        if_(
            op("is_null", _RULE),
            op("list"),
            op(
                "concat",
                op(
                    "list",
                    var("foreign"),
                    var("copies"),
                    if_(
                        op(
                            "and",
                            op("eq", op("len", var("copies")), 0),
                            op("eq", op("len", var("foreign")), 0),
                            op("ne", var("total"), get(_RULE, "size")),
                        ),
                        op("list", obj(code="F001", have=var("total"), want=get(_RULE, "size"))),
                        op("list"),
                    ),
                    if_(
                        op(
                            "and",
                            op("eq", op("len", var("copies")), 0),
                            op("eq", op("len", var("foreign")), 0),
                            op("eq", var("total"), get(_RULE, "size")),
                        ),
                        op(
                            "filter",
                            op(
                                "map",
                                op(
                                    "unique",
                                    op(
                                        "concat",
                                        op(
                                            "list",
                                            op("map", get(_RULE, "pattern"), _f("p", _g("p", "copies"))),
                                            op("map", var("entries"), _f("e", _g("e", "copies"))),
                                        ),
                                    ),
                                ),
                                _f(
                                    "c",
                                    obj(
                                        code="F002",
                                        copies=var("c"),
                                        have=op(
                                            "len",
                                            op(
                                                "filter", var("entries"), _f("e", op("eq", _g("e", "copies"), var("c")))
                                            ),
                                        ),
                                        want=op(
                                            "coalesce",
                                            get(
                                                op(
                                                    "first",
                                                    op(
                                                        "filter",
                                                        get(_RULE, "pattern"),
                                                        _f("p", op("eq", _g("p", "copies"), var("c"))),
                                                    ),
                                                ),
                                                "cards",
                                            ),
                                            0,
                                        ),
                                    ),
                                ),
                            ),
                            _f("x", op("ne", _g("x", "have"), _g("x", "want"))),
                        ),
                        op("list"),
                    ),
                ),
            ),
        ),
    ),
)

DECK_TOTAL = Rule(
    ("chosen",),
    op("sum", op("map", op("keys", var("chosen")), _f("k", get(var("chosen"), var("k"))))),
)

RULES = {"deck_problems": DECK_PROBLEMS, "deck_total": DECK_TOTAL}
