"""`civrules build --check`: what it compares a generated tree with, how much of it it reads, and how
much it prints."""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from civrules.cli import main
from civrules.emit import output, stamp
from civrules.support import files
from tests.budget import heavy
from tests.conftest import copy_rulesets


def _build(rules: Path, out: Path, *extra: str, bound: tuple[str, ...] = ()) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["--rules", str(rules), *bound, "build", "--out", str(out), *extra])
    return result.exit_code, result.stdout, result.stderr


@heavy
def test_generated_files_larger_than_a_rule_file_may_be_are_checked_and_carried_over(tmp_path: Path) -> None:
    """--max-file-size bounds rule files, not output: at 100 times Advanced Civilization a build wrote
    two data.py of 24 MB, which the check straight after called stale ("more than the 8,388,608
    civrules reads"), and which a build of one other ruleset would have dropped as "not carried over"."""
    rules = copy_rulesets(tmp_path / "rules", "imperial-settlers", "sid-meiers-civilization")
    out = tmp_path / "generated"
    largest = max(path.stat().st_size for path in rules.rglob("*") if path.is_file())
    bound = ("--max-file-size", str(largest))
    code, stdout, stderr = _build(rules, out, bound=bound)
    assert code == 0, stdout + stderr
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert max(len(content) for content in before.values()) > largest  # what the test is about
    code, stdout, stderr = _build(rules, out, "--check", bound=bound)
    assert (code, stdout) == (0, ""), stdout + stderr
    code, stdout, stderr = _build(rules, out, "sid-meiers-civilization", bound=bound)  # the others carried over
    assert code == 0 and "not carried over" not in stderr, stdout + stderr
    assert {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_a_missing_tree_is_one_error_at_the_folder_with_the_hint_to_build(tmp_path: Path) -> None:
    """With no earlier output, --check diffed every file against /dev/null and held every diff (at
    100 times Advanced Civilization, 82 MB printed and 937 MB of memory); then it said each file
    missing as an R009 of its own, each with the same hint: 233 errors for `--out` a folder not
    yet built (42 in a repository `civrules init` made). The folder is told once, with what it holds."""
    rules = copy_rulesets(tmp_path / "rules", "sid-meiers-civilization")
    out = tmp_path / "generated"
    code, stdout, stderr = _build(rules, out, "--check")
    assert code == 1, stdout + stderr
    again = shlex.join(["civrules", "--rules", str(rules), "build", "--out", str(out)])
    (said, error, hint) = stdout.splitlines()
    assert said.startswith("missing: generated/ (a folder: ") and said.endswith(" lines)"), said
    count = int(said.split("(a folder: ")[1].split(" files")[0])
    assert count > 10
    assert error == f"{out}:1:1: error[R009]: `{out}` is missing, and the {count} files in it"
    assert hint == f"  hint: write it: `{again}`, and commit the result"
    # The command to paste is this one without --check: its --rules and --out (round 19).
    assert f"is stale ({count} files differ); run `{again}`" in stderr
    assert not out.exists()


def test_a_missing_package_folder_is_told_once_and_what_is_there_file_by_file(tmp_path: Path) -> None:
    """A whole folder of the tree missing (a package's) is one entry at the folder; a folder that is
    there, if only with a `__pycache__` in it, has its files said one by one, and a link on the way
    is said by itself, never a folder "missing" behind it."""
    root = tmp_path / "generated"
    planned = {
        "a.txt": b"a\n",
        "python/pkg/m.py": b"M = 1\n",
        "python/pkg/sub/n.py": b"N = 1\nO = 2\n",
        "python/kept/k.py": b"K = 1\n",
        "python/linked/l.py": b"L = 1\n",
        "sheets/s.html": b"<p>\n",
    }
    _tree(root, {"a.txt": b"a\n", "python/kept/__pycache__/k.pyc": b"\0", "elsewhere/l.py": b"L = 1\n"})
    (root / "python" / "linked").symlink_to(root / "elsewhere", target_is_directory=True)
    stale = list(output.stale_files(root, planned))
    link = "a symbolic link (civrules writes none; it is not followed)"
    assert [(one.relative, one.what(), one.files) for one in stale] == [
        ("python/linked", f"is not a file civrules writes ({link})", 0),
        ("elsewhere/l.py", "is no file this build writes", 0),
        ("python/kept/k.py", "is missing", 0),
        ("python/linked/l.py", "is missing", 0),  # behind the link: not read, so not known to be gone
        ("python/pkg", "is missing, and the 2 files in it", 2),
        ("sheets", "is missing, and the file in it", 1),
    ]
    assert list(stale[4].lines()) == ["missing: generated/python/pkg/ (a folder: 2 files, 3 lines)"]
    assert list(stale[5].lines()) == ["missing: generated/sheets/ (a folder: 1 file, 1 line)"]
    report = output.StaleReport(iter(stale))
    assert len(list(report)) == 6 and report.files == 7  # the summary still counts the files
    assert [found[2] == "missing" for found in report.found] == [False, False, True, True, True, True]
    # Scoped to one ruleset (`build --check RULESET`), what is outside is neither compared nor told.
    assert [one.relative for one in output.stale_files(root, planned, scope=["sheets/"])] == ["sheets"]
    missing = list(output.stale_files(tmp_path / "none", planned))
    assert [(one.relative, one.files) for one in missing] == [("", 6)]


@pytest.mark.parametrize(
    ("old", "new", "place"),
    [
        (b"a\nbc\nd\n", b"a\nbX\nd\n", (2, 2)),  # a character changed
        (b"a\nb\n", b"a\nb\nc\n", (2, 2)),  # only added to: the end of the last line the file holds
        (b"a\nb\nc\n", b"a\nb\n", (3, 1)),  # a line the build does not write
        (b"", b"a\n", (1, 1)),
        ("x = 'é'\n".encode(), "x = 'è'\n".encode(), (1, 6)),  # in characters, at a character's start
        (b"a\r\nb\r\n", b"a\r\nc\r\n", (2, 1)),
    ],
)
def test_a_stale_file_is_placed_at_its_first_difference(old: bytes, new: bytes, place: tuple[int, int]) -> None:
    """R009 was at 1:1 of a stale file, wherever it differed: its first difference, in the file compared."""
    assert output.first_difference(old, new) == place


def test_a_stale_file_placed_from_disk_or_as_the_commit_holds_it(tmp_path: Path) -> None:
    """The place is read from the copy compared: the file on disk, or the commit's copy, never the other."""
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "a.py").write_bytes(b"one\ntwo\n")
    planned = {"a.py": b"one\nthree\n"}
    (on_disk,) = output.stale_files(tmp_path / "out", planned)
    (committed,) = output.stale_files(tmp_path / "out", planned, committed={"a.py": b"onX\nthree\n"})
    assert (on_disk.read().place(), committed.read().place()) == ((2, 2), (1, 3))
    report = output.StaleReport(output.stale_files(tmp_path / "out", planned))
    list(report)
    assert report.found == [("a.py", "differs from what this build writes", "differs", (2, 2))]


def test_one_stale_file_is_an_r009_at_it_with_a_hint(tmp_path: Path) -> None:
    """`build --check` said stale files in plain lines, without a code CI could select or annotate,
    and "(1 file differ)"."""
    rules = copy_rulesets(tmp_path / "rules", "imperial-settlers-peaceful")
    out = tmp_path / "generated"
    code, stdout, stderr = _build(rules, out)
    assert code == 0, stdout + stderr
    code, stdout, stderr = _build(rules, out, "--check")
    assert (code, [line for line in stdout.splitlines() if "R009" in line]) == (0, []), stdout + stderr
    edited = next(path for path in sorted(out.rglob("*.py")) if path.is_file())
    lines = edited.read_text(encoding="utf-8").split("\n")
    edited.write_text("\n".join([*lines[:2], "# edited", *lines[2:]]), encoding="utf-8")
    code, stdout, stderr = _build(rules, out, "--check")
    assert code == 1, stdout + stderr
    (error,) = [line for line in stdout.splitlines() if "error[R009]" in line]
    # At the line that differs (it was 1:1, the file's start, whatever was edited), quoted.
    assert error == f"{edited}:3:1: error[R009]: `{edited}` differs from what this build writes"
    assert "# edited" in stdout.split(error, 1)[1].split("hint:", 1)[0]
    again = shlex.join(["civrules", "--rules", str(rules), "build", "--out", str(out)])
    assert f"  hint: write it again: `{again}`, and commit the result" in stdout
    assert f"civrules: `{out}` is stale (1 file differs); run `{again}`" in stderr.splitlines()


def _tree(root: Path, tree: dict[str, bytes]) -> None:
    for relative, content in tree.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_bytes(content)


def test_check_makes_each_diff_as_it_is_shown_and_stops_at_a_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each stale file is diffed only when its lines are printed, and no more than ``most`` lines are:
    past the bound, a file of another size is not read at all, and one line counts what was left."""
    root = tmp_path / "generated"
    planned = {f"python/f{i:02}.py": b"".join(b"X = %d\n" % n for n in range(10)) for i in range(30)}
    _tree(root, {path: content.replace(b"X = 5", b"X = 55") for path, content in planned.items()})
    _tree(root, {"python/extra.py": b"E = 1\n"})
    read: list[str] = []
    reader = files.read_under

    def reading(root: Path, relative: str, most: int) -> bytes:
        read.append(relative)
        return reader(root, relative, most)

    monkeypatch.setattr(files, "read_under", reading)
    report = output.StaleReport(output.stale_files(root, {**planned, "python/new.py": b"N = 1\nM = 2"}), most=25)
    lines = list(report)
    assert report.files == 32 and len(lines) == 26
    assert lines[:2] == ["not written by this build: generated/python/extra.py", "--- a/generated/python/f00.py"]
    assert "-X = 55" in lines and "+X = 5" in lines
    assert lines[-1] == (
        "... cut after 25 lines: 9 more lines of generated/python/f02.py and 28 more files that differ not shown; "
        "run `civrules build` to write them"
    )
    assert read == ["python/f00.py", "python/f01.py", "python/f02.py"]  # the other 27 differ by size: not read


def test_a_file_of_the_same_size_is_read_no_further_than_what_would_be_written(tmp_path: Path) -> None:
    root = tmp_path / "generated"
    _tree(root, {"a.txt": b"same\n", "b.txt": b"diff\n", "c.txt": b"x" * 100})
    stale = output.stale_files(root, {"a.txt": b"same\n", "b.txt": b"DIFF\n", "c.txt": b"x"})
    end = ["\\ No newline at end of file"]
    assert [(one.relative, list(one.lines())) for one in stale] == [
        ("b.txt", ["--- a/generated/b.txt", "+++ b/generated/b.txt", "@@ -1 +1 @@", "-diff", "+DIFF"]),
        ("c.txt", ["--- a/generated/c.txt", "+++ b/generated/c.txt", "@@ -1 +1 @@", "-" + "x" * 100, *end, "+x", *end]),
    ]


def test_an_empty_folder_link_or_fifo_is_stale_by_its_path(tmp_path: Path) -> None:
    """A build writes files, never an empty folder: one left in the tree (a deleted package's) is
    what a build would remove, reported as a link or a FIFO is; a folder holding only a
    `__pycache__` (an import of the package) is not."""
    import os

    root = tmp_path / "generated"
    _tree(root, {"a.txt": b"a\n", "python/pkg/__pycache__/m.pyc": b"\0"})
    (root / "python" / "gone" / "deeper").mkdir(parents=True)
    (root / "link").symlink_to(root / "a.txt")
    os.mkfifo(root / "fifo")
    stale = list(output.stale_files(root, {"a.txt": b"a\n"}))
    assert [(one.relative, one.what()) for one in stale] == [
        ("fifo", "is not a file civrules writes (not a regular file (civrules writes none; it is not read))"),
        ("link", "is not a file civrules writes (a symbolic link (civrules writes none; it is not followed))"),
        ("python/gone/deeper", "is not a file civrules writes (an empty folder (civrules writes none))"),
    ]
    assert [one.reason for one in stale] == [
        "not a regular file (civrules writes none; it is not read)",
        "a symbolic link (civrules writes none; it is not followed)",
        "an empty folder (civrules writes none)",
    ]
    assert list(output.stale_files(root, {"a.txt": b"a\n"}, scope=["sheets/"])) == []


@pytest.mark.parametrize("folder", ["missing: out", "not written by this build: out"])
def test_what_is_stale_is_told_by_what_was_found_not_by_the_output_folders_name(tmp_path: Path, folder: str) -> None:
    """Whether an entry was missing, not written or no regular file was read from the words its
    line begins with, which begin with the output folder's name: in a folder named `missing: out`
    a link "is missing", a changed file was missing or not, and a link's reason was none."""
    root = tmp_path / folder
    _tree(root, {"a.txt": b"a\n", "extra.txt": b"x\n"})
    (root / "link").symlink_to(root / "a.txt")
    stale = list(output.stale_files(root, {"a.txt": b"A\n", "new.txt": b"n\n"}))
    assert [(one.relative, one.what(), one.reason) for one in stale] == [
        (
            "link",
            "is not a file civrules writes (a symbolic link (civrules writes none; it is not followed))",
            "a symbolic link (civrules writes none; it is not followed)",
        ),
        ("a.txt", "differs from what this build writes", None),
        ("extra.txt", "is no file this build writes", None),
        ("new.txt", "is missing", None),
    ]


@heavy
def test_a_stale_hint_never_pastes_a_build_that_refuses_the_folder(tmp_path: Path) -> None:
    """`build --check --out X` of a folder civrules did not write (no marker), or of a link, said
    "write it again: `civrules build --out X`", which R007 then refused: the hint says what to do
    first, and the command then runs."""
    rules = copy_rulesets(tmp_path / "rules", "imperial-settlers-peaceful")
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("mine\n", encoding="utf-8")
    code, stdout, stderr = _build(rules, out, "--check")
    assert code == 1, stdout + stderr
    again = shlex.join(["civrules", "--rules", str(rules), "build", "--out", str(out)])
    first = f"move `{out}` aside (or delete it) yourself, as `build` replaces only a folder it wrote"
    hints = {line for line in stdout.splitlines() if line.startswith("  hint: ")}
    # "write it" for what is missing (a whole package folder, told once), "again" for the rest.
    written = {f"  hint: {first}; then write it{more}: `{again}`, and commit the result" for more in ("", " again")}
    assert hints == written, hints
    assert f"civrules: `{out}` is stale (" in stderr and f"); {first}; then run `{again}`" in stderr, stderr
    assert _build(rules, out)[0] == 2  # the build refuses the folder, as the hint says
    shutil.rmtree(out)
    assert _build(rules, out)[0] == 0  # and takes it once moved aside
    link = tmp_path / "link"
    link.symlink_to(out, target_is_directory=True)
    code, stdout, stderr = _build(rules, link, "--check")
    assert code == 1, stdout + stderr
    again = shlex.join(["civrules", "--rules", str(rules), "build", "--out", str(link)])
    (hint,) = [line for line in stdout.splitlines() if line.startswith("  hint: ")]
    first = f"remove the link `{link}` (civrules does not follow links)"
    assert hint == f"  hint: {first}; then write it again: `{again}`, and commit the result"


@heavy
def test_a_change_made_in_the_output_is_said_when_a_build_replaces_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, own_cache: Path
) -> None:
    """A file of generated/ edited by hand (or added there) was replaced by the next build without
    a word. The build still replaces it (refusing would refuse forever), and says so, even with -q;
    a change the build carries over unchanged (another ruleset's files) is not lost, nor said."""
    rules = copy_rulesets(tmp_path / "rules", "imperial-settlers", "sid-meiers-civilization")
    out = tmp_path / "generated"
    code, stdout, stderr = _build(rules, out)
    assert code == 0 and "changed since" not in stderr, stdout + stderr
    sid = out / "python" / "civrules_rulesets" / "sid_meiers_civilization" / "data.py"
    settlers = out / "python" / "civrules_rulesets" / "imperial_settlers" / "data.py"
    for edited in (sid, settlers):
        edited.write_bytes(edited.read_bytes() + b"# mine\n")
    (out / "notes.txt").write_text("mine\n", encoding="utf-8")

    code, stdout, stderr = _build(rules, out, "sid-meiers-civilization", bound=())
    assert code == 0, stdout + stderr
    said = [line for line in stderr.splitlines() if "civrules wrote it" in line or "not written by" in line]
    assert said == [f"civrules: `{sid}` was changed since civrules wrote it; this build wrote it anew"]
    assert "  hint: what you change in the output is not kept" in stderr
    assert settlers.read_bytes().endswith(b"# mine\n") and (out / "notes.txt").exists()  # carried over

    result = CliRunner().invoke(main, ["-q", "--rules", str(rules), "build", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert [line for line in result.stderr.splitlines() if not line.startswith("  hint:")] == [
        f"civrules: `{out / 'notes.txt'}` was not written by civrules; this build's tree does not hold it",
        f"civrules: `{settlers}` was changed since civrules wrote it; this build wrote it anew",
    ]
    code, stdout, stderr = _build(rules, out)
    assert code == 0 and "civrules wrote it" not in stderr and "up to date" in stderr, stdout + stderr


@pytest.mark.slow  # whole builds (or validations) of a ruleset: seconds under load; a fast case guards it
@pytest.mark.parametrize("cache", ["cleared", "off"])
def test_a_build_with_no_record_of_what_civrules_wrote_says_it_cannot_tell_a_change_by_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, own_cache: Path, cache: str
) -> None:
    """A change made by hand in generated/ is told from the cache's record of what civrules wrote
    there. With no record (the cache off, cleared, or another one), a build replaced the edited
    file without a word. It now says how many files it replaced that it cannot vouch for, and why;
    a build that replaced nothing says nothing."""
    folder = own_cache  # outside the project: a cache in it is refused (R008)
    monkeypatch.setenv("CIVRULES_CACHE_DIR", str(folder) if cache == "cleared" else "")
    rules = copy_rulesets(tmp_path / "rules", "imperial-settlers-peaceful")
    out = tmp_path / "generated"
    code, stdout, stderr = _build(rules, out)
    assert code == 0, stdout + stderr

    def a_new_run() -> None:  # what this process wrote is known to it: the next run is another
        shutil.rmtree(folder, ignore_errors=True)
        monkeypatch.setattr(stamp, "_WRITTEN_HERE", {}, raising=False)

    a_new_run()
    code, stdout, stderr = _build(rules, out)  # the same tree written again: nothing replaced
    assert code == 0 and "cannot be told" not in stderr, stdout + stderr
    a_new_run()
    edited = out / "python" / "civrules_rulesets" / "imperial_settlers_peaceful" / "data.py"
    edited.write_bytes(edited.read_bytes() + b"# mine\n")
    result = CliRunner().invoke(main, ["-q", "--rules", str(rules), "build", "--out", str(out)])
    assert result.exit_code == 0, result.output
    said = result.stderr.splitlines()
    why = {
        "cleared": f"the cache (`{folder}`) holds no record of what civrules last wrote there",
        "off": "the cache, where civrules records what it writes, is off (`CIVRULES_CACHE_DIR` is empty)",
    }[cache]
    assert said[0].startswith(
        f"civrules: this build replaced or removed 1 file of `{out}`; whether any had been changed by hand"
        f" cannot be told: {why}"
    ), result.stderr
    assert said[1].startswith("  hint: what you change in the output is not kept") and len(said) == 2
    assert not edited.read_bytes().endswith(b"# mine\n")


@pytest.mark.slow  # whole builds (or validations) of a ruleset: seconds under load; a fast case guards it
def test_a_rule_file_saved_while_a_build_runs_is_built_by_the_next(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, own_cache: Path
) -> None:
    """The build stamp hashed the rules once the tree was written: a file saved while the build ran
    (after it was read) was vouched for, and the next build said "up to date" over a tree built from
    the text before the save. The stamp now holds what the rules were before the build read them."""
    from civrules.emit import build as builder

    rules = copy_rulesets(tmp_path / "rules", "imperial-settlers-peaceful")
    out = tmp_path / "generated"
    manifest = rules / "rulesets" / "imperial-settlers-peaceful.yaml"
    text = manifest.read_text(encoding="utf-8")
    built = builder.build_rulesets

    def saved_meanwhile(*args: Any, **kwargs: Any) -> Any:
        done = built(*args, **kwargs)
        manifest.write_text(text.replace("peaceful variant", "peaceful variant, saved"), encoding="utf-8")
        return done

    with monkeypatch.context() as saving:
        saving.setattr(builder, "build_rulesets", saved_meanwhile)
        code, stdout, stderr = _build(rules, out)
    assert code == 0, stdout + stderr
    code, stdout, stderr = _build(rules, out)
    assert code == 0 and "up to date" not in stderr, stdout + stderr
    code, stdout, stderr = _build(rules, out, "--check")
    assert code == 0, stdout + stderr


@pytest.mark.slow  # whole builds of a ruleset: seconds under load
def test_a_change_made_in_the_output_while_a_build_runs_is_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, own_cache: Path
) -> None:
    """The build looked for changes made by hand in the output before it rendered: a file edited
    while the build ran (seconds, on a loaded machine) was replaced without a word. It looks just
    before the new tree is swapped in."""
    from civrules.emit import build as builder

    rules = copy_rulesets(tmp_path / "rules", "imperial-settlers-peaceful")
    out = tmp_path / "generated"
    code, stdout, stderr = _build(rules, out)
    assert code == 0, stdout + stderr
    data = out / "python" / "civrules_rulesets" / "imperial_settlers_peaceful" / "data.py"
    rendered = builder.render

    def edited_meanwhile(*args: Any, **kwargs: Any) -> Any:
        done = rendered(*args, **kwargs)
        data.write_bytes(data.read_bytes() + b"# mine\n")
        return done

    monkeypatch.setattr(builder, "render", edited_meanwhile)
    manifest = rules / "rulesets" / "imperial-settlers-peaceful.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("peaceful variant", "peaceful"), encoding="utf-8")
    code, stdout, stderr = _build(rules, out)
    assert code == 0, stdout + stderr
    assert f"civrules: `{data}` was changed since civrules wrote it; this build wrote it anew" in stderr, stderr


@pytest.mark.slow  # whole builds of a ruleset: seconds under load
def test_a_change_made_in_place_in_a_file_the_build_kept_is_said_to_be_in_the_new_tree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, own_cache: Path
) -> None:
    """A file of the old tree the build keeps (linked into the new one: it holds what it renders)
    and then changed in place before the swap is changed in the new tree too: the build said it
    "wrote it anew". It says the new tree holds the change, and the next build writes it anew."""
    from civrules.emit import build as builder

    rules = copy_rulesets(tmp_path / "rules", "imperial-settlers-peaceful")
    out = tmp_path / "generated"
    code, stdout, stderr = _build(rules, out)
    assert code == 0, stdout + stderr
    data = out / "python" / "civrules_rulesets" / "imperial_settlers_peaceful" / "data.py"
    rendered = builder.render

    def edited_in_place_meanwhile(*args: Any, **kwargs: Any) -> Any:
        done = rendered(*args, **kwargs)
        with data.open("ab") as handle:  # the same file, not a new one put in its place
            handle.write(b"# mine\n")
        return done

    manifest = rules / "rulesets" / "imperial-settlers-peaceful.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + "# a comment: the same output\n", encoding="utf-8")
    with monkeypatch.context() as hooked:
        hooked.setattr(builder, "render", edited_in_place_meanwhile)
        code, stdout, stderr = _build(rules, out)
    assert code == 0, stdout + stderr
    assert data.read_bytes().endswith(b"# mine\n")  # kept: the change is in the new tree
    assert f"civrules: `{data}` was changed while this build ran" in stderr and "wrote it anew" not in stderr, stderr
    code, stdout, stderr = _build(rules, out)
    assert code == 0 and f"`{data}` was changed since civrules wrote it; this build wrote it anew" in stderr, stderr
    assert not data.read_bytes().endswith(b"# mine\n")


@pytest.mark.slow  # whole builds of a ruleset: seconds under load; test_injection's write_tree cases guard it
def test_a_change_made_in_the_output_just_after_the_swap_is_not_taken_for_the_builds_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, own_cache: Path
) -> None:
    """The build read its new tree again once swapped in, to record what it wrote (and to stamp it):
    a file edited in those milliseconds was recorded as civrules' own, and the next build said "up to
    date" over it. What is recorded is what the build wrote: the next build tells the change."""
    rules = copy_rulesets(tmp_path / "rules", "imperial-settlers-peaceful")
    out = tmp_path / "generated"
    data = out / "python" / "civrules_rulesets" / "imperial_settlers_peaceful" / "data.py"
    swapped = output._swap

    def edited_once_swapped(staging: Path, root: Path) -> None:
        swapped(staging, root)
        data.write_bytes(data.read_bytes() + b"# mine\n")

    with monkeypatch.context() as swapping:
        swapping.setattr(output, "_swap", edited_once_swapped)
        code, stdout, stderr = _build(rules, out)
    assert code == 0, stdout + stderr
    code, stdout, stderr = _build(rules, out)
    assert code == 0 and "up to date" not in stderr, stdout + stderr
    assert f"civrules: `{data}` was changed since civrules wrote it; this build wrote it anew" in stderr, stderr
    assert not data.read_bytes().endswith(b"# mine\n")


@heavy
def test_a_tree_another_civrules_wrote_is_told_with_both_versions_and_what_to_run(tmp_path: Path) -> None:
    """Round 34's CI trial: nothing in `generated/` said which civrules wrote it, so a rule-data
    repository that upgraded civrules and did not build again was told nothing of the upgrade, and a
    CI pinning an older civrules than the designer's was told to build again, which writes older
    output over the newer. The marker names the version; `build --check` says both versions, at the
    marker's line, and which way to go. A tree written by one version is byte-identical each time."""
    from civrules import __version__

    rules = copy_rulesets(tmp_path / "rules", "imperial-settlers-peaceful")
    out = tmp_path / "generated"
    marker = out / output.MARKER
    code, stdout, stderr = _build(rules, out)
    assert code == 0, stdout + stderr
    written = marker.read_bytes()
    assert written.endswith(f"\ncivrules: {__version__} (the version that wrote it)\n".encode())
    assert output.marked_version(out) == (__version__, 4)
    again = shlex.join(["civrules", "--rules", str(rules), "build", "--out", str(out)])
    mine = f"civrules: {__version__} "
    for version in ("0.0.1", "99.0.0", None):
        older = written.replace(mine.encode(), f"civrules: {version} ".encode()) if version else output.MARKER_HEAD
        marker.write_bytes(older if version else older + b"kind: build (the command that writes it)\n")
        code, stdout, stderr = _build(rules, out, "--check")
        assert code == 1, stdout + stderr
        (error,) = [line for line in stdout.splitlines() if "error[R009]" in line]
        (hint,) = [line for line in stdout.splitlines() if line.startswith("  hint: ")]
        said = f"was written by civrules {version}, not by this civrules {__version__}"
        if version is None:
            said = f"names no civrules version in its `{output.MARKER}`: a civrules before round 34 wrote it"
        assert error.startswith(f"{marker}:{1 if version is None else 4}:1: error[R009]: `{out}` {said}"), error
        if version == "99.0.0":  # CI's civrules is the older one: upgrade it, never write older output
            assert hint == (
                f"  hint: `{out}` was written by civrules 99.0.0, newer than this civrules {__version__}: run "
                "civrules 99.0.0 here (in CI, pin it in the workflow's install step) rather than writing older "
                "output over it"
            ), hint
            assert again not in stderr and "run civrules 99.0.0" in stderr, stderr
        elif version == "0.0.1":  # the repository upgraded civrules and did not build again
            assert hint == (
                f"  hint: write it again: `{again}`, and commit the result; `{out}` was written by civrules "
                f"0.0.1: pin civrules {__version__} where CI installs it"
            ), hint
            assert f"; run `{again}`" in stderr, stderr
        else:
            assert hint == f"  hint: write it again: `{again}`, and commit the result", hint
    code, stdout, stderr = _build(rules, out)
    assert code == 0 and marker.read_bytes() == written, stdout + stderr
    assert _build(rules, out, "--check")[:2] == (0, "")


@heavy
def test_a_newer_civrules_tree_is_not_written_over_by_an_older_civrules(tmp_path: Path) -> None:
    """Round 34: `build --check` told a tree a newer civrules wrote, but a plain `civrules build` by
    the older civrules wrote its older output over it, silently. Every command writing a marked
    tree (build, schemas, sheets, helpers, watch --build) refuses it: exit 2, R007 at the marker's
    version line, both versions and the way to write over it all the same. An older civrules' tree
    is written over, as before."""
    from civrules import __version__

    rules = copy_rulesets(tmp_path / "rules", "imperial-settlers-peaceful")
    out = tmp_path / "generated"
    marker = out / output.MARKER
    assert _build(rules, out)[0] == 0
    written = marker.read_bytes()
    newer = written.replace(f"civrules: {__version__} ".encode(), b"civrules: 99.0.0 ")
    marker.write_bytes(newer)
    before = {path: path.read_bytes() for path in out.rglob("*") if path.is_file()}
    code, stdout, stderr = _build(rules, out)
    assert code == 2, stdout + stderr
    (error,) = [line for line in (stdout + stderr).splitlines() if "error[R007]" in line]
    assert error.startswith(f"{marker}:4:1: error[R007]: refusing to write over `{out}`: civrules 99.0.0 wrote it, ")
    assert f"newer than this civrules {__version__}" in error, error
    (hint,) = [line for line in (stdout + stderr).splitlines() if line.startswith("  hint: ")]
    assert hint == (
        "  hint: run civrules 99.0.0 here (in CI, pin it in the workflow's install step); to put civrules "
        f"{__version__}'s output there all the same, move `{out}` aside (or delete it) first"
    ), hint
    assert {path: path.read_bytes() for path in out.rglob("*") if path.is_file()} == before  # nothing written
    asked = ["--rules", str(rules), "sheets", "imperial-settlers-peaceful", "--out", str(out)]
    sheets = CliRunner().invoke(main, asked)
    assert sheets.exit_code == 2 and "error[R007]" in sheets.output, sheets.output
    assert "99.0.0" not in sheets.output, sheets.output  # another command's tree: refused as that, first
    schemas = tmp_path / "schemas"
    assert CliRunner().invoke(main, ["schemas", "--out", str(schemas)]).exit_code == 0
    (schemas / output.MARKER).write_bytes(
        (schemas / output.MARKER).read_bytes().replace(f"civrules: {__version__} ".encode(), b"civrules: 99.0.0 ")
    )
    result = CliRunner().invoke(main, ["schemas", "--out", str(schemas)])
    assert result.exit_code == 2 and "error[R007]" in result.output, result.output
    marker.write_bytes(written.replace(f"civrules: {__version__} ".encode(), b"civrules: 0.0.1 "))
    code, stdout, stderr = _build(rules, out)  # an older civrules' tree: written over
    assert code == 0 and marker.read_bytes() == written, stdout + stderr


@heavy
def test_a_tree_checked_out_with_crlf_line_endings_is_told_so_with_the_gitattributes_line(tmp_path: Path) -> None:
    """Round 34's CI trial: a clone with git's `core.autocrlf` (the default of Git for Windows and of
    GitHub's Windows runners) writes every generated file with CRLF, and `build --check` called each
    one stale with a diff of every line and the hint to build again, which writes LF that the next
    such checkout turns into CRLF again. Each is said as differing only in its line endings, with
    the `.gitattributes` line that makes git check them out as written."""
    rules = copy_rulesets(tmp_path / "rules", "imperial-settlers-peaceful")
    out = tmp_path / "generated"
    code, stdout, stderr = _build(rules, out)
    assert code == 0, stdout + stderr
    converted = sorted(path for path in out.rglob("*") if path.is_file() and b"\n" in path.read_bytes())
    for path in converted:
        path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    edited = next(path for path in converted if path.suffix == ".py")
    edited.write_bytes(edited.read_bytes() + b"# edited\r\n")  # this one differs in its words too
    code, stdout, stderr = _build(rules, out, "--check")
    assert code == 1, stdout + stderr
    errors = [line for line in stdout.splitlines() if "error[R009]" in line]
    assert len(errors) == len(converted), stdout
    crlf = [line for line in errors if line.endswith("differs only in its line endings: CRLF where civrules writes LF")]
    assert len(crlf) == len(converted) - 1 and not any(f"{edited}:" in line for line in crlf), errors
    again = shlex.join(["civrules", "--rules", str(rules), "build", "--out", str(out)])
    hint = (
        f"  hint: add the line `generated/** -text` to `{tmp_path}/.gitattributes` and commit it, so that git "
        "checks these files out as civrules writes them (`core.autocrlf`, the default of Git for Windows and of "
        f"GitHub's Windows runners, writes LF as CRLF); then `{again}` writes them as they are committed"
    )
    hints = [line for line in stdout.splitlines() if line.startswith("  hint: ")]
    assert (
        hints.count(hint) == len(converted) - 1 and f"  hint: write it again: `{again}`, and commit the result" in hints
    )
    # One line each, not a diff of every line: the one file with other changes is the one diffed.
    notes = [
        line
        for line in stdout.splitlines()
        if line.endswith(": CRLF line endings where civrules writes LF (a checkout converted them)")
    ]
    assert len(notes) == len(converted) - 1 and [line for line in stdout.splitlines() if line.startswith("--- a/")] == [
        f"--- a/generated/{edited.relative_to(out).as_posix()}"
    ]


def test_schemas_checked_out_with_crlf_line_endings_are_told_so_as_build_check_tells_them(tmp_path: Path) -> None:
    """`schemas --check` compares as `build --check` does: a schema a CRLF checkout wrote is said to
    differ only in its line endings, with the `.gitattributes` line, not to be written again."""
    out = tmp_path / "schemas"
    assert CliRunner().invoke(main, ["schemas", "--out", str(out)]).exit_code == 0
    schema = out / "map.schema.json"
    schema.write_bytes(schema.read_bytes().replace(b"\n", b"\r\n"))
    result = CliRunner().invoke(main, ["schemas", "--out", str(out), "--check"])
    assert result.exit_code == 1, result.stdout
    (error,) = [line for line in result.stdout.splitlines() if "error[R009]" in line]
    assert error.endswith(f"`{schema}` differs only in its line endings: CRLF where civrules writes LF"), error
    (hint,) = [line for line in result.stdout.splitlines() if line.startswith("  hint: ")]
    assert hint.startswith(f"  hint: add the line `schemas/** -text` to `{tmp_path}/.gitattributes` and commit it"), (
        hint
    )
