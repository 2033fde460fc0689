"""I005: two names of one collection that look the same across scripts (UTS #39's skeleton), and
the table of Unicode's confusable prototypes it is made from (`compiler/tools/confusables.py`)."""

from __future__ import annotations

import doctest
import hashlib
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

from civrules._generated import confusables as generated
from civrules.support import confusables
from tests.conftest import REPO


def test_the_table_is_the_one_its_digest_names() -> None:
    """A hand edit of the table (a mapping dropped, a prototype changed) is caught: the module
    records the SHA-256 of the table the tool wrote from Unicode's pinned files."""
    assert hashlib.sha256(generated.TABLE.encode()).hexdigest() == generated.TABLE_SHA256
    assert generated.VERSION == "17.0.0"


def test_the_module_cites_the_sources_and_digests_the_tool_pins_and_keeps_the_licence() -> None:
    import tools.confusables as tool

    header = (REPO / "compiler/civrules/_generated/confusables.py").read_text(encoding="utf-8").split('"""')[0]
    assert f"sha256 {tool.CONFUSABLES_SHA256}" in header and f"sha256 {tool.DERIVED_SHA256}" in header
    assert tool.COMMIT in header and "unicodetools/data/security/17.0.0/confusables.txt" in header
    assert "# UNICODE LICENSE V3" in header and "# Copyright © 2001-2024 Unicode, Inc." in header
    assert "#   Version: 17.0.0" not in header  # the file's own lines start with its name and date
    assert "#   © 2025 Unicode®, Inc." in header


def test_the_tool_reads_unicodes_format_and_refuses_another_copy(tmp_path: Path) -> None:
    import pytest

    import tools.confusables as tool

    assert doctest.testmod(tool).failed == 0
    with pytest.raises(SystemExit, match=r"is not the 17\.0\.0 copy cited"):
        tool.render(b"0430 ;\t0061 ;\tMA\t# forged\n", b"")
    # The table the module holds reads back as the mappings the tool parses from such lines.
    lines = "0430 ;\t0061 ;\tMA\t# a\n006D ;\t0072 006E ;\tMA\t# m\n"
    assert tool.table_text(tool.prototypes(lines)) == "6D:72 6E,430:61"


def test_skeletons_are_those_of_uts_39() -> None:
    assert doctest.testmod(confusables).failed == 0
    skeleton = confusables.skeleton
    assert skeleton("p\u0430ypal") == skeleton("paypal")  # Cyrillic а
    assert skeleton("\u0421\u043e\u0432\u0430") == skeleton("C\u043e\u0432\u0430") == skeleton("C\u03bf\u0432\u0430")
    assert skeleton("\u0421\u043e\u0432\u0430") != skeleton("Coba")  # в is ʙ's prototype, not b's
    assert skeleton("Ast\u0433onomy") == skeleton("Astronomy")  # г's prototype is r
    assert skeleton("Astr\u00f3nomy") != skeleton("Astronomy")  # an accent is a letter of its own
    assert skeleton("A\u200bB") == skeleton("AB")  # default-ignorable, left out


class _Cards(list[SimpleNamespace]):
    name = "cards"


def _found(names: list[str]) -> list[Any]:
    from civrules.checks.identity import _confusable_names

    origin = SimpleNamespace(span=lambda key: None, head=lambda: None)
    cards = _Cards(
        SimpleNamespace(id=f"e{i}", name=n, display_name=n, names_itself=True, origin=origin)
        for i, n in enumerate(names)
    )
    return list(_confusable_names(cast(Any, cards), "card"))


def test_two_names_that_look_the_same_across_scripts_are_i005() -> None:
    """`Сова` in Cyrillic and `Cова` with a Latin `C`: each word in one alphabet or not, the two
    look the same and I002 (letter for letter) and I004 (a word mixing alphabets) missed the
    whole-name pair: `Сова` and the Greek-and-Cyrillic `Cοва` too (round 33)."""
    found = _found(["\u0421\u043e\u0432\u0430", "Owl", "C\u043e\u0432\u0430", "Lantern", "\u039fwl"])
    assert [d.code for d in found] == ["I005", "I005"]
    assert found[0].message == (
        "card `C\u043e\u0432\u0430` (`e2`) looks the same as `\u0421\u043e\u0432\u0430` (`e0`) but is written in "
        "other letters: `C` (U+0043 LATIN CAPITAL LETTER C) where the other has `\u0421` (U+0421 CYRILLIC "
        "CAPITAL LETTER ES)"
    )
    assert "`\u039fwl` (`e4`) looks the same as `Owl` (`e1`)" in found[1].message
    assert found[0].severity == "warning" and found[0].related[0].label == "the one it looks like"


def test_names_apart_in_ascii_or_read_the_same_are_not_i005() -> None:
    # ASCII alone (`Corn`, `Com`: m's prototype is rn), I002's own (the same letters), names apart.
    assert _found(["Corn", "Com", "Pão", "Pao", "Lantern", "Ｌａｎｔｅｒｎ", "Αθηνα", "Σπάρτη"]) == []


def test_the_shipped_rules_have_no_i005() -> None:
    """No warning is new in the shipped rules: their names are each in their source's letters."""
    from tests.core.test_pipeline import codes_with

    assert "I005" not in codes_with({})


def test_a_calamity_named_like_another_in_other_letters_is_i005() -> None:
    """`Тгеасһегу`, every letter Cyrillic (no word mixes alphabets: no I004), beside Treachery."""
    from tests.core.test_pipeline import calamities, codes_with

    cyrillic = "\u0422\u0433\u0435\u0430\u0441\u04bb\u0435\u0433\u0443"
    assert codes_with(calamities('    name: "Famine"', f'    name: "{cyrillic}"')) == ["I005"]
    greek = "\u039b\u03b9\u03bc\u03cc\u03c2"  # Λιμός: Greek, like no other name
    assert codes_with(calamities('    name: "Famine"', f'    name: "{greek}"')) == []
