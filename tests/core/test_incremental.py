"""The incremental core: a session's diagnostics after any edits equal a full run from scratch."""

from __future__ import annotations

import dataclasses
import gc
import json
import os
import shutil
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from civrules.checks import ALL_COLLECTIONS, Check
from civrules.checks import catalogue as catalogue_module
from civrules.checks.catalogue import all_checks as catalogue_checks
from civrules.cli import main
from civrules.diagnostics import Diagnostic, Related, Severity, Span, cap_per_file, sort_diagnostics
from civrules.diagnostics.render import diagnostic_record
from civrules.families import families
from civrules.load import Document, Limits, read_yaml_text
from civrules.load.splice import splice_document
from civrules.load.workspace import LoadedFile, Workspace
from civrules.model import Ruleset
from civrules.pipeline import analyse
from civrules.pipeline.incremental import Result, Session, _moved, full_run, invocation, reads_field, unused_files
from civrules.support.commands import invoked
from tests.budget import heavy
from tests.conftest import RULES

#: Advanced Civilization and its western variant: a small tree that exercises `extends`.
KEEP = (
    "rulesets/advanced-civilization.yaml",
    "rulesets/advanced-civilization-western.yaml",
    "cards/advanced-civilization.yaml",
    "cards/advanced-civilization-commodities.yaml",
    "calamities/advanced-civilization.yaml",
    "maps/mediterranean.yaml",
    "maps/western-panel.yaml",
    "rulebooks/advanced-civilization.yaml",
)
BASE, VARIANT = "advanced-civilization", "advanced-civilization-western"


def _slow(*values: object) -> Any:
    """One case of a parametrized test run with the slow tests: each case checks a base and its 12
    variants twice over (0.4-0.5 s of CPU, over a fast test's ceiling: tests/budget.py), so the fast
    suite keeps few of the edit-under-many-variants tests, the others being their cheaper siblings."""
    return pytest.param(*values, marks=heavy)


def copy_subset(target: Path) -> Path:
    for relative in KEEP:
        (target / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(RULES / relative, target / relative)
    return target


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A read-only subset tree shared by the tests that edit only through overlays."""
    return copy_subset(tmp_path_factory.mktemp("incremental") / "rules")


@pytest.fixture(scope="module")
def unedited(tree: Path) -> list[Diagnostic]:
    """A full run over the shared tree as it is on disk (read-only): the diagnostics an edit undone
    comes back to, made once for the tests that compare with it, not once each."""
    return full_run(tree)


@pytest.fixture(scope="module")
def pristine(tree: Path) -> dict[str, LoadedFile]:
    """Every file of the tree read once by a plain workspace (the reference's unchanged files)."""
    workspace = Workspace(tree)
    workspace.manifests()
    for relative in workspace.rule_files():
        workspace.load(relative)
    return dict(workspace._files)


class _Reference(Workspace):
    """A plain workspace (no session) that takes files nobody edited from one pristine reading."""

    def __init__(self, root: Path, overrides: Mapping[str, str], pristine: Mapping[str, LoadedFile]) -> None:
        super().__init__(root, overrides=dict(overrides))
        self.pristine = pristine

    def load(self, relative: str) -> LoadedFile:
        if relative not in self._files and relative not in self.overrides and relative in self.pristine:
            one = self.pristine[relative]
            self._files[relative] = LoadedFile(one.path, one.document, one.kind, list(one.diagnostics))
        return super().load(relative)


def reference(root: Path, overlays: Mapping[str, str], pristine: Mapping[str, LoadedFile]) -> list[Diagnostic]:
    """What a full validate finds, from scratch but for the parse of files nobody edited (the
    commands of its hints naming ``root`` as a session's do)."""
    with invoked(invocation(root, Limits())):
        return _reference(root, overlays, pristine)


def _reference(root: Path, overlays: Mapping[str, str], pristine: Mapping[str, LoadedFile]) -> list[Diagnostic]:
    workspace = _Reference(root, overlays, pristine)
    manifests = workspace.manifests()
    found = list(workspace.discovery_diagnostics)
    loaded = [workspace.load_ruleset(manifests[name]) for name in sorted(manifests)]
    for one in loaded:
        found.extend(analyse(workspace, one).diagnostics)
    found.extend(unused_files(workspace, loaded))
    return sort_diagnostics(found)


# --- random edit sequences -----------------------------------------------------------------------


def _edit(text: str, kind: str, seed: int) -> str:
    lines = text.splitlines(keepends=True)
    at = seed % max(len(lines), 1)
    if kind == "misspell_key":
        keys = [i for i, line in enumerate(lines) if ":" in line and not line.lstrip().startswith("#")]
        if keys:
            i = keys[seed % len(keys)]
            head, colon, tail = lines[i].partition(":")
            lines[i] = head[:-1] + head[-1:] * 2 + colon + tail if head.strip() else lines[i]
    elif kind == "rename_id":
        ids = [i for i, line in enumerate(lines) if "id: " in line]
        if ids:
            i = ids[seed % len(ids)]
            lines[i] = lines[i].replace("id: ", "id: x", 1)
    elif kind == "drop_line":
        del lines[at : at + 1]
    elif kind == "duplicate_line":
        lines[at:at] = lines[at : at + 1]
    elif kind == "break_syntax":
        lines[at:at] = ["  broken: [\n"]
    elif kind in ("move_item", "copy_item"):
        # Cut (or copy) an item of a top-level list and paste it before another item: items moved,
        # ids written twice, or, between lists of two kinds, items where they do not belong.
        starts = [i for i, line in enumerate(lines) if line.lstrip(" ").startswith("- ") and line[:1] in " -"]
        if len(starts) > 1:
            k = seed % (len(starts) - 1)
            block = lines[starts[k] : starts[k + 1]]
            if kind == "move_item":
                del lines[starts[k] : starts[k + 1]]
            to = starts[(seed // 7) % len(starts)]
            to = to if to < starts[k] or kind == "copy_item" else to - len(block)
            lines[to:to] = block
    elif kind == "append_comment":  # only blank and comment lines at the end change: nothing to check
        lines.append(["\n# a comment\n", "\n", "# another\n"][seed % 3])
    elif kind == "append_suppression":  # a comment that silences: the checks' findings change
        lines.append(["# civrules: ignore-file[Q007] waived\n", "# civrules: ignore-file[Q001] waived\n"][seed % 2])
    elif kind == "change_number":
        numbers = [i for i, line in enumerate(lines) if any(c.isdigit() for c in line.partition(":")[2])]
        if numbers:
            i = numbers[seed % len(numbers)]
            lines[i] = lines[i].replace("1", "7", 1).replace("0", "3", 1)
    return "".join(lines)


EDITS = st.lists(
    st.tuples(
        st.sampled_from(KEEP),
        st.sampled_from(
            [
                "misspell_key",
                "rename_id",
                "drop_line",
                "duplicate_line",
                "break_syntax",
                "change_number",
                "move_item",
                "copy_item",
                "append_comment",
                "append_suppression",
                "revert",
            ]
        ),
        st.integers(min_value=0, max_value=10**6),
    ),
    min_size=1,
    max_size=4,
)


def _edit_in_turn(tree: Path, session: Session, edits: list[tuple[str, str, int]]) -> None:
    """``edits`` made in ``session`` one after the other, each checked: intermediate states are
    cached too, and the final one must not reuse a stale one."""
    for relative, kind, seed in edits:
        if kind == "revert":
            session.set_text(relative, None)
            continue
        current = session.overlays.get(relative) or (tree / relative).read_text(encoding="utf-8")
        session.set_text(relative, _edit(current, kind, seed))
        session.update()


def _run_sequence(
    tree: Path, pristine: Mapping[str, LoadedFile], session: Session, edits: list[tuple[str, str, int]]
) -> None:
    _edit_in_turn(tree, session, edits)
    assert session.update().diagnostics == reference(tree, session.overlays, pristine)


@pytest.fixture(scope="module")
def session(tree: Path) -> Session:
    """One session across every example, as an editor keeps it for hours."""
    return Session(tree)


@heavy
@settings(max_examples=3, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(edits=EDITS)
def test_random_edits_give_the_diagnostics_of_a_full_run(
    tree: Path, pristine: dict[str, LoadedFile], session: Session, edits: list[tuple[str, str, int]]
) -> None:
    _run_sequence(tree, pristine, session, edits)


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(edits=EDITS)
def test_random_edits_give_the_diagnostics_of_a_full_run_exhaustively(
    tree: Path, pristine: dict[str, LoadedFile], session: Session, edits: list[tuple[str, str, int]]
) -> None:
    _run_sequence(tree, pristine, session, edits)


# --- what an edit re-reads and re-checks ---------------------------------------------------------


def test_an_edit_rereads_one_file_and_rechecks_only_the_rulesets_that_read_it(tree: Path) -> None:
    session = Session(tree)
    first = session.update()
    assert sorted(first.rechecked) == [BASE, VARIANT]
    again = session.update()
    assert again.reread == [] and again.rechecked == []
    panel = "maps/western-panel.yaml"
    panel_text = (tree / panel).read_text(encoding="utf-8")
    session.set_text(panel, panel_text.replace("    name: Baetica\n", "    name: Baetika\n", 1))
    edited = session.update()
    assert edited.reread == [panel] and edited.rechecked == [VARIANT]
    assert edited.diagnostics == full_run(tree, session.overlays)
    cards = "cards/advanced-civilization.yaml"
    session.set_text(cards, (tree / cards).read_text(encoding="utf-8").replace("cost: 45", "cots: 45", 1))
    edited = session.update()
    assert edited.reread == [cards] and sorted(edited.rechecked) == [BASE, VARIANT]
    assert any(d.code == "S002" for d in edited.diagnostics)


def test_a_file_opened_or_closed_unchanged_checks_nothing_again(tree: Path) -> None:
    """An editor opening a file sends its text: known as ("text", hash) and the file on disk as
    ("bytes", hash), an unchanged file matched no key, so opening it read it again and checked
    every ruleset reading it again (and closing it, again). The text is now known by the bytes it
    would be saved as; the next edit is still spliced into the reading it keeps."""
    session = Session(tree)
    session.update()
    relative = "maps/mediterranean.yaml"
    text = (tree / relative).read_text(encoding="utf-8")
    session.set_text(relative, text)
    opened = session.update()
    assert opened.reread == [] and opened.rechecked == []
    session.set_text(relative, text.replace("    name: Antiochia\n", "    name: Antiocheia\n", 1))
    edited = session.update()
    assert edited.reread == [relative] and edited.spliced == [relative]
    assert edited.diagnostics == full_run(tree, session.overlays)
    session.set_text(relative, text)
    session.update()
    session.set_text(relative, None)
    closed = session.update()
    assert closed.reread == [] and closed.rechecked == []


@pytest.mark.slow  # about 1.5 s of CPU (collections of every version): with the slow tests, which CI runs too
def test_the_versions_of_a_file_an_edit_replaced_are_let_go(tree: Path) -> None:
    """Each edit reads the edited file into a new document (a spliced one copies the node table).
    What the checks make from a document (its citation walk, its Q006 findings) and from a model
    (its credit matrix, prerequisite and map graphs, a collection's memos) was kept by memos that
    held the document or the model: every version of the edited file stayed alive (3 MB an edit of
    the synthetic map at scale 10). Each now goes with what it was made from: after twelve edits,
    the documents of the file alive are the one the session reads and at most one other."""
    session = Session(tree)
    session.update()
    relative = "maps/mediterranean.yaml"
    text = (tree / relative).read_text(encoding="utf-8")
    said = 'unknown: "the named source links these areas'
    assert said in text

    def versions_alive() -> int:
        gc.collect()
        return sum(
            1
            for o in gc.get_objects()
            if isinstance(o, Document)
            and isinstance(o.data, dict)
            and "edit-mark" in json.dumps(o.data.get("borders"), default=str)
        )

    for i in range(12):
        session.set_text(
            relative, text.replace(said, f'unknown: "edit-mark {i}: the named source links these areas', 1)
        )
        edited = session.update()
        assert edited.reread == [relative]
    # Counted once, after the twelfth edit: what is kept accumulates, so a version held by any
    # memo is still alive here (counting after every edit cost twelve walks of the whole heap).
    alive = versions_alive()
    assert alive <= 2, alive


@pytest.mark.slow  # a session of the subset checked twice, and the heap walked: about 2 s of CPU
def test_a_variant_an_edit_broke_is_let_go_with_the_documents_it_read(tmp_path: Path) -> None:
    """The checks' memos of the last ruleset they walked (its citations, and the nodes a variant
    replaced: :mod:`civrules.checks.citations`) held it strongly until another ruleset's checks
    replaced it: a variant an edit then broke (an unknown key in its manifest: checked no more,
    and its base not checked again) stayed alive in the session, its model and the version of
    every file it read before the edit. Now they go with it: the only model alive is the base's,
    and of the variant's manifest, the version the session reads and the one before it."""

    def models_alive() -> dict[int, Ruleset]:
        # A stand-in for a model (civrules.support.tracked) passes isinstance: the model behind it
        # is counted, once, by identity.
        return {
            id(m): m
            for m in (
                o if issubclass(type(o), Ruleset) else object.__getattribute__(o, "_real")
                for o in gc.get_objects()
                if isinstance(o, Ruleset)
            )
        }

    gc.collect()
    # Models an earlier test of this process left are not this session's (held here, so that no
    # model of the session can take one's identity).
    earlier = models_alive()
    rules = copy_subset(tmp_path / "rules")
    manifest = "rulesets/advanced-civilization-western.yaml"
    text = (rules / manifest).read_text(encoding="utf-8")
    session = Session(rules)
    assert sorted(session.update().rechecked) == [BASE, VARIANT]

    def alive() -> tuple[list[str], int]:
        gc.collect()
        objects = gc.get_objects()
        models = sorted(m.id for key, m in models_alive().items() if key not in earlier)
        documents = sum(1 for o in objects if isinstance(o, Document) and isinstance(o.data, dict) and "edit" in o.data)
        return models, documents

    for mark in range(3):
        session.set_text(manifest, f"{text}\nedit: {mark}\n")
        edited = session.update()
        assert edited.rechecked == [VARIANT] and edited.analyses[VARIANT].model is None
        assert any(d.code == "S002" for d in edited.diagnostics)
    session.set_text(manifest, text)  # the version before the edits, no `edit:` key: not counted
    assert session.update().rechecked == [VARIANT]
    session.set_text(manifest, f"{text}\nedit: 4\n")
    session.update()
    models, documents = alive()
    assert models == [BASE] and documents <= 2, (models, documents)


#: The files `make test` appends a comment to, one of each kind a ruleset reads whole (a variant's
#: manifest, a card file, a map); `make test-slow` appends one to every file of the tree.
COMMENTED_FAST = (
    "rulesets/advanced-civilization-western.yaml",
    "cards/advanced-civilization.yaml",
    "maps/mediterranean.yaml",
)


@pytest.mark.parametrize(
    "files",
    [pytest.param(COMMENTED_FAST, id="one-of-each-kind"), pytest.param(KEEP, id="every-file", marks=pytest.mark.slow)],
)
def test_a_comment_appended_checks_nothing_again_and_moves_only_the_ends_of_the_file(
    tree: Path, files: tuple[str, ...]
) -> None:
    """Blank and comment lines at the end of a file change no node's data: every ruleset keeps its
    analysis (its diagnostics are a full run's), and the file's reading is a full read's."""
    session = Session(tree)
    first = session.update()
    for relative in files:
        text = (tree / relative).read_text(encoding="utf-8")
        session.set_text(relative, text + "\n# a comment\n\n")
        edited = session.update()
        assert edited.reread == [relative] and edited.spliced == [relative] and edited.rechecked == []
        assert edited.diagnostics == full_run(tree, session.overlays)
        assert edited.workspace is not None
        document = edited.workspace.load(relative).document
        whole, _ = read_yaml_text(text + "\n# a comment\n\n", document.file if document else relative, Limits())
        assert document is not None and whole is not None
        assert list(document.value_spans.items()) == list(whole.value_spans.items())
        for name in edited.rulesets_using(relative):
            assert edited.analyses[name].model is first.analyses[name].model  # kept, not assembled again
        session.set_text(relative, None)
        assert session.update().rechecked == []


def test_a_suppression_comment_appended_is_checked_again(tree: Path) -> None:
    """A `# civrules:` comment silences what checks find: appended, it is no comment like others."""
    session = Session(tree)
    session.update()
    relative = "rulebooks/advanced-civilization.yaml"
    text = (tree / relative).read_text(encoding="utf-8")
    session.set_text(relative, text + "# civrules: ignore-file[Q001] waived\n")
    edited = session.update()
    assert edited.rechecked == [BASE, VARIANT]
    assert edited.diagnostics == full_run(tree, session.overlays)
    assert any(d.code == "R021" for d in edited.diagnostics), "it silences nothing here: reported"


@pytest.mark.slow  # four updates and two full runs of a base and a variant: 3.7 s
def test_an_unchanged_file_s_suppressions_are_read_once_and_a_rewritten_one_s_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Counted, never timed: each ruleset an edit checks again looked for suppressions in each of
    its own files read from disk again (about 30 reads of unchanged files an update on Mega
    Civilization under ten variants and a chain). A file whose stamp stays is read once; one
    written since is read again, and its comments are those judged (its lines wrongly kept, the
    R021 of the comment taken away would stay)."""
    from bench.incremental import data_edit
    from civrules.support import files

    rules = copy_subset(tmp_path / "rules")
    relative = "rulebooks/advanced-civilization.yaml"
    path = rules / relative
    text = path.read_text(encoding="utf-8")
    path.write_text(text + "# civrules: ignore-file[Q001] waived\n", encoding="utf-8")
    read: Counter[str] = Counter()
    reader = files.read_under

    def counted(root: Path, inside: str, limit: int) -> bytes:
        read[inside] += 1
        return reader(root, inside, limit)

    monkeypatch.setattr(files, "read_under", counted)
    # The files were written just now: a file within a step of its file system's clock is read again
    # at each update (its stamp could hide a second save: files.settled). That rule has its own
    # tests; here every stamp is taken as settled, so the count is of the suppressions' reads alone.
    from civrules.pipeline import incremental

    monkeypatch.setattr(incremental, "settled", lambda found, now: True)
    session = Session(rules)
    first = session.update()
    assert any(d.code == "R021" for d in first.diagnostics)
    other = "cards/advanced-civilization-commodities.yaml"
    edit = data_edit((rules / other).read_text(encoding="utf-8"), 0)  # a name changed: every ruleset checked again
    assert edit is not None
    session.set_text(other, edit)
    read.clear()
    edited = session.update()
    assert BASE in edited.rechecked and read[relative] == 0
    assert edited.diagnostics == full_run(rules, session.overlays)
    path.write_text(text, encoding="utf-8")
    rewritten = session.update()
    assert read[relative] >= 1
    assert rewritten.diagnostics == full_run(rules, session.overlays)
    assert not any(d.code == "R021" for d in rewritten.diagnostics)


def test_a_kept_analysis_moves_the_diagnostics_that_ended_where_the_file_did(tmp_path: Path) -> None:
    """A diagnostic located at a node that ends where the text does ends where the new text does."""
    rules = copy_subset(tmp_path / "rules")
    relative = "maps/western-panel.yaml"
    text = (rules / relative).read_text(encoding="utf-8")
    session = Session(rules)
    first = session.update()
    display = first.files[relative]
    end = len(text.split("\n"))
    related = (Related(Span(display, 2, 1, end, 1), "r"),)
    ending = Diagnostic("M001", Severity.WARNING, "m", Span(display, 1, 1, end, 1), related=related)
    analysis = session._checked[VARIANT].analysis
    analysis.diagnostics.append(ending)
    session.set_text(relative, text + "# a comment\n")
    edited = session.update()
    assert edited.rechecked == []
    moved = [d for d in edited.diagnostics if d.message == "m"]
    assert moved == [
        dataclasses.replace(
            ending, span=Span(display, 1, 1, end + 1, 1), related=(Related(Span(display, 2, 1, end + 1, 1), "r"),)
        )
    ]


@heavy
def test_an_edit_inside_an_item_reads_that_item_again_and_gives_a_full_runs_diagnostics(
    tree: Path, unedited: list[Diagnostic]
) -> None:
    session = Session(tree)
    session.update()
    areas = "maps/mediterranean.yaml"
    text = (tree / areas).read_text(encoding="utf-8")
    renamed = text.replace("    name: Adriatic Sea\n", "    name: Adriatic\n", 1)
    assert renamed != text, "the test's edit must rename the area"
    session.set_text(areas, renamed)
    edited = session.update()
    assert edited.reread == [areas] and edited.spliced == [areas]
    assert edited.diagnostics == full_run(tree, session.overlays)
    # A key misspelt inside an item: the item is judged again, with the located schema error.
    misspelt = renamed.replace("    name: Adriatic\n", "    nmae: Adriatic\n", 1)
    session.set_text(areas, misspelt)
    edited = session.update()
    assert edited.spliced == [areas] and any(d.code == "S002" for d in edited.diagnostics)
    assert edited.diagnostics == full_run(tree, session.overlays)
    # An area's id renamed: what referred to it (the variant, other areas' borders) says so.
    session.set_text(areas, text.replace("  - id: sahara\n", "  - id: sahara_desert\n", 1))
    edited = session.update()
    assert edited.spliced == [areas] and any("`sahara`" in d.message for d in edited.diagnostics)
    assert edited.diagnostics == full_run(tree, session.overlays)
    # Undone: the first reading's diagnostics again.
    session.set_text(areas, None)
    assert session.update().diagnostics == unedited


def test_a_saved_edit_is_spliced_as_a_typed_one(tmp_path: Path) -> None:
    rules = copy_subset(tmp_path / "rules")
    session = Session(rules)
    session.update()
    cards = rules / "cards/advanced-civilization.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("cost: 45", "cost: 46", 1), encoding="utf-8")
    edited = session.update()
    assert edited.spliced == ["cards/advanced-civilization.yaml"]
    assert edited.diagnostics == full_run(rules)


def _count_check_runs(monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[Check]]:
    """The codes of the checks run from now on, in order, each time one runs (a list the caller
    reads and clears), and the catalogue's checks, which every run is of."""
    runs: list[str] = []
    entries = catalogue_checks()

    def counted(entry: Check) -> Check:
        def run(model: object) -> list[Diagnostic]:
            runs.append(entry.code.code)
            return list(entry.run(model))

        return dataclasses.replace(entry, run=run)

    monkeypatch.setattr(catalogue_module, "all_checks", lambda family=None: [counted(e) for e in entries])
    return runs, entries


def test_an_edit_of_the_cards_runs_the_map_checks_only_once_and_reuses_their_findings(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The map checks declare that they read the map's collections only: after a card's cost changes,
    what they found before stands (with a full run's diagnostics), and so does what the card checks
    that read no card's cost found; after a map edit the map checks run."""
    runs, entries = _count_check_runs(monkeypatch)
    session = Session(tree)
    session.update()
    map_checks = {e.code.code for e in entries if e.reads is not None and "areas" in e.read_collections}
    assert map_checks and map_checks <= set(runs)
    cards = "cards/advanced-civilization.yaml"
    text = (tree / cards).read_text(encoding="utf-8")
    runs.clear()
    session.set_text(cards, text.replace("cost: 45", "cost: 145", 1))
    edited = session.update()
    assert edited.spliced == [cards] and sorted(edited.rechecked) == [BASE, VARIANT]
    assert not map_checks & set(runs) and {"C007", "X001"} <= set(runs)
    # C004 reads the cards' credits and groups, not their cost: what it found stands too.
    assert "C004" not in runs
    assert edited.diagnostics == full_run(tree, session.overlays)
    areas = "maps/mediterranean.yaml"
    runs.clear()
    session.set_text(
        areas, (tree / areas).read_text(encoding="utf-8").replace("    name: Adriatic Sea\n", "    name: Adriatic\n", 1)
    )
    edited = session.update()
    # An area's name changed: the map checks that read the areas' names run again, the others
    # (their coasts, their borders) give what they found.
    named = {e.code.code for e in entries if e.reads is not None and reads_field(e.reads, "areas.name")}
    assert edited.spliced == [areas] and named <= set(runs) and "C004" not in runs
    assert not (map_checks - named) & set(runs) and map_checks - named
    assert edited.diagnostics == full_run(tree, session.overlays)


def test_reused_findings_move_with_the_lines_of_the_edited_file() -> None:
    before = "kind: map\nid: m\nareas:\n- id: a\n- id: b\nborders:\n- [a, b]\n"
    after = "kind: map\nid: m\nareas:\n- id: a\n  name: A\n  land: true\n- id: b\nborders:\n- [a, b]\n"
    document, _ = read_yaml_text(before, "m.yaml", Limits())
    assert document is not None
    spliced = splice_document(before, document, after, Limits())
    assert spliced is not None and spliced.lines == (4, 5, 2)
    border = Diagnostic(
        "M001", Severity.ERROR, "m", Span("m.yaml", 7, 1, 7, 8), related=(Related(Span.at("x.yaml", 7), "x"),)
    )
    kind = Diagnostic("M001", Severity.ERROR, "m", Span("m.yaml", 1, 1, 1, 5))
    assert _moved([border, kind], "m.yaml", spliced) == [
        dataclasses.replace(border, span=Span("m.yaml", 9, 1, 9, 8)),
        kind,
    ]
    area = Diagnostic(
        "M001", Severity.ERROR, "m", Span("x.yaml", 1, 1, 1, 2), related=(Related(Span.at("m.yaml", 5), "b"),)
    )
    assert _moved([border, area], "m.yaml", spliced) is None  # located in an item read again: run again


def test_a_change_to_a_base_shows_in_its_variant(tree: Path) -> None:
    session = Session(tree)
    session.update()
    areas = "maps/mediterranean.yaml"
    text = (tree / areas).read_text(encoding="utf-8")
    renamed = text.replace("  - id: sahara\n", "  - id: sahara_desert\n", 1)
    assert renamed != text, "the test's edit must rename the area"
    session.set_text(areas, renamed)
    result = session.update()
    # The variant patches Sahara and names it as a start area: both now point at nothing.
    variant = result.by_file()[result.files[f"rulesets/{VARIANT}.yaml"]]
    assert any(d.code in {"V005", "X001"} and "`sahara`" in d.message for d in variant)


def test_saved_files_are_read_again_when_their_content_changes(tmp_path: Path) -> None:
    rules = copy_subset(tmp_path / "rules")
    session = Session(rules)
    session.update()
    cards = rules / "cards/advanced-civilization.yaml"
    text = cards.read_text(encoding="utf-8")
    os.utime(cards)  # touched, not changed: the content hash says so
    assert session.update().reread == []
    cards.write_text(text.replace("cost: 45", "cots: 45", 1), encoding="utf-8")
    edited = session.update()
    assert edited.reread == ["cards/advanced-civilization.yaml"]
    assert edited.diagnostics == full_run(rules)
    (rules / "maps/western-panel.yaml").unlink()
    assert session.update().diagnostics == full_run(rules)


def test_a_file_saved_twice_within_a_step_of_a_coarse_clock_is_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where a file system keeps times in whole seconds (or FAT's two), a second save within the
    step, of the same size, keeps every field of the stamp: its content was taken as read, and
    the language server and `watch` kept the first save's diagnostics until another save."""
    import time

    from civrules.pipeline import incremental
    from tests.security.helpers import coarse_times

    rules = copy_subset(tmp_path / "rules")
    cards = rules / "cards/advanced-civilization.yaml"
    text = cards.read_text(encoding="utf-8")
    coarse_times(monkeypatch, incremental, "stat", cards, time.time_ns())
    session = Session(rules)
    session.update()
    cards.write_text(text.replace("cost: 45", "cots: 45", 1), encoding="utf-8")  # the same size
    edited = session.update()
    assert edited.reread == ["cards/advanced-civilization.yaml"]
    assert edited.diagnostics == full_run(rules)
    # Once the times are a step behind the clock, the stamp is trusted: nothing read again.
    coarse_times(monkeypatch, incremental, "stat", cards, time.time_ns() - 3_000_000_000)
    session.update()
    assert session.update().reread == []


@pytest.mark.slow  # whole builds (or validations) of a ruleset: seconds under load; a fast case guards it
def test_a_file_saved_twice_on_a_file_system_whose_clock_is_ahead_is_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file system whose clock is ahead of this machine's (a network share whose server's clock
    is off, a clock set back since) gives a save a time in the future. Such a time was judged
    settled ("far from now"), so two same-size saves within one coarse step kept the stamp and the
    second was taken as read. A time not yet a step in the past is never trusted."""
    import time

    from civrules.pipeline import incremental
    from tests.security.helpers import coarse_times

    rules = copy_subset(tmp_path / "rules")
    cards = rules / "cards/advanced-civilization.yaml"
    text = cards.read_text(encoding="utf-8")
    coarse_times(monkeypatch, incremental, "stat", cards, time.time_ns() + 3_600_000_000_000)
    session = Session(rules)
    session.update()
    cards.write_text(text.replace("cost: 45", "cots: 45", 1), encoding="utf-8")  # the same size, the same time
    edited = session.update()
    assert edited.reread == ["cards/advanced-civilization.yaml"]
    assert edited.diagnostics == full_run(rules)


def test_a_full_run_is_what_validate_prints(tree: Path) -> None:
    runner = CliRunner()
    printed = runner.invoke(main, ["--rules", str(tree), "validate", "--format", "json"])
    assert printed.exit_code in (0, 1), printed.output
    records = json.loads(printed.stdout)
    # The hints' commands repeat the invocation's `--rules` (civrules.support.commands).
    with invoked(["--rules", str(tree), "validate", "--format", "json"]):
        found = cap_per_file(Session(tree).update().diagnostics, Limits().max_diagnostics)
    assert records == [diagnostic_record(d) for d in found]


def test_a_session_of_named_rulesets_is_what_validate_of_them_prints(tree: Path) -> None:
    printed = CliRunner().invoke(main, ["--rules", str(tree), "validate", VARIANT, "--format", "json"])
    assert printed.exit_code in (0, 1), printed.output
    with invoked(["--rules", str(tree), "validate", VARIANT, "--format", "json"]):
        result = Session(tree).update([VARIANT])
    found = cap_per_file(result.diagnostics, Limits().max_diagnostics)
    assert json.loads(printed.stdout) == [diagnostic_record(d) for d in found]
    assert result.rechecked == [VARIANT]


def test_a_file_too_large_to_read_is_judged_again_when_it_grows(tmp_path: Path) -> None:
    rules = copy_subset(tmp_path / "rules")
    limits = Limits(max_bytes=200_000)  # the rule index (105 KB) is read, a grown panel is not
    panel = rules / "maps/western-panel.yaml"
    panel.write_text(panel.read_text(encoding="utf-8") + "#" * 200_000 + "\n", encoding="utf-8")
    session = Session(rules, limits)
    first = session.update().diagnostics
    assert first == full_run(rules, limits=limits)
    panel.write_text(panel.read_text(encoding="utf-8") + "#" * 1_000 + "\n", encoding="utf-8")
    again = session.update().diagnostics
    assert again == full_run(rules, limits=limits)
    sizes = [[d.message for d in found if d.code == "L007"] for found in (first, again)]
    assert sizes[0] and sizes[1] and sizes[0] != sizes[1]  # the message gives the new size


def test_an_edit_walks_the_references_of_only_the_entities_it_read_again(
    tree: Path, unedited: list[Diagnostic], monkeypatch: pytest.MonkeyPatch
) -> None:
    """X001's reference walk is remembered per entity by a session: after an area's edit only the
    new entities (the area in the base and in the variant) are walked, with a full run's diagnostics."""
    from civrules.schema import references as references_module

    walked: list[object] = []
    real = references_module.find_references

    def counted(schema: object, nodes: object, value: object, **options: bool) -> object:
        walked.append(value)
        return real(schema, nodes, value, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(references_module, "find_references", counted)
    session = Session(tree)
    session.update()
    assert len(walked) > 100
    areas = "maps/mediterranean.yaml"
    text = (tree / areas).read_text(encoding="utf-8")
    walked.clear()
    session.set_text(areas, text.replace("  - id: sahara\n", "  - id: sahara_desert\n", 1))
    edited = session.update()
    assert edited.spliced == [areas] and any("`sahara`" in d.message for d in edited.diagnostics)
    # the entities walked (the settings, a few values of the manifest, are walked each time)
    entities = [one for one in walked if isinstance(one, dict) and "id" in one]
    assert 1 <= len(entities) <= 2 and all(one["id"] == "sahara_desert" for one in entities)
    assert edited.diagnostics == full_run(tree, session.overlays)
    # Undone: the first reading's entities are walked again (the memo let them go), the same diagnostics.
    session.set_text(areas, None)
    assert session.update().diagnostics == unedited


def test_the_reference_memo_answers_what_a_walk_finds_and_lets_go_of_what_is_not_asked_for() -> None:
    from civrules.schema.references import Remembered, find_references, references_in, remembering

    schema = {"$defs": {"id": {"type": "string"}}}
    node = {"type": "object", "properties": {"card": {"x-civrules-ref": {"collection": "c", "what": "w"}}}}
    one, two = {"card": "astronomy"}, {"card": "law"}
    memo = Remembered()
    with remembering(memo):
        assert list(references_in(schema, (node,), one)) == list(find_references(schema, (node,), one))
        assert references_in(schema, (node,), one) is references_in(schema, (node,), one)
    assert list(references_in(schema, (node,), two)) == list(find_references(schema, (node,), two))
    assert len(memo) == 1  # outside the block nothing is remembered
    memo.next_round()
    with remembering(memo):
        references_in(schema, (node,), two)
    assert len(memo) == 1
    memo.next_round()  # `one` was not asked for in the last round: let go now
    assert len(memo) == 0


def test_settle_collects_and_freezes_what_survives() -> None:
    import gc

    from civrules.support.collector import settle

    try:
        settle()
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


@pytest.mark.parametrize("after", [None, 0.0])
def test_the_language_server_settles_the_collector_when_idle_only_in_its_own_process(
    tree: Path, unedited: list[Diagnostic], monkeypatch: pytest.MonkeyPatch, after: float | None
) -> None:
    """`civrules lsp` (serve) sets `settle_after`; a server made in another program's process
    (None, the default) never touches the collector."""
    import asyncio

    from civrules.lsp import server as server_module

    settled: list[None] = []
    monkeypatch.setattr(server_module, "settle", lambda: settled.append(None))
    server = server_module.create_server(tree)
    server.settle_after = after
    (folder,) = server.start(None)
    published: list[object] = []
    monkeypatch.setattr(folder, "publish", published.append)  # no editor connected to publish to

    async def run() -> None:
        server.schedule()
        assert folder._task is not None
        await folder._task
        await asyncio.sleep(0.05)

    asyncio.run(run())
    assert len(published) == 1 and server.result is not None and server.result.diagnostics == unedited
    assert len(settled) == (0 if after is None else 1)


def test_the_idle_collection_waits_for_a_second_of_silence_after_any_message(tree: Path) -> None:
    """The collection after a publication was scheduled a second from the publication: it could
    start just before a request, which then waited for it (a hover repeated after a second took
    0.95 s at scale 100). Every message that arrives now puts it off to a second after itself
    (read from the loop's schedule, not timed)."""
    import asyncio

    from civrules.lsp import server as server_module
    from civrules.lsp.transport import CivrulesProtocol

    server = server_module.create_server(tree)
    server.settle_after = 1.0
    heard: list[str] = []
    protocol = server.protocol
    assert isinstance(protocol, CivrulesProtocol)

    async def run() -> None:
        loop = asyncio.get_running_loop()
        protocol.handle_message(protocol._structure(NOTE))  # nothing to put off yet
        assert server._settling is None
        server._settle_later()  # as after a publication
        first = server._settling
        assert first is not None
        await asyncio.sleep(0.02)
        protocol.handle_message(protocol._structure(NOTE))
        later = server._settling
        assert later is not None and later is not first and first.cancelled()
        assert later.when() >= loop.time() + 0.99 - 0.01 and later.when() > first.when()
        heard.append("put off")
        later.cancel()

    asyncio.run(run())
    assert heard == ["put off"]


#: A notification the server takes whatever its state: a change of watched files that lists none.
NOTE = {"jsonrpc": "2.0", "method": "workspace/didChangeWatchedFiles", "params": {"changes": []}}


def test_an_edit_walks_for_citations_only_the_entries_it_read_again(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Q001/Q006/Q007's walk of a document is made entry by entry; a session walks again only the
    entries an edit read again (the rest are the same objects), with a full run's diagnostics."""
    from civrules.checks import citations as citations_module

    walked: list[object] = []
    real = citations_module._walk_node

    def counted(node: object, at: tuple[str | int, ...] = ()) -> object:
        if isinstance(node, dict) and not at:
            walked.append(node)
        return real(node, at)

    monkeypatch.setattr(citations_module, "_walk_node", counted)
    session = Session(tree)
    session.update()
    areas = "maps/mediterranean.yaml"
    text = (tree / areas).read_text(encoding="utf-8")
    for name in ("Adriatic", "Adriatic Sea."):
        session.set_text(areas, text.replace("    name: Adriatic Sea\n", f"    name: {name}\n", 1))
        walked.clear()
        edited = session.update()
        assert [one.get("id") for one in walked if isinstance(one, dict)] == ["adriatic_sea"]
        assert edited.spliced == [areas] and edited.diagnostics == full_run(tree, session.overlays)


def test_the_citation_walk_split_by_entry_is_the_walk_in_one_piece() -> None:
    """A session's walk (entry by entry, remembered) finds what the command line's finds, in order."""
    from civrules.checks.citations import _walk, _walk_node
    from civrules.schema.references import Remembered, remembering
    from tests.rulefiles import CachedWorkspace

    workspace = CachedWorkspace()  # the shipped documents as read once per process: the walks only read them
    memo = Remembered()
    for relative in workspace.rule_files():
        document = workspace.load(relative).document
        if document is None:
            continue
        whole = _walk(document)
        assert whole == _walk_node(document.data)
        with remembering(memo):
            assert _walk(document) == whole, relative
            assert _walk(document) == whole, relative  # from the memo


# --- models assembled per collection -------------------------------------------------------------


def test_a_model_is_reused_only_for_the_same_entries_in_the_same_documents() -> None:
    """The failing counterparts: an entry whose data is another object, or whose origin is equal
    but in another reading of its file, is assembled again; outside a session nothing is kept."""
    from civrules.load import Document
    from civrules.model import Origin
    from civrules.model.assembly import Assembled, assembles, assembling

    @dataclasses.dataclass
    class Entry:
        origin: Origin
        raw: dict[str, str]

    @dataclasses.dataclass
    class Resolved:
        collections: dict[str, list[Entry]]

    built: list[object] = []

    @assembles("things")
    def build(resolved: Resolved) -> tuple[object, ...]:
        built.append(resolved)
        return tuple(entry.raw["id"] for entry in resolved.collections["things"])

    document = Document("f.yaml", {})
    raw = {"id": "a"}
    one = Resolved({"things": [Entry(Origin(document, ("things", 0)), raw)]})
    memo = Assembled()
    with assembling(memo):
        made = build(one)
        assert build(Resolved({"things": [Entry(Origin(document, ("things", 0)), raw)]})) is made
        assert (memo.made, memo.reused) == (1, 1)
        assert build(Resolved({"things": [Entry(Origin(document, ("things", 0)), {"id": "a"})]})) is not made
        reread = Document("f.yaml", {})
        assert Origin(reread, ("things", 0)) == one.collections["things"][0].origin  # equal, elsewhere
        assert build(Resolved({"things": [Entry(Origin(reread, ("things", 0)), raw)]})) is not made
        assert build(Resolved({"things": [Entry(Origin(document, ("things", 1)), raw)]})) is not made
        assert build(Resolved({"things": []})) is not made
    assert (memo.made, memo.reused) == (5, 1)
    count = len(built)
    build(one)
    build(one)
    assert len(built) == count + 2  # no memo installed: built every time, as the command line does
    memo.next_round()
    memo.next_round()  # `one` was not asked for in the last round: let go now
    with assembling(memo):
        build(one)
    assert memo.reused == 1 and len(built) == count + 3


def test_a_model_of_one_entry_is_reused_where_that_entry_is_the_same() -> None:
    """`each` gives back the model made of an entry that is the same object in the same place, and
    makes it again where the data is another object or the origin is in another reading; outside
    a session every entry's model is made."""
    from civrules.load import Document
    from civrules.model import Origin
    from civrules.model.assembly import Assembled, assembling, each

    made: list[str] = []

    def build(origin: Origin, raw: dict[str, str]) -> tuple[str, Origin]:
        made.append(raw["id"])
        return raw["id"], origin

    document, reread = Document("f.yaml", {}), Document("f.yaml", {})
    a, b = {"id": "a"}, {"id": "b"}
    memo = Assembled()
    with assembling(memo):
        first = each(build, [(Origin(document, ("x", 0)), a), (Origin(document, ("x", 1)), b)])
        # `b` read again (another object, equal data), `a` the same: only `b` is made again.
        second = each(build, [(Origin(document, ("x", 0)), a), (Origin(document, ("x", 1)), {"id": "b"})])
        assert second[0] is first[0] and second[1] is not first[1]
        # the same data in a new reading of its file: made again (its spans are the new reading's)
        third = each(build, [(Origin(reread, ("x", 0)), a)])
        assert third[0] is not first[0] and third[0][1].document is reread
    assert made == ["a", "b", "b", "a"]
    assert (memo.entities_made, memo.entities_reused) == (4, 1)
    each(build, [(Origin(document, ("x", 0)), a)])
    assert made[-1] == "a" and len(made) == 5  # no memo installed: made again


#: Editor buffers under `rules/` that `validate` never reads: the project's own README, a note, a
#: file whose suffix is not lower-case (R015 says it is not read), a folder named like a rule file.
NOT_RULE_FILES = {
    "README.md": "# Rule data\n\n...\nnot yaml: [\n",
    "notes/todo.txt": "remember: check 16.4\n",
    "cards/extra.YAML": "kind: civilization_cards\ncards:\n  - id: foo\n    cots: 3\n",
    "cards/extra.Yml": "kind: civilization_cards\ncards:\n  - id: foo\n    cots: 3\n",
}


def test_a_buffer_validate_would_not_read_gets_no_rule_file_diagnostics(tmp_path: Path) -> None:
    root = copy_subset(tmp_path / "rules")
    (root / "README.md").write_text(NOT_RULE_FILES["README.md"], encoding="utf-8")
    (root / "cards/extra.YAML").write_text(NOT_RULE_FILES["cards/extra.YAML"], encoding="utf-8")
    on_disk = full_run(root)
    # What `validate` says of these files: R015 for the `.YAML` on disk, and nothing else.
    assert [(d.code, d.span.file if d.span else None) for d in on_disk if "extra" in str(d.span)] == [
        ("R015", (root / "cards/extra.YAML").as_posix())
    ]
    assert full_run(root, NOT_RULE_FILES) == on_disk
    workspace = Workspace(root, overrides=dict(NOT_RULE_FILES))
    assert not set(NOT_RULE_FILES) & set(workspace.rule_files())
    assert not any(workspace.has_rule_file(relative) for relative in NOT_RULE_FILES)
    session = Session(root)
    for relative, text in NOT_RULE_FILES.items():
        session.set_text(relative, text)
    assert session.update().diagnostics == on_disk


def test_a_buffer_behind_a_link_is_no_rule_file_and_a_new_one_is(tmp_path: Path) -> None:
    root = copy_subset(tmp_path / "rules")
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / "linked").symlink_to(outside, target_is_directory=True)
    text = "kind: civilization_cards\ncards:\n  - id: foo\n    cots: 3\n"
    overrides = {"linked/cards.yaml": text, "new/folder/cards.yaml": text}
    workspace = Workspace(root, overrides=overrides)
    assert not workspace.has_rule_file("linked/cards.yaml")
    assert "linked/cards.yaml" not in workspace.rule_files()
    # An unsaved buffer in a folder not made yet is a rule file, as the file would be once saved.
    assert workspace.has_rule_file("new/folder/cards.yaml")
    assert "new/folder/cards.yaml" in workspace.rule_files()
    # A manifest naming a path through the link is refused, buffer or not, as `validate` refuses it.
    assert workspace.check_path("linked/cards.yaml") == Workspace(root).check_path("linked/cards.yaml")
    assert workspace.check_path("linked/cards.yaml") is not None


# --- a variant's overlay entries -------------------------------------------------------------------

#: A variant adding cards in its overlay and patching two of its base's (issue 32, point 4: an edit of
#: one added card re-read, re-resolved and re-judged all of them).
ADDED = 30
OVERLAID = "rulesets/big.yaml"


def _overlaid(rules: Path, added: int = ADDED) -> str:
    lines = ["kind: ruleset", "id: big", "name: Big", "extends: advanced-civilization", "overlay:"]
    lines += ["  civilization_cards:", "    add:"]
    lines += [
        f'      - {{id: card{i}, name: Card {i}, rule: "32.21", groups: [crafts], cost: {45 + i}, prerequisites: [], '
        f'attributes: [], credits: [{{group: crafts, points: 10, rule: "32.212"}}]}}'
        for i in range(added)
    ]
    lines += ["    patch:", '      - {id: pottery, cost: 50, source: "house rule"}']
    lines += ['      - {id: mining, cost: 190, source: "house rule"}']
    text = "\n".join(lines) + "\n"
    (rules / OVERLAID).write_text(text, encoding="utf-8")
    return text


def _overlay_edits(tmp_path: Path, every: bool) -> None:
    """An edit inside one entry of a variant's `overlay:` is spliced into the manifest's reading
    (its lists are below the top), and only that entry is judged against its schema and walked for
    citations again; every state gives the diagnostics of a full run. Counted, never timed. With
    ``every``, also a card broken and fixed, one added, one removed, and the edits undone."""
    from civrules.checks.citations import _walk_node
    from civrules.checks.disagreements import _owners
    from civrules.resolve import SchemaBudget, _merged

    judged = SchemaBudget.judge

    rules = copy_subset(tmp_path / "rules")
    text = _overlaid(rules)
    session = Session(rules)
    session.update()
    made = session._references.made
    assert made[judged] >= ADDED + 2

    def edit(new: str) -> tuple[Result, dict[object, int]]:
        assert new != session.overlays.get(OVERLAID, text), "the test's edit must change the manifest"
        before = dict(made)
        session.set_text(OVERLAID, new)
        result = session.update()
        assert result.spliced == [OVERLAID] and "big" in result.rechecked
        assert result.diagnostics == full_run(rules, session.overlays)
        walks = (judged, _walk_node, _merged, _owners)
        return result, {walk: made[walk] - before.get(walk, 0) for walk in walks}

    renamed = text.replace("name: Card 7,", "name: Card Seven,", 1)
    _, work = edit(renamed)
    assert work == {judged: 1, _walk_node: 1, _merged: 0, _owners: 1}
    if every:
        broken = renamed.replace("cost: 52,", 'cost: "fifty-two",', 1)
        line = broken[: broken.index("fifty-two")].count("\n") + 1
        result, work = edit(broken)
        assert any(d.code.startswith("S") and d.span is not None and d.span.line == line for d in result.diagnostics)
        assert work[judged] == 1
        renamed = broken.replace('cost: "fifty-two",', "cost: 53,", 1)
        result, work = edit(renamed)
        assert work[judged] == 1
        assert not any(d.span is not None and d.span.line == line for d in result.diagnostics)
    patched = renamed.replace("{id: pottery, cost: 50,", "{id: pottery, cost: 55,", 1)
    _, work = edit(patched)
    # pottery merged, judged and walked again, not mining
    assert work == {judged: 1, _walk_node: 1, _merged: 1, _owners: 1}
    if not every:
        return
    extra = '{id: extra, name: Extra, rule: "32.21", groups: [arts], cost: 80, prerequisites: [], attributes: [], '
    extra += "credits: []}"
    added = patched.replace("      - {id: card12,", f"      - {extra}\n      - {{id: card12,", 1)
    _, work = edit(added)
    assert work[judged] == 3  # the entry and the two it was written between (read again with it)
    removed = "\n".join(line for line in added.split("\n") if "{id: card20," not in line)
    _, work = edit(removed)
    assert work[judged] == 0
    session.set_text(OVERLAID, None)
    assert session.update().diagnostics == full_run(rules)


def test_an_edit_inside_an_overlay_entry_judges_only_that_entry_with_a_full_runs_diagnostics(tmp_path: Path) -> None:
    """An added card renamed, a patch changed (`make test-slow`: every kind of edit of an entry)."""
    _overlay_edits(tmp_path, every=False)


@pytest.mark.slow
def test_every_kind_of_edit_inside_overlay_entries_judges_only_what_it_touched(tmp_path: Path) -> None:
    _overlay_edits(tmp_path, every=True)


def test_an_edit_of_an_added_card_reuses_what_the_checks_of_other_collections_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After an edit inside `overlay.civilization_cards`, a check that reads none of the cards (the
    map's) gives what it found before, as after an edit of a card file; one inside an overlay of
    the areas runs them again. A full run's diagnostics each time."""
    runs, entries = _count_check_runs(monkeypatch)
    rules = copy_subset(tmp_path / "rules")
    text = _overlaid(rules) + "  areas:\n    patch:\n      - {id: sahara, name: Great Sahara, source: house rule}\n"
    (rules / OVERLAID).write_text(text, encoding="utf-8")
    session = Session(rules)
    session.update()
    map_checks = {e.code.code for e in entries if e.reads is not None and "areas" in e.read_collections}
    assert map_checks and map_checks <= set(runs)
    runs.clear()
    text = text.replace("cost: 52,", "cost: 152,", 1)
    session.set_text(OVERLAID, text)
    edited = session.update()
    assert edited.spliced == [OVERLAID] and edited.rechecked == ["big"]
    assert not map_checks & set(runs) and {"C007", "X001"} <= set(runs) and "C004" not in runs
    runs.clear()
    session.set_text(OVERLAID, text.replace("name: Great Sahara,", "name: Sahara Erg,", 1))
    edited = session.update()
    named = {e.code.code for e in entries if e.reads is not None and reads_field(e.reads, "areas.name")}
    assert edited.spliced == [OVERLAID] and named <= set(runs) and "C004" not in runs
    assert not (map_checks - named) & set(runs)
    assert edited.diagnostics == full_run(rules, session.overlays)


def test_an_entity_thousands_of_entries_changed_is_compared_for_reuse_without_recursing_per_entry() -> None:
    """A session reuses an entity's model where its origin is the same (model.assembly.same_origin),
    every entry that changed a field compared: a chain of 5,000 entries was compared link by link
    by recursion, past Python's stack (a RecursionError, where the 10,000 patch entries of bench's
    `repeated-patches` are within the documented limits)."""
    from civrules.model import Changers, Origin
    from civrules.model.assembly import same_origin

    document, _ = read_yaml_text("kind: ruleset\nid: r\nname: R\n", "rulesets/r.yaml")
    assert document is not None
    entry = Origin(document, ("overlay",))

    def changed(n: int) -> Origin:
        chain: Changers | None = None
        for _ in range(n):
            chain = (entry, chain)
        assert chain is not None
        return Origin(document, ("cards", 0), changed_by=(("cost", chain),))

    assert same_origin(changed(5_000), changed(5_000))
    assert not same_origin(changed(5_000), changed(4_999))


# --- an edit of one field: the checks that read it run again, and no other -----------------------

#: Edits of one field of one entry, each keeping the files well-formed: (file, text, edited text).
#: Each adds or takes away a finding, or changes what locates one: a name written twice (I002), a
#: card's own prerequisite (a cycle, C001), a cost past what any credit covers, a patch giving the
#: base's value (the value the same, the place that writes it not), a key a patch writes with the
#: base's value, credits doubled, and edits of the base the variant extends (a cost, a name).
FIELD_EDITS: tuple[tuple[str, str, str], ...] = (
    (OVERLAID, "{id: card5, name: Card 5,", "{id: card5, name: Card 3,"),
    (OVERLAID, "cost: 48, prerequisites: [],", 'cost: 48, prerequisites: [{card: card3, rule: "32.21"}],'),
    (OVERLAID, "cost: 52,", "cost: 9052,"),
    (OVERLAID, '{id: pottery, cost: 50, source: "house rule"}', '{id: pottery, cost: 45, source: "house rule"}'),
    (
        OVERLAID,
        '{id: mining, cost: 190, source: "house rule"}',
        '{id: mining, cost: 190, groups: [crafts], source: "house rule"}',
    ),
    (
        OVERLAID,
        "cost: 54, prerequisites: [], attributes: [], credits: [{group: crafts, points: 10,",
        "cost: 54, prerequisites: [], attributes: [], credits: [{group: crafts, points: 20,",
    ),
    ("cards/advanced-civilization.yaml", "    cost: 45\n", "    cost: 145\n"),
    ("cards/advanced-civilization.yaml", "    name: Pottery\n", "    name: Cloth Making\n"),
)


def _toggled(session: Session, rules: Path, which: int) -> str:
    """The file of edit ``which`` with that edit made, or undone where it was made."""
    relative, was, now = FIELD_EDITS[which]
    text = session.overlays.get(relative) or (rules / relative).read_text(encoding="utf-8")
    toggled = text.replace(now, was, 1) if now in text else text.replace(was, now, 1)
    assert toggled != text, f"edit {which} found nothing to change"
    return toggled


def _field_edits(rules: Path, sequence: list[int]) -> None:
    """Each edit of ``sequence`` (an index of :data:`FIELD_EDITS`, made or undone in turn) is
    spliced, and the session then gives what a fresh full run gives."""
    session = Session(rules)
    session.update()
    for which in sequence:
        relative = FIELD_EDITS[which][0]
        session.set_text(relative, _toggled(session, rules, which))
        result = session.update()
        assert result.spliced == [relative], which
        assert result.diagnostics == full_run(rules, session.overlays), which


@heavy
def test_edits_of_one_field_give_the_diagnostics_of_a_full_run(tmp_path: Path) -> None:
    """A finding added (a name written twice), a patch giving the base's value, the base's cost
    changed under its variant (`make test-slow`: random sequences of every edit of
    :data:`FIELD_EDITS`, each made and undone, so findings come and go)."""
    rules = copy_subset(tmp_path / "rules")
    _overlaid(rules)
    _field_edits(rules, [0, 4, 6])


#: A variant whose entries write, one after another, into one element of Pottery's attribute's
#: nested `calamities:` list (each entry's merge into the element the block's own, made in place).
_NESTED_ENTRY = '{id: pottery, source: "house rule", attributes: {patch: [{where: {rule: "32.211"}, with: {calamities: '
NESTED_ELEMENT = (
    "\n".join(
        [
            "kind: ruleset",
            "id: nest",
            "name: Nest",
            "extends: advanced-civilization",
            "overlay:",
            "  civilization_cards:",
            "    patch:",
            "      - "
            + _NESTED_ENTRY
            + '{append: [{calamity: famine, effect: reduces, rule: "30.312", note: n0}]}}}]}}',
            *(
                "      - " + _NESTED_ENTRY + f"{{patch: [{{where: {{note: n0}}, with: {w}}}]}}}}}}]}}}}"
                for w in (
                    '{rule: "30.31"}',
                    '{source: "house rule: a"}',
                    "{effect: reduces}",
                    '{calamity: famine, rule: "30.311"}',
                    "{source: null}",
                    '{rule: ["30.31", "30.312"]}',
                )
            ),
        ]
    )
    + "\n"
)


@pytest.mark.slow  # sixteen updates and as many full runs: about 4 s
def test_edits_of_entries_merged_into_one_nested_element_give_the_diagnostics_of_a_full_run(tmp_path: Path) -> None:
    """Entries each merged into one element of a nested list (the block's merges after the first
    write into the element in place): a citation changed, a key no schema knows written, a
    selector that names nothing, each edit and its undoing spliced, each time what a full run gives."""
    rules = copy_subset(tmp_path / "rules")
    (rules / "rulesets" / "nest.yaml").write_text(NESTED_ELEMENT, encoding="utf-8")
    session = Session(rules)
    session.update()
    text = NESTED_ELEMENT
    for was, now in (
        ('{rule: "30.31"}', '{rule: "30.311"}'),
        ("{effect: reduces}", "{effect: reduces, k: 1}"),
        ('{source: "house rule: a"}', '{source: "house rule: b", note: n1}'),
        ("{source: null}", '{source: "house rule: c"}'),
    ):
        for new in (text.replace(was, now, 1), text):
            assert new != session.overlays.get("rulesets/nest.yaml", NESTED_ELEMENT)
            session.set_text("rulesets/nest.yaml", new)
            result = session.update()
            assert "nest" in result.rechecked, now
            assert result.diagnostics == full_run(rules, session.overlays), now
        text = text.replace(was, now, 1)
        session.set_text("rulesets/nest.yaml", text)
        assert session.update().diagnostics == full_run(rules, session.overlays), now


@pytest.mark.slow
@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(sequence=st.lists(st.integers(min_value=0, max_value=len(FIELD_EDITS) - 1), min_size=1, max_size=8))
def test_random_edits_of_one_field_give_the_diagnostics_of_a_full_run(
    tmp_path_factory: pytest.TempPathFactory, sequence: list[int]
) -> None:
    rules = copy_subset(tmp_path_factory.mktemp("field-edits") / "rules")
    _overlaid(rules)
    _field_edits(rules, sequence)


def test_a_name_typed_in_an_added_card_runs_only_the_checks_that_read_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 32, point 4: a letter of one added card's name changed, the checks of the cards' costs,
    credits, groups and prerequisites (each a walk over every card) give what they found, and those
    that read names (or anything) run again. Counted, never timed."""
    runs, entries = _count_check_runs(monkeypatch)
    rules = copy_subset(tmp_path / "rules")
    text = _overlaid(rules)
    session = Session(rules)
    session.update()
    unnamed = {
        e.code.code
        for e in entries
        if e.reads is not None
        and "civilization_cards" in e.read_collections
        and ALL_COLLECTIONS not in e.reads
        and not reads_field(e.reads, "civilization_cards.name")
    }
    assert {"C001", "C004", "C005", "C006", "C007", "A008"} <= unnamed and unnamed <= set(runs)
    runs.clear()
    session.set_text(OVERLAID, text.replace("name: Card 7,", "name: Card Seven,", 1))
    edited = session.update()
    assert edited.spliced == [OVERLAID] and edited.rechecked == ["big"]
    assert not unnamed & set(runs) and "I002" in runs
    assert edited.diagnostics == full_run(rules, session.overlays)


def test_a_name_typed_in_an_added_card_makes_only_that_cards_model_again(tmp_path: Path) -> None:
    """The other added cards, read again at the same place of the manifest's new reading, keep the
    models made of them (given their new origins); only the one edited is made again. Counted,
    never timed; a full run's diagnostics."""
    rules = copy_subset(tmp_path / "rules")
    text = _overlaid(rules)
    session = Session(rules)
    session.update()
    memo = session.assembled
    made, relocated = memo.entities_made, memo.entities_relocated
    session.set_text(OVERLAID, text.replace("name: Card 7,", "name: Card Seven,", 1))
    edited = session.update()
    assert edited.spliced == [OVERLAID] and edited.rechecked == ["big"]
    assert memo.entities_made - made == 1  # card7
    # the other added cards, and the two patched (their patches' origins in the new reading)
    assert memo.entities_relocated - relocated == ADDED - 1 + 2
    assert edited.diagnostics == full_run(rules, session.overlays)
    card = edited.analyses["big"].model
    assert card is not None
    added = next(one for one in card.collections() if one.name == "civilization_cards").get("card8")
    assert added is not None and added.origin.document is edited.analyses["big"].loaded.manifest.file.document


@heavy
def test_entries_read_again_are_relocated_and_their_references_looked_up_as_often_whatever_their_number(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 32, point 4, counted, never timed: after a letter of one added card's name changed,
    each other added card read again at the same place is relocated to the new reading. Telling
    that an origin is the same place (that card's, and each base entry's the collections kept)
    compared each of the origin's records (changes, replacements, writers ...) one by one, though
    most origins have none: 2,019 comparisons at 30 cards, 2,109 at 60 (three more per card). An
    origin without records is now told at once: only the two patched cards' records are compared
    (6), at either size. X001's step for missing references looked each reference of the cards'
    collection up through the collection (a Python call per reference: 260 at 30 cards, 320 at
    60); it now looks each up in the collection's index, none through it. The diagnostics are a
    full run's at both sizes."""
    from civrules.model import Collection, assembly

    counted: Counter[str] = Counter()
    real_records, real_contains = assembly._same_records, Collection.__contains__

    def records(*args: Any, **kwargs: Any) -> bool:
        counted["records compared"] += 1
        return real_records(*args, **kwargs)

    def contains(self: Collection[Any], item_id: object) -> bool:
        counted["ids looked up through a collection"] += 1
        return real_contains(self, item_id)

    monkeypatch.setattr(assembly, "_same_records", records)
    monkeypatch.setattr(Collection, "__contains__", contains)
    work: list[dict[str, int]] = []
    for added in (30, 60):
        rules = copy_subset(tmp_path / f"rules-{added}")
        text = _overlaid(rules, added)
        session = Session(rules)
        session.update()
        relocated = session.assembled.entities_relocated
        session.set_text(OVERLAID, text.replace("name: Card 7,", "name: Card Seven,", 1))
        counted.clear()
        edited = session.update()
        assert edited.spliced == [OVERLAID] and edited.rechecked == ["big"]
        assert session.assembled.entities_relocated - relocated == added - 1 + 2
        work.append(dict(counted))
        assert edited.diagnostics == full_run(rules, session.overlays)
    small, large = work
    assert large == small, (small, large)
    assert small.get("ids looked up through a collection", 0) == 0, small
    assert small.get("records compared", 0) <= 2 * 3, small  # the two patched cards' records


def test_the_builders_of_one_entry_keep_its_origin_and_read_nothing_else_of_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a session's relocation of an entry's model (:meth:`Assembled.entity`) relies on: every
    builder given to `each` makes, at another origin, the model it made with that origin in place."""
    from civrules.families.advanced_civilization import assemble
    from civrules.model.assembly import each
    from civrules.pipeline import build_model
    from tests.rulefiles import shipped_analysis

    seen: list[tuple[object, Any, Any]] = []

    def recorded(build: Any, entries: Any) -> Any:
        entries = list(entries)
        seen.extend((build, origin, raw) for origin, raw in entries)
        return each(build, entries)

    monkeypatch.setattr(assemble, "each", recorded)
    resolved = shipped_analysis(VARIANT).resolved
    assert resolved is not None
    build_model(resolved)
    assert len({build for build, _, _ in seen}) >= 5
    for build, origin, raw in seen:
        assert callable(build)
        made = build(origin, raw)
        elsewhere = dataclasses.replace(origin, path=(*origin.path, "elsewhere"))
        moved = build(elsewhere, raw)
        assert moved.origin is elsewhere and moved == dataclasses.replace(made, origin=elsewhere), build


def test_a_base_edited_under_a_variant_of_a_variant_rechecks_every_ruleset_of_the_chain(tmp_path: Path) -> None:
    """Three deep: `a` extends `b`, which extends the base. Checking `a` first (rulesets are checked
    in order of their ids) resolved `b` for it, and `b`'s own check reused that resolution without
    reading the base's files again: they were not counted among the files `b` reads, so an edit of
    the base's cards left `b` with what it found before (a reference to a card renamed in the base,
    told by `validate`, was never shown)."""
    rules = copy_subset(tmp_path / "rules")
    base_manifest = (rules / "rulesets" / f"{BASE}.yaml").read_text(encoding="utf-8")
    # `b`: the base's variant, referring to a base card in its overlay (a credit's target).
    (rules / "rulesets" / "b.yaml").write_text(
        "kind: ruleset\nid: b\nname: B\nextends: advanced-civilization\n"
        "overlay:\n  civilization_cards:\n    patch:\n"
        "      - {id: pottery, credits: {append: [{card: agriculture, points: 5, source: a test}]}}\n",
        encoding="utf-8",
    )
    (rules / "rulesets" / "a.yaml").write_text("kind: ruleset\nid: a\nname: A\nextends: b\n", encoding="utf-8")
    assert "id: advanced-civilization" in base_manifest
    session = Session(rules)
    first = session.update()
    assert first.diagnostics == full_run(rules)
    cards = "cards/advanced-civilization.yaml"
    assert cards in first.depends["b"] and cards in first.depends["a"]
    text = (rules / cards).read_text(encoding="utf-8")
    renamed = text.replace("  - id: agriculture\n", "  - id: agriculturx\n", 1)
    assert renamed != text
    session.set_text(cards, renamed)
    after = session.update()
    assert "b" in after.rechecked
    expected = full_run(rules, {cards: renamed})
    told = [d for d in expected if d.code == "X001" and d.span is not None and d.span.file.endswith("/b.yaml")]
    assert told and "`agriculture`" in told[0].message
    assert after.diagnostics == expected


# --- a base under many variants ------------------------------------------------------------------

#: Variants written beside the subset's: empty ones extending the base, one whose overlay reads a
#: base card (a credit's target), and a chain two deep on the western variant (issue 32, point 4:
#: an edit of a base is checked again in each ruleset that extends it).
EXTENDING = {
    "rulesets/plain-1.yaml": "kind: ruleset\nid: plain-1\nname: Plain 1\nextends: advanced-civilization\n",
    "rulesets/plain-2.yaml": "kind: ruleset\nid: plain-2\nname: Plain 2\nextends: advanced-civilization\n",
    "rulesets/reader.yaml": (
        "kind: ruleset\nid: reader\nname: Reader\nextends: advanced-civilization\n"
        "overlay:\n  civilization_cards:\n    patch:\n"
        "      - {id: pottery, credits: {append: [{card: agriculture, points: 5, source: a test}]}}\n"
    ),
    "rulesets/west-1.yaml": "kind: ruleset\nid: west-1\nname: West 1\nextends: advanced-civilization-western\n",
    "rulesets/west-2.yaml": "kind: ruleset\nid: west-2\nname: West 2\nextends: west-1\n",
}

VARIANT_EDITS = st.lists(
    st.tuples(
        st.sampled_from([*KEEP, *EXTENDING]),
        st.sampled_from(["misspell_key", "rename_id", "drop_line", "duplicate_line", "change_number", "revert"]),
        st.integers(min_value=0, max_value=10**6),
    ),
    min_size=1,
    max_size=3,
)


@pytest.fixture(scope="module")
def extended(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The subset tree with :data:`EXTENDING`'s rulesets beside it (read-only: edits are buffers)."""
    rules = copy_subset(tmp_path_factory.mktemp("extended") / "rules")
    for relative, text in EXTENDING.items():
        (rules / relative).write_text(text, encoding="utf-8")
    return rules


@pytest.fixture(scope="module")
def extended_session(extended: Path) -> Session:
    """One session across every example over :func:`extended`, as an editor keeps it."""
    return Session(extended)


def _run_in_extended(tree: Path, session: Session, edits: list[tuple[str, str, int]]) -> None:
    _edit_in_turn(tree, session, edits)
    assert session.update().diagnostics == full_run(tree, session.overlays)


@settings(max_examples=2, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(edits=VARIANT_EDITS)
def test_random_edits_under_many_variants_and_a_chain_give_the_diagnostics_of_a_full_run(
    extended: Path, extended_session: Session, edits: list[tuple[str, str, int]]
) -> None:
    _run_in_extended(extended, extended_session, edits)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(edits=VARIANT_EDITS)
def test_random_edits_under_many_variants_and_a_chain_give_the_diagnostics_of_a_full_run_exhaustively(
    extended: Path, extended_session: Session, edits: list[tuple[str, str, int]]
) -> None:
    _run_in_extended(extended, extended_session, edits)


@pytest.mark.parametrize(
    ("relative", "edit"),
    [
        ("cards/advanced-civilization.yaml", ("  - id: agriculture\n", "  - id: agriculturx\n")),
        _slow("cards/advanced-civilization.yaml", ("name: Pottery", "name: Qottery")),
        _slow("rulesets/advanced-civilization.yaml", ("name: ", "name: Q")),
        _slow("maps/mediterranean.yaml", ("  - id: ", "  - id: x")),
    ],
)
def test_each_edit_of_a_base_and_its_undoing_under_many_variants_give_a_full_runs_diagnostics(
    extended: Path, relative: str, edit: tuple[str, str]
) -> None:
    """An edit of the base, then the edit undone, with every ruleset of :data:`EXTENDING` reading
    the base: the session's diagnostics are a full run's each time, and only the rulesets that read
    the edited file are checked again."""
    session = Session(extended)
    first = session.update()
    readers = set(first.rulesets_using(relative))
    assert {"plain-1", "plain-2", "reader", "west-1", "west-2"} <= readers
    text = (extended / relative).read_text(encoding="utf-8")
    edited = text.replace(*edit, 1)
    assert edited != text
    for target in (edited, text):
        session.set_text(relative, target)
        after = session.update()
        assert after.diagnostics == full_run(extended, session.overlays)
        assert set(after.rechecked) <= readers


@pytest.mark.parametrize(
    ("relative", "edit", "key"),
    [
        (
            f"rulesets/{BASE}.yaml",
            ('      text: "A predetermined time limit', '      text: "A predeterminex time limit'),
            "victory",
        ),
        _slow(
            f"rulesets/{BASE}.yaml",
            ('          note: "16.2 restricts no nation', '          note: "16.2 restrictz no nation'),
            "player_counts",
        ),
        _slow(
            f"rulesets/{BASE}.yaml",
            ("          western_extension: optional\n", "          western_extension: required\n"),
            "player_counts",
        ),
        _slow(f"rulesets/{BASE}.yaml", ("    name: Africa\n", "    name: Afrika\n"), "nations"),
        _slow(
            "maps/mediterranean.yaml",
            (
                '    source: "community/advciv_map_adjacency.csv (lava',
                '    source: "community/advciv_map_adjacency.csv (java',
            ),
            "excluded_borders",
        ),
    ],
)
def test_an_edit_inside_one_setting_runs_again_only_the_checks_that_read_that_setting(
    extended: Path, monkeypatch: pytest.MonkeyPatch, relative: str, edit: tuple[str, str], key: str
) -> None:
    """A value typed inside one setting of the base's manifest (`victory:`, `player_counts:` and
    the collection written inside it) or in a collection it writes (`nations:`), under the variants
    of :data:`EXTENDING`: the checks that read neither that setting, nor any setting, nor every
    collection, give what they found before, in the base and in each variant (every check of every
    ruleset ran again: a manifest's lists other than an overlay's entries were taken for anything);
    the diagnostics are a full run's, edited and undone. So inside a setting a data file writes (a
    map's `excluded_borders:`)."""
    from civrules.checks import SETTINGS, setting

    runs, entries = _count_check_runs(monkeypatch)
    session = Session(extended)
    session.update()
    text = (extended / relative).read_text(encoding="utf-8")
    edited = text.replace(*edit, 1)
    assert edited != text
    family = families()[BASE]
    slot = family.settings.get(key, "ruleset")
    inside = {name for name, spec in family.collections.items() if spec.slot == slot and spec.path[0] == key}
    readers = {
        e.code.code
        for e in entries
        if e.family in (None, BASE)
        and (
            e.reads is None
            or ALL_COLLECTIONS in e.reads
            or SETTINGS in e.reads
            or setting(key) in e.reads
            or bool(e.read_collections & inside)
        )
    }
    others = {e.code.code for e in entries if e.family in (None, BASE)} - readers
    assert others and readers
    for target in (edited, text):
        runs.clear()
        session.set_text(relative, target)
        after = session.update()
        assert after.spliced == [relative]
        assert len(after.rechecked) == 7 and set(runs) <= readers and not others & set(runs)
        assert after.diagnostics == full_run(extended, session.overlays)


def _looked_through(monkeypatch: pytest.MonkeyPatch) -> tuple[list[int], list[int], list[str]]:
    """The identities of the values X001 walks for references and Q008 looks through for
    `disagreements:` (an entity's fields, a setting's value), each time one is, from now on; and
    the names I002 compares."""
    from civrules.checks import disagreements, identity, references
    from civrules.schema.references import references_in

    walked: list[int] = []
    owned: list[int] = []
    real_walk, real_owned = references_in, disagreements._owned

    def walk(schema: Any, nodes: Any, value: Any) -> Any:
        walked.append(id(value))
        return real_walk(schema, nodes, value)

    def looked(data: Any) -> Any:
        owned.append(id(data))
        return real_owned(data)

    named: list[str] = []
    real_slug = identity._slug

    def slug(name: str) -> str:
        named.append(name)
        return real_slug(name)

    monkeypatch.setattr(references, "references_in", walk)
    monkeypatch.setattr(disagreements, "_owned", looked)
    monkeypatch.setattr(identity, "_slug", slug)
    return walked, owned, named


@pytest.mark.parametrize(
    ("relative", "edit"),
    [
        _slow("cards/advanced-civilization.yaml", ("name: Pottery", "name: Qottery")),
        # an id its references name renamed: X001 in the base and every variant, healed when undone
        ("cards/advanced-civilization.yaml", ("  - id: agriculture\n", "  - id: agriculturx\n")),
        _slow("maps/mediterranean.yaml", ("  - id: sahara\n", "  - id: sahara_desert\n")),
        # a value its `disagreements:` entry chose changed: Q008 in every ruleset
        _slow("maps/mediterranean.yaml", ("    open_sea: false\n", "    open_sea: true\n")),
    ],
)
def test_an_edit_of_a_base_looks_through_only_the_collections_and_settings_it_made_anew(
    extended: Path, monkeypatch: pytest.MonkeyPatch, relative: str, edit: tuple[str, str]
) -> None:
    """X001 and Q008 read every entity and setting of a ruleset, I002 every entity's name. After an
    edit of one data file of the base, under the seven rulesets of :data:`EXTENDING`, they looked
    through every entity and setting of each ruleset again (a variant holds its base's very
    collections: seven times each).
    Now what one collection or setting finds is kept while it is the same object (for X001, with
    the same collections its references name): only the entities of the collections the update
    made anew are looked through, once for each collection holding them, and each setting at most
    once; the diagnostics are a full run's, edited and undone."""
    session = Session(extended)
    kept = [c for a in session.update().analyses.values() if a.model is not None for c in a.model.collections()]
    walked, owned, named = _looked_through(monkeypatch)
    text = (extended / relative).read_text(encoding="utf-8")
    edited = text.replace(*edit, 1)
    assert edited != text
    for target in (edited, text):
        walked.clear()
        owned.clear()
        named.clear()
        session.set_text(relative, target)
        after = session.update()
        assert after.spliced == [relative] and len(after.rechecked) == 7
        models = [a.model for a in after.analyses.values() if a.model is not None]
        before = {id(c) for c in kept}
        made = {id(c): c for model in models for c in model.collections() if id(c) not in before}
        fresh = {id(entity.raw) for c in made.values() for entity in c}
        settings = {id(found[0]) for model in models for key in model.setting_origins if (found := model.setting(key))}
        for seen in (walked, owned):
            assert seen and set(seen) <= fresh | settings
            assert sum(1 for one in seen if one in fresh) <= sum(len(c) for c in made.values())
            assert max(Counter(one for one in seen if one in settings).values(), default=0) <= 1
        assert named and len(named) <= sum(len(c) for c in made.values())
        assert after.diagnostics == full_run(extended, session.overlays)
        kept = [c for model in models for c in model.collections()]
    assert not [d for d in session.update().diagnostics if d.code in ("X001", "Q008")]


@pytest.mark.slow
def test_an_edit_of_a_base_s_map_judges_each_map_made_anew_once_whichever_ruleset_asks(
    extended: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The map checks that read the areas and borders alone (M002's border kinds, M005's isolated
    areas, M006's pieces, M010's coasts) and the map's graph are made of those two collections,
    which a variant that leaves its base's map holds as they are. After an area of the base renamed
    under the seven rulesets of :data:`EXTENDING`, each ruleset looked through every border and area
    again (seven graphs, seven times each border's kind judged); now each map made anew is looked
    through once: one graph and one judging of its borders per pair of collections the update
    made, whichever ruleset asks. The diagnostics are a full run's, renamed and given back."""
    from civrules.families.advanced_civilization import mapgraph
    from civrules.families.advanced_civilization.checks import borders
    from civrules.families.advanced_civilization.model import of_family

    shapes: list[int] = []
    judged: list[int] = []
    degrees: list[str] = []
    real_shape, real_degree = mapgraph._shape, mapgraph.MapGraph.degree

    def shape(ruleset: Any) -> Any:
        shapes.append(id(ruleset.borders))
        return real_shape(ruleset)

    class Judged(dict[str, tuple[bool, bool]]):
        """M002's table of what each kind needs, asked once per border judged."""

        def get(self, kind: Any, default: Any = None) -> Any:
            judged.append(1)
            return super().get(kind, default)

    def degree(graph: Any, area: str, kind: Any = "all") -> int:
        degrees.append(area)
        return real_degree(graph, area, kind)

    session = Session(extended)
    first = session.update()
    kept = {id(c) for a in first.analyses.values() if a.model is not None for c in a.model.collections()}
    monkeypatch.setattr(mapgraph, "_shape", shape)
    monkeypatch.setattr(borders, "_FLAGS", Judged(borders._FLAGS))
    monkeypatch.setattr(mapgraph.MapGraph, "degree", degree)
    relative = "maps/mediterranean.yaml"
    text = (extended / relative).read_text(encoding="utf-8")
    renamed = text.replace("  - id: sahara\n", "  - id: sahara_desert\n", 1)
    assert renamed != text
    for target in (renamed, text):
        for counted in (shapes, judged, degrees):
            counted.clear()
        session.set_text(relative, target)
        after = session.update()
        assert after.spliced == [relative] and len(after.rechecked) == 7
        models = [of_family(a.model) for a in after.analyses.values() if a.model is not None]
        maps = {(id(m.areas), id(m.borders)): m for m in models if id(m.areas) not in kept or id(m.borders) not in kept}
        assert maps and len(maps) < len(models)  # variants share their base's map
        assert shapes and len(shapes) <= len(maps)
        assert judged and len(judged) <= sum(len(m.borders) for m in maps.values())
        # M005, M006 and M010 each ask each area's degree once per map made anew
        assert degrees and len(degrees) <= 3 * sum(len(m.areas) for m in maps.values())
        assert after.diagnostics == full_run(extended, session.overlays)
        kept = {id(c) for model in models for c in model.collections()}


@pytest.mark.slow
@pytest.mark.parametrize(
    "edit",
    [
        ("name: Pottery", "name: Qottery"),
        # an id its references name renamed: X001 in the base's file, told from each variant
        ("  - id: agriculture\n", "  - id: agriculturx\n"),
    ],
)
def test_an_edit_of_a_base_asks_nothing_of_each_entity_no_variant_changed_in_each_variant(
    extended: Path, edit: tuple[str, str]
) -> None:
    """A variant holds its base's entries, thousands of them, that no overlay entry changed. After
    an edit of the base, under the seven rulesets of :data:`EXTENDING`, each variant asked of each
    of them: where each of its fields was written (the layer of an entity's fields, for the totals
    a variant may change: `Origin.place`), whether the variant changed it (for the hints that say
    how to change a base's fact from the variant), and whether the entry its base's models were made
    of is the same (comparing the one entry with itself). Now an origin no overlay entry changed is
    known to be written where it is, and the very entries its base's models were made of are known
    the same without a look at each; Q009 looked at each entity for those a variant's overlay
    wrote uncited, and now looks at those an overlay wrote, found once per collection (so does the
    walk of citations, for what a patch wrote over); I001 read each id in each ruleset holding
    it, and now once per collection: counted by the calls made, with the diagnostics a full run's."""
    import sys

    from civrules.model import Origin
    from civrules.pipeline import _changed_by_the_variant

    calls: Counter[str] = Counter()
    compared: list[tuple[int, int]] = []
    keys: list[tuple[int, int]] = []

    def count(frame: Any, event: str, arg: Any) -> None:
        if event != "call":
            return
        name, caller = frame.f_code.co_name, frame.f_back
        if name == "place" and caller is not None and caller.f_code.co_name == "layer":
            origin = frame.f_locals.get("self")
            if isinstance(origin, Origin) and not origin.changes and not origin.earlier_moved:
                calls["place of an unchanged origin"] += 1
        elif name == "file" and caller is not None and caller.f_code.co_name == "_uncited_whole_entities":
            origin = frame.f_locals.get("self")
            if isinstance(origin, Origin) and origin.path[:1] != ("overlay",):
                calls["Q009's look at an entity no overlay wrote"] += 1
        elif name == "_written_over" and caller is not None and caller.f_code.co_name == "superseded":
            origin = frame.f_locals.get("origin")
            if isinstance(origin, Origin) and not origin.changes and len(origin.path) > 1:
                calls["what an unchanged entity wrote over"] += 1
        elif (
            name == "key" and caller is not None and caller.f_code.co_name in ("_repeated_keys", "check_duplicate_ids")
        ):
            keys.append((id(caller.f_locals.get("collection")), id(frame.f_locals.get("self"))))
        elif name == "change_here":
            origin = frame.f_locals.get("origin")
            if isinstance(origin, Origin) and not origin.changes:
                calls["change_here of an unchanged origin"] += 1
        elif (
            name == "same_origin"
            and caller is not None
            and caller.f_back is not None
            and caller.f_back.f_code.co_name == "of"
        ):
            compared.append((hash(caller.f_back.f_locals.get("key")), id(frame.f_locals.get("b"))))
            if frame.f_locals.get("a") is frame.f_locals.get("b"):
                calls["an entry's origin compared with itself"] += 1

    session = Session(extended)
    session.update()
    relative = "cards/advanced-civilization.yaml"
    text = (extended / relative).read_text(encoding="utf-8")
    edited = text.replace(*edit, 1)
    assert edited != text
    for target in (edited, text):
        calls.clear()
        compared.clear()
        keys.clear()
        session.set_text(relative, target)
        sys.setprofile(count)
        try:
            after = session.update()
        finally:
            sys.setprofile(None)
        assert len(after.rechecked) == 7
        assert calls == Counter()
        # an entry read again is compared with the one a model was made of once for each set of
        # entries it is in (a builder's key), by the first ruleset that asks (the base, a variant
        # that adds to it), not again by each variant holding them
        assert max(Counter(compared).values(), default=0) <= 1
        # I001 reads each id of a collection once, whichever ruleset holding the collection asks
        assert keys and max(Counter(keys).values()) <= 1
        assert after.diagnostics == full_run(extended, session.overlays)
    # what each variant changes of its base, asked where a finding is in a base's file
    variants = [a.resolved for a in after.analyses.values() if a.resolved is not None and len(a.resolved.chain) > 1]
    sys.setprofile(count)
    try:
        changed = [list(_changed_by_the_variant(resolved)) for resolved in variants]
    finally:
        sys.setprofile(None)
    assert len(variants) == 6 and any(changed)  # the reader's patch of a card, the western map
    assert calls == Counter()


@pytest.mark.slow
def test_an_edit_of_a_base_runs_each_check_once_for_each_set_of_what_its_findings_are_made_of(extended: Path) -> None:
    """A check whose findings are made of some collections and settings (:func:`civrules.checks.made_of`:
    A008 of the cards, epochs, groups and components, C001 of the cards, each proven by
    `tests/core/test_check_reads.py` to read nothing else of the ruleset) ran in each of the seven
    rulesets of :data:`EXTENDING` after a card of the base renamed, over the very same collections.
    Now it runs once for each set of collections and settings that the rulesets hold, whichever
    ruleset asks first: counted by the calls of each check's own function, renamed and given back,
    with the diagnostics a full run's."""
    import inspect
    import sys

    shared = {inspect.unwrap(entry.run).__code__: entry for entry in catalogue_checks() if entry.made_of is not None}
    frames: dict[str, list[Any]] = {}

    def count(frame: Any, event: str, arg: Any) -> None:
        entry = shared.get(frame.f_code) if event == "call" else None
        if entry is not None and all(frame is not seen for seen in frames.setdefault(entry.code.code, [])):
            frames[entry.code.code].append(frame)  # a generator's frame is called again at each finding

    def made_of(entry: Check, model: Any) -> tuple[object, ...]:
        parts = [getattr(model, name) for name in entry.made_of or ()]
        return tuple(map(id, parts))

    session = Session(extended)
    session.update()
    relative = "cards/advanced-civilization.yaml"
    text = (extended / relative).read_text(encoding="utf-8")
    edited = text.replace("  - id: agriculture\n", "  - id: agriculturx\n", 1)
    assert edited != text
    for target in (edited, text):
        frames.clear()
        session.set_text(relative, target)
        sys.setprofile(count)
        try:
            after = session.update()
        finally:
            sys.setprofile(None)
        assert len(after.rechecked) == 7
        models = [a.model for a in after.analyses.values() if a.model is not None]
        for code in ("A008", "C001", "K009", "K011"):
            (entry,) = [entry for entry in shared.values() if entry.code.code == code]
            held = {made_of(entry, model) for model in models}
            assert 0 < len(frames.get(code, ())) == len(held) < len(models), code
        for code, called in frames.items():
            (entry,) = [entry for entry in shared.values() if entry.code.code == code]
            assert len(called) <= len({made_of(entry, model) for model in models}), code
        assert after.diagnostics == full_run(extended, session.overlays)


class _CountedWalk:
    """A document's walk that notes its document each time its citations are read."""

    def __init__(self, walk: Any, document: Any, looked: list[Any]) -> None:
        self.walk, self.document, self.looked = walk, document, looked

    @property
    def citations(self) -> Any:
        self.looked.append(self.document)
        return self.walk.citations

    @property
    def unknowns(self) -> Any:
        return self.walk.unknowns


@pytest.mark.parametrize(
    ("relative", "edit"),
    [
        _slow("cards/advanced-civilization.yaml", ('rule: "32.264"', 'rule: "32.2649"')),
        _slow("maps/mediterranean.yaml", ("  - id: sahara\n", "  - id: sahara_desert\n")),
    ],
)
def test_an_edit_of_a_base_looks_through_the_citations_of_only_the_files_it_read_again(
    extended: Path, monkeypatch: pytest.MonkeyPatch, relative: str, edit: tuple[str, str]
) -> None:
    """Q001, Q002 and Q003 read every `rule:` of every file of a ruleset: after an edit of one file
    of the base, each ruleset of :data:`EXTENDING` looked through the citations of every file it
    reads. Which of a file's citations name no printed section is now kept while its walk and the
    rule index are the same objects, where no variant replaced a node of it: only the file read
    again, the manifests (a variant restates its base's `id` and `name`) and the files a variant
    patches are looked through in every ruleset, any other file at most once; the diagnostics are
    a full run's, edited (a section that does not exist cited) and undone."""
    from civrules.checks import citations as citations_module

    looked: list[Any] = []
    walks: dict[int, _CountedWalk] = {}
    real = citations_module.document_walk

    def counted(document: Any) -> Any:
        walk = real(document)
        kept = walks.get(id(walk))
        if kept is None or kept.walk is not walk:
            kept = walks[id(walk)] = _CountedWalk(walk, document, looked)
        return kept

    monkeypatch.setattr(citations_module, "document_walk", counted)
    session = Session(extended)
    session.update()
    text = (extended / relative).read_text(encoding="utf-8")
    edited = text.replace(*edit, 1)
    assert edited != text
    for target in (edited, text):
        looked.clear()
        session.set_text(relative, target)
        after = session.update()
        assert after.spliced == [relative] and len(after.rechecked) == 7
        models = [a.model for a in after.analyses.values() if a.model is not None]
        replaced = {document for model in models for document, _ in citations_module.superseded(model)}
        shown = after.files[relative]
        others = [
            d
            for d in looked
            if d.file != shown
            and id(d) not in replaced
            and isinstance(d.data, dict)
            and d.data.get("kind") != "ruleset"
        ]
        # (each at most once: an unchanged file read by a variant alone may be asked first here)
        assert looked and max(Counter(map(id, others)).values(), default=0) <= 1
        assert after.diagnostics == full_run(extended, session.overlays)
    assert not [d for d in session.update().diagnostics if d.code == "Q001"]


@pytest.mark.parametrize(
    ("relative", "edit"),
    [
        _slow("cards/advanced-civilization.yaml", ("name: Pottery", "name: Qottery")),
        _slow("maps/mediterranean.yaml", ("  - id: sahara\n", "  - id: sahara_desert\n")),
    ],
)
def test_an_edit_of_a_base_notes_again_the_unknown_facts_of_only_the_files_it_read_again(
    extended: Path, monkeypatch: pytest.MonkeyPatch, relative: str, edit: tuple[str, str]
) -> None:
    """Q006 notes every unknown fact of every file of a ruleset: after an edit of one file of the
    base, each ruleset of :data:`EXTENDING` took each fact of every file it reads for its note
    again. A file's notes are now kept whole with it where no variant replaced a node of it: only
    the facts of the file read again and of the files a variant patches are taken one by one in
    every ruleset, any other file's at most once; the diagnostics are a full run's, edited and undone."""
    from civrules.checks import citations as citations_module
    from civrules.checks import unknowns as unknowns_module

    looked: list[Any] = []
    real = unknowns_module._unknown_fact

    def counted(document: Any, path: Any, reason: str, family: Any) -> Any:
        looked.append(document)
        return real(document, path, reason, family)

    monkeypatch.setattr(unknowns_module, "_unknown_fact", counted)
    session = Session(extended)
    assert [d for d in session.update().diagnostics if d.code == "Q006"]
    text = (extended / relative).read_text(encoding="utf-8")
    edited = text.replace(*edit, 1)
    assert edited != text
    for target in (edited, text):
        looked.clear()
        session.set_text(relative, target)
        after = session.update()
        assert after.spliced == [relative] and len(after.rechecked) == 7
        models = [a.model for a in after.analyses.values() if a.model is not None]
        replaced = {document for model in models for document, _ in citations_module.superseded(model)}
        shown = after.files[relative]
        others = [d for d in looked if d.file != shown and id(d) not in replaced]
        assert max(Counter(map(id, others)).values(), default=0) <= 1
        assert after.diagnostics == full_run(extended, session.overlays)


@pytest.mark.parametrize(
    ("relative", "edit"),
    [
        _slow("cards/advanced-civilization.yaml", ("name: Pottery", "name: Qottery")),
        # a parent that is no section of the index: Q005 in every ruleset, healed when undone
        _slow("rulebooks/advanced-civilization.yaml", ('    parent: "1"\n', '    parent: "1.9.9"\n')),
    ],
)
def test_an_edit_looks_through_the_rule_index_only_when_it_read_the_index_again(
    extended: Path, monkeypatch: pytest.MonkeyPatch, relative: str, edit: tuple[str, str]
) -> None:
    """Q004 and Q005 read the rule index alone, and Q001-Q005 each made its sets of numbers again: after
    an edit, each ruleset of :data:`EXTENDING` did, though they all read the one index. What the
    index holds and what Q004 and Q005 find in it are now kept while its document is the same
    object: an edit of a data file looks through none of it again, an edit of the index once per
    index; the diagnostics are a full run's, edited and undone."""
    from civrules.checks import citations as citations_module

    made: list[str] = []
    real_index, real_entries, real_closest = (
        citations_module.Index,
        citations_module._index_entries,
        citations_module._Closest,
    )

    def counted_index(*args: Any) -> Any:
        made.append("index")
        return real_index(*args)

    def counted_entries(data: Any) -> Any:
        made.append("Q004")
        return real_entries(data)

    def counted_closest(index: Any) -> Any:
        made.append("closest")
        return real_closest(index)

    monkeypatch.setattr(citations_module, "Index", counted_index)
    monkeypatch.setattr(citations_module, "_index_entries", counted_entries)
    monkeypatch.setattr(citations_module, "_Closest", counted_closest)
    session = Session(extended)
    session.update()
    text = (extended / relative).read_text(encoding="utf-8")
    edited = text.replace(*edit, 1)
    assert edited != text
    for target in (edited, text):
        made.clear()
        session.set_text(relative, target)
        after = session.update()
        assert len(after.rechecked) == 7
        models = [a.model for a in after.analyses.values() if a.model is not None]
        indexes = {id(m.rule_index.origin.document) for m in models if m.rule_index and m.rule_index.origin}
        again = 0 if relative.startswith("cards/") else len(indexes)
        assert made.count("index") == again and made.count("Q004") == again
        # Q001 looks for a close section in each ruleset (its own closest: a bounded number of
        # look-ups per ruleset); Q005's is made with what it finds, once per index read again
        assert made.count("closest") <= len(after.rechecked) + again
        assert after.diagnostics == full_run(extended, session.overlays)
        if target == edited and again:
            assert [d for d in after.diagnostics if d.code == "Q005"]
    assert not [d for d in session.update().diagnostics if d.code == "Q005"]


@heavy
def test_an_edit_of_an_overlay_of_a_collection_inside_a_setting_runs_again_the_checks_of_that_setting(
    extended: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`overlay.player_counts` writes the collection inside the `player_counts` setting: an edit in
    its entries was taken for an edit of the collection alone, and a check reading only the setting
    gave what it found before. It now runs again, in the variant and in each ruleset extending it
    (a check of this test's own, reading that setting alone, counts its runs)."""
    from civrules.checks import setting

    entries = catalogue_checks()
    runs: list[str] = []
    # A family check that reads no setting, made to read `player_counts` alone and count its runs.
    stand_in = next(
        e
        for e in entries
        if e.family == BASE
        and e.reads is not None
        and not any(one.startswith("settings") for one in e.reads)
        and ALL_COLLECTIONS not in e.reads
    )

    def reads_the_setting(model: Any) -> list[Diagnostic]:
        runs.append(model.id)
        return []

    probe = dataclasses.replace(stand_in, run=reads_the_setting, reads=frozenset({setting("player_counts")}))
    monkeypatch.setattr(
        catalogue_module, "all_checks", lambda family=None: [probe if e is stand_in else e for e in entries]
    )
    session = Session(extended)
    session.update()
    relative = f"rulesets/{VARIANT}.yaml"
    text = (extended / relative).read_text(encoding="utf-8")
    edited = text.replace('name: "Western map (Western Extension)"', 'name: "Westerx map (Western Extension)"', 1)
    assert edited != text
    for target in (edited, text):
        runs.clear()
        session.set_text(relative, target)
        after = session.update()
        assert after.spliced == [relative]
        assert sorted(after.rechecked) == sorted(runs) == sorted([VARIANT, "west-1", "west-2"])
        assert after.diagnostics == full_run(extended, session.overlays)


@pytest.mark.slow  # the synthetic tree at two sizes, each read, edited and run in full: about 10 s
def test_a_value_edit_looks_again_at_as_many_entries_whatever_the_size_of_its_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Counted, never timed: after a value edit inside one area of the synthetic map, Q008's
    disagreements, the citation walk (Q001, Q006, Q007) and X001's walk for references looked at
    every entity of the map's collections again (each through the session's memo: 6,343 lookups
    each at scale 13, 18, 12 and about 8 ms of an update; and every area and border relocated to
    the new reading was made again through its class's `__init__`), because the collections and
    the list were made anew around the same data. They now look only at the entries that are not
    the same objects at the same places: as many at twice the size. Each update gives the
    diagnostics of a full run, and so does an area added (the entries after it moved: their
    citations are made again at their new places)."""
    from bench.incremental import data_edit
    from bench.synth import generate
    from civrules.checks.citations import _walk_node
    from civrules.checks.disagreements import _owners
    from civrules.schema.references import Remembered

    looked: Counter[object] = Counter()
    real = Remembered.of

    def counted(self: Remembered, value: Any, held: tuple[Any, ...], *args: Any, **kwargs: Any) -> Any:
        found = real(self, value, held, *args, **kwargs)
        if held and held[0] in (_walk_node, _owners):
            # an entity holding disagreements is looked at again where Q008 finds something in it
            # (its diagnostics are placed anew): as many as the data holds, counted apart
            looked["holding" if held[0] is _owners and found else held[0]] += 1
        return found

    real_find = Remembered.find

    def walked(self: Remembered, *args: Any, **kwargs: Any) -> Any:
        looked[Remembered.find] += 1  # an entity's references looked up (X001's walk)
        return real_find(self, *args, **kwargs)

    monkeypatch.setattr(Remembered, "of", counted)
    monkeypatch.setattr(Remembered, "find", walked)
    from civrules.families.advanced_civilization.model import Area, Border

    for made in (Area, Border):  # an entity made through its class (a relocated one is copied)
        real_init = made.__init__

        def init(self: Any, *args: Any, real_init: Any = real_init, **kwargs: Any) -> None:
            looked[Area] += 1
            real_init(self, *args, **kwargs)

        monkeypatch.setattr(made, "__init__", init)
    relative = "maps/synthetic.yaml"
    work: list[dict[object, int]] = []
    for scale in (1, 2):
        rules = generate(tmp_path / f"scale-{scale}", scale)
        session = Session(rules)
        session.update()
        text = (rules / relative).read_text(encoding="utf-8")
        edited = data_edit(text, 0)
        assert edited is not None and edited != text
        session.set_text(relative, edited)
        looked.clear()
        result = session.update()
        assert result.spliced == [relative] and "synthetic" in result.rechecked
        work.append(dict(looked))
        assert result.diagnostics == full_run(rules, session.overlays)
        # an area added in the middle: the entries after it moved, their findings made again there
        areas = [at + 1 for at in range(len(edited)) if edited.startswith("\n- id: ", at)]
        start, end = areas[len(areas) // 2], areas[len(areas) // 2 + 1]
        added = edited[:start] + edited[start:end].replace("- id: ", "- id: added_", 1) + edited[start:]
        session.set_text(relative, added)
        assert session.update().diagnostics == full_run(rules, session.overlays)
    small, large = work
    assert small[_walk_node] >= 1 and small[_owners] >= 1, "the edited area is looked at again"
    assert (large[_walk_node], large[_owners]) == (small[_walk_node], small[_owners]), (small, large)
    assert small[Remembered.find] >= 1 and large[Remembered.find] == small[Remembered.find], (small, large)
    assert small[Area] >= 1 and large[Area] == small[Area], (small, large)
    assert large.get("holding", 0) <= 2 * small.get("holding", 0) + 2, (small, large)
