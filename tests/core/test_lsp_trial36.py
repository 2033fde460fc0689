"""Round 36's editor trial: a designer's session in `civrules lsp`, driven in this process, on the
smallest rules folder that shows each case."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from tests.core.test_lsp import Editor

#: A cards file of no ruleset: R005, whatever else the buffer is typed to hold.
LONE = "kind: cards\nfamily: advanced-civilization\ncards: []\n"


def _published(editor: Editor, uri: str) -> list[dict[str, Any]]:
    return [
        m["params"]
        for m in editor.sent
        if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
    ]


def _session(tmp_path: Path, capabilities: dict[str, Any]) -> list[dict[str, Any]]:
    """What was published for a buffer opened at version 1 and typed at twice, its diagnostics the
    same at each version."""
    rules = tmp_path / "rules"
    (rules / "cards").mkdir(parents=True)
    (rules / "cards" / "lone.yaml").write_text(LONE, encoding="utf-8")
    uri = (rules / "cards" / "lone.yaml").absolute().as_uri()

    async def session() -> list[dict[str, Any]]:
        editor = Editor(rules)
        editor.initialize(rules, capabilities)
        editor.open(uri, LONE)
        await editor.settle()
        for version in (2, 3):
            text = LONE + "#" * version + "\n"
            change = {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}
            editor.notify("textDocument/didChange", change)
            await editor.settle()
        return _published(editor, uri)

    return asyncio.run(session())


def test_an_unchanged_set_of_diagnostics_is_sent_again_at_the_new_version_to_an_editor_that_reads_it(
    tmp_path: Path,
) -> None:
    """LSP 3.17: a publication's `version` says which text of the buffer it was made for. Round 35
    sent it only when the diagnostics changed: a buffer typed at kept its first version, and an
    editor that reads versions (`versionSupport`) took the diagnostics for those of an older text.
    Such an editor is sent the set again at each run's version; one that does not read versions
    is sent nothing new (a publication per run for nothing)."""
    reading = _session(tmp_path / "reads", {"textDocument": {"publishDiagnostics": {"versionSupport": True}}})
    assert [p.get("version") for p in reading] == [1, 2, 3]
    assert reading[0]["diagnostics"] and all(p["diagnostics"] == reading[0]["diagnostics"] for p in reading)
    ignoring = _session(tmp_path / "ignores", {})
    assert [p.get("version") for p in ignoring] == [1]


def test_references_read_the_part_of_a_broken_file_before_its_error_and_say_what_they_leave_out(
    tmp_path: Path,
) -> None:
    """A file that does not parse was left out of "find references", unsaid. Now the part before
    its error is read (at its places now), and the server's log names the file whose rest may
    name the id: a list of locations has no room for a note."""
    from civrules.lsp.index import Index
    from civrules.pipeline.incremental import Session

    rules = tmp_path / "rules"
    (rules / "cards").mkdir(parents=True)
    head = "kind: civilization_cards\n"
    (rules / "cards" / "a.yaml").write_text(
        head + "groups:\n  - {id: crafts}\ncards:\n  - {id: pottery, groups: [crafts]}\n", encoding="utf-8"
    )
    broken = (
        head
        + "cards:\n  - {id: cloth, groups: [crafts]}\n  - {id: mining, groups: [crafts\n  - {id: x, groups: [crafts]}\n"
    )
    (rules / "cards" / "b.yaml").write_text(broken, encoding="utf-8")
    index = Index(Session(rules).update())
    (crafts,) = [s for s in index.by_id["crafts"] if s.definition]
    found, unread = index.references_as_typed(crafts)
    assert sorted((s.relative, s.span.line) for s in found) == [
        ("cards/a.yaml", 3),
        ("cards/a.yaml", 5),
        ("cards/b.yaml", 3),
    ]
    (said,) = unread  # as diagnostics name the file, at the line of its error
    assert said.endswith("/rules/cards/b.yaml:5"), said

    async def session() -> list[dict[str, Any]]:
        editor = await Editor.started(rules)
        uri = (rules / "cards" / "a.yaml").absolute().as_uri()
        where = {"line": 2, "character": 10}  # in `crafts` of `- {id: crafts}`
        asked = {"textDocument": {"uri": uri}, "position": where, "context": {"includeDeclaration": True}}
        listed: list[dict[str, Any]] = editor.request("textDocument/references", asked)
        logged = [m["params"]["message"] for m in editor.sent if m.get("method") == "window/logMessage"]
        assert [one for one in logged if "leave out what" in one and "b.yaml:5" in one], logged
        return listed

    assert len(asyncio.run(session())) == 3


def test_the_outline_of_a_variant_lists_the_entities_its_overlay_changes(tmp_path: Path) -> None:
    """A variant that only patches its base (Advanced Civilization's western one patches two
    nations and three areas) had an outline of one line, its ruleset: the outline listed what a
    file defines. The entities it patches, replaces or removes are listed now, under their
    operation, each by id, the operation beside it."""
    from civrules.lsp.index import Index
    from civrules.pipeline.incremental import Session

    rules = tmp_path / "rules"
    (rules / "rulesets").mkdir(parents=True)
    (rules / "rulesets" / "v.yaml").write_text(
        "kind: ruleset\nid: v\nname: V\nextends: advanced-civilization\noverlay:\n  areas:\n    patch:\n"
        "      - {id: sahara, note: x}\n    remove:\n      - {id: cirta, why: y}\n",
        encoding="utf-8",
    )
    outline = Index(Session(rules).update()).outline("rulesets/v.yaml")
    shown = [(o.name, o.detail, [(c.name, c.detail, c.selection.line) for c in o.children]) for o in outline]
    assert shown == [
        ("v", "V", []),
        ("overlay.areas.patch", "1 area", [("sahara", "patched", 8)]),
        ("overlay.areas.remove", "1 area", [("cirta", "removed", 10)]),
    ]


def test_completion_of_extends_offers_the_family_s_other_rulesets_and_no_cycle(tmp_path: Path) -> None:
    """`extends: ` being typed in a variant: completion offered the ids of the rulesets the
    manifest reads, which with no base named yet is its own alone (a cycle). It offers every
    other ruleset of its family now, but one that extends it."""
    from civrules.lsp.index import Index
    from civrules.pipeline.incremental import Session

    rules = tmp_path / "rules"
    (rules / "rulesets").mkdir(parents=True)
    for name, extends in (("base", None), ("mine", ""), ("child", "mine")):
        text = f"kind: ruleset\nid: {name}\nname: {name.title()}\n" + (
            f"extends: {extends}\n" if extends is not None else ""
        )
        (rules / "rulesets" / f"{name}.yaml").write_text(text, encoding="utf-8")
    index = Index(Session(rules).update())
    assert index.extendable("rulesets/mine.yaml") == ["base"]
    assert index.extendable("rulesets/base.yaml") == ["child", "mine"]


def test_a_buffer_opened_broken_is_offered_its_family_s_ids(tmp_path: Path) -> None:
    """A buffer that did not parse when the editor opened it (no reading of it parsed this
    session) was of no kind, and so of no family: completion offered no id in it (a variant's
    `- {id: tar` typed before the first run: no area). Its `kind:` line gives its family now."""
    from civrules.lsp.index import Index
    from civrules.pipeline.incremental import Session

    rules = tmp_path / "rules"
    (rules / "cards").mkdir(parents=True)
    head = "kind: civilization_cards\n"
    (rules / "cards" / "a.yaml").write_text(head + "groups:\n  - {id: crafts}\ncards: []\n", encoding="utf-8")
    (rules / "cards" / "b.yaml").write_text(head + "cards: []\n", encoding="utf-8")
    session = Session(rules)
    session.set_text("cards/b.yaml", head + "cards:\n  - {id: cloth, groups: [cra\n")
    assert ("crafts", "groups") in Index(session.update()).ids("cards/b.yaml")


@pytest.mark.slow  # two folders, each validated with a shipped base: over the fast suite's share for one test
def test_workspace_symbols_of_a_shipped_base_two_folders_extend_are_listed_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two workspace folders, each a variant of the same shipped ruleset: "go to symbol in
    workspace" listed each of the base's entities twice, at the same place (each folder read the
    shipped file). Each is listed once; the variants' own entities stay one per folder."""
    monkeypatch.delenv("CIVRULES_NO_SHIPPED", raising=False)
    roots = []
    for name in ("a", "b"):
        (tmp_path / name / "rules" / "rulesets").mkdir(parents=True)
        (tmp_path / name / "rules" / "rulesets" / f"mine-{name}.yaml").write_text(
            f"kind: ruleset\nid: mine-{name}\nname: Mine\nextends: advanced-civilization\n", encoding="utf-8"
        )
        roots.append(tmp_path / name)

    async def session() -> list[dict[str, Any]]:
        editor = Editor(Path("rules"))
        folders = [{"uri": root.as_uri(), "name": root.name} for root in roots]
        editor.request(
            "initialize", {"processId": None, "rootUri": None, "workspaceFolders": folders, "capabilities": {}}
        )
        editor.notify("initialized", {})
        await editor.settle()
        found: list[dict[str, Any]] = editor.request("workspace/symbol", {"query": "pottery"})
        return found

    found = asyncio.run(session())
    assert [s["name"] for s in found] == ["pottery"], found


def _manifest(name: str, *lines: str) -> str:
    return "\n".join((f"kind: ruleset\nid: {name}\nname: {name.title()}", *lines)) + "\n"


def test_completion_of_extends_offers_every_shipped_ruleset_of_the_family(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`extends:` being typed in a new folder's first variant: every shipped ruleset of its
    family is offered, not another game's, nor the folder's `child` (it extends `mine`: a cycle).
    With the manifest broken as typed, `child` was offered: the cycle was judged from what the
    result resolved, and a manifest that does not parse is resolved by nothing. It is judged
    from each manifest's `extends:` as written now (the broken one's id: its file name's)."""
    from civrules.load import workspace
    from civrules.lsp.index import Index
    from civrules.pipeline.incremental import Session

    shipped = tmp_path / "shipped"
    (shipped / "rulesets").mkdir(parents=True)
    for name, lines in {
        "base": (),
        "base-variant": ("extends: base",),
        "other-game": ("family: imperial-settlers",),
    }.items():
        (shipped / "rulesets" / f"{name}.yaml").write_text(_manifest(name, *lines), encoding="utf-8")
    monkeypatch.delenv(workspace.NO_SHIPPED_VARIABLE, raising=False)
    monkeypatch.setattr(workspace, "shipped_rules", lambda: shipped)
    rules = tmp_path / "rules"
    (rules / "rulesets").mkdir(parents=True)
    (rules / "rulesets" / "mine.yaml").write_text(_manifest("mine", "extends: "), encoding="utf-8")
    (rules / "rulesets" / "child.yaml").write_text(_manifest("child", "extends: mine"), encoding="utf-8")
    session = Session(rules)
    assert Index(session.update()).extendable("rulesets/mine.yaml") == ["base", "base-variant"]
    # Broken as typed (no id read: its file name's), it is offered the same.
    session.set_text("rulesets/mine.yaml", "kind: ruleset\nextends: [\n")
    assert Index(session.update()).extendable("rulesets/mine.yaml") == ["base", "base-variant"]


@pytest.mark.parametrize(
    "broken",
    [
        "kind: ruleset\nid: v\nfamily: 'imperial-settlers'  # the game\nextends: [\n",  # its family named
        "kind: ruleset\nid: v\nextends: base\nplayers: {\n",  # its base's family
    ],
)
def test_a_manifest_opened_broken_is_of_the_family_it_names_or_its_base_s(tmp_path: Path, broken: str) -> None:
    """A manifest buffer opened broken took its kind from its `kind:` line, of Advanced
    Civilization's family (the default) whatever game it was of: a broken Imperial Settlers or
    Sid Meier's manifest was offered the default game's ids. Its `family:` line, else the family
    of the base its `extends:` line names, gives its family now."""
    from civrules.lsp.index import Index
    from civrules.pipeline.incremental import Session

    rules = tmp_path / "rules"
    (rules / "rulesets").mkdir(parents=True)
    (rules / "rulesets" / "base.yaml").write_text(_manifest("base", "family: imperial-settlers"), encoding="utf-8")
    (rules / "rulesets" / "ac.yaml").write_text(_manifest("ac"), encoding="utf-8")
    (rules / "rulesets" / "v.yaml").write_text(_manifest("v", "extends: base"), encoding="utf-8")
    session = Session(rules)
    session.set_text("rulesets/v.yaml", broken)
    index = Index(session.update())
    family = index.family_of_file("rulesets/v.yaml")
    assert family is not None and family.id == "imperial-settlers"
    offered = index.ids("rulesets/v.yaml")
    assert ("base", "rulesets") in offered and ("ac", "rulesets") not in offered


def test_a_data_file_opened_broken_is_of_its_folder_s_family(tmp_path: Path) -> None:
    """A `kind: map` buffer opened broken in a Sid Meier's folder was read as the default
    family's map (two families have maps): the one family of the folder's rulesets with that
    kind gives it now."""
    from civrules.lsp.index import Index
    from civrules.pipeline.incremental import Session

    rules = tmp_path / "rules"
    (rules / "rulesets").mkdir(parents=True)
    (rules / "maps").mkdir()
    (rules / "rulesets" / "s.yaml").write_text(_manifest("s", "family: sid-meiers-civilization"), encoding="utf-8")
    (rules / "maps" / "m.yaml").write_text("kind: map\n", encoding="utf-8")
    session = Session(rules)
    session.set_text("maps/m.yaml", "kind: map\ntiles: [\n")
    family = Index(session.update()).family_of_file("maps/m.yaml")
    assert family is not None and family.id == "sid-meiers-civilization"


def test_key_completion_in_a_broken_variant_that_names_only_its_base_is_of_its_base_s_game(tmp_path: Path) -> None:
    """The kind key completion reads a buffer by (the server's `_file_kind`) took a manifest's
    family from its `family:` line alone: a broken Sid Meier's variant that names only its base
    was offered the default game's manifest keys (`credit_policy`, `epochs`), not its own."""
    from types import SimpleNamespace

    from civrules.lsp.index import Index
    from civrules.lsp.server import _file_kind
    from civrules.pipeline.incremental import Session

    rules = tmp_path / "rules"
    (rules / "rulesets").mkdir(parents=True)
    (rules / "rulesets" / "s.yaml").write_text(_manifest("s", "family: sid-meiers-civilization"), encoding="utf-8")
    (rules / "rulesets" / "c.yaml").write_text(_manifest("c", "extends: s"), encoding="utf-8")
    text = _manifest("c", "extends: s", "players: {")
    session = Session(rules)
    session.set_text("rulesets/c.yaml", text)
    index = Index(session.update())
    folder: Any = SimpleNamespace(index=lambda _: index)
    assert _file_kind(folder, "rulesets/c.yaml", text) == "sid-meiers-civilization/ruleset"


def test_a_rules_folder_that_is_a_link_holds_no_file_where_it_leads_before_or_after_a_retarget(
    tmp_path: Path,
) -> None:
    """civrules reads nothing through a rules folder that is a link (R003), yet the server told it
    by where it led when served: a file opened where the link led was routed to it, as its
    `cards/x.yaml`, and once the link was retargeted the old target's files still were while the
    new one's were not. It is told by where the link is now: where it leads, before or after a
    retarget, holds none of its files; its own name holds them, as before."""
    from civrules.lsp.server import _key
    from civrules.pipeline.incremental import Session

    for target in ("t1", "t2"):
        (tmp_path / target / "cards").mkdir(parents=True)
    rules = tmp_path / "w" / "rules"
    rules.parent.mkdir()
    rules.symlink_to(tmp_path / "t1")
    session, key = Session(rules), _key(rules)
    for target in ("t1", "t2"):
        if target == "t2":
            rules.unlink()
            rules.symlink_to(tmp_path / "t2")
        assert session.relative(tmp_path / target / "cards" / "x.yaml") is None
        assert session.relative(rules / "cards" / "x.yaml") == "cards/x.yaml"
        assert _key(rules) == key
