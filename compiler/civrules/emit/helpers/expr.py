"""Building the expression trees a helper page evaluates (``evaluator.js`` lists the operators).

A tree is JSON: a number, string, boolean or null is itself, a list is ``[operator, argument…]``.
These functions only spell them, so that a family writes its rules as Python:

>>> add(var("cost"), 5)
['add', ['var', 'cost'], 5]
"""

from __future__ import annotations

from typing import Any

Expr = Any


def op(name: str, *args: Expr) -> list[Expr]:
    return [name, *args]


def var(name: str) -> list[Expr]:
    return ["var", name]


def table(name: str) -> list[Expr]:
    return ["table", name]


def get(base: Expr, key: Expr) -> list[Expr]:
    return ["get", base, key]


def fn(params: list[str], body: Expr) -> list[Expr]:
    return ["fn", params, body]


def let(bindings: list[tuple[str, Expr]], body: Expr) -> list[Expr]:
    flat: list[Expr] = []
    for name, value in bindings:
        flat += [name, value]
    return ["let", flat, body]


def call(rule: str, *args: Expr) -> list[Expr]:
    return ["call", rule, *args]


def if_(condition: Expr, then: Expr, otherwise: Expr) -> list[Expr]:
    return ["if", condition, then, otherwise]


def add(*args: Expr) -> list[Expr]:
    return ["add", *args]


def sub(a: Expr, b: Expr) -> list[Expr]:
    return ["sub", a, b]


def mul(*args: Expr) -> list[Expr]:
    return ["mul", *args]


def quote(value: Expr) -> list[Expr]:
    return ["quote", value]


def obj(**fields: Expr) -> list[Expr]:
    flat: list[Expr] = ["obj"]
    for name, value in fields.items():
        flat += [name, value]
    return flat
