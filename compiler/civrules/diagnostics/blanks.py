"""Blanks: the parts of the YAML a hint writes that only the designer can say (why a house rule
changes a fact, the rule section a fact comes from), worded so that pasted unchanged they are
read as what they are.

A blank is the text `write WHAT here` (`"write why here"`, `"house rule: write why here"`),
quoted as a string, in the place of the value: the YAML it stands in parses, and the reader
reports it (L016) with what to write, where `...` was read as text (`source: "house rule: ..."`
was a citation, and validated) or made the schema say something else (`rule: ...` "is not a
rule section"). A blank is never a fact: no rule data holds one.
"""

from __future__ import annotations

import re

#: What every blank starts with: the reader looks further only at a string that does.
STARTS = ("write ", "house rule: write ")

_BLANK = re.compile(r"(?:house rule: )?write ([^\n]{1,80}?) here")


def blank(what: str) -> str:
    """The blank for ``what`` (`the rule's section`): `write the rule's section here`."""
    return f"write {what} here"


#: Why a variant's change is made, which only its designer knows (a removal's `why:`).
WHY = blank("why")
#: The rule section a fact comes from, where the ruleset's rule index has sections to cite.
SECTION = blank("the rule's section")
#: The source a fact comes from, where it has none.
SOURCE = blank("the source")
#: The citation of a change a hint writes: a house rule, whose reason is the designer's blank.
HOUSE_RULE = f"house rule: {WHY}"


def is_blank(value: object) -> bool:
    """Whether ``value`` is a blank a hint wrote, left as it was."""
    return isinstance(value, str) and value.startswith(STARTS) and _BLANK.fullmatch(value) is not None


def asked(value: str) -> str:
    """What the blank ``value`` asks for (`why`, `the rule's section`)."""
    found = _BLANK.fullmatch(value)
    return found[1] if found is not None else value
