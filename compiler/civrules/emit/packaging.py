"""The names of generated engine packages and runtimes, whatever their family.

Every ruleset's package is an import package in civrules' own namespace,
``civrules_rulesets.<id with underscores>``, and a distribution in civrules' own namespace of
distribution names, ``civrules-rulesets-<id>`` (the same words as its import path). The import
namespace is what keeps a ruleset's package from replacing or shadowing another module: whatever
its id (``pip``, ``sitecustomize``, ``yaml``, a dependency of an engine), the package can only ever
be ``civrules_rulesets.pip``; ``civrules_rulesets`` is an implicit namespace package (PEP 420),
which no distribution owns, so any number of rulesets install side by side. The distribution
namespace does the same for what pip installs and uninstalls: a ruleset's distribution is never a
game family's (a family is a distribution of its own, named as its authors choose, and must not
take a ``civrules-rulesets-...`` name: the register refuses one), a runtime's or any other
``civrules-<x>`` project's, so installing a ruleset never uninstalls another project. Whether an
id is accepted depends on the rules alone, never on what the building machine has installed.

Every package imports the shared runtime ``civrules_runtime`` (errors, the record and protocol
bases: what every family shares) and its family's runtime ``civrules_runtime_<family>``
(distribution ``civrules-runtime-<family>``: the family's records, vocabularies, rule logic and
protocol), which all the family's rulesets share. Their names are civrules' own, fixed by civrules
and the family, never by rule data; no ruleset's distribution can be named as one, since
``rulesets`` is not ``runtime``.

A ruleset id also names files: ``rules/rulesets/<id>.yaml``, ``generated/sheets/<id>/`` and
``generated/helpers/<id>.html``. :func:`ruleset_id_problems` says why an id cannot name all of them
on every system and every installer; the identity check and the commands that make a ruleset
(``new-variant``, ``init``) ask it, so they refuse the same ids for the same reasons.
"""

from __future__ import annotations

import json
import keyword
import re
from dataclasses import dataclass

#: The namespace every ruleset's import package lives in (a PEP 420 namespace: no ``__init__.py``).
NAMESPACE = "civrules_rulesets"
#: The import package of the runtime every generated package shares.
RUNTIME = "civrules_runtime"
#: Its distribution (pip) name.
RUNTIME_DISTRIBUTION = "civrules-runtime"
#: What every ruleset's distribution name starts with: the namespace's words, as pip compares them.
RULESETS_DISTRIBUTION = "civrules-rulesets"


def package_name(ruleset_id: str) -> str:
    """The name of a ruleset's package within the namespace: its id with hyphens as underscores."""
    return ruleset_id.replace("-", "_")


def import_name(ruleset_id: str) -> str:
    """What an engine imports: ``my-game`` → ``civrules_rulesets.my_game``."""
    return f"{NAMESPACE}.{package_name(ruleset_id)}"


def package_folder(ruleset_id: str) -> str:
    """The package's folder relative to ``generated/python/`` (its distribution's files lie in it)."""
    return f"{NAMESPACE}/{package_name(ruleset_id)}"


def distribution_name(ruleset_id: str) -> str:
    """The distribution (pip) name of a ruleset's package: its import path's words,
    ``my-game`` → ``civrules-rulesets-my-game``."""
    return f"{RULESETS_DISTRIBUTION}-{ruleset_id}"


def family_runtime_package(family_id: str) -> str:
    """The import name of a family's runtime: ``example-dice`` → ``civrules_runtime_example_dice``."""
    return f"{RUNTIME}_{family_id.replace('-', '_')}"


def family_runtime_distribution(family_id: str) -> str:
    """The distribution (pip) name of a family's runtime: ``civrules-runtime-<family id>``."""
    return f"{RUNTIME_DISTRIBUTION}-{family_id}"


#: What a ruleset id is: lower-case words of ASCII letters and digits joined by single hyphens.
#: Such an id's distribution ``civrules-rulesets-<id>`` is already in the form pip compares names in (PEP
#: 503), and its package name (hyphens as underscores) has no other spelling: two ids name one
#: distribution, or one package, only when they are one id. The schemas' `ruleset_id` is this pattern.
RULESET_ID_PATTERN = "^[a-z][a-z0-9]*(-[a-z0-9]+)*$"
RULESET_ID = re.compile(RULESET_ID_PATTERN)

#: Why an id that is not kebab-case is refused, when no more telling reason applies.
NOT_KEBAB_CASE = "is not kebab-case"

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


def is_generated_distribution(name: str) -> bool:
    """Whether pip would take the distribution ``name`` for one civrules generates: a ruleset's
    (``civrules-rulesets-...``) or a runtime's (``civrules-runtime``, ``civrules-runtime-...``).
    Installing that one would uninstall a distribution so named, so no other may be.

    >>> is_generated_distribution("civrules-rulesets-dice-game"), is_generated_distribution("civrules-example-family")
    (True, False)
    """
    read_as = normalized_distribution(name)
    return read_as == RUNTIME_DISTRIBUTION or read_as.startswith(
        (f"{RULESETS_DISTRIBUTION}-", f"{RUNTIME_DISTRIBUTION}-")
    )


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
        same = read_as.removeprefix(f"{RULESETS_DISTRIBUTION}-")
        if read_as != distribution and RULESET_ID.fullmatch(same):
            why = (
                f"cannot name a generated distribution: pip reads `{distribution}` as `{read_as}`, "
                f"the distribution of a ruleset `{same}`, so installing either would uninstall the other"
            )
        elif ruleset_id.endswith("-"):
            why = (
                f"cannot name a generated distribution: `{distribution}` would end in a hyphen, and a "
                "distribution name ends in a letter or digit"
            )
        else:
            why = NOT_KEBAB_CASE
        hint = (
            "write lower-case letters (a-z) and digits, starting with a letter, words joined by single "
            "hyphens, in an id no other ruleset has"
        )
        # the id it reads as, where that is one a ruleset can have: what to type, not only the rule
        meant = re.sub(r"[^a-z0-9]+", "-", ruleset_id.lower()).strip("-")
        if meant != ruleset_id and not ruleset_id_problems(meant):
            hint += f", e.g. `{meant}`"
        problems.append(IdProblem(shown, why, hint, malformed=True))
    elif keyword.iskeyword(package_name(ruleset_id)):
        # A soft keyword (`match`, `type`) is an identifier: `import civrules_rulesets.match` works.
        problems.append(
            IdProblem(
                shown,
                f"cannot name a generated Python package: `{ruleset_id}` is a Python keyword",
                f"choose another id, e.g. `{ruleset_id}-rules`",
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
    if len(ruleset_id.encode("utf-8", "surrogatepass")) > MAX_RULESET_ID:  # a name from argv may be no UTF-8
        problems.append(
            IdProblem(
                shown,
                f"is {len(ruleset_id)} characters long; it names folders and files, so at "
                f"most {MAX_RULESET_ID} are allowed",
                "choose a shorter id",
            )
        )
    return problems


class PackageRefusedError(Exception):
    """A family's package hook refused to write a ruleset's package, because what it would write
    does not import: a member of an id enum (``CardId.MONARCHY``) that the ruleset has no entry for.

    A check should have refused the ruleset first (X001 for every reference the schemas declare),
    so this is a bug: the build reports it (R900, exit 2), naming what was refused, and writes
    nothing of the ruleset, rather than a package that fails at import with an AttributeError."""


def enum_member(name: str, written: str) -> str:
    """``name``, the enum member a family's package makes of the id ``written``, once it is a Python
    name: an id no check refused (a line break after it, a space) would otherwise go into the
    package as source that does not parse. Refused with :class:`PackageRefusedError` (R900,
    nothing of the ruleset written), naming the id as written.

    >>> enum_member("LANTERN", "lantern")
    'LANTERN'
    >>> enum_member("BREWING\\n", "brewing\\n")  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    civrules.emit.packaging.PackageRefusedError: ... the id "brewing\\n" ... no Python name ...
    """
    if name.isidentifier() and not keyword.iskeyword(name):
        return name
    shown = json.dumps(written, ensure_ascii=True)
    named = json.dumps(name, ensure_ascii=True)[1:-1]
    raise PackageRefusedError(
        f"its package would make the id {shown} an enum member, `{named}`, which is no Python name: "
        "an id no check refused"
    )
