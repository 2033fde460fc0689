"""civrules benchmarks: the parse floor, a peer (check-jsonschema), validate, build, a no-op build,
importing a generated package, growth with size, and the language server under editor traffic.
``make bench`` runs it; ``--check`` is the fast regression guard CI runs.

Every figure is the median of repeated runs (with min and max), measured in one run on the same
files, and reported as a ratio to the parse floor (in-process) or to check-jsonschema
(whole-process), so that the figures compare across machines. Results go to bench/out/results.json
(not tracked); ``--record`` writes bench/results.json, the recorded figures ``--check`` compares with.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import yaml  # noqa: E402

from bench import incremental, lsp, plot, report, shapes, synth_family  # noqa: E402
from bench.synth import generate  # noqa: E402
from civrules.emit.build import build_rulesets  # noqa: E402
from civrules.emit.output import read_tree  # noqa: E402
from civrules.emit.packaging import import_name  # noqa: E402
from civrules.load.workspace import Workspace  # noqa: E402
from civrules.pipeline import analyse  # noqa: E402
from civrules.schema import SCHEMA_FILES, schema_dir  # noqa: E402
from civrules.support import collector, memo  # noqa: E402

BIN = Path(sys.executable).parent
RESULTS = REPO / "bench" / "results.json"  # recorded (tracked): what --check compares against
OUT = REPO / "bench" / "out" / "results.json"  # a run's results (ignored by git)


def timed(action: Callable[[], object], repeat: int) -> dict[str, float]:
    """Median, min and max wall time of ``repeat`` runs (after one warm-up run), in seconds."""
    action()
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return {"median": statistics.median(times), "min": min(times), "max": max(times), "runs": repeat}


def timed_in_process(actions: dict[str, Callable[[], object]], repeat: int) -> dict[str, dict[str, float]]:
    """:func:`timed` for work run inside this process (the parse floor, validate, build), each action's
    figures by its name: the actions take turns, one run of each per round (after one warm-up round),
    so that a slow minute of the machine falls on all of them alike and their ratios hold; each run
    is made under the garbage collector's pace a civrules command sets for itself
    (:func:`civrules.support.collector.for_a_run`) and from the same heap (the cycles an earlier run
    left are collected before each run, untimed; a command's process never collects them), with
    nothing kept of the runs before (:func:`civrules.support.memo.forget`: a map's picture and labels,
    the group marks, a data module's large statements, which a repeated build in one process would
    otherwise take from the previous run instead of making them as a fresh process does).

    Measured one after another at Python's default pace, the figures depended on what this process
    held and on the minute, not on the work: a full collection walks the whole heap, which grows with
    every section measured before. The parse floor of mega-civilization's five files was recorded at
    55.6 ms median and 36 ms fastest; it is 29-37 ms at a fixed pace (issue 32, point 3)."""
    times: dict[str, list[float]] = {name: [] for name in actions}
    thresholds = gc.get_threshold()
    collector.for_a_run()
    try:
        for round_ in range(repeat + 1):
            for name, action in actions.items():
                memo.forget()
                gc.collect()
                started = time.perf_counter()
                action()
                if round_:  # the first round warms up
                    times[name].append(time.perf_counter() - started)
    finally:
        gc.set_threshold(*thresholds)
    return {
        name: {"median": statistics.median(runs), "min": min(runs), "max": max(runs), "runs": repeat}
        for name, runs in times.items()
    }


def process(command: list[str], env: dict[str, str] | None = None) -> Callable[[], object]:
    def run() -> object:
        done = subprocess.run(command, capture_output=True, env=env, cwd=REPO, check=False)
        if done.returncode not in (0, 1):
            raise RuntimeError(f"{command} failed: {done.stderr.decode()[-500:]}")
        return done

    return run


def ruleset_files(rules: Path, ruleset: str) -> list[tuple[str, Path]]:
    """(kind, path) of every file a ruleset reads, its manifest and rule index included."""
    workspace = Workspace(rules)
    loaded = workspace.load_ruleset(workspace.manifests()[ruleset])
    manifest_kind = "ruleset" if loaded.family.default else f"{loaded.family.id}/ruleset"
    found = [(manifest_kind, rules / "rulesets" / Path(loaded.manifest.file.path).name)]
    for files in loaded.files.values():
        for one in files:
            assert one.kind is not None
            found.append((one.kind, Path(one.path) if Path(one.path).is_absolute() else REPO / one.path))
    return found


def largest_ruleset(rules: Path, family: str | None = None) -> str:
    """The ruleset whose files are largest (of ``family`` only, where one is given)."""
    workspace = Workspace(rules)
    manifests = workspace.manifests()
    sizes = {
        name: sum(path.stat().st_size for _, path in ruleset_files(rules, name))
        for name, manifest in manifests.items()
        if family is None or manifest.family.id == family
    }
    return max(sorted(sizes), key=lambda name: sizes[name])


def per_family(rules: Path, tmp: Path, repeat: int) -> dict[str, Any]:
    """The in-process figures of each family's largest ruleset: every family's checks, model and
    outputs are measured, not only the largest ruleset's family's."""
    families = sorted({manifest.family.id for manifest in Workspace(rules).manifests().values()})
    found: dict[str, Any] = {}
    for family in families:
        ruleset = largest_ruleset(rules, family)
        ten = synthetic(tmp / "10x", family, 10)
        found[family] = {
            "ruleset": ruleset,
            "in_process": in_process(rules, ruleset, tmp / family, repeat, write_floor=False),
            "whole_process": whole_process(rules, ruleset, tmp / f"{family}-whole", repeat),
            # Issue 32, point 5: whole-process validate against check-jsonschema at 10x too.
            "whole_process_10x": whole_process(ten, "synthetic", tmp / f"{family}-whole-10x", max(3, repeat // 2)),
        }
    return found


def peak_rss(command: list[str]) -> float:
    """Peak resident memory of a child process, in MB."""
    script = (
        "import resource, subprocess, sys\n"
        "subprocess.run(sys.argv[1:], capture_output=True)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    done = subprocess.run([sys.executable, "-c", script, *command], capture_output=True, text=True, check=True)
    return int(done.stdout.strip()) / 1024


def in_process_actions(
    rules: Path, ruleset: str, out: Path, *, write_floor: bool = True
) -> dict[str, Callable[[], object]]:
    """Point 3's actions on ``ruleset``: the parse floor, ``validate``, ``validate`` + ``build``
    into ``out``, and (``write_floor``) the durable write floor, by the name of their figure.

    ``validate`` + ``build`` is :func:`build_in_process`: what ``civrules --rules RULES build
    RULESET --out OUT`` does in its process once its options are read. From its second run on,
    ``out`` holds what it writes, so each run is a rebuild of unchanged rules (the stamp that would
    tell the command so is not asked).

    The write floor (:func:`durable_write`) puts the very files the build wrote into ``out`` (read
    back once, after the build's first run) in the place of a folder beside it, every file made,
    written and synced anew: what writing the build's tree durably costs with no rendering. It is
    the least a first build (or one that changes every file) could cost after the parse; a rebuild
    keeps the old tree's files that it would write with the same bytes (hard links, synced, see
    :mod:`civrules.emit.output`), so the build measured here may write for less than this floor."""
    files = [path for _, path in ruleset_files(rules, ruleset)]

    def floor() -> None:
        for path in files:
            yaml.load(path.read_bytes(), Loader=yaml.CSafeLoader)

    def validate() -> None:
        workspace = Workspace(rules)
        analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset]))

    def validate_and_build() -> None:
        build_in_process(rules, ruleset, out)

    built: dict[str, bytes] = {}

    def write() -> None:
        if not built:  # the warm-up round's: the build has written ``out`` by now
            built.update(read_tree(out))
        durable_write(out.with_name(f"{out.name}-write-floor"), built)

    actions: dict[str, Callable[[], object]] = {
        "parse_floor": floor,
        "validate": validate,
        "validate_build": validate_and_build,
    }
    if write_floor:
        actions["write_floor"] = write
    return actions


def build_in_process(rules: Path, ruleset: str, out: Path) -> None:
    """What ``civrules --rules RULES build RULESET --out OUT`` does in its process once it has read
    its options and found its stamp stale, with the command's defaults: the ruleset loaded, then
    :func:`civrules.emit.build.build_rulesets`, the function the command calls (each file written
    into the staging tree as it is made, then the tree swapped in). Raises RuntimeError when the
    ruleset does not build."""
    workspace = Workspace(rules)
    loaded = [workspace.load_ruleset(workspace.manifests()[ruleset])]
    result, _ = build_rulesets(rules, out, workspace, loaded, everything=False)
    if result.failed:
        errors = [d for d in result.diagnostics if d.severity == "error"]
        raise RuntimeError(f"{ruleset} does not build: {errors[:3]}")


#: The threads :func:`durable_write` syncs on: as many as a build's (civrules.emit.output._THREADS),
#: whose syncs share the journal's commits; one by one, the floor's wall time was above the build's.
WRITE_FLOOR_THREADS = 4


def durable_write(root: Path, tree: Mapping[str, bytes]) -> None:
    """Put ``tree`` (relative POSIX path: bytes) in the place of the folder ``root`` as durably as a
    build does, with the least code: every file and every folder synced once (the files' syncs on
    :data:`WRITE_FLOOR_THREADS` threads, as a build's are), the new tree renamed in and the old one
    deleted; no rendering, no checks of the place."""
    staging = root.with_name(f"{root.name}.new")
    folders = {staging}
    for relative in tree:
        folder = (staging / relative).parent
        while folder not in folders:
            folders.add(folder)
            folder = folder.parent
    for folder in sorted(folders, key=lambda path: len(path.parts)):
        folder.mkdir()
    descriptors = []
    try:
        for relative, data in tree.items():
            descriptors.append(os.open(staging / relative, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
            view = memoryview(data)
            while view:
                view = view[os.write(descriptors[-1], view) :]
        descriptors.extend(os.open(folder, os.O_RDONLY) for folder in folders)
        with ThreadPoolExecutor(WRITE_FLOOR_THREADS) as pool:
            for _ in pool.map(os.fsync, descriptors):
                pass
    finally:
        for descriptor in descriptors:
            os.close(descriptor)
    if root.is_dir():
        old = root.with_name(f"{root.name}.old")
        root.rename(old)
        staging.rename(root)
        shutil.rmtree(old)
    else:
        staging.rename(root)


def in_process(rules: Path, ruleset: str, out: Path, repeat: int, *, write_floor: bool = True) -> dict[str, Any]:
    figures: dict[str, Any] = timed_in_process(in_process_actions(rules, ruleset, out, write_floor=write_floor), repeat)
    base = figures["parse_floor"]["median"]
    figures["ratios"] = {
        "validate": figures["validate"]["median"] / base,
        "validate_build": figures["validate_build"]["median"] / base,
    }
    if write_floor:
        # What a build costs against the least it could: the parse and the durable write of its tree.
        floors = base + figures["write_floor"]["median"]
        figures["ratios"]["validate_build_vs_floors"] = figures["validate_build"]["median"] / floors
    return figures


def whole_process(rules: Path, ruleset: str, tmp: Path, repeat: int) -> dict[str, Any]:
    tmp.mkdir(parents=True, exist_ok=True)
    files = ruleset_files(rules, ruleset)
    env = {**os.environ, "CIVRULES_CACHE_DIR": str(tmp / "cache")}
    floor_script = "import sys, yaml\nfor f in sys.argv[1:]:\n    yaml.load(open(f, 'rb'), Loader=yaml.CSafeLoader)\n"
    by_kind: dict[str, list[str]] = {}
    for kind, path in files:
        by_kind.setdefault(kind, []).append(str(path))
    peers = [
        process([str(BIN / "check-jsonschema"), "--schemafile", str(schema_dir() / SCHEMA_FILES[kind]), *paths])
        for kind, paths in sorted(by_kind.items())
    ]
    civrules = [str(BIN / "civrules"), "--rules", str(rules)]
    out = tmp / "generated"
    process([*civrules, "build", ruleset, "--out", str(out)], env)()  # the build a no-op build follows
    figures: dict[str, Any] = {
        "python_startup": timed(process([sys.executable, "-c", "pass"]), repeat),
        "parse_floor": timed(process([sys.executable, "-c", floor_script, *[str(p) for _, p in files]]), repeat),
        "check_jsonschema": timed(lambda: [peer() for peer in peers], repeat),
        "validate": timed(process([*civrules, "validate", ruleset], env), repeat),
        "build": timed(_fresh_builds(civrules, ruleset, tmp, env), repeat),
        "noop_build": timed(process([*civrules, "build", ruleset, "--out", str(out)], env), repeat),
    }
    package = import_name(ruleset)
    import_env = {**env, "PYTHONPATH": str(out / "python")}
    import_env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([sys.executable, "-c", f"import {package}"], env=import_env, check=True)  # write bytecode
    figures["import_generated"] = timed(process([sys.executable, "-c", f"import {package}"], import_env), repeat)
    figures["import_generated_net"] = figures["import_generated"]["median"] - figures["python_startup"]["median"]
    figures["ratios"] = {
        "validate_vs_check_jsonschema": figures["validate"]["median"] / figures["check_jsonschema"]["median"]
    }
    return figures


def _fresh_builds(civrules: list[str], ruleset: str, tmp: Path, env: dict[str, str]) -> Callable[[], object]:
    """A build into a new directory each time: a real build, never the no-op of an unchanged tree."""
    runs = iter(range(10**6))

    def run() -> object:
        return process([*civrules, "build", ruleset, "--out", str(tmp / f"fresh-{next(runs)}")], env)()

    return run


#: The family whose synthetic series bench/synth.py writes (its boards joined into one map);
#: every other family's is bench/synth_family.py's, from its largest base ruleset.
SYNTH_FAMILY = "advanced-civilization"


@contextmanager
def _no_shipped() -> Iterator[None]:
    """The shipped rulesets turned off in this process while the block runs (as the shapes'
    processes have them: a copy of the rules holds their ids), then the variable as it was."""
    was = os.environ.get("CIVRULES_NO_SHIPPED")
    os.environ["CIVRULES_NO_SHIPPED"] = "1"
    try:
        yield
    finally:
        if was is None:
            del os.environ["CIVRULES_NO_SHIPPED"]
        else:
            os.environ["CIVRULES_NO_SHIPPED"] = was


def synthetic(tmp: Path, family: str, scale: int) -> Path:
    """The rules tree of a family's synthetic ruleset (``synthetic``) at ``scale``."""
    out = tmp / f"synthetic-{family}-{scale}"
    if family == SYNTH_FAMILY:
        return generate(out, scale)
    rules = REPO / "rules"
    workspace = Workspace(rules)
    bases = [
        name
        for name, manifest in workspace.manifests().items()
        if manifest.family.id == family and not manifest.data.get("extends")
    ]
    sizes = {name: sum(path.stat().st_size for _, path in ruleset_files(rules, name)) for name in bases}
    return synth_family.generate(out, max(sorted(sizes), key=lambda name: sizes[name]), scale)


def scaling(tmp: Path, scales: list[int], repeat: int) -> dict[str, Any]:
    """Each family's series: validate + build of its synthetic ruleset at each scale, in process
    (median), and the peak memory of the same as a process."""
    families = sorted({manifest.family.id for manifest in Workspace(REPO / "rules").manifests().values()})
    return {family: series(tmp, family, scales, repeat) for family in families}


def series(tmp: Path, family: str, scales: list[int], repeat: int) -> dict[str, Any]:
    rows: dict[str, dict[str, Any]] = {}
    for scale in scales:
        rules = synthetic(tmp, family, scale)
        files = ruleset_files(rules, "synthetic")
        sizes: dict[str, int] = {"bytes": sum(p.stat().st_size for _, p in files)}
        out = tmp / f"synthetic-{family}-{scale}-out"
        workspace = Workspace(rules)
        loaded = workspace.load_ruleset(workspace.manifests()["synthetic"])
        analysis = analyse(workspace, loaded)
        errors = [d for d in analysis.diagnostics if d.severity == "error"]
        if errors or analysis.model is None:
            raise RuntimeError(f"synthetic {family} x{scale} does not validate clean: {errors[:3]}")
        sizes["entities"] = sum(len(collection) for collection in analysis.model.collections())

        def work(rules: Path = rules, out: Path = out) -> None:
            build_in_process(rules, "synthetic", out)

        figures = timed_in_process({"work": work}, repeat if scale < 50 else 1)["work"]
        env = {**os.environ, "CIVRULES_CACHE_DIR": str(tmp / "cache")}
        command = [str(BIN / "civrules"), "--rules", str(rules), "build", "synthetic", "--out", str(tmp / "rss")]
        subprocess.run(command, capture_output=True, env=env, check=False)  # warm the schema cache
        shutil.rmtree(tmp / "rss", ignore_errors=True)
        rows[str(scale)] = {"size": sizes, "validate_build": figures, "peak_rss_mb": peak_rss(command)}
        shutil.rmtree(tmp / f"synthetic-{family}-{scale}", ignore_errors=True)
        shutil.rmtree(out, ignore_errors=True)
    one = rows[str(scales[0])]["validate_build"]["median"]
    for scale in scales:
        rows[str(scale)]["time_vs_1x"] = rows[str(scale)]["validate_build"]["median"] / one
        # Linear growth takes k times the 1x time at k times the data; the target allows 1.2 k.
        rows[str(scale)]["vs_linear"] = rows[str(scale)]["time_vs_1x"] / (scale / scales[0])
    return rows


def edit_latency(rules: Path, ruleset: str, tmp: Path, repeat: int) -> dict[str, Any]:
    """Edit-to-diagnostics latency on the largest shipped ruleset and on a synthetic one 10x its size."""
    shipped = sum(path.stat().st_size for _, path in ruleset_files(rules, ruleset))
    one = generate(tmp / "latency-1", 1)
    one_bytes = sum(path.stat().st_size for _, path in ruleset_files(one, "synthetic"))
    scale = incremental.scale_for(10 * shipped, one_bytes)
    large = generate(tmp / f"latency-{scale}", scale)
    large_bytes = sum(path.stat().st_size for _, path in ruleset_files(large, "synthetic"))
    figures = {
        "shipped": {"ruleset": ruleset, "bytes": shipped, **incremental.edit_latency(rules, ruleset, repeat)},
        "10x": {
            "ruleset": f"synthetic x{scale}",
            "bytes": large_bytes,
            **incremental.edit_latency(large, "synthetic", max(3, repeat // 2)),
        },
    }
    for row, tree in ((figures["shipped"], rules), (figures["10x"], large)):
        row["profile"] = incremental.profile_edit(tree, row["worst_file"])
    figures["overlay"] = overlay_latency(tmp, repeat)
    figures["variants"] = base_latency(rules, ruleset, tmp / "latency-variants", repeat)
    figures["variants-10x"] = base_latency(large, "synthetic", tmp / "latency-variants-10x", max(3, repeat // 2))
    figures["variants-10x"]["base"] = f"synthetic x{scale}"
    return figures


def base_latency(rules: Path, base: str, out: Path, repeat: int) -> dict[str, Any]:
    """Edit → diagnostics of edits in the base ``base`` with variants extending it
    (:func:`bench.incremental.base_edit_latency`), on a copy of ``rules`` (the shipped rulesets
    turned off, as the shapes' processes have them: the copy's ids are theirs)."""
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(rules, out / "rules")
    with _no_shipped():
        row = incremental.base_edit_latency(out / "rules", base, repeat)
    shutil.rmtree(out, ignore_errors=True)
    return row


#: The variant of the edit-latency bench whose overlay adds cards: shape and size (issue 32, point 4).
OVERLAY_SHAPE, OVERLAY_CARDS = "group-cards", 5_000


def overlay_latency(tmp: Path, repeat: int) -> dict[str, Any]:
    """Edit → diagnostics of a value changed inside one card a variant's overlay adds, among
    :data:`OVERLAY_CARDS` (bench/shapes.py's `group-cards`: the shipped rules copied, the shipped
    rulesets turned off as the shapes' processes have them)."""
    out = tmp / "latency-overlay"
    shapes.make(out, OVERLAY_SHAPE, OVERLAY_CARDS)
    with _no_shipped():
        row = incremental.overlay_latency(out / "rules", "big", "rulesets/big.yaml", max(3, repeat))
    shutil.rmtree(out, ignore_errors=True)
    row["ruleset"] = f"`{OVERLAY_SHAPE}` at {OVERLAY_CARDS:,} (a variant adding {OVERLAY_CARDS:,} cards)"
    return row


def machine() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "processor": platform.machine(),
        "cpus": os.cpu_count(),
        "memory_gb": round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1),
    }


def _fastest_ratio(figures: dict[str, Any]) -> float:
    """validate / parse floor, each its fastest run: the run least disturbed by other work on the
    machine (a median moves with the load, the minimum much less), so the guard holds on a busy CI."""
    return float(figures["validate"]["min"] / figures["parse_floor"]["min"])


#: How many times the recorded ratio the guard allows.
GUARD = 2.0


def _recorded_ratio(figures: dict[str, Any]) -> float:
    """The recorded validate / parse floor the guard allows twice of: the larger of the fastest-run
    ratio and the median ratio. One unusually fast recorded run would otherwise set a limit a
    typical run misses."""
    return max(_fastest_ratio(figures), float(figures["ratios"]["validate"]))


def check() -> int:
    """Fail when validate's in-process ratio to the parse floor is more than twice the recorded one.

    The guard is for a regression of kind (every file validated by jsonschema again, a check that
    walks the data once per entity): on this quiet 2-core machine the fastest of eleven runs moved
    between 1.8x and 3.4x from one run to the next (2026-12-02), so a 50 % margin failed runs
    that had changed nothing."""
    recorded = json.loads(RESULTS.read_text(encoding="utf-8"))
    rules = REPO / "rules"
    ruleset = recorded["ruleset"]
    with tempfile.TemporaryDirectory() as tmp:
        figures = in_process(rules, ruleset, Path(tmp) / "generated", repeat=11, write_floor=False)
    now = _fastest_ratio(figures)
    before = _recorded_ratio(recorded["in_process"])
    print(
        f"validate / parse floor on {ruleset} (fastest runs): {now:.2f}x now, {before:.2f}x recorded"
        f" (limit {before * GUARD:.2f}x)"
    )
    failed = now > before * GUARD
    for family, row in (recorded.get("families") or {}).items():  # each other family, the same guard
        with tempfile.TemporaryDirectory() as tmp:
            ratio = _fastest_ratio(
                in_process(rules, row["ruleset"], Path(tmp) / "generated", repeat=11, write_floor=False)
            )
        limit = _recorded_ratio(row["in_process"]) * GUARD
        print(f"validate / parse floor on {row['ruleset']} ({family}): {ratio:.2f}x now (limit {limit:.2f}x)")
        failed = failed or ratio > limit
    return 1 if failed else 0


def portable(value: Any) -> Any:
    """``value`` with this machine's paths taken out of every string (issue 32, point 9): the
    repository's become relative, the interpreter's installation ``<python>`` and the temporary
    folder ``<tmp>`` (a profile names standard-library files; a message may name a temporary tree)."""
    if isinstance(value, dict):
        return {key: portable(item) for key, item in value.items()}
    if isinstance(value, list):
        return [portable(item) for item in value]
    if isinstance(value, str):
        for path, name in (
            (f"{REPO}/", ""),
            (str(REPO), "."),
            (str(Path(tempfile.gettempdir()).resolve()), "<tmp>"),
            (tempfile.gettempdir(), "<tmp>"),
            (sys.base_prefix, "<python>"),
        ):
            value = value.replace(path, name)
    return value


#: The sections of a run, in the order they are measured: ``--only`` picks some.
SECTIONS = ("in_process", "whole_process", "scaling", "edit_latency", "families", "lsp", "shapes")


def main() -> int:
    parser = argparse.ArgumentParser(description="civrules benchmarks")
    parser.add_argument("--check", action="store_true", help="only the fast regression guard")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--scales", default="1,10,50,100")
    parser.add_argument(
        "--only",
        action="append",
        choices=SECTIONS,
        help="measure only these sections; the others are kept from the results file written to",
    )
    parser.add_argument(
        "--record",
        action="store_true",
        help=f"write the results to {RESULTS.relative_to(REPO)} (tracked), not {OUT.relative_to(REPO)}",
    )
    args = parser.parse_args()
    shapes.write_bytecode()  # the processes timed start as an installed civrules does
    if args.check:
        return check()
    rules = REPO / "rules"
    ruleset = largest_ruleset(rules)
    target = RESULTS if args.record else OUT
    chosen = args.only or list(SECTIONS)
    results: dict[str, Any] = {}
    if args.only and target.exists():  # a section measured again: the others as they were
        results = json.loads(target.read_text(encoding="utf-8"))
    results.update({"ruleset": ruleset, "machine": machine()})
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        measures: dict[str, Callable[[], Any]] = {
            "in_process": lambda: in_process(rules, ruleset, tmp / "in-process", args.repeat),
            "whole_process": lambda: whole_process(rules, ruleset, tmp, args.repeat),
            "scaling": lambda: scaling(tmp, [int(s) for s in args.scales.split(",")], args.repeat),
            "edit_latency": lambda: edit_latency(rules, ruleset, tmp, args.repeat),
            "families": lambda: per_family(rules, tmp / "families", args.repeat),
            # The language server under editor traffic: bench/lsp.py (issue 27).
            "lsp": lambda: lsp.measure(rules, tmp),
            # The adversarial shapes at n and 10n as whole processes: bench/shapes.py (issue 32, point 6).
            "shapes": lambda: shapes.measure(list(shapes.SHAPES), repeat=shapes.REPEAT),
        }
        for section in SECTIONS:
            if section in chosen:
                results[section] = measures[section]()
    if "shapes" in chosen:
        shapes.OUT.parent.mkdir(parents=True, exist_ok=True)
        shapes.OUT.write_text(json.dumps(results["shapes"], indent=2, sort_keys=True) + "\n", encoding="utf-8")
    target.parent.mkdir(parents=True, exist_ok=True)
    results = portable(results)
    target.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    if "scaling" in results:
        picture = plot.PLOT if args.record else OUT.parent / plot.PLOT.name
        picture.write_text(plot.scaling_svg(results["scaling"]), encoding="utf-8")
        print(f"scaling plot: {picture.relative_to(REPO)}")
    sys.stdout.write(report.table(results))
    print(f"results: {target.relative_to(REPO)}" + ("" if args.record else " (`make bench-record` records them)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
