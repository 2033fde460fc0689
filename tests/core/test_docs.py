"""The README and every page of docs/ are tested: each shell block runs, and shown output is checked.

A fenced `sh`/`bash`/`console`/`shell` block runs in bash (`set -e`), in a scratch folder, with the
environment's `civrules` first on the PATH and the checkout's `rules/` as the rules folder
(`CIVRULES_RULES`, read only: the test fails if a file of it changed). The blocks of one page run in
order in one scratch folder, as a reader follows them. A block that cannot run in a test carries a
visible line `*Not run in tests: why.*` before it; one that takes seconds has `<!-- slow: why -->`
and runs in `make test-slow`. `make test` runs the blocks made only of plain `civrules ...` commands
in process (click's test runner, same folder, environment and rules); `make test-slow` runs every
block in bash, those too: a block that needs a shell (`cd`, `&&`, `.`) starts one, and a fresh
interpreter for each command in it. A `text` block that shows output has `<!-- output of: COMMANDS -->`
before it: the commands run in a scratch copy of the rules, and the block must be their output,
line for line, somewhere in it.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from civrules.cli import main
from tests import shipped
from tests.budget import heavy
from tests.conftest import REPO, RULES, copy_shipped

BIN = Path(sys.executable).parent
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
SHELLS = ("sh", "bash", "console", "shell")
NOT_RUN = re.compile(r"^\*Not run in tests: .+\.\*$")
SLOW = re.compile(r"^<!-- slow: .+ -->$")
OUTPUT_OF = re.compile(r"^<!-- output of: (.+) -->$")


@dataclass(frozen=True)
class Block:
    page: Path
    line: int  # of the opening fence, from 1
    language: str
    text: str
    before: tuple[str, ...]  # the non-blank lines just above the fence, nearest last
    section: str

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(REPO)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    lines = page.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    section = ""
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("## "):
            section = line
        opened = re.match(r"^```(\w*)\s*$", line)
        if opened is None:
            index += 1
            continue
        end = index + 1
        while not lines[end].startswith("```"):
            end += 1
        before: list[str] = []
        for earlier in reversed(lines[max(0, index - 6) : index]):
            if earlier.strip():
                before.insert(0, earlier.strip())
            elif before:
                break
        found.append(Block(page, index + 1, opened.group(1), "\n".join(lines[index + 1 : end]), tuple(before), section))
        index = end + 1
    return found


def shell_blocks(page: Path) -> list[Block]:
    return [b for b in blocks(page) if b.language in SHELLS and not _marked(b, NOT_RUN)]


def _marked(block: Block, pattern: re.Pattern[str]) -> bool:
    """Whether the paragraph just above the block (joined into one line), or its last line, is the marker."""
    return bool(block.before) and bool(pattern.match(" ".join(block.before)) or pattern.match(block.before[-1]))


def _environment(scratch: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CIVRULES_NO_SHIPPED", "VIRTUAL_ENV")}
    return {
        **env,
        "PATH": f"{BIN}{os.pathsep}{env.get('PATH', '')}",
        "CIVRULES_RULES": str(RULES),
        "HOME": str(scratch / "home"),
        "NO_COLOR": "1",
    }


def _rules_digest() -> str:
    digest = hashlib.sha256()
    for path in sorted(RULES.rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(RULES).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _scratch(tmp_path: Path) -> Path:
    """A scratch folder like the checkout: the example family's tree, and the environment as `.venv`."""
    scratch = tmp_path / "checkout"
    (scratch / "home").mkdir(parents=True)
    shutil.copytree(REPO / "tests" / "families" / "example", scratch / "tests" / "families" / "example")
    (scratch / ".venv").symlink_to(BIN.parent)
    return scratch


def _run_blocks(page: Path, tmp_path: Path, *, slow: bool) -> None:
    chosen = [b for b in shell_blocks(page) if _marked(b, SLOW) == slow]
    scratch = _scratch(tmp_path)
    before = _rules_digest()
    for block in chosen:
        script = block.text.replace("/tmp/", f"{tmp_path}/")  # a page's /tmp/ folders, in the scratch one
        done = subprocess.run(
            ["bash", "-e", "-c", script],
            cwd=scratch,
            env=_environment(scratch),
            capture_output=True,
            text=True,
            check=False,
            timeout=900,
        )
        assert done.returncode == 0, f"{block.name}:\n{block.text}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    assert _rules_digest() == before, "a documented command changed the checkout's rules/"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_shell_block_runs_or_says_why_not(page: Path) -> None:
    """A shell block is run by this module, or marked; a marked one says why."""
    for block in blocks(page):
        if block.language not in SHELLS:
            continue
        assert block.text.strip(), block.name
        for line in block.before[-3:]:
            if line.startswith("<!--") and "not run" in line.lower():
                pytest.fail(f"{block.name}: say it in visible text, `*Not run in tests: why.*`")


def _with_blocks(*, slow: bool) -> list[Path]:
    return [page for page in PAGES if any(_marked(b, SLOW) == slow for b in shell_blocks(page))]


#: What a line of a block that runs in process may not hold: anything a shell would act on.
_SHELL_SYNTAX = re.compile(r"[|&;<>$`(){}*?~=\\]")


def in_process_commands(block: Block) -> list[list[str]] | None:
    """The arguments of each `civrules` command of the block, or None where a line is anything
    else (another program, a shell's syntax): that block needs a shell."""
    commands = []
    for line in block.text.splitlines():
        words = shlex.split(line, comments=True)
        if not words:
            continue
        if words[0] != "civrules" or any(_SHELL_SYNTAX.search(word) for word in words):
            return None
        commands.append(words[1:])
    return commands


def _run_in_process(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    chosen = [b for b in shell_blocks(page) if not _marked(b, SLOW)]
    scratch = _scratch(tmp_path)
    environment = _environment(scratch)
    for name in set(os.environ) - set(environment):
        monkeypatch.delenv(name)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(scratch)
    before = _rules_digest()
    for block in chosen:
        commands = in_process_commands(block)
        for arguments in commands or []:
            done = CliRunner().invoke(main, arguments)
            assert done.exit_code == 0, f"{block.name}: civrules {shlex.join(arguments)}\n{done.output[-2000:]}"
    assert _rules_digest() == before, "a documented command changed the checkout's rules/"


def _with_in_process_blocks() -> list[Path]:
    return [
        page
        for page in _with_blocks(slow=False)
        if any(in_process_commands(b) for b in shell_blocks(page) if not _marked(b, SLOW))
    ]


@pytest.mark.parametrize("page", _with_in_process_blocks(), ids=lambda p: p.name)
def test_civrules_blocks_run_in_process(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _run_in_process(page, tmp_path, monkeypatch)


def test_some_blocks_run_in_process() -> None:
    """The split above holds something: a page's plain `civrules` commands are found."""
    assert any(in_process_commands(b) for b in shell_blocks(REPO / "README.md"))
    assert in_process_commands(blocks_of_text("cd my-house && civrules validate")) is None


def blocks_of_text(text: str) -> Block:
    return Block(REPO / "README.md", 1, "sh", text, (), "")


@pytest.mark.slow
@pytest.mark.parametrize("page", _with_blocks(slow=False), ids=lambda p: p.name)
def test_shell_blocks_run(page: Path, tmp_path: Path) -> None:
    _run_blocks(page, tmp_path, slow=False)


@pytest.mark.slow
@pytest.mark.parametrize("page", _with_blocks(slow=True), ids=lambda p: p.name)
def test_slow_shell_blocks_run(page: Path, tmp_path: Path) -> None:
    _run_blocks(page, tmp_path, slow=True)


def output_blocks() -> list[Block]:
    return [b for page in PAGES for b in blocks(page) if b.before and OUTPUT_OF.match(b.before[-1])]


@pytest.mark.parametrize("block", output_blocks(), ids=lambda b: b.name)
def test_shown_output_is_what_the_commands_print(block: Block, tmp_path: Path) -> None:
    match = OUTPUT_OF.match(block.before[-1])
    assert match is not None
    copy_shipped(tmp_path / "rules")
    env = {**_environment(tmp_path), "CIVRULES_RULES": "rules", "CIVRULES_NO_SHIPPED": "1"}
    (tmp_path / "home").mkdir()
    done = subprocess.run(
        ["bash", "-c", match.group(1)], cwd=tmp_path, env=env, capture_output=True, text=True, check=False, timeout=600
    )
    printed = done.stdout + done.stderr
    assert block.text + "\n" in printed, f"{block.name}: the commands print\n{printed[:3000]}"


def test_output_blocks_are_found() -> None:
    names = {b.name for b in output_blocks()}
    assert len(names) >= 2 and all(n.startswith("README.md:") for n in names)


def test_the_whole_diff_of_the_published_game_is_current() -> None:
    """What the command line prints, in this process: the file is the diff's words, not a start's."""
    done = CliRunner().invoke(main, ["--rules", str(RULES), "diff", "expansion-project", "mega-civilization"])
    assert done.exit_code == 0, done.output
    assert done.stdout == (REPO / "docs" / "diff-expansion-project-to-mega-civilization.txt").read_text(
        encoding="utf-8"
    )


def test_the_workflows_docs_show_pass_actionlint(tmp_path: Path) -> None:
    """Each whole workflow of docs/ci.md (one with `on:` and `jobs:`) is valid for actionlint."""
    import yaml

    actionlint = shutil.which("actionlint", path=str(BIN)) or shutil.which("actionlint")
    if actionlint is None:
        pytest.fail("`actionlint` is not installed: it is a development dependency (`make setup` installs it)")

    def whole(text: str) -> bool:
        keys = set(yaml.safe_load(text) or {})
        return "jobs" in keys and bool(keys & {"on", True})  # YAML 1.1 reads the key `on` as true

    workflows = [b for b in blocks(REPO / "docs" / "ci.md") if b.language == "yaml" and whole(b.text)]
    assert workflows
    for number, block in enumerate(workflows):
        (tmp_path / f"workflow-{number}.yml").write_text(block.text + "\n", encoding="utf-8")
        done = subprocess.run(
            [actionlint, f"workflow-{number}.yml"], cwd=tmp_path, capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, f"{block.name}: {done.stdout}{done.stderr}"


def test_the_docs_pin_the_tag_make_release_makes() -> None:
    """The pre-commit and Actions examples name `v<version>`, the tag `make release` makes of the
    version in compiler/civrules/__init__.py (and `civrules init` writes), never a placeholder."""
    from civrules import __version__

    text = (REPO / "docs" / "ci.md").read_text(encoding="utf-8")
    pins = re.findall(r"rev: (\S+)|civrules@(v[^\"\s]+)", text)
    assert pins, "docs/ci.md names no release"
    assert {rev or tag for rev, tag in pins} == {f"v{__version__}"}


def test_the_engine_of_every_ruleset_of_a_family_runs_on_each_package_the_docs_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """docs/engine.md's engine typed against the family's protocol "runs unchanged on
    `advanced_civilization`, `expansion_project`, `mega_civilization`": its ``cheapest`` raised
    UnknownFactError on the Expansion Project (and Central America), whose sources give no card's
    cost. The block runs here on every package the sentence names."""
    text = (REPO / "docs" / "engine.md").read_text(encoding="utf-8")
    block = next(
        b for b in re.findall(r"```python\n(.*?)```", text, re.S) if "def cheapest(rules: RulesetPackage)" in b
    )
    sentence = text[text.index(block) :].split("Each family has its runtime")[0]
    named = re.findall(r"`(\w+)`", sentence.split("runs unchanged on", 1)[1].split("…")[0])
    assert {"advanced_civilization", "expansion_project", "mega_civilization"} <= set(named)
    monkeypatch.syspath_prepend(str(REPO / "generated" / "python"))
    import importlib

    scope: dict[str, object] = {}
    exec(compile(block, "docs/engine.md", "exec"), scope)
    cheapest = scope["cheapest"]
    for name in named:
        package = importlib.import_module(f"civrules_rulesets.{name}")
        costs = [card.cost for card in package.CARDS.values() if card.cost is not None]
        assert cheapest(package) == min(costs, default=None), name  # type: ignore[operator]


def test_the_install_docs_name_the_build_backend_pip_needs_and_the_offline_ways() -> None:
    """docs/engine.md said a package needs the standard library and its runtimes, "nothing else",
    yet `pip install --no-index` of one fails: pip fetches the build backend every generated
    pyproject.toml names. The install section names it, and the offline ways (no build isolation
    where it is installed, or wheels built once), for whatever backend the emitter writes."""
    from civrules.emit.pyproject import BUILD_SYSTEM

    text = (REPO / "docs" / "engine.md").read_text(encoding="utf-8")
    start = text.index("\n## Install\n")
    install = text[start : text.index("\n## ", start + 1)]
    backend = re.split(r"[<>=!~ ]", BUILD_SYSTEM["requires"][0])[0]
    assert backend in install and BUILD_SYSTEM["requires"][0] in install
    assert "--no-build-isolation" in install and "pip wheel" in install and "--find-links" in install
    assert "nothing else" not in install or "At run time" in install


def test_the_pin_examples_accept_the_package_the_project_publishes() -> None:
    """docs/engine.md's "Pin a ruleset" showed `>=2.0,<3`, `==2.0.0` and an assertion of major
    version 2 while the committed package was 3.x: pasted as written, the range installs nothing
    and the assertion fails. The examples name the version of the committed package."""
    package = REPO / "generated" / "python" / "civrules_rulesets" / "advanced_civilization" / "__init__.py"
    (version,) = re.findall(
        r'^__version__(?:: Final(?:\[str\])?)? = "([0-9.]+)"$', package.read_text(encoding="utf-8"), re.MULTILINE
    )
    major = version.split(".")[0]
    text = (REPO / "docs" / "engine.md").read_text(encoding="utf-8")
    start = text.index("\n## Pin a ruleset\n")
    pins = text[start : text.index("\n## ", start + 1)] if "\n## " in text[start + 1 :] else text[start:]
    ranges = re.findall(r"civrules-rulesets-advanced-civilization>=([0-9]+)\.0,<([0-9]+)", pins)
    exact = re.findall(r"civrules-rulesets-advanced-civilization==([0-9.]+)", pins)
    asserted = re.findall(r'__version__\.split\("\."\)\[0\] == "([0-9]+)", "written for version ([0-9]+)', pins)
    assert ranges and exact and asserted
    assert all(low == major and int(high) == int(major) + 1 for low, high in ranges), (ranges, version)
    assert all(pinned.split(".")[0] == major for pinned in exact), (exact, version)
    assert all(one == two == major for one, two in asserted), (asserted, version)


def _is_environ(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "environ"


def _variables_read(node: ast.AST) -> list[ast.expr]:
    """The expressions naming an environment variable ``node`` reads: ``os.environ.get(X)``,
    ``os.getenv(X)``, ``os.environ[X]``, ``X in os.environ``, click's ``envvar=X``, and
    ``environment.flag(X)`` or ``environment.written(X)`` (civrules.support.environment, whose own
    reads are of the name it is given)."""
    if isinstance(node, ast.Call):
        read = [keyword.value for keyword in node.keywords if keyword.arg == "envvar"]
        function = node.func
        if (
            isinstance(function, ast.Attribute)
            and isinstance(function.value, ast.Name)
            and function.value.id == "environment"
            and function.attr in ("flag", "written")
        ):
            return read + node.args[:1]
        getting = isinstance(function, ast.Attribute) and (
            (function.attr == "get" and _is_environ(function.value)) or function.attr == "getenv"
        )
        return read + node.args[:1] if getting else read
    if isinstance(node, ast.Subscript) and _is_environ(node.value) and isinstance(node.ctx, ast.Load):
        return [node.slice]
    if isinstance(node, ast.Compare) and any(_is_environ(c) for c in node.comparators):
        return [node.left]
    return []


def _environment_reads() -> dict[str, str]:
    """Each environment variable civrules' code reads, by name: where it is first read."""
    found: dict[str, str] = {}
    for path in sorted((REPO / "compiler" / "civrules").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if "_generated" in path.parts or path.name == "environment.py" or not re.search(r"environ|getenv|envvar", text):
            continue  # most modules: not parsed (the package's ASTs are seconds of CPU)
        tree = ast.parse(text)
        constants = {
            target.id: statement.value.value
            for statement in tree.body
            if isinstance(statement, ast.Assign)
            and isinstance(statement.value, ast.Constant)
            and isinstance(statement.value.value, str)
            for target in statement.targets
            if isinstance(target, ast.Name)
        }
        for node in ast.walk(tree):
            for expression in _variables_read(node):
                if isinstance(expression, ast.Constant) and isinstance(expression.value, str):
                    name = expression.value
                else:
                    name = constants.get(expression.id, "") if isinstance(expression, ast.Name) else ""
                assert name, f"{path}:{expression.lineno}: an environment variable read by no name the test knows"
                found.setdefault(name, f"{path.relative_to(REPO)}:{expression.lineno}")
    return found


def test_every_environment_variable_civrules_reads_is_documented_and_none_is_a_test_hook() -> None:
    """A test hook read in every run (CIVRULES_TEST_WRITE_DELAY: `inf` an internal error, `100000` a
    build that hangs) is a way to break civrules from the environment: the test suite sets what it
    needs in the processes it starts, and what a user may set is in the README."""
    reads = _environment_reads()
    assert {"CIVRULES_RULES", "CIVRULES_CACHE_DIR", "NO_COLOR"} <= set(reads)  # the walk finds them
    hooks = {name: where for name, where in reads.items() if "TEST" in name or "DEBUG" in name}
    assert hooks == {}
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    undocumented = {name: where for name, where in reads.items() if not re.search(rf"\b{name}\b", readme)}
    assert undocumented == {}


def _synopses() -> dict[str, list[str]]:
    """The README's synopsis of each command ("Using it"), by command: its lines, comments left out."""
    (block,) = [b for b in blocks(REPO / "README.md") if b.section == "## Using it" and b.language == "text"][:1]
    found: dict[str, list[str]] = {}
    for line in block.text.splitlines():
        words = line.split("#", 1)[0].split()
        assert words[0] == "civrules", line
        found.setdefault(words[1], []).append(" ".join(words[2:]))
    return found


def test_the_readme_synopsis_of_each_command_names_its_options_and_their_choices() -> None:
    """The synopsis of `validate` left out `-v/--verbose`, which `make` names first ("--verbose lists
    them"): each command's synopsis names every option of its own (the global ones are listed
    below it) and, for an option of fixed choices, exactly those choices."""
    import click

    synopses = _synopses()
    assert sorted(synopses) == sorted(main.commands)
    common = {name for parameter in main.params for name in parameter.opts + parameter.secondary_opts}
    for name, command in main.commands.items():
        text = " ".join(synopses[name])
        options = [p for p in command.params if isinstance(p, click.Option) and not set(p.opts) & common]
        written = set(re.findall(r"(?<![\w-])(--?[a-z][a-z-]*)", text))
        assert written == {o for p in options for o in p.opts}, f"civrules {name}: {text}"
        for option in options:
            if isinstance(option.type, click.Choice):
                given = re.search(rf"{re.escape(option.opts[-1])} ([\w|]+)", text)
                assert given is not None, f"civrules {name} {option.opts[-1]}: its choices are not shown"
                assert given.group(1).split("|") == list(option.type.choices), f"civrules {name}: {text}"


def test_the_readme_synopsis_of_each_command_names_its_arguments_as_its_help_does() -> None:
    """The synopsis of `diff` read `RULESET_A RULESET_B` (and "what B changes relative to A") where
    `civrules diff --help` and R014 say `OLD NEW`: each argument is written as the command's usage
    line names it (a list of them in the singular, `DIRECTORY` as `DIR`)."""
    import click

    synopses = _synopses()
    for name, command in main.commands.items():
        text = " ".join(synopses[name])
        for argument in (p for p in command.params if isinstance(p, click.Argument)):
            word = (argument.name or "").upper()
            word = "DIR" if word == "DIRECTORY" else word.removesuffix("S") if argument.nargs == -1 else word
            assert re.search(rf"(?<![\w-]){word}(?![\w-])", text), f"civrules {name}: {word} not in {text}"


def _readme_section(title: str) -> str:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else len(text)]


def test_the_data_sources_section_has_a_subsection_for_every_family() -> None:
    """README's "Data sources and known gaps" had subsections for the Advanced Civilization family's
    rulesets only: Sid Meier's Civilization and Imperial Settlers, added later, had neither their
    sources nor their gaps nor their recorded disagreements there. Every family of the shipped
    rulesets has a subsection whose heading names one of its rulesets."""
    families: dict[str, set[str]] = {}
    for manifest in shipped.manifests():
        text = manifest.read_text(encoding="utf-8")  # the header keys only: no YAML parse of the tree
        family = re.search(r"^family: *([a-z0-9-]+)", text, flags=re.MULTILINE)
        ruleset = re.search(r"^id: *([a-z0-9-]+)", text, flags=re.MULTILINE)
        assert ruleset is not None, manifest
        families.setdefault(family.group(1) if family else "advanced-civilization", set()).add(ruleset.group(1))
    section = _readme_section("Data sources and known gaps")
    headings = re.findall(r"^### (.*)$", section, flags=re.MULTILINE)
    named = {ruleset for heading in headings for ruleset in re.findall(r"`([a-z0-9-]+)`", heading)}
    assert not {family for family, rulesets in families.items() if not rulesets & named}


def test_the_data_sources_section_names_every_rulebook_text_the_data_cites() -> None:
    """The section's opening spoke of one rulebook text (English and Italian) and of citations as
    `rule: "NN.NN"`, false for the families cited by page and heading from Portuguese rulebooks."""
    section = _readme_section("Data sources and known gaps")
    opening = section[: section.index("\n### ")]
    sources = {
        Path(found).name
        for index in shipped.yaml_files("rulebooks")
        for found in re.findall(r'^  source_file: "([^"]+)"', index.read_text(encoding="utf-8"), flags=re.MULTILINE)
    }
    assert sources and all(source in opening for source in sources), sources


def test_the_player_aids_table_names_every_sheet_and_its_family() -> None:
    """README's table of player aids lacked four of Imperial Settlers' six sheets (the faction
    cards, the faction boards, the solo game, the deck-building checklist) and the index every
    ruleset has, and said which game a sheet is for only of some rows: a player printing aids could
    not find them. Every sheet a build writes has a row naming its family; no row names another."""
    from civrules.emit.sheets.render import INDEX, registered
    from civrules.families import family_named

    section = _readme_section("Player aids")
    rows = dict(re.findall(r"^\| `([a-z-]+\.html)` \| ([^|]+) \|", section, flags=re.MULTILINE))
    expected = {INDEX.file: "every ruleset"}
    for sheet in registered():
        owner = family_named(sheet.family) if sheet.family is not None else None
        expected[sheet.file] = (
            "every variant" if sheet.variant_only else "every ruleset" if owner is None else owner.name.split(":")[0]
        )
    assert rows == expected


def test_the_export_table_has_a_row_for_every_family_with_what_it_derives() -> None:
    """README's table of what `civrules export` gives per family had no Imperial Settlers row (its
    export was told under "Variants"): each family has a row naming every key its `export` adds."""
    from civrules.families import families
    from civrules.pipeline import derived_facts
    from tests.rulefiles import shipped_analysis

    text = (REPO / "README.md").read_text(encoding="utf-8")
    start = text.index("\n### What `civrules export` gives, per family\n")
    section = text[start : text.index("\n## ", start)]
    rows = dict(re.findall(r"^\| `([a-z-]+)` \| [^\n]*? \| ([^\n]*) \|$", section, flags=re.MULTILINE))
    assert set(rows) == set(families())
    for family_id in families():
        model = shipped_analysis(family_id).model  # each shipped family has a base ruleset of its id
        assert model is not None
        for key in derived_facts(model):
            assert f"`{key}`" in rows[family_id], (family_id, key)


def test_the_guide_to_checks_names_every_letter_a_code_may_begin_with() -> None:
    """docs/writing-checks.md said codes take a letter "by concern" and named Advanced
    Civilization's and some of the core's: not `L`, `S` or `R`, nor the other families' `F` and `T`,
    so a newcomer writing a family's first check could not tell that its letter is the family's."""
    from civrules.families import CORE_PREFIXES, families

    page = (REPO / "docs" / "writing-checks.md").read_text(encoding="utf-8")
    section = page[page.index("\n## Codes\n") :]
    section = section[: section.index("\n## ", 1)]
    letters = {*CORE_PREFIXES, "E"}  # E: the example family of docs/families.md
    for family in families().values():
        letters.update(family.code_prefixes)
    assert {letter for letter in letters if f"`{letter}`" not in section} == set()


def test_the_editors_hover_names_what_each_family_shows() -> None:
    """docs/editors.md's hover listed Advanced Civilization's collections and the facts of its
    cards (cost, groups, credits) as what every hover shows: an Imperial Settlers or Sid Meier's
    designer was promised fields their game has not. The bullet names each family and the first
    collection hover each declares, field by field."""
    from civrules.families import families

    page = (REPO / "docs" / "editors.md").read_text(encoding="utf-8")
    bullet = page[page.index("- **Hover**") : page.index("- **Go to definition**")]
    bullet = " ".join(bullet.split())
    for family in families().values():
        assert family.name.split(":")[0] in bullet, family.id
        facts = next(spec.hover.facts for spec in family.collections.values() if spec.hover.facts)
        said = {field for field in facts if field.replace("_", " ") in bullet or field in bullet}
        assert said == set(facts), (family.id, facts)


# A path of this project named in prose: `tests/core/test_docs.py`, `docs/ci.md`. One that follows
# `@commit:` is a file of another repository (a citation of a transcription), not this project's.
PROJECT_PATH = re.compile(r"(?<![\w/.:@<>-])((?:tests|compiler|docs)/[\w/.-]*\w\.(?:py|md|yaml|toml|json|j2))\b")
# What a reader is sent to from: the docs, the code and its docstrings, the rule data and everything
# built from it (the packages an engine developer reads, the pages a player opens). CHANGELOG.md and
# bench/README.md are history: they name files as they were then.
NAMING = ("README.md", "pyproject.toml", "Makefile", "docs", "compiler", "tests", "rules", "generated")
NAMING_SUFFIXES = {".md", ".py", ".toml", ".yaml", ".j2", ".html", ""}


def _files_naming_paths() -> list[Path]:
    found = []
    for name in NAMING:
        top = REPO / name
        walked = [top] if top.is_file() else sorted(p for p in top.rglob("*") if p.is_file())
        found += [
            p
            for p in walked
            if p.suffix in NAMING_SUFFIXES
            and not {".venv", "__pycache__", "data"} & set(p.relative_to(REPO).parts[:-1])
            and "_generated" not in p.parts
        ]
    return found


@heavy
def test_every_file_of_the_project_the_docs_code_and_data_name_exists() -> None:
    """A newcomer (round 27) followed docs/reference.md's header to test_reference.py directly under
    tests/, and an engine developer a package's note to test_credits.py there: both had moved into
    tests/'s folders. Every path of this project named where a reader is sent from is a file."""
    missing = []
    for path in _files_naming_paths():
        text = path.read_text(encoding="utf-8", errors="replace")
        for match in PROJECT_PATH.finditer(text):
            named = match.group(1)
            if not (REPO / named).exists() and not (REPO / "compiler" / named).exists():
                line = text.count("\n", 0, match.start()) + 1
                missing.append(f"{path.relative_to(REPO)}:{line}: {named}")
    assert not missing, "files named that do not exist:\n" + "\n".join(sorted(set(missing)))


FRACTIONS = {"half": 1 / 2, "third": 1 / 3, "quarter": 1 / 4, "fifth": 1 / 5, "tenth": 1 / 10, "twentieth": 1 / 20}


def test_the_readme_performance_summary_is_what_the_bench_recorded() -> None:
    """README's "In short" under Performance quotes `bench/results.json`, as `make bench-record` left
    it: the share of check-jsonschema's time a whole `validate` takes, and what a no-op `build` takes.
    It said a fifth and 0.1 s where the recording read 0.10x and 139 ms."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    summary = " ".join(readme.split("## Performance", 1)[1].split("\n## ", 1)[0].split())
    recorded = json.loads((REPO / "bench" / "results.json").read_text(encoding="utf-8"))["whole_process"]
    share = re.search(r"about an? (\w+) of check-jsonschema's time", summary)
    assert share is not None and share.group(1) in FRACTIONS, summary
    ratio = recorded["ratios"]["validate_vs_check_jsonschema"]
    assert abs(ratio - FRACTIONS[share.group(1)]) <= 0.25 * FRACTIONS[share.group(1)], (share.group(0), ratio)
    noop = re.search(r"unchanged `civrules build` returns in (?:about )?([\d.]+) s", summary)
    assert noop is not None, summary
    assert abs(float(noop.group(1)) - recorded["noop_build"]["median"]) <= 0.25 * recorded["noop_build"]["median"]


def test_the_readme_states_the_test_budgets_tests_budget_py_holds() -> None:
    """The README's summary of the fast suite's budget names `tests/budget.py`'s numbers. It said "at
    most 90 interpreters and 70 Chromium tabs" after round 32 set the budgets to 58 and 63, so a
    newcomer read a limit the suite no longer has."""
    from tests import budget

    readme = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    said = re.search(
        r"a fast test starts at most (\w+) Python interpreters, and the fast suite at most (\d+) interpreters"
        r" and (\d+) Chromium tabs",
        readme,
    )
    assert said is not None, "the README no longer summarises the budget in the words this test reads"
    words = {"one": 1, "two": 2, "three": 3}
    assert words.get(said.group(1)) == budget.INTERPRETERS_PER_TEST, said.group(0)
    assert (int(said.group(2)), int(said.group(3))) == (budget.SUITE_INTERPRETERS, budget.SUITE_TABS), said.group(0)


SHOWN_INFO = re.compile(r"^(?:\$ )?rules/rulesets/([a-z0-9-]+)\.yaml:\d+:\d+: info\[\w+\]: .+$")
SHOWN_RUN = re.compile(r"^\$ civrules (?:watch|validate) ([a-z0-9-]+)$")
SHOWN_CLEAN_SUMMARY = re.compile(r"^civrules: 0 errors, 0 warnings, (\d+) infos?\b")


@functools.cache
def _validate_in_process(ruleset: str) -> tuple[str, ...]:
    """What `civrules validate RULESET --verbose` prints on the shipped rules (in process)."""
    done = CliRunner().invoke(main, ["--rules", str(RULES), "validate", ruleset, "--verbose"], env={"NO_COLOR": "1"})
    assert done.exit_code == 0, done.output
    return tuple(done.output.splitlines())


def test_shown_infos_and_clean_summaries_of_the_shipped_rules_are_what_validate_prints() -> None:
    """docs/editors.md's `watch` session (a block not run in tests) showed `advanced-civilization`
    with 58 unknown facts and 63 infos after the data had 50 and 55: an info a page shows of a
    shipped ruleset's manifest, in any block, must be a line `validate RULESET --verbose` prints now,
    and a clean summary shown right after `$ civrules watch|validate RULESET` must count its infos."""
    shown = 0
    for page in PAGES:
        for block in blocks(page):
            lines = block.text.splitlines()
            for line in lines:
                info = SHOWN_INFO.match(line)
                if info:
                    shown += 1
                    assert line.removeprefix("$ ") in _validate_in_process(info.group(1)), f"{block.name}: {line}"
            run = SHOWN_RUN.match(lines[0]) if lines else None
            summary = next((SHOWN_CLEAN_SUMMARY.match(s) for s in lines if s.startswith("civrules: ")), None)
            if run and summary:
                shown += 1
                counted = re.search(r"(\d+) infos?\b", _validate_in_process(run.group(1))[-1])
                assert counted and counted.group(1) == summary.group(1), f"{block.name}: validate counts {counted}"
    assert shown >= 2


_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
_CELL_BAR = re.compile(r"(?<!\\)\|")


def table_cells(line: str) -> list[str]:
    """A Markdown table row's cells as GitHub splits them: at every `|` not escaped as `\\|`, a bar
    in a code span too (GitHub splits the row before it reads code spans)."""
    row = line.strip()
    row = row[1:] if row.startswith("|") else row
    row = row[:-1] if row.endswith("|") and not row.endswith("\\|") else row
    return [cell.strip() for cell in _CELL_BAR.split(row)]


def ragged_rows(text: str) -> list[tuple[int, int, int]]:
    """(line, cells, the header's cells) of each table row whose cells are not its header's."""
    lines = text.splitlines()
    found = []
    for at in range(len(lines) - 1):
        if not (lines[at].lstrip().startswith("|") and _TABLE_RULE.match(lines[at + 1])):
            continue
        width = len(table_cells(lines[at]))
        row = at + 2
        while row < len(lines) and lines[row].lstrip().startswith("|"):
            if len(table_cells(lines[row])) != width:
                found.append((row + 1, len(table_cells(lines[row])), width))
            row += 1
    return found


def test_a_row_with_a_cell_too_many_or_too_few_is_found() -> None:
    table = "| a | b |\n| --- | --- |\n| 1 || 2 |\n| `x\\|y` | 3 |\n| `x|y` | 3 |\n| 4 | 5 |\n"
    assert ragged_rows(table) == [(3, 3, 2), (5, 3, 2)]


def test_every_table_row_has_as_many_cells_as_its_header() -> None:
    """An auditor (round 30) found the README's count of unknown facts for
    `sid-meiers-civilization-community` in a fifth cell (`... separated || 1 |`), which GitHub does not
    show under a header of four, and an audit's row split by an unescaped `|` in a border's name:
    every table of the project's Markdown has rows of its header's width."""
    pages = [
        page
        for page in sorted(REPO.rglob("*.md"))
        if not {".venv", "node_modules", "__pycache__", ".git"} & set(page.relative_to(REPO).parts)
    ]
    assert REPO / "README.md" in pages
    ragged = [
        f"{page.relative_to(REPO)}:{line}: {cells} cells under a header of {width}"
        for page in pages
        for line, cells, width in ragged_rows(page.read_text(encoding="utf-8"))
    ]
    assert not ragged, "table rows of another width than their header:\n" + "\n".join(ragged)


def test_the_gitlab_job_writes_a_code_quality_report_of_the_repository_s_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/ci.md's GitLab job: its civrules command, run on a rules folder with an error and a
    warning, writes the report the job's `artifacts: reports: codequality` names, one issue per
    error and warning, each naming a file of the repository; and what is no file's (a misspelt
    ruleset) goes to the job's log, the report still a document."""
    import shlex

    import yaml

    (job,) = [b for b in blocks(REPO / "docs" / "ci.md") if "gl-code-quality-report.json" in b.text]
    parsed = yaml.safe_load(job.text)["civrules"]
    (step,) = [step for step in parsed["script"] if step.startswith("civrules validate")]
    words, _, report = step.partition(" > ")
    assert report == parsed["artifacts"]["reports"]["codequality"] and parsed["artifacts"]["when"] == "always"
    rules = tmp_path / "rules"
    (rules / "rulesets").mkdir(parents=True)
    (rules / "rulesets" / "house.yaml").write_text('kind: ruleset\nid: house\nname: "House"\nextends: nope\n', "utf-8")
    (rules / "cards").mkdir()
    shutil.copy(RULES / "cards" / "central-america-commodities.yaml", rules / "cards" / "extra.yaml")  # unused: R005
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CIVRULES_NO_SHIPPED", raising=False)
    ran = CliRunner().invoke(main, shlex.split(words)[1:])
    assert ran.exit_code == 1, ran.output
    issues = json.loads(ran.stdout)
    assert {(i["check_name"], i["severity"]) for i in issues} == {("V001", "major"), ("R005", "minor")}
    assert all((tmp_path / i["location"]["path"]).is_file() for i in issues)
    misspelt = CliRunner().invoke(main, [*shlex.split(words)[1:], "nope"])
    assert misspelt.exit_code == 2 and json.loads(misspelt.stdout) == []
    assert "error[R001]: no ruleset `nope`" in misspelt.stderr
