"""Blanks: what a hint writes where only the designer knows the value (`write why here`), and
the one diagnostic a blank pasted unchanged gets (L016), at the blank."""

from __future__ import annotations

from civrules.diagnostics import blanks
from civrules.load.reader import read_yaml_text
from tests.core.test_overlay_hints import analysed, header, problems

#: A variant pasted from hints with every kind of blank left as written: a citation, a removal's
#: reason, a number, a rule section (the schema takes none of the two), a list operation's selector.
PASTED = header("blanks", "advanced-civilization") + (
    "overlay:\n  civilization_cards:\n    remove:\n"
    '      - {id: pottery, why: "house rule: write why here"}\n'
    "    patch:\n"
    '      - {id: law, cost: "write a cost above 200 here", rule: "write the rule\'s section here"}\n'
    '      - {id: mysticism, credits: {patch: [{where: "write the fields that name the element here",\n'
    '         with: "write the element without the reference here"}]}}\n'
)


def test_each_blank_left_in_a_pasted_variant_is_one_l016_at_the_blank_and_nothing_else() -> None:
    """Round 32's hints wrote `source: "house rule: ..."` (a citation that validated, `...` and
    all), `why: ...`, `rule: ...` (S001: "is not a rule section") and `{where: SELECTOR, with:
    {...}}`. Their blanks now read as what they are: each is one L016 at the blank, saying what to
    write, and no other diagnostic stands there (no S001 for a text where a number belongs, no
    V007 for a selector that names no element, no S004 for a setting the base completes)."""
    found = problems(analysed("blanks", PASTED))
    assert [d.code for d in found] == ["L016"] * 5, [(d.code, d.message) for d in found]
    lines = PASTED.splitlines()
    for diagnostic in found:
        assert diagnostic.span is not None
        at = lines[diagnostic.span.line - 1][diagnostic.span.column - 1 :]
        assert blanks.is_blank(at[1:].split('"')[0]), at
    (why,) = [d for d in found if d.subjects == ("house rule: write why here",)]
    assert why.hint == "keep `house rule: ` and replace `write why here` with why, in your own words"
    filled = PASTED.replace("write why here", "no pots").split("    patch:")[0]
    assert [d.code for d in problems(analysed("blanks", filled))] == ["V006"]  # the removal's own consequence


def test_a_blank_is_found_unquoted_and_in_a_key_s_place_but_not_in_words_around_it() -> None:
    """The reader finds a blank however it is written (plain, quoted, flow or block), and only a
    whole blank: a reason that says "write" and "here" among other words is text."""
    for text in (
        "why: write why here\n",
        'why: "write why here"\n',
        "- {source: 'house rule: write why here'}\n",
    ):
        _, found = read_yaml_text(text, "x.yaml")
        assert [d.code for d in found] == ["L016"], text
    for text in (
        'why: "house rule: we write the score here"\n',
        'why: "write why here, then more"\n',
        "text: write the text\n",
    ):
        _, found = read_yaml_text(text, "x.yaml")
        assert found == [], text


def test_a_setting_written_in_part_beside_a_blank_is_completed_by_its_base() -> None:
    """A variant's `players: {min: 6}` is its base's band narrowed; with a blank elsewhere in the
    manifest it was judged alone ("missing key `max` in `players`"), which the designer had not
    got wrong: the blank stops the checks, not the base's completing what the variant writes."""
    text = header("six", "expansion-project") + (
        'players: {min: 6, source: "house rule: at least six"}\n'
        'overlay:\n  player_counts:\n    remove: [{players: 5, why: "house rule: write why here"}]\n'
    )
    assert [d.code for d in problems(analysed("six", text))] == ["L016"]


def test_v006_judges_each_setting_entry_it_writes_with_one_validator_per_setting() -> None:
    """V006 checks each `overlay.settings` entry it writes against the setting's schema before it
    offers it (:func:`civrules.schema.setting_errors`): the validator of a setting's schema is
    made once, not once per entry judged (counted: none is made for the same setting again)."""
    from civrules import schema

    made: list[object] = []
    kind = "ruleset"  # the Advanced Civilization family's manifests
    schema.setting_errors(kind, "taxation", {})  # the setting's validator, made once here at the most
    validator = schema._validator_class()
    real = validator.__init__

    def counted(self: object, *args: object, **kwargs: object) -> None:
        made.append(args[0] if args else kwargs.get("schema"))
        real(self, *args, **kwargs)

    validator.__init__ = counted
    try:
        values: list[dict[str, object]] = [{}, {"revolt": {"immune_card": None}}, {"revolt": {}}]
        for value in values:
            schema.setting_errors(kind, "taxation", value)
    finally:
        validator.__init__ = real
    # jsonschema evolves a validator for each subschema it descends into (its own, not a schema's
    # validator made again): only a validator of a whole setting's schema (with its `$defs`) counts
    assert [one for one in made if isinstance(one, dict) and "$defs" in one] == []
