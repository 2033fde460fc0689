"""civrules' yes-or-no environment variables, read in one place.

A variable is a yes when it is `1`, `true`, `yes` or `on`, and a no when it is unset, empty, `0`,
`false`, `no` or `off` (any case, spaces around ignored), as click reads a boolean. Anything else
is refused, naming the variable (R008 on the command line): `CIVRULES_NO_SHIPPED=false`, which a
workflow's `env: {CIVRULES_NO_SHIPPED: false}` sets, was read as a yes (round 19).

>>> import os
>>> os.environ["CIVRULES_EXAMPLE"] = " Off "
>>> flag("CIVRULES_EXAMPLE")
False
>>> os.environ["CIVRULES_EXAMPLE"] = "maybe"
>>> flag("CIVRULES_EXAMPLE")  # doctest: +IGNORE_EXCEPTION_DETAIL
Traceback (most recent call last):
civrules.support.environment.FlagValueError: CIVRULES_EXAMPLE is `maybe`, neither a yes nor a no
>>> del os.environ["CIVRULES_EXAMPLE"]
"""

from __future__ import annotations

import os

YES = ("1", "true", "yes", "on")
NO = ("", "0", "false", "no", "off")


class FlagValueError(ValueError):
    """A yes-or-no variable set to something else; the message names it and its value."""

    def __init__(self, name: str, value: str) -> None:
        super().__init__(f"{name} is `{value}`, neither a yes nor a no")
        self.name = name
        self.value = value

    @property
    def hint(self) -> str:
        return (
            f"set {self.name} to `1`, `true`, `yes` or `on` for yes; to `0`, `false`, `no`, `off` or nothing "
            "(or unset it) for no"
        )


def flag(name: str) -> bool:
    """Whether the yes-or-no environment variable ``name`` says yes (unset: no); raises
    :class:`FlagValueError` when it says neither."""
    value = os.environ.get(name)
    if value is None:
        return False
    word = value.strip().lower()
    if word in YES:
        return True
    if word in NO:
        return False
    raise FlagValueError(name, value)


def written(name: str) -> str:
    """``NAME=value`` as the environment holds it (for a hint that says why civrules did something)."""
    return f"{name}={os.environ.get(name, '')}"
