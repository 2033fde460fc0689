"""Text civrules did not write is never taken as code or as a command.

Names and messages from the rules (and file names) are escaped wherever they are printed: a terminal
(control and OSC sequences), a CI log (GitHub workflow commands), SARIF (a file's URI), generated Python
(a docstring a name could end). Nothing read from the working tree or a cache is executed: caches hold
data, in the user's cache directory, and a forged entry is recomputed or ignored, never trusted.
Escaping of every output format field by field is in tests/core/test_render.py; the corpus
(test_resource_limits.py) checks every case's output for raw control characters end to end.
"""

from __future__ import annotations

import ast
import html
import json
import os
import re
import sys
import unicodedata
from pathlib import Path

import pytest
from click.testing import CliRunner

# Imported first, as a test before it in test_trust_fs.py once did: importing the map sheet's svgmap
# on its own closes an import cycle in the compiler (svgmap -> the family -> map_sheet -> svgmap), which
# test_a_forged_map_layout_is_recomputed would otherwise meet when run alone or first.
import civrules.emit.build  # noqa: F401
from civrules.cli import main
from civrules.cli.watcher import describe_changes
from civrules.diagnostics import Diagnostic, Severity, Span
from civrules.diagnostics.render import render_sarif, sarif_uri
from civrules.emit import stamp
from civrules.emit.export import export_ruleset
from civrules.emit.output import write_tree
from civrules.families.advanced_civilization.model import of_family
from civrules.families.advanced_civilization.package import doc, lit, render_package
from civrules.pipeline import analyse, derived_facts
from civrules.support import cache, stored
from tests import shipped
from tests.budget import heavy
from tests.conftest import REPO, RULES
from tests.core.test_incremental import copy_subset
from tests.core.test_watch import Watcher
from tests.rulefiles import CachedWorkspace, shipped_text
from tests.security.helpers import make

PACKAGE = REPO / "compiler" / "civrules"
ESC_NAME = "e\x1b]0;PWNED\x07.yaml"


# --- Terminals and CI logs: what is printed is escaped --------------------------------------------


def test_watch_prints_no_control_character_of_a_file_name(tmp_path: Path) -> None:
    """A file whose name holds an OSC sequence appears, then goes: every line printed is escaped.

    The "fixed:" lines and the summary's list of files read were formatted by hand, raw.
    """
    rules = copy_subset(tmp_path / "rules")
    hostile = rules / "cards" / ESC_NAME
    watcher = Watcher(rules)
    try:
        seen = watcher.until("civrules: ")
        hostile.write_text("kind: map\n", encoding="utf-8")
        seen += watcher.until("civrules: ")
        hostile.unlink()
        seen += watcher.until("civrules: ")
        assert any(line.startswith("fixed: ") and "PWNED" in line for line in seen)
        assert not [line for line in seen if "\x1b" in line or "\x07" in line]
        assert watcher.interrupt() == 130
    finally:
        watcher.process.kill()


def test_describe_changes_escapes_what_went_away() -> None:
    gone = Diagnostic("S002", Severity.ERROR, "unknown key `\x1b[2J`", Span.at("rules/\x1b[31m.yaml"))
    out = describe_changes([gone], [], sources=None)  # type: ignore[arg-type]
    assert "\x1b" not in out
    assert out == "fixed: rules/\\x1b[31m.yaml:1:1: error[S002]: unknown key `\\x1b[2J`\n"


@pytest.mark.parametrize(
    "arguments",
    [["validate", "--select", "X\x1b]0;T\x07"], ["explain", "\x1b]0;T\x07"]],
)
def test_an_option_value_is_echoed_escaped(arguments: list[str]) -> None:
    """An OSC sequence (which click's own stripping of colours leaves) in a rejected option value."""
    result = CliRunner().invoke(main, arguments)
    assert result.exit_code == 2
    assert "\\x1b]0;T\\x07" in result.output
    assert "\x1b" not in result.output and "\x07" not in result.output


def test_list_escapes_what_it_prints_and_opens_no_workflow_command(family_copy: Path) -> None:
    """`list` printed manifest fields raw, even into a pipe; a manifest it lists need not be valid."""
    (family_copy / "rulesets" / "evil.yaml").write_text(
        'kind: ruleset\nid: "::error::pwned"\nname: "a\\tb"\nextends: advanced-civilization\n', encoding="utf-8"
    )
    result = CliRunner().invoke(main, ["--rules", str(family_copy), "list"])
    assert result.exit_code == 0
    (line,) = [line for line in result.stdout.splitlines() if "pwned" in line]
    assert line.startswith("./::error::pwned") and "a\\tb" in line


#: A file name holding an invisible character, a bidirectional override and an escape.
HOSTILE_NAME = "h\u200b\u202e\x1b"


def test_every_message_and_hint_quotes_a_hostile_file_name_escaped(tmp_path: Path) -> None:
    """Every diagnostic a rules folder's file names reach (a link under rules/, a FIFO, names alike
    but for case, a miscased suffix, an unused file, a manifest named after another id, unreadable
    and unparsable files) quotes them escaped, as a Diagnostic, not only once rendered: R005, R006,
    R015 and R023 quoted the name raw (round 33), so `maps/a\u200b.yaml` read as `maps/a.yaml`
    wherever the message was shown unrendered (an API's caller, a quick fix). Subjects are data,
    escaped where printed (tests/core/test_render.py)."""
    from civrules.diagnostics.escape import INVISIBLE, UNSAFE
    from civrules.pipeline.incremental import full_run

    root = copy_subset(tmp_path / "rules")
    hostile = HOSTILE_NAME
    panel = (root / "maps/western-panel.yaml").read_text(encoding="utf-8")
    for name in (f"{hostile}unused.yaml", f"{hostile}A.yaml", f"{hostile}a.yaml", f"{hostile}x.YAML"):
        (root / "maps" / name).write_text(panel, encoding="utf-8")
    (root / "cards" / f"{hostile}link").symlink_to(tmp_path)
    (root / "cards" / f"{hostile}link.yaml").symlink_to(tmp_path / "none.yaml")
    os.mkfifo(root / "cards" / f"{hostile}fifo.yaml")
    (root / "calamities" / f"{hostile}bad.yaml").write_bytes(b"\xff\xfe bad")
    (root / "cards" / f"{hostile}unclosed.yaml").write_text("kind: [unclosed\n", encoding="utf-8")
    western = (root / "rulesets/advanced-civilization-western.yaml").read_text(encoding="utf-8")
    (root / "rulesets" / f"{hostile}w.yaml").write_text(
        western.replace("id: advanced-civilization-western", "id: hw"), encoding="utf-8"
    )
    raw = re.compile(f"[{UNSAFE}{INVISIBLE}]")
    found = full_run(root)
    codes = {d.code for d in found}
    assert {"R003", "R005", "R006", "R015", "R023", "L001", "L008", "L012"} <= codes, sorted(codes)
    unescaped = [
        (d.code, text)
        for d in found
        for text in (d.message, d.hint or "", *(related.label for related in d.related))
        if raw.search(text)
    ]
    assert unescaped == []
    named = [d.message for d in found if "unused.yaml" in d.message]
    assert named == ["`maps/h\\u200b\\u202e\\x1bunused.yaml` is not used by any ruleset"]


# --- SARIF ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "uri"),
    [
        ("rules/cards/a b#c?d%41.yaml", "rules/cards/a%20b%23c%3Fd%2541.yaml"),
        ("javascript:alert(1).yaml", "javascript%3Aalert%281%29.yaml"),
        ("rules/cards/nl\nx.yaml", "rules/cards/nl%0Ax.yaml"),
        ("rules/cards/bad\udcff.yaml", "rules/cards/bad%FF.yaml"),
        ("rules/cards/plain.yaml", "rules/cards/plain.yaml"),
    ],
)
def test_sarif_names_each_file_by_a_uri_of_that_file(name: str, uri: str) -> None:
    """A file name was put in `artifactLocation.uri` as text: `#` cut it, `%41` read as `A`,
    `javascript:` read as a scheme."""
    assert sarif_uri(name) == uri
    log = json.loads(render_sarif([Diagnostic("S002", Severity.ERROR, "x", Span.at(name))]))
    (result,) = log["runs"][0]["results"]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == uri


# --- Generated code -------------------------------------------------------------------------------


def test_a_ruleset_name_cannot_end_the_generated_docstring() -> None:
    """The ruleset name went raw into the package docstring: `\"\"\"` in it ended the docstring and
    what followed was code, run on import."""
    hostile = 'Evil """\nimport os; os.system("echo pwned")\n""" \\N \\'
    assert doc(hostile) == 'Evil \\"\\"\\"\nimport os; os.system(\\"echo pwned\\")\n\\"\\"\\" \\\\N \\\\'
    manifest = shipped_text("rulesets/advanced-civilization.yaml").replace(
        'name: "Advanced Civilization"',
        "name: " + '"' + hostile.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"',
        1,
    )
    workspace = CachedWorkspace({"rulesets/advanced-civilization.yaml": manifest})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["advanced-civilization"]))
    assert analysis.model is not None and analysis.resolved is not None and analysis.model.name == hostile
    files = render_package(
        of_family(analysis.model), export_ruleset(analysis.resolved, analysis.model, derived_facts(analysis.model))
    )
    init = files["civrules_rulesets/advanced_civilization/__init__.py"].decode("utf-8")
    module = compile(init, "__init__.py", "exec")  # raised SyntaxError, or compiled the injected code
    assert "system" not in module.co_names
    data = files["civrules_rulesets/advanced_civilization/data.py"].decode("utf-8")
    assert "system" not in compile(data, "data.py", "exec").co_names
    assert lit(hostile) in data and ast.literal_eval(lit(hostile)) == hostile  # RULESET_NAME keeps the exact string


# --- Nothing from the working tree is executed; caches hold data, in the user's cache -------------


@heavy
def test_no_module_of_civrules_executes_or_unmarshals_code() -> None:
    """The root of the old hole: compiled code read from a cache and passed to exec()."""
    forbidden = {"exec", "eval", "compile", "loads"}
    found = []
    scanned = sorted(PACKAGE.rglob("*.py"))
    assert len(scanned) > 100, f"{PACKAGE} holds the package's modules (a scan of nothing proves nothing)"
    for path in scanned:
        if path.parent.name == "validators" and "_generated" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        # A call or an import the walk below finds names its identifier in the text (as Python
        # reads identifiers: NFKC-normalized): a module naming none of them is not parsed (the
        # compiled templates are megabytes of source).
        identifiers = unicodedata.normalize("NFKC", text)
        if not any(word in identifiers for word in ("exec", "eval", "loads", "marshal", "pickle")):
            continue
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                owner = getattr(getattr(node.func, "value", None), "id", None)
                data_loads = name == "loads" and owner in ("json", "tomllib")  # parsers of data, not code
                if name in forbidden and not data_loads and name != "compile":
                    found.append(f"{path.relative_to(REPO)}:{node.lineno} {name}")
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
                if any(n in ("marshal", "pickle") for n in names):
                    found.append(f"{path.relative_to(REPO)}:{node.lineno} imports {names}")
    assert not found


def test_the_cache_lives_in_the_users_cache_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CIVRULES_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.cache_dir() == tmp_path / "xdg" / "civrules"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/path")  # invalid by the XDG spec: ignored
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache.cache_dir() == tmp_path / "home" / ".cache" / "civrules"
    monkeypatch.setenv("CIVRULES_CACHE_DIR", str(tmp_path / "mine"))
    assert cache.cache_dir() == tmp_path / "mine"
    monkeypatch.setenv("CIVRULES_CACHE_DIR", "")
    assert cache.cache_dir() is None


def test_a_cache_entry_that_is_a_link_or_a_fifo_is_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CIVRULES_CACHE_DIR", str(tmp_path))
    (tmp_path / "secret").write_text("SECRET", encoding="utf-8")
    (tmp_path / "layout-a.json").symlink_to(tmp_path / "secret")
    os.mkfifo(tmp_path / "layout-b.json")
    assert cache.read("layout-a.json") is None
    assert cache.read("layout-b.json") is None
    cache.write("layout-a.json", b"{}")  # replaces the link, never writes through it
    assert (tmp_path / "secret").read_text(encoding="utf-8") == "SECRET"
    assert cache.read("layout-a.json") == b"{}"


def test_a_forged_map_layout_is_recomputed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import networkx as nx

    from civrules.families.advanced_civilization.sheets import svgmap

    monkeypatch.setenv("CIVRULES_CACHE_DIR", str(tmp_path))
    graph = nx.path_graph(["a", "b", "c"])
    clean = svgmap.spring_positions(graph)
    (entry,) = tmp_path.glob("layout-*.json")
    for forged in ({"a": [0, 0], "b": [1, 1], "c": ["nan", 0]}, {"a": [5, 0], "b": [0, 0], "c": [0, 0]}, [1, 2]):
        entry.write_text(json.dumps(forged), encoding="utf-8")
        assert svgmap.spring_positions(graph) == clean
    for raw in (b"[" * 200_000 + b"]" * 200_000, b'{"a": [0, 0], "b": [1, 1], "\\ud800": [0, 0]}'):
        entry.write_bytes(raw)
        assert svgmap.spring_positions(graph) == clean


def test_a_map_layout_cached_by_other_layout_code_is_not_taken(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A civrules whose layout changed (here: mirrored) took the positions an older civrules had
    cached for the same graph: in range, so believed. The module's code is in the entry's key."""
    import importlib.util

    import networkx as nx

    from civrules.families.advanced_civilization.sheets import svgmap

    source = Path(svgmap.__file__).read_text(encoding="utf-8")
    normalised = "((float(raw[node][0]) - min(xs)) / span_x, "
    assert source.count(normalised) == 1
    changed_file = tmp_path / "changed" / "svgmap.py"
    changed_file.parent.mkdir()
    changed_file.write_text(source.replace(normalised, "(1.0 - (float(raw[node][0]) - min(xs)) / span_x, "), "utf-8")
    spec = importlib.util.spec_from_file_location("civrules_test_changed_svgmap", changed_file)
    assert spec is not None and spec.loader is not None
    changed = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, changed)  # its dataclasses look their module up
    spec.loader.exec_module(changed)
    graph = nx.path_graph(["a", "b", "c"])
    monkeypatch.setenv("CIVRULES_CACHE_DIR", "")
    mirrored = changed.spring_positions(graph)
    monkeypatch.setenv("CIVRULES_CACHE_DIR", str(tmp_path / "cache"))
    older = svgmap.spring_positions(graph)
    assert mirrored != older
    assert changed.spring_positions(graph) == mirrored
    assert svgmap.spring_positions(graph) == older  # each keeps its own entry


#: Bytes no file civrules writes and reads back can hold: each is read as no file at all.
FORGED_DOCUMENTS = [
    b"[" * 200_000 + b"]" * 200_000,  # a RecursionError of the parser, once an internal error (R900)
    b'{"a": ' * 100_000 + b"1" + b"}" * 100_000,
    b"[" * (stored.MAX_DEPTH + 1) + b"]" * (stored.MAX_DEPTH + 1),  # parses, deeper than civrules writes
    b'["\\ud800"]',  # an escaped lone surrogate: text no file holds, which cannot be printed
    b'{"\\udfff": 1}',
    b'["\xed\xa0\x80"]',  # a surrogate encoded in UTF-8, which is not UTF-8
    b'["\xff"]',
    b"\xef\xbb\xbf{}",  # a byte order mark: civrules writes none
    b"[NaN]",
    b"[-Infinity]",
    b"[1e999]",
    b"[" + b"9" * 5000 + b"]",  # more digits than int() converts
    b"",
    b"{",
    b"{} {}",
]


@pytest.mark.parametrize("raw", FORGED_DOCUMENTS, ids=range(len(FORGED_DOCUMENTS)))
def test_a_forged_file_read_back_is_no_document(raw: bytes) -> None:
    assert stored.json_document(raw) is None


def test_a_file_civrules_wrote_is_read_back_as_written() -> None:
    written = {"headers": {"rulesets/a.yaml": ["0" * 64, {"id": "ä-€-𝄞"}], "b": ["1" * 64, None]}, "n": [1, 2.5]}
    assert stored.json_document(json.dumps(written).encode()) == written
    assert stored.json_document(json.dumps(written, ensure_ascii=False).encode()) == written
    deepest = [[[[[[[[1]]]]]]]]  # 8 levels
    assert stored.json_document(json.dumps(deepest).encode(), max_depth=8) == deepest
    assert stored.json_document(json.dumps([deepest]).encode(), max_depth=8) is None
    assert stored.json_document(None) is None


def test_validation_does_not_read_a_planted_cache_in_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CIVRULES_CACHE_DIR", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    planted = tmp_path / ".civrules_cache"
    planted.mkdir()
    result = CliRunner().invoke(main, ["--rules", str(RULES), "validate", "advanced-civilization"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in planted.iterdir()) == []  # nothing read or written there
    assert cache.cache_dir() == tmp_path / "home" / ".cache" / "civrules"


def test_a_forged_or_corrupt_stamp_never_makes_a_different_tree_up_to_date(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CIVRULES_CACHE_DIR", str(tmp_path / "cache"))
    rules = tmp_path / "rules"
    make(rules, {"a.yaml": b"kind: map\n"})
    out = tmp_path / "out"
    written = write_tree(out, {"a.txt": b"x"})
    stamp.record(out, ["x"], stamp.input_digest(rules, ["x"]), written)
    assert stamp.is_up_to_date(rules, out, ["x"])
    (out / "a.txt").write_bytes(b"changed")
    assert not stamp.is_up_to_date(rules, out, ["x"])
    (out / "a.txt").write_bytes(b"x")
    (rules / "a.yaml").write_bytes(b"kind: map\n# changed\n")
    assert not stamp.is_up_to_date(rules, out, ["x"])
    (entry,) = (tmp_path / "cache").iterdir()
    for forged in (b"", b"[]", b"{", b'{"version": 3, "inputs": 1, "outputs": 2}', b"[" * 100_000, b"\xff"):
        entry.write_bytes(forged)
        assert not stamp.is_up_to_date(rules, out, ["x"])


def test_a_forged_or_corrupt_record_of_written_files_says_nothing_and_breaks_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CIVRULES_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "out"
    stamp.record_written(out, write_tree(out, {"a.txt": b"x"}))
    assert stamp.edits(out) == []
    (out / "a.txt").write_bytes(b"changed")
    (edit,) = stamp.edits(out)
    assert (edit.relative, edit.written is not None) == ("a.txt", True)
    (entry,) = (tmp_path / "cache").iterdir()
    monkeypatch.setattr(stamp, "_WRITTEN_HERE", {}, raising=False)  # a run of its own reads the record
    forgeries = (b"", b"[]", b"{", b'{"version": 1, "files": []}', b'{"version": 1, "files": {"a.txt": 5}}')
    for forged in (*forgeries, b'{"version": 9, "files": {}}', b"[" * 100_000, b"\xff"):
        entry.write_bytes(forged)
        assert stamp.edits(out) == []  # no record: nothing is said


@pytest.mark.parametrize("cache_folder", ["cleared", "off", "unwritable"])
def test_files_a_build_replaced_with_no_record_of_what_civrules_wrote_are_counted_and_why_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cache_folder: str
) -> None:
    """The fast guard of test_build_check's build with no record (the cache off or cleared): the
    files a write replaced or removed are counted, and why a change by hand cannot be told is
    said; once civrules recorded what it wrote (in the cache, or in this process), nothing."""
    from civrules.cli import _edits_told

    folder = tmp_path / "cache"
    monkeypatch.setenv("CIVRULES_CACHE_DIR", "" if cache_folder == "off" else str(folder))
    if cache_folder == "unwritable":  # a read-only disk (as root, permissions do not stop a write)
        folder.mkdir()
        accessed = os.access
        monkeypatch.setattr(os, "access", lambda path, mode, **kw: mode != os.W_OK and accessed(path, mode, **kw))
    monkeypatch.setattr(stamp, "_WRITTEN_HERE", {}, raising=False)
    out = tmp_path / "out"
    write_tree(out, {"a.txt": b"a", "b.txt": b"b", "c.txt": b"c"})
    before = stamp.unrecorded(out)
    assert before is not None and sorted(before) == [".civrules-output", "a.txt", "b.txt", "c.txt"]
    written = write_tree(out, {"a.txt": b"a", "b.txt": b"changed"})  # c.txt gone
    assert stamp.not_kept(before, written) == 2
    (said, hint) = _edits_told(out, [], stamp.not_kept(before, written))
    why = {
        "cleared": "holds no record",
        "off": "is off (`CIVRULES_CACHE_DIR` is empty)",
        "unwritable": "cannot be written, so it holds no record",
    }[cache_folder]
    assert said.startswith(f"civrules: this build replaced or removed 2 files of `{out}`; whether any had been")
    assert why in said and hint.startswith("  hint: what you change in the output is not kept")
    monkeypatch.undo()
    monkeypatch.setenv("CIVRULES_CACHE_DIR", str(folder))
    monkeypatch.setattr(stamp, "_WRITTEN_HERE", {}, raising=False)
    stamp.record_written(out, written)
    assert stamp.unrecorded(out) is None and _edits_told(out, [], stamp.not_kept(None, written)) == []


def test_a_stamp_vouches_for_the_rules_as_they_were_before_the_build_read_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fast guard of test_build_check's save during a build: what is recorded is the digest
    taken before; a rule file saved since makes the tree not up to date."""
    monkeypatch.setenv("CIVRULES_CACHE_DIR", str(tmp_path / "cache"))
    rules = tmp_path / "rules"
    make(rules, {"a.yaml": b"kind: map\n"})
    before = stamp.input_digest(rules, ["x"])
    out = tmp_path / "out"
    written = write_tree(out, {"a.txt": b"x"})
    (rules / "a.yaml").write_bytes(b"kind: map\n# saved while the build ran\n")
    stamp.record(out, ["x"], before, written)
    assert not stamp.is_up_to_date(rules, out, ["x"])
    stamp.record(out, ["x"], stamp.input_digest(rules, ["x"]), written)
    assert stamp.is_up_to_date(rules, out, ["x"])


@pytest.mark.parametrize("staged", [False, True])
def test_what_civrules_wrote_is_recorded_from_its_bytes_not_from_the_tree_changed_after_the_swap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, staged: bool
) -> None:
    """The fast guard of test_build_check's and test_watch's edit just after the swap: the tree was
    read again to record it, so a change made there in those milliseconds was civrules' own (no edit
    told, the stamp "up to date"). :func:`write_tree` returns the digests of the bytes it wrote."""
    import hashlib

    from civrules.emit import output

    monkeypatch.setenv("CIVRULES_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(stamp, "_WRITTEN_HERE", {}, raising=False)
    rules = tmp_path / "rules"
    make(rules, {"a.yaml": b"kind: map\n"})
    out = tmp_path / "out"
    swapped = output._swap

    def edited_once_swapped(staging: Path, root: Path) -> None:
        swapped(staging, root)
        (root / "a.txt").write_bytes(b"mine")

    monkeypatch.setattr(output, "_swap", edited_once_swapped)
    tree: dict[str, bytes] | output.StagedTree = {"a.txt": b"x"}
    if staged:
        tree = output.StagedTree(out)
        tree["a.txt"] = b"x"
    written = write_tree(out, tree)
    assert written["a.txt"] == hashlib.sha256(b"x").hexdigest() and sorted(written) == [output.MARKER, "a.txt"]
    stamp.record(out, ["x"], stamp.input_digest(rules, ["x"]), written)
    stamp.record_written(out, written)
    assert not stamp.is_up_to_date(rules, out, ["x"])
    assert [(edit.relative, edit.written) for edit in stamp.edits(out)] == [("a.txt", written["a.txt"])]
    (out / "a.txt").write_bytes(b"x")  # as written: vouched for
    assert stamp.is_up_to_date(rules, out, ["x"]) and stamp.edits(out) == []


def test_a_file_a_partial_build_carries_over_is_recorded_as_civrules_last_wrote_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A partial build copies the other rulesets' files over: each is recorded as civrules last wrote
    it, not as copied, so a change made there by hand (up to the copy) is still told; a file it
    never wrote stays unrecorded; with no record, the copy is what is recorded."""
    from civrules.emit.build import BuildResult, build

    monkeypatch.setenv("CIVRULES_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(stamp, "_WRITTEN_HERE", {}, raising=False)
    out = tmp_path / "out"
    first = write_tree(out, {"python/x/a.py": b"X = 1\n", "python/other/b.py": b"B = 1\n"})
    stamp.record_written(out, first)
    (out / "python" / "other" / "b.py").write_bytes(b"B = 2\n")
    (out / "python" / "other" / "notes.txt").write_bytes(b"mine\n")
    swapped = build(out, BuildResult(tree={"python/x/a.py": b"X = 2\n"}), ["x"], everything=False, protected=())
    assert swapped.carried == {"python/other/b.py", "python/other/notes.txt"}
    stamp.record_written(out, swapped.written, swapped.carried)
    told = [(edit.relative, edit.written) for edit in stamp.edits(out)]
    assert told == [("python/other/b.py", first["python/other/b.py"]), ("python/other/notes.txt", None)]
    assert stamp.lost(stamp.edits(out), swapped.written, swapped.carried) == []  # carried: not lost
    monkeypatch.setattr(stamp, "_WRITTEN_HERE", {}, raising=False)
    for entry in (tmp_path / "cache").iterdir():
        entry.unlink()
    stamp.record_written(out, swapped.written, swapped.carried)  # no record before: as copied
    assert stamp.edits(out) == []


def test_watch_calls_before_read_before_each_round_reads_the_rules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fast guard of test_watch's save right after a round's read: `watch --build` takes the
    digest its stamp vouches for in ``before_read``, which comes before the round's read."""
    import time as timing

    from civrules.cli import watcher
    from civrules.pipeline.incremental import Result

    happened: list[str] = []

    class Reading:
        def __init__(self, *args: object, **kwargs: object) -> None:
            from civrules.load import Limits

            self.limits = Limits()

        def update(self, rulesets: object) -> Result:
            happened.append("read")
            return Result([], {}, {}, {})

    def stop(seconds: float) -> None:
        raise KeyboardInterrupt

    def built(result: Result) -> None:
        happened.append("build")

    monkeypatch.setattr(watcher, "Session", Reading)
    monkeypatch.setattr(watcher, "settle", lambda: None)
    monkeypatch.setattr(timing, "sleep", stop)
    (tmp_path / "rules").mkdir()
    with pytest.raises(KeyboardInterrupt):
        watcher.watch(
            tmp_path / "rules",
            [],
            lambda line: None,
            build=built,
            before_read=lambda: happened.append("before"),
        )
    assert happened == ["before", "read", "build"]


def test_a_relative_cache_dir_turns_the_cache_off_and_writes_nothing_in_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CIVRULES_CACHE_DIR", str(tmp_path / "absolute"))
    cache.write("layout-a.json", b"{}")
    assert cache.read("layout-a.json") == b"{}"  # an absolute one is used
    for relative in ("cache", "./cache", "."):
        monkeypatch.setenv("CIVRULES_CACHE_DIR", relative)
        assert cache.cache_dir() is None
        cache.write("layout-b.json", b"{}")
        assert cache.read("layout-a.json") is None
    # Nor a relative HOME where neither variable names the cache: `HOME=.` made `.cache/civrules`
    # in the working directory, the project checked.
    monkeypatch.delenv("CIVRULES_CACHE_DIR")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    for relative in (".", "home", "./home"):
        monkeypatch.setenv("HOME", relative)
        assert cache.cache_dir() is None
        cache.write("layout-c.json", b"{}")
        assert cache.read("layout-c.json") is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["absolute"]
    assert sorted(p.name for p in (tmp_path / "absolute").iterdir()) == ["layout-a.json"]


@pytest.mark.parametrize("named_by", ["CIVRULES_CACHE_DIR", "XDG_CACHE_HOME", "HOME"])
def test_a_cache_folder_that_is_a_symbolic_link_is_neither_written_nor_read_through(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, named_by: str
) -> None:
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "layout-a.json").write_bytes(b"{}")
    link = {
        "CIVRULES_CACHE_DIR": tmp_path / "cache",
        "XDG_CACHE_HOME": tmp_path / "xdg" / "civrules",
        "HOME": tmp_path / "home" / ".cache" / "civrules",
    }[named_by]
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(victim)
    monkeypatch.delenv("CIVRULES_CACHE_DIR", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv(
        named_by, str(tmp_path / {"CIVRULES_CACHE_DIR": "cache", "XDG_CACHE_HOME": "xdg"}.get(named_by, "home"))
    )
    assert cache.cache_dir() is None
    cache.write("layout-b.json", b"{}")
    assert cache.read("layout-a.json") is None
    # A link put in place after cache_dir() looked: refused where the folder is opened.
    monkeypatch.setattr(cache, "cache_dir", lambda: link)
    cache.write("layout-c.json", b"{}")
    assert sorted(p.name for p in victim.iterdir()) == ["layout-a.json"]


# --- No program is found in the checked project through a relative folder of the PATH -------------

#: The programs a library civrules loads runs to find a shared library (ctypes.util.find_library).
_LOOKUP_TOOLS = ("gcc", "cc", "ld", "objdump")


def _plant_programs(folder: Path, ran: Path) -> None:
    for name in _LOOKUP_TOOLS:
        program = folder / name
        program.write_text(f'#!/bin/sh\necho {name} >> "{ran}"\nexit 1\n', encoding="utf-8")
        program.chmod(0o755)


def test_the_program_searches_only_the_absolute_folders_of_the_path(tmp_path: Path) -> None:
    """`PATH=.:$PATH civrules sheets RULESET --pdf` in a project holding a `gcc` and an `ld` ran both:
    WeasyPrint loads Pango through cffi, whose ctypes.util.find_library runs them."""
    import subprocess
    import sys

    pytest.importorskip("weasyprint")
    ran = tmp_path / "ran"
    _plant_programs(tmp_path, ran)
    done = subprocess.run(
        [sys.executable, "-m", "civrules", "--rules", str(REPO / "rules"), "sheets", "nosuch", "--pdf"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PATH": f".:{os.environ['PATH']}:", "PYTHONPATH": str(PACKAGE.parent)},
        timeout=120,
        check=False,
    )
    assert (done.returncode, "error[R001]" in done.stdout + done.stderr) == (2, True), done.stderr
    assert not ran.exists(), ran.read_text(encoding="utf-8")


# --- No module is imported from the checked project through a relative folder of PYTHONPATH -------


def _plant_modules(project: Path, ran: Path) -> None:
    """Modules civrules imports after its entry point starts, and a distribution declaring a family."""
    for name in ("__future__", "contextlib", "typing", "yaml", "click", "planted_family"):
        (project / f"{name}.py").write_text(f"open({str(ran)!r}, 'a').write({name!r} + '\\n')\n", encoding="utf-8")
    info = project / "planted-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: planted\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[civrules.families]\nplanted = planted_family:FAMILY\n", encoding="utf-8")


@pytest.mark.parametrize(
    "pythonpath",
    [
        ".",
        # The other ways of writing a relative folder: each taken off by the same function, whose
        # reading of every way is held in process (below); a program started under each, slow.
        pytest.param("{elsewhere}:", marks=pytest.mark.slow),
        pytest.param(":{elsewhere}", marks=pytest.mark.slow),
        pytest.param("rules/..", marks=pytest.mark.slow),
    ],
)
def test_the_program_imports_nothing_through_a_relative_folder_of_pythonpath(tmp_path: Path, pythonpath: str) -> None:
    """`PYTHONPATH=. civrules list` (or a trailing `:`) in a project holding a `*.dist-info` that
    declares a game family imported (ran) the family's module from the project; a `yaml.py`, a
    `typing.py` there was imported in place of the installed one."""
    import subprocess
    import sys

    project, elsewhere, ran = tmp_path / "project", tmp_path / "elsewhere", tmp_path / "ran"
    project.mkdir()
    elsewhere.mkdir()
    (project / "rules").mkdir()
    _plant_modules(project, ran)
    script = Path(sys.executable).with_name("civrules")
    done = subprocess.run(
        [str(script), "--rules", str(RULES), "list"],
        capture_output=True,
        text=True,
        cwd=project,
        env={**os.environ, "PYTHONPATH": pythonpath.format(elsewhere=elsewhere)},
        timeout=120,
        check=False,
    )
    assert not ran.exists(), ran.read_text(encoding="utf-8")
    assert (done.returncode, done.stderr) == (0, "")
    assert "mega-civilization" in done.stdout


@pytest.mark.parametrize("pythonpath", [".", "{elsewhere}:", ":{elsewhere}", "rules/.."])
def test_every_way_of_writing_a_relative_pythonpath_folder_is_taken_off_the_search_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pythonpath: str
) -> None:
    """The entry point's reading of each way a ``PYTHONPATH`` names the working directory (a dot, an
    empty entry after or before an absolute one, a relative path that leads back to it): the folder
    Python put on ``sys.path`` for it is taken off, the absolute one kept. The program started
    under the first is the test above (in `make test`), under every one in `make test-slow`."""
    import sys

    from civrules.support import search_path

    project, elsewhere = tmp_path / "project", tmp_path / "elsewhere"
    (project / "rules").mkdir(parents=True)
    elsewhere.mkdir()
    monkeypatch.chdir(project)
    monkeypatch.setattr(sys, "path", [*sys.path])
    monkeypatch.setenv("PYTHONPATH", pythonpath.format(elsewhere=elsewhere))
    # What Python's start puts on sys.path for the variable: each entry, a relative (or empty) one
    # made absolute against the working directory.
    for entry in reversed(pythonpath.format(elsewhere=elsewhere).split(os.pathsep)):
        sys.path.insert(1, os.path.abspath(entry or os.curdir))
    search_path.keep_absolute_imports()
    assert str(project) not in [os.path.abspath(entry or os.curdir) for entry in sys.path]
    assert os.environ.get("PYTHONPATH") == (str(elsewhere) if "{elsewhere}" in pythonpath else None)
    if "{elsewhere}" in pythonpath:
        assert str(elsewhere) in sys.path


def test_programs_civrules_runs_see_the_absolute_folders_of_pythonpath_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the entry point leaves in ``PYTHONPATH`` for the programs it runs (git, and what a library
    runs): its absolute entries; nothing where it had none."""
    import sys

    from civrules.support import search_path

    monkeypatch.setattr(sys, "path", [*sys.path])
    here = os.getcwd()
    monkeypatch.setenv("PYTHONPATH", f".:/opt/kept::{here}")
    sys.path.insert(1, here)
    sys.path.insert(1, "/opt/kept")
    search_path.keep_absolute_imports()
    assert os.environ["PYTHONPATH"] == f"/opt/kept:{here}"
    assert "/opt/kept" in sys.path
    assert here in sys.path  # named absolutely too: kept
    monkeypatch.setenv("PYTHONPATH", "lib:")
    sys.path.insert(1, os.path.join(here, "lib"))
    search_path.keep_absolute_imports()
    assert "PYTHONPATH" not in os.environ
    assert os.path.join(here, "lib") not in sys.path


def test_an_import_that_runs_programs_sees_the_absolute_folders_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A command line called in process keeps its host's PATH, but what civrules imports that runs
    programs (WeasyPrint, through ctypes.util.find_library) sees only its absolute folders."""
    import ctypes.util

    from civrules.support import search_path

    ran = tmp_path / "ran"
    _plant_programs(tmp_path, ran)
    monkeypatch.chdir(tmp_path)
    host = f".::{os.environ['PATH']}"
    monkeypatch.setenv("PATH", host)
    with search_path.absolute_only():
        ctypes.util.find_library("civrules-no-such-library")
    assert os.environ["PATH"] == host
    assert not ran.exists(), ran.read_text(encoding="utf-8")
    ctypes.util.find_library("civrules-no-such-library")
    assert ran.exists()  # the planted programs are those the lookup runs, where the PATH finds them


def test_an_import_that_runs_programs_skips_absolute_path_folders_in_the_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`PATH=$PWD/node_modules/.bin:$PATH` is absolute: `sheets --pdf` ran the `gcc` and `ld` a
    project holds there (WeasyPrint's library lookup). The folders of the PATH in the rules folder's
    project are skipped while such an import runs."""
    import ctypes.util

    from civrules.support import cache, search_path

    project = tmp_path / "project"
    (project / "rules").mkdir(parents=True)
    (project / "node_modules" / ".bin").mkdir(parents=True)
    ran = tmp_path / "ran"
    _plant_programs(project / "node_modules" / ".bin", ran)
    host = f"{project / 'node_modules' / '.bin'}:{os.environ['PATH']}"
    monkeypatch.setenv("PATH", host)
    with search_path.absolute_only(cache.project_trees(project / "rules")):
        ctypes.util.find_library("civrules-no-such-library")
    assert os.environ["PATH"] == host
    assert not ran.exists(), ran.read_text(encoding="utf-8")
    ctypes.util.find_library("civrules-no-such-library")
    assert ran.exists()  # the planted programs are those the lookup runs, where the PATH finds them


def test_every_sheet_forbids_scripts_and_fetches_in_a_browser() -> None:
    """A sheet opened in a browser had no Content-Security-Policy (the helpers' pages have one):
    its escaping was all that stood between a name in the rules and a script. Every sheet now says
    that nothing runs and nothing is fetched, whatever came through."""
    sheets = shipped.built("sheets/*/*.html")
    assert sheets
    for sheet in sheets:
        head = sheet.read_text(encoding="utf-8").split("</head>", 1)[0]
        assert "<script" not in head, sheet
        (policy,) = [line for line in head.splitlines() if 'http-equiv="Content-Security-Policy"' in line]
        content = html.unescape(policy.split('content="', 1)[1].split('"', 1)[0])
        rules = dict(part.strip().split(" ", 1) for part in content.split(";"))
        assert rules["default-src"] == "'none'" and "script-src" not in rules, (sheet, rules)
        assert rules["img-src"] == rules["connect-src"] == rules["base-uri"] == "'none'", (sheet, rules)


def test_every_sheet_allows_its_own_style_alone() -> None:
    """The sheets' policy said `style-src 'unsafe-inline'` (the helpers' pages name their style's
    hash), because the sheets used `style` attributes: any style that came through unescaped would
    apply. Each sheet has none, and its policy allows its one `<style>` by its sha256 alone."""
    import base64
    import hashlib
    import re

    sheets = shipped.built("sheets/*/*.html")
    assert sheets
    for sheet in sheets:
        text = sheet.read_text(encoding="utf-8")
        assert not re.search(r"\sstyle\s*=", text), sheet  # an attribute; `font-style=` in SVG is none
        head = text.split("</head>", 1)[0]
        (style,) = re.findall(r"<style>(.*?)</style>", head, re.S)
        (policy,) = [line for line in head.splitlines() if 'http-equiv="Content-Security-Policy"' in line]
        content = html.unescape(policy.split('content="', 1)[1].split('"', 1)[0])
        rules = dict(part.strip().split(" ", 1) for part in content.split(";"))
        digest = base64.b64encode(hashlib.sha256(style.encode("utf-8")).digest()).decode("ascii")
        assert rules["style-src"] == f"'sha256-{digest}'", sheet


def test_a_staged_tree_tells_which_files_it_shares_with_the_tree_it_replaces(tmp_path: Path) -> None:
    """The files a build kept from the old tree (linked: they held what it renders) are the very
    files still there: an edit made in place before the swap is in the new tree too, which the
    build's report says (see test_build_check's in-place case, slow)."""
    from civrules.emit.output import StagedTree

    out = tmp_path / "generated"
    write_tree(out, {"same.py": b"x = 1\n", "other.py": b"y = 1\n"})
    staged = StagedTree(out, "build")
    try:
        staged["same.py"] = b"x = 1\n"  # as it was: kept
        staged["other.py"] = b"y = 2\n"  # changed: written anew
        assert staged.shared(["same.py", "other.py", "absent.py"]) == {"same.py"}
    finally:
        staged.discard()
