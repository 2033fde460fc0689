"""The family runtimes' ``settings`` modules (the typed records of SETTINGS) are what
``compiler/tools/settings.py`` generates from today's schemas, and read the schemas as documented
in :mod:`civrules.emit.settings_types`."""

from __future__ import annotations

from civrules.emit.settings_types import attribute, settings_types
from civrules.families import family_named
from tools import settings as generator


def test_each_family_runtime_settings_module_is_current() -> None:
    stale = [str(path) for path, text in generator.rendered().items() if path.read_text(encoding="utf-8") != text]
    assert stale == [], "run `cd compiler && python -m tools.settings`"
    assert [f.id for f in generator.shipped_families()] == [
        "advanced-civilization",
        "imperial-settlers",
        "sid-meiers-civilization",
    ]


def test_the_schemas_give_the_types() -> None:
    family = family_named("advanced-civilization")
    assert family is not None
    types = settings_types(family)
    ast = types.records["Ast"].field_by_key()
    assert ast["points_per_space"].annotation() == "int | None"  # required, or {unknown: why}
    assert ast["start_space"].annotation() == "int"  # required, never unknown
    assert ast["advance_per_turn"].annotation() == "int | None"  # optional
    assert ast["rule"].annotation() == "str | tuple[str, ...] | None"  # a section or several
    assert ast["epoch_entry"].annotation() == "RuleText | None"  # a $defs object: one record
    assert types.records["Settings"].field_by_key()["commodities"].annotation() == "Commodities | None"
    assert list(types.records)[-1] == "Settings"  # defined after every record it uses
    assert [attribute(k) for k in ("from", "items", "ast")] == ["from_", "items_", "ast"]


def test_every_settings_key_of_the_family_is_a_field() -> None:
    """Every setting a family declares is a field of Settings or of its data file's record."""
    for family_id in ("advanced-civilization", "imperial-settlers", "sid-meiers-civilization"):
        family = family_named(family_id)
        assert family is not None
        records = settings_types(family).records
        root = records["Settings"].field_by_key()
        for key, slot in family.settings.items():
            if key == "players":  # the header: RULESET's players, not a setting
                continue
            holder = root if slot == "ruleset" else records[root[slot].shape.type].field_by_key()
            assert key in holder, f"{family_id}: {key}"


def test_a_record_fits_only_its_fields_with_its_required_ones() -> None:
    """What a union's alternative or a record accepts (``_fits``, from each record's keys made once):
    a mapping of some of its fields with every required one; no field it lacks, no required one
    left out; and the same for every record of every family, asked twice (the keys kept)."""
    from civrules.emit.settings_types import Shape, _fits

    for family_id in ("advanced-civilization", "imperial-settlers", "sid-meiers-civilization"):
        family = family_named(family_id)
        assert family is not None
        types = settings_types(family)
        for name, spec in types.records.items():
            fields = spec.field_by_key()
            required = {key: 1 for key, f in fields.items() if f.required}
            shape = Shape("record", name)
            for _ in range(2):
                assert _fits(types, shape, required)
                assert not _fits(types, shape, {**required, "no such field": 1})
                for key in required:
                    assert not _fits(types, shape, {k: v for k, v in required.items() if k != key})
            assert types.keys(name) == (frozenset(fields), frozenset(required))


def test_a_field_typed_none_says_where_its_fact_is_read() -> None:
    """A settings field the data write only as ``{unknown: why}`` is typed None, which reads as a
    field with no value: its comment says that it is always None and which key of
    ``unknown_fields`` tells that the sources do not give it; a collection unknown as a whole names
    its collection and the package's UNKNOWN_COLLECTIONS. Checked for every family's records."""
    typed_none = []
    for family in generator.shipped_families():
        for record in settings_types(family).records.values():
            for spec in record.fields:
                if spec.annotation() != "None":
                    continue
                typed_none.append(f"{family.id}: {record.name}.{spec.attr}")
                assert "Always None" in spec.doc and f"{spec.key!r} in unknown_fields" in spec.doc, spec.doc
                if spec.doc.startswith("Not a setting"):
                    assert "collection is a table of the package" in spec.doc and "UNKNOWN_COLLECTIONS" in spec.doc
    assert "advanced-civilization: Settings.nations" in typed_none
    assert "advanced-civilization: Ast.tracks" in typed_none


def test_a_collection_unknown_as_a_whole_is_named_by_the_package_as_its_field_says() -> None:
    """What the comment of ``Settings.nations`` and ``Ast.tracks`` promises, in every shipped
    package that writes them: the key is in ``unknown_fields`` and the table in UNKNOWN_COLLECTIONS."""
    import importlib

    from tests.generated import package_api
    from tests.variant_packages import packages_of

    seen = []
    with packages_of(package_api.GENERATED):
        for name in ("advanced_civilization", "central_america", "expansion_project", "mega_civilization"):
            package = importlib.import_module(f"civrules_rulesets.{name}")
            settings = package.SETTINGS
            for record, key, table in ((settings, "nations", "NATIONS"), (settings.ast, "tracks", "AST_TRACKS")):
                if key in record:
                    seen.append(f"{name}.{key}")
                    assert getattr(record, key) is None and key in record.unknown_fields
                    assert table in package.UNKNOWN_COLLECTIONS
    assert {"central_america.nations", "expansion_project.nations", "expansion_project.tracks"} <= set(seen)
