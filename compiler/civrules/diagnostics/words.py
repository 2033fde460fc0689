"""Counts and articles for messages, so that no message says "1 minor calamities" or "a `agriculture`".

>>> count(1, "minor calamity", "minor calamities")
'1 minor calamity'
>>> count(3, "card")
'3 cards'
>>> a("`agriculture`")
'an `agriculture`'
>>> a("unit")
'a unit'
"""

from __future__ import annotations

#: Words spelt with a vowel but said with a consonant ("a unit", "a one-off").
_CONSONANT_SOUND = ("uni", "use", "usu", "uti", "eu", "one", "once")


def plural(n: int, singular: str, plural: str | None = None) -> str:
    """``singular`` for one, else ``plural`` (``singular`` + "s" unless given)."""
    return singular if n == 1 else plural if plural is not None else singular + "s"


def count(n: int, singular: str, plural_form: str | None = None) -> str:
    """``n`` and the noun in the number it takes: `1 card`, `2 cards`, `0 cards`."""
    return f"{n} {plural(n, singular, plural_form)}"


def article(word: str) -> str:
    """`a` or `an` for ``word`` as it is said (an id in backquotes by its first letter)."""
    bare = word.lstrip("`\"'*_ ").lower()
    if not bare:
        return "a"
    if bare.startswith(_CONSONANT_SOUND):
        return "a"
    return "an" if bare[0] in "aeiou" else "a"


def a(word: str) -> str:
    """``word`` with its indefinite article: `an `agriculture``, `a `pottery``."""
    return f"{article(word)} {word}"
