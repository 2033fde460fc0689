"""The errors every generated package raises."""


class UnknownFactError(LookupError):
    """A helper needed a fact the sources do not give (it is None in the data)."""


class UnknownIdError(KeyError, ValueError):
    """An id, or a value of a vocabulary, that the ruleset does not have (a misspelling)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class DraftRulesetError(RuntimeError):
    """An engine asked for a complete ruleset and was given a draft (see the package's DRAFT)."""


class NotACollectionError(TypeError):
    """A single string where a collection of ids belongs (``purchase_cost("law", ...)``): a string
    is iterable, but its letters are not ids. Also a value that is no collection at all
    (``purchase_cost(5, ...)``)."""


def collection(value: object, parameter: str) -> None:
    """Raise NotACollectionError when ``value``, given for ``parameter`` (a collection of ids), is a
    string, or not iterable."""
    if isinstance(value, str | bytes):
        raise NotACollectionError(
            f"{parameter} is a collection of ids, not the string {value!r}: write [{value!r}] for one id"
        )
    try:
        iter(value)  # type: ignore[call-overload]  # an iterator given is returned, not consumed
    except TypeError:
        raise NotACollectionError(f"{parameter} is a collection of ids (a list, a set ...), not {value!r}") from None


class OutOfDomainError(ValueError):
    """An argument a rule is not defined for (a negative count of cities, a set larger than the
    good's cards, a space off the track): the message names the value and the rule's domain."""


def within(value: int, name: str, low: int = 0, high: int | None = None, rule: str = "") -> int:
    """``value`` when ``low <= value <= high``; OutOfDomainError naming it and the domain otherwise."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise OutOfDomainError(f"{name}={value!r} is not a whole number{rule and f' ({rule})'}")
    if value < low or (high is not None and value > high):
        domain = f"{low} or more" if high is None else f"{low} to {high}"
        raise OutOfDomainError(f"{name}={value!r} is outside the domain of the rule{rule and f' ({rule})'}: {domain}")
    return value
