"""The names of generated engine packages and runtimes, whatever their family.

Every ruleset's package is an import package in civrules' own namespace,
``civrules_rulesets.<id with underscores>``, and a distribution ``civrules-<id>``. The namespace is
what keeps a ruleset's package from replacing or shadowing anything else installed: whatever its id
(``pip``, ``sitecustomize``, ``yaml``, a dependency of an engine), the package can only ever be
``civrules_rulesets.pip``; ``civrules_rulesets`` is an implicit namespace package (PEP 420), which
no distribution owns, so any number of rulesets install side by side. Whether an id is accepted
depends on the rules alone, never on what the building machine has installed.

Every package imports the shared runtime ``civrules_runtime`` (errors, the record and protocol
bases: what every family shares) and its family's runtime ``civrules_runtime_<family>``
(distribution ``civrules-runtime-<family>``: the family's records, vocabularies, rule logic and
protocol), which all the family's rulesets share. Their names are civrules' own, fixed by civrules
and the family, never by rule data; a ruleset whose distribution would take a runtime's
(``civrules-runtime``, ``civrules-runtime-<family>``) is refused (check I003).

A ruleset id also names files: ``rules/rulesets/<id>.yaml``, ``generated/sheets/<id>/`` and
``generated/helpers/<id>.html``. :func:`ruleset_id_problems` says why an id cannot name all of them
on every system and every installer; the identity check and the commands that make a ruleset
(``new-variant``, ``init``) ask it, so they refuse the same ids for the same reasons.
"""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass

#: The namespace every ruleset's import package lives in (a PEP 420 namespace: no ``__init__.py``).
NAMESPACE = "civrules_rulesets"
#: The import package of the runtime every generated package shares.
RUNTIME = "civrules_runtime"
#: Its distribution (pip) name.
RUNTIME_DISTRIBUTION = "civrules-runtime"


def package_name(ruleset_id: str) -> str:
    """The name of a ruleset's package within the namespace: its id with hyphens as underscores."""
    return ruleset_id.replace("-", "_")


def import_name(ruleset_id: str) -> str:
    """What an engine imports: ``advanced-civilization`` → ``civrules_rulesets.advanced_civilization``."""
    return f"{NAMESPACE}.{package_name(ruleset_id)}"


def package_folder(ruleset_id: str) -> str:
    """The package's folder relative to ``generated/python/`` (its distribution's files lie in it)."""
    return f"{NAMESPACE}/{package_name(ruleset_id)}"


def distribution_name(ruleset_id: str) -> str:
    """The distribution (pip) name of a ruleset's package."""
    return f"civrules-{ruleset_id}"


def family_runtime_package(family_id: str) -> str:
    """The import name of a family's runtime: ``advanced-civilization`` → ``civrules_runtime_advanced_civilization``."""
    return f"{RUNTIME}_{family_id.replace('-', '_')}"


def family_runtime_distribution(family_id: str) -> str:
    """The distribution (pip) name of a family's runtime: ``civrules-runtime-<family id>``."""
    return f"{RUNTIME_DISTRIBUTION}-{family_id}"


#: What a ruleset id is: lower-case words of ASCII letters and digits joined by single hyphens.
#: Such an id's distribution ``civrules-<id>`` is already in the form pip compares names in (PEP
#: 503), and its package name (hyphens as underscores) has no other spelling: two ids name one
#: distribution, or one package, only when they are one id. The schemas' `ruleset_id` is this pattern.
RULESET_ID_PATTERN = "^[a-z][a-z0-9]*(-[a-z0-9]+)*$"
RULESET_ID = re.compile(RULESET_ID_PATTERN)

#: Why an id that is not kebab-case is refused, when no more telling reason applies.
NOT_KEBAB_CASE = "is not kebab-case"

#: The ids civrules keeps for its runtimes: ``runtime`` (``civrules-runtime``) and every
#: ``runtime-<anything>`` (``civrules-runtime-<family>``), for every family that exists anywhere,
#: not only those installed where the rules are checked.
RESERVED_PREFIX = "runtime"

#: Names Windows gives its devices, in any case and with any extension (``aux.yaml`` too): no
#: file or folder can have one, so a repository holding one cannot be checked out there.
WINDOWS_DEVICE_NAMES = frozenset(
    {"con", "prn", "aux", "nul", *(f"com{digit}" for digit in range(10)), *(f"lpt{digit}" for digit in range(10))}
)

#: The longest ruleset id (in UTF-8 bytes): it names generated/python/<package>/,
#: generated/sheets/<id>/ and rules/rulesets/<id>.yaml, and common file systems allow 255 bytes per name.
MAX_RULESET_ID = 100


def normalized_distribution(name: str) -> str:
    """A distribution name as pip compares it (PEP 503): ``civrules-A__b`` → ``civrules-a-b``."""
    return re.sub(r"[-_.]+", "-", name).lower()


def is_reserved(ruleset_id: str) -> bool:
    """Whether ``ruleset_id``'s distribution would be a runtime's (``runtime``, ``runtime-...``)."""
    return ruleset_id == RESERVED_PREFIX or ruleset_id.startswith(f"{RESERVED_PREFIX}-")


def _taken_by(ruleset_id: str) -> str:
    """Whose distribution ``civrules-<ruleset_id>`` (a well-formed id) is, in words."""
    if ruleset_id == RESERVED_PREFIX:
        return "the shared runtime's distribution"
    if is_reserved(ruleset_id):
        return "a family runtime's distribution"
    return f"the distribution of a ruleset `{ruleset_id}`"


@dataclass(frozen=True, slots=True)
class IdProblem:
    """One reason a ruleset id cannot name a ruleset."""

    #: The id as a message shows it (a long one cut short).
    shown: str
    #: Why, as a predicate of the id: "is a ...", "cannot name ...".
    why: str
    #: What to do instead.
    hint: str
    #: Whether the id is not kebab-case (the form the schemas' `ruleset_id` pattern requires).
    malformed: bool = False

    @property
    def message(self) -> str:
        return f"ruleset id {self.shown} {self.why}"


def ruleset_id_problems(ruleset_id: str) -> list[IdProblem]:
    """Why ``ruleset_id`` cannot name a ruleset, one :class:`IdProblem` a reason; none if it can.
    The verdict depends on the id alone, never on what the machine has installed.

    >>> ruleset_id_problems("house-rules")
    []
    >>> ruleset_id_problems("aux")[0].hint
    'choose another id, e.g. `aux-rules`'
    """
    shown = f"`{ruleset_id}`" if len(ruleset_id) <= 40 else f"`{ruleset_id[:40]}...`"
    problems: list[IdProblem] = []
    distribution = distribution_name(ruleset_id)
    read_as = normalized_distribution(distribution)
    if RULESET_ID.fullmatch(ruleset_id) is None:
        same = read_as.removeprefix("civrules-")
        if read_as != distribution and RULESET_ID.fullmatch(same):
            why = (
                f"cannot name a generated distribution: pip reads `{distribution}` as `{read_as}`, "
                f"{_taken_by(same)}, so installing either would uninstall the other"
            )
        elif ruleset_id.endswith("-"):
            why = (
                f"cannot name a generated distribution: `{distribution}` would end in a hyphen, and a "
                "distribution name ends in a letter or digit"
            )
        else:
            why = NOT_KEBAB_CASE
        problems.append(
            IdProblem(
                shown,
                why,
                "write lower-case letters (a-z) and digits, words joined by single hyphens, in an id no "
                "other ruleset has",
                malformed=True,
            )
        )
    elif keyword.iskeyword(package_name(ruleset_id)):
        # A soft keyword (`match`, `type`) is an identifier: `import civrules_rulesets.match` works.
        problems.append(
            IdProblem(
                shown,
                f"cannot name a generated Python package: `{ruleset_id}` is a Python keyword",
                f"choose another id, e.g. `{ruleset_id}-rules`",
            )
        )
    elif is_reserved(ruleset_id):
        problems.append(
            IdProblem(
                shown,
                f"cannot name a generated distribution: `{distribution}` is "
                f"{_taken_by(ruleset_id)} (civrules keeps `civrules-runtime` and every `civrules-runtime-...` "
                "for its runtimes)",
                f"choose an id that does not start with `{RESERVED_PREFIX}`, e.g. `my-{ruleset_id}`",
            )
        )
    elif ruleset_id in WINDOWS_DEVICE_NAMES:
        problems.append(
            IdProblem(
                shown,
                f"cannot name files: `{ruleset_id}` is a device name on Windows, which "
                f"creates no file `{ruleset_id}.yaml` or `{ruleset_id}.html` and no folder `{ruleset_id}`, so "
                "a repository holding them cannot be checked out there",
                f"choose another id, e.g. `{ruleset_id}-rules`",
            )
        )
    if len(ruleset_id.encode("utf-8")) > MAX_RULESET_ID:
        problems.append(
            IdProblem(
                shown,
                f"is {len(ruleset_id)} characters long; it names folders and files, so at "
                f"most {MAX_RULESET_ID} are allowed",
                "choose a shorter id",
            )
        )
    return problems
