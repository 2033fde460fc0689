"""One rule set for both ways of silencing a diagnostic: a `# civrules: ignore[...]` comment and a
variant's `suppress:` entry.

What a comment may not silence (a load or schema error, an error that makes the package
unimportable: R010), a code that is no code (R020), a reason that is missing or blank, a code kept
from running by `--select`/`--ignore`: each is judged the same way on both paths. Each test here
failed while the `suppress:` path had rules of its own.
"""

from __future__ import annotations

import pytest

from civrules.diagnostics import Diagnostic, Severity, Span
from civrules.pipeline import Analysis, analyse
from civrules.pipeline.suppression import UNBUILDABLE, suppress_in_base
from tests.rulefiles import CachedWorkspace

#: A variant of Advanced Civilization that removes Cloth Making (nothing of the base refers to it).
BASE = (
    "kind: ruleset\nid: no-cloth\nname: No Cloth Making\nextends: advanced-civilization\n"
    "overlay:\n  civilization_cards:\n    remove:\n      - {id: cloth_making, why: house rule}\n"
)
#: A card the variant of that variant adds, whose prerequisite is the removed card (V006, at the
#: base's `remove` line: a file the variant did not bring).
LOOMS = (
    "overlay:\n  civilization_cards:\n    add:\n"
    "      - {id: looms, name: Looms, groups: [crafts], cost: 90, attributes: [], credits: [],\n"
    '         prerequisites: [{card: cloth_making, source: "house rule"}], source: "house rule"}\n'
)


def header(ruleset_id: str, extends: str) -> str:
    return f"kind: ruleset\nid: {ruleset_id}\nname: {ruleset_id}\nextends: {extends}\n"


def analysed(ruleset_id: str, files: dict[str, str], select: tuple[str, ...] = ()) -> Analysis:
    workspace = CachedWorkspace(files)
    return analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset_id]), select)


def problems(analysis: Analysis) -> list[Diagnostic]:
    return [d for d in analysis.diagnostics if d.severity != "info"]


def _spanned(text: str, span: Span) -> str:
    """The text a one-line ``span`` covers in ``text``."""
    assert span.line == span.end_line
    return text.splitlines()[span.line - 1][span.column - 1 : span.end_column - 1]


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def looms(suppress: str) -> tuple[Analysis, str]:
    text = header("looms", "no-cloth") + suppress + LOOMS
    return analysed("looms", {"rulesets/no-cloth.yaml": BASE, "rulesets/looms.yaml": text}), text


def test_a_suppress_entry_cannot_silence_a_reference_to_what_the_base_removed() -> None:
    """The entry silenced V006 at the base's `remove` line: `validate` and `build` exited 0 and
    the package then failed to import (`AttributeError: CLOTH_MAKING`)."""
    analysis, text = looms('suppress:\n  - {code: V006, reason: "house rule: Looms keeps its prerequisite"}\n')
    assert not analysis.ok
    found = {d.code: d for d in problems(analysis)}
    assert sorted(found) == ["R010", "V006"]
    refusal = found["R010"]
    assert refusal.severity == Severity.ERROR
    assert refusal.message == "V006 cannot be silenced: it makes the ruleset unbuildable, or the file unread"
    assert refusal.span is not None and refusal.span.file == "rules/rulesets/looms.yaml"
    assert refusal.span.line == line_of(text, "{code: V006")
    assert text.splitlines()[refusal.span.line - 1][refusal.span.column - 1 :].startswith("V006")
    assert refusal.hint == "fix the V006 error this entry was written for, then delete the entry"


def test_a_suppress_entry_for_an_unbuildable_error_at_the_variants_own_line_is_refused() -> None:
    """The V006 of the variant's own `remove` is not in a base file: the entry was only "V008
    silences nothing", which did not say that no entry or comment can silence it."""
    text = header("no-medicine", "advanced-civilization") + (
        "suppress:\n  - {code: V006, reason: house rule}\n"
        "overlay:\n  civilization_cards:\n    remove:\n      - {id: medicine, why: house rule}\n"
    )
    found = problems(analysed("no-medicine", {"rulesets/no-medicine.yaml": text}))
    assert sorted(d.code for d in found) == ["R010", "V006"]


def test_a_suppress_entry_refused_where_no_such_error_is_reported_says_so() -> None:
    text = header("quiet", "no-cloth") + "suppress:\n  - {code: X001, reason: drafted}\n"
    (refusal,) = problems(analysed("quiet", {"rulesets/no-cloth.yaml": BASE, "rulesets/quiet.yaml": text}))
    assert refusal.code == "R010"
    assert refusal.hint == "delete the entry: no X001 is reported, and none could be silenced"


BASE_FILE = "rules/rulesets/no-cloth.yaml"


@pytest.mark.parametrize("code", [*sorted(UNBUILDABLE), "L001", "S002"])
def test_a_suppress_entry_refuses_every_code_a_comment_refuses(code: str) -> None:
    """A diagnostic of each code that cannot be silenced, in a base file, named by an entry: it
    stays, and the entry is an error (R010), as a comment naming it is."""
    analysis, _ = looms(f"suppress:\n  - {{code: {code}, reason: drafted}}\n")
    assert analysis.resolved is not None
    error = Diagnostic(code, Severity.ERROR, "`looms` is wrong", Span(BASE_FILE, 8, 9, 8, 20))
    kept = suppress_in_base([error], analysis.resolved)
    assert [d.code for d in kept] == [code, "R010"]
    comment = header("looms", "no-cloth") + f"# civrules: ignore-file[{code}] drafted\n" + LOOMS
    found = analysed("looms", {"rulesets/no-cloth.yaml": BASE, "rulesets/looms.yaml": comment})
    assert "R010" in {d.code for d in found.diagnostics}


def test_a_suppress_entry_naming_no_code_is_told_so_as_a_comment_is() -> None:
    """`Z999` has the shape of a code (the schema lets it pass): the entry was "V008 silences
    nothing", the comment "R020 ... no diagnostic code"."""
    text = header("quiet", "no-cloth") + 'suppress:\n  - {code: Z999, reason: "x"}\n'
    (found,) = problems(analysed("quiet", {"rulesets/no-cloth.yaml": BASE, "rulesets/quiet.yaml": text}))
    assert found.code == "R020" and found.severity == Severity.WARNING
    assert found.message == "`suppress` entry 1 names `Z999`, which is no diagnostic code: it silences nothing"
    assert found.hint == "`civrules explain --list` lists the codes" and found.suggestion is None
    assert found.span is not None and found.span.line == line_of(text, "{code: Z999")
    comment = header("quiet", "no-cloth") + "# civrules: ignore-file[Z999] x\n"
    (told,) = problems(analysed("quiet", {"rulesets/no-cloth.yaml": BASE, "rulesets/quiet.yaml": comment}))
    assert (told.code, told.hint) == (found.code, found.hint)


def test_a_suppress_entry_naming_no_code_is_told_the_code_it_meant() -> None:
    text = header("quiet", "no-cloth") + 'suppress:\n  - {code: A100, reason: "x"}\n'
    (found,) = problems(analysed("quiet", {"rulesets/no-cloth.yaml": BASE, "rulesets/quiet.yaml": text}))
    assert found.code == "R020" and found.hint == "did you mean `A010`?"
    # The editor's quick fix: the code meant, in place of the code as written (the span's text).
    assert found.suggestion == "A010"
    assert found.span is not None and _spanned(text, found.span) == "A100"


def test_a_misspelt_code_is_first_thought_one_of_the_rulesets_family_or_the_cores() -> None:
    """`A011` is as near Sid Meier's `T011` as this family's `A010`: it was told `T011`, which can
    never be reported for an Advanced Civilization variant (V008 when followed). The comment, the
    entry and the family's own code: one rule (round 19)."""
    entry = header("quiet", "no-cloth") + 'suppress:\n  - {code: A011, target: banking, reason: "x"}\n'
    (found,) = problems(analysed("quiet", {"rulesets/no-cloth.yaml": BASE, "rulesets/quiet.yaml": entry}))
    assert (found.code, found.hint, found.suggestion) == ("R020", "did you mean `A010`?", "A010")
    comment = header("quiet", "no-cloth") + "# civrules: ignore-file[A011] x\n"
    (told,) = problems(analysed("quiet", {"rulesets/no-cloth.yaml": BASE, "rulesets/quiet.yaml": comment}))
    assert (told.code, told.hint, told.suggestion) == ("R020", "did you mean `A010`?", "A010")
    # The comment's quick fix replaces the code in the comment, and nothing else of it.
    assert told.span is not None and _spanned(comment, told.span) == "A011"


def test_a_code_of_the_wrong_shape_is_first_thought_one_of_the_manifests_family() -> None:
    """The schema's hint for a code that is no letter and three digits (`a011`) judges it as a
    comment's code is judged, by the manifest's family first (it was told Sid Meier's `T011`)."""
    text = header("quiet", "no-cloth") + 'suppress:\n  - {code: a011, reason: "x"}\n'
    analysis = analysed("quiet", {"rulesets/no-cloth.yaml": BASE, "rulesets/quiet.yaml": text})
    (schema,) = [d for d in analysis.diagnostics if d.code == "S001"]
    assert schema.hint is not None and schema.hint.startswith("did you mean `A010`? (a code is a letter")
    assert schema.suggestion == "A010"  # the editor's quick fix, at the code as written
    assert schema.span is not None and _spanned(text, schema.span) == "a011"


def test_a_code_nearer_another_familys_says_whose_it_is() -> None:
    """`T0111` is nearer Sid Meier's `T011` than any code of the core or of Advanced Civilization:
    the hint suggests the family's own, and names the nearer one with its family, which never
    reports on this ruleset; with nothing of its own near, only the other family's, so named."""
    from civrules.families.code_hints import CodeHints

    sid_meiers = "`T011` is a check of the Sid Meier's Civilization: The Board Game family"
    hint = CodeHints("advanced-civilization").hint("T0111")
    assert hint == (
        f"did you mean `K011`? (nearer, {sid_meiers}: it is never reported for a ruleset of the Advanced "
        "Civilization family)"
    )
    assert CodeHints("sid-meiers-civilization").hint("T0111") == "did you mean `T011`?"
    assert CodeHints("imperial-settlers", cutoff=0.8).hint("T0111") == (
        f"the nearest code, {sid_meiers}: it is never reported for a ruleset of the Imperial Settlers family"
    )
    # The quick fix is the code the hint proposes, and none where it proposes none.
    assert CodeHints("advanced-civilization").meant("T0111") == "K011"
    assert CodeHints("sid-meiers-civilization").meant("T0111") == "T011"
    assert CodeHints("imperial-settlers", cutoff=0.8).meant("T0111") is None


def test_a_hint_proposing_several_codes_offers_no_quick_fix() -> None:
    """With no family (as `civrules explain` asks), codes as close of several owners are each
    proposed: no one of them is the fix."""
    from civrules.families.code_hints import CodeHints

    hints = CodeHints()
    hint = hints.hint("X011")
    assert hint is not None and " or " in hint
    assert hints.meant("X011") is None


RAISED_BRONZE_AGE = (
    "overlay:\n  epochs:\n    patch:\n"
    "      - id: early_bronze_age\n"
    "        requirements: {min_cities: 4, text: Four cities in play., source: house rule}\n"
)


def test_a_suppress_entry_of_a_code_kept_from_running_is_not_judged_unused() -> None:
    """`--select K`: no A010 ran, so the entry cannot have silenced one. A comment's code kept from
    running is not judged (no R021); the entry was "V008 silences nothing"."""
    entry = "suppress:\n  - {code: A010, target: late_bronze_age, reason: the house rule}\n"
    text = header("quiet", "advanced-civilization") + entry + RAISED_BRONZE_AGE
    assert problems(analysed("quiet", {"rulesets/quiet.yaml": text})) == []
    assert problems(analysed("quiet", {"rulesets/quiet.yaml": text}, select=("K",))) == []


def test_a_suppress_entry_with_a_blank_reason_is_not_honoured_as_a_comment_is_not() -> None:
    """`reason: " "` passed (the schema asks for one character): the entry silenced A010. A comment
    whose reason is blank is not honoured, and says so."""
    entry = 'suppress:\n  - {code: A010, target: late_bronze_age, reason: "  "}\n'
    text = header("quiet", "advanced-civilization") + entry + RAISED_BRONZE_AGE
    found = problems(analysed("quiet", {"rulesets/quiet.yaml": text}))
    assert sorted(d.code for d in found) == ["A010", "V008"]
    (unused,) = [d for d in found if d.code == "V008"]
    assert unused.message == "`suppress` entry 1 (A010) silences nothing: an entry without a reason is not honoured"
    assert unused.hint == "give the entry its reason (`reason: why`), or delete it"


#: A change of each family that a check reports at the variant's line, moved there from its base
#: (its code, the base, the overlay and the text of the line the diagnostic is moved to): Q008 and
#: F001 by the check run on the base (:func:`civrules.pipeline.caused_by_the_variant`), A010 by a
#: related place in the variant (:func:`civrules.pipeline.at_the_variant`).
MOVED = {
    "Q008": (
        "sid-meiers-civilization-community",
        "overlay:\n  buildings:\n    patch:\n"
        '      - {id: universidade, upgrade_of: null, source: "house rule: separate university"}',
        "{id: universidade",
    ),
    "F001": (
        "imperial-settlers",
        "overlay:\n  cards:\n    patch:\n"
        '      - {id: bar004, copies: 2, printed_ids: [BAR004, BAR005], source: "house rule: two altars"}',
        "{id: bar004",
    ),
    "A010": (
        "advanced-civilization",
        "overlay:\n  epochs:\n    patch:\n      - id: early_bronze_age\n"
        "        requirements: {min_cities: 4, text: Four cities in play., source: house rule}",
        "min_cities: 4",
    ),
}


def moved(code: str, comment: str = "", suppress: str = "") -> tuple[Analysis, str]:
    """The variant of :data:`MOVED` for ``code``, its moved line ending in ``comment``."""
    base, overlay, _ = MOVED[code]
    text = header("moved", base) + suppress + overlay + comment + "\n"
    return analysed("moved", {"rulesets/moved.yaml": text}), text


@pytest.mark.parametrize("code", sorted(MOVED))
def test_a_diagnostic_moved_to_the_variants_line_is_there_to_silence(code: str) -> None:
    """Comments were judged at the base's place, before the diagnostic moved to the variant: a
    comment on the line it is shown at silenced nothing, and R021 said no such code was reported
    there (round 20)."""
    loud, text = moved(code)
    (found,) = [d for d in problems(loud) if d.code == code]
    assert found.span is not None and found.span.file == "rules/rulesets/moved.yaml"
    assert found.span.line == line_of(text, MOVED[code][2])
    others = sorted(d.code for d in problems(loud) if d.code != code)  # F008 beside F001: not silenced
    quiet, _ = moved(code, f"  # civrules: ignore[{code}] the house rule means it")
    assert sorted(d.code for d in problems(quiet)) == others
    whole, _ = moved(code, suppress=f"# civrules: ignore-file[{code}] the house rule means it\n")
    assert sorted(d.code for d in problems(whole)) == others


def test_a_comment_on_another_line_still_silences_nothing_where_a_diagnostic_moved() -> None:
    """Judged at its final place, a moved diagnostic is not silenced by a comment on the line
    above it, and that comment is told so (R021)."""
    base, overlay, _ = MOVED["A010"]
    line = "      - id: early_bronze_age"
    above = overlay.replace(line, f"{line}  # civrules: ignore[A010] why")
    analysis = analysed("moved", {"rulesets/moved.yaml": header("moved", base) + above + "\n"})
    assert sorted(d.code for d in problems(analysis)) == ["A010", "R021"]
    # the hint names the line the A010 is shown at (it said only to delete the code, round 36)
    (shown,) = [d for d in problems(analysis) if d.code == "A010"]
    (unused,) = [d for d in problems(analysis) if d.code == "R021"]
    assert shown.span is not None and unused.span is not None and shown.span.line == unused.span.line + 1
    assert unused.hint == (
        f"A010 is reported on line {shown.span.line} of this file: move the comment to the end of that line, "
        "or delete `A010` from it"
    )


@pytest.mark.parametrize("code", sorted(MOVED))
def test_a_suppress_entry_still_silences_a_diagnostic_moved_to_the_variant(code: str) -> None:
    """The entry names the base's file, where the check found it: it silences the diagnostic shown
    at the variant's line (as it did while entries were judged before the move)."""
    found = problems(moved(code)[0])
    (base_place,) = [d.related[0].span.file for d in found if d.code == code]
    file = base_place.removeprefix("rules/")
    entry = f"suppress:\n  - {{code: {code}, file: {file}, reason: the house rule means it}}\n"
    others = sorted(d.code for d in found if d.code != code)
    assert sorted(d.code for d in problems(moved(code, suppress=entry)[0])) == others


def test_a_suppress_entry_for_a_diagnostic_of_the_variants_own_line_says_to_write_a_comment() -> None:
    """A name the variant's patch gives twice (I002) is reported at the variant's own line, which no
    entry silences: V008's hint was "correct its `code`, `file` or `target`"; it names the line the
    diagnostic is reported at and the comment that silences it there."""
    body = (
        "overlay:\n  civilization_cards:\n    patch:\n      - {id: pottery, name: Cloth Making, source: house rule}\n"
    )
    entry = "suppress:\n  - {code: I002, reason: the house rule renames it}\n"
    text = header("renamed", "advanced-civilization") + entry + body
    found = problems(analysed("renamed", {"rulesets/renamed.yaml": text}))
    assert sorted(d.code for d in found) == ["I002", "V008"]
    (unused,) = [d for d in found if d.code == "V008"]
    line = line_of(text, "name: Cloth Making")
    assert unused.hint == (
        f"I002 is reported in this variant's own file, on line {line}: silence it there with "
        "`# civrules: ignore[I002] why` at the end of that line, and delete the entry"
    )


def test_the_diagnostics_of_suppressions_past_what_a_file_lists_are_counted_not_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A comment names a code in seven bytes; each unknown one was a warning made in full (a
    million of them from a 6.9 MB file: 12 s, 683 MB) though a file lists 100. Past
    ``--max-diagnostics`` of a severity in a file, comments' codes (R020, R021, R010) and
    `suppress:` entries (R020, V008, R010) are counted: what is listed is the same, and one R011
    counts the rest."""
    import civrules.pipeline.suppression as pipeline
    from civrules.diagnostics import Summary, cap_per_file
    from civrules.load.reader import Limits

    n, limit = 30, 10
    codes = ",".join(f"Z{i:03d}" for i in range(n))
    comments = f"# civrules: ignore-file[{codes}] kept\n# civrules: ignore-file[I002,K001] kept\n" + "".join(
        f"# civrules: ignore-file[S001] kept {i}\n" for i in range(n)
    )
    entries = "suppress:\n" + "".join(
        f"  - {{code: {code}, reason: kept}}\n" for i in range(n) for code in (f"Y{i:03d}", "K001", "S001")
    )
    text = header("looms", "no-cloth") + comments + entries + LOOMS
    files = {"rulesets/no-cloth.yaml": BASE, "rulesets/looms.yaml": text}
    made = 0
    refusal = pipeline.Judge.refusal

    def counted(judge: pipeline.Judge, suppression: pipeline.Suppression, hides: bool) -> Diagnostic | None:
        nonlocal made
        found = refusal(judge, suppression, hides)
        made += found is not None
        return found

    def analysed_within(bound: int) -> list[Diagnostic]:
        workspace = CachedWorkspace(files, Limits(max_diagnostics=bound))
        loaded = workspace.load_ruleset(workspace.manifests()["looms"])
        return analyse(workspace, loaded).diagnostics

    monkeypatch.setattr(pipeline.Judge, "refusal", counted)
    every = analysed_within(100_000)
    assert made == 4 * n  # R020 and R010 of the comments, and of the entries
    made = 0
    bounded = analysed_within(limit)
    assert made <= 4 * limit  # R020 and R010, the comments' and the entries' in one file: a limit of each
    listed = cap_per_file(bounded, limit)
    assert listed == cap_per_file(every, limit)
    hidden = sum(d.hidden for d in listed if isinstance(d, Summary))
    assert hidden + sum(not isinstance(d, Summary) for d in listed) == len(every)


#: A variant whose patch sets an action's field to the value it has (V013, told by the resolver at
#: the patch's line), the line ending in a comment.
NO_OP = (
    "overlay:\n  actions:\n    patch:\n      - id: raze_opponent_location\n"
    "        becomes: foundation{comment}\n        rule: p9/transformando-um-local-em-uma-fundacao\n"
)


@pytest.mark.parametrize("code", ["V013", "A010"])
def test_a_comment_without_a_reason_on_the_reported_line_is_told_it_gives_none(code: str) -> None:
    """A comment with no reason on the line its code is reported at (a resolver's V013, a check's
    A010 moved to the variant's line) is not honoured, as any is not: R021 said "no V013 is
    reported on this line" beside the V013 of that line, and the designer looked for another
    line (round 36)."""
    comment = f"  # civrules: ignore[{code}]"
    if code == "V013":
        text = header("no-op", "imperial-settlers") + NO_OP.format(comment=comment)
        analysis = analysed("no-op", {"rulesets/no-op.yaml": text})
    else:
        analysis, text = moved(code, comment)
    found = problems(analysis)
    assert sorted(d.code for d in found) == sorted([code, "R021"])
    (kept,) = [d for d in found if d.code == code]
    (told,) = [d for d in found if d.code == "R021"]
    assert kept.span is not None and told.span is not None and told.span.line == kept.span.line
    said = f"`# civrules: ignore[{code}]` is not honoured: it gives no reason, and the {code} on this line stays"
    assert told.message == said
    assert told.hint == f"give the reason: `# civrules: ignore[{code}] why`"
