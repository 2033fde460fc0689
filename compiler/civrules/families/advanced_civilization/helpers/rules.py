"""The family's rules as expression trees, each the page's twin of one of the package's helpers.

``credit``/``price`` are ``credit_toward``/``purchase_cost``, ``set_value`` is ``set_value`` (and
``trade_refusal`` its refusal of the trade blocks given, OutOfDomainError),
``calamity_amount``, ``calamity_value`` and ``calamity_loss`` are ``calamity_amount`` (with its
``nation``), its ``.value`` and its ``.loss(units, cities=)``, ``can_enter_epoch`` is
``can_enter_epoch`` (with ``nation`` and ``level``), ``trader_immune`` is
``secondary_losses(..., traded_by=)`` refusing the trader a share. ``hand_value``, ``affordable``,
``best_purchase`` and ``payment`` are the planner's, built on them; what they assume where the
rules are silent is said on the page.
"""

from __future__ import annotations

from civrules.emit.helpers import Rule
from civrules.emit.helpers.expr import (
    Expr,
    add,
    call,
    fn,
    get,
    if_,
    let,
    mul,
    obj,
    op,
    sub,
    table,
    var,
)

#: The set value formula the rules of this family use (28.51): n cards of face value v are worth n×n×v.
COUNT_SQUARED_TIMES_VALUE = "count_squared_times_value"


def _f(name: str, body: Expr) -> Expr:
    """A one-parameter function of ``name``."""
    return fn([name], body)


def _g(item: str, key: str) -> Expr:
    return get(var(item), key)


_CARD = get(table("cards"), var("target"))

_MATRIX = table("credit_matrix")
_POLICY = get(_MATRIX, "policy")
_POINTS = _f("l", _g("l", "points"))


def _agg(points: Expr) -> Expr:
    """Plain credits of one card toward one target by the policy: their sum, or the highest."""
    return if_(op("eq", get(_POLICY, "same_target"), "sum"), op("sum", points), op("max_of", points, 0))


def _plain(lines: Expr) -> Expr:
    return op("filter", lines, _f("l", op("not", _g("l", "extra"))))


def _in_group(lines: Expr, group: Expr) -> Expr:
    """The points of the group lines (not by name) of ``lines`` toward ``group``."""
    return op(
        "map",
        op("filter", lines, _f("l", op("and", op("is_null", _g("l", "card")), op("eq", _g("l", "group"), group)))),
        _POINTS,
    )


_HIGHEST_GROUP = op("eq", get(_POLICY, "two_group_cards"), "highest_group")
_TARGET_GROUPS = op("unique", op("coalesce", get(get(_MATRIX, "groups"), var("target")), op("list")))

#: The lines of one owned card ``h`` that reach ``target``, from the linear form the export writes
#: (``credit_matrix``: {policy, groups, credits}) as the package's ``CREDIT_MATRIX`` reads them
#: (credits.py, ``CreditRow``): the lines that name ``target``, or name a group of it (none where
#: ``target`` has two groups and the policy does not know how such a card takes group credits).
CREDIT_REACH = Rule(
    ("h", "target"),
    let(
        [
            ("groups", op("coalesce", get(get(_MATRIX, "groups"), var("target")), op("list"))),
            (
                "takes",
                if_(
                    op("and", op("not", get(_POLICY, "two_group_cards_known")), op("gt", op("len", var("groups")), 1)),
                    op("list"),
                    var("groups"),
                ),
            ),
        ],
        op(
            "filter",
            op("coalesce", get(get(_MATRIX, "credits"), var("h")), op("list")),
            _f(
                "l",
                if_(
                    op("is_null", _g("l", "card")),
                    op("in", _g("l", "group"), var("takes")),
                    op("eq", _g("l", "card"), var("target")),
                ),
            ),
        ),
    ),
)

#: The credit one owned card ``h`` alone gives toward ``target``, as the package's
#: ``CREDIT_MATRIX[h][target]``: several plain lines combine by the policy (the highest, or their
#: sum), but under ``highest_group`` one card's credits to the two groups of ``target`` are never
#: combined (its best group counts); extra lines always add.
CREDIT_CELL = Rule(
    ("h", "target"),
    let(
        [
            ("reach", call("credit_reach", var("h"), var("target"))),
            ("plain", _plain(var("reach"))),
            (
                "colours",
                op("filter", _TARGET_GROUPS, _f("g", op("gt", op("len", _in_group(var("plain"), var("g"))), 0))),
            ),
            (
                "extra",
                op("sum", op("map", op("filter", var("reach"), _f("l", op("eq", _g("l", "extra"), True))), _POINTS)),
            ),
        ],
        add(
            if_(
                op("and", _HIGHEST_GROUP, op("gt", op("len", var("colours")), 1)),
                _agg(
                    op(
                        "concat",
                        op(
                            "list",
                            op(
                                "list",
                                op(
                                    "max_of",
                                    op("map", var("colours"), _f("g", _agg(_in_group(var("plain"), var("g"))))),
                                    0,
                                ),
                            ),
                            op(
                                "map",
                                op("filter", var("plain"), _f("l", op("not", op("is_null", _g("l", "card"))))),
                                _POINTS,
                            ),
                        ),
                    )
                ),
                _agg(op("map", var("plain"), _POINTS)),
            ),
            var("extra"),
        ),
    ),
)

#: The credit a holder of ``held`` receives toward ``target`` (the package's ``credit_toward``): the
#: cells of the cards held added up; but toward a card of two groups under ``highest_group`` (Mega
#: Civilization §12: the colours are never combined) each group's credits are totalled over the
#: cards held and only the highest total counts, the extra credits toward the card on top; unknown
#: where a card held credits it by name with a plain credit beside other cards' group credits.
CREDIT = Rule(
    ("held", "target"),
    let(
        [
            ("owned", op("filter", op("unique", var("held")), _f("h", op("ne", var("h"), var("target"))))),
            ("groups", _TARGET_GROUPS),
        ],
        if_(
            op("and", _HIGHEST_GROUP, op("gt", op("len", var("groups")), 1), op("gt", op("len", var("owned")), 1)),
            let(
                [("reaches", op("map", var("owned"), _f("h", call("credit_reach", var("h"), var("target")))))],
                if_(
                    op(
                        "any",
                        var("reaches"),
                        _f(
                            "r",
                            op(
                                "any",
                                _plain(var("r")),
                                _f("l", op("not", op("is_null", _g("l", "card")))),
                            ),
                        ),
                    ),
                    obj(
                        unknown="a card held credits this card by name, beside other cards' credits to its two "
                        "groups, of which only the higher counts: the sources do not say how the two combine"
                    ),
                    add(
                        op(
                            "max_of",
                            op(
                                "map",
                                var("groups"),
                                _f(
                                    "g",
                                    op(
                                        "sum",
                                        op("map", var("reaches"), _f("r", _agg(_in_group(_plain(var("r")), var("g"))))),
                                    ),
                                ),
                            ),
                            0,
                        ),
                        op(
                            "sum",
                            op(
                                "map",
                                op("filter", op("concat", var("reaches")), _f("l", op("eq", _g("l", "extra"), True))),
                                _POINTS,
                            ),
                        ),
                    ),
                ),
            ),
            op("sum", op("map", var("owned"), _f("h", call("credit_cell", var("h"), var("target"))))),
        ),
    ),
)

PRICE = Rule(
    ("held", "target"),
    op("max", 0, sub(get(_CARD, "cost"), call("credit", var("held"), var("target")))),
)

PREREQUISITES_MET = Rule(
    ("held", "target"),
    let(
        [("needs", get(_CARD, "prerequisites"))],
        if_(
            op("is_unknown", var("needs")),
            var("needs"),
            op("not", op("any", var("needs"), _f("p", op("not", op("in", var("p"), var("held")))))),
        ),
    ),
)

SET_VALUE = Rule(
    ("good", "n", "mining"),
    let(
        [
            ("c", get(table("commodities"), var("good"))),
            ("extra", op("and", op("gt", var("n"), 0), var("mining"), _g("c", "mining"))),
            (
                "cards",
                if_(var("extra"), op("min", add(var("n"), table("mining_extra_cards")), _g("c", "count")), var("n")),
            ),
        ],
        if_(
            op("eq", table("set_value_formula"), COUNT_SQUARED_TIMES_VALUE),
            mul(var("cards"), var("cards"), _g("c", "value")),
            table("set_value_formula"),
        ),
    ),
)


def _t(key: str) -> Expr:
    return get(var("trade"), key)


#: What a set of ``n`` cards of ``good`` gains when redeemed outside its native trade block: its face
#: value per card, in a band of player counts (BLOCK_BONUSES; Expansion Project 26.3.3), a shared good
#: only where the band says so and it was drawn in the other block (26.3.4). ``trade`` is
#: {players, redeemed, drawn} (null where not given: no bonus), as the package's ``set_value(players=,
#: redeemed_in=, drawn_in=)``.
BLOCK_BONUS = Rule(
    ("good", "n", "trade"),
    let(
        [
            ("c", get(table("commodities"), var("good"))),
            (
                "band",
                op(
                    "first",
                    op(
                        "filter",
                        table("block_bonuses"),
                        _f(
                            "b",
                            op("and", op("le", _g("b", "min"), _t("players")), op("le", _t("players"), _g("b", "max"))),
                        ),
                    ),
                ),
            ),
        ],
        if_(
            op(
                "or",
                op("is_null", _t("players")),
                op("is_null", _t("redeemed")),
                op("is_null", _g("c", "block")),
                op("eq", var("n"), 0),
                op("is_null", var("band")),
            ),
            0,
            if_(
                if_(
                    op("eq", _g("c", "block"), "shared"),
                    op(
                        "and",
                        _g("band", "shared_goods"),
                        op("not", op("is_null", _t("drawn"))),
                        op("ne", _t("drawn"), _t("redeemed")),
                    ),
                    op("ne", _g("c", "block"), _t("redeemed")),
                ),
                mul(var("n"), _g("c", "value")),
                0,
            ),
        ),
    ),
)


def _given(key: str) -> Expr:
    return op("not", op("is_null", _t(key)))


#: The trade blocks of the decks of a game of ``trade.players`` (DECK_COMPOSITIONS): none where the
#: ruleset declares no decks for that count.
_IN_PLAY = op(
    "unique",
    op(
        "concat",
        op(
            "map",
            op(
                "filter",
                table("deck_blocks"),
                _f("d", op("and", op("le", _g("d", "min"), _t("players")), op("le", _t("players"), _g("d", "max")))),
            ),
            _f("d", _g("d", "blocks")),
        ),
    ),
)


#: Whether the only trade block in play with ``trade.players`` is the single deck: no block to
#: redeem a set in, so ``players`` alone is enough (the package's ``_blocks_named``).
_SINGLE_ONLY = op("and", op("eq", op("len", var("in_play")), 1), op("eq", get(var("in_play"), 0), "single"))


def _not_in_play(key: str) -> Expr:
    return op("and", _given(key), op("gt", op("len", var("in_play")), 0), op("not", op("in", _t(key), var("in_play"))))


def _block_refused(key: str) -> Expr:
    return obj(kind="block", field=key, given=_t(key), players=_t("players"), blocks=var("in_play"))


_BANDS = op(
    "filter",
    table("deck_blocks"),
    _f("d", op("and", op("le", _g("d", "min"), _t("players")), op("le", _t("players"), _g("d", "max")))),
)

#: The cards of ``good`` the trade decks of a game of ``trade.players`` hold (the package's
#: ``_cards_in_play``): 0 where no deck holds it, the most of one region's decks, null where no
#: decks are declared for that count or a deck holds cards of it the sources do not count.
_CARDS_IN_PLAY = let(
    [("bands", _BANDS)],
    if_(
        op("any", var("bands"), _f("d", op("in", var("good"), _g("d", "unbounded")))),
        None,
        op("max_of", op("map", var("bands"), _f("d", op("coalesce", get(_g("d", "goods"), var("good")), 0))), None),
    ),
)


#: Why the package's ``set_value(good, n, players=, redeemed_in=, drawn_in=)`` refuses the trade
#: blocks given (OutOfDomainError), in its order; null where it answers. ``good`` null: the checks
#: of the players and the block redeemed in alone. A player count not of the ruleset
#: (PLAYER_COUNTS): ``{kind: players, players, min, max}``; a block not in play with that many
#: players: ``{kind: block, field: redeemed|drawn, given, players, blocks}`` (the block drawn in
#: is the page's for shared goods only); the players without the block redeemed in, where a bonus
#: band covers that count and trade blocks are in play, or the block without the players, where the
#: ruleset has bonuses: ``{kind: both}``; a shared good without the block it
#: was drawn in, in a band whose bonus depends on it (26.3.4): ``{kind: drawn, good, players}``; a
#: good no trade deck of that count holds: ``{kind: good, good, players}``; a set of more cards than
#: those decks hold: ``{kind: cards, good, n, players, max}``.
TRADE_REFUSAL = Rule(
    ("good", "n", "trade"),
    let(
        [
            ("c", if_(op("is_null", var("good")), None, get(table("commodities"), var("good")))),
            ("shared", op("and", op("not", op("is_null", var("c"))), op("eq", _g("c", "block"), "shared"))),
            ("counts", table("player_counts")),
            ("in_play", if_(_given("players"), _IN_PLAY, op("list"))),
            (
                "band",
                if_(
                    _given("players"),
                    op(
                        "first",
                        op(
                            "filter",
                            table("block_bonuses"),
                            _f(
                                "b",
                                op(
                                    "and",
                                    op("le", _g("b", "min"), _t("players")),
                                    op("le", _t("players"), _g("b", "max")),
                                ),
                            ),
                        ),
                    ),
                    None,
                ),
            ),
            ("plain", if_(op("is_null", var("good")), None, call("set_value", var("good"), var("n"), False))),
            ("held", if_(op("or", op("is_null", var("good")), op("not", _given("players"))), None, _CARDS_IN_PLAY)),
        ],
        if_(
            op(
                "and",
                _given("players"),
                op("gt", op("len", var("counts")), 0),
                op(
                    "or",
                    op("lt", _t("players"), get(var("counts"), 0)),
                    op("gt", _t("players"), get(var("counts"), 1)),
                ),
            ),
            obj(kind="players", players=_t("players"), min=get(var("counts"), 0), max=get(var("counts"), 1)),
            if_(
                _not_in_play("redeemed"),
                _block_refused("redeemed"),
                if_(
                    op("and", var("shared"), _not_in_play("drawn")),
                    _block_refused("drawn"),
                    if_(
                        op("eq", var("held"), 0),
                        obj(kind="good", good=var("good"), players=_t("players")),
                        if_(
                            op("and", op("not", op("is_null", var("held"))), op("gt", var("n"), var("held"))),
                            obj(kind="cards", good=var("good"), n=var("n"), players=_t("players"), max=var("held")),
                            # The package values the set (or finds it unknown) before the checks below.
                            if_(
                                op("or", op("is_null", var("good")), op("is_unknown", var("plain"))),
                                None,
                                if_(
                                    op(
                                        "or",
                                        op(
                                            "and",
                                            _given("players"),
                                            op("is_null", _t("redeemed")),
                                            op("not", op("is_null", var("band"))),
                                            op("not", _SINGLE_ONLY),
                                        ),
                                        op(
                                            "and",
                                            _given("redeemed"),
                                            op("is_null", _t("players")),
                                            op("gt", op("len", table("block_bonuses")), 0),
                                        ),
                                    ),
                                    obj(kind="both"),
                                    if_(
                                        op(
                                            "and",
                                            var("shared"),
                                            _given("players"),
                                            _given("redeemed"),
                                            op("gt", var("n"), 0),
                                            op("not", op("is_null", var("band"))),
                                            _g("band", "shared_goods"),
                                            op("is_null", _t("drawn")),
                                        ),
                                        obj(kind="drawn", good=var("good"), players=_t("players")),
                                        None,
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

#: ``set_value`` with the trade-block bonus: the package's ``set_value(good, n, mining=, players=,
#: redeemed_in=, drawn_in=)``.
SET_VALUE_IN = Rule(
    ("good", "n", "mining", "trade"),
    let(
        [("plain", call("set_value", var("good"), var("n"), var("mining")))],
        if_(
            op("is_unknown", var("plain")),
            var("plain"),
            add(var("plain"), call("block_bonus", var("good"), var("n"), var("trade"))),
        ),
    ),
)

_GOODS = op("filter", op("keys", var("hand")), _f("g", op("gt", get(var("hand"), var("g")), 0)))

#: A hand's value: each good's set (with its trade-block bonus), and Mining on the one set it raises
#: most (once per turn).
HAND_VALUE = Rule(
    ("hand", "held", "trade"),
    let(
        [
            ("goods", _GOODS),
            (
                "plain",
                op(
                    "sum",
                    op(
                        "map",
                        var("goods"),
                        _f("g", call("set_value_in", var("g"), get(var("hand"), var("g")), False, var("trade"))),
                    ),
                ),
            ),
            (
                "gain",
                if_(
                    op("in", table("mining_card"), var("held")),
                    op(
                        "max_of",
                        op(
                            "map",
                            var("goods"),
                            _f(
                                "g",
                                sub(
                                    call("set_value_in", var("g"), get(var("hand"), var("g")), True, var("trade")),
                                    call("set_value_in", var("g"), get(var("hand"), var("g")), False, var("trade")),
                                ),
                            ),
                        ),
                        0,
                    ),
                    0,
                ),
            ),
        ],
        add(var("plain"), var("gain")),
    ),
)

AFFORDABLE = Rule(
    ("held", "target", "budget"),
    op(
        "and",
        op("not", op("in", var("target"), var("held"))),
        call("prerequisites_met", var("held"), var("target")),
        op("le", call("price", var("held"), var("target")), var("budget")),
    ),
)


def _purchase_fact(key: str) -> Expr:
    return get(get(get(table("credit_policy"), "purchases"), key), "value")


def _is(value: Expr, literal: Expr) -> Expr:
    """``value`` is ``literal`` (false, not unknown, where ``value`` is an unknown fact)."""
    return op("and", op("not", op("is_unknown", value)), op("eq", value, literal))


#: The cards of highest total face value whose prices (credits from cards held before) fit the budget,
#: as the ruleset's purchase facts say (credit_policy.purchases): one card at most where several may
#: not be bought in one phase; unknown where credits of cards bought in the same phase count (this
#: planner prices each card from the cards held before the phase); several, each priced from the
#: cards held before, where the rules say so or are silent (the page says it assumes it).
BEST_PURCHASE = Rule(
    ("held", "budget"),
    let(
        [
            (
                "candidates",
                op(
                    "filter",
                    table("card_order"),
                    _f(
                        "c",
                        op(
                            "and",
                            op("not", op("in", var("c"), var("held"))),
                            op("eq", call("prerequisites_met", var("held"), var("c")), True),
                            op("not", op("is_unknown", call("price", var("held"), var("c")))),
                            op("not", op("is_unknown", get(get(table("cards"), var("c")), "cost"))),
                        ),
                    ),
                ),
            )
        ],
        if_(
            _is(_purchase_fact("several_cards_per_turn"), False),
            let(
                [
                    (
                        "one",
                        op(
                            "argmax",
                            op(
                                "filter",
                                var("candidates"),
                                _f("c", op("le", call("price", var("held"), var("c")), var("budget"))),
                            ),
                            _f("c", get(get(table("cards"), var("c")), "cost")),
                        ),
                    )
                ],
                if_(op("is_null", var("one")), op("list"), op("list", var("one"))),
            ),
            if_(
                _is(_purchase_fact("same_turn_credits"), True),
                obj(
                    unknown="the ruleset's rules count the credits of cards bought in the same phase, which this "
                    "planner does not compute"
                ),
                op(
                    "knapsack",
                    var("candidates"),
                    _f("c", call("price", var("held"), var("c"))),
                    _f("c", get(get(table("cards"), var("c")), "cost")),
                    var("budget"),
                ),
            ),
        ),
    ),
)

#: How to pay ``total`` from the hand and the treasury: the commodity sets (whole goods) to turn in
#: that overpay least, then spend the fewest treasury tokens; Mining on the set it raises most.
PAYMENT = Rule(
    ("hand", "held", "treasury", "total", "trade"),
    let(
        [
            ("goods", _GOODS),
            (
                "options",
                op(
                    "map",
                    op("subsets", var("goods")),
                    _f(
                        "s",
                        let(
                            [
                                ("part", op("obj_from", var("s"), _f("g", get(var("hand"), var("g"))))),
                                ("value", call("hand_value", var("part"), var("held"), var("trade"))),
                                ("tokens", op("max", 0, sub(var("total"), var("value")))),
                            ],
                            obj(
                                goods=var("s"),
                                value=var("value"),
                                tokens=var("tokens"),
                                excess=op("max", 0, sub(var("value"), var("total"))),
                            ),
                        ),
                    ),
                ),
            ),
            ("possible", op("filter", var("options"), _f("o", op("le", _g("o", "tokens"), var("treasury"))))),
        ],
        op(
            "argmin",
            var("possible"),
            _f("o", op("list", _g("o", "excess"), _g("o", "tokens"), op("len", _g("o", "goods")))),
        ),
    ),
)

_CAL = get(table("calamities"), var("calamity"))


def _m(key: str) -> Expr:
    return _g("m", key)


def _times() -> Expr:
    return if_(
        _m("per_any_commodity"),
        op("sum", op("map", op("keys", var("commodities")), _f("k", get(var("commodities"), var("k"))))),
        if_(op("is_null", _m("per_commodity")), 1, op("coalesce", get(var("commodities"), _m("per_commodity")), 0)),
    )


_AMOUNT = obj(
    calamity=var("calamity"),
    effect=var("effect"),
    role=var("role"),
    base=var("base"),
    all_but=var("all_but"),
    limit=var("limit"),
    per_city=_g("found", "per_city"),
    change=op("sum", op("map", var("changing"), _f("m", mul(_m("amount"), _times())))),
    set_to=op("min_of", op("map", var("stating"), _f("m", _m("stated"))), None),
    cap=op("min_of", var("caps"), None),
    immune=op("or", var("nation_immune"), op("any", var("counted"), _f("m", op("eq", _m("effect"), "immunity")))),
    kind=let(
        [
            (
                "kinds",
                op(
                    "map",
                    op("filter", var("counted"), _f("m", op("not", op("is_null", _m("becomes_kind"))))),
                    _f("m", _m("becomes_kind")),
                ),
            )
        ],
        if_(
            op("gt", op("len", var("kinds")), 0),
            get(var("kinds"), sub(op("len", var("kinds")), 1)),
            _g("found", "kind"),
        ),
    ),
    unknown=op(
        "or",
        var("unknown1"),
        op("any", var("counted"), _f("m", op("and", op("is_null", _m("stated")), _m("amount_unknown")))),
    ),
    # The data's why of the first input left unknown, as the package's CalamityAmount.unknown_reason:
    # the effect's amount, then how the modifiers combine, then a counted card's change.
    unknown_reason=if_(
        var("unknown0"),
        _g("found", "unknown_why"),
        if_(
            var("unknown1"),
            _g("c", "mode_unknown_why"),
            op(
                "first",
                op(
                    "map",
                    op("filter", var("counted"), _f("m", op("and", op("is_null", _m("stated")), _m("amount_unknown")))),
                    _f("m", _m("amount_unknown_why")),
                ),
            ),
        ),
    ),
    counted=op("map", var("counted"), _f("m", _m("card"))),
    superseded=op(
        "map", op("filter", var("applying"), _f("m", op("in", _m("card"), var("dropped")))), _f("m", _m("card"))
    ),
    additions=op(
        "map",
        op("filter", var("relevant"), _f("m", _m("adds"))),
        _f("m", obj(card=_m("card"), amount=_m("amount"), kind=_m("adds_kind"), unit=_m("adds_unit"))),
    ),
)

CALAMITY_AMOUNT = Rule(
    ("calamity", "effect", "held", "role", "commodities", "nation"),
    let(
        [
            ("c", _CAL),
            ("listed", _g("c", "effects")),
            ("mods", _g("c", "modifiers")),
            ("immunities", _g("c", "immunities")),
            ("found", op("first", op("filter", var("listed"), _f("e", op("eq", _g("e", "id"), var("effect")))))),
            (
                "limited",
                op("and", op("eq", var("role"), "secondary"), op("not", op("is_null", _g("found", "max_per_victim")))),
            ),
            ("base", if_(var("limited"), _g("found", "max_per_victim"), _g("found", "amount"))),
            ("all_but", if_(var("limited"), None, _g("found", "all_but"))),
            # The most one secondary victim can be allotted, as the package's CalamityAmount.limit:
            # the per-victim limit, else the effect's total (Flood's 10, 30.512).
            (
                "limit",
                if_(
                    op("eq", var("role"), "secondary"),
                    op("coalesce", _g("found", "max_per_victim"), _g("found", "amount")),
                    None,
                ),
            ),
            (
                "unknown0",
                op("and", _g("found", "unknown"), op("is_null", var("base")), op("is_null", _g("found", "per_city"))),
            ),
            (
                "nation_immune",
                op(
                    "and",
                    op("not", op("is_null", var("nation"))),
                    op(
                        "any",
                        var("immunities"),
                        _f(
                            "i",
                            op(
                                "and",
                                op("eq", _g("i", "who"), "nation"),
                                op("eq", _g("i", "nation"), var("nation")),
                                op("or", op("is_null", _g("i", "side")), op("eq", _g("i", "side"), var("role"))),
                                op(
                                    "or",
                                    op("eq", op("len", _g("i", "effects")), 0),
                                    op("in", var("effect"), _g("i", "effects")),
                                ),
                            ),
                        ),
                    ),
                ),
            ),
            (
                "relevant",
                op(
                    "filter",
                    var("mods"),
                    _f(
                        "m",
                        op(
                            "and",
                            op("in", _m("card"), var("held")),
                            op("or", op("eq", _m("applies_to"), var("role")), op("eq", _m("applies_to"), "both")),
                            op("in", var("effect"), _m("effects")),
                        ),
                    ),
                ),
            ),
            (
                "unknown1",
                op(
                    "or",
                    var("unknown0"),
                    op(
                        "and",
                        _g("c", "mode_unknown"),
                        op("gt", op("len", op("unique", op("map", var("relevant"), _f("m", _m("card"))))), 1),
                    ),
                ),
            ),
            ("applying", op("filter", var("relevant"), _f("m", op("not", _m("adds"))))),
            (
                "dropped0",
                op(
                    "concat",
                    op(
                        "map",
                        op("filter", _g("c", "overrides"), _f("o", op("in", _g("o", "card"), var("held")))),
                        _f("o", _g("o", "overrides")),
                    ),
                ),
            ),
            (
                "ranked",
                op(
                    "map",
                    op(
                        "filter",
                        var("applying"),
                        _f(
                            "m",
                            op(
                                "and",
                                op("in", _m("card"), _g("c", "precedence")),
                                op("not", op("in", _m("card"), var("dropped0"))),
                            ),
                        ),
                    ),
                    _f("m", _m("card")),
                ),
            ),
            ("top", op("argmax", var("ranked"), _f("x", op("index_of", var("x"), _g("c", "precedence"))))),
            (
                "dropped",
                if_(
                    op("and", op("eq", _g("c", "mode"), "highest"), op("gt", op("len", var("ranked")), 0)),
                    op(
                        "concat",
                        op(
                            "list",
                            var("dropped0"),
                            op("filter", var("ranked"), _f("x", op("ne", var("x"), var("top")))),
                        ),
                    ),
                    var("dropped0"),
                ),
            ),
            ("counted", op("filter", var("applying"), _f("m", op("not", op("in", _m("card"), var("dropped")))))),
            (
                "stating",
                op("filter", var("counted"), _f("m", op("not", op("is_null", _m("stated"))))),
            ),
            (
                "changing",
                op(
                    "filter",
                    var("counted"),
                    _f(
                        "m",
                        op(
                            "and",
                            op("is_null", _m("stated")),
                            op("not", _m("amount_unknown")),
                            op("not", op("is_null", _m("amount"))),
                        ),
                    ),
                ),
            ),
            (
                "caps",
                op(
                    "map",
                    op("filter", var("counted"), _f("m", op("not", op("is_null", _m("cap"))))),
                    _f("m", _m("cap")),
                ),
            ),
        ],
        if_(
            op("is_unknown", var("listed")),
            var("listed"),
            if_(
                op("is_unknown", var("mods")),
                var("mods"),
                if_(op("is_unknown", var("immunities")), var("immunities"), _AMOUNT),
            ),
        ),
    ),
)

#: Whether the player who traded ``calamity`` to the primary victim is immune to ``effect`` (an effect
#: on secondary victims): the calamity's ``trading_player`` immunities (29.61), as the package's
#: ``secondary_losses(..., traded_by=)`` refuses him a share.
TRADER_IMMUNE = Rule(
    ("calamity", "effect"),
    let(
        [("immunities", get(_CAL, "immunities"))],
        if_(
            op("is_unknown", var("immunities")),
            var("immunities"),
            op(
                "any",
                var("immunities"),
                _f(
                    "i",
                    op(
                        "and",
                        op("eq", _g("i", "who"), "trading_player"),
                        op("or", op("is_null", _g("i", "side")), op("eq", _g("i", "side"), "secondary")),
                        op(
                            "or",
                            op("eq", op("len", _g("i", "effects")), 0),
                            op("in", var("effect"), _g("i", "effects")),
                        ),
                    ),
                ),
            ),
        ),
    ),
)

_CAPPED = fn(
    ["x"],
    let(
        [("a", op("max", 0, var("x")))],
        if_(op("is_null", _g("r", "cap")), var("a"), op("min", var("a"), _g("r", "cap"))),
    ),
)

#: CalamityAmount.value: the amount for this holder; null when it depends on his units, or is unknown.
CALAMITY_VALUE = Rule(
    ("r",),
    let(
        [("capped", _CAPPED)],
        if_(
            _g("r", "immune"),
            0,
            if_(
                op("or", _g("r", "unknown"), op("is_null", _g("r", "base"))),
                if_(
                    op("or", op("is_null", _g("r", "set_to")), _g("r", "unknown")),
                    None,
                    op("apply", var("capped"), _g("r", "set_to")),
                ),
                op("apply", var("capped"), op("coalesce", _g("r", "set_to"), add(_g("r", "base"), _g("r", "change")))),
            ),
        ),
    ),
)


#: CalamityAmount.loss(units, cities=): what the holder loses with ``units`` of the effect's unit
#: (null: as many as the rule can take; for a secondary victim, the share allotted him) and
#: ``cities`` he owns (null: not known), by the package's one computation (``_amount``); null where
#: the package refuses to say (the amount unknown, or needing units or cities not given). The page
#: asks it with the cities the player typed, where an amount depends on them (Civil Disorder's
#: "all but three cities", 30.711; an amount per city owned).
CALAMITY_LOSS = Rule(
    ("r", "units", "cities"),
    let(
        [
            ("capped", _CAPPED),
            ("secondary", op("eq", _g("r", "role"), "secondary")),
            ("limited", op("not", op("is_null", _g("r", "limit")))),
            (
                "share",
                if_(
                    op("not", var("secondary")),
                    var("units"),
                    if_(
                        op("is_null", var("units")),
                        _g("r", "limit"),
                        if_(var("limited"), op("min", var("units"), _g("r", "limit")), var("units")),
                    ),
                ),
            ),
            (
                "full",
                if_(
                    op("not", op("is_null", _g("r", "set_to"))),
                    _g("r", "set_to"),
                    if_(
                        op("not", op("is_null", _g("r", "per_city"))),
                        if_(
                            op("is_null", var("cities")),
                            None,
                            add(mul(_g("r", "per_city"), var("cities")), _g("r", "change")),
                        ),
                        if_(
                            op("and", op("not", op("is_null", _g("r", "all_but"))), op("is_null", _g("r", "base"))),
                            if_(
                                op("is_null", var("share")),
                                None,
                                add(op("max", 0, sub(var("share"), _g("r", "all_but"))), _g("r", "change")),
                            ),
                            if_(
                                op("and", var("secondary"), op("or", var("limited"), op("is_null", _g("r", "base")))),
                                if_(op("is_null", var("share")), None, add(var("share"), _g("r", "change"))),
                                if_(op("is_null", _g("r", "base")), None, add(_g("r", "base"), _g("r", "change"))),
                            ),
                        ),
                    ),
                ),
            ),
            ("amount", if_(op("is_null", var("full")), None, op("apply", var("capped"), var("full")))),
        ],
        if_(
            _g("r", "immune"),
            0,
            if_(
                _g("r", "unknown"),
                None,
                if_(
                    op("and", var("secondary"), op("eq", var("share"), 0)),
                    0,
                    if_(
                        op("or", op("is_null", var("amount")), op("is_null", var("units")), var("secondary")),
                        var("amount"),
                        op("min", var("units"), var("amount")),
                    ),
                ),
            ),
        ),
    ),
)


def _need(key: str) -> Expr:
    return _g("need", key)


def _at_least(key: str, what: str, have: Expr) -> Expr:
    """The criterion "at least ``need[key]`` of ``what``" as a list of one, or none where the
    epoch states no such minimum."""
    return if_(
        op("is_null", _need(key)),
        op("list"),
        op("list", obj(what=what, need=_need(key), have=have, ok=op("ge", have, _need(key)))),
    )


def _card_field(card: Expr, key: str) -> Expr:
    return get(get(table("cards"), card), key)


def _unknown(why: Expr) -> Expr:
    return obj(unknown=why)


#: The card value the first space of ``epoch`` on ``nation``'s track at ``level`` needs (33.25's
#: Late Iron Age), as {what, need, have, ok}: the package's ``can_enter_epoch(..., nation=, level=)``.
_CARD_VALUE = let(
    [
        ("track", get(get(table("ast_tracks"), var("nation")), var("level"))),
        ("starts", _g("track", "epoch_starts")),
        ("values", _g("track", "space_values")),
        ("first", get(var("starts"), var("epoch"))),
        (
            "value",
            if_(
                op("is_null", var("track")),
                _unknown(op("str", "this ruleset does not give the A.S.T. track of ", var("nation"))),
                if_(
                    op("is_unknown", var("starts")),
                    var("starts"),
                    if_(
                        op("is_unknown", var("values")),
                        var("values"),
                        op(
                            "coalesce",
                            get(var("values"), var("first")),
                            _unknown(
                                op("str", "no card value is given for space ", var("first"), " of ", var("nation"))
                            ),
                        ),
                    ),
                ),
            ),
        ),
        ("have", op("sum", op("map", var("owned"), _f("h", _card_field(var("h"), "cost"))))),
    ],
    obj(what="card_value", need=var("value"), have=var("have"), ok=op("ge", var("have"), var("value"))),
)

#: Whether the first space of ``epoch`` on ``nation``'s track at ``level`` needs no card value (the
#: table holds null for it: a track whose late_iron_age_spaces are [], a finish that carries none):
#: the package's ``_space_value`` None, where the other requirements decide.
_NO_CARD_VALUE = let(
    [
        ("track", get(get(table("ast_tracks"), var("nation")), var("level"))),
        ("starts", _g("track", "epoch_starts")),
        ("values", _g("track", "space_values")),
    ],
    op(
        "and",
        op("not", op("is_null", var("track"))),
        op("not", op("is_unknown", var("starts"))),
        op("not", op("is_unknown", var("values"))),
        op("in", op("str", get(var("starts"), var("epoch"))), op("keys", var("values"))),
        op("is_null", get(var("values"), get(var("starts"), var("epoch")))),
    ),
)

#: Each requirement of an epoch at A.S.T. ``level`` as {what, need, have, ok} (ok unknown where a
#: fact is); with a ``nation``, the card value of the epoch's first space where its spaces carry one.
EPOCH_CRITERIA = Rule(
    ("epoch", "cities", "held", "nation", "level"),
    let(
        [
            ("need", get(get(get(table("epochs"), var("epoch")), "requirements"), var("level"))),
            ("owned", op("unique", var("held"))),
            ("groups_of", _f("h", _card_field(var("h"), "groups"))),
            (
                "groups_unknown",
                op(
                    "first",
                    op("filter", op("map", var("owned"), var("groups_of")), _f("g", op("is_unknown", var("g")))),
                ),
            ),
            (
                "groups",
                if_(
                    op("is_null", var("groups_unknown")),
                    if_(
                        _need("two_group_cards_count_twice"),
                        op("len", op("unique", op("concat", op("map", var("owned"), var("groups_of"))))),
                        op("matching", var("owned"), var("groups_of")),
                    ),
                    var("groups_unknown"),
                ),
            ),
        ],
        if_(
            op("is_unknown", var("need")),
            var("need"),
            op(
                "concat",
                op(
                    "list",
                    _at_least("min_cities", "cities", var("cities")),
                    _at_least("min_card_groups", "card_groups", var("groups")),
                    if_(
                        _need("all_card_groups"),
                        op(
                            "list",
                            obj(
                                what="card_groups",
                                need=table("group_count"),
                                have=var("groups"),
                                ok=op("ge", var("groups"), table("group_count")),
                            ),
                        ),
                        op("list"),
                    ),
                    _at_least("min_cards", "cards", op("len", var("owned"))),
                    op(
                        "map",
                        _need("min_cards_of_value"),
                        _f(
                            "v",
                            let(
                                [
                                    (
                                        "costs",
                                        op("map", var("owned"), _f("h", _card_field(var("h"), "cost"))),
                                    ),
                                    (
                                        "cost_unknown",
                                        op("first", op("filter", var("costs"), _f("k", op("is_unknown", var("k"))))),
                                    ),
                                    (
                                        "have",
                                        if_(
                                            op("is_null", var("cost_unknown")),
                                            op(
                                                "len",
                                                op(
                                                    "filter",
                                                    var("costs"),
                                                    _f(
                                                        "k",
                                                        op(
                                                            "and",
                                                            op("ge", var("k"), _g("v", "min_value")),
                                                            op(
                                                                "or",
                                                                op("is_null", _g("v", "below")),
                                                                op("lt", var("k"), _g("v", "below")),
                                                            ),
                                                        ),
                                                    ),
                                                ),
                                            ),
                                            var("cost_unknown"),
                                        ),
                                    ),
                                ],
                                obj(
                                    what="cards_of_value",
                                    need=_g("v", "count"),
                                    min_value=_g("v", "min_value"),
                                    below=_g("v", "below"),
                                    have=var("have"),
                                    ok=op("ge", var("have"), _g("v", "count")),
                                ),
                            ),
                        ),
                    ),
                    if_(
                        op("is_null", _need("min_victory_points")),
                        op("list"),
                        let(
                            [
                                (
                                    "points",
                                    op(
                                        "sum", op("map", var("owned"), _f("h", _card_field(var("h"), "victory_points")))
                                    ),
                                )
                            ],
                            op(
                                "list",
                                obj(
                                    what="victory_points",
                                    need=_need("min_victory_points"),
                                    have=var("points"),
                                    ok=op("ge", var("points"), _need("min_victory_points")),
                                ),
                            ),
                        ),
                    ),
                    if_(
                        op(
                            "or", op("is_null", var("nation")), op("not", _need("card_value_per_space")), _NO_CARD_VALUE
                        ),
                        op("list"),
                        op("list", _CARD_VALUE),
                    ),
                ),
            ),
        ),
    ),
)

#: can_enter_epoch(epoch, cities, held, nation, level): every requirement met, in the package's order
#: (the card value of a nation's space last, as the package checks it once the rest are met).
CAN_ENTER_EPOCH = Rule(
    ("epoch", "cities", "held", "nation", "level"),
    let(
        [
            (
                "criteria",
                call("epoch_criteria", var("epoch"), var("cities"), var("held"), var("nation"), var("level")),
            )
        ],
        if_(
            op("is_unknown", var("criteria")),
            var("criteria"),
            op("all_ok", var("criteria")),
        ),
    ),
)


def _refusing_twice(rule: Rule) -> Rule:
    """``rule``, answering null where a civilization card is listed twice in its ``held``: a player
    holds one of each, and the package refuses the holding (OutOfDomainError)."""
    twice = op("ne", op("len", op("unique", var("held"))), op("len", var("held")))
    return Rule(rule.params, if_(twice, None, rule.body))


CREDIT = _refusing_twice(CREDIT)
PRICE = _refusing_twice(PRICE)
CALAMITY_AMOUNT = _refusing_twice(CALAMITY_AMOUNT)
CAN_ENTER_EPOCH = _refusing_twice(CAN_ENTER_EPOCH)

RULES = {
    "credit": CREDIT,
    "credit_cell": CREDIT_CELL,
    "credit_reach": CREDIT_REACH,
    "price": PRICE,
    "prerequisites_met": PREREQUISITES_MET,
    "set_value": SET_VALUE,
    "block_bonus": BLOCK_BONUS,
    "trade_refusal": TRADE_REFUSAL,
    "set_value_in": SET_VALUE_IN,
    "hand_value": HAND_VALUE,
    "affordable": AFFORDABLE,
    "best_purchase": BEST_PURCHASE,
    "payment": PAYMENT,
    "calamity_amount": CALAMITY_AMOUNT,
    "calamity_value": CALAMITY_VALUE,
    "calamity_loss": CALAMITY_LOSS,
    "trader_immune": TRADER_IMMUNE,
    "epoch_criteria": EPOCH_CRITERIA,
    "can_enter_epoch": CAN_ENTER_EPOCH,
}
