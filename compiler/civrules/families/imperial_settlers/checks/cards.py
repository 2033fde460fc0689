"""Cards: printed ids, goods, spoils and deals, kinds and colours are the rulebook's."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from civrules.checks import check, diagnostic, made_of, setting
from civrules.diagnostics import Diagnostic, Related, Severity, words
from civrules.families.imperial_settlers.decks import deck_rule
from civrules.families.imperial_settlers.model import Card, Counted, Gives, ImperialSettlersRuleset
from civrules.model import Origin, Unknown

PRINTED_ID = re.compile(r"^([A-Z]{3})([0-9]{3})$")


def _added(ruleset: ImperialSettlersRuleset, card: Card) -> bool:
    """Whether a variant of the chain added the card (its definition is not in the first layer)."""
    return ruleset.layer(card.origin) > 0


@check("F007", "printed-id-prefix", Severity.ERROR, reads=("cards.deck", "cards.printed_ids", "decks.prefix"))
@made_of("cards", "decks")
def check_prefix(ruleset: ImperialSettlersRuleset) -> Iterator[Diagnostic]:
    """
    What: a card's printed id does not begin with its deck's code (BAR, COM, EGY, JAP, ROM, p4), or
    with the code of no deck at all.

    Why: the affiliation code tells which deck a card belongs to; a Roman card numbered BAR012 is
    sorted into the wrong deck.

    Fix: give the copy its deck's code, or the card the right `deck:`.

        - id: rom031
          printed_ids: [BAR031]   # FAIL: a card of the Roman deck
          deck: romans
    """
    prefixes = {deck.prefix: deck for deck in ruleset.decks}
    holders = _holders(ruleset)
    for card in ruleset.cards:
        expected = ruleset.decks.get(card.deck) if card.deck is not None else None
        for index, printed in enumerate(card.printed_ids):
            match = PRINTED_ID.match(printed)
            prefix = match.group(1) if match else printed[:3]
            if prefix not in prefixes:
                yield diagnostic(
                    "F007",
                    f"`{printed}` of card `{card.id}` begins with `{prefix}`, the code of no deck (p4)",
                    card.origin.span("printed_ids", index),
                    f"deck codes: {', '.join(sorted(prefixes))}",
                    subjects=(printed, card.id, prefix),
                )
                break
            if expected is not None and prefix != expected.prefix:
                yield diagnostic(
                    "F007",
                    f"`{printed}` of card `{card.id}` (deck `{expected.id}`) "
                    f"does not begin with `{expected.prefix}` (p4)",
                    card.origin.span("printed_ids", index),
                    _free_id_hint(holders, card, expected.prefix, f"{expected.prefix}{printed[3:]}"),
                    subjects=(printed, card.id, expected.id, expected.prefix),
                )
                break


def repeated_ids(ruleset: ImperialSettlersRuleset) -> dict[str, tuple[Card, Card]]:
    """Each printed id printed on two cards, with the card it is printed on first and the next
    (in the order of :attr:`~ImperialSettlersRuleset.cards`)."""
    seen: dict[str, Card] = {}
    repeated: dict[str, tuple[Card, Card]] = {}
    for card in ruleset.cards:
        for printed in card.printed_ids:
            other = seen.setdefault(printed, card)
            if other is not card:
                repeated.setdefault(printed, (other, card))
    return repeated


def sized_apart(ruleset: ImperialSettlersRuleset) -> set[str]:
    """The codes of the printed decks (used as printed: no custom deck in their place) that do not
    hold the cards of the deck-building rule's size: F001 reports each, and names in the same
    diagnostic a number its cards print twice (one cause: a card given another's number with a
    copy more), which F008 then leaves to it."""
    rule = deck_rule(ruleset.fact("deck_building"))
    if rule is None:
        return set()
    return {
        deck.prefix
        for deck in ruleset.decks
        if deck.faction is not None
        and ruleset.custom_deck(deck.faction) is None
        and sum(copies for _, copies in ruleset.deck_cards(deck)) != rule.size
    }


@check(
    "F008",
    "printed-id-sequence",
    Severity.ERROR,
    reads=(
        "cards.copies",
        "cards.printed_ids",
        "decks.prefix",
        # a repeat in a deck F001 reports the size of is F001's (:func:`sized_apart`)
        "cards.deck",
        "decks.faction",
        "faction_decks.id",
        setting("deck_building"),
    ),
)
def check_sequence(ruleset: ImperialSettlersRuleset) -> Iterator[Diagnostic]:
    """
    What: the printed ids of a deck are repeated, leave a gap (a deck's cards are numbered 001 to
    its last without gaps), do not number a card's copies consecutively, or do not number as
    many copies as the card has. Cards a variant adds are checked for repeats only. A number
    repeated in a printed deck that does not hold 30 cards is F001's, told with the deck's size:
    a card given a copy more, numbered into the next card's, is one cause. A number a variant's
    card gives up after its last printed id, with a copy fewer, is free on purpose, as a removed
    card's numbers are: no gap.

    Why: the numbers are how players sort and check a deck (p4); a gap is a lost card, a repeat a
    card counted twice.

    Fix: renumber the copies so the deck runs 001, 002, … with each card's copies side by side.
    A card a variant patched to more copies than its printed ids is told the ids to write in that
    patch (numbered on where the next numbers are free, else back into free numbers before its
    first, as one another card gave up), or the copies to keep where neither is; a copy numbered
    out of order is told the next number, or, where another card prints it, the card's copies
    numbered back into free numbers before its first, in the variant's patch of the card.

        printed_ids: [COM008, COM010]   # FAIL: copies of one card take consecutive ids
        copies: 2
    """
    seen: dict[str, Card] = {}
    numbers: dict[str, set[int]] = {}
    holders = _holders(ruleset)
    told_by_size = sized_apart(ruleset)
    for card in ruleset.cards:
        if len(card.printed_ids) != card.copies:
            yield diagnostic(
                "F008",
                f"card `{card.id}` has {words.count(card.copies, 'copy', 'copies')} but "
                f"{words.count(len(card.printed_ids), 'printed id')}",
                card.origin.span("printed_ids"),
                "give each copy its printed id",
                subjects=(card.id,),
                from_variant=_printed_in_overlay(holders, card) if len(ruleset.chain) > 1 else None,
            )
        previous: int | None = None
        for index, printed in enumerate(card.printed_ids):
            other = seen.get(printed)
            if other is not None and printed[:3] in told_by_size:
                continue  # F001's, with the deck's size
            if other is not None:
                yield diagnostic(
                    "F008",
                    f"`{printed}` is printed on `{card.id}` and on `{other.id}`",
                    card.origin.span("printed_ids", index),
                    "give each copy an id of its own",
                    [Related(other.origin.span("printed_ids"), "the other card")],
                    subjects=(printed, card.id, other.id),
                )
                continue
            seen[printed] = card
            match = PRINTED_ID.match(printed)
            if match is None:
                continue
            number = int(match.group(2))
            if not _added(ruleset, card):
                numbers.setdefault(match.group(1), set()).add(number)
            if previous is not None and number != previous + 1:
                hint, related, in_overlay = _next_number_hint(
                    holders, card, match.group(1), previous, index, in_variant=len(ruleset.chain) > 1
                )
                yield diagnostic(
                    "F008",
                    f"the copies of `{card.id}` are not numbered consecutively: `{printed}` follows {previous:03d}",
                    card.origin.span("printed_ids", index),
                    hint,
                    related,
                    subjects=(card.id, printed),
                    from_variant=in_overlay,
                )
            previous = number
    if ruleset.removed.get("cards"):
        return  # a variant that removes printed cards leaves their numbers free on purpose
    given_up = _given_up(ruleset)
    for deck in ruleset.decks:
        used = numbers.get(deck.prefix, set())
        missing = sorted(set(range(1, max(used, default=0) + 1)) - used - given_up.get(deck.prefix, set()))
        if missing:
            yield diagnostic(
                "F008",
                f"the printed ids of deck `{deck.id}` leave gaps: "
                + ", ".join(f"{deck.prefix}{n:03d}" for n in missing[:5]),
                deck.origin.span("prefix"),
                "number the deck's cards 001 to its last without gaps",
                subjects=(deck.id,),
            )


def _given_up(ruleset: ImperialSettlersRuleset) -> dict[str, set[int]]:
    """Per deck code, the numbers a card a variant patched gave up with copies taken down: those
    after the last of its printed ids, numbered consecutively, up to the next number printed. A
    copy fewer drops the last id (F008's and F001's hints write it so), and the number is free on
    purpose, as a removed card's are; a number given up before a card's first, or between its
    ids, is still a gap."""
    printed: dict[str, set[int]] = {}
    for card in ruleset.cards:
        for match in map(PRINTED_ID.match, card.printed_ids):
            if match is not None:
                printed.setdefault(match.group(1), set()).add(int(match.group(2)))
    given_up: dict[str, set[int]] = {}
    for card in ruleset.cards:
        if _added(ruleset, card) or not ruleset.layer(card.origin, "printed_ids"):
            continue  # printed as its definition has it: nothing given up
        own = [match for match in map(PRINTED_ID.match, card.printed_ids) if match is not None]
        if not own or len(own) != len(card.printed_ids) or len({match.group(1) for match in own}) > 1:
            continue
        prefix, numbers = own[0].group(1), [int(match.group(2)) for match in own]
        if numbers != list(range(numbers[0], numbers[0] + len(numbers))):
            continue
        later = [n for n in printed[prefix] if n > numbers[-1]]
        given_up.setdefault(prefix, set()).update(range(numbers[-1] + 1, min(later, default=numbers[-1] + 1)))
    return given_up


def grown(own: Sequence[int], copies: int, free: Callable[[int], bool]) -> list[int] | None:
    """The numbers a card printed with the consecutive ``own`` takes for ``copies``, more than
    it has, without a gap or a repeat: its own and the ``free`` numbers beside them. Those after its
    last first (its first id kept); else reaching back before its first, into a number another card
    gave up with a copy fewer (free, not printed) that a hint growing forward alone never proposed.
    None where no such run is free."""
    more = copies - len(own)
    if not own or more <= 0:
        return None
    for back in range(more + 1):
        run = range(own[0] - back, own[-1] + 1 + more - back)
        if run[0] >= 1 and all(free(n) for n in run if n not in own):
            return list(run)
    return None


def _holders(ruleset: ImperialSettlersRuleset) -> dict[str, Card]:
    """The card each printed id is printed on (the first, where F008 finds it on two)."""
    holders: dict[str, Card] = {}
    for card in ruleset.cards:
        for printed in card.printed_ids:
            holders.setdefault(printed, card)
    return holders


def _free_number(holders: Mapping[str, Card], prefix: str) -> str:
    """The first printed id of the deck ``prefix`` no card has."""
    return next(f"{prefix}{n:03d}" for n in itertools.count(1) if f"{prefix}{n:03d}" not in holders)


def _free_id_hint(holders: Mapping[str, Card], card: Card, prefix: str, wanted: str) -> str:
    """Write ``wanted`` if no other card has it; else who does, and the deck's first free id."""
    other = holders.get(wanted)
    if other is None or other is card:
        return f"write `{wanted}`"
    return f"`{wanted}` is printed on `{other.id}`: write `{_free_number(holders, prefix)}`, the deck's first free id"


def _printed_in_overlay(holders: Mapping[str, Card], card: Card) -> str | None:
    """The fix of a card whose copies a variant made more or fewer than its printed ids, as the
    variant writes it in `overlay.cards`: its printed ids, the last dropped, or numbered on where
    the next numbers are free; where another card has one, its copies kept to the ids it has
    ("give each copy its printed id", in the base's words, named no id and no entry)."""
    own = [PRINTED_ID.match(printed) for printed in card.printed_ids]
    if not own or any(match is None for match in own):
        return None
    prefix, last = own[-1].group(1), int(own[-1].group(2))  # type: ignore[union-attr]
    printed = list(card.printed_ids[: card.copies])
    taken = None
    for number in range(last + 1, last + 1 + card.copies - len(printed)):
        wanted = f"{prefix}{number:03d}"
        if holders.get(wanted) not in (None, card):
            taken = (wanted, holders[wanted])
            break
        printed.append(wanted)
    numbers = [int(match.group(2)) for match in own if match is not None and match.group(1) == prefix]
    if taken is not None and numbers == list(range(last + 1 - len(own), last + 1)):
        # the next number taken, the copies may still reach back into numbers free before the first
        run = grown(numbers, card.copies, lambda n: holders.get(f"{prefix}{n:03d}") in (None, card))
        if run is not None:
            taken, printed = None, [f"{prefix}{n:03d}" for n in run]
    if taken is not None:
        count = words.count(len(card.printed_ids), "copy", "copies")
        return (
            f"`{taken[0]}`, the number after {last:03d}, is printed on `{taken[1].id}`: keep `{card.id}` to the "
            f"{count} numbered, `copies: {len(card.printed_ids)}` in the `overlay.cards` patch of `{card.id}`"
        )
    return (
        f"write the printed id of each copy in the `overlay.cards` patch of `{card.id}`: "
        f"`printed_ids: [{', '.join(printed)}]`"
    )


def _next_number_hint(
    holders: Mapping[str, Card], card: Card, prefix: str, previous: int, index: int, *, in_variant: bool
) -> tuple[str, list[Related], str | None]:
    """The hint for the copy at ``index`` that does not follow the copy before it, and, in a
    variant (``in_variant``), the same fix as the variant writes it in its `overlay.cards` patch of
    the card (the hint's own words then): the next number where it is free. Where another card
    has it, the copies numbered so far may reach back before the card's first into free numbers
    (one another card gave up with a copy fewer, :func:`grown`), all of them renumbered; where
    neither is free, no number can follow this card's copies (numbered elsewhere, they would
    leave a gap where they were): the count of copies is what to change."""
    wanted = f"{prefix}{previous + 1:03d}"
    other = holders.get(wanted)
    patch = f"in the `overlay.cards` patch of `{card.id}`"
    if other is None or other is card:
        numbered = list(card.printed_ids)
        if wanted in numbered:  # a later copy has it: the two swap
            numbered[numbered.index(wanted)] = numbered[index]
        numbered[index] = wanted
        ids = ", ".join(numbered)
        way = f"{patch}, `printed_ids: [{ids}]`"
        return (way, [], way) if in_variant else (f"number it {previous + 1:03d}", [], None)
    taken = f"`{wanted}`, the number after {previous:03d}, is printed on `{other.id}`"
    related = [Related(other.origin.span("printed_ids"), f"`{other.id}` has `{wanted}`")]
    before = [PRINTED_ID.match(printed) for printed in card.printed_ids[:index]]
    own = [int(match.group(2)) for match in before if match is not None and match.group(1) == prefix]
    run = None
    if len(own) == index and own == list(range(own[0], own[0] + index)):
        run = grown(own, card.copies, lambda n: holders.get(f"{prefix}{n:03d}") in (None, card))
    if run is not None:
        ids = ", ".join(f"{prefix}{n:03d}" for n in run)
        way = f"{patch}, `printed_ids: [{ids}]`" if in_variant else f"number its copies `printed_ids: [{ids}]`"
        return (
            f"{taken}, but {prefix}{run[0]:03d}, before its first, is free: {way}",
            related,
            way if in_variant else None,
        )
    count = words.count(index, "copy", "copies")
    if in_variant:
        way = f"{patch}, `copies: {index}` and `printed_ids: [{', '.join(card.printed_ids[:index])}]`"
        return (
            f"{taken}: no free number follows, so keep `{card.id}` to the {count} numbered before this one: {way}",
            related,
            way,
        )
    return (
        f"{taken}: no free number follows, so keep `{card.id}` to the {count} numbered before this one",
        related,
        None,
    )


_FIELDS = ("cost", "spoils", "deal", "production", "build_bonus")
#: What a copy whose printed facts differ from its card's may give otherwise (`differing_copies`).
_COPY_FIELDS = ("cost", "spoils", "deal")


@check(
    "F009",
    "unknown-good",
    Severity.ERROR,
    reads=(
        "cards.build_bonus",
        "cards.cost",
        "cards.deal",
        "cards.deck",
        "cards.differing_copies",
        "cards.production",
        "cards.spoils",
        "decks.faction",
        "factions.production",
        "factions.storage",
        "goods.id",
    ),
)
@made_of("cards", "decks", "factions", "goods")
def check_goods(ruleset: ImperialSettlersRuleset) -> Iterator[Diagnostic]:
    """
    What: a card's cost, spoils, deal, production or build bonus (the good given per location
    counted and the goods given beside, where it counts), or a differing copy's cost, spoils or
    deal, or a faction board's production or storage, names no good of the ruleset
    (card, vp, worker, raze, defence, gold, food, wood, stone, p3). A cost may also ask for a
    `location` (a built location or a foundation discarded), on faction cards only (p8).

    Why: a good no one can hold cannot be paid or received; a common card that asks for a location
    contradicts "Para construir um Local Comum, um jogador só precisa descartar certos recursos" (p8).

    Fix: use a good of the ruleset's `goods` (the hint lists them).

        cost: [wood, stones]   # FAIL: `stones` is no good
        differing_copies:
          - {id: ROM005, deal: wod}   # FAIL: `wod` is no good
        production: {each: wokrer, per: {colour: pink}, at_most: 3, rule: p11}   # FAIL: `wokrer` is no good
    """
    goods = set(ruleset.goods.ids())
    # Written as a fix (a variant's hint says "which writes the fix: ..." before it), not a list alone.
    listed = f"name a good of the ruleset's `goods`: {', '.join(sorted(goods))}"
    for card in ruleset.cards:
        deck = ruleset.decks.get(card.deck) if card.deck is not None else None
        faction_card = deck is not None and deck.faction is not None
        places: list[tuple[str, Any, tuple[str | int, ...]]] = []
        for field in _FIELDS:
            value = getattr(card, field)
            if isinstance(value, Counted):  # the good per thing counted, and the goods given beside
                places.append((f"{field} of card `{card.id}`", value.each, (field, "each")))
                places.append((f"{field} of card `{card.id}`", value.plus, (field, "plus")))
            else:
                places.append((f"{field} of card `{card.id}`", value, (field,)))
        places += [
            (
                f"{field} of copy {copy.printed_id} of card `{card.id}`",
                getattr(copy, field),
                ("differing_copies", copy.index, field),
            )
            for copy in card.differing_copies
            for field in _COPY_FIELDS
        ]
        for what, value, path in places:
            values = (value,) if isinstance(value, str) else value
            if values is None or isinstance(values, Unknown):
                continue
            cost = path[-1] == "cost"
            for index, good in enumerate(values):
                if good in goods or (cost and good == "location" and faction_card):
                    continue
                span = card.origin.span(*path) if isinstance(value, str) else card.origin.span(*path, index)
                location = good == "location" and cost
                why = (
                    "a common card's cost asks only for goods (p8)"
                    if location
                    else f"no good of the ruleset is called `{good}`"
                )
                yield diagnostic(
                    "F009", f"{what}: {why}", span, listed, subjects=(card.id,) if location else (card.id, good)
                )
    for faction in ruleset.factions:
        for field, value in (("production", faction.production), ("storage", faction.storage)):
            if isinstance(value, Unknown):
                continue
            for index, good in enumerate(value):
                if good not in goods:
                    yield diagnostic(
                        "F009",
                        f"board {field} of faction `{faction.id}`: no good of the ruleset is called `{good}`",
                        faction.origin.span("board", field, index),
                        listed,
                        subjects=(faction.id, good),
                    )


@check(
    "F010",
    "spoils-or-deal-on-the-wrong-card",
    Severity.ERROR,
    reads=("cards.can_be_razed", "cards.deal", "cards.deck", "cards.spoils", setting("card_uses")),
)
def check_spoils_and_deals(ruleset: ImperialSettlersRuleset) -> Iterator[Diagnostic]:
    """
    What: a card has spoils though its deck's cards have none, or lacks them though they have
    them; or has a deal though its deck's cards have none, or lacks one. Common cards and Japanese
    faction cards have spoils; faction cards have deals (p4, p9; the Japanese exception p11). A
    card the rules say cannot be razed (`can_be_razed: false`) may lack spoils.

    Why: razing needs a spoils area and a deal needs a deal area (p15, "LEMBRE-SE!"): a common card
    with a deal could be dealt, which the rules forbid (p9).

    Fix: remove the area, or add it, as the card's deck has it (`card_uses` names the decks).
    Where every card of a deck (two or more) has the area `card_uses` denies it, or none has the
    area `card_uses` gives it, the setting's list is what to change: one finding there, naming the
    setting and the deck, with a note at the first cards.

        - id: com002
          deal: food   # FAIL: common cards have no deal area

        card_uses:
          deal: {deal_on: [barbarians, romans, egyptians]}   # FAIL: every `japanese` card has a deal
    """
    uses = ruleset.fact("card_uses") or {}
    spoils_on = set((uses.get("raze") or {}).get("spoils_on") or ())
    deal_on = set((uses.get("deal") or {}).get("deal_on") or ())
    if not spoils_on and not deal_on:
        return
    # Each finding by what it contradicts: (the use, the deck), the cards of the deck it judges,
    # and those that contradict it (each with its own diagnostic).
    judged: dict[tuple[str, str], int] = {}
    found: dict[tuple[str, str], list[Diagnostic]] = {}
    for card in ruleset.cards:
        if card.deck is None:
            continue
        has_spoils = card.spoils is not None and (isinstance(card.spoils, Unknown) or len(card.spoils) > 0)
        if card.can_be_razed or has_spoils:
            judged[("raze", card.deck)] = judged.get(("raze", card.deck), 0) + 1
        judged[("deal", card.deck)] = judged.get(("deal", card.deck), 0) + 1
        if has_spoils and card.deck not in spoils_on:
            found.setdefault(("raze", card.deck), []).append(
                diagnostic(
                    "F010",
                    f"card `{card.id}` has spoils, but cards of `{card.deck}` have none (p4)",
                    card.origin.key_span("spoils"),
                    "remove `spoils`",
                    subjects=(card.id, card.deck),
                )
            )
        elif not has_spoils and card.deck in spoils_on and card.can_be_razed:
            found.setdefault(("raze", card.deck), []).append(
                diagnostic(
                    "F010",
                    f"card `{card.id}` of `{card.deck}` has no spoils, though its deck's cards can be razed (p4)",
                    card.origin.head(),
                    "add its `spoils`, or `can_be_razed: false` where the rules say so",
                    subjects=(card.id, card.deck),
                )
            )
        if card.deal is not None and card.deck not in deal_on:
            found.setdefault(("deal", card.deck), []).append(
                diagnostic(
                    "F010",
                    f"card `{card.id}` has a deal, but cards of `{card.deck}` have none (p9)",
                    card.origin.key_span("deal"),
                    "remove `deal`",
                    subjects=(card.id, card.deck),
                )
            )
        elif card.deal is None and card.deck in deal_on:
            found.setdefault(("deal", card.deck), []).append(
                diagnostic(
                    "F010",
                    f"faction card `{card.id}` has no deal (p4)",
                    card.origin.head(),
                    "add its `deal`",
                    subjects=(card.id,),
                )
            )
    origin = ruleset.fact_origin("card_uses")
    for (use, deck), findings in found.items():
        if origin is None or len(findings) < 2 or len(findings) < judged[(use, deck)]:
            yield from findings
        else:
            yield from _against_the_setting(
                use, deck, findings, origin, named=deck in (spoils_on, deal_on)[use == "deal"]
            )


#: Of each use of a card (`card_uses`): the list naming the decks whose cards have its area, the
#: area, what a card has of it, and the page that says so.
_USES = {"raze": ("spoils_on", "spoils", "spoils", "p4"), "deal": ("deal_on", "deal", "a deal", "p9")}


def _against_the_setting(
    use: str, deck: str, findings: list[Diagnostic], origin: Origin, *, named: bool
) -> Iterator[Diagnostic]:
    """Each card's finding where every card of ``deck`` (two or more) contradicts `card_uses`
    (``named``: its list names the deck), told at that list, which is the one line to change, and
    naming it; the card is a note. A deck the setting left out or named by mistake read as 18
    errors, one per card, none naming the setting. The pipeline says the findings of one check at
    one place with one fix once (:func:`civrules.pipeline.one_per_place`); a `suppress:` entry
    naming one card still silences that one alone."""
    field, area, has, page = _USES[use]
    setting = f"card_uses.{use}.{field}"
    if named:
        what = f"`{setting}` names `{deck}`, but its card `{{card}}` has no {area} ({page})"
        hint = f"drop `{deck}` from `{setting}`: no card of `{deck}` has {has}; or give each of them its `{area}`"
    else:
        what = f"`{setting}` does not name `{deck}`, but its card `{{card}}` has {has} ({page})"
        hint = f"add `{deck}` to `{setting}`: every card of `{deck}` has {has}; or remove `{area}` from each of them"
    for finding in findings:
        assert finding.span is not None
        card = finding.subjects[0]
        yield diagnostic(
            finding.code,
            what.format(card=card),
            origin.span(use, field),
            hint,
            (Related(finding.span, f"card `{card}`"),),
            subjects=(card, deck, setting),
        )


@check(
    "F011",
    "unknown-kind-or-colour",
    Severity.ERROR,
    reads=(
        "cards.build_bonus",
        "cards.colours",
        "cards.kind",
        "cards.production",
        "colours.id",
        "location_kinds.id",
        setting("colourless_cards"),
    ),
)
def check_kinds_and_colours(ruleset: ImperialSettlersRuleset) -> Iterator[Diagnostic]:
    """
    What: a card's kind is not one of the ruleset's kinds of location (production, ability,
    action, p4/p8), a colour (of the card, or the colour whose locations a production or build
    bonus counts) is not one of its eight colours (p4), or a card has no colour though the
    ruleset does not list it in `colourless_cards` (only the Ruínas, p12).

    Why: the kind decides the card's row and the solo attack priority; colours count for the
    abilities that give goods per colour.

    Fix: use a kind and colours of the ruleset, or list a card printed without colour.

        kind: production
        colours: [purple]   # FAIL: the violet colour is `violet`
        production: {each: wood, per: {colour: gray}, at_most: 3, rule: p11}   # FAIL: grey is `grey`
    """
    kinds = set(ruleset.location_kinds.ids())
    colours = set(ruleset.colours.ids())
    colourless = {str(item.get("card")) for item in ruleset.fact("colourless_cards") or () if isinstance(item, dict)}
    for card in ruleset.cards:
        if card.kind not in kinds:
            yield diagnostic(
                "F011",
                f"card `{card.id}`: `{card.kind}` is no kind of location",
                card.origin.span("kind"),
                f"kinds: {', '.join(sorted(kinds))}",
                subjects=(card.id, card.kind),
            )
        for index, colour in enumerate(card.colours):
            if colour not in colours:
                yield diagnostic(
                    "F011",
                    f"card `{card.id}`: `{colour}` is no colour of the ruleset",
                    card.origin.span("colours", index),
                    f"colours: {', '.join(sorted(colours))}",
                    subjects=(card.id, colour),
                )
        for field in ("production", "build_bonus"):
            counted = getattr(card, field)
            if isinstance(counted, Counted) and counted.colour is not None and counted.colour not in colours:
                yield diagnostic(
                    "F011",
                    f"card `{card.id}`: its {field.replace('_', ' ')} counts the locations of "
                    f"`{counted.colour}`, no colour of the ruleset",
                    card.origin.span(field, "per", "colour"),
                    f"colours: {', '.join(sorted(colours))}",
                    subjects=(card.id, counted.colour),
                )
        if not card.colours and card.id not in colourless:
            yield diagnostic(
                "F011",
                f"card `{card.id}` has no colour and is not listed in `colourless_cards`",
                card.origin.head(),
                "give it its colours",
                subjects=(card.id, "colourless_cards"),
            )


@check(
    "F020",
    "bonus-placed-without-samurai",
    Severity.ERROR,
    reads=("cards.build_bonus", "cards.build_bonus_placed_as", "cards.deck", "decks.faction", "factions.special_rules"),
)
@made_of("cards", "decks", "factions")
def check_bonus_placed(ruleset: ImperialSettlersRuleset) -> Iterator[Diagnostic]:
    """
    What: a card's build bonus is placed at once as Samurai (`build_bonus_placed_as: samurai`, the
    Ninjas, p11), but the card is no location of a faction with the `samurai` special rule (the
    Japanese, p11), or its bonus is not workers (a Samurai is a worker placed in front of a faction
    location, p11; workers counted per location of a colour are workers), or it has no build bonus.

    Why: the package's `build_samurai` places such a bonus on the builder's faction locations and
    `build_gains` gives none of it to the supply: on any other card the bonus would vanish.

    Fix: move the field to a card of the faction with the `samurai` rule, make the bonus workers,
    or delete the field so that the bonus goes to the player's supply (a card with no bonus has
    nothing to place).

        - id: rom001
          build_bonus: [worker, worker]
          build_bonus_placed_as: samurai   # FAIL: the Romans have no Samurai
    """
    guarded = {faction.id for faction in ruleset.factions if any(r.id == "samurai" for r in faction.special_rules)}
    for card in ruleset.cards:
        if card.build_bonus_placed_as != "samurai":
            continue
        deck = ruleset.decks.get(card.deck) if card.deck is not None else None
        faction = deck.faction if deck is not None else None
        if faction not in guarded:
            owner = f"a card of the {faction} deck" if faction is not None else "not a faction's card"
            yield diagnostic(
                "F020",
                f"{card.id}'s build bonus is placed as Samurai, but it is {owner}, and "
                f"{'no faction has' if not guarded else 'only ' + ', '.join(sorted(guarded)) + ' have'} "
                "the `samurai` special rule (p11)",
                card.origin.span("build_bonus_placed_as"),
                "delete `build_bonus_placed_as` (the bonus then goes to the supply), or move it to a card of "
                "the faction with the `samurai` rule",
                subjects=(card.id,),
            )
        elif card.build_bonus is None:
            yield diagnostic(
                "F020",
                f"{card.id}'s build bonus is placed as Samurai, but it has no build bonus: nothing is placed",
                card.origin.span("build_bonus_placed_as"),
                "delete `build_bonus_placed_as`, or give the card the `build_bonus` it places",
                subjects=(card.id,),
            )
        elif any(good != "worker" for good in _bonus_goods(card.build_bonus)):
            yield diagnostic(
                "F020",
                f"{card.id}'s build bonus is placed as Samurai, but it is not workers: a Samurai is a worker (p11)",
                card.origin.span("build_bonus"),
                "make the bonus workers (`[worker, worker]`), or delete `build_bonus_placed_as`",
                subjects=(card.id,),
            )


def _bonus_goods(bonus: Gives) -> tuple[str, ...]:
    """The goods a build bonus may give: those it lists, or those it counts and adds (`each`,
    `plus`: workers counted per location of a colour are workers); none for an unknown one."""
    if isinstance(bonus, Counted):
        return (bonus.each, *bonus.plus)
    return bonus if isinstance(bonus, tuple) else ()
