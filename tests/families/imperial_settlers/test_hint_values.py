"""A hint that proposes a printed id or a change of a deck proposes one that passes: a printed id
another card has is named as taken, and a deck's size is mended by cards that also keep its copies
pattern."""

from __future__ import annotations

from civrules.diagnostics import Diagnostic
from civrules.pipeline import analyse
from tests.rulefiles import CachedWorkspace, shipped_analysis, shipped_text

CARDS = "cards/imperial-settlers.yaml"
MANIFEST = "rulesets/imperial-settlers.yaml"
ROMANS = (
    'kind: faction_deck\nfaction_decks:\n  - id: my_romans\n    faction: romans\n    source: "house rule"\n    cards:\n'
)


def found(code: str, texts: dict[str, str], ruleset: str = "imperial-settlers") -> list[Diagnostic]:
    workspace = CachedWorkspace(texts)
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset]))
    return [d for d in analysis.diagnostics if d.code == code]


def test_the_next_number_of_a_copy_is_not_proposed_where_another_card_has_it() -> None:
    """A fourth copy of bar001 numbered BAR031: BAR004, the number after its third, is bar004's."""
    variant = (
        "kind: ruleset\nfamily: imperial-settlers\nid: is-more\nname: more\nextends: imperial-settlers\n"
        "overlay:\n  cards:\n    patch:\n"
        '      - {id: bar001, copies: 4, printed_ids: [BAR001, BAR002, BAR003, BAR031], source: "house rule"}\n'
    )
    [f008] = found("F008", {"rulesets/is-more.yaml": variant}, "is-more")
    assert f008.hint is not None and "number it" not in f008.hint
    assert "`BAR004`, the number after 003, is printed on `bar004`" in f008.hint
    assert "`bar004` has `BAR004`" in [r.label for r in f008.related]


def test_a_free_next_number_is_proposed() -> None:
    text = shipped_text(CARDS).replace("printed_ids: [ROM001, ROM002]", "printed_ids: [ROM001, ROM003]", 1)
    hints = [d.hint for d in found("F008", {CARDS: text}) if "not numbered consecutively" in d.message]
    assert hints == ["number it 002"]


def test_a_deck_code_is_not_proposed_with_a_number_another_card_has() -> None:
    """rom001's second copy printed BAR005: ROM005 is rom003's, ROM002 (the deck's first free id
    once rom001 gives it up) is not."""
    text = shipped_text(CARDS).replace("printed_ids: [ROM001, ROM002]", "printed_ids: [ROM001, BAR005]", 1)
    [f007] = found("F007", {CARDS: text})
    assert f007.hint == "`ROM005` is printed on `rom003`: write `ROM002`, the deck's first free id"


def test_a_short_custom_deck_is_hinted_by_the_copies_its_pattern_lacks_and_following_it_passes() -> None:
    model = shipped_analysis("imperial-settlers").model
    assert model is not None
    romans = [(card.id, card.copies) for card in model.cards if card.deck == "romans"]  # type: ignore[attr-defined]
    manifest = shipped_text(MANIFEST).replace(
        "  factions: [factions/imperial-settlers.yaml]\n",
        "  factions: [factions/imperial-settlers.yaml]\n  faction_decks: [decks/my-romans.yaml]\n",
    )

    def deck(cards: list[tuple[str, int]]) -> dict[str, str]:
        entries = "".join(f"      - {{card: {card}, copies: {copies}}}\n" for card, copies in cards)
        return {MANIFEST: manifest, "decks/my-romans.yaml": ROMANS + entries}

    two = next(card for card in romans if card[1] == 2)
    [f001] = found("F001", deck([card for card in romans if card != two]))
    assert f001.hint is not None and f001.hint.startswith("add 1 card of 2 copies (the pattern: ")
    assert f001.hint.endswith("9 cards of 1 copy, p12)"), f001.hint  # the page of the pattern, as the message has it
    assert found("F001", deck(romans)) == found("F002", deck(romans)) == []


VARIANT = "kind: ruleset\nfamily: imperial-settlers\nid: is-sup\nname: sup\nextends: imperial-settlers\n"
NO_BAR029 = '  cards:\n    remove:\n      - {id: bar029, why: "house rule"}'


def variant_found(code: str, text: str) -> list[Diagnostic]:
    return found(code, {"rulesets/is-sup.yaml": VARIANT + text}, "is-sup")


def test_a_misspelt_code_to_suppress_gets_the_code_meant_as_a_comment_does() -> None:
    """`F0O1` (a letter O): the comment `# civrules: ignore[F0O1]` was told `F001` (R020), the
    `suppress:` entry only the shape of a code."""
    text = f'suppress:\n  - {{code: F0O1, reason: "a deck of 29"}}\noverlay:\n{NO_BAR029}\n'
    [s001] = variant_found("S001", text)
    assert s001.hint is not None and s001.hint.startswith("did you mean `F001`?")


def test_a_misspelt_suppress_target_gets_the_target_the_messages_of_its_code_quote() -> None:
    text = f'suppress:\n  - {{code: F001, target: barbarianz, reason: "a deck of 29"}}\noverlay:\n{NO_BAR029}\n'
    [v008] = variant_found("V008", text)
    assert v008.hint == "`target`: did you mean `barbarians`?"
    followed = text.replace("barbarianz", "barbarians")
    assert variant_found("V008", followed) == variant_found("F001", followed) == []


def test_a_misspelt_suppress_targets_quick_fix_replaces_the_target_alone() -> None:
    """V008's "`target`: did you mean `barbarians`?" had no quick fix: it was placed on the whole
    entry, which a replacement would have replaced. It is placed on the `target`'s value, and
    proposes the name as a one-word "did you mean" does everywhere (round 30 left it)."""
    text = f'suppress:\n  - {{code: F001, target: barbarianz, reason: "a deck of 29"}}\noverlay:\n{NO_BAR029}\n'
    [v008] = variant_found("V008", text)
    assert v008.suggestion == "barbarians" and v008.span is not None
    line = (VARIANT + text).splitlines()[v008.span.line - 1]
    assert (v008.span.line, v008.span.end_line) == (VARIANT.count("\n") + 2,) * 2
    assert line[v008.span.column - 1 : v008.span.end_column - 1] == "barbarianz", (line, v008.span)
    # An entry whose target is close to no name keeps its place on the whole entry, and proposes none.
    [far] = variant_found("V008", text.replace("barbarianz", "qqqqqqqqqq"))
    assert far.suggestion is None and far.span is not None and far.span.column == 5


def test_an_unsilenceable_code_in_a_comment_that_hides_nothing_is_told_so() -> None:
    """bar029 is referred to by nothing: the comment's V006 hides no error, so "fix the V006 error
    this comment hides" pointed at nothing."""
    [r010] = variant_found("R010", f"overlay:\n{NO_BAR029}   # civrules: ignore[V006] nothing refers to it\n")
    assert r010.hint == "remove `V006` from the comment: no V006 is reported on this line, and none could be silenced"


def test_a_printed_deck_a_variant_leaves_short_is_mended_in_the_overlay() -> None:
    """F001 of a printed deck a variant's patch left at 29 cards ended its hint in the base's words
    ("in the base's file itself: add 1 card of 3 copies; remove 1 card of 2 copies"); then it
    wrote a patch of a card in the middle of the deck to 3 copies with `printed_ids: [...]` to
    fill, which F008 refused however it was filled (the next number is another card's). Its fix
    is now whole where the data give it: the card removed, one of 3 copies added with the numbers
    after the deck's last; followed, the deck is clean. Round 31: the card removed was `bar010`,
    which a faction's special rule names (the Saboteurs'): followed, V006. F001 reads the special
    rules for its hint only, and proposes a card nothing names."""
    head = "kind: ruleset\nfamily: imperial-settlers\nid: is-fewer\nname: fewer\nextends: imperial-settlers\n"
    fewer = '      - {id: bar001, copies: 2, printed_ids: [BAR001, BAR002], source: "house rule"}\n'
    variant = head + "overlay:\n  cards:\n    patch:\n" + fewer
    [f001] = found("F001", {"rulesets/is-fewer.yaml": variant}, "is-fewer")
    assert f001.span is not None and f001.span.file.endswith("rulesets/is-fewer.yaml")
    assert f001.hint is not None and "in the base's file" not in f001.hint and "[...]" not in f001.hint
    assert f001.hint.startswith(
        "from this variant (the base has no such problem): bring the deck `barbarians` to 30 cards in "
        '`overlay.cards`, e.g. `add: [{id: "write the new card\'s id here", name: "write the card\'s name here", '
        'deck: barbarians, kind: "write the card\'s kind here", copies: 3, printed_ids: [BAR031, BAR032, BAR033], '
        'cost: "write the card\'s cost here", colours: ["write the card\'s colour here"], '
        'deal: "write the good the card deals here", source: "house rule: write why here"}]` and '
        '`remove: [{id: bar012, why: "house rule: write why here"}]` (a card added is written whole, '
    )
    added = (
        "      - {id: bar_new, name: New, kind: action, colours: [black], deck: barbarians, copies: 3,\n"
        "         printed_ids: [BAR031, BAR032, BAR033], cost: [wood], deal: card, effect: {unknown: x},\n"
        '         source: "house rule"}\n'
    )
    mended = variant + "    add:\n" + added + '    remove:\n      - {id: bar012, why: "house rule: one fewer"}\n'
    workspace = CachedWorkspace({"rulesets/is-fewer.yaml": mended})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["is-fewer"]))
    assert [d.code for d in analysis.diagnostics if d.severity == "error"] == []


def test_a_card_whose_numbers_end_the_deck_is_patched_with_its_printed_ids_written() -> None:
    """Where a card the variant did not change can take the copies lacking with the numbers that
    follow its own (the deck's last card, bar030), F001's fix is that card's patch, its printed ids
    whole; followed, F001 is answered and the patched card's numbers are not F008's."""
    head = "kind: ruleset\nfamily: imperial-settlers\nid: is-one\nname: one\nextends: imperial-settlers\n"
    one = '      - {id: bar010, copies: 1, printed_ids: [BAR010], source: "house rule"}\n'
    variant = head + "overlay:\n  cards:\n    patch:\n" + one
    [f001] = found("F001", {"rulesets/is-one.yaml": variant}, "is-one")
    entry = '{id: bar030, copies: 2, printed_ids: [BAR030, BAR031], source: "house rule: write why here"}'
    assert f001.hint is not None and f"e.g. `patch: [{entry}]`;" in f001.hint
    texts = {"rulesets/is-one.yaml": variant + f"      - {entry}\n"}
    assert found("F001", texts, "is-one") == []
    assert [d.message for d in found("F008", texts, "is-one") if "bar030" in d.message] == []


def test_a_card_of_another_faction_in_a_custom_deck_is_replaced_by_one_the_hint_names() -> None:
    """F004 said only "use a card of the `romans` deck": the hint now writes the entry, a Roman
    card of the same copies the deck does not hold, and the deck written so is clean."""
    model = shipped_analysis("imperial-settlers").model
    assert model is not None
    romans = [c for c in model.cards if c.deck == "romans"]  # type: ignore[attr-defined]
    left_out = romans[0]
    entries = [f"      - {{card: {c.id}, copies: {c.copies}}}\n" for c in romans[1:]]
    stranger = f"      - {{card: bar010, copies: {left_out.copies}}}\n"
    variant = (
        "kind: ruleset\nfamily: imperial-settlers\nid: is-mixed\nname: mixed\nextends: imperial-settlers\n"
        "files:\n  faction_decks: [decks/my-romans.yaml]\n"
    )
    texts = {"rulesets/is-mixed.yaml": variant, "decks/my-romans.yaml": ROMANS + stranger + "".join(entries)}
    [f004] = found("F004", texts, "is-mixed")
    written = f"{{card: {left_out.id}, copies: {left_out.copies}}}"
    assert f004.hint == f"write a card of the `romans` deck in its place: `{written}`"
    texts["decks/my-romans.yaml"] = ROMANS + f"      - {written}\n" + "".join(entries)
    workspace = CachedWorkspace(texts)
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["is-mixed"]))
    assert [d.code for d in analysis.diagnostics if d.code.startswith("F")] == []


def test_copies_a_variant_gives_no_printed_ids_are_numbered_in_its_patch() -> None:
    """F008 of a card a variant patched to more copies than its printed ids said "give each copy
    its printed id" in the base's words after "patch `bar030` in `overlay.cards`": it now writes
    the ids, numbered on where the next numbers are free, and says where another card has them.
    Followed, F008 says nothing of the card."""
    head = "kind: ruleset\nfamily: imperial-settlers\nid: is-two\nname: two\nextends: imperial-settlers\n"
    patch = '      - {id: bar030, copies: 2, source: "house rule"}\n'
    variant = head + "overlay:\n  cards:\n    patch:\n" + patch
    [f008] = found("F008", {"rulesets/is-two.yaml": variant}, "is-two")
    assert f008.hint is not None and "in the base's file" not in f008.hint
    written = "`printed_ids: [BAR030, BAR031]`"
    assert f008.hint.startswith(
        "from this variant (the base has no such problem): write the printed id of each copy in the "
        f"`overlay.cards` patch of `bar030`: {written}"
    )
    mended = variant.replace("copies: 2,", "copies: 2, printed_ids: [BAR030, BAR031],")
    assert [d.message for d in found("F008", {"rulesets/is-two.yaml": mended}, "is-two") if "bar030" in d.message] == []
    taken = variant.replace("bar030", "bar029")
    [f008] = found("F008", {"rulesets/is-two.yaml": taken}, "is-two")
    assert (
        f008.hint is not None and "`BAR030`, the number after 029, is printed on `bar030`: keep `bar029`" in f008.hint
    )


def test_a_card_removed_to_mend_a_deck_is_one_nothing_names() -> None:
    """Round 30: a variant adding a 3-copy Japanese card (33 cards) and patching two of the
    deck's three others was told to remove `jap021`, which five cards' `refers_to` names: followed,
    V006. The card proposed is one nothing names, and the hint says what goes with it (the
    variant's own patch of it); followed, the variant is clean."""
    head = "kind: ruleset\nfamily: imperial-settlers\nid: is-tea\nname: tea\nextends: imperial-settlers\n"
    patches = (
        '      - {id: jap001, cost: [wood, wood], source: "house rule"}\n'
        '      - {id: jap016, spoils: [vp, vp], source: "house rule"}\n'
    )
    added = (
        "    add:\n      - {id: jap031, name: Casa, kind: production, colours: [red], deck: japanese, copies: 3,\n"
        "         printed_ids: [JAP031, JAP032, JAP033], cost: [wood], spoils: [vp], deal: food,\n"
        '         production: [food], source: "house rule"}\n'
    )
    variant = head + "overlay:\n  cards:\n    patch:\n" + patches + added
    [f001] = found("F001", {"rulesets/is-tea.yaml": variant}, "is-tea")
    assert f001.hint is not None and "jap021" not in f001.hint
    assert (
        'e.g. `remove: [{id: jap001, why: "house rule: write why here"}]` (drop this variant\'s patch of `jap001`)'
        in f001.hint
    )
    mended = variant.replace(patches.splitlines(keepends=True)[0], "") + '    remove:\n      - {id: jap001, why: "x"}\n'
    workspace = CachedWorkspace({"rulesets/is-tea.yaml": mended})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["is-tea"]))
    assert [d.code for d in analysis.diagnostics if d.severity == "error"] == []


def test_what_f001_reads_for_its_hint_does_not_move_it_from_the_cards_removal() -> None:
    """Round 31: F001 reads the factions' special rules for its hint only (`hint_reads`), so that
    a variant removing a card and the special rule naming it has F001 at the card's removal, as
    before F001 read them, not at the variant's `overlay:` line (where `reads` would put it:
    two changes of what it reads)."""
    head = "kind: ruleset\nfamily: imperial-settlers\nid: is-x\nname: x\nextends: imperial-settlers\n"
    variant = head + (
        "overlay:\n  cards:\n    remove:\n"
        '      - {id: bar010, why: "house rule: no saboteurs"}\n'
        "  factions:\n    patch:\n"
        "      - {id: barbarians, special_rules: {remove: [{id: saboteurs_take_resource}]},\n"
        '         source: "house rule: no saboteurs"}\n'
    )
    [f001] = found("F001", {"rulesets/is-x.yaml": variant}, "is-x")
    assert f001.span is not None and f001.span.line == 9  # `- {id: bar010, ...}`


def test_a_card_raised_to_three_copies_is_one_diagnostic_whose_patch_takes_the_doubled_number_back() -> None:
    """Round 33 left it: rom001 raised to 3 copies (numbered ROM001-ROM003) made the Roman deck 31.
    F001 proposed a new card of 2 copies added and rom003 removed (a puzzling fix for one card too
    many), and F008 told apart that `ROM003` is printed on rom003 and rom001, the same cause. One
    F001 now: its message names the doubled number, its hint cites the pattern (p12), and its
    patch takes another card of 3 copies down to 2, giving up the doubled number; followed, the
    deck is clean and nothing else is told."""
    head = "kind: ruleset\nfamily: imperial-settlers\nid: is-31\nname: more\nextends: imperial-settlers\n"
    three = '      - {id: rom001, copies: 3, printed_ids: [ROM001, ROM002, ROM003], source: "house rule"}\n'
    variant = head + "overlay:\n  cards:\n    patch:\n" + three
    texts = {"rulesets/is-31.yaml": variant}
    assert found("F008", texts, "is-31") == []
    [f001] = found("F001", texts, "is-31")
    assert "`ROM003` is printed on `rom001` and on `rom003`" in f001.message
    entry = '{id: rom003, copies: 2, printed_ids: [ROM004, ROM005], source: "house rule: write why here"}'
    assert f001.hint is not None and f"e.g. `patch: [{entry}]`" in f001.hint, f001.hint
    assert "the pattern it then follows: 3 cards of 3 copies, 6 cards of 2 copies, 9 cards of 1 copy (p12)" in f001.hint
    filled = entry.replace("write why here", "a workshop for an apprentice")
    followed = {"rulesets/is-31.yaml": variant + f"      - {filled}\n"}
    workspace = CachedWorkspace(followed)
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["is-31"]))
    assert [(d.code, d.message) for d in analysis.diagnostics if d.severity == "error"] == []


def test_a_card_taken_down_to_one_copy_is_one_diagnostic_whose_patch_leaves_the_deck_clean() -> None:
    """Round 34 left it: rom001 taken down to 1 copy (ROM001 kept, ROM002 given up, as F008's own
    hint for a copy fewer writes it) made the Roman deck 29. F001 proposed rom030 at 2 copies and
    F008 told the gap ROM002 apart, which following F001 left. A number a card a variant patched
    gives up at the end of its copies is free on purpose, as a removed card's are: one F001, and
    its patch, followed, leaves the deck clean."""
    head = "kind: ruleset\nfamily: imperial-settlers\nid: is-29\nname: fewer\nextends: imperial-settlers\n"
    one = '      - {id: rom001, copies: 1, printed_ids: [ROM001], source: "house rule"}\n'
    variant = head + "overlay:\n  cards:\n    patch:\n" + one
    texts = {"rulesets/is-29.yaml": variant}
    assert found("F008", texts, "is-29") == []
    [f001] = found("F001", texts, "is-29")
    entry = '{id: rom030, copies: 2, printed_ids: [ROM030, ROM031], source: "house rule: write why here"}'
    assert f001.hint is not None and f"e.g. `patch: [{entry}]`" in f001.hint, f001.hint
    assert "the pattern it then follows: 3 cards of 3 copies, 6 cards of 2 copies, 9 cards of 1 copy (p12)" in f001.hint
    filled = entry.replace("write why here", "a second watchtower")
    followed = {"rulesets/is-29.yaml": variant + f"      - {filled}\n"}
    workspace = CachedWorkspace(followed)
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["is-29"]))
    assert [(d.code, d.message) for d in analysis.diagnostics if d.severity == "error"] == []


def test_a_number_given_up_in_the_middle_of_a_card_is_still_a_gap() -> None:
    """Only the numbers after a patched card's last are given up with its copies: rom003 keeping
    ROM005 alone leaves ROM003 and ROM004 unprinted, a gap F008 still tells."""
    head = "kind: ruleset\nfamily: imperial-settlers\nid: is-gap\nname: gap\nextends: imperial-settlers\n"
    variant = head + (
        "overlay:\n  cards:\n    patch:\n"
        '      - {id: rom003, copies: 1, printed_ids: [ROM005], source: "house rule"}\n'
        '      - {id: rom030, copies: 3, printed_ids: [ROM030, ROM031, ROM032], source: "house rule"}\n'
    )
    gaps = [d.message for d in found("F008", {"rulesets/is-gap.yaml": variant}, "is-gap") if "gaps" in d.message]
    assert gaps == ["the printed ids of deck `romans` leave gaps: ROM003, ROM004"]


def test_a_deck_rule_a_variant_changed_is_cited_as_the_variant_not_as_p12() -> None:
    """Trial: a variant making the decks 32 (pattern 3/7/9) was told "a faction deck holds 32
    (p12)" and "the pattern it then follows: ... 7 cards of 2 copies ... (p12)": p12 prints 30 and
    6. The numbers a variant wrote are cited as the variant's."""
    variant = (
        "kind: ruleset\nfamily: imperial-settlers\nid: is-big\nname: big\nextends: imperial-settlers\n"
        "overlay:\n  settings:\n    deck_building:\n      deck_size: 32\n      pattern:\n"
        "        - {copies: 3, cards: 3}\n        - {copies: 2, cards: 7}\n        - {copies: 1, cards: 9}\n"
        '      source: "house rule: bigger decks"\n'
    )
    f001s = found("F001", {"rulesets/is-big.yaml": variant}, "is-big")
    assert len(f001s) == 4  # each faction's deck lacks its own card
    for f001 in f001s:
        assert "(p12)" not in f001.message and "(p12)" not in (f001.hint or ""), (f001.message, f001.hint)
        assert f001.message.endswith("a faction deck holds 32 (`deck_building.deck_size` as `is-big` writes it)")
        assert "9 cards of 1 copy (`deck_building.pattern` as `is-big` writes it)" in (f001.hint or "")


def test_a_card_f001_adds_is_written_with_the_facts_its_decks_cards_all_carry() -> None:
    """Trial: rom003 taken to 2 copies (ROM003, ROM004): F001 wrote a new 3-copy card with blanks
    for its id, name, kind and cost; filled and pasted, it was F010 "has no deal" and F011 "has no
    colour". The card added now carries a blank for each fact every card of the deck has
    (colours, deal): pasted, only L016; filled, the deck is clean. (rom003's case is now one patch,
    rom006 grown back into ROM005; rom023 taken to 2 copies leaves no card of 2 copies a free number
    beside it, so a card is added.)"""
    head = "kind: ruleset\nfamily: imperial-settlers\nid: is-mid\nname: mid\nextends: imperial-settlers\n"
    two = '      - {id: rom023, copies: 2, printed_ids: [ROM023, ROM024], source: "house rule"}\n'
    variant = head + "overlay:\n  cards:\n    patch:\n" + two
    [f001] = found("F001", {"rulesets/is-mid.yaml": variant}, "is-mid")
    assert f001.hint is not None
    add = f001.hint.split("`add: [", 1)[1].split("]`", 1)[0] + "]"
    add = add[: add.rindex("}") + 1]
    remove = f001.hint.split("`remove: [", 1)[1].split("]`", 1)[0]
    assert 'colours: ["write the card\'s colour here"]' in add and 'deal: "write the good the card deals here"' in add
    pasted = variant + f"    add: [{add}]\n    remove: [{remove}]\n"
    workspace = CachedWorkspace({"rulesets/is-mid.yaml": pasted})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["is-mid"]))
    assert {d.code for d in analysis.diagnostics if d.severity == "error"} == {"L016"}
    filled = (
        add.replace("write the new card's id here", "rom031")
        .replace("write the card's name here", "Aqueduct")
        .replace('"write the card\'s kind here"', "production")
        .replace('"write the card\'s cost here"', "[wood]")
        .replace('["write the card\'s colour here"]', "[gold]")
        .replace('"write the good the card deals here"', "stone")
        .replace("write why here", "aqueducts")
    )
    remove = remove.replace("write why here", "no farms")
    workspace = CachedWorkspace({"rulesets/is-mid.yaml": variant + f"    add: [{filled}]\n    remove: [{remove}]\n"})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["is-mid"]))
    assert [(d.code, d.message) for d in analysis.diagnostics if d.severity == "error"] == []


def _errors(texts: dict[str, str], ruleset: str) -> list[tuple[str, str]]:
    workspace = CachedWorkspace(texts)
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset]))
    return [(d.code, d.message) for d in analysis.diagnostics if d.severity == "error"]


def test_a_card_short_of_a_copy_grows_back_into_the_number_another_card_gave_up() -> None:
    """Round 34 left it: rom003 taken down to 2 copies gives up ROM005, and the Roman deck is 29,
    a card of 3 copies short. The cards of 2 copies could grow only forward, into numbers every
    one finds taken, so F001 proposed removing rom001 and adding a whole new card of 3 copies
    numbered after the deck's last. rom006 (ROM006, ROM007) can take the number given up before
    its first: one patch, and followed, the deck is clean."""
    head = "kind: ruleset\nfamily: imperial-settlers\nid: is-back\nname: back\nextends: imperial-settlers\n"
    two = '      - {id: rom003, copies: 2, printed_ids: [ROM003, ROM004], source: "house rule"}\n'
    variant = head + "overlay:\n  cards:\n    patch:\n" + two
    [f001] = found("F001", {"rulesets/is-back.yaml": variant}, "is-back")
    entry = '{id: rom006, copies: 3, printed_ids: [ROM005, ROM006, ROM007], source: "house rule: write why here"}'
    assert f001.hint is not None and f"e.g. `patch: [{entry}]`;" in f001.hint, f001.hint
    filled = entry.replace("write why here", "three farms")
    assert _errors({"rulesets/is-back.yaml": variant + f"      - {filled}\n"}, "is-back") == []


def test_copies_without_printed_ids_are_numbered_back_into_a_number_another_card_gave_up() -> None:
    """The same blind spot in F008's hint: rom006 given 3 copies, its next number ROM008 taken,
    was told to keep to 2 copies (undoing the change) though ROM005, before its first, is free:
    rom003 gave it up. The hint numbers the copies back into it; followed, the deck is clean."""
    head = "kind: ruleset\nfamily: imperial-settlers\nid: is-six\nname: six\nextends: imperial-settlers\n"
    variant = head + (
        "overlay:\n  cards:\n    patch:\n"
        '      - {id: rom003, copies: 2, printed_ids: [ROM003, ROM004], source: "house rule"}\n'
        '      - {id: rom006, copies: 3, source: "house rule"}\n'
    )
    [f008] = found("F008", {"rulesets/is-six.yaml": variant}, "is-six")
    assert f008.hint is not None and "`printed_ids: [ROM005, ROM006, ROM007]`" in f008.hint, f008.hint
    followed = variant.replace("copies: 3, source", "copies: 3, printed_ids: [ROM005, ROM006, ROM007], source")
    assert _errors({"rulesets/is-six.yaml": followed}, "is-six") == []


def test_a_copy_numbered_out_of_order_is_numbered_back_into_a_number_another_card_gave_up() -> None:
    """Round 35: rom006's third copy numbered ROM031, its next number ROM008 rom008's, was told to
    keep rom006 to 2 copies, though ROM005, before its first, is free (rom003 gave it up). The hint
    numbers the copies back into it, in the variant's patch; followed, the deck is clean."""
    head = "kind: ruleset\nfamily: imperial-settlers\nid: is-gap\nname: gap\nextends: imperial-settlers\n"
    variant = head + (
        "overlay:\n  cards:\n    patch:\n"
        '      - {id: rom003, copies: 2, printed_ids: [ROM003, ROM004], source: "house rule"}\n'
        '      - {id: rom006, copies: 3, printed_ids: [ROM006, ROM007, ROM031], source: "house rule"}\n'
    )
    [f008] = [d for d in found("F008", {"rulesets/is-gap.yaml": variant}, "is-gap") if "consecutively" in d.message]
    way = "`printed_ids: [ROM005, ROM006, ROM007]`"
    assert f008.hint is not None and f"in the `overlay.cards` patch of `rom006`, {way}" in f008.hint, f008.hint
    assert "keep `rom006`" not in f008.hint
    followed = variant.replace("[ROM006, ROM007, ROM031]", "[ROM005, ROM006, ROM007]")
    assert _errors({"rulesets/is-gap.yaml": followed}, "is-gap") == []


def test_a_copy_numbered_after_the_next_swaps_with_it_in_the_variants_patch() -> None:
    """com069's copies printed COM073 after COM074: "number it 073", in the variant's patch, wrote
    COM073 twice; the two ids swap."""
    head = "kind: ruleset\nfamily: imperial-settlers\nid: is-swap\nname: swap\nextends: imperial-settlers\n"
    ids = "[COM069, COM070, COM071, COM072, COM074, COM073]"
    variant = (
        head + f'overlay:\n  cards:\n    patch:\n      - {{id: com069, printed_ids: {ids}, source: "house rule"}}\n'
    )
    hints = [
        d.hint or "" for d in found("F008", {"rulesets/is-swap.yaml": variant}, "is-swap") if "COM074" in d.message
    ]
    assert hints and "`printed_ids: [COM069, COM070, COM071, COM072, COM073, COM074]`" in hints[0], hints
