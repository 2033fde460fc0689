"""Edit-to-diagnostics latency of the incremental core (what `civrules lsp` and `watch` wait for).

A :class:`civrules.pipeline.incremental.Session` is brought up to date once (an editor's start-up), then each
file of the ruleset is edited ``repeat`` times in two ways, and the time of each ``update()`` is
taken: from the edited text to the full list of diagnostics of the whole rules tree, equal to a full
``validate``. The two edits: a comment appended (the content hash changes, so the file is read again
and every ruleset that reads it is checked again: the figure recorded since issue 19), and a value
changed inside an entity in the middle of the file (a `name:`, `title:`, `note:` or `heading:` line:
the data changes, so the checks that read it run again). An edit leaving a schema error is timed
too: a key no schema knows written under that value's (what most keystrokes of a word typed
leave for an instant; the file is then judged again by jsonschema). The figure per ruleset is the slowest
file's median, in CPU time (issue 32's targets are CPU time). Between edits, untimed, the garbage
collector is settled as the long-running commands do while idle (:mod:`civrules.support.collector`).
"""

from __future__ import annotations

import cProfile
import gc
import io
import math
import pstats
import re
import statistics
import time
from pathlib import Path
from typing import Any

from civrules.pipeline.incremental import Session
from civrules.support.collector import settle

#: The repository root: profiles name its files relative to it.
REPO = Path(__file__).resolve().parent.parent

#: The targets of issue 32 (CPU time): diagnostics ready this long after a one-file edit.
TARGET_SHIPPED_S = 0.050
TARGET_10X_S = 0.300

#: A line whose value the data edit changes: a name, title, note or heading written on one line.
_VALUE_LINE = re.compile(r"^(\s*(?:- )?(?:name|title|note|heading): )(['\"]?)(?=[^|>'\"\s])")


def data_edit(text: str, i: int) -> str | None:
    """``text`` with the value of the middle `name:`/`title:`/`note:`/`heading:` line changed
    (edit number ``i``), or None when it has none."""
    lines = text.split("\n")
    found = [n for n, line in enumerate(lines) if _VALUE_LINE.match(line)]
    if not found:
        return None
    n = found[len(found) // 2]
    start = _VALUE_LINE.match(lines[n])
    assert start is not None
    at = start.end()
    # One letter changed, the length kept (a rule index bounds its titles' length): edit i writes
    # a letter no other edit of the run writes.
    was = lines[n][at]
    letter = _letter(was, i)
    letter = letter if was.isupper() or not was.isalpha() else letter.lower()
    lines[n] = lines[n][:at] + letter + lines[n][at + 1 :]
    return "\n".join(lines)


def _letter(was: str, i: int) -> str:
    """The capital letter edit number ``i`` writes over ``was``: never ``was``, and another than
    the edits just before and after it write (six letters in turn; a letter the text had was
    skipped by moving on to the next, so edit 5 over a `W` wrote what edit 6 wrote, the same text
    twice in a row: an update with nothing to do timed as an edit)."""
    letters = [c for c in "QXZJKWV" if c != was.upper()][:6]
    return letters[i % len(letters)]


def error_edit(text: str, i: int) -> str | None:
    """``text`` with a key no schema knows (a different one for each edit number ``i``) written
    just above the middle `name:`/`title:`/`note:`/`heading:` line, at that key's indentation (in
    the same entity: first in it where that key was), so one unknown key (S002) in that entity;
    or None when the text has no such line. Above, not below: a quoted value may go on."""
    lines = text.split("\n")
    found = [n for n, line in enumerate(lines) if _VALUE_LINE.match(line)]
    if not found:
        return None
    n = found[len(found) // 2]
    stripped = lines[n].lstrip()
    lead = lines[n][: len(lines[n]) - len(stripped)]
    if stripped.startswith("- "):
        lines[n : n + 1] = [f"{lead}- not_a_key_{i}: 1", f"{lead}  {stripped[2:]}"]
    else:
        lines.insert(n, f"{lead}not_a_key_{i}: 1")
    return "\n".join(lines)


#: A `name:` written inside an entry of a variant's overlay (block or flow style), its first letter.
_ENTRY_NAME = re.compile(r"\bname: (['\"]?)(?=[A-Za-z])")


def overlay_edit(text: str, i: int) -> str | None:
    """``text`` (a variant's manifest) with one letter of the name of the middle entry of its
    `overlay:` changed (edit number ``i``, as :func:`data_edit`), or None when it names none."""
    lines = text.split("\n")
    start = next((n for n, line in enumerate(lines) if line.startswith("overlay:")), None)
    if start is None:
        return None
    found = [(n, match.end()) for n in range(start + 1, len(lines)) if (match := _ENTRY_NAME.search(lines[n]))]
    if not found:
        return None
    n, at = found[len(found) // 2]
    was = lines[n][at]
    letter = _letter(was, i)
    lines[n] = lines[n][:at] + (letter if was.isupper() else letter.lower()) + lines[n][at + 1 :]
    return "\n".join(lines)


def overlay_latency(rules: Path, ruleset: str, relative: str, repeat: int) -> dict[str, Any]:
    """Edit → diagnostics of ``repeat`` value edits inside one entry of the overlay of the variant
    ``ruleset`` (its manifest ``relative``): median, min and max, wall and CPU, and what was read
    and checked again by the last (issue 32, point 4: a variant whose overlay adds 5,000 cards)."""
    session = Session(rules)
    session.update()
    text = (rules / relative).read_text(encoding="utf-8")
    edits = [overlay_edit(text, i) for i in range(repeat)]
    if any(edit is None for edit in edits):
        raise ValueError(f"`{relative}` names no entry of an overlay")
    times, cpu, rechecked = _timed(session, relative, [edit for edit in edits if edit is not None])
    last = session.last
    session.set_text(relative, None)
    session.update()
    gc.unfreeze()
    return {
        "ruleset": ruleset,
        "file": relative,
        "bytes": len(text.encode()),
        "median": statistics.median(times),
        "min": min(times),
        "max": max(times),
        "cpu_median": statistics.median(cpu),
        "cpu_min": min(cpu),
        "cpu_max": max(cpu),
        "runs": repeat,
        "rechecked": rechecked,
        "spliced": last.spliced if last is not None else [],
    }


#: The variants a base edit is measured under (issue 32, point 4): this many extending the base,
#: and a chain this deep (a variant of a variant of it), each with an empty overlay.
BASE_VARIANTS, BASE_CHAIN = 10, 2

#: A line that defines an entity's id (`- id: x`), as the largest data files write it.
_ID_LINE = re.compile(r"^(\s*- id: )([a-z][a-z0-9_]*)$", re.M)


def with_variants(rules: Path, base: str, count: int = BASE_VARIANTS, deep: int = BASE_CHAIN) -> list[str]:
    """Write ``count`` variants of ``base`` and a chain ``deep`` rulesets long into ``rules``
    (`rulesets/bench-vNN.yaml`, `rulesets/bench-dN.yaml`): their ids, the chain's last."""
    written = [f"bench-v{i:02d}" for i in range(count)]
    chain = [f"bench-d{d}" for d in range(deep)]
    for name, parent in [*((one, base) for one in written), *zip(chain, [base, *chain[:-1]], strict=True)]:
        (rules / "rulesets" / f"{name}.yaml").write_text(
            f"kind: ruleset\nid: {name}\nname: Bench {name}\nextends: {parent}\n", encoding="utf-8"
        )
    return [*written, *chain]


def id_edit(text: str) -> str | None:
    """``text`` with the middle entity's id renamed where it is defined (`- id: x` → `- id: xx`),
    its mentions left: an entity removed and another added; None when no line defines an id."""
    found = list(_ID_LINE.finditer(text))
    if not found:
        return None
    middle = found[len(found) // 2]
    return f"{text[: middle.end()]}x{text[middle.end() :]}"


def base_edit_latency(rules: Path, base: str, repeat: int) -> dict[str, Any]:
    """Edit → diagnostics of edits in the base ``base`` that :data:`BASE_VARIANTS` variants and a
    chain :data:`BASE_CHAIN` deep extend (written into ``rules``, a copy): a value of an entity in
    its largest data file, a value in its manifest, and an entity's id renamed then given back
    (the rename takes the entity away: each ruleset reading it is checked again). Median and min
    CPU, median wall, and the rulesets the last update checked again; the worst median."""
    extending = with_variants(rules, base)
    session = Session(rules)
    first = session.update()
    manifest = first.analyses[base].loaded.manifest.file.path
    manifest_relative = next(one for one, shown in first.files.items() if shown == manifest)
    data_files = sorted(
        (one for one in first.depends[base] if one != manifest_relative and not one.startswith("<")),
        key=lambda one: (-(rules / one).stat().st_size, one),
    )
    largest = next(one for one in data_files if data_edit((rules / one).read_text(encoding="utf-8"), 0) is not None)
    edits: dict[str, Any] = {}
    for kind, relative in (("value", largest), ("manifest", manifest_relative)):
        text = (rules / relative).read_text(encoding="utf-8")
        texts = [edit for i in range(repeat) if (edit := data_edit(text, i)) is not None]
        times, cpu, rechecked = _timed(session, relative, texts)
        session.set_text(relative, None)
        session.update()
        edits[kind] = _figures(relative, times, cpu, rechecked)
    with_ids = next(one for one in data_files if id_edit((rules / one).read_text(encoding="utf-8")) is not None)
    text = (rules / with_ids).read_text(encoding="utf-8")
    renamed = id_edit(text)
    assert renamed is not None
    both = _timed(session, with_ids, [renamed, text] * repeat)
    for kind, at in (("id_renamed", 0), ("id_restored", 1)):
        edits[kind] = _figures(with_ids, both[0][at::2], both[1][at::2], both[2])
    session.set_text(with_ids, None)
    session.update()
    gc.unfreeze()
    worst = max(edits, key=lambda kind: edits[kind]["cpu_median"])
    return {
        "base": base,
        "variants": len(extending) - BASE_CHAIN,
        "chain": BASE_CHAIN,
        "rulesets": len(first.analyses),
        "edits": edits,
        "worst_edit": worst,
        "worst_cpu_median": edits[worst]["cpu_median"],
    }


def _figures(relative: str, times: list[float], cpu: list[float], rechecked: list[str]) -> dict[str, Any]:
    return {
        "file": relative,
        "median": statistics.median(times),
        "cpu_median": statistics.median(cpu),
        "cpu_min": min(cpu),
        "runs": len(cpu),
        "rechecked": len(rechecked),
    }


def _timed(session: Session, relative: str, texts: list[str]) -> tuple[list[float], list[float], list[str]]:
    """Wall and CPU times of an update after each of ``texts`` in turn, and what the last rechecked."""
    times, cpu = [], []
    rechecked: list[str] = []
    for text in texts:
        # As `civrules lsp` and `watch` do while idle between edits (not timed): collect, then freeze.
        settle()
        session.set_text(relative, text)
        started, processor = time.perf_counter(), time.process_time()
        result = session.update()
        times.append(time.perf_counter() - started)
        cpu.append(time.process_time() - processor)
        rechecked = result.rechecked
    return times, cpu, rechecked


def edit_latency(rules: Path, ruleset: str, repeat: int) -> dict[str, Any]:
    """Latency per edited file of ``ruleset`` (median, min, max of ``repeat`` edits) and the worst."""
    session = Session(rules)
    started = time.perf_counter()
    first = session.update()
    cold = time.perf_counter() - started
    files: dict[str, Any] = {}
    for relative in sorted(first.depends[ruleset]):
        text = (rules / relative).read_text(encoding="utf-8")
        times, cpu, rechecked = _timed(session, relative, [f"{text}\n# edit {i}\n" for i in range(repeat)])
        session.set_text(relative, None)
        session.update()
        data, error = (
            _edited(session, relative, [edit(text, i) for i in range(repeat)]) for edit in (data_edit, error_edit)
        )
        index = _index_after(session, relative, [data_edit(text, i) for i in range(repeat)])
        files[relative] = {
            "median": statistics.median(times),
            "min": min(times),
            "max": max(times),
            "runs": repeat,
            # CPU time of this process: what the wall time would be on an idle machine, roughly.
            "cpu_median": statistics.median(cpu),
            "bytes": len(text.encode()),
            "rechecked": rechecked,
            # A value changed inside an entity in the middle of the file (None: it has no such line).
            "data_edit": data,
            # An unknown key written in that entity (None: the file has no such line).
            "error_edit": error,
            # CPU time of the language server's index made again after each value edit (the first
            # hover, definition or completion after it waits for it); None as for data_edit.
            "index_cpu_median": index,
        }
    gc.unfreeze()  # what follows in this process is measured with the collector as it was
    worst = max(files, key=lambda name: files[name]["cpu_median"])
    edited_files = [name for name in files if files[name]["data_edit"] is not None]
    worst_data = max(edited_files, key=lambda name: files[name]["data_edit"]["cpu_median"]) if edited_files else None
    indexed = [name for name in files if files[name]["index_cpu_median"] is not None]
    worst_index = max(indexed, key=lambda name: files[name]["index_cpu_median"]) if indexed else None
    erred = [name for name in files if files[name]["error_edit"] is not None]
    worst_error = max(erred, key=lambda name: files[name]["error_edit"]["cpu_median"]) if erred else None
    return {
        "cold_update": cold,
        "files": files,
        "worst_file": worst,
        "worst_median": files[worst]["median"],
        "worst_cpu_median": files[worst]["cpu_median"],
        "worst_data_file": worst_data,
        "worst_data_cpu_median": files[worst_data]["data_edit"]["cpu_median"] if worst_data else None,
        "worst_error_file": worst_error,
        "worst_error_cpu_median": files[worst_error]["error_edit"]["cpu_median"] if worst_error else None,
        "worst_index_file": worst_index,
        "worst_index_cpu_median": files[worst_index]["index_cpu_median"] if worst_index else None,
    }


def _index_after(session: Session, relative: str, edited: list[str | None]) -> float | None:
    """The median CPU time of the language server's index (:class:`civrules.lsp.index.Index`) made
    from the one before after each of ``edited`` (None: no figure, as in :func:`_edited`)."""
    from civrules.lsp.index import Index

    texts = [one for one in edited if one is not None]
    if not texts or len(texts) != len(edited):
        return None
    index = Index(session.update())
    cpu = []
    for text in texts:
        session.set_text(relative, text)
        result = session.update()
        settle()
        processor = time.process_time()
        index = Index(result, index)
        cpu.append(time.process_time() - processor)
    session.set_text(relative, None)
    session.update()
    return statistics.median(cpu)


def _edited(session: Session, relative: str, edited: list[str | None]) -> dict[str, float] | None:
    """The median times of an update after each of ``edited`` (None: an edit the file has no line
    for, and then no figure), the file given back its text after them."""
    texts = [one for one in edited if one is not None]
    if len(texts) != len(edited):
        return None
    times, cpu, _ = _timed(session, relative, texts)
    session.set_text(relative, None)
    session.update()
    return {"median": statistics.median(times), "cpu_median": statistics.median(cpu)}


def profile_edit(rules: Path, relative: str, top: int = 12) -> str:
    """cProfile of one edit of ``relative`` (cumulative time): where the latency goes. The data
    edit where the file has a line for it, else the appended comment."""
    session = Session(rules)
    session.update()
    text = (rules / relative).read_text(encoding="utf-8")
    session.set_text(relative, data_edit(text, 0) or f"{text}\n# profiled edit\n")
    settle()
    profiler = cProfile.Profile()
    profiler.enable()
    session.update()
    profiler.disable()
    gc.unfreeze()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(top)
    # Recorded figures name files relative to the repository, never this machine's paths.
    return out.getvalue().replace(f"{REPO}/", "")


def scale_for(target_bytes: int, one_bytes: int) -> int:
    """The synthetic scale whose ruleset is closest to ``target_bytes`` (at least 1)."""
    return max(1, math.ceil(target_bytes / one_bytes))


def print_latency(figures: dict[str, Any]) -> None:
    print("edit-to-diagnostics (incremental session, in-process)      CPU (wall)      target (CPU)")
    for label, row in figures.items():
        target = TARGET_SHIPPED_S if label in ("shipped", "variants") else TARGET_10X_S
        if label.startswith("variants"):
            for kind, edit in row["edits"].items():
                verdict = "met" if edit["cpu_median"] <= target else "missed"
                print(
                    f"  {label:<12} {row['base']} + {row['variants']} variants + chain {row['chain']}: {kind:<11}"
                    f" {edit['file']:<40}{edit['cpu_median'] * 1000:8.1f} ms ({edit['median'] * 1000:.0f} ms)"
                    f"  ≤ {target * 1000:.0f} ms  {verdict}  ({edit['rechecked']} checked again)"
                )
            continue
        if label == "overlay":
            verdict = "met" if row["cpu_median"] <= target else "missed"
            print(
                f"  {label:<8} {row['ruleset']}: a value inside one overlay entry of {row['file']}"
                f"{row['cpu_median'] * 1000:8.1f} ms ({row['median'] * 1000:.0f} ms)"
                f"  ≤ {target * 1000:.0f} ms  {verdict}"
            )
            continue
        edits = [("comment", row["worst_file"], row["worst_cpu_median"], row["worst_median"])]
        for kind, key, edit in (("value", "worst_data_file", "data_edit"), ("error", "worst_error_file", "error_edit")):
            if row.get(key):
                worst = row["files"][row[key]][edit]
                edits.append((kind, row[key], worst["cpu_median"], worst["median"]))
        for kind, file, cpu, wall in edits:
            verdict = "met" if cpu <= target else "missed"
            print(
                f"  {label:<8} {row['ruleset']:<20} {kind:<8} worst file {file:<40}"
                f"{cpu * 1000:8.1f} ms ({wall * 1000:.0f} ms)  ≤ {target * 1000:.0f} ms  {verdict}"
            )
