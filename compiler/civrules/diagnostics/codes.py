"""The catalogue of diagnostic codes.

Codes are stable and never reused. The letter says the stage:

- ``L`` loading a YAML file (syntax, encoding, limits, forbidden constructs);
- ``S`` schema validation (shape of a file);
- ``R`` rulesets (manifests, the files they name, ruleset ids);

Semantic checks register their own codes from their docstrings (see :mod:`civrules.checks`).
This module is only the registry: it imports none of its users, so :func:`lookup` and
:func:`all_codes` know the codes registered so far; :func:`civrules.checks.catalogue` imports
every check first and so knows them all. ``civrules explain CODE`` prints the documentation.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Iterable, Mapping

from civrules.diagnostics import Diagnostic, Related, Severity, Span, named
from civrules.support.values import frozen_value


@frozen_value
class Code:
    """A diagnostic code and its user documentation."""

    code: str
    name: str
    severity: Severity
    doc: str

    def explain(self) -> str:
        header = f"{self.code} ({self.name}) — {self.severity.value}"
        return f"{header}\n\n{textwrap.dedent(self.doc).strip()}\n"

    def summary(self) -> str:
        """The first whole sentence of the documentation's `What:` paragraph, on one line."""
        text = textwrap.dedent(self.doc).strip()
        paragraph = " ".join(text.split("\n\n", 1)[0].split())
        what = paragraph.split(" Why: ", 1)[0].removeprefix("What: ")
        sentence = _SENTENCE_END.split(what, 1)[0] if what else self.name
        if sentence.startswith("civrules "):  # the program's name is written in lower case
            return sentence
        return sentence[:1].upper() + sentence[1:]


#: Where a sentence ends: a full stop before a capital letter or a parenthesis (not `e.g. the`).
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")


_REGISTRY: dict[str, Code] = {}


def define(code: str, name: str, severity: Severity, doc: str) -> Code:
    """Register a code; a second registration of the same code is a programming error."""
    if code in _REGISTRY:
        raise ValueError(f"diagnostic code {code} is defined twice")
    entry = Code(code, name, severity, doc)
    _REGISTRY[code] = entry
    return entry


def lookup(code: str) -> Code | None:
    """A code registered so far (``civrules.checks.catalogue()`` first registers every check's)."""
    return _REGISTRY.get(code.upper())


def all_codes() -> list[Code]:
    """Every code registered so far, in code order."""
    return sorted(_REGISTRY.values(), key=lambda c: c.code)


#: What lists every code, the families' included: :func:`civrules.checks.catalogue.catalogue`, which
#: imports every check to register its code. It lies a layer above the readers that ask (a schema
#: hint naming the code a `suppress:` entry meant), so it installs itself here when imported.
_CATALOGUE: list[Callable[[], Mapping[str, Code]]] = []


def provide_catalogue(catalogue: Callable[[], Mapping[str, Code]]) -> None:
    """Install what :func:`every_code` answers from (done once, by ``civrules.checks.catalogue``)."""
    _CATALOGUE[:] = [catalogue]


def every_code() -> Mapping[str, Code]:
    """Every code by code: the catalogue's once it is imported (every command that judges rules
    imports it), else the codes registered so far."""
    return _CATALOGUE[0]() if _CATALOGUE else dict(_REGISTRY)


E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO

YAML_SYNTAX = define(
    "L001",
    "yaml-syntax",
    E,
    """
    What: the file is not valid YAML; the parser stopped at the marked position.
    Why: nothing after the error can be read, so nothing in the file is checked.
    Fix: mend the syntax at the caret (an unclosed bracket, a bad indent, a stray tab).
    """,
)
DUPLICATE_KEY = define(
    "L002",
    "duplicate-key",
    E,
    """
    What: a mapping has the same key twice.
    Why: YAML parsers silently keep one of the two values, so one of your edits is ignored.
    Fix: delete or merge one of the two entries (the note points at the first one).

        cost: 45
        cost: 50     # FAIL: which one counts?
    """,
)
NON_STRING_KEY = define(
    "L003",
    "non-string-key",
    E,
    """
    What: a mapping key is not a string (a number, a boolean, null, a list or a mapping).
    Why: rule files are keyed by field names and ids; `1: x` or `true: y` is always a mistake.
    Fix: quote the key or rename it.
    """,
)
FORBIDDEN_TAG = define(
    "L004",
    "forbidden-tag",
    E,
    """
    What: a node carries a tag outside YAML's core schema, such as `!!python/object` or `!custom`.
    Why: tags can make a loader build arbitrary objects; rule data needs only strings, numbers,
    booleans, null, lists and mappings, so every other tag is refused.
    Fix: remove the tag and write the value as plain data.
    """,
)
ALIAS_BOMB = define(
    "L005",
    "alias-expansion",
    E,
    """
    What: aliases in this file would expand to more nodes than the loader allows (a "billion
    laughs" file).
    Why: an innocent-looking file of a few lines can otherwise take all memory and time.
    Fix: use fewer nested aliases, or raise the bound with `--max-nodes` if the file is legitimate.
    """,
)
TOO_DEEP = define(
    "L006",
    "nesting-too-deep",
    E,
    """
    What: lists and mappings are nested deeper than the loader allows.
    Why: no rule file needs deep nesting; very deep files are an attack on the parser's stack.
    Fix: flatten the structure.
    """,
)
TOO_LARGE = define(
    "L007",
    "file-too-large",
    E,
    """
    What: the file is larger than the loader reads (default 8 MiB).
    Why: rule files are small; a huge file is an accident or an attack.
    Fix: split the file, or raise the bound with `--max-file-size`.
    """,
)
BAD_ENCODING = define(
    "L008",
    "invalid-encoding",
    E,
    """
    What: the file is not UTF-8 text (invalid bytes, a UTF-16 or UTF-32 byte order mark, or
    control characters such as NUL).
    Why: positions and names would be garbled; YAML files are read as UTF-8.
    Fix: save the file as UTF-8 and remove control characters.
    """,
)
EMPTY_FILE = define(
    "L009",
    "empty-file",
    E,
    """
    What: the file holds no YAML document (it is empty or only comments).
    Why: a rule file that a manifest names must say what it is (`kind:`) and hold its data.
    Fix: add the content, or remove the file from the manifest.
    """,
)
MULTIPLE_DOCUMENTS = define(
    "L010",
    "multiple-documents",
    E,
    """
    What: the file holds more than one YAML document (`---` separators).
    Why: civrules reads one document per file; the others would be ignored silently.
    Fix: split the documents into separate files.
    """,
)
BAD_NUMBER = define(
    "L011",
    "number-out-of-range",
    E,
    """
    What: a number is infinite, not a number, or has too many digits to be read.
    Why: no fact in the rules is infinite; such values also cannot be exported as JSON.
    Fix: write the intended finite number.
    """,
)
UNREADABLE = define(
    "L012",
    "unreadable-file",
    E,
    """
    What: a file could not be read (missing, a folder, or permission denied), or a folder under
    `rules/` could not be listed (then none of the files in it is read).
    Why: the ruleset that names it cannot be built without it; a folder left unread would hide the
    errors of every file in it.
    Fix: check the path (relative to `rules/`) and the permissions of the file and of each folder
    above it.
    """,
)
UNDEFINED_ALIAS = define(
    "L013",
    "undefined-alias",
    E,
    """
    What: an alias (`*name`) refers to an anchor (`&name`) that is not defined before it, or to
    the node that contains it.
    Why: the value cannot be known.
    Fix: define the anchor first, or write the value out.
    """,
)
LEADING_ZERO = define(
    "L014",
    "leading-zero",
    W,
    """
    What: a number is written with a leading zero (`cost: 012`). civrules reads YAML 1.2, where
    it is the decimal number 12; YAML 1.1 tools (PyYAML's default loader, many older editors and
    linters) read `012` as the octal number 10, and `09` as a string.
    Why: the same file means different numbers to different tools, and a leading zero is usually
    a typo or a value pasted from a spreadsheet or a card's printed number.
    Fix: write the number without the zero (`cost: 12`), or quote it if it is text (`"012"`).

    Example:

        cost: 012    # FAIL: read as 12 (octal 10 in YAML 1.1)
        cost: 12     # PASS
        code: "012"  # PASS: text
    """,
)
INVISIBLE_CHARACTER = define(
    "L015",
    "invisible-character",
    W,
    """
    What: the text holds an invisible format character (Unicode category Cf): a zero-width space
    (U+200B), a left-to-right or right-to-left mark (U+200E, U+200F), a byte order mark inside the
    file (U+FEFF), a word joiner (U+2060), a soft hyphen (U+00AD), a tag character; written as such
    or as an escape in a quoted string (`"\\u200b"`). Not the zero-width joiner and non-joiner,
    which scripts (Persian, Indic, emoji) write inside words. The bidirectional embeddings,
    overrides and isolates, which reorder the text a reviewer sees, are L008 errors.
    Why: it prints as nothing. Two names that differ by one look the same on a sheet, in a review
    and in an editor, yet civrules, an engine and a search read them as two; a sheet prints a
    name that is not the one the designer sees in the file (CVE-2021-42574, "Trojan Source", is
    the same trick in code; Unicode TR39 lists these characters as not to be used in identifiers).
    Fix: delete the character (the diagnostic's column points at it; an editor that shows
    invisible characters, or `grep -nP '\\p{Cf}'`, finds it). Text copied from a web page or a
    PDF brings them along.

        name: "Lantern"         # PASS
        name: "Lan\\u200btern"   # FAIL: a zero-width space after `Lan`
    """,
)
UNFILLED_BLANK = define(
    "L016",
    "unfilled-blank",
    E,
    """
    What: a value is a blank that a hint or an editor's quick fix wrote for you to fill, left as
    it was: `write why here`, `house rule: write why here`, `write the rule's section here`.
    Why: a hint writes what civrules knows (an id, a field, a list operation) and leaves a blank
    where only the designer knows the answer: why a house rule changes the fact, which section of
    the rulebook says so. Left unfilled it would cite nothing or state nothing, on the sheets and
    in the engine packages. The ruleset is not resolved until every blank is filled, so the
    blank is the one thing reported at its place.
    Fix: write what the blank asks for in its place (the words between `write` and `here`):
    keep `house rule: ` and write after it why the variant makes the change; write the rule
    section the fact comes from (`rule: "30.2"`).

        remove:
          - {id: lantern, why: "house rule: write why here"}      # FAIL: the blank is left
          - {id: lantern, why: "house rule: no light after dark"}    # PASS
    """,
)

SCHEMA_VIOLATION = define(
    "S001",
    "schema-violation",
    E,
    """
    What: a value does not have the shape the file's JSON Schema requires (a wrong type, a number
    out of range, a string not matching its pattern, a list too short, keys that exclude each
    other: a limit written as one number, `per_player`, and by the player count, `by_count`).
    Why: the compiler only reads data whose shape it knows; editors using the same schema show the
    same error.
    Fix: write what the hint says the field takes, worked out from the schema (`write a whole
    number from 1 to 1000, or {unknown: why} where the sources do not give it`);
    `schemas/<kind>.schema.json` documents every field. A variant's patch that gives one form
    where its base gives the other is reported at the patch, and deletes the base's with `null`
    (`limits: {per_player: 10, by_count: null}` on a base that gives `by_count`).

        cost: -50    # FAIL: write a whole number from 1 to 1000, or `{unknown: why}` ...
    """,
)
UNKNOWN_KEY = define(
    "S002",
    "unknown-key",
    E,
    """
    What: a mapping has a key its schema does not define.
    Why: a misspelt key is silently ignored by most tools; here it is an error, with the closest
    known key as a hint.
    Fix: correct the spelling, or remove the key. A key of a variant's overlay that is right but
    written at the wrong level (a collection under `overlay.settings`, a setting directly under
    `overlay`, a setting's field among the settings) is told where it goes instead, and another
    game's collection or setting which game it belongs to.

        - id: lantern
          cots: 45      # FAIL: did you mean `cost`?
    """,
)
BAD_ENUM = define(
    "S003",
    "invalid-value",
    E,
    """
    What: a field has a value outside its fixed set (an enum or a constant), or one another key
    of the same entry rules out (a schema condition: the message names that key and the reason).
    Why: the compiler and generated code know only those values.
    Fix: use one of the listed values; the hint names the closest. Where another key rules the
    value out, write the value the hint gives or change that key.
    """,
)
MISSING_KEY = define(
    "S004",
    "missing-key",
    E,
    """
    What: a required key is missing from a mapping.
    Why: the fact it holds is needed. If the sources do not give it, say so explicitly with
    `{unknown: "why"}` instead of leaving it out.
    Fix: add the key; the hint says what it holds and what to write in it.
    """,
)
BAD_KIND = define(
    "S005",
    "unknown-kind",
    E,
    """
    What: a file's `kind:` is missing or is not one of the file kinds civrules knows, or it is not
    the kind the manifest expects in that slot.
    Why: the kind selects the schema the file is validated with.
    Fix: set `kind:` to one of the kinds of the ruleset's family (the hint lists them: `rule_index`
    and the family's own, `ruleset` among them).
    """,
)

UNKNOWN_RULESET = define(
    "R001",
    "unknown-ruleset",
    E,
    """
    What: a ruleset named on the command line or in `extends:` does not exist under `rules/rulesets/`.
    Why: nothing can be validated or built for it.
    Fix: run `civrules list` to see the ruleset ids, and correct the name.
    """,
)
DUPLICATE_RULESET = define(
    "R002",
    "duplicate-ruleset-id",
    E,
    """
    What: two manifests under `rules/rulesets/` declare the same `id`.
    Why: a ruleset id must name one ruleset.
    Fix: rename one of them.
    """,
)
BAD_PATH = define(
    "R003",
    "path-outside-rules",
    E,
    """
    What: a path in a manifest is absolute, contains `..`, or resolves (through a symbolic link)
    outside the `rules/` directory; or it names a file in another spelling than its plain one
    (`maps/./x.yaml`, `maps//x.yaml`, a trailing `/`).
    Why: rule data from a stranger's pull request must not make civrules read other files on the
    machine. A file has one name: under two spellings it was read twice, every entry of it
    "used twice".
    Fix: give the path relative to `rules/`, e.g. `cards/my-game.yaml`, as the
    message writes it.
    """,
)
NO_RULESETS = define(
    "R004",
    "no-rulesets",
    E,
    """
    What: no ruleset manifest was found (no `rules/rulesets/*.yaml`).
    Why: there is nothing to validate or build.
    Fix: run civrules from the project root, or point `--rules` at the rules directory; to start
    a rule-data repository of your own, run `civrules init` (it writes `rules/` with a first
    ruleset).
    """,
)
UNUSED_FILE = define(
    "R005",
    "unused-file",
    W,
    """
    What: a YAML file under `rules/` is not named by any ruleset manifest.
    Why: edits to it change nothing; usually a manifest forgot to list it, or it is left over.
    Fix: add it to the `files:` of the ruleset that should use it, or delete it.
    """,
)
SUFFIX_CASE = define(
    "R015",
    "yaml-suffix-not-lower-case",
    E,
    """
    What: a file under `rules/` ends in `.yaml` or `.yml` in other letters (`.YAML`, `.Yml`), or a
    manifest names such a file.
    Why: civrules reads rule files by their exact names and finds them by a lower-case suffix; on a
    case-insensitive file system (macOS, Windows) `maps/y.yaml` opens `maps/y.YAML`, on Linux it
    does not, so such a file would be read on one machine and dropped on another. It is neither
    read nor checked.
    Fix: rename the file with a lower-case suffix (`rulesets/v2.YAML` to `rulesets/v2.yaml`), and
    name it so in the manifest.
    """,
)
NAMES_DIFFER_IN_CASE = define(
    "R023",
    "file-names-differ-only-in-case",
    W,
    """
    What: two files under `rules/` have paths that differ only in the case of their letters
    (`cards/Foo.yaml` and `cards/foo.yaml`); the warning is at the one to rename: the one to
    keep is the one the manifests' `files:` name where they name one alone, else the one spelt in
    lower case (`cards/foo.yaml`), else the first in sorted order.
    Why: Linux keeps both, but a case-insensitive file system (macOS, Windows) holds one file of
    that name: a checkout there writes one over the other, so the same repository reads other
    rules (or reports a changed file no one edited) on a designer's machine than in CI.
    Fix: rename the one the warning is at to a name of its own (`git mv cards/Foo.yaml
    cards/foo-extra.yaml`), or merge it into the one to keep and delete it (`git rm`), and name
    it so in the manifests.
    """,
)
SHIPPED_SHADOWED = define(
    "R013",
    "shipped-ruleset-shadowed",
    E,
    """
    What: a manifest under `rules/rulesets/` declares the id of a ruleset shipped with civrules
    (`civrules list` marks those `shipped`), so `extends:` that id would mean two rulesets.
    Why: a variant written to extend the shipped ruleset would extend the local one instead, and
    the local copy silently stops following the shipped one's corrections.
    Fix: extend the shipped ruleset instead of copying it (`extends: my-game`
    reads it from the installed civrules), or give the local ruleset an id of its own. A rules
    folder that holds its own copies on purpose is read alone with `--no-shipped`.
    """,
)
DIFF_ACROSS_FAMILIES = define(
    "R014",
    "diff-across-families",
    E,
    """
    What: `civrules diff OLD NEW` names two rulesets of different game families
    (`my-game`, a game of cards, and `other-game`, a game of dice, say).
    Why: a diff says what one ruleset changes in the other, collection by collection; two games
    share no collection, so it would list every entity of one as removed and every entity of the
    other as added, which says nothing but that they are different games. It exits with status 2.
    Fix: compare rulesets of one family (`civrules list` names each ruleset's family), such as a
    variant and its base.
    """,
)
UNKNOWN_FAMILY = define(
    "R012",
    "unknown-family",
    E,
    """
    What: a manifest's `family:` names no game family civrules knows.
    Why: the family says which file kinds, collections, checks and outputs the ruleset has; without
    it nothing of the ruleset can be read.
    Fix: correct the name (`civrules list --families` shows the installed families; the hint names
    the closest), or install the distribution that provides the family. Omit `family:` for the
    default family (the one `civrules list --families` marks so).

        family: example-dcie   # FAIL: did you mean `example-dice`?
    """,
)
FAMILY_MISMATCH = define(
    "V009",
    "variant-of-another-family",
    E,
    """
    What: a variant names a family (`family:`) other than its base's; or, naming none, its overlay
    changes collections that only another family has (a collection of one game's cards in a variant
    of another game's ruleset).
    Why: a variant changes its base's facts; the facts of one game are not the facts of another, so
    there is nothing the overlay could mean.
    Fix: to change the base, drop `family:` (a variant of any family may leave it out: it is its
    base's) and write the overlay in the base's terms; to make a variant of the other game, point
    `extends:` at one of its rulesets (`civrules list` names each ruleset's family).
    """,
)
FILE_OF_THE_BASE = define(
    "V010",
    "variant-reads-base-file",
    E,
    """
    What: a variant's `files:` names a file its base ruleset already reads (in any spelling).
    A shipped base's file named as the base names it is one too, though the path would name a
    file of the variant's own folder: a copy of the base's file there would be read as a second one.
    Why: a variant has every file of its base; reading one again would define each of its entries
    twice (hundreds of "id is used twice" at the data file, none where the mistake is). The file
    is read once, as the base's.
    Fix: delete the entry; change what differs in the variant's `overlay:`.

        extends: my-game
        files:
          map: [maps/board.yaml]   # FAIL: the base already reads it
    """,
)
STATUS_UNSAID = define(
    "V011",
    "variant-status-unsaid",
    I,
    """
    What: a variant's manifest says no `status:` where its base ruleset says one (`status: draft`,
    or the kind of ruleset the base is, where a family's `status` says that). A variant has its
    base's facts, but its header is its own: its `name`, `description` and `status` are never its
    base's.
    Why: the status says what this ruleset is. A house rule built on a rulebook's own variant is
    not the rulebook's; a variant of a draft is a draft as long as it lacks what its base
    lacks, and an engine's `require_complete()` refuses a ruleset only when its own manifest says
    `status: draft`. Left unsaid, the variant would silently have no status.
    Fix: write the variant's own `status:` beside `extends:`: the base's value where it holds for
    the variant too, or the one that describes it. It is an info, not a warning: a variant may
    rightly have no status (it gives every fact its draft base lacked), and `status` is optional.

        extends: my-draft-game   # the base says `status: draft`
        overlay: ...             # FAIL: this variant says no status of its own
    """,
)
UNKNOWN_BASE = define(
    "V001",
    "unknown-base",
    E,
    """
    What: `extends:` names a ruleset that does not exist (or a shipped one, while `--no-shipped`
    or CIVRULES_NO_SHIPPED keeps the shipped rulesets from being read).
    Why: a variant is its base plus changes; without the base there is nothing to change, and no
    game to judge the changes by: a variant is of its base's family, so its overlay and its files
    are judged once its base is found (only the keys that name it are judged before).
    Fix: correct the id (`civrules list` shows them); the hint names the closest, or says how the
    shipped rulesets were turned off.
    """,
)
EXTENDS_CYCLE = define(
    "V002",
    "extends-cycle",
    E,
    """
    What: following `extends:` from this ruleset comes back to it (a ruleset extends itself, or
    two variants extend each other); or the chain of `extends:` is longer than 64 rulesets.
    Why: the ruleset would be built from itself; there is no first definition of anything. A
    chain of variants of variants that long is not a design but a generated or hostile tree.
    Fix: make one of them a base ruleset (no `extends:`), or point `extends:` at the real base.
    """,
)
BROKEN_BASE = define(
    "V003",
    "broken-base",
    I,
    """
    What: the ruleset this one extends has errors of its own, so this variant was not checked.
    Why: a variant is checked on top of its base; the base's errors (listed with it) are the root
    cause, so this is reported as information, not as one more error.
    Fix: fix the errors listed for the base ruleset, then validate again.
    """,
)
OVERLAY_EXISTS = define(
    "V004",
    "overlay-add-existing",
    E,
    """
    What: an overlay `add`s an entity whose id the base already has.
    Why: `add` is for new entities; silently replacing one would hide a mistake.
    Fix: use `patch` to change some fields, or `replace` to redefine the whole entity.

        overlay:
          sides:
            add:
              - id: north      # FAIL: north exists; use patch or replace
    """,
)
OVERLAY_MISSING = define(
    "V005",
    "overlay-target-missing",
    E,
    """
    What: an overlay `patch`es, `replace`s or `remove`s an entity the base does not have.
    Why: the change does nothing: usually a misspelt id, or the base changed since the variant was
    written.
    Fix: correct the id (the hint names the closest; for a border, the areas each side does border;
    for an entity keyed by two fields, such as a track per side and level, each
    `{side: ..., level: ...}` of that side),
    or `add` the entity; a `remove` of something the base does not have is deleted. An entity the
    variant itself adds is changed in its `add` entry (a patch applies to the base, before `add`);
    one the variant or its base removes is not there to change. Several entries changing one such
    entity are one diagnostic (one cause), at the first, with a note at each other entry; a
    misspelt id is each entry's own mistake.
    """,
)
REMOVED_BUT_REFERENCED = define(
    "V006",
    "removed-but-referenced",
    E,
    """
    What: an overlay removes an entity that something left in the ruleset still refers to.
    Why: the reference would dangle: a credit toward a card that is gone, a border to a removed area.
    Fix: remove or patch each referrer in the variant too (the diagnostic is at the `remove` line,
    with a note at each referrer), or keep the entity. The hint writes the patch of each referrer:
    the list element that holds the reference removed, and a list left with no element deleted
    with `null` where it may not be empty: `patch: [{id: lantern, uses: {patch: [{where:
    {rule: "2.1"}, with: {needs: null}}]}}]`; a reference that is a field of its own is deleted
    (`{id: lantern, lit_by: null}`) where the entity may lack it. A referrer the variant itself adds is
    changed in its `add` entry; one whose key holds the entity (a side's tracks, an area's
    borders) is removed too, as the hint writes it: `remove: [{side: north, level: basic,
    why: ...}]`. Where the variant adds an entity of the same collection that is likely the
    removed one renamed (the only one it adds, or the one whose id is closest), the hint first
    points each reference at it, cited as a fact the variant writes anew: `patch: [{id:
    lantern, uses: {patch: [{where: {item: torch}, with: {item: brand}}]}, source: "house
    rule: ..."}]`. A setting that names the entity (an element of a list of the manifest's) is
    changed by the same list operations in `overlay.settings`, and one that is a field of a
    setting's own is deleted there (`some_setting: {penalty: {exempt_item: null}}`) where the
    setting may lack it. A reference another check reads (`"check": CODE` in the schema: the
    order in which several references combine) is counted with the rest and dropped in the same
    entry.
    Where the retarget reaches every reference, the editor offers it as a quick fix that writes
    the entries in the variant's overlay (none where references another check reports stay).
    Where the added entity has a name, the hint also offers to keep the old id and patch its
    name alone, which a rename for the table often means.
    """,
)
LIST_SELECTOR = define(
    "V007",
    "list-operation-mismatch",
    E,
    """
    What: a list operation of a patch (`remove`, `replace`, `patch`, `insert`) names no element
    of the base's list, or several, or is written in the wrong shape; or list operations are
    written on a value of the base that is not a list (`cost: {remove: [80]}`), or that the base
    does not know (`{unknown: ...}`).
    Why: the change would do nothing, or change elements the designer did not mean.
    Fix: name the element by its value, or by fields it has (`{id: drought}`, `{rule: "30.23.4"}`),
    so that exactly one element matches; the shapes are `remove: [SELECTOR]`,
    `replace`/`patch: [{where: SELECTOR, with: ...}]`, `insert: [{before|after: SELECTOR, items: [...]}]`.
    A value that is not a list is written as it should be (`cost: 90`; a mapping's fields
    `limits: {per_player: 9}`); a list the base does not know is written whole.
    """,
)
OVERLAY_UNCHANGED = define(
    "V013",
    "change-without-effect",
    W,
    """
    What: a variant's `patch` entry sets each field it names to the value the entity already has
    (the base's, or the variant's it extends); or a patch of a setting (under `overlay.settings`,
    or the setting restated in the manifest, which merges into the base's) sets each of its
    fields to the value the setting already has. Citations (`rule`, `source`) and `note` are not
    judged: they cite a change. A patch that changes some field and restates another is not
    told: restating a value beside a change may be meant, to cite a second source for it. A
    `patch` of an entity that writes a citation and no field is told too: its citation cites the
    fields it writes, so the entity keeps its definition's (a setting's patch that only cites
    re-cites the setting, and is not told).
    Why: the patch changes nothing, so the designer's edit is not in the ruleset: usually the
    wrong entity (a card of a similar name), a value copied from the base and not yet changed, or
    a house rule the base has since adopted. `validate`, `diff` and the packages show the
    ruleset as the base has it, and nothing else says so.
    Fix: write the value you mean (in the entry of the entity you mean), or delete the entry.

        overlay:
          items:
            patch:
              - {id: lantern, cost: 10, source: "house rule: ..."}   # FAIL: the base's lantern costs 10
              - {id: lantern, cost: 12, source: "house rule: ..."}   # PASS
          settings:
            hand: {size: 5, source: "house rule: ..."}    # FAIL: the base's hand is of 5 already
    """,
)
UNUSED_SUPPRESSION = define(
    "V008",
    "variant-suppression-unused",
    W,
    """
    What: an entry of a variant's `suppress:` list silences nothing; or its `reason` is blank, and
    it is not honoured (as a comment without a reason is not, R021). An entry whose code
    `--select` or `--ignore` kept from running is not judged; one naming a code that cannot be
    silenced is R010, one naming no code R020.
    Why: the diagnostic it was written for is gone (fixed, or the base changed): the entry now only
    hides future problems of that code.
    Fix: delete the entry, or correct its `code`, `file` or `target`, or give its reason. A
    diagnostic of the variant's own lines is silenced by a `# civrules: ignore[CODE] reason`
    comment on the line it is shown at (the hint names it), and so may one a check found in the
    base and shows at the variant's line; an entry naming the base's place silences that one too.
    """,
)
ID_NOT_FILE_NAME = define(
    "R006",
    "id-not-file-name",
    W,
    """
    What: a ruleset manifest's `id` is not its file name (without `.yaml`).
    Why: designers and tools find a ruleset by its file; when the two differ, `civrules validate
    NAME` and the file a reviewer opens disagree, and a copied manifest silently keeps its
    original's id.
    Fix: rename the file to `<id>.yaml`, or change the id.
    """,
)
UNSUPPRESSIBLE = define(
    "R010",
    "unsuppressible-code",
    E,
    """
    What: a `# civrules: ignore[...]` (or `ignore-file[...]`) comment, or an entry of a variant's
    `suppress:` list, names a code that cannot be silenced: a load (`L`) or schema (`S`) error, or
    an error that makes the ruleset unbuildable (I001 duplicate id, I003 unusable identifier, X001
    unknown reference, V006 reference to a removed entity).
    Why: silenced, such an error let `civrules build` succeed and write a Python package that
    fails to import: exit 0 must mean the output works. The comment or entry is not honoured.
    Fix: fix the error it was meant to hide, then remove the code from the comment (or delete
    the entry).
    """,
)
UNKNOWN_SUPPRESSION = define(
    "R020",
    "suppression-comment-unknown-code",
    W,
    """
    What: a `# civrules: ignore[...]` (or `ignore-file[...]`) comment, or an entry of a variant's
    `suppress:` list, names a code that is no diagnostic code (`K01O` for `K010`, `M3O` for
    `M030`, `A100` for `A010`).
    Why: the comment or entry silences nothing, and the diagnostic it was written for is still
    reported, or will be when it comes back. (An entry's code not shaped as a code, `F0O1`, is a
    schema error, S001, with the code it meant; a bad `--select` is a usage error.)
    Fix: correct the code (the hint names the closest; `civrules explain --list` lists them all).

        cost: 90   # civrules: ignore[K01O] house rule   # FAIL: did you mean `K010`?
    """,
)
UNUSED_SUPPRESSION_COMMENT = define(
    "R021",
    "suppression-comment-unused",
    W,
    """
    What: a code of a `# civrules: ignore[...]` comment silences nothing on its line, or a code of
    an `ignore-file[...]` comment nothing in its file; or the comment gives no reason, and is not
    honoured.
    Why: the diagnostic it was written for is gone (fixed, moved to another line, or the data
    changed): the comment now only hides a future problem of that code, where nobody looks.
    Fix: delete the code from the comment (the whole comment when it was the last), or move the
    comment to the line the diagnostic points at. Codes kept from running by `--select` or
    `--ignore` are not judged.
    """,
)
TRUNCATED = define(
    "R011",
    "diagnostics-truncated",
    I,
    """
    What: a file has more diagnostics than are listed (`--max-diagnostics`, default 100 per
    file); this one line says how many more there are, and that civrules stopped checking the
    file where it stopped at the limit. One such line of no file counts what a whole output does
    not list beyond ten times that bound (thousands of files with a problem each).
    Why: a hostile or broken file can hold hundreds of thousands of problems; listing them all
    took minutes and gigabytes of output, and the first few explain the rest.
    Fix: fix the listed problems and run again, or raise `--max-diagnostics` to see more.
    """,
)
OUTPUT_REFUSED = define(
    "R007",
    "output-refused",
    E,
    """
    What: civrules refused to write where it was asked to, or could not write there: an output
    folder (`--out` of build, schemas, sheets, helpers) that is the rules folder or holds it, is
    a symbolic link or a file, or holds files civrules did not write (no `.civrules-output` in
    it, or one that is no marker civrules wrote: a folder, a link, a FIFO, other text), or the
    output of another command (its `.civrules-output` names the command that wrote
    it: `build --out schemas` would delete the schemas `init` wrote, and `build --check --out
    schemas` compares nothing of build's there), or holds the cache folder; a folder a newer
    civrules wrote (its `.civrules-output` names the version: this civrules' output is older); a
    file `init` or `new-variant` would write over; or a folder the system will not let it write
    (permissions, a full disk).
    Why: an output folder is replaced whole; replacing one civrules did not write, or another
    command's, could delete your work, so nothing was changed. The command exits with status 2.
    Fix: name a new or empty folder with `--out`, or one the same command wrote before; move aside
    what is in the way (`init` and `new-variant` write only new files); run the newer civrules that
    wrote the folder (or move the folder aside); or make the folder writable.
    """,
)
COMMAND_LINE = define(
    "R008",
    "command-line-usage",
    E,
    """
    What: the command line is not one civrules understands: an unknown command or option, a
    missing argument, or a value an option does not take (`--max-nodes 0`, `--select ZZ`,
    `--rules` naming a file, `explain K01O`), or an environment variable it refuses
    (`CIVRULES_NO_SHIPPED=maybe`; a cache folder, `CIVRULES_CACHE_DIR`, the project or another
    user could have written: in the rules folder, the work tree of the repository holding it or,
    with no repository, the project's folder holding it, or writable by others).
    Why: civrules does nothing rather than guess what was meant; it exits with status 2 (cache
    entries are trusted: one a pull request committed could change what civrules reports).
    Fix: correct what the message names (the hint names the closest known value);
    `civrules COMMAND --help` lists what a command takes.
    """,
)
OUTPUT_STALE = define(
    "R009",
    "output-stale",
    E,
    """
    What: with `--check`, a folder civrules writes (`civrules schemas --out DIR --check`) differs
    from what this civrules would write: a file is missing, differs, or is no file civrules writes.
    Why: editors and check-jsonschema read the schemas in that folder; stale ones accept or refuse
    rule files that civrules judges otherwise. The command exits with status 1 and writes nothing.
    Fix: write the folder again (`civrules schemas --out DIR`), and commit the result.
    """,
)
NOT_STAGED = define(
    "R022",
    "not-staged",
    E,
    """
    What: with `--staged` (the pre-commit hooks), a file civrules reads is not what the commit
    holds: a YAML file under the rules folder (or, for `build --check --staged`, a file under the
    output folder) that git does not track (untracked, ignored, or removed with `git rm
    --cached`), that has changes not staged for commit, that is deleted but still staged, or
    that holds a conflict of a merge (a rebase, a cherry-pick) not yet marked resolved, or that
    git is told not to look at (skip-worktree, as a sparse checkout sets, or assume-unchanged)
    while the work tree does not hold its staged copy; or, for `build --check --staged` in a
    commit given paths (`git commit -- PATHS`, which commits HEAD and the paths named), a file
    staged but not named (`validate --staged` reads such a file as the commit holds it: its last
    committed copy, or none).
    Why: civrules reads the files on disk; pre-commit sets aside only the unstaged changes of
    tracked files, so an untracked base made a commit pass that fails in CI and in every fresh
    clone; git lists no file it is told not to look at as changed, so a sparse checkout's missing
    base passed too.
    Fix: `git add` the file (or its changes) to commit it (`git add -f` for a file git ignores),
    or move it out of the folder; for a deleted one, `git rm` it or restore it (`git restore
    FILE`); for a conflict, resolve it, then `git add` the file to mark it resolved; for a flagged
    one, `git update-index --no-skip-worktree FILE` (or `--no-assume-unchanged`), then stage or
    undo what differs; for a file staged but not named, name it in `git commit` too, or commit
    without paths.
    """,
)
INTERRUPTED = define(
    "R016",
    "interrupted",
    E,
    """
    What: civrules was stopped before it finished, by Ctrl-C (SIGINT), SIGTERM (`kill`, `timeout`,
    a cancelled CI job) or SIGHUP (a closed terminal); the message names the signal. It exits with
    status 128 + the signal's number, as shells report it: 130, 143 or 129. A signal that comes
    while a json or sarif document is being printed (a pipe whose reader is slow) takes effect
    once the document is written whole; one that comes once the output is written, as civrules
    ends, is said on standard error (the output stays one valid document), with the same status.
    A second stop signal while the document waits on its reader stops civrules at once: the
    document is then cut short (the status says so), and R016 is on standard error. SIGQUIT
    (`Ctrl-\\`) keeps its default action: like SIGKILL it ends civrules at once, without a word,
    where a stop signal cannot be acted on (in a long call into C); the next build removes the
    staging folder it leaves.
    Why: what it was checking or writing was not finished: an output folder is left as it was, or
    wholly replaced by the new one, never half-written.
    Fix: run the command again.
    """,
)
OUT_OF_MEMORY = define(
    "R017",
    "out-of-memory",
    E,
    """
    What: the machine gave civrules no more memory (or no more threads) before it finished: the
    input was too large for the bounds the process runs under (`ulimit -v`, a container's limit).
    Why: nothing is wrong with the rules that civrules could say, and nothing was written; it exits
    with status 2, not as if the rules had errors.
    Fix: bound what one rule file may hold with `--max-file-size` and `--max-nodes`, so that an
    oversized file is refused with a diagnostic before it fills memory; or raise the limit.
    """,
)
ACCESS_REFUSED = define(
    "R018",
    "access-refused",
    E,
    """
    What: the system would not let civrules read what it needed: a file or folder it could not
    open (permission denied, an I/O error), or a working directory that was deleted or moved
    while civrules ran.
    Why: civrules cannot judge what it cannot read; it exits with status 2, not as if the rules had
    errors. (A rule file it cannot read is L012, an error of the rules.)
    Fix: make the file or folder the message names readable, or run civrules from an existing
    folder.
    """,
)
FAMILY_BROKEN = define(
    "R019",
    "family-broken",
    E,
    """
    What: a game family installed in this Python cannot be used: its module cannot be imported,
    or what it registers is no valid family (an id or code prefix another family or the core
    holds). The message names the family, its entry point and the distribution it comes from.
    Why: civrules reads every installed family before any rule file; a broken one stops every
    command, and the fault is the family's, not civrules' nor your rules'. It exits with status 2.
    Fix: fix the family, or remove its distribution from this Python (`pip uninstall NAME`, or take
    its folder off `PYTHONPATH`); `python -m pip show NAME` says where it is installed.
    """,
)
INTERNAL_ERROR = define(
    "R900",
    "internal-error",
    E,
    """
    What: civrules itself failed (a bug), not your rule data: a check crashed on a ruleset (the
    diagnostic is located at it), or the command did (located at `<command line>`).
    Why: the run cannot be trusted; it exits with status 2.
    Fix: report it with the command and the `--debug` output.
    """,
)
MISSING_DEPENDENCY = define(
    "R910",
    "missing-dependency",
    E,
    """
    What: a command needs a program or library that is not installed for the Python that runs
    civrules: an optional one (WeasyPrint and its system libraries for `civrules sheets --pdf`), or
    one of civrules' own dependencies (click, PyYAML, ...: an interrupted install, another Python).
    Why: the command cannot do its work without it; nothing is wrong with your rules. It exits
    with status 2.
    Fix: run the command the hint names (for WeasyPrint: civrules' `pdf` extra, installed with the
    Python that runs civrules, e.g. `.venv/bin/python -m pip install 'civrules[pdf]'`; for a
    dependency, civrules installed again with its dependencies, or `make` in a clone), or leave the
    option out (`civrules sheets` without `--pdf` writes the HTML sheets, which print from any browser).
    """,
)


def made(
    code: Code,
    message: str,
    span: Span | None,
    hint: str | None = None,
    related: tuple[Related, ...] = (),
    *,
    subjects: Iterable[object],
) -> Diagnostic:
    """A diagnostic of the registered ``code`` (its severity the registry's), about ``subjects``
    (:func:`civrules.diagnostics.named`): what the stages before the checks make (the workspace,
    the resolver); a check makes its own with :func:`civrules.checks.diagnostic`."""
    return Diagnostic(code.code, code.severity, message, span, hint, related, subjects=named(subjects))
