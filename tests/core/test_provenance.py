"""The guard against third-party text in the rule data (compiler/tools/provenance.py).

The tool's own behaviour on a tiny corpus written here (invented words, no third-party text), then
the shipped data against the committed fingerprints: no mirror, no network, no git but in the one
test of reading a mirror.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import os
import shutil
import struct
import subprocess
import zipfile
from pathlib import Path

import pytest

from tests.budget import heavy
from tests.conftest import REPO
from tools import provenance
from tools.provenance import (
    DATA,
    RULES,
    Citation,
    Scalar,
    check,
    coverage,
    file_words,
    find_citations,
    find_copies,
    load_fingerprints,
    main,
    read_scalars,
    words,
)

COMMIT = "0123456789abcdef0123456789abcdef01234567"
CITED = f"someone/notes@{COMMIT}:docs/rules.txt"
#: The cited file of the corpus: invented sentences.
CITED_TEXT = (
    "Each merchant may carry seven bundles of saffron across the northern pass before winter.\n"
    "A harbour that floods loses its lighthouse and two fishing boats."
)
COPYING = "Per the notes, each merchant may carry seven bundles of saffron across the northern pass."
REWORDED = "Per the notes, a merchant carries up to seven saffron bundles over the pass, and only before winter."
#: The sources folder of the corpus (invented too): a rulebook, a community transcription's notes and
#: its table (facts: not fingerprinted).
RULEBOOK_TEXT = (
    "12.3 Caravans. A caravan that reaches the oasis before the third turn gains two water skins. "
    "12.4 Storms. During a sandstorm no caravan may leave the oasis and every tent loses one rope."
)
RULEBOOK_COPY = "a caravan that reaches the oasis before the third turn gains two water skins"
COMMUNITY_TEXT = "The transcriber compared three copies of the camel chart and kept the oldest printing of it.\n"
TABLE_TEXT = "camel,water,rope,tent,oasis,storm,caravan,turn,skin,chart\n1,2,3,4,5,6,7,8,9,10\n"


def write_rules(rules: Path, note: str, *, source: str = CITED, extra: str = "") -> Path:
    rules.mkdir(parents=True, exist_ok=True)
    file = rules / "cards.yaml"
    file.write_text(
        "kind: civilization_cards\n"
        "cards:\n"
        "  - id: saffron_trade\n"
        "    name: Saffron Trade\n"
        f"    source: {json.dumps(source)}\n"
        f"    note: {json.dumps(note)}\n" + extra,
        encoding="utf-8",
    )
    return file


def write_extra(extra: Path, citation: Citation, content: bytes) -> None:
    copy = extra / citation.mirror_name / citation.commit / citation.path
    copy.parent.mkdir(parents=True, exist_ok=True)
    copy.write_bytes(content)


@pytest.fixture
def corpus(tmp_path: Path) -> dict[str, Path]:
    """A rule folder citing one file, the file in an --extra folder, empty mirrors, a data folder, and
    a sources folder holding a rulebook and a community transcription's notes."""
    rules, extra, mirrors, data, sources = (
        tmp_path / name for name in ("rules", "extra", "mirrors", "data", "sources")
    )
    mirrors.mkdir()
    write_rules(rules, COPYING)
    write_extra(extra, find_citations(CITED)[0], CITED_TEXT.encode())
    (sources / "community").mkdir(parents=True)
    (sources / "rulebook.txt").write_text(RULEBOOK_TEXT, encoding="utf-8")
    (sources / "rulebook.lined.txt").write_text(RULEBOOK_TEXT.replace(". ", ".\n"), encoding="utf-8")
    (sources / "README.md").write_text("What each file of this folder holds: written for the project.\n")
    (sources / "community" / "notes.md").write_text(COMMUNITY_TEXT, encoding="utf-8")
    (sources / "community" / "table.csv").write_text(TABLE_TEXT, encoding="utf-8")
    return {"rules": rules, "extra": extra, "mirrors": mirrors, "data": data, "sources": sources}


def refresh(paths: dict[str, Path]) -> int:
    return main(
        ["refresh", "--rules", str(paths["rules"]), "--data", str(paths["data"]), "--mirrors", str(paths["mirrors"]),
         "--extra", str(paths["extra"]), "--sources", str(paths["sources"])]
    )  # fmt: skip


def run_check(paths: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    capsys.readouterr()
    status = main(
        ["check", "--rules", str(paths["rules"]), "--data", str(paths["data"]), "--sources", str(paths["sources"])]
    )
    return status, capsys.readouterr().out


# --- citations and words ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "written",
    [
        f"{CITED}; other/repo@{'f' * 40}:b.json",
        f"{CITED}, where the card list is",
        f"(see {CITED})",
        f"{CITED} §12 (Trade, the second list)",
        f"{CITED} agrees",
        f"as {CITED}.",
        f'"{CITED}"',
        CITED,
    ],
    ids=["semicolon", "comma", "parenthesis", "section", "space", "full-stop", "quote", "alone"],
)
def test_a_citation_ends_where_the_data_writes_a_delimiter(written: str) -> None:
    assert find_citations(written)[0] == Citation("someone/notes", COMMIT, "docs/rules.txt")


def test_a_short_commit_or_a_missing_path_is_no_file_citation() -> None:
    assert find_citations(f"someone/notes@{COMMIT[:7]}:docs/rules.txt, someone/notes@{COMMIT}") == []


def test_words_are_lower_cased_unicode_word_runs() -> None:
    assert words("Ação: 8,000 years — Jäger's A.S.T.") == ["ação", "8", "000", "years", "jäger", "s", "a", "s", "t"]


def test_json_strings_are_decoded_and_keys_left_out() -> None:
    raw = b'{"caption": "caf\\u00e9 \\"au\\" lait\\nnoir", "count": 3, "list": ["deux\\u2019trois"]}'
    assert file_words("data/x.json", raw) == [["café", "au", "lait", "noir"], ["deux", "trois"]]


def test_escapes_of_a_program_s_string_literals_are_spaces() -> None:
    raw = b'String t = "the river floods.\\n" + "Two cities go";'
    assert file_words("src/T.java", raw) == [["string", "t", "the", "river", "floods", "two", "cities", "go"]]


def test_xml_keeps_text_and_attribute_values_and_decodes_entities() -> None:
    raw = b'<a><name kind="Red &amp; Blue">Salt &amp; Pepper</name></a>'
    assert file_words("x.xml", raw) == [["red", "blue", "salt", "pepper"]]


def test_xlsx_strings_come_from_the_shared_strings_and_the_sheets() -> None:
    book = io.BytesIO()
    with zipfile.ZipFile(book, "w") as archive:
        archive.writestr(
            "xl/sharedStrings.xml",
            '<sst><si><t>Plain cell</t></si><si><r><t xml:space="preserve">Rich </t></r><r><t>text &amp; more</t></r>'
            "</si></sst>",
        )
        archive.writestr("xl/worksheets/sheet1.xml", '<worksheet><c t="inlineStr"><is><t>Inline one</t></is></c>'
                         "<c><v>42</v></c></worksheet>")  # fmt: skip
    assert file_words("book.xlsx", book.getvalue()) == [["plain", "cell"], ["rich", "text", "more"], ["inline", "one"]]


# --- refresh and check on the corpus ---------------------------------------------------------------


def test_a_copied_run_is_reported_with_its_place_and_citation(
    corpus: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert refresh(corpus) == 0
    status, out = run_check(corpus, capsys)
    assert status == 1
    file = corpus["rules"] / "cards.yaml"
    assert f"{file.as_posix()}:6:27: cards[0].note: 12 words match {CITED}\n" in out
    assert '"each merchant may carry seven bundles of saffron across the northern pass"' in out
    assert "hint: say the fact in the project's own words" in out


def test_a_run_in_a_block_scalar_is_located_at_its_first_word(
    corpus: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert refresh(corpus) == 0
    block = (
        "    text: |-\n      Our own opening line.\n      Then each merchant may carry\n"
        "      seven bundles of saffron across the pass.\n"
    )
    write_rules(corpus["rules"], REWORDED, extra=f"  - id: other\n{block}")
    status, out = run_check(corpus, capsys)
    assert status == 1
    assert f"cards.yaml:10:12: cards[1].text: 10 words match {CITED}\n" in out


def test_fingerprints_a_machine_cannot_read_are_kept_from_the_index(
    corpus: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert refresh(corpus) == 0
    first = (corpus["data"] / "fingerprints.bin").read_bytes()
    shutil.rmtree(corpus["extra"])
    corpus["extra"].mkdir()
    assert refresh(corpus) == 0
    assert (corpus["data"] / "fingerprints.bin").read_bytes() == first
    assert f"kept from the previous index: {CITED} (no mirror of someone/notes and no --extra copy here)" in (
        capsys.readouterr().err
    )


def test_the_same_fact_reworded_passes(corpus: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert refresh(corpus) == 0
    write_rules(corpus["rules"], REWORDED)
    assert run_check(corpus, capsys) == (0, "")


def test_seven_words_in_a_row_are_no_match(corpus: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert refresh(corpus) == 0
    write_rules(corpus["rules"], "Here each merchant may carry seven bundles of pepper, not saffron.")
    assert run_check(corpus, capsys) == (0, "")


def test_citations_ids_and_names_are_not_checked(corpus: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert refresh(corpus) == 0
    copied = "each merchant may carry seven bundles of saffron across"
    write_rules(
        corpus["rules"],
        f"From {CITED} only.",
        source=f"{CITED} §2 ({copied})",
        extra=f"  - id: other\n    name: {copied}\n",
    )
    assert run_check(corpus, capsys) == (0, "")


def test_a_rule_index_s_section_titles_are_the_rulebook_s_own_and_not_checked(
    corpus: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """A rule index quotes a primary rulebook's headings or first words to find its sections; a
    transcription that repeats the rulebook does not make them its text. Any other field of the
    index is checked."""
    assert refresh(corpus) == 0
    copied = "each merchant may carry seven bundles of saffron across"
    write_rules(corpus["rules"], REWORDED)
    index = corpus["rules"] / "rulebook.yaml"
    index.write_text(f"kind: rule_index\nsections:\n  - number: '1.1'\n    title: {copied}\n", encoding="utf-8")
    assert run_check(corpus, capsys) == (0, "")
    index.write_text(f"kind: rule_index\nsections:\n  - number: '1.1'\n    note: {copied}\n", encoding="utf-8")
    status, out = run_check(corpus, capsys)
    assert status == 1 and "rulebook.yaml:4:11: sections[0].note: 9 words match" in out


# --- the project's sources: the rulebooks and the community transcriptions' prose --------------------


def test_a_rulebook_s_sentence_copied_into_a_rule_s_text_is_reported(
    corpus: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """A rule's text states the rule in the project's words: a rulebook's sentence, as printed, is a
    copy, found without any citation naming the rulebook (the data cites it by rule section)."""
    assert refresh(corpus) == 0
    write_rules(corpus["rules"], REWORDED, extra=f"  - id: caravans\n    text: {RULEBOOK_COPY.capitalize()}.\n")
    status, out = run_check(corpus, capsys)
    assert status == 1
    assert "cards.yaml:8:11: cards[1].text: 14 words match ../shared/sources/rulebook.txt\n" in out
    write_rules(
        corpus["rules"],
        REWORDED,
        extra="  - id: caravans\n    text: Reaching the oasis by turn 2 earns 2 water skins.\n",
    )
    assert run_check(corpus, capsys) == (0, "")


@pytest.mark.parametrize(
    ("note", "copied"),
    [
        (f"12.3 reads '{RULEBOOK_COPY}', which names no camel.", False),
        (f'12.3 reads "{RULEBOOK_COPY}", which names no camel.', False),
        (f"12.3 reads “{RULEBOOK_COPY}”, which names no camel.", False),
        (f"12.3 reads: {RULEBOOK_COPY}; it names no camel.", True),
        # an apostrophe is no quotation mark: the words between two are not quoted
        (f"The rulebook's 12.3: {RULEBOOK_COPY}, the caravan's due.", True),
        # a quotation ends where its mark closes: the words after it are the note's own
        (f"'12.3 says' {RULEBOOK_COPY}.", True),
    ],
    ids=["single", "double", "typographic", "unquoted", "apostrophes", "after-the-quote"],
)
def test_a_note_may_quote_a_rulebook_marked_as_a_quote(
    corpus: dict[str, Path], capsys: pytest.CaptureFixture[str], note: str, copied: bool
) -> None:
    """A note about the rulebook's wording may quote it, marked as a quotation; unmarked, the same
    words are a copy. A rule's text may not quote it at all (the sheets print it as the rule)."""
    assert refresh(corpus) == 0
    write_rules(corpus["rules"], note)
    status, out = run_check(corpus, capsys)
    assert (status == 1 and "cards[0].note: 14 words match ../shared/sources/rulebook.txt" in out) is copied
    assert status == int(copied)
    write_rules(corpus["rules"], REWORDED, extra=f"  - id: caravans\n    text: {json.dumps(note)}\n")
    assert run_check(corpus, capsys)[0] == 1


def test_a_community_transcription_s_prose_is_never_quoted(
    corpus: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """The community files are third-party transcriptions: their facts are taken, never their text,
    quoted or not; their tables (facts) are not fingerprinted."""
    assert refresh(corpus) == 0
    write_rules(corpus["rules"], "The notes say 'compared three copies of the camel chart and kept the oldest'.")
    status, out = run_check(corpus, capsys)
    assert status == 1 and "11 words match ../shared/sources/community/notes.md" in out
    write_rules(corpus["rules"], "Listed as camel, water, rope, tent, oasis, storm, caravan, turn, skin and chart.")
    assert run_check(corpus, capsys) == (0, "")


def test_citations_of_a_rule_and_the_sections_of_any_part_of_a_rule_index_are_not_checked(
    corpus: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """``rule:`` (one citation or a list) and a rule index's ``section`` cite, a section's title
    quotes the rulebook to find it, in the index's parts (an online help) as at its top."""
    assert refresh(corpus) == 0
    slug = RULEBOOK_COPY.replace(" ", "-")
    write_rules(corpus["rules"], REWORDED, extra=f"  - id: caravans\n    rule: ['p12/{slug}', '12.3']\n")
    index = corpus["rules"] / "rulebook.yaml"
    index.write_text(
        f"kind: rule_index\nonline_help:\n  sections:\n    - section: p12/{slug}\n      title: {RULEBOOK_COPY}\n",
        encoding="utf-8",
    )
    assert run_check(corpus, capsys) == (0, "")


def test_a_source_text_changed_or_gone_since_the_refresh_fails_with_the_refresh_hint(
    corpus: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert refresh(corpus) == 0
    write_rules(corpus["rules"], REWORDED)
    (corpus["sources"] / "rulebook.txt").write_text(RULEBOOK_TEXT + " 12.5 Wells.", encoding="utf-8")
    (corpus["sources"] / "community" / "notes.md").unlink()
    status, out = run_check(corpus, capsys)
    assert status == 1
    assert "../shared/sources/rulebook.txt: its fingerprints in " in out
    assert "index.json: ../shared/sources/community/notes.md is no longer in the sources folder" in out
    assert "hint: run `make provenance" in out
    assert refresh(corpus) == 0
    assert run_check(corpus, capsys) == (0, "")


def test_without_the_sources_folder_the_committed_fingerprints_still_judge(
    corpus: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """A checkout without ``../shared`` checks against the index as committed; a refresh there keeps
    the source texts' fingerprints it cannot read again."""
    assert refresh(corpus) == 0
    first = (corpus["data"] / "fingerprints.bin").read_bytes()
    shutil.rmtree(corpus["sources"])
    write_rules(corpus["rules"], REWORDED, extra=f"  - id: caravans\n    text: {RULEBOOK_COPY}\n")
    status, out = run_check(corpus, capsys)
    assert status == 1 and "words match ../shared/sources/rulebook.txt" in out
    assert refresh(corpus) == 0
    assert (corpus["data"] / "fingerprints.bin").read_bytes() == first
    assert "kept from the previous index: ../shared/sources/rulebook.txt" in capsys.readouterr().err


# --- citations of the project's own sources (round 28) ---------------------------------------------


def test_a_community_file_or_source_text_the_sources_folder_lacks_fails_the_check(
    corpus: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """A citation of the project's own sources leads a reader to a file of the folder: a misspelt
    community file, or a source text that is not there, is reported at the string citing it."""
    assert refresh(corpus) == 0
    good = "community/table.csv (camel column); rulebook.lined.txt, line 2"
    write_rules(corpus["rules"], REWORDED, extra=f"    rule_note: {json.dumps(good)}\n")
    assert run_check(corpus, capsys) == (0, "")
    bad = "community/tabel.csv (camel column); rulebok.lined.txt, line 2"
    write_rules(corpus["rules"], REWORDED, extra=f"    rule_note: {json.dumps(bad)}\n")
    status, out = run_check(corpus, capsys)
    assert status == 1
    assert "cards[0].rule_note: cites community/tabel.csv, which the sources folder does not hold" in out
    assert "cards.yaml:7:16: cards[0].rule_note" in out
    assert "cards[0].rule_note: cites rulebok.lined.txt, which the sources folder does not hold" in out
    assert "hint: cite a file the sources folder holds" in out


def test_lines_beyond_the_end_of_the_source_text_fail_the_check(
    corpus: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """``….lined.txt, line N`` and ``(lines A-B)`` name lines the text has."""
    assert refresh(corpus) == 0
    lines = len((corpus["sources"] / "rulebook.lined.txt").read_text(encoding="utf-8").split("\n"))
    write_rules(corpus["rules"], REWORDED, extra=f"    rule_note: 'rulebook.lined.txt (lines 1-{lines})'\n")
    assert run_check(corpus, capsys) == (0, "")
    for cited, said in ((f"rulebook.lined.txt, line {lines + 1}", f"line {lines + 1}"),
                        (f"rulebook.lined.txt (lines 2-{lines + 5}", f"lines 2-{lines + 5}"),
                        ("rulebook.lined.txt, line 0", "line 0")):  # fmt: skip
        write_rules(corpus["rules"], REWORDED, extra=f"    rule_note: {json.dumps(cited)}\n")
        status, out = run_check(corpus, capsys)
        assert status == 1 and f"cites {said} of rulebook.lined.txt, which has {lines} lines" in out


def test_a_rule_index_whose_text_is_missing_or_whose_sections_are_elsewhere_fails_the_check(
    corpus: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """Each `rule:` is held to its ruleset's rule index (Q001); the check holds the index to the text:
    its ``source_file`` is in the sources folder, and each printed section is on the line it gives."""
    assert refresh(corpus) == 0
    write_rules(corpus["rules"], REWORDED)
    index = corpus["rules"] / "rulebook.yaml"

    def write_index(source_file: str, line: int) -> None:
        index.write_text(
            "kind: rule_index\n"
            f"rulebook: {{id: r, title: R, source_file: {source_file}, numbering: decimal_digits,\n"
            "  part: {first_line: 1, last_line: 2}}\n"
            f"sections:\n  - {{section: '12.3', title: Caravans, line: {line}, status: printed}}\n",
            encoding="utf-8",
        )

    write_index("shared/sources/rulebook.lined.txt", 1)
    assert run_check(corpus, capsys) == (0, "")
    write_index("shared/sources/rulebook.lined.txt", 2)
    status, out = run_check(corpus, capsys)
    assert status == 1
    assert "rulebook.yaml: sections: 12.3: the number is not printed on line 2, and no note says what is" in out
    write_index("shared/sources/rulebok.lined.txt", 1)
    status, out = run_check(corpus, capsys)
    assert status == 1 and "shared/sources/rulebok.lined.txt, which the sources folder does not hold" in out


def test_the_fingerprints_hold_no_word_of_the_cited_text(corpus: dict[str, Path]) -> None:
    assert refresh(corpus) == 0
    blob = (corpus["data"] / "fingerprints.bin").read_bytes()
    index = (corpus["data"] / "index.json").read_text(encoding="utf-8")
    cited_words = set(words(CITED_TEXT + RULEBOOK_TEXT + COMMUNITY_TEXT))
    assert not any(word.encode() in blob or f'"{word}"' in index for word in cited_words if len(word) > 3)
    sizes = [len(words(text)) - 7 for text in (CITED_TEXT, COMMUNITY_TEXT, RULEBOOK_TEXT)]
    hashes = struct.unpack(f">{len(blob) // 8}Q", blob)
    assert len(hashes) == sum(sizes)
    for i in range(3):  # each file's fingerprints sorted, in the index's order
        one = hashes[sum(sizes[:i]) : sum(sizes[: i + 1])]
        assert list(one) == sorted(set(one))
    sha = {
        name: hashlib.sha256((corpus["sources"] / name).read_bytes()).hexdigest()
        for name in ("rulebook.txt", "community/notes.md")
    }
    # The cited file, then the source texts: the rulebook and the community notes, not the rulebook's
    # lined copy (the same words), the folder's README (the project's) or a table (facts).
    assert json.loads(index)["files"] == [
        {"repo": "someone/notes", "commit": COMMIT, "path": "docs/rules.txt", "ngrams": sizes[0]},
        {"source": "community/notes.md", "sha256": sha["community/notes.md"], "ngrams": sizes[1]},
        {"source": "rulebook.txt", "sha256": sha["rulebook.txt"], "ngrams": sizes[2]},
    ]


def test_refresh_is_deterministic(corpus: dict[str, Path]) -> None:
    assert refresh(corpus) == 0
    first = {name: (corpus["data"] / name).read_bytes() for name in ("fingerprints.bin", "index.json")}
    assert refresh(corpus) == 0
    assert first == {name: (corpus["data"] / name).read_bytes() for name in first}


def test_a_file_that_cannot_be_read_is_listed_unavailable_and_fails_the_check(
    corpus: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """A citation no refresh could read was never seen to lead a reader anywhere: before round 26
    the check passed it with a note on standard error."""
    shutil.rmtree(corpus["extra"])
    corpus["extra"].mkdir()
    assert refresh(corpus) == 0  # no index before: nothing to keep
    files = json.loads((corpus["data"] / "index.json").read_text(encoding="utf-8"))["files"]
    [entry] = [one for one in files if "repo" in one]
    assert entry["unavailable"] == "no mirror of someone/notes and no --extra copy"
    status, out = run_check(corpus, capsys)
    assert status == 1
    assert (
        f"cards.yaml:5:13: cards[0].source: cites {CITED}, which the refresh could not read: "
        "no mirror of someone/notes and no --extra copy\n"
    ) in out
    assert out.endswith(provenance.UNREAD_HINT + "\n")


def _mirrored_notes(corpus: dict[str, Path]) -> str:
    """A mirror of `someone/notes` whose one commit holds `docs/rules.txt` (CITED_TEXT): its commit id."""
    work = corpus["mirrors"] / "someone+notes" / "repo"
    (work / "docs").mkdir(parents=True)
    (work / "docs" / "rules.txt").write_text(CITED_TEXT, encoding="utf-8")
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}  # fmt: skip
    for command in (["init", "-q"], ["add", "docs"], ["commit", "-q", "-m", "notes"]):
        subprocess.run(["git", *command], cwd=work, env=env, check=True)
    done = subprocess.run(["git", "rev-parse", "HEAD"], cwd=work, env=env, check=True, capture_output=True, text=True)
    return done.stdout.strip()


@pytest.mark.skipif(shutil.which("git") is None, reason="no git on this machine")
def test_refresh_reads_the_cited_commit_from_a_mirror(
    corpus: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    commit = _mirrored_notes(corpus)
    cited = f"someone/notes@{commit}:docs/rules.txt"
    write_rules(corpus["rules"], COPYING, source=cited)
    shutil.rmtree(corpus["extra"])
    corpus["extra"].mkdir()
    assert refresh(corpus) == 0
    status, out = run_check(corpus, capsys)
    assert status == 1
    assert f"12 words match {cited}" in out


@pytest.mark.skipif(shutil.which("git") is None, reason="no git on this machine")
def test_a_citation_of_a_path_or_commit_the_repository_lacks_fails_the_check(
    corpus: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """The class of broken citations round 26 looked for: a mistyped path, or a commit the
    repository does not have. The refresh lists each unavailable, and the check fails on each."""
    commit = _mirrored_notes(corpus)
    wrong_path = f"someone/notes@{commit}:docs/rule.txt"
    wrong_commit = f"someone/notes@{'e' * 40}:docs/rules.txt"
    write_rules(corpus["rules"], REWORDED, source=f"{wrong_path}; {wrong_commit}")
    shutil.rmtree(corpus["extra"])
    corpus["extra"].mkdir()
    assert refresh(corpus) == 0
    status, out = run_check(corpus, capsys)
    assert status == 1
    where = f"{corpus['rules'] / 'cards.yaml'}:5:13: cards[0].source"
    *problems, hint = out.splitlines()  # the problems in the index's order, by citation
    assert sorted(problems) == sorted([
        f"{where}: cites {wrong_commit}, which the refresh could not read: "
        "the mirror's history lacks that commit and no --extra copy",
        f"{where}: cites {wrong_path}, which the refresh could not read: "
        "no such path at that commit and no --extra copy",
    ])  # fmt: skip
    assert hint == provenance.UNREAD_HINT


def test_usage_errors_exit_2(corpus: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["refresh"])
    assert exited.value.code == 2
    assert "--mirrors" in capsys.readouterr().err
    missing = corpus["mirrors"] / "absent"
    assert main(["refresh", "--rules", str(corpus["rules"]), "--data", str(corpus["data"]), "--mirrors",
                 str(missing)]) == 2  # fmt: skip
    assert "no such folder" in capsys.readouterr().err
    assert main(["check", "--rules", str(corpus["rules"]), "--data", str(corpus["data"])]) == 2
    assert "run `make provenance`" in capsys.readouterr().err


def test_a_fingerprint_file_changed_by_hand_is_refused(corpus: dict[str, Path]) -> None:
    assert refresh(corpus) == 0
    blob = corpus["data"] / "fingerprints.bin"
    blob.write_bytes(bytes(8) + blob.read_bytes()[8:])
    with pytest.raises(provenance.UsageError, match=r"is not the file index\.json was written with"):
        load_fingerprints(corpus["data"])


@pytest.mark.parametrize(
    "forged",
    [b"[" * 200_000 + b"]" * 200_000, b"[]", b'{"fingerprints": "fingerprints.bin", "files": [5]}', b'{"files": 5}'],
    ids=["deep", "a list", "a file that is a number", "files a number"],
)
def test_an_index_changed_by_hand_is_refused_with_the_refresh_hint(corpus: dict[str, Path], forged: bytes) -> None:
    """The index is the tool's own file, read back: whatever it holds, a usage error that says
    what to run (a deeply nested one was a RecursionError, a list an AttributeError)."""
    assert refresh(corpus) == 0
    (corpus["data"] / "index.json").write_bytes(forged)
    with pytest.raises(provenance.UsageError, match=r"run `make provenance`"):
        load_fingerprints(corpus["data"])


def test_a_new_citation_or_a_stale_entry_fails_with_the_refresh_hint(
    corpus: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert refresh(corpus) == 0
    newer = f"someone/notes@{'9' * 40}:docs/rules.txt"
    write_rules(corpus["rules"], REWORDED, source=newer)
    status, out = run_check(corpus, capsys)
    assert status == 1
    assert f"cards.yaml:5:13: cards[0].source: cites {newer}, which " in out
    assert f"{CITED} is cited nowhere in the rule data (a stale entry)" in out
    assert provenance.REFRESH_HINT in out


# --- the shipped rule data --------------------------------------------------------------------------


@functools.cache
def shipped() -> tuple[tuple[Scalar, ...], provenance.Fingerprints]:
    """The shipped strings and fingerprints, read once for the module's tests (0.6 s each read)."""
    return tuple(read_scalars(RULES)), load_fingerprints(DATA)


@heavy
def test_the_shipped_rule_data_repeats_no_wording_of_a_cited_file() -> None:
    scalars, fingerprints = shipped()
    findings = [f'{finding}: "{finding.run}"' for finding in find_copies(scalars, fingerprints)]
    assert not findings, "\n".join(["the rule data copies cited text:", *findings, provenance.REWORD_HINT])


def test_the_index_covers_every_citation_of_the_rule_data_and_no_other() -> None:
    scalars, fingerprints = shipped()
    problems = coverage(scalars, fingerprints, DATA)
    assert not problems, "\n".join([*problems, provenance.REFRESH_HINT])


@pytest.mark.skipif(not provenance.SOURCES.is_dir(), reason="no ../shared/sources beside this checkout")
def test_the_index_holds_the_project_s_source_texts_as_they_are() -> None:
    """Each rulebook and community note of ../shared/sources is fingerprinted as it is now: a source
    text changed or added since the refresh would go unguarded."""
    scalars, fingerprints = shipped()
    held = {str(entry.citation) for entry in fingerprints.entries if isinstance(entry.citation, provenance.SourceText)}
    assert held >= {
        "../shared/sources/advanced-civilization-and-expansion-project-rules.txt",
        "../shared/sources/sid-meiers-civilization-board-game-rules-pt.txt",
        "../shared/sources/imperial-settlers-rules-pt.txt",
    }
    problems = coverage(scalars, fingerprints, DATA, provenance.SOURCES)
    assert not problems, "\n".join([*problems, provenance.REFRESH_HINT])


def test_every_shipped_citation_is_fingerprinted() -> None:
    _, fingerprints = shipped()
    assert [str(entry.citation) for entry in fingerprints.entries if entry.unavailable] == []


def test_the_committed_index_names_no_path_of_a_machine() -> None:
    text = (DATA / "index.json").read_text(encoding="utf-8")
    here = {str(REPO), str(REPO.parent), str(Path.home())} - {"/"}
    assert not [place for place in here if place in text]
    for entry in json.loads(text)["files"]:
        path = entry.get("path", entry.get("source"))
        assert not path.startswith("/") and ".." not in path.split("/")
    assert (REPO / "provenance") == DATA


@heavy
def test_check_reads_the_shipped_tree_like_the_tests() -> None:
    """The command and the two tests above agree: its status is theirs."""
    scalars, fingerprints = shipped()
    expected = 1 if find_copies(scalars, fingerprints) or coverage(scalars, fingerprints, DATA) else 0
    assert check(RULES, DATA, out=io.StringIO()) == expected
