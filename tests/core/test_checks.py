"""Every semantic check against its fixtures.

A fixture is a small edit of the shipped rules (`tests/fixtures/checks/*.yaml`): the failing one
must yield exactly the expected diagnostics at the expected line and column, the passing one none
of its code. Locations are given by an anchor text in the edited file, so fixtures survive
unrelated data edits while still pinning the exact line and column.

`make test` runs each fixture with the checks it names (its code and the codes it expects; the
stages before the checks always run): the checks were two thirds of the module's 12 s of CPU.
`make test-slow` runs every fixture with every check, so a fixture stays one mistake, found by
the checks it names and by no other.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from civrules.checks.catalogue import all_checks
from civrules.diagnostics import Diagnostic, Severity, codes
from civrules.diagnostics.words import quoted
from civrules.load.reader import read_yaml_text
from civrules.pipeline import analyse
from tests.conftest import FIXTURES, RULES
from tests.rulefiles import CachedWorkspace

RULESET = "advanced-civilization"


@dataclass(frozen=True)
class Case:
    name: str
    code: str
    ruleset: str
    edits: tuple[dict[str, Any], ...]
    expect: tuple[dict[str, Any], ...]
    passing: bool


def load_cases() -> list[Case]:
    cases = []
    # Each family's fixtures beside its tests (tests/families/<family>/fixtures/checks.yaml, or
    # several files in tests/families/<family>/fixtures/checks/).
    family_fixtures = sorted(
        [
            *(FIXTURES.parent / "families").glob("*/fixtures/checks.yaml"),
            *(FIXTURES.parent / "families").glob("*/fixtures/checks/*.yaml"),
        ]
    )
    for path in [*sorted((FIXTURES / "checks").glob("*.yaml")), *family_fixtures]:
        for entry in yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader) or []:
            code = entry["code"]
            ruleset = entry.get("ruleset", RULESET)
            for n, bad in enumerate(entry.get("bad", [])):
                expect = bad["expect"] if isinstance(bad["expect"], list) else [bad["expect"]]
                on = bad.get("ruleset", ruleset)  # a case may name its own ruleset (a variant's edit)
                cases.append(Case(f"{code}-bad-{n}", code, on, tuple(bad["edits"]), tuple(expect), False))
            for n, good in enumerate(entry.get("good", [])):
                on = good.get("ruleset", ruleset)
                cases.append(Case(f"{code}-good-{n}", code, on, tuple(good["edits"]), (), True))
    return cases


CASES = load_cases()


def apply_edits(edits: tuple[dict[str, Any], ...]) -> dict[str, str]:
    texts: dict[str, str] = {}
    for edit in edits:
        file = edit["file"]
        path = RULES / file
        text = texts.get(file, path.read_text(encoding="utf-8") if path.exists() else "")
        if "text" in edit:
            text = edit["text"]
        elif "append" in edit:
            text = text.rstrip("\n") + "\n" + edit["append"]
        else:
            find, replace = edit["find"], edit["replace"]
            assert find in text, f"fixture edit: {find!r} not found in {file}"
            text = text.replace(find, replace, edit.get("count", 1))
        texts[file] = text
    return texts


def locate(texts: dict[str, str], expect: dict[str, Any]) -> tuple[str, int, int]:
    file = expect["file"]
    text = texts.get(file) or (RULES / file).read_text(encoding="utf-8")
    if "line" in expect:
        return file, expect["line"], expect["column"]
    start = text.index(expect["after"]) if "after" in expect else 0
    index = text.index(expect["at"], start)
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return file, line, column


def diagnostics_of(case: Case, texts: dict[str, str], *, every_check: bool = False) -> list[tuple[str, str, int, int]]:
    """The diagnostics of the case's edit: of the checks it names (its code and those it expects),
    or of every check."""
    named = () if every_check else tuple(sorted({case.code, *(e.get("code", case.code) for e in case.expect)}))
    return list(_diagnostics(case.ruleset, tuple(sorted(texts.items())), named))


@functools.cache
def _analysed(ruleset: str, edited: tuple[tuple[str, str], ...], select: tuple[str, ...]) -> tuple[Diagnostic, ...]:
    """One analysis per distinct edit of a ruleset and choice of checks (none: every check): 27 of
    the fixtures (a passing one beside a failing one, mostly) leave the same files as another."""
    # The files a fixture does not change come from one reading of the shipped rules.
    workspace = CachedWorkspace(dict(edited))
    manifest = workspace.manifests()[ruleset]
    return tuple(analyse(workspace, workspace.load_ruleset(manifest), select).diagnostics)


@functools.cache
def _diagnostics(
    ruleset: str, edited: tuple[tuple[str, str], ...], select: tuple[str, ...]
) -> tuple[tuple[str, str, int, int], ...]:
    found = []
    for d in _analysed(ruleset, edited, select):
        if d.severity is Severity.INFO or d.span is None:
            continue
        file = Path(d.span.file).resolve().relative_to(RULES).as_posix()
        found.append((d.code, file, d.span.line, d.span.column))
    return tuple(sorted(found))


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_fixture(case: Case) -> None:
    _hold_to_fixture(case, every_check=False)


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_fixture_with_every_check(case: Case) -> None:
    _hold_to_fixture(case, every_check=True)


def _hold_to_fixture(case: Case, *, every_check: bool) -> None:
    texts = apply_edits(case.edits)
    found = diagnostics_of(case, texts, every_check=every_check)
    if case.passing:
        assert [f for f in found if f[0] == case.code] == []
        return
    expected = sorted((e.get("code", case.code), *locate(texts, e)) for e in case.expect)
    assert found == expected


BAD = [c for c in CASES if not c.passing]


@pytest.mark.parametrize("case", BAD, ids=[c.name for c in BAD])
def test_a_failing_fixtures_diagnostic_names_its_subjects_as_data(case: Case) -> None:
    """Each diagnostic of the check says what it is about as data (`subjects`: what a `suppress:`
    entry's `target` is matched against, and `--format json` carries), given where the check made
    it: at least one, each a name its message quotes (read whole, as a reader of Markdown reads
    it), or, for what a message names unquoted (`section 16.4`, `trade stack 3`) or by its place
    (`space 8`), a name of the rule data it points at, as it is written there."""
    named = tuple(sorted({case.code, *(e.get("code", case.code) for e in case.expect)}))
    texts = apply_edits(case.edits)
    own = [d for d in _analysed(case.ruleset, tuple(sorted(texts.items())), named) if d.code == case.code]
    assert own, f"{case.name}: no {case.code} found"
    for d in own:
        assert d.subjects, f"{case.code} names no subject: {d.message}"
        said = " ".join([d.message, d.hint or "", *(r.label for r in d.related)])
        written = "\n".join(_text(texts, s.file) for s in (d.span, *(r.span for r in d.related)) if s)
        unnamed = [
            s
            for s in d.subjects
            if s not in quoted(d.message)
            and not all(_word(part, said) or _word(part, written) for part in s.split("."))
        ]
        assert unnamed == [], (
            f"{case.code}'s subjects {unnamed} are named neither in its text nor in its data: {d.message}"
        )


def test_every_check_of_civrules_names_its_subjects_where_it_makes_a_diagnostic() -> None:
    """`diagnostic(...)` without `subjects=` falls back to the names the message quotes (for a
    family's checks written before subjects existed); none of civrules' own checks leans on it."""
    import ast

    compiler = Path(__file__).parents[2] / "compiler" / "civrules"
    modules = [*(compiler / "checks").glob("*.py"), *(compiler / "families").glob("*/checks/*.py")]
    bare = []
    for module in sorted(modules):
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            called = node.func
            name = called.id if isinstance(called, ast.Name) else getattr(called, "attr", None)
            if name in ("diagnostic", "cannot_judge") and not any(k.arg == "subjects" for k in node.keywords):
                bare.append(f"{module.relative_to(compiler)}:{node.lineno}")
    assert len(modules) > 20 and bare == []


def test_a_subject_given_as_one_name_is_one_subject_not_its_letters() -> None:
    """`subjects=card.id` (a name where a list of them was meant, which mypy accepts: a string is an
    iterable) is that one name: it was each of its letters, and no `target` silenced it."""
    from civrules.checks import diagnostic
    from civrules.diagnostics import named

    assert diagnostic("I002", "`oak` is named twice", None, subjects="oak").subjects == ("oak",)
    assert named("oak") == ("oak",)
    assert named(["oak", 3]) == ("oak", "3")


def _text(texts: dict[str, str], file: str) -> str:
    """The text of a file a diagnostic points at, as the fixture left it."""
    relative = Path(file).resolve().relative_to(RULES).as_posix()
    return texts.get(relative) or (RULES / relative).read_text(encoding="utf-8")


def _word(name: str, text: str) -> bool:
    """Whether ``text`` holds ``name`` as a whole word (not inside a longer name)."""
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text) is not None


def test_every_check_has_a_failing_and_a_passing_fixture() -> None:
    bad = {c.code for c in CASES if not c.passing}
    good = {c.code for c in CASES if c.passing}
    missing = [c.code.code for c in all_checks() if c.code.code not in bad or c.code.code not in good]
    assert missing == []


@pytest.mark.parametrize("entry", [c.code for c in all_checks()], ids=lambda c: c.code)
def test_every_check_is_documented(entry: codes.Code) -> None:
    doc = entry.explain()
    for part in ("What:", "Why:", "Fix:"):
        assert part in doc, f"{entry.code} documentation lacks {part!r}"
    assert codes.lookup(entry.code) is entry


#: A hint proposing one word in place of what was written: `did you mean `crafts`?` (not a list of
#: several, nor a mapping or a line of YAML to write instead).
_ONE_WORD = re.compile(r"did you mean `([^`\s{}\[\],:]+)`\?")


_SUPPRESSING = (
    "kind: ruleset\nfamily: imperial-settlers\nid: is-sup\nname: sup\nextends: imperial-settlers\n"
    'suppress:\n  - {code: F001, target: barbarianz, reason: "a deck of 29"}\n'
    'overlay:\n  cards:\n    remove:\n      - {id: bar029, why: "house rule"}\n'
)

#: Misspellings of the stages and checks the fixtures of checks do not reach, each told "did you
#: mean" one word: a key, a comment's code, a list's value, a base's name, a selector, a target.
TYPOS = [
    Case(
        "S002-key",
        "S002",
        RULESET,
        ({"file": "cards/advanced-civilization.yaml", "find": "    cost: 45\n", "replace": "    cots: 45\n"},),
        (),
        False,
    ),
    Case(
        "R020-comment",
        "R020",
        RULESET,
        (
            {
                "file": "cards/advanced-civilization.yaml",
                "find": "    cost: 45\n",
                "replace": "    cost: 45  # civrules: ignore[K01O] why\n",
            },
        ),
        (),
        False,
    ),
    Case(
        "S003-value",
        "S003",
        RULESET,
        ({"file": "cards/advanced-civilization.yaml", "find": "groups: [crafts]", "replace": "groups: [craftz]"},),
        (),
        False,
    ),
    Case(
        "V001-base",
        "V001",
        "advanced-civilization-western",
        (
            {
                "file": "rulesets/advanced-civilization-western.yaml",
                "find": "extends: advanced-civilization",
                "replace": "extends: advanced-civilisation",
            },
        ),
        (),
        False,
    ),
    Case(
        "V008-target",
        "V008",
        "is-sup",
        ({"file": "rulesets/is-sup.yaml", "text": _SUPPRESSING},),
        ({"code": "F001"},),
        False,
    ),
]


@pytest.mark.parametrize("case", BAD + TYPOS, ids=[c.name for c in BAD + TYPOS])
def test_a_one_word_did_you_mean_has_a_quick_fix(case: Case) -> None:
    """Every diagnostic whose hint proposes one word ("did you mean `crafts`?") carries it as its
    suggestion, which the language server offers as a quick fix ("Replace with `crafts`"): round
    30 found R020, S001 and V007 proposing a word the editor could not put in, one at a time, and
    left V008's `target`. Over every failing fixture of the checks, and a misspelling of each
    stage they do not reach."""
    named = tuple(sorted({case.code, *(e.get("code", case.code) for e in case.expect)}))
    texts = apply_edits(case.edits)
    proposing = 0
    for d in _analysed(case.ruleset, tuple(sorted(texts.items())), named):
        proposed = _ONE_WORD.findall(d.hint or "")
        if len(proposed) == 1:
            proposing += 1
            assert d.suggestion == proposed[0], f"{d.code} proposes `{proposed[0]}` with no quick fix: {d.hint}"
    if case in TYPOS:
        assert proposing, f"{case.name}: no diagnostic proposes a word"


#: What a hint's YAML must not hold: a placeholder that pasted reads as text or breaks the YAML
#: (`...`, `SELECTOR`, `NEW_ID`). What only the designer can say is a blank (`write why here`, L016).
_PLACEHOLDER = re.compile(r"\.\.\.|…|\b[A-Z][A-Z_]{3,}\b")
#: A hint's code span that offers YAML to paste: a mapping, a list, or a key and its value.
_OFFERED = re.compile(r"^(- )?([{\[]|[a-z_]+: )")


@pytest.mark.parametrize("case", [c for c in CASES if not c.passing], ids=[c.name for c in CASES if not c.passing])
def test_the_yaml_a_fixtures_hint_offers_pastes_as_it_is_or_asks_for_its_blanks(case: Case) -> None:
    """Every entry a hint offers to paste (its code spans that are YAML: `{id: lantern, cost: 50}`,
    `remove: [...]`) reads as written: no placeholder (`...` read as text, `SELECTOR` as an id),
    and where only the designer knows the value, a blank that the reader reports, alone (L016):
    pasted unchanged, the variant says what to write, never a confusing error or a pass."""
    texts = apply_edits(case.edits)
    named = tuple(sorted({case.code, *(e.get("code", case.code) for e in case.expect)}))
    for found in _analysed(case.ruleset, tuple(sorted(texts.items())), named):
        for span in (found.hint or "").split("`")[1::2]:
            if not _OFFERED.match(span) or " | " in span:
                continue
            assert not _PLACEHOLDER.search(span), (found.code, span)
            document, problems = read_yaml_text(span + "\n", "hint")
            assert document is not None, (found.code, span, problems)
            assert {p.code for p in problems} <= {codes.UNFILLED_BLANK.code}, (found.code, span, problems)
