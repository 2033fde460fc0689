"""The errors every generated package raises."""


class UnknownFactError(LookupError):
    """A helper needed a fact the sources do not give (it is None in the data)."""


class UnknownIdError(KeyError, ValueError):
    """An id, or a value of a vocabulary, that the ruleset does not have (a misspelling)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class DraftRulesetError(RuntimeError):
    """An engine asked for a complete ruleset and was given a draft (see the package's DRAFT)."""
