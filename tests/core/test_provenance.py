"""The guard against third-party text in the rule data (compiler/tools/provenance.py).

The tool's own behaviour on a tiny corpus written here (invented words, no third-party text), then
the shipped data against the committed fingerprints: no mirror, no network, no git but in the one
test of reading a mirror.
"""

from __future__ import annotations

import functools
import io
import json
import os
import shutil
import struct
import subprocess
import zipfile
from pathlib import Path

import pytest

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
    """A rule folder citing one file, the file in an --extra folder, empty mirrors, a data folder."""
    rules, extra, mirrors, data = (tmp_path / name for name in ("rules", "extra", "mirrors", "data"))
    mirrors.mkdir()
    write_rules(rules, COPYING)
    write_extra(extra, find_citations(CITED)[0], CITED_TEXT.encode())
    return {"rules": rules, "extra": extra, "mirrors": mirrors, "data": data}


def refresh(paths: dict[str, Path]) -> int:
    return main(
        ["refresh", "--rules", str(paths["rules"]), "--data", str(paths["data"]), "--mirrors", str(paths["mirrors"]),
         "--extra", str(paths["extra"])]
    )  # fmt: skip


def run_check(paths: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    capsys.readouterr()
    status = main(["check", "--rules", str(paths["rules"]), "--data", str(paths["data"])])
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


def test_the_fingerprints_hold_no_word_of_the_cited_text(corpus: dict[str, Path]) -> None:
    assert refresh(corpus) == 0
    blob = (corpus["data"] / "fingerprints.bin").read_bytes()
    index = (corpus["data"] / "index.json").read_text(encoding="utf-8")
    cited_words = set(words(CITED_TEXT))
    assert not any(word.encode() in blob or f'"{word}"' in index for word in cited_words if len(word) > 3)
    stream = words(CITED_TEXT)
    hashes = struct.unpack(f">{len(blob) // 8}Q", blob)
    assert list(hashes) == sorted(set(hashes)) and len(hashes) == len(stream) - 7
    assert json.loads(index)["files"] == [
        {"repo": "someone/notes", "commit": COMMIT, "path": "docs/rules.txt", "ngrams": len(hashes)}
    ]


def test_refresh_is_deterministic(corpus: dict[str, Path]) -> None:
    assert refresh(corpus) == 0
    first = {name: (corpus["data"] / name).read_bytes() for name in ("fingerprints.bin", "index.json")}
    assert refresh(corpus) == 0
    assert first == {name: (corpus["data"] / name).read_bytes() for name in first}


def test_a_file_that_cannot_be_read_is_listed_unavailable(
    corpus: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.rmtree(corpus["extra"])
    corpus["extra"].mkdir()
    assert refresh(corpus) == 0  # no index before: nothing to keep
    [entry] = json.loads((corpus["data"] / "index.json").read_text(encoding="utf-8"))["files"]
    assert entry["unavailable"] == "no mirror of someone/notes and no --extra copy"
    capsys.readouterr()
    assert main(["check", "--rules", str(corpus["rules"]), "--data", str(corpus["data"])]) == 0
    assert f"note: {CITED} is not fingerprinted: no mirror of someone/notes" in capsys.readouterr().err


@pytest.mark.skipif(shutil.which("git") is None, reason="no git on this machine")
def test_refresh_reads_the_cited_commit_from_a_mirror(
    corpus: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    work = corpus["mirrors"] / "someone+notes" / "repo"
    (work / "docs").mkdir(parents=True)
    (work / "docs" / "rules.txt").write_text(CITED_TEXT, encoding="utf-8")
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}  # fmt: skip
    for command in (["init", "-q"], ["add", "docs"], ["commit", "-q", "-m", "notes"]):
        subprocess.run(["git", *command], cwd=work, env=env, check=True)
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=work, env=env, check=True, capture_output=True, text=True)
    cited = f"someone/notes@{commit.stdout.strip()}:docs/rules.txt"
    write_rules(corpus["rules"], COPYING, source=cited)
    shutil.rmtree(corpus["extra"])
    corpus["extra"].mkdir()
    assert refresh(corpus) == 0
    status, out = run_check(corpus, capsys)
    assert status == 1
    assert f"12 words match {cited}" in out


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


def test_the_shipped_rule_data_repeats_no_wording_of_a_cited_file() -> None:
    scalars, fingerprints = shipped()
    findings = [f'{finding}: "{finding.run}"' for finding in find_copies(scalars, fingerprints)]
    assert not findings, "\n".join(["the rule data copies cited text:", *findings, provenance.REWORD_HINT])


def test_the_index_covers_every_citation_of_the_rule_data_and_no_other() -> None:
    scalars, fingerprints = shipped()
    problems = coverage(scalars, fingerprints, DATA)
    assert not problems, "\n".join([*problems, provenance.REFRESH_HINT])


def test_every_shipped_citation_is_fingerprinted() -> None:
    _, fingerprints = shipped()
    assert [str(entry.citation) for entry in fingerprints.entries if entry.unavailable] == []


def test_the_committed_index_names_no_path_of_a_machine() -> None:
    text = (DATA / "index.json").read_text(encoding="utf-8")
    here = {str(REPO), str(REPO.parent), str(Path.home())} - {"/"}
    assert not [place for place in here if place in text]
    for entry in json.loads(text)["files"]:
        assert not entry["path"].startswith("/") and ".." not in entry["path"].split("/")
    assert (REPO / "provenance") == DATA


def test_check_reads_the_shipped_tree_like_the_tests() -> None:
    """The command and the two tests above agree: its status is theirs."""
    scalars, fingerprints = shipped()
    expected = 1 if find_copies(scalars, fingerprints) or coverage(scalars, fingerprints, DATA) else 0
    assert check(RULES, DATA, out=io.StringIO()) == expected
