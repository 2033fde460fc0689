"""The adversarial corpus (tests/adversarial/cases.yaml): whatever arrives, a located diagnostic.

Each case is a rules tree built in a temporary directory (the shipped rules with one hostile
change), checked by `civrules` in a subprocess (tests/adversarial/measure.py), whose exit code,
CPU time and peak resident memory are those the kernel counted for that process. See the header of
cases.yaml for what a case asserts. No test asserts on time: a case's CPU figure is a speed goal
that `make bench` measures (bench/adversarial.py); here only a generous wall-time guard stops a
hang.
"""

from __future__ import annotations

import json
import os
import py_compile
import re
import resource
import shutil
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from civrules.diagnostics.escape import UNSAFE
from civrules.load import read_yaml_file
from tests.adversarial import measure
from tests.adversarial.generate import generate
from tests.conftest import REPO, copy_rulesets

HERE = Path(__file__).resolve().parent / "adversarial"
DATA = HERE / "data"
SECRET = "CIVRULES-ADVERSARIAL-SECRET"
CPU_SECONDS = 2.0  # the default speed goal of a case (bench/adversarial.py measures it)
RSS_MB = 200

_TEXT_LOCATION = re.compile(r"^(?P<file>\S.*?):(?P<line>\d+):(?P<column>\d+): (?P<severity>\w+)\[(?P<code>\w+)\]")
_ANNOTATION = re.compile(
    r"^::(?P<severity>error|warning|notice) (?:file=(?P<file>[^,]*),line=(?P<line>\d+),col=(?P<column>\d+),"
    r"endLine=\d+,endColumn=\d+,)?title=(?P<code>\w+)::"
)
LISTED_PER_FILE = 100  # civrules' default --max-diagnostics
#: Characters no output may hold raw (besides the line breaks between its own lines).
_RAW_CONTROL = re.compile("[\x00-\x09\x0b-\x1f" + UNSAFE.removeprefix("\x00-\x1f") + "]")


@dataclass(frozen=True)
class Case:
    id: str
    threat: str
    setup: tuple[dict[str, Any], ...]
    run: tuple[str, ...]
    exit: int
    expect: tuple[dict[str, Any], ...]
    format: str = "json"
    verify: tuple[str, ...] = ()
    cpu: float = CPU_SECONDS
    rss_mb: float = RSS_MB
    capped: bool = False  # the case's files hold more problems than are listed (--max-diagnostics)
    cwd: str = "repo"  # or "tmp": the case's temporary directory (for threats to the working directory)
    env: tuple[tuple[str, str], ...] = ()
    stderr: str | None = None  # a text the command's standard error must hold
    fsize_kib: int | None = None  # a file-size limit (RLIMIT_FSIZE) for the command
    slow: bool = False


def load_cases() -> list[Case]:
    entries = yaml.load((HERE / "cases.yaml").read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    return [
        Case(
            id=entry["id"],
            threat=entry["threat"],
            setup=tuple(entry.get("setup", ())),
            run=tuple(entry["run"]),
            exit=entry["exit"],
            expect=tuple(entry.get("expect") or ()),
            format=entry.get("format", "json" if entry["run"][0] == "validate" else "none"),
            verify=tuple(entry.get("verify", ())),
            cpu=float(entry.get("cpu", CPU_SECONDS)),
            rss_mb=float(entry.get("rss_mb", RSS_MB)),
            capped=bool(entry.get("capped", False)),
            cwd=entry.get("cwd", "repo"),
            env=tuple(sorted((entry.get("env") or {}).items())),
            stderr=entry.get("stderr"),
            fsize_kib=entry.get("fsize_kib"),
            slow=bool(entry.get("slow", False)),
        )
        for entry in entries
    ]


CASES = load_cases()


#: The rulesets a case's tree holds (tests.conftest.copy_rulesets): hostile variants extend the first.
FAMILY = ("advanced-civilization", "advanced-civilization-western")

HANG_GUARD = 300.0  # wall seconds, for a run of no case


def hang_guard(case: Case) -> float:
    """Wall seconds after which a case's run counts as hung: 100 times its CPU goal, at least 300.

    Generous on purpose: on a machine shared with other work a 3 s case has taken 90 s of wall
    time. Speed is `make bench`'s to judge (bench/adversarial.py), not this guard's."""
    return max(HANG_GUARD, 100 * case.cpu)


VARIANT = """kind: ruleset
id: hostile
name: Hostile
extends: advanced-civilization
files:
  {slot}:
    - {path}
"""


@dataclass
class Outcome:
    returncode: int
    cpu_seconds: float
    max_rss_bytes: int
    wall_seconds: float
    stdout: str
    stderr: str
    diagnostics: list[tuple[str, str, str, int, int]]  # severity, code, file (relative to the tree), line, column


def build_tree(case: Case, tmp: Path) -> tuple[Path, set[str]]:
    """The case's rules tree under ``tmp``, and the files (relative to it) the case wrote."""
    rules = tmp / "rules"
    # The Advanced Civilization family and the files it reads: every case's variant extends it, and
    # a whole-tree run (validate, build) costs two rulesets' work, not every shipped ruleset's.
    copy_rulesets(rules, *FAMILY)
    written: set[str] = set()
    for step in case.setup:
        if "copy" in step:
            data = (DATA / step["copy"]).read_bytes().replace(b"@TMP@", str(tmp).encode())
            (rules / step["to"]).write_bytes(data)
            written.add(step["to"])
        elif "write" in step:
            base = tmp if step.get("outside") else rules
            (base / step["write"]).write_text(step["text"].replace("@TMP@", str(tmp)), encoding="utf-8")
            if not step.get("outside"):
                written.add(step["write"])
        elif "generate" in step:
            params = {k: v for k, v in step.items() if k != "generate"}
            generate(rules, step["generate"], **params)
            written.add(step["to"])
        elif "variant" in step:
            (rules / "rulesets" / "hostile.yaml").write_text(
                VARIANT.format(slot=step["variant"], path=step["path"]), encoding="utf-8"
            )
            written.add("rulesets/hostile.yaml")
        elif "symlink" in step:
            outside = tmp / step["to"]
            outside.write_text(f"secret: {SECRET}\nkind: [{SECRET}\n", encoding="utf-8")
            os.symlink(outside, rules / step["symlink"])
            written.add(step["symlink"])
        elif "mkdir" in step:
            (tmp / step["mkdir"].replace("@TMP@", str(tmp))).mkdir(parents=True, exist_ok=True)
        elif "fifo" in step:
            os.mkfifo((tmp if step.get("outside") else rules) / step["fifo"])
            if not step.get("outside"):
                written.add(step["fifo"])
        elif "link" in step:
            base = tmp if step.get("outside") else rules
            os.symlink(step["to"].replace("@TMP@", str(tmp)), base / step["link"])
            if not step.get("outside"):
                written.add(step["link"])
        elif "copy_generated" in step:
            shutil.copytree(REPO / "generated", tmp / step["copy_generated"], symlinks=True)
        elif "replace" in step:
            path = rules / step["replace"]
            text = path.read_text(encoding="utf-8")
            assert step["find"] in text, f"{case.id}: {step['find']!r} not in {step['replace']}"
            path.write_text(text.replace(step["find"], step["with"], 1), encoding="utf-8")
            written.add(step["replace"])
        else:  # pragma: no cover - a typo in cases.yaml
            raise AssertionError(f"{case.id}: unknown setup step {step}")
    return rules, written


def run_measured(rules: Path, args: list[str], tmp: Path, case: Case) -> measure.Measured:
    """Run civrules as a command; the case's hang guard (wall seconds) stops a hang: a failure, not a wait."""
    env = {**os.environ, **{k: v.replace("@TMP@", str(tmp)) for k, v in case.env}}
    limit = case.fsize_kib

    def limit_file_size() -> None:
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit * 1024, limit * 1024))

    return measure.run(
        [sys.executable, "-m", "civrules", "--rules", str(rules), *args],
        cwd=tmp if case.cwd == "tmp" else REPO,
        env=env,
        timeout=hang_guard(case),
        preexec_fn=limit_file_size if limit is not None else None,
    )


def relative(file: str, rules: Path, cwd: Path = REPO) -> str:
    """A diagnostic's file relative to the rules tree (without following symbolic links)."""
    absolute = os.path.normpath(os.path.join(cwd, file))
    return Path(os.path.relpath(absolute, rules)).as_posix()


def parse(case: Case, stdout: str, rules: Path) -> list[tuple[str, str, str, int, int]]:
    cwd = rules.parent if case.cwd == "tmp" else REPO
    if case.format == "json":
        return [
            (
                d["severity"],
                d["code"],
                relative(d["file"], rules, cwd) if d["file"] else "",
                d["line"] or 0,
                d["column"] or 0,
            )
            for d in json.loads(stdout)
        ]
    if case.format == "text":
        found = []
        for line in stdout.splitlines():
            match = _TEXT_LOCATION.match(line)
            if match:
                found.append(
                    (
                        match["severity"],
                        match["code"],
                        relative(match["file"], rules, cwd),
                        int(match["line"]),
                        int(match["column"]),
                    )
                )
        return found
    if case.format == "sarif":
        (run,) = json.loads(stdout)["runs"]
        levels = {"error": "error", "warning": "warning", "note": "info"}
        found = []
        for result in run["results"]:
            location = (result.get("locations") or [{}])[0].get("physicalLocation", {})
            region = location.get("region", {})
            file = location.get("artifactLocation", {}).get("uri", "")
            found.append(
                (
                    levels[result["level"]],
                    result["ruleId"],
                    relative(file, rules) if file else "",
                    region.get("startLine", 0),
                    region.get("startColumn", 0),
                )
            )
        return found
    if case.format == "github":
        annotations = []
        for line in stdout.splitlines():
            match = _ANNOTATION.match(line)
            assert match is not None, f"{case.id}: a line that is not an annotation: {line[:200]!r}"
            file = _unescape_property(match["file"] or "")
            annotations.append(
                (
                    {"notice": "info"}.get(match["severity"], match["severity"]),
                    match["code"],
                    relative(file, rules) if file else "",
                    int(match["line"] or 0),
                    int(match["column"] or 0),
                )
            )
        return annotations
    return []


def _unescape_property(text: str) -> str:
    for escaped, char in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        text = text.replace(escaped, char)
    return text


def locate(rules: Path, expect: dict[str, Any]) -> tuple[str, str, int, int]:
    """An expected diagnostic as (code, file, line, column); `at` finds the column of a text."""
    if "line" in expect:
        return expect["code"], expect["file"], expect["line"], expect["column"]
    text = (rules / expect["file"]).read_text(encoding="utf-8")
    start = text.index(expect["after"]) if "after" in expect else 0
    index = text.index(expect["at"], start)
    line = text.count("\n", 0, index) + 1
    return expect["code"], expect["file"], line, index - (text.rfind("\n", 0, index) + 1) + 1


def run_case(case: Case, tmp: Path) -> tuple[Outcome, Path, set[str]]:
    rules, written = build_tree(case, tmp)
    args = [a.replace("@TMP@", str(tmp)) for a in case.run]
    if case.format in ("json", "text", "github", "sarif") and args[0] == "validate":
        args += ["--format", case.format]
    measured = run_measured(rules, args, tmp, case)
    outcome = Outcome(
        measured.returncode,
        measured.cpu_seconds,
        measured.max_rss_bytes,
        measured.wall_seconds,
        measured.stdout,
        measured.stderr,
        parse(case, measured.stdout, rules),
    )
    return outcome, rules, written


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id, marks=[pytest.mark.slow] if c.slow else []) for c in CASES])
def test_adversarial_case(case: Case, tmp_path: Path) -> None:
    try:
        check_case(case, tmp_path)
    finally:
        remove_tree(tmp_path / "rules")  # pytest keeps temporary trees: not 100 MB files


def remove_tree(root: Path) -> None:
    """Delete a tree without recursion (shutil.rmtree recurses: 1,500 nested folders overflow it)."""
    if not root.is_dir() or root.is_symlink():
        return
    stack, folders = [str(root)], []
    while stack:
        folder = stack.pop()
        folders.append(folder)
        for entry in os.scandir(folder):
            if entry.is_dir(follow_symlinks=False):
                stack.append(entry.path)
            else:
                os.unlink(entry.path)
    for folder in reversed(folders):
        os.rmdir(folder)


def check_case(case: Case, tmp_path: Path) -> None:
    outcome, rules, written = run_case(case, tmp_path)
    context = f"{case.id} ({case.threat})\nstdout: {outcome.stdout[-3000:]}\nstderr: {outcome.stderr[-3000:]}"
    assert "Traceback" not in outcome.stderr, context
    assert "internal error" not in outcome.stderr, context
    assert outcome.returncode == case.exit, context
    if case.stderr is not None:
        assert case.stderr in outcome.stderr, context
    expected = {locate(rules, e) for e in case.expect}
    errors = {
        (code, file, line, column) for severity, code, file, line, column in outcome.diagnostics if severity == "error"
    }
    # An expected warning (a leading zero, with --strict) counts as found too.
    reported = errors | {(c, f, line, column) for s, c, f, line, column in outcome.diagnostics if s == "warning"}
    assert expected <= reported, f"missing {sorted(expected - reported)}\n{context}"
    if case.capped:
        check_capped(case, outcome, written, context)
    else:
        unexpected = {e for e in errors if e[1] in written} - expected
        assert not unexpected, f"unexpected errors in the case's own files: {sorted(unexpected)}\n{context}"
    # Whatever the data holds, no output carries a raw control character (issue 14, point 4).
    raw = _RAW_CONTROL.search(outcome.stdout + outcome.stderr)
    assert raw is None, f"{case.id}: a raw U+{ord(raw.group()):04X} in the output\n{context}"
    if case.run[0] == "build" and case.exit == 0:
        verify_packages_import(case, outcome, rules, tmp_path)
    rss_mb = outcome.max_rss_bytes / 1e6
    assert rss_mb < case.rss_mb, f"{case.id}: peak RSS {rss_mb:.0f} MB (bound {case.rss_mb} MB)"
    for hook in case.verify:
        VERIFY[hook](case, outcome, rules, tmp_path)


def check_capped(case: Case, outcome: Outcome, written: set[str], context: str) -> None:
    """The case's files hold more problems than are listed: each lists at most the bound, and one
    R011 line counts the rest; the output stays small whatever the input held."""
    for file in written:
        listed = [d for d in outcome.diagnostics if d[2] == file and d[1] != "R011"]
        summaries = [d for d in outcome.diagnostics if d[2] == file and d[1] == "R011"]
        assert len(listed) <= LISTED_PER_FILE, f"{case.id}: {len(listed)} diagnostics listed for {file}\n{context}"
        if len(listed) == LISTED_PER_FILE:
            assert len(summaries) == 1, f"{case.id}: no summary of the unlisted diagnostics of {file}\n{context}"
    assert any(d[1] == "R011" for d in outcome.diagnostics), f"{case.id}: nothing was capped\n{context}"
    assert len(outcome.stdout) < 200_000, f"{case.id}: {len(outcome.stdout):,} characters of output"


def generated_packages(out: Path) -> list[str]:
    return sorted(p.parent.name for p in (out / "python").glob("*/__init__.py"))


def verify_packages_import(case: Case, outcome: Outcome, rules: Path, tmp: Path) -> None:
    """Exit 0 from `build` means the output works: every generated package imports in a fresh
    interpreter (the slow test_built_packages_pass_mypy_strict also type-checks them)."""
    out = tmp / "generated"
    packages = generated_packages(out)
    assert packages, f"{case.id}: nothing was generated"
    # `from ... import *` loads every table and helper, which a package otherwise loads on first use.
    program = "".join(f"from {name} import *\n" for name in packages)
    env = {**os.environ, "PYTHONPATH": str(out / "python")}
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, env=env, check=False, timeout=60
    )
    assert done.returncode == 0, f"{case.id}: a generated package does not import:\n{done.stderr[-3000:]}"


def verify_no_annotation_from_data(case: Case, outcome: Outcome, rules: Path, tmp: Path) -> None:
    """Every line of `--format github` is one of civrules' own annotations, one per diagnostic."""
    lines = outcome.stdout.splitlines()
    assert len(lines) == len(outcome.diagnostics), f"{case.id}: {len(lines)} lines for {len(outcome.diagnostics)}"
    assert not any(line.startswith("::stop-commands") for line in lines)


def verify_nothing_ran(case: Case, outcome: Outcome, rules: Path, tmp: Path) -> None:
    assert not (tmp / "pwned").exists(), f"{case.id}: a command in the data was executed"


def verify_secret_not_printed(case: Case, outcome: Outcome, rules: Path, tmp: Path) -> None:
    assert SECRET not in outcome.stdout + outcome.stderr, f"{case.id}: a line of a file outside rules/ was printed"


def verify_round_trip(case: Case, outcome: Outcome, rules: Path, tmp: Path) -> None:
    """The generated package compiles, imports in a fresh interpreter and gives back every hostile
    string exactly; no generated HTML or SVG holds a live `<script>`."""
    manifest, diagnostics = read_yaml_file(rules / "rulesets" / "hostile.yaml", "hostile.yaml")
    assert manifest is not None and not diagnostics
    overlay = manifest.data["overlay"]
    names = {
        "RULESET_NAME": manifest.data["name"],
        "CARDS[CardId.POTTERY].name": overlay["civilization_cards"]["patch"][0]["name"],
        "CALAMITIES[CalamityId.FAMINE].name": overlay["calamities"]["patch"][0]["name"],
    }
    out = tmp / "generated"
    sources = sorted(out.rglob("*.py"))
    assert sources, f"{case.id}: nothing was generated"
    for source in sources:
        py_compile.compile(str(source), cfile=str(tmp / "compiled.pyc"), doraise=True)
    program = "from hostile import *\nimport hostile\n" + "".join(f"print(ascii({e}))\n" for e in names)
    env = {**os.environ, "PYTHONPATH": str(out / "python")}
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, env=env, check=False, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [ascii(value) for value in names.values()]
    for page in [*out.rglob("*.html"), *out.rglob("*.svg")]:
        assert "<script>alert(" not in page.read_text(encoding="utf-8"), f"{page}: a name became live HTML"


def verify_outside_untouched(case: Case, outcome: Outcome, rules: Path, tmp: Path) -> None:
    """Every file, FIFO, link and folder the case made outside rules/ is still there, as it was;
    the rules tree is whole; a link's target was not created."""
    assert (rules / "rulesets" / "advanced-civilization.yaml").is_file(), f"{case.id}: rules/ was damaged"
    for step in case.setup:
        if "write" in step and step.get("outside"):
            path = tmp / step["write"]
            assert path.read_text(encoding="utf-8") == step["text"].replace("@TMP@", str(tmp)), case.id
        elif "fifo" in step:
            path = (tmp if step.get("outside") else rules) / step["fifo"]
            assert stat.S_ISFIFO(os.lstat(path).st_mode), f"{case.id}: {path} is no longer a FIFO"
        elif "link" in step:
            path = (tmp if step.get("outside") else rules) / step["link"]
            target = step["to"].replace("@TMP@", str(tmp))
            assert os.readlink(path) == target, f"{case.id}: {path} is no longer the link"
            if step.get("dangling"):
                assert not os.path.lexists(target), f"{case.id}: civrules wrote through the link to {target}"
        elif "mkdir" in step:
            assert (tmp / step["mkdir"].replace("@TMP@", str(tmp))).is_dir(), case.id


def verify_output_unchanged(case: Case, outcome: Outcome, rules: Path, tmp: Path) -> None:
    """A failed build left the copied generated/ exactly as it was, and no staging tree beside it."""
    from civrules.emit.output import read_tree

    for step in case.setup:
        if "copy_generated" in step:
            out = tmp / step["copy_generated"]
            assert read_tree(out) == read_tree(REPO / "generated"), f"{case.id}: {out} changed"
            leftovers = [p.name for p in out.parent.iterdir() if p.name.startswith(f".{out.name}.")]
            assert not leftovers, f"{case.id}: left {leftovers}"


def verify_no_link_in_output(case: Case, outcome: Outcome, rules: Path, tmp: Path) -> None:
    """The output holds no link and no byte of a file outside it."""
    for step in case.setup:
        if "copy_generated" in step:
            out = tmp / step["copy_generated"]
            for path in out.rglob("*"):
                assert not path.is_symlink(), f"{case.id}: {path} is a link"
                if path.is_file():
                    assert SECRET.encode() not in path.read_bytes(), f"{case.id}: {path} holds the secret"


VERIFY = {
    "no_annotation_from_data": verify_no_annotation_from_data,
    "nothing_ran": verify_nothing_ran,
    "secret_not_printed": verify_secret_not_printed,
    "round_trip": verify_round_trip,
    "outside_untouched": verify_outside_untouched,
    "output_unchanged": verify_output_unchanged,
    "no_link_in_output": verify_no_link_in_output,
}


def test_every_case_names_a_threat_and_a_known_hook() -> None:
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids))
    for case in CASES:
        assert case.threat
        assert set(case.verify) <= set(VERIFY), case.id
        assert case.exit in (0, 1, 2), case.id
        assert case.exit != 2 or case.stderr, f"{case.id}: an exit 2 case names the message it expects"


BUILT = [c for c in CASES if c.run[0] == "build" and c.exit == 0]


@pytest.mark.slow
@pytest.mark.parametrize("case", BUILT, ids=[c.id for c in BUILT])
def test_built_packages_pass_mypy_strict(case: Case, tmp_path: Path) -> None:
    """For every corpus case that `build` accepts, the generated packages pass `mypy --strict`:
    exit 0 means the output works, not only that it imports."""
    outcome, _, _ = run_case(case, tmp_path)
    assert outcome.returncode == 0, outcome.stderr
    out = tmp_path / "generated" / "python"
    packages = generated_packages(tmp_path / "generated")
    command = [sys.executable, "-m", "mypy", "--strict", "--no-incremental", *(f"-p{name}" for name in packages)]
    env = {**os.environ, "MYPYPATH": str(out)}
    done = subprocess.run(command, capture_output=True, text=True, cwd=out, env=env, check=False, timeout=600)
    assert done.returncode == 0, done.stdout[-5000:]
