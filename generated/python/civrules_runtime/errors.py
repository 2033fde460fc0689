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
    is iterable, but its letters are not ids."""


def collection(value: object, parameter: str) -> None:
    """Raise NotACollectionError when ``value``, given for ``parameter`` (a collection of ids), is a
    string."""
    if isinstance(value, str | bytes):
        raise NotACollectionError(
            f"{parameter} is a collection of ids, not the string {value!r}: write [{value!r}] for one id"
        )
