"""What a build lets go of to keep its memory down (issue 32, point 2) changes nothing it writes:
the positions and the checks' caches dropped once a ruleset is checked, tables written entry by
entry, a large module joined through a temporary file, files read one at a time for the stamp and
the versions."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from civrules.emit import pyfmt, stamp, versions
from civrules.emit.build import render
from civrules.load.document import Document
from civrules.load.reader import read_yaml_text
from civrules.load.workspace import Workspace
from civrules.support import allocator, cache, files
from tests.conftest import RULES

#: A base and its variant: the variant reads the base's files, so the base's positions must be
#: kept through its own build for the variant's checks and its sheets' changes.
PAIR = ("advanced-civilization", "advanced-civilization-western")


def _tree(let_go: bool) -> tuple[dict[str, bytes], list[str]]:
    workspace = Workspace(RULES)
    manifests = workspace.manifests()
    loaded = [workspace.load_ruleset(manifests[name]) for name in PAIR]
    result = render(workspace, loaded, let_go=let_go)
    assert not result.failed
    return dict(result.tree), sorted(str(d) for d in result.diagnostics)


@pytest.mark.slow
def test_letting_go_after_the_checks_renders_the_same_files_and_findings() -> None:
    kept, kept_found = _tree(let_go=False)
    let_go, let_go_found = _tree(let_go=True)
    assert let_go_found == kept_found
    assert sorted(let_go) == sorted(kept)
    assert [path for path in kept if kept[path] != let_go[path]] == []


def test_a_document_that_forgot_its_positions_keeps_its_data_and_locates_the_file() -> None:
    document, problems = read_yaml_text("a:\n  b: [1, 2]\n", "a.yaml")
    assert isinstance(document, Document) and not problems
    assert document.span(("a", "b")).line == 2
    document.forget_positions()
    assert document.data == {"a": {"b": [1, 2]}}
    span = document.span(("a", "b"))
    assert span.file == "a.yaml"
    assert document.exact_span(("a",)) is None
    assert not document.has_key(("a",))


def test_a_lazy_tuple_is_written_as_the_tuple() -> None:
    cases: list[list[pyfmt.Node]] = [[], [pyfmt.Code("1")], [pyfmt.string(f"item {n}") for n in range(40)]]
    for items in cases:

        def make(items: list[pyfmt.Node] = items) -> Iterator[pyfmt.Node]:
            return iter(items)

        lazy = pyfmt.lazy_tup(len(items), make)
        assert pyfmt.statement("X", lazy) == pyfmt.statement("X", pyfmt.tup(items))


def test_a_large_module_joined_through_a_file_is_the_join(monkeypatch: pytest.MonkeyPatch) -> None:
    def made() -> pyfmt.Source:
        source = pyfmt.Source()
        for n in range(50):
            source.statement(f"#: {n}\n", f"T{n}", pyfmt.tup([pyfmt.string(f"v{n}-{i}") for i in range(60)]))
        return source

    joined = made().module(["import x\n"])
    monkeypatch.setattr(pyfmt, "_SPOOLED", 1)
    spooled = made()
    assert spooled.module(["import x\n"]) == joined
    assert spooled.chunks == []


def test_versions_read_the_package_files_through_a_view_of_python() -> None:
    tree = {"python/p/__init__.py": b"x", "python/p/data.py": b"y", "python/q/data.py": b"w", "sheets/a.html": b"z"}
    view = versions._Python(tree, ["python/p/__init__.py", "python/p/data.py"])
    assert sorted(view) == ["p/__init__.py", "p/data.py"]
    assert "p/data.py" in view and "q/data.py" not in view and "a.html" not in view and len(view) == 2
    assert view["p/data.py"] == b"y"


def test_versions_find_each_packages_files_nested_ones_included(tmp_path: Path) -> None:
    """settle() finds every package's files in one pass; a package's own folders are its files too."""
    placeholder = f'"{versions.UNVERSIONED}"'.encode()
    tree = {
        "python/r/a/__init__.py": b"__all__ = ['X']\nX: Final[int] = 1\n__version__: Final = " + placeholder + b"\n",
        "python/r/a/sub/extra.py": b"Y = 2\n",
        "python/r/b/__init__.py": b"__all__ = ['X']\nX: Final[str] = 'x'\n__version__: Final = " + placeholder + b"\n",
        "sheets/a.html": b"z",
    }
    lines = versions.settle(tree, {"r_a": "r/a", "r_b": "r/b"}, None, 1 << 20)
    assert len(lines) == 2 and all("1.0.0" in line for line in lines)
    a, b = (json.loads(tree[f"python/r/{name}/api.json"]) for name in ("a", "b"))
    assert a["names"]["X"] == "Final[int]" and b["names"]["X"] == "Final[str]"
    init = {"r/a/__init__.py": tree["python/r/a/__init__.py"]}
    nested = versions.package_api({**init, "r/a/sub/extra.py": b"Y = 2\n"}, "r/a")
    assert nested.digest != versions.package_api(init, "r/a").digest  # the package's own folder is hashed with it
    assert a["digest"] != b["digest"]
    # The files a version is written into, held out of the tree until then, end in it the same.
    held_tree = {path: content for path, content in tree.items() if path.startswith("sheets/") or "/sub/" in path}
    held = {path: content for path, content in tree.items() if path not in held_tree and not path.endswith("api.json")}
    held = {path: content.replace(b'"1.0.0"', placeholder) for path, content in held.items()}
    assert all(versions.versioned(path, path.split("/")[1] + "/" + path.split("/")[2]) for path in held)
    assert versions.settle(held_tree, {"r_a": "r/a", "r_b": "r/b"}, None, 1 << 20, held) == lines
    assert held_tree == tree


def test_a_build_writes_each_file_of_its_staging_tree_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A package's __init__.py and pyproject.toml are held until its version is decided: a file
    written twice was removed while the disk still synced it (8 ms a removal in a chain of variants)."""
    from civrules.emit import output

    written: list[str] = []
    put = output._put

    def counted(
        staging: Path, relative: str, data: bytes, delay: float, syncer: output._Syncer, *kept: output._Previous | None
    ) -> None:
        written.append(relative)
        put(staging, relative, data, delay, syncer, *kept)

    monkeypatch.setattr(output, "_put", counted)
    workspace = Workspace(RULES)
    manifests = workspace.manifests()
    tree = output.StagedTree(tmp_path / "generated")
    try:
        # The smallest shipped ruleset: its package's version is decided as any other's.
        result = render(workspace, [workspace.load_ruleset(manifests["sid-meiers-civilization"])], tree=tree)
        assert not result.failed and result.versions
        assert len(written) == len(set(written)) > 10
        init = f"python/{_folder('sid-meiers-civilization')}/__init__.py"
        assert init in written and versions.UNVERSIONED.encode() not in tree[init]
    finally:
        tree.discard()


def _folder(ruleset: str) -> str:
    from civrules.emit.packaging import package_folder

    return package_folder(ruleset)


def test_civrules_own_package_is_hashed_as_the_guarded_walk_hashes_it(tmp_path: Path) -> None:
    """The stamp hashes civrules' own package with a plain walk: the same digest as the guarded one
    (so no stamp goes stale), a link hashed as a link, and no digest for what is not a regular file."""
    import civrules

    package = Path(civrules.__file__).parent
    assert stamp._digest(stamp._own_parts(package) or []) == stamp._digest(stamp._tree_parts(package, 1 << 26) or [])
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "one.py").write_bytes(b"1" * 1000)
    (tmp_path / "a" / "__pycache__").mkdir()
    (tmp_path / "a" / "__pycache__" / "one.pyc").write_bytes(b"ignored")
    (tmp_path / "two.py").write_bytes(b"two")
    (tmp_path / "link.py").symlink_to("two.py")
    own, guarded = stamp._own_parts(tmp_path), stamp._tree_parts(tmp_path, 1 << 26)
    assert own is not None and guarded is not None
    assert (
        stamp._digest(own)
        == stamp._digest(guarded)
        == cache.digest("a/one.py", b"1" * 1000, "link.py", "link", "two.py", "two.py", b"two")
    )
    os.mkfifo(tmp_path / "pipe")
    assert stamp._own_parts(tmp_path) is None and stamp._tree_parts(tmp_path, 1 << 26) is None


def test_a_guarded_read_is_the_whole_file_whatever_its_size(tmp_path: Path) -> None:
    """A file is read in one call of its size (one more byte to find its end), and a file larger
    than its fstat said, or than the bound, is still read whole or refused."""
    for size in (0, 1, 4095, 4096, (1 << 20) + 3, (3 << 20) + 1):
        (tmp_path / "f").write_bytes(bytes(range(256)) * (size // 256) + b"x" * (size % 256))
        assert files.read_under(tmp_path, "f", 4 << 20) == (tmp_path / "f").read_bytes()
    with pytest.raises(files.RefusedError):
        files.read_under(tmp_path, "f", 1 << 20)


def test_a_guarded_read_is_whole_where_reads_come_back_short_before_the_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file system may return fewer bytes than asked before a file's end (FUSE, network file
    systems): the file is read until a read returns nothing, never cut at the first short read."""
    real_read = os.read
    monkeypatch.setattr(os, "read", lambda fd, size: real_read(fd, min(size, 1000)))
    (tmp_path / "f").write_bytes(bytes(range(256)) * 40)
    assert files.read_under(tmp_path, "f", 1 << 20) == (tmp_path / "f").read_bytes()


def test_suppressions_split_only_a_file_that_mentions_them(tmp_path: Path) -> None:
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "a.yaml").write_text("a: 1\n")
    (tmp_path / "rules" / "b.yaml").write_text("b: 1  # civrules: ignore[X001] why\n")
    workspace = Workspace(tmp_path / "rules")
    for name in ("a.yaml", "b.yaml"):
        workspace.load(name)
    shown = {name: workspace.load(name).path for name in ("a.yaml", "b.yaml")}
    assert workspace.source_lines(shown["a.yaml"]) == ["a: 1", ""]
    assert workspace.source_lines(shown["a.yaml"], mentioning="civrules:") == []
    assert workspace.source_lines(shown["b.yaml"], mentioning="civrules:") == [
        "b: 1  # civrules: ignore[X001] why",
        "",
    ]


def test_trimming_the_allocator_is_harmless_anywhere() -> None:
    allocator.trim()
    allocator.trim()


def test_the_sheets_one_at_a_time_are_the_sheets_rendered_together() -> None:
    from civrules.emit.build import variant_changes
    from civrules.emit.sheets import each_sheet, render_sheets
    from civrules.pipeline import analyse

    workspace = Workspace(RULES)
    loaded = workspace.load_ruleset(workspace.manifests()[PAIR[1]])
    analysis = analyse(workspace, loaded)
    assert analysis.model is not None and analysis.resolved is not None
    changes = variant_changes(workspace, loaded, analysis.resolved)
    together = render_sheets(analysis.model, "f", changes=changes)
    assert list(each_sheet(analysis.model, "f", changes=changes)) == list(together.items())
