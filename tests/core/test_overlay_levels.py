"""A key of a variant's overlay that is right but written at the wrong level is told where it goes.

Round 21's designer trial: `overlay.taxation` (a setting written beside the collections) was told
"did you mean `nations`?", `overlay.settings.nations` (a collection written among the settings)
"did you mean `taxation`?", and Sid Meier's `overlay.settings.combat_bonuses` "did you mean
`combat`?"; following any of them gave another error. Every family's collections and settings are
read from its ruleset schema (`overlay.<collection>`, `overlay.settings.<setting>`), never listed
here, and each hint is followed as written.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from civrules import schema
from civrules.diagnostics import Diagnostic
from civrules.families import families
from civrules.load import read_yaml_text
from civrules.pipeline import analyse
from tests.rulefiles import CachedWorkspace, dump

#: A shipped base of each family, and a collection patch and a setting patch its variant may make.
CHANGES: dict[str, tuple[str, tuple[str, Any], tuple[str, Any]]] = {
    "advanced-civilization": (
        "advanced-civilization",
        ("nations", {"patch": [{"id": "africa", "name": "Afrika", "source": "house rule: the name"}]}),
        ("taxation", {"tokens_per_city": 3, "source": "house rule: heavier tax"}),
    ),
    "imperial-settlers": (
        "imperial-settlers",
        ("factions", {"patch": [{"id": "barbarians", "name": "Barbarians", "source": "house rule: the name"}]}),
        ("starting_hand", {"common": 3, "source": "house rule: bigger start"}),
    ),
    "sid-meiers-civilization": (
        "sid-meiers-civilization",
        ("combat_bonuses", {"patch": [{"id": "barracks", "amount": 3, "source": "house rule: stronger"}]}),
        ("combat", {"ties": "attacker", "source": "house rule: the attacker wins ties"}),
    ),
}


#: A setting of each family's base that a variant may remove.
REMOVABLE = {
    "advanced-civilization": "hand_limit",
    "imperial-settlers": "first_game",
    "sid-meiers-civilization": "tie_break",
}


def test_every_family_has_a_case() -> None:
    assert set(CHANGES) == set(families()) == set(REMOVABLE)


def _overlay_keys(family_id: str) -> tuple[list[str], list[str]]:
    """The collections and the settings the family's overlay schema takes."""
    overlay = schema.load_schema(families()[family_id].slot_kind("ruleset"))["properties"]["overlay"]["properties"]
    settings = [k for k in overlay["settings"]["properties"] if k not in ("add", "replace", "remove")]
    return [k for k in overlay if k != "settings"], settings


def _schema_problems(family_id: str, overlay: dict[str, Any]) -> list[Diagnostic]:
    """The schema's diagnostics of a variant manifest of the family whose overlay is ``overlay``."""
    text = dump({"kind": "ruleset", "id": "house", "name": "house", "extends": "base", "overlay": overlay})
    document, problems = read_yaml_text(text, "rulesets/house.yaml")
    assert problems == [] and document is not None
    return schema.validate_document(document, families()[family_id].slot_kind("ruleset"))


def _cases() -> list[tuple[str, str, str]]:
    """(family, key, level written at) for every key of every family written at the other level
    (a key that both levels take, as Advanced Civilization's `player_counts`, is not a mistake)."""
    found = []
    for family_id in sorted(families()):
        collections, settings = _overlay_keys(family_id)
        found += [(family_id, key, "settings") for key in collections if key not in settings]
        found += [(family_id, key, "overlay") for key in settings if key not in collections]
    return found


@pytest.mark.parametrize(("family_id", "key", "level"), _cases())
def test_a_key_at_the_wrong_level_is_told_its_place_not_a_did_you_mean(family_id: str, key: str, level: str) -> None:
    overlay = {"settings": {key: {"x": 1}}} if level == "settings" else {key: {"x": 1}}
    [s002] = [d for d in _schema_problems(family_id, overlay) if d.code == "S002"]
    assert s002.hint is not None and "did you mean" not in s002.hint and s002.suggestion is None, s002.hint
    place = f"`overlay.{key}`" if level == "settings" else f"`overlay.settings.{key}`"
    assert place in s002.hint, s002.hint


@pytest.mark.parametrize("family_id", sorted(families()))
@pytest.mark.parametrize("operation", ["remove", "replace", "add"])
def test_a_collection_named_by_a_settings_operation_is_told_where_its_entities_change(
    family_id: str, operation: str
) -> None:
    """`overlay.settings.remove: [nations]` was told "did you mean `taxation`?"."""
    collections, settings = _overlay_keys(family_id)
    key = next(k for k in collections if k not in settings)
    overlay = {"settings": {operation: [key] if operation == "remove" else {key: [{"id": "x"}]}}}
    [s003] = [d for d in _schema_problems(family_id, overlay) if d.code == "S003"]
    assert s003.hint is not None and "did you mean" not in s003.hint and s003.suggestion is None, s003.hint
    assert f"`overlay.{key}`" in s003.hint, s003.hint


@pytest.mark.parametrize("family_id", sorted(families()))
def test_a_settings_operation_beside_the_collections_is_told_both_places(family_id: str) -> None:
    _, settings = _overlay_keys(family_id)
    [s002] = [d for d in _schema_problems(family_id, {"remove": [settings[0]]}) if d.code == "S002"]
    assert s002.hint is not None and "`overlay.settings.remove`" in s002.hint and "did you mean" not in s002.hint


def test_another_familys_setting_names_its_family() -> None:
    """Imperial Settlers' `starting_hand` in an Advanced Civilization overlay, at either level."""
    for overlay in ({"starting_hand": {"common": 3}}, {"settings": {"starting_hand": {"common": 3}}}):
        [s002] = [d for d in _schema_problems("advanced-civilization", overlay) if d.code == "S002"]
        assert s002.hint is not None and s002.hint.startswith("`starting_hand` is a setting of `imperial-settlers`")


def _moved(overlay: dict[str, Any], key: str, hint: str | None) -> dict[str, Any]:
    """``overlay`` with ``key``'s block moved to the place the hint names (its first quoted
    `overlay.` path), as a designer follows it."""
    [target] = re.findall(r"\(`(overlay(?:\.\w+)+)`", hint or "")[:1] or [None]
    assert target is not None, hint
    settings = overlay.get("settings", {})
    value = settings.pop(key) if key in settings else overlay.pop(key)
    if not overlay.get("settings", True):
        del overlay["settings"]
    parts = target.split(".")[1:]
    holder = overlay
    for part in parts[:-1]:
        holder = holder.setdefault(part, {})
    holder[parts[-1]] = value
    return overlay


def _problems(base: str, overlay: dict[str, Any]) -> list[Diagnostic]:
    """The errors and warnings of a variant of ``base`` whose overlay is ``overlay``."""
    head = {"kind": "ruleset", "id": "house", "name": "house", "extends": base}
    workspace = CachedWorkspace({"rulesets/house.yaml": dump({**head, "overlay": overlay})})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["house"]))
    return [d for d in analysis.diagnostics if d.severity != "info"]


@pytest.mark.parametrize("family_id", sorted(CHANGES))
def test_following_the_hints_gives_a_valid_variant(family_id: str) -> None:
    """The trial's variant, in every family: a collection among the settings and a setting beside
    the collections; each moved where its hint says, the variant validates."""
    base, (collection, patch), (setting, value) = CHANGES[family_id]
    overlay: dict[str, Any] = {setting: value, "settings": {collection: patch}}

    def problems(overlay: dict[str, Any]) -> list[Diagnostic]:
        return _problems(base, overlay)

    found = {d.message.split("`")[1]: d for d in problems(overlay) if d.code == "S002"}
    assert set(found) == {collection, setting}, found
    for key, diagnostic in found.items():
        overlay = _moved(overlay, key, diagnostic.hint)
    assert overlay == {collection: patch, "settings": {setting: value}}
    assert problems(overlay) == []


@pytest.mark.parametrize("family_id", sorted(REMOVABLE))
def test_following_the_hint_of_a_settings_removal_beside_the_collections_gives_a_valid_variant(family_id: str) -> None:
    base = CHANGES[family_id][0]
    overlay: dict[str, Any] = {"remove": [REMOVABLE[family_id]]}
    [s002] = [d for d in _problems(base, overlay) if d.code == "S002"]
    followed = _moved(overlay, "remove", s002.hint)
    assert followed == {"settings": {"remove": [REMOVABLE[family_id]]}}
    assert _problems(base, followed) == []


def _setting_fields(family_id: str) -> dict[str, list[str]]:
    """Each field of the family's settings, and the settings that have it: each read from the
    schema of the file that holds it (the manifest's, or a data file's: `trade_stacks`)."""
    family = families()[family_id]
    holders: dict[str, list[str]] = {}
    for name in _overlay_keys(family_id)[1]:
        root = schema.load_schema(family.slot_kind(family.settings.get(name, "ruleset")))
        node = schema._deref(root, root["properties"].get(name))
        forms = [node, *(schema._deref(root, b) for b in node.get("oneOf", ()))] if isinstance(node, dict) else []
        for field in dict.fromkeys(k for form in forms if isinstance(form, dict) for k in form.get("properties", {})):
            holders.setdefault(field, []).append(name)
    return holders


def _field_cases() -> list[tuple[str, str, str]]:
    """(family, field, its setting) for every field one setting alone has, that is no key of the
    overlay itself (a collection or a setting)."""
    found = []
    for family_id in sorted(families()):
        collections, settings = _overlay_keys(family_id)
        found += [
            (family_id, field, names[0])
            for field, names in _setting_fields(family_id).items()
            if len(names) == 1 and field not in (*collections, *settings)
        ]
    return found


def test_the_fields_sweep_covers_every_family() -> None:
    assert {family for family, _, _ in _field_cases()} == set(families())


@pytest.mark.parametrize(("family_id", "field", "setting"), _field_cases())
def test_a_settings_field_among_the_settings_is_told_its_setting(family_id: str, field: str, setting: str) -> None:
    """`overlay.settings.tokens_per_city` (a field of `taxation`) was given the allowed keys, or a
    "did you mean" another setting."""
    [s002] = [d for d in _schema_problems(family_id, {"settings": {field: 1}}) if d.code == "S002"]
    assert s002.hint is not None and "did you mean" not in s002.hint and s002.suggestion is None, s002.hint
    assert f"`overlay.settings.{setting}.{field}`" in s002.hint, s002.hint


def test_a_field_many_settings_have_is_not_told_one_of_them() -> None:
    [s002] = [d for d in _schema_problems("advanced-civilization", {"settings": {"rule": "13.1"}}) if d.code == "S002"]
    assert "is a field of" not in (s002.hint or "")


@pytest.mark.parametrize("family_id", sorted(CHANGES))
def test_following_the_hint_of_a_settings_field_among_the_settings_gives_a_valid_variant(family_id: str) -> None:
    base, _, (setting, value) = CHANGES[family_id]
    field = next(key for key in value if key != "source")
    overlay: dict[str, Any] = {"settings": {setting: {"source": value["source"]}, field: value[field]}}
    [s002] = [d for d in _problems(base, overlay) if d.code == "S002"]
    followed = _moved(overlay, field, s002.hint)
    assert followed == {"settings": {setting: value}}
    assert _problems(base, followed) == []


def test_a_data_files_setting_has_its_fields_swept() -> None:
    """`overlay.settings.stacks` (a field of `trade_stacks`, which the commodities file holds) was
    given the allowed keys: only the manifest's own settings were looked into."""
    assert ("advanced-civilization", "stacks", "trade_stacks") in _field_cases()


#: The places of an overlay a key can be written at, as (where the key goes, the diagnostic's code).
LEVELS = {
    "overlay": ((), "S002"),
    "settings": (("settings",), "S002"),
    "add": (("settings", "add"), "S003"),
    "replace": (("settings", "replace"), "S003"),
    "remove": (("settings", "remove"), "S003"),
}


def _written_at(level: str, key: str, value: Any) -> dict[str, Any]:
    """An overlay holding ``key`` (with ``value``) at ``level``."""
    where, _ = LEVELS[level]
    if level == "remove":
        return {"settings": {"remove": [key]}}
    overlay: dict[str, Any] = {key: value}
    for part in reversed(where):
        overlay = {part: overlay}
    return overlay


def _told(family_id: str, level: str, overlay: dict[str, Any], key: str) -> Diagnostic:
    """The one diagnostic of ``key`` at ``level`` (S002 or S003, as the level is a mapping's keys
    or a setting's name)."""
    code = LEVELS[level][1]
    [found] = [d for d in _schema_problems(family_id, overlay) if d.code == code and f"`{key}`" in d.message]
    return found


@pytest.mark.parametrize("level", sorted(LEVELS))
@pytest.mark.parametrize("family_id", sorted(families()))
def test_a_settings_field_is_told_its_setting_at_every_level(family_id: str, level: str) -> None:
    """`overlay.tokens_per_city` and `overlay.settings.add/replace/remove: tokens_per_city` were
    given the allowed keys; only `overlay.settings.tokens_per_city` was told its setting."""
    for found_in, field, setting in _field_cases():
        if found_in != family_id:
            continue
        told = _told(family_id, level, _written_at(level, field, 1), field)
        assert told.hint is not None and "did you mean" not in told.hint and told.suggestion is None, told.hint
        assert f"`{field}` is a field of the setting `{setting}`" in told.hint, told.hint
        assert f"`overlay.settings.{setting}.{field}`" in told.hint, told.hint


@pytest.mark.parametrize("level", ["add", "replace", "remove"])
@pytest.mark.parametrize("family_id", sorted(families()))
def test_another_familys_key_is_named_in_a_settings_operation(family_id: str, level: str) -> None:
    others = sorted(k for f in families().values() if f.id != family_id for k in (*f.collections, *f.settings))
    mine = set(families()[family_id].collections) | set(families()[family_id].settings)
    key = next(k for k in others if k not in mine)
    told = _told(family_id, level, _written_at(level, key, {"x": 1}), key)
    assert told.hint is not None and " of `" in told.hint and "not of the family" in told.hint, told.hint


@pytest.mark.parametrize("operation", ["add", "replace"])
def test_a_settings_operation_inside_another_is_told_its_place(operation: str) -> None:
    told = _told("advanced-civilization", operation, _written_at(operation, "remove", ["hand_limit"]), "remove")
    assert told.hint is not None and "`overlay.settings.remove`" in told.hint, told.hint


def _follow(overlay: dict[str, Any], level: str, key: str, hint: str | None) -> dict[str, Any]:
    """``overlay`` with ``key``'s value moved from ``level`` to the first `overlay.` path the hint
    names, as a designer follows it."""
    [target] = re.findall(r"\(`(overlay(?:\.\w+)+)`", hint or "")[:1] or [None]
    assert target is not None, hint
    holder = overlay
    for part in LEVELS[level][0]:
        holder = holder[part]
    value = holder.pop(key)
    if level != "overlay" and not overlay["settings"][level] if level in ("add", "replace") else False:
        del overlay["settings"][level]
    placed = overlay
    for part in target.split(".")[1:-1]:
        placed = placed.setdefault(part, {})
    assert target.split(".")[-1] == key, hint
    placed[key] = value
    return overlay


@pytest.mark.parametrize("level", ["overlay", "add", "replace"])
@pytest.mark.parametrize("family_id", sorted(CHANGES))
def test_following_the_hint_of_a_settings_field_at_any_level_gives_a_valid_variant(family_id: str, level: str) -> None:
    base, _, (setting, value) = CHANGES[family_id]
    field = next(key for key in value if key != "source")
    overlay = _written_at(level, field, value[field])
    overlay.setdefault("settings", {})[setting] = {"source": value["source"]}
    [told] = [d for d in _problems(base, overlay) if d.code == LEVELS[level][1]]
    followed = _follow(overlay, level, field, told.hint)
    assert followed == {"settings": {setting: value}}
    assert _problems(base, followed) == []


def test_following_the_hint_of_a_settings_field_removed_as_a_setting_gives_a_valid_variant() -> None:
    """`remove: [rate_card]` (an optional field of `taxation`): the hint says to delete it with
    null under `taxation:`; a field the setting requires is told so, and never to delete it."""
    overlay: dict[str, Any] = {"settings": {"remove": ["rate_card"]}}
    [told] = [d for d in _problems("advanced-civilization", overlay) if d.code == "S003"]
    assert told.hint is not None and "`rate_card: null`" in told.hint, told.hint
    followed = {"settings": {"taxation": {"rate_card": None, "source": "house rule: no rate card"}}}
    assert "`overlay.settings.taxation.rate_card`" in told.hint
    assert _problems("advanced-civilization", followed) == []
    [required] = [
        d for d in _problems("advanced-civilization", {"settings": {"remove": ["tokens_per_city"]}}) if d.code == "S003"
    ]
    assert required.hint is not None and "cannot be without it" in required.hint and "null" not in required.hint


def _manifest_problems(base: str, body: str) -> list[Diagnostic]:
    """The errors and warnings of a variant of ``base`` whose overlay is the YAML text ``body``."""
    text = f"kind: ruleset\nid: house\nname: house\nextends: {base}\noverlay:\n{body}"
    workspace = CachedWorkspace({"rulesets/house.yaml": text})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["house"]))
    return [d for d in analysis.diagnostics if d.severity != "info"]


def _indent_as_told(body: str, told: Diagnostic) -> str:
    """``body`` with the line the hint says to indent under the empty key above it indented, and
    the lines after it at its indentation (those that belong with it)."""
    found = re.match(r"`(\w+):` on line (\d+) has no value, so `(\w+)` is read beside it", told.hint or "")
    assert found is not None, told.hint
    lines = body.splitlines(keepends=True)
    assert told.span is not None
    at = told.span.line - 6  # the body starts on line 6
    assert lines[at].lstrip().startswith(f"{found[3]}:"), (lines[at], told.hint)
    depth = len(lines[at]) - len(lines[at].lstrip())
    for index in range(at, len(lines)):
        if len(lines[index]) - len(lines[index].lstrip()) < depth:
            break
        lines[index] = "  " + lines[index]
    return "".join(lines)


@pytest.mark.parametrize("operation", ["settings", "replace"])
def test_a_field_outdented_under_an_empty_setting_is_told_to_indent_at_every_level(operation: str) -> None:
    """`replace:` then `hand_limit:` left empty and `commodity_cards: 9` beside it was given the
    allowed settings; directly under `settings:` the same text was told to indent it."""
    inner = "    " if operation == "settings" else "      "
    body = (
        "  settings:\n"
        + ("" if operation == "settings" else "    replace:\n")
        + f"{inner}hand_limit:\n{inner}commodity_cards: 9\n{inner}text: Nine cards are kept.\n"
        + f"{inner}source: 'house rule: nine cards'\n"
    )
    problems = [d for d in _manifest_problems("advanced-civilization", body) if d.code in ("S002", "S003")]
    [told] = [d for d in problems if "`commodity_cards`" in d.message]
    followed = _indent_as_told(body, told)
    assert _manifest_problems("advanced-civilization", followed) == []


def test_an_empty_settings_above_a_setting_is_told_to_indent_not_a_did_you_mean() -> None:
    """`settings:` left empty with `taxation:` beside it was told "did you mean `nations`?"."""
    body = "  settings:\n  taxation:\n    tokens_per_city: 3\n    source: 'house rule: heavier tax'\n"
    [told] = [d for d in _manifest_problems("advanced-civilization", body) if d.code == "S002"]
    assert told.hint is not None and told.hint.startswith("`settings:` on line 6 has no value"), told.hint
    assert _manifest_problems("advanced-civilization", _indent_as_told(body, told)) == []


def test_an_empty_key_above_a_key_that_does_not_belong_under_it_gives_the_wrong_level_hint() -> None:
    """`nations:` left empty, then `taxation:`: indenting it under `nations:` would be wrong."""
    body = "  nations:\n  taxation:\n    tokens_per_city: 3\n"
    [told] = [d for d in _manifest_problems("advanced-civilization", body) if d.code == "S002"]
    assert told.hint is not None and "`overlay.settings.taxation`" in told.hint, told.hint


def test_a_settings_name_refused_is_pointed_at_not_its_mapping() -> None:
    """S003 of a key `replace:` or `add:` does not take had its caret on the mapping's first key."""
    body = "  settings:\n    replace:\n      hand_limit: {commodity_cards: 9}\n      tokens_per_city: 3\n"
    [told] = [d for d in _manifest_problems("advanced-civilization", body) if d.code == "S003"]
    assert told.span is not None and (told.span.line, told.span.column) == (9, 7), told.span


@pytest.mark.parametrize("operation", ["settings", "replace"])
def test_every_line_of_an_outdented_block_is_told_to_indent(operation: str) -> None:
    """Round 21's second trial: `taxation:` left empty, then `tokens_per_city: 3` and `source:` at its
    level: the first line was told to indent, the second "did you mean `not_in_sources`?", which
    led to another error. Each line of the block is told the empty key it was meant for."""
    inner = "    " if operation == "settings" else "      "
    body = (
        "  settings:\n"
        + ("" if operation == "settings" else "    replace:\n")
        + f"{inner}taxation:\n{inner}tokens_per_city: 3\n{inner}source: 'house rule: heavier tax'\n"
    )
    told = [d for d in _manifest_problems("advanced-civilization", body) if d.code in ("S002", "S003")]
    assert len(told) == 2 and all(d.hint and d.hint.startswith("`taxation:` on line") for d in told), told


@pytest.mark.parametrize("operation", ["settings", "replace"])
def test_a_citation_beside_the_setting_it_cites_is_told_to_go_inside_it(operation: str) -> None:
    """`source:` written beside `hand_limit:` instead of inside it was told "did you mean
    `not_in_sources`?" (or given the settings to choose from); following the hint validates."""
    inner = "    " if operation == "settings" else "      "
    body = (
        "  settings:\n"
        + ("" if operation == "settings" else "    replace:\n")
        + f"{inner}hand_limit:\n{inner}  commodity_cards: 9\n{inner}  text: Nine cards are kept.\n"
        + f"{inner}source: 'house rule: nine cards'\n"
    )
    [told] = [d for d in _manifest_problems("advanced-civilization", body) if d.code in ("S002", "S003")]
    assert told.hint is not None and ".hand_limit.source`" in told.hint, told.hint
    followed = body.replace(f"{inner}source:", f"{inner}  source:")
    assert _manifest_problems("advanced-civilization", followed) == []
