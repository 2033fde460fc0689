"""Where the language server writes a fix's entries away from the diagnostic (V006's retarget in
`overlay.<collection>.patch`): after the deepest block of the path the file has, indented as its
children are, the edit read back and offered only where it adds that entry alone."""

from __future__ import annotations

from civrules.diagnostics import Addition
from civrules.load.reader import read_yaml_text
from civrules.lsp.additions import written

VARIANT = """\
kind: ruleset
id: house
overlay:
  civilization_cards:
    remove:
      - {id: pottery, why: "house rule: renamed"}
  # the calamities follow

suppress: []
"""

FAMINE = Addition("f", ("overlay", "calamities", "patch"), "{id: famine, modifiers: []}", append=True)
TEMPEST = Addition("f", ("overlay", "calamities", "patch"), "{id: tempest}", append=True)


def _data(text: str) -> object:
    document, problems = read_yaml_text(text, "f")
    assert document is not None and problems == []
    return document.data


def test_entries_are_written_in_a_block_the_file_lacks_then_appended_to_it() -> None:
    text = written(VARIANT, (FAMINE, TEMPEST))
    assert text == VARIANT.replace(
        '"house rule: renamed"}\n',
        '"house rule: renamed"}\n  calamities:\n    patch:\n'
        "      - {id: famine, modifiers: []}\n      - {id: tempest}\n",
    )
    assert _data(text)["suppress"] == []  # type: ignore[index]


def test_an_entry_is_appended_to_a_block_sequence_with_its_dashes_where_they_stand() -> None:
    text = VARIANT.replace("  # the calamities", "  calamities:\n    patch:\n    - {id: drought}\n  # the calamities")
    assert written(text, (TEMPEST,)) == text.replace("- {id: drought}\n", "- {id: drought}\n    - {id: tempest}\n")


def test_a_setting_and_its_citation_are_keys_of_the_settings_block() -> None:
    text = VARIANT.replace("  # the calamities", "  settings:\n    hand_limit: 9\n  # the calamities")
    value = Addition("f", ("overlay", "settings", "taxes"), "{rate: 2}")
    cited = Addition("f", ("overlay", "settings", "citations", "taxes"), '{source: "house rule: ..."}')
    made = written(text, (value, cited))
    assert made is not None
    assert _data(made)["overlay"]["settings"] == {  # type: ignore[index]
        "hand_limit": 9,
        "taxes": {"rate": 2},
        "citations": {"taxes": {"source": "house rule: ..."}},
    }


def test_no_edit_where_the_block_is_flow_or_the_key_is_written() -> None:
    flow = VARIANT.replace("  # the calamities", "  calamities: {patch: [{id: drought}]}\n  # the calamities")
    assert written(flow, (TEMPEST,)) is None
    taken = VARIANT.replace("  # the calamities", "  settings:\n    taxes: 3\n  # the calamities")
    assert written(taken, (Addition("f", ("overlay", "settings", "taxes"), "{rate: 2}"),)) is None
    assert written("kind: ruleset\n", (TEMPEST,)) is None  # no `overlay:`: not the file the fix is for


def test_a_file_of_windows_line_breaks_keeps_them() -> None:
    made = written(VARIANT.replace("\n", "\r\n"), (TEMPEST,))
    assert made is not None and "\n" not in made.replace("\r\n", "")
    assert made.replace("\r\n", "\n") == written(VARIANT, (TEMPEST,))
