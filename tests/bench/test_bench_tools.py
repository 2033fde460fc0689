"""The benchmark's own tools (they measure nothing here: no test depends on time): the synthetic
rulesets of every family validate clean at the scales the series uses, and the scaling plot is a
well-formed SVG with a line and a point per family and scale."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from bench import incremental, plot, shapes, synth_family
from civrules.load.workspace import Workspace
from civrules.pipeline import analyse

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("ruleset", ["sid-meiers-civilization", "imperial-settlers"])
@pytest.mark.parametrize("scale", [1, pytest.param(3, marks=pytest.mark.slow)])
def test_a_synthetic_ruleset_of_each_family_validates_clean_and_grows(tmp_path: Path, ruleset: str, scale: int) -> None:
    rules = synth_family.generate(tmp_path / "synthetic", ruleset, scale)
    workspace = Workspace(rules)
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["synthetic"]))
    assert [d for d in analysis.diagnostics if d.severity == "error"] == []
    assert analysis.model is not None
    shipped = Workspace(Path(synth_family.RULES))
    base = analyse(shipped, shipped.load_ruleset(shipped.manifests()[ruleset]))
    assert base.model is not None
    grown = sum(len(c) for c in analysis.model.collections())
    original = sum(len(c) for c in base.model.collections())
    assert grown > original if scale > 1 else grown == original  # copy k of each entity, k = 2 .. scale
    again = synth_family.generate(tmp_path / "again", ruleset, scale)  # the same arguments, the same bytes
    assert {p.relative_to(again): p.read_bytes() for p in again.rglob("*.yaml")} == {
        p.relative_to(rules): p.read_bytes() for p in rules.rglob("*.yaml")
    }


def test_the_scaling_plot_draws_every_family_and_scale() -> None:
    rows = {
        "advanced-civilization": {"1": (1.0, 81.0), "10": (9.5, 96.0), "50": (29.7, 344.0), "100": (70.0, 600.0)},
        "<script>alert(1)</script>": {"1": (1.0, 70.0), "10": (0.9, 72.0)},
    }
    series = {f: {k: {"time_vs_1x": t, "peak_rss_mb": m} for k, (t, m) in r.items()} for f, r in rows.items()}
    text = plot.scaling_svg(series)
    root = ET.fromstring(text)  # well-formed: a name from the data is text, never markup
    assert root.tag == f"{SVG}svg"
    assert "<script>" not in text
    labels = [t.text for t in root.iter(f"{SVG}text")]
    assert "advanced-civilization" in labels and "<script>alert(1)</script>" in labels
    # Two reference lines and one line per family on the time panel, one per family on the memory panel.
    assert len(list(root.iter(f"{SVG}polyline"))) == 2 + 2 * len(series)
    assert len(list(root.iter(f"{SVG}circle"))) == 2 * sum(len(r) for r in series.values())
    assert plot.scaling_svg(series) == text


def test_the_data_edit_changes_one_letter_of_a_value_and_each_edit_another() -> None:
    """The edit bench/incremental.py times inside an entity: one line, one letter, the length kept
    (so the file stays valid), and every edit of a run a new text (an unchanged text costs nothing)."""
    text = Path(synth_family.RULES, "calamities/expansion-project.yaml").read_text(encoding="utf-8")
    edits = [incremental.data_edit(text, i) for i in range(6)]
    assert all(edit is not None and len(edit) == len(text) for edit in edits)
    assert len({text, *edits}) == len(edits) + 1
    for edit in edits:
        assert edit is not None
        changed = [(a, b) for a, b in zip(text.split("\n"), edit.split("\n"), strict=True) if a != b]
        assert len(changed) == 1 and sum(x != y for x, y in zip(*changed[0], strict=True)) == 1
    assert incremental.data_edit("kind: map\nid: m\n", 0) is None


@pytest.mark.parametrize("shape", sorted(shapes.SHAPES))
def test_each_adversarial_shape_is_written_the_same_way_twice(tmp_path: Path, shape: str) -> None:
    first = shapes.make(tmp_path / "a", shape, 3)
    second = shapes.make(tmp_path / "b", shape, 3)
    assert [[a.replace(str(tmp_path / "a"), "") for a in c] for c in first] == [
        [a.replace(str(tmp_path / "b"), "") for a in c] for c in second
    ]
    assert all(command[:2] == ["--rules", str(tmp_path / "a" / "rules")] for command in first)
    written = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*.yaml"))
    assert written == sorted(p.relative_to(tmp_path / "b") for p in (tmp_path / "b").rglob("*.yaml"))
    assert all((tmp_path / "a" / p).read_bytes() == (tmp_path / "b" / p).read_bytes() for p in written)


@pytest.mark.slow
def test_the_shape_runner_records_each_size_net_of_the_empty_shape(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seconds: six civrules processes. The figures themselves are not judged (they depend on the load)."""
    monkeypatch.setitem(shapes.SIZES, "diagnostics", (2, 20))
    row = shapes.measure(["diagnostics"], repeat=1)["diagnostics"]
    assert [size["n"] for size in row["sizes"]] == [0, 2, 20]
    assert all(size["exit"] == [1] and size["cpu_s"] > 0 and size["peak_rss_mb"] > 0 for size in row["sizes"])
    assert all(not Path(part).is_absolute() for size in row["sizes"] for part in size["command"].split())
    assert {"vs_linear", "vs_linear_gross", "within_limits", "met"} <= set(row)
