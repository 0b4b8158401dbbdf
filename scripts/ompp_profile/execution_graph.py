# SPDX-License-Identifier: BSD-3-Clause
"""The execution-graph view of `ompp-view html`: the critical path and the
collapsed execution graph of an OMPP_TRACE archive (`ompp-trace graph
--json`, docs/tracing.md), the graph drawn to SVG by Graphviz when the
report is written, so that the page needs neither tool nor network.

Whatever is missing (ompp-trace, Graphviz, a readable archive) becomes an
`error` in the view's payload: the report is written all the same and the
view says what is missing.
"""
from __future__ import annotations

import json
import re
import subprocess
import tempfile
from pathlib import Path
from typing import Optional

from .model import Profile

# A path through 10^5 barriers has as many steps: the table keeps the longest.
MAX_STEPS = 2000


def archive_beside(profile_file: Path) -> Optional[Path]:
    """The trace OMPP_TRACE=1 writes beside a profile: <stem>.otf2/ for <stem>.json."""
    archive = profile_file.with_name(profile_file.name.removesuffix(".json") + ".otf2")
    return archive if archive.is_dir() else None


def _profile_regions(profile: Profile) -> dict[tuple[str, int], int]:
    """(file, first line) -> the profile's region: the trace names regions by their directive's place."""
    by_place: dict[tuple[str, int], int] = {}
    for region in profile.regions.values():
        by_place.setdefault((region.file, region.first_line), region.id)
    return by_place


def _svg(dot_text: str) -> tuple[Optional[str], Optional[str]]:
    """(the graph as inline SVG, None) or (None, why it was not drawn)."""
    try:
        proc = subprocess.run(["dot", "-Tsvg"], input=dot_text, capture_output=True, text=True, timeout=120)
    except FileNotFoundError:
        return None, "Graphviz 'dot' not found (Debian package graphviz): the graph is not drawn"
    except subprocess.TimeoutExpired:
        return None, "Graphviz 'dot' took over 120 s: the graph is not drawn"
    if proc.returncode != 0:
        return None, f"Graphviz 'dot' failed: {proc.stderr.strip()[-500:]}"
    # Inline SVG starts at the element; the XML declaration and DOCTYPE do not belong in HTML.
    # Graphviz's element ids (node1, edge1, ...) are prefixed: the control-flow view's SVG has the same.
    svg = proc.stdout[proc.stdout.find("<svg"):]
    return re.sub(r'(<[^>]*\sid=")', r"\1execgraph-", svg), None


def execution_graph(archive: Path, tool: Optional[str], profile: Profile) -> dict:
    """The view's payload: the archive's name, and either `error` or the
    critical path (`steps`, `regions`: where it spends its time, totals) with
    each step's profile region where the trace's region is one of the
    profile's (of a long path the MAX_STEPS longest steps, each with its
    `index` on the path), and the collapsed graph as `svg` (or `svg_error`)."""
    view: dict = {"archive": archive.name}
    if tool is None:
        return {**view, "error": "ompp-trace not found (build target ompp-trace, or set OMPP_TRACE_TOOL): "
                                 f"no execution graph of {archive.name}"}
    with tempfile.TemporaryDirectory() as work:
        output = Path(work) / "graph.json"
        try:
            proc = subprocess.run([tool, "graph", str(archive), "--json", str(output)],
                                  capture_output=True, text=True, timeout=600)
        except (OSError, subprocess.TimeoutExpired) as err:
            return {**view, "error": f"ompp-trace graph {archive.name}: {err}"}
        if proc.returncode != 0 or not output.is_file():
            return {**view, "error": f"ompp-trace graph {archive.name} failed: {proc.stderr.strip()[-500:]}"}
        graph = json.loads(output.read_text())
    steps = graph["steps"]
    graph["steps_total"] = len(steps)
    if len(steps) > MAX_STEPS:
        longest = sorted(range(len(steps)), key=lambda i: steps[i]["duration_s"], reverse=True)[:MAX_STEPS]
        graph["steps"] = [steps[i] | {"index": i} for i in sorted(longest)]
    regions = _profile_regions(profile)
    for entry in graph["steps"] + graph["regions"]:
        entry["profile_region"] = regions.get((entry["file"], entry["line"]))
    svg, svg_error = _svg(graph.pop("dot"))
    return {**view, **graph, "svg": svg, "svg_error": svg_error}
