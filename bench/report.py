"""The table of issue 32's targets, drawn from recorded results: ``bench/README.md``'s "Results".

``python bench/report.py`` prints the table of ``bench/results.json`` (``--results`` another run's,
e.g. ``bench/out/results.json``) as Markdown; ``--write`` puts it into ``bench/README.md`` between
its two markers, so that the README says what the recorded run measured and nothing else (a test
holds the two equal). Every row names the target, the figure, whether it is met, and the command
that measures it again.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "bench" / "results.json"
README = REPO / "bench" / "README.md"
BEGIN = "<!-- bench/report.py: the table below is written from bench/results.json -->"
END = "<!-- end of bench/report.py's table -->"

RUN = "python bench/run.py"
#: Issue 32's targets.
MAX_VS_LINEAR = 1.2
MAX_RSS_MB = {"50": 150.0, "100": 250.0}
MAX_VALIDATE_BUILD_VS_FLOOR = 2.0
MAX_EDIT_CPU_S = {"shipped": 0.050, "10x": 0.300, "overlay": 0.300, "variants": 0.050, "variants-10x": 0.300}

#: What each edit of a base under variants is (bench/incremental.py's `base_edit_latency`).
BASE_EDITS = {
    "value": "a value changed inside an entity of its largest data file",
    "manifest": "a value changed in its manifest",
    "id_renamed": "an entity's id renamed where it is defined",
    "id_restored": "that id given back (the rename undone)",
}
MAX_VS_CHECK_JSONSCHEMA = 0.15
MAX_NOOP_BUILD_S = 0.2
MAX_IMPORT_S = 0.030


def _verdict(met: bool) -> str:
    return "met" if met else "**missed**"


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:,.0f} ms" if seconds >= 0.1 else f"{seconds * 1000:.1f} ms"


def rows(results: dict[str, Any]) -> Iterator[tuple[str, str, str, str, str]]:
    """(point, measure, figure, target, verdict and command) of every target the results hold."""
    ruleset = results["ruleset"]
    inner, whole = results.get("in_process"), results.get("whole_process")
    for family, series in sorted(results.get("scaling", {}).items()):
        ordered = sorted(series.items(), key=lambda item: int(item[0]))
        worst = max(ordered[1:] or ordered, key=lambda item: item[1]["vs_linear"])  # 1x is 1.0 by definition
        yield (
            "1",
            f"`validate` + `build` of {family}'s synthetic ruleset, time at k× / (k · time at 1×), worst k",
            f"{worst[1]['vs_linear']:.2f} at {worst[0]}× ("
            + ", ".join(f"{k}×: {row['validate_build']['median']:.2f} s" for k, row in ordered)
            + ")",
            f"≤ {MAX_VS_LINEAR}",
            f"{_verdict(worst[1]['vs_linear'] <= MAX_VS_LINEAR)}: `{RUN} --only scaling`",
        )
    for shape, row in sorted(results.get("shapes", {}).items()):
        sizes = row["sizes"]
        bound = row.get("documented_max_n")
        figures = ", ".join(
            f"n = {s['n']:,}: {s['cpu_s']:.1f} s, {s['peak_rss_mb']:.0f} MB"
            + (f" (beyond the documented {bound + 1} rulesets: not held to 10 s)" if bound and s["n"] > bound else "")
            for s in sizes
        )
        linear = row["vs_linear"]
        yield (
            "1, 6",
            f"shape `{shape}`: CPU and peak memory; 10n against 10 × n, net of n = 0",
            f"{'?' if linear is None else f'{linear:.2f}'} ({figures})",
            f"≤ {MAX_VS_LINEAR}; each ≤ 10 s, ≤ 500 MB",
            f"{_verdict(bool(row['met']))}: `python bench/shapes.py --measure --only {shape}`",
        )
    for family, series in sorted(results.get("scaling", {}).items()):
        for scale, limit in MAX_RSS_MB.items():
            if scale in series:
                rss = series[scale]["peak_rss_mb"]
                yield (
                    "2",
                    f"peak RSS of `civrules build` of {family}'s synthetic ruleset at {scale}×",
                    f"{rss:.0f} MB",
                    f"≤ {limit:.0f} MB",
                    f"{_verdict(rss <= limit)}: `{RUN} --only scaling`",
                )
    if inner:
        ratio = inner["ratios"]["validate_build"]
        yield (
            "3",
            f"in-process `validate` + `build` / parse floor ({ruleset}, medians)",
            f"{ratio:.2f}× ({_ms(inner['validate_build']['median'])} / {_ms(inner['parse_floor']['median'])})",
            f"≤ {MAX_VALIDATE_BUILD_VS_FLOOR}×",
            f"{_verdict(ratio <= MAX_VALIDATE_BUILD_VS_FLOOR)}: `{RUN} --only in_process`",
        )
        if "validate" in inner:
            # Where the ratio goes: validate alone, and what the build adds to it (no target of its own).
            alone = inner["validate"]["median"] / inner["parse_floor"]["median"]
            yield (
                "3",
                f"of which `validate` alone / parse floor, and the build's share ({ruleset}, medians)",
                f"{alone:.2f}× ({_ms(inner['validate']['median'])}); the build adds {ratio - alone:.2f}×",
                "— (context)",
                f"context: `{RUN} --only in_process`",
            )
        if "write_floor" in inner:
            # The least a build could cost: the parse floor and the durable write of the same tree.
            floors = inner["parse_floor"]["median"] + inner["write_floor"]["median"]
            yield (
                "3",
                f"`validate` + `build` / (parse floor + durable write floor) ({ruleset}, medians)",
                f"{inner['validate_build']['median'] / floors:.2f}× ({_ms(inner['validate_build']['median'])} / "
                f"{_ms(inner['parse_floor']['median'])} + {_ms(inner['write_floor']['median'])})",
                "— (context)",
                f"context: `{RUN} --only in_process`",
            )
    for label, row in sorted(results.get("edit_latency", {}).items()):
        limit = MAX_EDIT_CPU_S[label]
        if label == "overlay":  # one file, one kind of edit: a value inside one entry of the overlay
            yield (
                "4",
                f"edit → diagnostics, long-running session, {row['ruleset']}: a value changed inside one "
                "entry of its overlay, CPU",
                f"{_ms(row['cpu_median'])} (`{row['file']}`)",
                f"≤ {_ms(limit)}",
                f"{_verdict(row['cpu_median'] <= limit)}: `{RUN} --only edit_latency`",
            )
            continue
        if label.startswith("variants"):  # a base edited under variants: each kind of edit its row
            for kind, edit in row["edits"].items():
                yield (
                    "4",
                    f"edit → diagnostics, long-running session, {row['base']} with {row['variants']} variants "
                    f"and a chain {row['chain']} deep extending it: {BASE_EDITS.get(kind, kind)}, CPU",
                    f"{_ms(edit['cpu_median'])} (`{edit['file']}`, {edit['rechecked']} rulesets checked again)",
                    f"≤ {_ms(limit)}",
                    f"{_verdict(edit['cpu_median'] <= limit)}: `{RUN} --only edit_latency`",
                )
            continue
        for what, file, cpu in (
            ("a comment appended", row["worst_file"], row["worst_cpu_median"]),
            ("a value changed inside an entity", row.get("worst_data_file"), row.get("worst_data_cpu_median")),
            ("an unknown key written in an entity", row.get("worst_error_file"), row.get("worst_error_cpu_median")),
        ):
            if file is None or cpu is None:
                continue
            yield (
                "4",
                f"edit → diagnostics, long-running session, {row['ruleset']}, slowest file ({what}), CPU",
                f"{_ms(cpu)} (`{file}`)",
                f"≤ {_ms(limit)}",
                f"{_verdict(cpu <= limit)}: `{RUN} --only edit_latency`",
            )
    for _, row in sorted(results.get("edit_latency", {}).items()):
        if row.get("worst_index_cpu_median") is None:
            continue
        yield (
            "4",
            f"the language server's index after a value edit (what a hover waits for), {row['ruleset']}, "
            "slowest file, CPU",
            f"{_ms(row['worst_index_cpu_median'])} (`{row['worst_index_file']}`)",
            "— (context)",
            f"context: `{RUN} --only edit_latency`",
        )
    if whole:
        versus = whole["ratios"]["validate_vs_check_jsonschema"]
        yield (
            "5",
            f"whole-process `validate` / `check-jsonschema`, {ruleset}",
            f"{versus:.2f}× ({_ms(whole['validate']['median'])} / {_ms(whole['check_jsonschema']['median'])})",
            f"≤ {MAX_VS_CHECK_JSONSCHEMA}×",
            f"{_verdict(versus <= MAX_VS_CHECK_JSONSCHEMA)}: `{RUN} --only whole_process`",
        )
    for family, row in sorted(results.get("families", {}).items()):
        ten = row["whole_process_10x"]
        versus = ten["ratios"]["validate_vs_check_jsonschema"]
        yield (
            "5, 8",
            f"whole-process `validate` / `check-jsonschema`, {family}'s synthetic ruleset at 10×",
            f"{versus:.2f}× ({_ms(ten['validate']['median'])} / {_ms(ten['check_jsonschema']['median'])})",
            f"≤ {MAX_VS_CHECK_JSONSCHEMA}×",
            f"{_verdict(versus <= MAX_VS_CHECK_JSONSCHEMA)}: `{RUN} --only families`",
        )
    if whole:
        noop = whole["noop_build"]["median"]
        yield (
            "—",
            "whole-process no-op `build`",
            _ms(noop),
            f"≤ {_ms(MAX_NOOP_BUILD_S)}",
            f"{_verdict(noop <= MAX_NOOP_BUILD_S)}: `{RUN} --only whole_process`",
        )
        imported = whole["import_generated_net"]
        yield (
            "—",
            "importing a generated package, net of interpreter start-up",
            _ms(imported),
            f"≤ {_ms(MAX_IMPORT_S)}",
            f"{_verdict(imported <= MAX_IMPORT_S)}: `{RUN} --only whole_process`",
        )
    lsp = results.get("lsp")
    if lsp:
        keys, hover = lsp["keystrokes"], lsp["hover_200_variants"]
        yield (
            "—",
            f"`civrules lsp`: {keys['changes']:,} changes of one buffer → diagnostics of the last",
            f"{keys['settled_after_last_s']:.2f} s after the last change",
            f"≤ {keys['target_s']:.0f} s",
            f"{_verdict(keys['settled_after_last_s'] <= keys['target_s'])}: `{RUN} --only lsp`",
        )
        yield (
            "—",
            f"`civrules lsp`: hover with {hover['variants']} variant buffers just opened",
            _ms(hover["hover_s"]),
            f"≤ {_ms(hover['target_s'])}",
            f"{_verdict(hover['hover_s'] <= hover['target_s'])}: `{RUN} --only lsp`",
        )


def table(results: dict[str, Any]) -> str:
    machine = results["machine"]
    lines = [
        BEGIN,
        "",
        f"Recorded by `make bench-record` on {machine['cpus']} cores, {machine['memory_gb']:g} GB,"
        f" Python {machine['python']}, {machine['processor']}; largest shipped ruleset `{results['ruleset']}`.",
        "",
        "| point | measure | figure | target | met, and the command that measures it again |",
        "| --- | --- | --- | --- | --- |",
    ]
    lines.extend(f"| {' | '.join(row)} |" for row in rows(results))
    lines.extend(["", END])
    return "\n".join(lines) + "\n"


def spliced(readme: str, block: str) -> str:
    """``readme`` with the text between its markers replaced by ``block``."""
    start, end = readme.index(BEGIN), readme.index(END) + len(END) + 1
    return readme[:start] + block + readme[end:]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--write", action="store_true", help=f"write the table into {README.relative_to(REPO)}")
    args = parser.parse_args(argv)
    block = table(json.loads(args.results.read_text(encoding="utf-8")))
    if args.write:
        README.write_text(spliced(README.read_text(encoding="utf-8"), block), encoding="utf-8")
    else:
        sys.stdout.write(block)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
