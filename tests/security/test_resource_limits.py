"""Threat: input that makes civrules work, wait or use memory without bound; and the adversarial corpus.

Every bound civrules keeps is held here: file sizes (of a file, an editor's buffer, a quoted line),
entries in a tree, the extends chain, checks and suggestions that were quadratic, the diagnostics
listed per file, output that grows with the problems and not with the input, option values too large
to use. The corpus below runs every hostile case end to end and measures each run's memory.

The adversarial corpus (tests/adversarial/cases.yaml): whatever arrives, a located diagnostic.

Each case is a rules tree built in a temporary directory (the shipped rules with one hostile
change), checked by `civrules`. `make test` runs it in the test's own interpreter (click's test
runner; a case whose threat is to a starting interpreter, `fresh`, in a subprocess): starting an
interpreter per case cost more CPU than most cases' own work. `make test-slow` runs every case in a
subprocess (tests/adversarial/measure.py), whose exit code, CPU time and peak resident memory are
those the kernel counted for that process, and holds its memory to the case's bound. See the header
of cases.yaml for what a case asserts. No test asserts on time: a case's CPU figure is a speed goal
that `make bench` measures (bench/adversarial.py, in subprocesses); here only a generous wall-time
guard stops a hang.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import html
import json
import os
import py_compile
import re
import resource
import shutil
import stat
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from civrules.checks.catalogue import all_checks
from civrules.cli import main
from civrules.diagnostics import Diagnostic, Related, Severity, Span
from civrules.diagnostics.escape import UNSAFE
from civrules.diagnostics.render import SourceLines, diagnostic_record, render_json, render_text, source_root
from civrules.diagnostics.suggest import COMPARISONS, QUERIES, Vocabulary
from civrules.families.advanced_civilization.model import of_family
from civrules.load import Limits, read_yaml_file
from civrules.load.workspace import Workspace
from civrules.pipeline import analyse
from civrules.support import files
from tests.adversarial import measure
from tests.adversarial.generate import generate
from tests.budget import heavy
from tests.conftest import REPO, RULES, copy_rulesets
from tests.core.test_incremental import copy_subset
from tests.rulefiles import CachedWorkspace, shipped_text

HERE = Path(__file__).resolve().parent.parent / "adversarial"
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
    stderr: str | None = None  # a text the command must print (a diagnostic on stdout, or on stderr)
    fsize_kib: int | None = None  # a file-size limit (RLIMIT_FSIZE) for the command
    slow: bool = False
    #: The threat is to a starting interpreter or the whole process (what it imports from the
    #: working directory, a file-size limit): `make test` runs it in a subprocess too.
    fresh: bool = False
    #: Rulesets of other families the case's tree holds besides FAMILY (its variants extend them).
    rulesets: tuple[str, ...] = ()
    #: The class of threat: the `# --- ` heading of cases.yaml the case is listed under.
    section: str = ""


_SECTION = re.compile(r"^# --- (?P<title>.*?) -*$|^- id: (?P<id>\S+)", re.MULTILINE)


def sections(text: str) -> dict[str, str]:
    """Each case's class of threat, by its id: the `# --- ` heading it is listed under."""
    found, title = {}, ""
    for match in _SECTION.finditer(text):
        if match["title"] is not None:
            title = match["title"]
        else:
            found[match["id"]] = title
    return found


def load_cases() -> list[Case]:
    text = (HERE / "cases.yaml").read_text(encoding="utf-8")
    entries = yaml.load(text, Loader=yaml.CSafeLoader)
    section = sections(text)
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
            fresh=bool(entry.get("fresh", False)) or entry.get("fsize_kib") is not None,
            rulesets=tuple(entry.get("rulesets", ())),
            section=section[entry["id"]],
        )
        for entry in entries
    ]


CASES = load_cases()


def representatives(cases: list[Case]) -> set[str]:
    """The ids of the cases `make test` runs in process: the first case of each class of threat
    (each heading of cases.yaml) that is not slow. `make test-slow` runs the others in process too,
    and every case in a subprocess of its own."""
    chosen: dict[str, str] = {}
    for case in cases:
        if not case.slow:
            chosen.setdefault(case.section, case.id)
    return set(chosen.values())


REPRESENTATIVES = representatives(CASES)


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
    copy_rulesets(rules, *FAMILY, *case.rulesets)
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
            os.mkfifo((tmp if step.get("outside") else rules) / step["fifo"].replace("@TMP@", str(tmp)))
            if not step.get("outside"):
                written.add(step["fifo"])
        elif "link" in step:
            base = tmp if step.get("outside") else rules
            os.symlink(step["to"].replace("@TMP@", str(tmp)), base / step["link"])
            if not step.get("outside"):
                written.add(step["link"])
        elif "copy_generated" in step:
            shutil.copytree(REPO / "generated", tmp / step["copy_generated"], symlinks=True)
            for stale in step.get("stale", ()):  # a file the build must write again (kept otherwise)
                with (tmp / step["copy_generated"] / stale).open("ab") as handle:
                    handle.write(b"\n")
        elif "replace" in step:
            path = rules / step["replace"]
            text = path.read_text(encoding="utf-8")
            assert step["find"] in text, f"{case.id}: {step['find']!r} not in {step['replace']}"
            path.write_text(text.replace(step["find"], step["with"], 1), encoding="utf-8")
            written.add(step["replace"])
        else:  # pragma: no cover - a typo in cases.yaml
            raise AssertionError(f"{case.id}: unknown setup step {step}")
    return rules, written


def _case_env(case: Case, tmp: Path) -> dict[str, str]:
    """The case's environment variables (``@TMP@`` replaced), given to the command and to every
    interpreter importing what it generated (a hostile name's command finds its file there)."""
    return {k: v.replace("@TMP@", str(tmp)) for k, v in case.env}


def run_measured(rules: Path, args: list[str], tmp: Path, case: Case, *, in_process: bool = False) -> measure.Measured:
    """Run civrules as a command (or, ``in_process`` and unless the case needs a fresh interpreter,
    in this one); the case's hang guard (wall seconds) stops a hang: a failure, not a wait."""
    case_env = _case_env(case, tmp)
    if in_process and not case.fresh:
        return measure.run_in_process(
            ["--rules", str(rules), *args],
            cwd=tmp if case.cwd == "tmp" else REPO,
            env=case_env,
            timeout=hang_guard(case),
        )
    env = {**os.environ, **case_env}
    limit = case.fsize_kib
    if limit is not None:  # the interpreter's own start (before civrules can say so) writes no bytecode
        env["PYTHONDONTWRITEBYTECODE"] = "1"

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
        # Annotations name files from the repository's root, as SARIF does (round 20).
        with contextlib.chdir(cwd):
            root = source_root(rules)
        annotations = []
        for line in stdout.splitlines():
            match = _ANNOTATION.match(line)
            assert match is not None, f"{case.id}: a line that is not an annotation: {line[:200]!r}"
            file = _unescape_property(match["file"] or "")
            annotations.append(
                (
                    {"notice": "info"}.get(match["severity"], match["severity"]),
                    match["code"],
                    relative(file, rules, root) if file else "",
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


def run_case(case: Case, tmp: Path, *, in_process: bool = False) -> tuple[Outcome, Path, set[str]]:
    """Build the case's tree under ``tmp`` and run its command: in a subprocess of its own, measured
    (`make test-slow`, `make bench`), or ``in_process`` (`make test`: no peak memory measured)."""
    rules, written = build_tree(case, tmp)
    args = [a.replace("@TMP@", str(tmp)) for a in case.run]
    if case.format in ("json", "text", "github", "sarif") and args[0] == "validate":
        args += ["--format", case.format]
    measured = run_measured(rules, args, tmp, case, in_process=in_process)
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


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(c, id=c.id, marks=() if c.id in REPRESENTATIVES else (pytest.mark.slow,))
        for c in CASES
        if not c.slow
    ],
)
def test_adversarial_case(case: Case, tmp_path: Path) -> None:
    """Every case but the slow ones, run in this interpreter (the few that need a fresh one,
    `fresh: true`, in a subprocess): exit code, located diagnostics, output, the verify hooks.
    `make test` runs one case of each class of threat (:data:`REPRESENTATIVES`), `make test-slow`
    the others. Peak memory is the slow test's below, which runs every case in a process of its
    own (started by a small launcher, so the figures are the command's whatever ran here before)."""
    try:
        check_case(case, tmp_path, in_process=True)
    finally:
        remove_tree(tmp_path / "rules")  # pytest keeps temporary trees: not 100 MB files


@pytest.mark.slow
@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in CASES])
def test_adversarial_case_in_a_process_of_its_own(case: Case, tmp_path: Path) -> None:
    """`make test-slow`: every case as a command in a subprocess, as a user runs it, with the same
    assertions and its peak resident memory (as the kernel counted it) under the case's bound."""
    try:
        check_case(case, tmp_path)
    finally:
        remove_tree(tmp_path / "rules")


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


def check_case(case: Case, tmp_path: Path, *, in_process: bool = False) -> None:
    outcome, rules, written = run_case(case, tmp_path, in_process=in_process)
    context = f"{case.id} ({case.threat})\nstdout: {outcome.stdout[-3000:]}\nstderr: {outcome.stderr[-3000:]}"
    assert "Traceback" not in outcome.stderr, context
    assert "internal error" not in outcome.stderr, context
    assert outcome.returncode == case.exit, context
    if case.stderr is not None:  # a refusal is a diagnostic (stdout) or a sentence (stderr)
        assert case.stderr in outcome.stdout + outcome.stderr, context
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
    if not in_process or case.fresh:
        # Every case run as a command, whatever the test process holds: the command's own peak is
        # measured by a small launcher (tests/adversarial/measure.py). A case run in the test's own
        # interpreter has no peak of its own: `make test-slow` runs every case as a command.
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
    env = {**os.environ, "PYTHONPATH": str(out / "python"), **_case_env(case, tmp)}
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
    program = "from civrules_rulesets.hostile import *\nimport civrules_rulesets.hostile\n"
    program += "".join(f"print(ascii({e}))\n" for e in names)
    env = {**os.environ, "PYTHONPATH": str(out / "python"), **_case_env(case, tmp)}
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, env=env, check=False, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [ascii(value) for value in names.values()]
    for page in [*out.rglob("*.html"), *out.rglob("*.svg")]:
        assert "<script>alert(" not in page.read_text(encoding="utf-8"), f"{page}: a name became live HTML"


def verify_helpers_inert(case: Case, outcome: Outcome, rules: Path, tmp: Path) -> None:
    """The hostile ruleset's helper page (generated/helpers/hostile.html) runs only its own scripts:
    every script element is an embedded JSON block or a script whose hash the page's CSP allows, no
    name ends or opens one, and the embedded tables give back every hostile name exactly."""
    manifest, diagnostics = read_yaml_file(rules / "rulesets" / "hostile.yaml", "hostile.yaml")
    assert manifest is not None and not diagnostics
    overlay = manifest.data["overlay"]
    page = (tmp / "generated" / "helpers" / "hostile.html").read_text(encoding="utf-8")
    found = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', page)
    assert found is not None, f"{case.id}: no CSP"
    csp = html.unescape(found.group(1))
    assert csp.startswith("default-src 'none'"), f"{case.id}: no strict CSP"
    blocks = re.findall(r"<script([^>]*)>(.*?)</script>", page, re.DOTALL)
    assert page.count("<script") == len(blocks) == page.count("</script>"), f"{case.id}: a script element from data"
    tables: dict[str, object] = {}
    for attributes, content in blocks:
        if 'type="application/json"' in attributes:
            tables[attributes] = json.loads(content)
            continue
        digest = base64.b64encode(hashlib.sha256(content.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in csp, f"{case.id}: a script the CSP does not allow"
    (data,) = [t for a, t in tables.items() if "civrules-tables" in a]
    assert isinstance(data, dict)
    assert data["cards"]["pottery"]["name"] == overlay["civilization_cards"]["patch"][0]["name"]
    assert data["calamities"]["famine"]["name"] == overlay["calamities"]["patch"][0]["name"]


def verify_outside_untouched(case: Case, outcome: Outcome, rules: Path, tmp: Path) -> None:
    """Every file, FIFO, link and folder the case made outside rules/ is still there, as it was;
    the rules tree is whole; a link's target was not created."""
    assert (rules / "rulesets" / "advanced-civilization.yaml").is_file(), f"{case.id}: rules/ was damaged"
    for step in case.setup:
        if "write" in step and step.get("outside"):
            path = tmp / step["write"]
            assert path.read_text(encoding="utf-8") == step["text"].replace("@TMP@", str(tmp)), case.id
        elif "fifo" in step:
            path = (tmp if step.get("outside") else rules) / step["fifo"].replace("@TMP@", str(tmp))
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
            expected = read_tree(REPO / "generated")
            for stale in step.get("stale", ()):
                expected[stale] = expected[stale] + b"\n"
            assert read_tree(out) == expected, f"{case.id}: {out} changed"
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


def verify_namespace_only(case: Case, outcome: Outcome, rules: Path, tmp: Path) -> None:
    """Every package built lies in civrules' own names (the namespace, the runtimes), whatever its
    ruleset's id, and so does its distribution (``civrules-rulesets-<id>``); every distribution's
    metadata parses back and validates, its description exactly the ruleset's name."""
    from civrules.emit.pyproject import verify_pyproject

    python = tmp / "generated" / "python"
    tops = {path.name for path in python.iterdir()}
    assert tops and all(top == "civrules_rulesets" or top.startswith("civrules_runtime") for top in tops), tops
    assert not (python / "civrules_rulesets" / "__init__.py").exists(), f"{case.id}: the namespace got an owner"
    pyprojects = sorted(python.glob("civrules_rulesets/*/pyproject.toml"))
    assert len(pyprojects) == 3, f"{case.id}: {pyprojects}"
    for pyproject in pyprojects:
        assert verify_pyproject(pyproject.read_bytes()) is None, f"{case.id}: {pyproject}"
        ruleset_id = pyproject.parent.name.replace("_", "-")
        manifest, _ = read_yaml_file(rules / "rulesets" / f"{ruleset_id}.yaml", f"{ruleset_id}.yaml")
        assert manifest is not None
        project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
        assert project["name"] == f"civrules-rulesets-{ruleset_id}", f"{case.id}: {project['name']}"
        described = project["description"]
        expected = f"{manifest.data['name']}: the rules as typed data (generated by civrules)"
        assert described == " ".join(expected.split()), f"{case.id}: {described!r}"


VERIFY = {
    "namespace_only": verify_namespace_only,
    "no_annotation_from_data": verify_no_annotation_from_data,
    "nothing_ran": verify_nothing_ran,
    "secret_not_printed": verify_secret_not_printed,
    "round_trip": verify_round_trip,
    "helpers_inert": verify_helpers_inert,
    "outside_untouched": verify_outside_untouched,
    "output_unchanged": verify_output_unchanged,
    "no_link_in_output": verify_no_link_in_output,
}


def test_every_case_names_a_threat_and_a_known_hook() -> None:
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids))
    for case in CASES:
        assert case.threat
        assert case.section, f"{case.id}: listed under no `# --- ` heading of cases.yaml"
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


# --- Reading bounded: file size, entries in a tree, the extends chain -----------------------------


def test_a_file_is_read_only_up_to_the_bound_whatever_its_size_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file that grows after stat (or a /proc file that says 0 bytes) is not read unbounded."""
    path = tmp_path / "growing.yaml"
    path.write_bytes(b"a: " + b"x" * 5000 + b"\n")
    real = os.stat_result(os.stat(path))
    small = os.stat_result((real.st_mode, *real[1:6], 10, *real[7:]))
    monkeypatch.setattr(Path, "stat", lambda self, **_: small if self == path else os.stat(self))
    _, diagnostics = read_yaml_file(path, "growing.yaml", Limits(max_bytes=1000))
    assert [d.code for d in diagnostics] == ["L007"]


def test_an_editor_buffer_is_held_to_the_file_size_bound(tmp_path: Path) -> None:
    rules = copy_subset(tmp_path / "rules")
    workspace = Workspace(rules, Limits(max_bytes=1000), overrides={"cards/big.yaml": "kind: map\n# " + "x" * 2000})
    loaded = workspace.load("cards/big.yaml")
    assert loaded.document is None
    assert [d.code for d in loaded.diagnostics] == ["L007"]
    # Characters are not bytes: 600 two-byte letters are 1,200 bytes.
    workspace = Workspace(rules, Limits(max_bytes=1000), overrides={"cards/big.yaml": "kind: map\n# " + "é" * 600})
    assert [d.code for d in workspace.load("cards/big.yaml").diagnostics] == ["L007"]


def test_a_walk_of_a_huge_tree_stops_with_a_diagnostic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`--rules /` (or a home folder) walked the whole file system: 21 s and every link reported."""
    rules = copy_subset(tmp_path / "rules")
    (rules / "junk").mkdir()
    for number in range(60):
        (rules / "junk" / f"{number:02}.txt").write_text("x", encoding="utf-8")
    monkeypatch.setattr(files, "MAX_ENTRIES", 40)
    assert [e.kind for e in files.walk(rules)][-1] == "many"
    assert len(list(files.walk(rules))) == 41
    workspace = Workspace(rules)
    workspace.rule_files()
    (found,) = [d for d in workspace.discovery_diagnostics if "more than 40 files and folders" in d.message]
    # The folder is a rules folder (it has rulesets/): the hint says what to move out, not --rules.
    assert found.code == "L012" and found.hint is not None and "move the other files" in found.hint
    above = Workspace(tmp_path)  # a folder above the rules folder: pass the rules folder itself
    above.rule_files()
    (found,) = [d for d in above.discovery_diagnostics if "more than 40 files and folders" in d.message]
    assert found.hint is not None and "--rules" in found.hint


def test_a_rules_folder_past_the_walk_bound_still_validates_its_rulesets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Files beside the rule data that sort before `rulesets/` (card images in `aaa/`) used up the
    walk's bound before it reached the manifests: `validate RULESET` read no ruleset and exited 2.
    `rulesets/` is walked first; the bound is an error of the rule data (L012, exit 1), and the
    rulesets are validated."""
    rules = copy_subset(tmp_path / "rules")
    (rules / "aaa").mkdir()
    for number in range(60):
        (rules / "aaa" / f"{number:02}.png").write_bytes(b"x")
    monkeypatch.setattr(files, "MAX_ENTRIES", 40)
    manifest = rules / "rulesets" / "advanced-civilization.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + "colour: red\n", encoding="utf-8")
    walked = [entry.relative for entry in files.walk(rules, first=("rulesets",))]
    assert walked.index("rulesets/advanced-civilization.yaml") < walked.index("aaa/00.png")
    result = CliRunner().invoke(main, ["--rules", str(rules), "validate", "--format", "json"])
    assert result.exit_code == 1, result.output
    errors = {(d["code"], Path(d["file"]).name) for d in json.loads(result.stdout) if d["severity"] == "error"}
    # The bound, at the rules folder, and the manifest's own mistake: the ruleset was validated.
    assert errors == {("L012", "rules"), ("S002", "advanced-civilization.yaml")}


def test_an_extends_chain_longer_than_the_bound_is_v002_not_a_crash() -> None:
    from civrules.pipeline import analyse
    from civrules.resolve import MAX_EXTENDS

    overrides, previous = {}, "advanced-civilization"
    for i in range(MAX_EXTENDS + 10):
        overrides[f"rulesets/c{i}.yaml"] = f"kind: ruleset\nid: c{i}\nname: C{i}\nextends: {previous}\n"
        previous = f"c{i}"
    workspace = Workspace(RULES, overrides=overrides)
    deep = analyse(workspace, workspace.load_ruleset(workspace.manifests()[previous]))
    assert [d.code for d in deep.diagnostics if d.severity == "error"] == ["V002"]
    fine = analyse(workspace, workspace.load_ruleset(workspace.manifests()[f"c{MAX_EXTENDS - 2}"]))
    assert fine.ok


@pytest.mark.parametrize(
    "order", [pytest.param("each-extends-the-file-before", marks=heavy), "each-extends-the-file-after"]
)
def test_a_chain_of_600_manifests_on_disk_is_v002_in_either_file_order(tmp_path: Path, order: str) -> None:
    """Read from disk, each manifest is declared by its header and read in full when asked for;
    reading one reads its base first to learn its family, and that base its own: a chain of 600
    ran out of stack (exit 2, RecursionError) whichever order the files sort in. Past the bound the
    family is left to the manifests' headers, and the chain is V002."""
    from civrules.pipeline import analyse

    rules = tmp_path / "rules"
    (rules / "rulesets").mkdir(parents=True)
    ids = [f"c{i:03}" for i in range(600)]
    if order == "each-extends-the-file-after":
        bases = [*ids[1:], "advanced-civilization"]
    else:
        bases = ["advanced-civilization", *ids[:-1]]
    for ruleset, base in zip(ids, bases, strict=True):
        text = f"kind: ruleset\nid: {ruleset}\nname: {ruleset.upper()}\nextends: {base}\n"
        (rules / "rulesets" / f"{ruleset}.yaml").write_text(text, encoding="utf-8")
    deepest = ids[0] if order == "each-extends-the-file-after" else ids[-1]
    workspace = Workspace(rules)
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()[deepest]))
    assert [d.code for d in analysis.diagnostics if d.severity == "error"] == ["V002"]


@pytest.mark.parametrize(
    "bound", [pytest.param(6, id="bound-6"), pytest.param(None, id="shipped", marks=pytest.mark.slow)]
)
def test_a_shared_resolver_reports_a_chain_too_long_as_a_fresh_one_does_in_any_order(
    bound: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`validate` and `build` share one resolver over a run (a variant reuses its base's resolution);
    a chain past the bound is still refused, located as before, whichever rulesets came first.
    `make test` lowers the bound to 6 (each ruleset of the chain is a whole analysis: 4 x 67 of them
    at the shipped bound, seconds of CPU); `make test-slow` keeps the shipped one."""
    from civrules import resolve
    from civrules.pipeline import analyse
    from civrules.resolve import Resolver

    if bound is not None:
        monkeypatch.setattr(resolve, "MAX_EXTENDS", bound)
    limit = resolve.MAX_EXTENDS
    overrides, previous = {}, "advanced-civilization"
    for i in range(limit + 3):
        overrides[f"rulesets/c{i}.yaml"] = f"kind: ruleset\nid: c{i}\nname: C{i}\nextends: {previous}\n"
        previous = f"c{i}"
    workspace = Workspace(RULES, overrides=overrides)
    ids = [f"c{i}" for i in range(limit + 3)]

    def verdicts(order: list[str], resolver: Resolver | None) -> dict[str, list[tuple[str, str]]]:
        found = {}
        for ruleset in order:
            analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset]), resolver=resolver)
            found[ruleset] = [(d.code, str(d.span)) for d in analysis.diagnostics if d.severity == "error"]
        return found

    fresh = verdicts(ids, None)
    assert fresh[f"c{limit - 1}"] == [] and [c for c, _ in fresh[f"c{limit}"]] == ["V002"]
    assert verdicts(ids, Resolver(workspace)) == fresh
    assert verdicts(sorted(ids), Resolver(workspace)) == fresh  # c0, c1, c10, ...: bases come late
    assert verdicts(ids[::-1], Resolver(workspace)) == fresh  # every base after its variants


# --- Work bounded: checks and suggestions that were quadratic -------------------------------------


def test_the_credit_cover_check_is_linear_in_the_number_of_cheap_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    """C007 asked networkx for a path per (giver, target) pair and rescanned every credit line per
    target: 5,000 cheap Craft cards took 111 s. Now the counting lines are found once per giver and
    whether a target requires its giver is one look-up in the prerequisites' closure, made once
    (``Closure``), which this counts (the work, not the time: the verdict does not depend on the
    machine's load). A walk of the prerequisites per giver (``Prerequisites.ancestors``) is not made."""
    from civrules.families.advanced_civilization.checks import cards as module

    calls = {"ancestors": 0, "closure": 0, "counting_lines": 0}

    def counted(name: str, function: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            calls[name] += 1
            return function(*args, **kwargs)

        return wrapper

    cards = shipped_text("cards/advanced-civilization.yaml")
    added = "".join(
        f'  - {{id: c{i}, name: C{i}, rule: "32.21", groups: [crafts], cost: 10, prerequisites: [], '
        "credits: [], attributes: []}\n"
        for i in range(2000)
    )
    workspace = CachedWorkspace(
        {"cards/advanced-civilization.yaml": cards.replace("\ncards:\n", "\ncards:\n" + added, 1)}
    )
    analysis = analyse(
        workspace, workspace.load_ruleset(workspace.manifests()["advanced-civilization"]), select=["C006"]
    )
    assert analysis.model is not None
    (check,) = [c for c in all_checks() if c.code.code == "C007"]
    monkeypatch.setattr(module.Prerequisites, "ancestors", counted("ancestors", module.Prerequisites.ancestors))
    monkeypatch.setattr(module.Closure, "__init__", counted("closure", module.Closure.__init__))
    monkeypatch.setattr(module, "counting_lines", counted("counting_lines", module.counting_lines))
    module._GRAPHS.clear()  # the check's graph is made (and its closure) under the count
    found = list(check.run(analysis.model))
    assert len(found) == 7  # one per Craft card's group credit, each covering the 2,000 cards
    assert all(len(d.related) == 2000 for d in found)
    givers = len(of_family(analysis.model).cards)
    assert calls["ancestors"] == 0 and calls["closure"] == 1, calls  # a walk per (giver, target) was 14,000
    assert 0 < calls["counting_lines"] <= givers, calls


def test_the_credit_cover_check_looks_at_no_card_its_group_credit_cannot_cover(monkeypatch: pytest.MonkeyPatch) -> None:
    """C007 took as candidates every member of a credited group costing no more than all the giver's
    points together: 400 Craft cards of cost 40, each giving 10 to the Crafts and 30 to Monotheism,
    made each of them a candidate of every other (a look-up of a cell per pair, 160,000; the
    synthetic ruleset at scale 100 made 135,600). Now a member of a group is a candidate only when
    the giver's lines toward its groups can reach its cost: the one Craft card of cost 10, and the
    specific credits' targets (counted, not timed)."""
    from civrules.families.advanced_civilization import credits

    n = 400
    added = "".join(
        f'  - {{id: c{i}, name: C{i}, rule: "32.21", groups: [crafts], cost: 40, prerequisites: [], attributes: [], '
        'credits: [{group: crafts, points: 10, rule: "32.212"}, {card: monotheism, points: 30, rule: "32.212"}]}\n'
        for i in range(n)
    )
    added += (
        '  - {id: cheap, name: Cheap, rule: "32.21", groups: [crafts], cost: 10, prerequisites: [], attributes: [], '
        "credits: []}\n"
    )
    calls = {"reaching": 0}
    reaching = credits.CreditRow.reaching

    def counted(row: Any, target: str) -> Any:
        calls["reaching"] += 1
        return reaching(row, target)

    monkeypatch.setattr(credits.CreditRow, "reaching", counted)
    found, _ = _card_checks(added, ["C007"], monkeypatch)
    # Every Craft card's group credit covers `cheap` (the seven shipped ones and the 400).
    assert len(found) == n + 7 and all("`cheap` (10 for a cost of 10)" in d.message for d in found)
    assert calls["reaching"] <= 3 * (n + 7), calls  # a candidate per pair: 160,000


def _card_checks(added: str, codes: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[list[Any], dict[str, int]]:
    """The diagnostics of the card checks ``codes`` on the shipped cards with ``added`` written first,
    and how often each piece of per-card work was done while they ran (walks of the prerequisites
    from one card, closures made, indexes of a card's credit lines made)."""
    from civrules.families.advanced_civilization import credits
    from civrules.families.advanced_civilization.checks import cards as module
    from civrules.support import walks

    cards = shipped_text("cards/advanced-civilization.yaml")
    workspace = CachedWorkspace(
        {"cards/advanced-civilization.yaml": cards.replace("\ncards:\n", "\ncards:\n" + added, 1)}
    )
    analysis = analyse(
        workspace, workspace.load_ruleset(workspace.manifests()["advanced-civilization"]), select=["C003"]
    )
    assert analysis.model is not None
    calls = {"reachable": 0, "ancestors": 0, "closure": 0, "line_index": 0}

    def counted(name: str, function: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            calls[name] += 1
            return function(*args, **kwargs)

        return wrapper

    monkeypatch.setattr(module, "reachable", counted("reachable", walks.reachable))  # a walk from one card
    monkeypatch.setattr(module.Prerequisites, "ancestors", counted("ancestors", module.Prerequisites.ancestors))
    monkeypatch.setattr(module.Closure, "__init__", counted("closure", module.Closure.__init__))
    monkeypatch.setattr(credits.CreditMatrix, "line_index", counted("line_index", credits.CreditMatrix.line_index))
    module._GRAPHS.clear()
    found = [d for check in all_checks() if check.code.code in codes for d in check.run(analysis.model)]
    return found, calls


def test_the_card_checks_of_a_prerequisite_chain_make_no_walk_per_card(monkeypatch: pytest.MonkeyPatch) -> None:
    """A chain of cards, each requiring the next and crediting its group as the shipped cards do:
    C005 and C006 walked each card's prerequisites (a chain of 5,000 cards: 40 s, the square of its
    length). Now one closure of the prerequisites answers every card (counted, not timed), and C006
    totals the group credits from a card's prerequisites without visiting them one by one."""
    n = 500
    added = "".join(
        f'  - {{id: c{i}, name: C{i}, rule: "32.21", groups: [crafts], cost: 100, '
        f'prerequisites: [{{card: c{i + 1}, rule: "31.62"}}], attributes: [], '
        f'credits: [{{group: crafts, points: 10, rule: "32.212"}}]}}\n'
        for i in range(n - 1)
    )
    added += (
        f'  - {{id: c{n - 1}, name: C{n - 1}, rule: "32.21", groups: [crafts], cost: 100, prerequisites: [], '
        'attributes: [], credits: [{group: crafts, points: 10, rule: "32.212"}]}\n'
    )
    found, calls = _card_checks(added, ["C002", "C005", "C006", "C007"], monkeypatch)
    assert calls["reachable"] == calls["ancestors"] == 0 and calls["closure"] == 1, calls
    free = [d for d in found if d.code == "C006"]
    # c_i holds the n - 1 - i cards after it, each giving 10 toward a cost of 100: free from i <= n - 11.
    assert len(free) == n - 10 and {d.code for d in found} == {"C006"}
    first = free[0]
    assert first.message.startswith("`c0` comes free to every player who may buy it: its prerequisites (`c1`, `c2`,")
    assert f"`c10` and {n - 11:,} more) credit {10 * (n - 1)} toward it, its whole cost of 100" in first.message
    assert [r.label for r in first.related] == [f"`c{i}` gives 10" for i in range(1, 11)]


def test_the_card_checks_of_a_card_listing_thousands_are_linear_in_its_lists(monkeypatch: pytest.MonkeyPatch) -> None:
    """One card requiring and crediting 500 others: C002 tested every pair of its prerequisites,
    C004 and C007 every line for every target, C005 searched a path from the card afresh for each
    credit, C006 and C007 read the card's whole row for each cell (5,000: 33 s). Now each is one
    pass over the card's lists, with one index of its lines and one walk from it (counted)."""
    n = 500
    prerequisites = ", ".join(f'{{card: c{i}, rule: "31.62"}}' for i in range(1, n))
    credits = ", ".join(f'{{card: c{i}, points: 5, rule: "32.212"}}' for i in range(1, n))
    added = (
        f'  - {{id: c0, name: C0, rule: "32.21", groups: [crafts], cost: 100, prerequisites: [{prerequisites}], '
        f'attributes: [], credits: [{{group: crafts, points: 10, rule: "32.212"}}, {credits}]}}\n'
    )
    added += "".join(
        f'  - {{id: c{i}, name: C{i}, rule: "32.21", groups: [crafts], cost: 5, '
        f'prerequisites: [{{card: c{i + 1}, rule: "31.62"}}], attributes: [], credits: []}}\n'
        for i in range(1, n)
    ).replace(f', prerequisites: [{{card: c{n}, rule: "31.62"}}]', ", prerequisites: []")
    found, calls = _card_checks(added, ["C002", "C004", "C005", "C006", "C007"], monkeypatch)
    assert calls["reachable"] == calls["ancestors"] == 0 and calls["closure"] == 1, calls
    assert calls["line_index"] <= len(found) + 10, calls
    codes = [d.code for d in found]
    # c1 requires c2, which requires c3...: every prerequisite of c0 after c1 is implied by c1.
    assert codes.count("C002") == n - 2
    assert codes.count("C005") == n - 1  # each specific credit goes to a prerequisite
    assert codes.count("C004") == n - 1  # the group credit and a specific credit reach each of c1...
    implied = [d for d in found if d.code == "C002"]
    assert implied[0].message == "prerequisite `c2` of `c0` is implied by its prerequisite `c1`: `c1` → `c2`"


@heavy
def test_unique_items_is_linear_and_means_what_json_schema_means() -> None:
    from civrules.schema import _validator_class

    unique = _validator_class()({"uniqueItems": True})
    assert unique.is_valid([1, True, "1", [1], {"a": 1}, {"a": True}, None, 0, False])
    for repeated in ([1, 1.0], [{"a": [1, {"b": 2}]}, {"a": [1, {"b": 2}]}], [[1, "x"], [1, "x"]]):
        assert not unique.is_valid(repeated), repeated
    mixed = [n if n % 2 else f"s{n}" for n in range(200_000)]  # unsortable: jsonschema compared all pairs
    assert unique.is_valid(mixed) and not unique.is_valid([*mixed, 7])


def test_did_you_mean_compares_a_bounded_number_of_candidates() -> None:
    """X001 asked difflib for every missing id against every id: 10,000 of each took 255 s."""
    words = [f"card_{n:05d}" for n in range(20_000)] + ["astronomy", "agriculture"]
    assert (Vocabulary(words).comparisons, Vocabulary(words).queries) == (COMPARISONS, QUERIES)  # the defaults
    vocabulary = Vocabulary(words)
    assert vocabulary.closest("astronmy") == "astronomy"
    assert len(vocabulary._candidates(len("card_00000"))) == COMPARISONS
    # The bound on distinct words, with a smaller one than QUERIES: each answer costs COMPARISONS ratios.
    bounded = Vocabulary(words, queries=40)
    assert bounded.closest("astronmy") == "astronomy"
    for n in range(40 + 10):
        bounded.closest(f"missing_{n}")
    assert len(bounded.answers) == 40  # later misspellings get no suggestion
    assert bounded.closest("astronmy") == "astronomy"  # answered before the bound: kept
    assert bounded.closest("agricultur") is None  # a new word after the bound


# --- Output bounded by the problems, not by the size of a file or the length of a line ------------


def test_quoting_a_line_reads_no_huge_file_and_follows_no_link(tmp_path: Path) -> None:
    """Text output quoted the line of a 100 MB file by reading all of it (374 MB of memory)."""
    big = tmp_path / "big.yaml"
    big.write_bytes(b"kind: map\n" + b"# padding\n" * 2000)
    link = tmp_path / "link.yaml"
    os.symlink(big, link)
    sources = SourceLines(root=tmp_path, max_bytes=1000)
    assert sources.line("big.yaml", 1) is None
    assert SourceLines(root=tmp_path).line("big.yaml", 1) == "kind: map"
    assert SourceLines(root=tmp_path).line("link.yaml", 1) is None
    text = render_text([Diagnostic("L007", Severity.ERROR, "too large", Span.at("big.yaml"))], sources)
    assert "kind: map" not in text


def test_a_long_text_aliased_into_many_wrong_places_is_not_a_subject_of_each_schema_error() -> None:
    """A schema error's message shows the value found at most 60 characters long (or only its
    length); `subjects` held it whole: a 20,000-character anchor aliased into the names of 30
    cards (a file of 21 kB) made 600 kB of `--format json` and of SARIF. What a schema error is
    about is its place, and the value where its message names it whole; a short misspelt id still
    is a subject."""
    from civrules.load import read_yaml_text
    from civrules.schema import validate_document

    long = "A" * 20_000
    cards = [f'  - {{id: c0, name: &n "{long}", rule: "32.21", groups: [crafts], cost: 1}}']
    cards += [f'  - {{id: c{i}, name: *n, rule: "32.21", groups: [crafts], cost: 1}}' for i in range(1, 30)]
    cards += ['  - {id: Bad-Id, name: Bad, rule: "32.21", groups: [crafts], cost: 1}']
    groups = 'groups:\n  - {id: crafts, name: Crafts, colour: orange, shape: square, rule: "6.1"}\n'
    text = "kind: civilization_cards\n" + groups + "cards:\n" + "\n".join(cards) + "\n"
    document, read = read_yaml_text(text, "cards/long.yaml")
    assert document is not None and read == []
    found = validate_document(document, "civilization_cards")
    named = [d for d in found if d.code == "S001" and "name" in d.message]
    assert len(named) == 30
    assert max(len(subject) for d in found for subject in d.subjects) <= 60
    assert sum(len(d.message) + sum(map(len, d.subjects)) for d in named) < 10 * 30 * 60
    assert any("Bad-Id" in d.subjects for d in found)


def test_a_long_key_aliased_into_many_places_is_quoted_cut_and_is_no_subject() -> None:
    """Messages quoting a key the data writes (a duplicate key, an unknown key) showed it whole: a
    20,000-character key, anchored once and aliased as a key into 30 cards, made 30 messages of
    20 kB each (round 24's attacker, L002: 8 MB of messages from 200 kB). The message shows the key
    cut at 60 characters, as schema errors show a value; a key shown cut is no subject."""
    from civrules.load import read_yaml_text
    from civrules.schema import validate_document

    long = "k" * 20_000
    card = '  - {{id: c{0}, name: C, rule: "32.21", groups: [crafts], cost: 1}}\n'
    # a key longer than 1,024 characters is written explicitly (`? key`), in block style
    cards = [card.format(0)[:-2] + f', ? &k "{long}" : 1}}\n']
    cards += [
        f"  - id: c{i}\n    name: C\n    rule: '32.21'\n    groups: [crafts]\n    cost: 1\n    ? *k\n    : 1\n"
        for i in range(1, 30)
    ]
    cards += [
        "  - id: c30\n    name: C\n    rule: '32.21'\n    groups: [crafts]\n    cost: 1\n"
        "    ? *k\n    : 1\n    ? *k\n    : 2\n"
    ]
    cards += [card.format(31)[:-2] + ", costt: 2}\n"]
    groups = 'groups:\n  - {id: crafts, name: Crafts, colour: orange, shape: square, rule: "6.1"}\n'
    text = "kind: civilization_cards\n" + groups + "cards:\n" + "".join(cards)
    document, read = read_yaml_text(text, "cards/long.yaml")
    assert document is not None
    assert [d.code for d in read] == ["L002"]
    found = [*read, *validate_document(document, "civilization_cards")]
    about_long = [d for d in found if "kkk" in d.message]
    assert len(about_long) == 32, [d.code for d in found]  # 31 unknown keys and the duplicate
    assert all(len(d.message) < 200 and d.subjects == () for d in about_long), about_long[0].message[:200]
    assert any(d.subjects == ("costt",) and "`costt`" in d.message for d in found)  # a short one still is


def test_json_output_is_written_record_by_record_in_the_same_format() -> None:
    """`--format json` for the 90,000 diagnostics of a file at the node bound held 526 MB: the
    indenting encoder keeps every piece of the output. Record by record, the text is the same."""
    related = (Related(Span("g.yaml", 1, 1, 1, 2), "note"),)
    found = [
        Diagnostic("X001", Severity.ERROR, 'a "quoted"\nmessage é', Span("f.yaml", 1, 2, 3, 4), "hint", related),
        Diagnostic("R004", Severity.ERROR, "no span", None),
    ]
    for diagnostics in (found, found[:1], []):
        expected = json.dumps([diagnostic_record(d) for d in diagnostics], indent=2, ensure_ascii=False) + "\n"
        assert render_json(diagnostics) == expected


def test_the_cli_lists_at_most_max_diagnostics_per_file(family_copy: Path) -> None:
    (family_copy / "rulesets" / "hostile.yaml").write_text(
        "kind: ruleset\nid: hostile\nname: H\nextends: advanced-civilization\n"
        + "".join(f"k{n}: 1\n" for n in range(5)),
        encoding="utf-8",
    )
    for limit, listed in ((None, 5), ("3", 3)):
        options = ["--max-diagnostics", limit] if limit else []
        result = CliRunner().invoke(
            main, ["--rules", str(family_copy), *options, "validate", "hostile", "--format", "json"]
        )
        found = json.loads(result.stdout)
        assert result.exit_code == 1
        assert sum(d["code"] == "S002" for d in found) == listed
        assert [d["message"] for d in found if d["code"] == "R011"] == (
            ["civrules stopped checking this file after 3 diagnostics; it has more"] if limit else []
        )


@pytest.mark.parametrize("fmt", ["json", "text", "sarif", "github"])
def test_the_whole_output_lists_at_most_ten_times_max_diagnostics(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    """19,000 unused files of a diagnostic or more each printed 57,000: the bound was per file only.
    Here 40 files of one each, at `--max-diagnostics 2`: 20 listed and one line counting the rest."""
    rules = tmp_path / "rules"
    (rules / "cards").mkdir(parents=True)
    (rules / "rulesets").mkdir()
    shutil.copyfile(RULES / "rulesets" / "imperial-settlers.yaml", rules / "rulesets" / "imperial-settlers.yaml")
    for n in range(40):
        (rules / "cards" / f"f{n:02}.yaml").write_text("x: 1\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CIVRULES_NO_SHIPPED", "1")
    result = CliRunner().invoke(main, ["--max-diagnostics", "2", "validate", "--format", fmt])
    assert result.exit_code == 1
    everything = CliRunner().invoke(main, ["--max-diagnostics", "1000", "validate", "--format", "json"])
    total = len(json.loads(everything.stdout))
    assert total > 40
    if fmt == "json":
        codes = [d["code"] for d in json.loads(result.stdout)]
    elif fmt == "sarif":
        codes = [r["ruleId"] for r in json.loads(result.stdout)["runs"][0]["results"]]
    elif fmt == "github":
        codes = re.findall(r"title=(\w+)::", result.stdout)
    else:
        codes = re.findall(r"^\S*: \w+\[(\w+)\]: ", result.stdout, re.MULTILINE)
    assert len([c for c in codes if c != "R011"]) == 20
    summary = f"{total - 20:,} more diagnostics are not listed (at most 20 in all, 10 times the 2 per file)"
    assert codes.count("R011") == 1 and summary in result.stdout
    assert f"civrules: {total} errors" in result.stdout + result.stderr or fmt != "text"


def test_a_long_line_is_quoted_as_a_window_around_the_caret() -> None:
    """One 4 MB line with 100 unknown keys printed the whole line under each: 450 MB of text."""
    from civrules.diagnostics.render import QUOTE_WIDTH, SourceLines, render_text

    line = "extra: {" + ", ".join(f"k{i}: {'x' * 10_000}" for i in range(100)) + "}"
    columns = [line.index(f"k{i}:") + 1 for i in range(100)]
    diagnostics = [
        Diagnostic("S002", Severity.ERROR, f"unknown key `k{i}`", Span("f.yaml", 1, c, 1, c + len(f"k{i}")))
        for i, c in enumerate(columns)
    ]
    out = render_text(diagnostics, SourceLines(texts={"f.yaml": line}))
    assert len(out) < 100 * (QUOTE_WIDTH + 200)
    quoted = out.splitlines()
    for i in (0, 57, 99):
        at = quoted.index(f"f.yaml:1:{columns[i]}: error[S002]: unknown key `k{i}`")
        source, caret = quoted[at + 1], quoted[at + 2]
        where = caret.index("^")
        assert source[where : where + len(f"k{i}")] == f"k{i}"
        assert caret.count("^") == len(f"k{i}")


# --- Option values too large to use are usage errors ----------------------------------------------


def test_option_values_too_large_to_use_are_usage_errors() -> None:
    result = CliRunner().invoke(main, ["--max-file-size", "1" + "0" * 30, "list"])
    assert result.exit_code == 2
    assert "--max-file-size" in result.output


@pytest.mark.parametrize("interval", ["nan", "inf", "-inf", "1e308"])
def test_watch_interval_must_be_a_number_of_seconds(interval: str) -> None:
    result = CliRunner().invoke(main, ["watch", "--interval", interval])
    assert result.exit_code == 2, result.output
    assert "--interval" in result.output
    assert "internal error" not in result.output


@pytest.mark.slow
def test_a_measured_command_reports_its_own_peak_memory_not_its_large_parents() -> None:
    """A command started from a test process that holds 300 MB reports the peak of the command
    alone: Linux gives a child started straight from it at least the parent's high-water mark.
    `make test-slow` only: peak memory is measured only there (every adversarial case in a process
    of its own, above), and this test of the measuring is two interpreters and 300 MB touched."""
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from tests.adversarial import measure\n"
        "held = bytearray(300 * 2**20)\n"
        "held[::4096] = b'x' * len(held[::4096])\n"
        "done = measure.run([sys.executable, '-c', 'pass'], cwd=Path.cwd(), env={}, timeout=60)\n"
        "print(done.returncode, done.max_rss_bytes)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, check=True)
    returncode, peak = (int(part) for part in done.stdout.split())
    assert returncode == 0
    assert peak < 100 * 2**20, f"{peak / 2**20:.0f} MB: the parent's 300 MB counted"
