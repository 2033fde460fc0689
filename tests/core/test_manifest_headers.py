"""Manifests declared by their headers: the identity of every manifest is read from the top level of
its mapping (:mod:`civrules.load.header`); the whole file only when something asks for it.

What must hold: a header says what the full read says (every shipped manifest, hostile ones, random
ones), a file whose header cannot be read cheaply is read in full (so its diagnostics are those of a
full read), every command's output is the same with and without header reads, and a command on one
ruleset reads in full only that ruleset's manifest and its bases' (counted, never timed).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from civrules.cli import main
from civrules.diagnostics.render import render_json
from civrules.load import Limits, read_yaml_bytes
from civrules.load.header import IDENTITY, read_header
from civrules.load.workspace import Workspace
from civrules.pipeline.incremental import full_run
from tests import shipped
from tests.budget import heavy
from tests.conftest import RULES


def _identity(raw: bytes) -> dict[str, Any] | None:
    """What the full read makes of a file's identity keys (None: no mapping)."""
    document, _ = read_yaml_bytes(raw, "x.yaml", Limits())
    if document is None or not isinstance(document.data, dict):
        return None
    return {key: document.data[key] for key in IDENTITY if key in document.data}


@pytest.mark.parametrize("path", shipped.manifests(), ids=lambda p: p.name)
def test_every_shipped_manifest_has_a_header_equal_to_its_full_read(path: Path) -> None:
    raw = path.read_bytes()
    head = read_header(raw, Limits())
    assert head is not None, "a shipped manifest is declared by its header (else every command reads it in full)"
    assert head == _identity(raw)


#: Manifests read in full: something in each could make the full read refuse the file, or read an
#: identity value otherwise than as the text written.
FULL_READS = {
    "byte order mark": b"\xef\xbb\xbfkind: ruleset\nid: x\n",
    "utf-16": "kind: ruleset\nid: x\n".encode("utf-16"),
    "invalid utf-8": b"kind: ruleset\nid: x\nname: \xff\n",
    "control character": b"kind: ruleset\nid: x\nname: a\x07b\n",
    "escaped control character in the id": b'kind: ruleset\nid: "x\\x1b"\n',
    "syntax error deep inside": b"kind: ruleset\nid: x\nfiles:\n  cards: [a, b\n",
    "two documents": b"kind: ruleset\nid: x\n---\nkind: ruleset\nid: y\n",
    "empty": b"",
    "only a comment": b"# nothing\n",
    "a list": b"- kind: ruleset\n",
    "a scalar": b"ruleset\n",
    "tagged root": b"--- !!map\nkind: ruleset\nid: x\n",
    "duplicate id": b"kind: ruleset\nid: x\nid: y\n",
    "duplicate other key": b"kind: ruleset\nid: x\nname: a\nname: b\n",
    "number key": b"kind: ruleset\nid: x\n1: one\n",
    "boolean key": b"kind: ruleset\nid: x\ntrue: yes\n",
    "null key": b"kind: ruleset\nid: x\n~: nothing\n",
    "collection key": b"kind: ruleset\nid: x\n? [a]\n: b\n",
    "number id": b"kind: ruleset\nid: 12\n",
    "null extends": b"kind: ruleset\nid: x\nextends:\n",
    "boolean family": b"kind: ruleset\nid: x\nfamily: true\n",
    "list extends": b"kind: ruleset\nid: x\nextends: [a]\n",
    "tagged id": b"kind: ruleset\nid: !!str x\n",
    "anchored id": b"kind: ruleset\nid: &a x\n",
    "alias at the top": b"kind: ruleset\nid: x\nname: &n a\nnote: *n\n",
    "merge key": b"base: &b {a: 1}\nkind: ruleset\nid: x\n<<: *b\n",
    "anchored collection": b"kind: ruleset\nid: x\nfiles:\n  cards: &c [a]\n  maps: *c\n",
    "undefined alias": b"kind: ruleset\nid: x\nfiles:\n  cards: [*nowhere]\n",
    "alias bomb": b"kind: ruleset\nid: x\nnotes:\n  - &a [x, x, x, x]\n  - [*a, *a, *a, *a]\n",
    "too deep": b"kind: ruleset\nid: x\nnotes: " + b"[" * 120 + b"]" * 120 + b"\n",
}


@pytest.mark.parametrize("raw", FULL_READS.values(), ids=list(FULL_READS))
def test_a_header_that_cannot_be_read_cheaply_means_a_full_read(raw: bytes) -> None:
    assert read_header(raw, Limits()) is None


def test_the_limits_are_a_full_read_s_too() -> None:
    raw = b"kind: ruleset\nid: x\nnotes: [a, b, c, d]\n"
    assert read_header(raw, Limits()) == {"kind": "ruleset", "id": "x"}
    assert read_header(raw, Limits(max_nodes=4)) is None
    assert read_header(raw, Limits(max_depth=2)) is None
    assert read_header(raw, Limits(max_bytes=len(raw) - 1)) is None


def test_a_header_within_any_limits_is_the_full_read_s_identity_within_them() -> None:
    """Whatever the bounds (`--max-nodes`, nesting), a header is given only where the full read
    under the same bounds makes the same mapping: nested nodes count as the reader counts them."""
    raw = b"kind: ruleset\nid: x\nname: n\nnotes: [a, [b, &c c], *c, {d: e}, f, g]\n"
    for nodes in range(1, 24):
        for depth in range(1, 6):
            limits = Limits(max_nodes=nodes, max_depth=depth)
            head = read_header(raw, limits)
            if head is not None:
                document, _ = read_yaml_bytes(raw, "x.yaml", limits)
                assert document is not None and {k: document.data[k] for k in IDENTITY if k in document.data} == head
    assert read_header(raw, Limits()) == {"kind": "ruleset", "id": "x"}


def test_what_a_header_reads_past() -> None:
    """Nested anchors and aliases of scalars, tags and quoted keys below the top level are read past."""
    raw = (
        b'"kind": ruleset\n'
        b"id: 'x'\n"
        b"family: nothing-known\n"
        b"extends: base\n"
        b"notes:\n"
        b"  - &n a note\n"
        b"  - *n\n"
        b"  - !!str 12\n"
        b"  - {1: one, ~: none}\n"
    )
    assert read_header(raw, Limits()) == {"kind": "ruleset", "id": "x", "family": "nothing-known", "extends": "base"}
    assert read_header(raw, Limits()) == _identity(raw)


_FRAGMENTS = st.sampled_from(
    [
        "kind: ruleset",
        "kind: cards",
        '"kind": "ruleset"',
        "id: x",
        "id: 'x'",
        'id: "x\\t"',
        "id: 0x1f",
        "id: null",
        "id: no",
        "id: true",
        "id: .inf",
        "id: -1",
        "id: 012",
        "family: imperial-settlers",
        "family: ~",
        "extends: base",
        "extends: &e base",
        "extends: *e",
        "extends: !!str base",
        "name: Nice",
        "name: &n Nice",
        "note: *n",
        "files:\n  cards: [a, &c b, *c]",
        "files:\n  cards: &l [a]\n  maps: *l",
        "files: {cards: [a], maps: [b]",
        "notes:\n  - !custom x\n  - 'q'",
        "? complex\n: key",
        "2: two",
        "'': empty",
        "---",
        "...",
        "# a comment",
        "  indented: badly",
        "tab:\tvalue",
        "bom: \ufeff",
        "nel: a\u0085b",
    ]
)


@given(lines=st.lists(_FRAGMENTS, min_size=0, max_size=8))
@settings(
    max_examples=150,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
def test_a_header_is_the_full_read_s_identity_or_none(lines: list[str]) -> None:
    raw = "\n".join(lines).encode("utf-8")
    head = read_header(raw, Limits())
    if head is not None:
        assert head == _identity(raw)


# A tree of manifests of every sort: declared by header, read in full, broken, refused.
_INHERITS = "kind: ruleset\nid: inherits\nname: Inherits\nextends: imperial-settlers\nstatus: house_rule\n"
_ODD = {
    "misnamed.yaml": "kind: ruleset\nid: other-name\nname: Misnamed\n",
    "dup.yaml": "kind: ruleset\nid: dup\nname: Dup\n",
    "dup.yml": "kind: ruleset\nid: dup\nname: Dup again\n",
    "cards-here.yaml": "kind: cards\ncards: []\n",
    "broken.yaml": "kind: ruleset\nid: broken\nfiles:\n  cards: [a\n",
    "loop-a.yaml": "kind: ruleset\nid: loop-a\nname: A\nextends: loop-b\n",
    "loop-b.yaml": "kind: ruleset\nid: loop-b\nname: B\nextends: loop-a\n",
    "chain.yaml": "kind: ruleset\nid: chain\nname: Chain\nextends: loop-a\n",
    "anchored.yaml": "kind: ruleset\nid: &i anchored\nname: *i\n",
    "unknown-family.yaml": "kind: ruleset\nid: unknown-family\nfamily: nope\nname: Unknown\n",
    "number-id.yaml": "kind: ruleset\nid: 12\n",
    "missing-base.yaml": "kind: ruleset\nid: missing-base\nname: M\nextends: nowhere\n",
    "inherits.yaml": _INHERITS,
    "inherits-again.yaml": _INHERITS.replace("id: inherits", "id: inherits-again").replace(
        "extends: imperial-settlers", "extends: inherits"
    ),
}


def _tree(root: Path) -> Path:
    rules = root / "rules"
    for relative in (
        "cards/imperial-settlers.yaml",
        "factions/imperial-settlers.yaml",
        "rulebooks/imperial-settlers.yaml",
    ):
        (rules / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(RULES / relative, rules / relative)
    rulesets = rules / "rulesets"
    rulesets.mkdir()
    for name in ("imperial-settlers.yaml", "imperial-settlers-peaceful.yaml"):
        shutil.copyfile(RULES / "rulesets" / name, rulesets / name)
    for name, text in _ODD.items():
        (rulesets / name).write_text(text, encoding="utf-8")
    (rulesets / "link.yaml").symlink_to(rulesets / "imperial-settlers.yaml")
    if hasattr(os, "mkfifo"):
        os.mkfifo(rulesets / "fifo.yaml")
    return rules


def _outputs(rules: Path) -> list[tuple[int, str]]:
    runner = CliRunner()
    # every ruleset validated, from a workspace that declared each manifest by its header (the
    # command line reads them in full at once when it loads every ruleset)
    found = [(0, render_json(full_run(rules)))]
    for args in (
        ["list", "--format", "json"],
        ["validate", "--format", "json"],
        *(["validate", name, "--format", "json"] for name in ("inherits-again", "imperial-settlers-peaceful", "chain")),
        ["validate", "fifo", "--format", "json"],
        ["validate", "nowhere", "--format", "json"],
    ):
        result = runner.invoke(main, [*args, "--rules", str(rules)])
        found.append((result.exit_code, result.stdout + result.stderr))
    return found


@heavy
def test_every_command_says_the_same_with_and_without_headers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = _tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    with_headers = _outputs(rules)
    declared = {name for name, manifest in Workspace(rules).manifests().items() if not manifest.is_read}
    assert declared == {
        "imperial-settlers",
        "imperial-settlers-peaceful",
        "inherits",
        "inherits-again",
        "missing-base",
        "unknown-family",
    }
    monkeypatch.setattr(Workspace, "reads_headers", False)
    in_full = _outputs(rules)
    assert with_headers == in_full
    everything = json.loads(with_headers[2][1])
    found = {(d["code"], Path(d["file"]).name) for d in everything}
    # the odd manifests are reported as a full read reports them
    assert {
        ("L001", "broken.yaml"),
        ("R002", "dup.yml"),
        ("R003", "link.yaml"),
        ("R005", "cards-here.yaml"),
        ("R006", "misnamed.yaml"),
        ("V002", "loop-a.yaml"),
    } <= found


def test_shipped_rulesets_are_declared_by_header_alike(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A variant of a shipped ruleset, and a local ruleset with a shipped id (R013, which reads both)."""
    monkeypatch.delenv("CIVRULES_NO_SHIPPED", raising=False)
    rulesets = tmp_path / "rules" / "rulesets"
    rulesets.mkdir(parents=True)
    (rulesets / "house.yaml").write_text(
        "kind: ruleset\nid: house\nname: House\nextends: imperial-settlers-peaceful\nstatus: house_rule\n",
        encoding="utf-8",
    )
    shutil.copyfile(
        RULES / "rulesets" / "imperial-settlers-peaceful.yaml", rulesets / "imperial-settlers-peaceful.yaml"
    )
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()

    def outputs() -> list[tuple[int, str]]:
        return [
            (result.exit_code, result.stdout + result.stderr)
            for args in (["list", "--format", "json"], ["validate", "--format", "json"], ["validate", "house"])
            for result in [runner.invoke(main, args)]
        ]

    with_headers = outputs()
    monkeypatch.setattr(Workspace, "reads_headers", False)
    assert with_headers == outputs()
    assert "R013" in with_headers[1][1]


class _Counting(Workspace):
    """A workspace that counts the files it reads in full."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.full: list[str] = []

    def read_raw(self, relative: str, raw: bytes, display: str) -> Any:
        self.full.append(relative)
        return super().read_raw(relative, raw, display)


@pytest.mark.parametrize(
    ("ruleset", "manifests"),
    [
        ("mega-civilization", {"rulesets/mega-civilization.yaml"}),
        ("central-america", {"rulesets/central-america.yaml", "rulesets/expansion-project.yaml"}),
        (
            "sid-meiers-civilization-community",
            {"rulesets/sid-meiers-civilization-community.yaml", "rulesets/sid-meiers-civilization.yaml"},
        ),
    ],
)
def test_one_ruleset_reads_only_its_own_manifests_in_full(ruleset: str, manifests: set[str]) -> None:
    from civrules.resolve import Resolver

    workspace = _Counting(RULES)
    found = workspace.manifests()
    assert len(found) == len(list((RULES / "rulesets").glob("*.yaml")))
    assert not [r for r in workspace.full if r.startswith("rulesets/")]
    loaded = workspace.load_ruleset(found[ruleset])
    Resolver(workspace).resolve(loaded)
    assert {r for r in workspace.full if r.startswith("rulesets/")} == manifests
    assert len(workspace.full) == len(set(workspace.full)), "each file is read in full once"
    unread = {name for name, manifest in found.items() if not manifest.is_read}
    assert unread == {name for name in found if f"rulesets/{name}.yaml" not in manifests}


def test_a_manifest_changed_after_its_header_was_read_is_reported_as_it_reads_now(tmp_path: Path) -> None:
    from civrules.pipeline import analyse

    rules = _tree(tmp_path)
    workspace = Workspace(rules)
    manifest = workspace.manifests()["imperial-settlers-peaceful"]
    assert not manifest.is_read
    (rules / "rulesets" / "imperial-settlers-peaceful.yaml").write_text("kind: ruleset\nid: [\n", encoding="utf-8")
    analysis = analyse(workspace, workspace.load_ruleset(manifest))
    assert analysis.model is None
    assert [d.code for d in analysis.diagnostics] == ["L001"]


def _headers_read(rules: Path, monkeypatch: pytest.MonkeyPatch, limits: Limits | None = None) -> list[str]:
    """The manifests whose header one workspace's `manifests()` parsed (the others came from the cache)."""
    from civrules.load import workspace as module

    parsed: list[str] = []
    names = {p.read_bytes(): p.name for p in (rules / "rulesets").iterdir() if p.is_file() and not p.is_symlink()}

    def counted(raw: bytes, limits: Limits) -> dict[str, str] | None:
        parsed.append(names[raw])
        return read_header(raw, limits)

    monkeypatch.setattr(module, "read_header", counted)
    found = Workspace(rules, limits).manifests()
    uncached = Workspace(rules, limits)
    uncached.reads_headers = False
    assert {k: (m.family.id, m.head) for k, m in found.items()} == {
        k: (m.family.id, m.head) for k, m in uncached.manifests().items()
    }
    return sorted(parsed)


def test_a_header_is_parsed_again_only_where_its_manifests_bytes_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, own_cache: Path
) -> None:
    rules = _tree(tmp_path)
    every = _headers_read(rules, monkeypatch)
    assert "imperial-settlers.yaml" in every and "imperial-settlers-peaceful.yaml" in every
    assert _headers_read(rules, monkeypatch) == []  # the same bytes: every header from the cache
    peaceful = rules / "rulesets" / "imperial-settlers-peaceful.yaml"
    peaceful.write_text(peaceful.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    assert _headers_read(rules, monkeypatch) == ["imperial-settlers-peaceful.yaml"]
    # Other limits are another entry: a header within the default limits is not one within these.
    assert _headers_read(rules, monkeypatch, Limits(max_nodes=4)) == every


@pytest.mark.parametrize(
    "forged",
    [
        b"not json",
        b"[]",
        b'{"headers": []}',
        b'{"headers": {"rulesets/imperial-settlers.yaml": ["abc", null]}}',
        b'{"headers": {"rulesets/imperial-settlers.yaml": ["' + b"0" * 64 + b'", {"id": 5}]}}',
        b'{"headers": {"rulesets/imperial-settlers.yaml": ["' + b"0" * 64 + b'", {"players": "x"}]}}',
        b'{"headers": {"rulesets/imperial-settlers.yaml": ["' + b"0" * 64 + b'", {"kind": "ruleset", "id": "x"}]}}',
        b'{"headers": ' + b"[" * 200_000 + b"]" * 200_000 + b"}",  # RecursionError, once an internal error
    ],
)
def test_a_header_entry_that_is_not_what_civrules_wrote_is_parsed_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, own_cache: Path, forged: bytes
) -> None:
    """Corrupt, of another form, or of other bytes (the last: a SHA-256 of no file here)."""
    rules = _tree(tmp_path)
    every = _headers_read(rules, monkeypatch)
    (entry,) = own_cache.glob("headers-*.json")
    entry.write_bytes(forged)
    again = _headers_read(rules, monkeypatch)
    assert again == every
    assert _headers_read(rules, monkeypatch) == []  # and is written right again


def test_a_header_entry_holding_a_lone_surrogate_is_parsed_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, own_cache: Path
) -> None:
    """An entry of the right bytes and form whose header holds a string no file can (an escaped
    lone surrogate, which cannot be printed or encoded) is not what civrules wrote: not used."""
    rules = _tree(tmp_path)
    every = _headers_read(rules, monkeypatch)
    (entry,) = own_cache.glob("headers-*.json")
    record = json.loads(entry.read_bytes())
    record["headers"]["rulesets/imperial-settlers.yaml"][1]["id"] = "imperial-\ud800-settlers"
    entry.write_text(json.dumps(record), encoding="ascii")
    assert _headers_read(rules, monkeypatch) == every


def test_without_a_cache_every_header_is_parsed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CIVRULES_CACHE_DIR", "")
    rules = _tree(tmp_path)
    every = _headers_read(rules, monkeypatch)
    assert every and _headers_read(rules, monkeypatch) == every
