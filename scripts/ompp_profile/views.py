# SPDX-License-Identifier: BSD-3-Clause
"""Views over a :class:`Profile`: pure functions returning text."""
from __future__ import annotations

from collections import defaultdict
from typing import Iterable

from .model import Node, Profile


def thread_ranges(threads: Iterable[int]) -> str:
    """Compresses thread ids into ranges: [0, 1, 2, 3, 5] -> '0-3,5'."""
    ids = sorted(set(threads))
    parts, start = [], None
    for i, tid in enumerate(ids):
        if start is None:
            start = tid
        if i + 1 == len(ids) or ids[i + 1] != tid + 1:
            parts.append(str(start) if start == tid else f"{start}-{tid}")
            start = None
    return ",".join(parts)


def edge_label(per_thread_counts: dict[int, int]) -> str:
    """The label of one control-flow edge, as libompp writes it (one
    definition, docs/analyses.md "Control flow"): threads that took the edge
    equally often are grouped, each group written `T|N` for thread ids T and
    N times each, groups in order of their first thread, joined by ", ":
    {0: 5, 1: 5, 2: 5, 3: 5, 4: 1} -> '0-3|5, 4|1'.
    """
    by_count: dict[int, list[int]] = defaultdict(list)
    for tid, count in per_thread_counts.items():
        by_count[count].append(tid)
    groups = sorted(by_count.items(), key=lambda item: min(item[1]))
    return ", ".join(f"{thread_ranges(tids)}|{count}" for count, tids in groups)


def subtree_time(node: Node) -> float:
    """Exclusive time of the node's whole subtree, all threads (Score-P/Cube
    inclusive): a parent that ran on one thread around a region run by a
    team is never shown smaller than that region."""
    return node.exclusive_s + sum(subtree_time(child) for child in node.children)


def call_tree(profile: Profile, min_percent: float = 0.0) -> str:
    """The call tree in thread-seconds, as libompp's text callgraph.

    Exclusive time is summed over threads; inclusive is the exclusive time of
    the node's subtree; percentages are of all measured thread time (the sum
    over the roots).  Subtrees below min_percent inclusive are left out.
    """
    total = sum(subtree_time(root) for root in profile.roots)
    lines = [f"{'Inclusive':>10} {'(%)':>7} {'Exclusive':>10} {'(%)':>7} {'Visits':>9}  Node"]

    def pct(seconds: float) -> float:
        return 100.0 * seconds / total if total > 0 else 0.0

    def walk(node: Node, prefix: str, last: bool, depth: int) -> None:
        inclusive = subtree_time(node)
        if depth > 0 and pct(inclusive) < min_percent:
            return
        branch = "" if depth == 0 else prefix + ("`-" if last else "|-")
        lines.append(
            f"{inclusive:10.3f} {pct(inclusive):6.2f}% "
            f"{node.exclusive_s:10.3f} {pct(node.exclusive_s):6.2f}% "
            f"{node.visits:9d}  {branch}{profile.node_label(node)}"
        )
        child_prefix = "" if depth == 0 else prefix + ("  " if last else "| ")
        for i, child in enumerate(node.children):
            walk(child, child_prefix, i + 1 == len(node.children), depth + 1)

    for root in profile.roots:
        walk(root, "", True, 0)
    return "\n".join(lines)


def hot_regions(profile: Profile, top: int = 10) -> str:
    """Regions ranked by exclusive time summed over all their call paths."""
    # A task construct appears twice: where tasks are created (region nodes)
    # and where they execute (task_root trees); the two are ranked apart.
    exclusive: dict[tuple[int, bool], float] = defaultdict(float)
    visits: dict[tuple[int, bool], int] = defaultdict(int)
    for node in profile.nodes.values():
        if node.region is not None and node.kind in ("region", "task_root"):
            key = (node.region, node.kind == "task_root")
            exclusive[key] += node.exclusive_s
            visits[key] += node.visits
    ranked = sorted(exclusive.items(), key=lambda item: item[1], reverse=True)[:top]
    lines = [f"{'Exclusive':>10} {'Visits':>9}  Region"]
    for (region_id, execution), seconds in ranked:
        suffix = " (task execution)" if execution else ""
        lines.append(f"{seconds:10.3f} {visits[(region_id, execution)]:9d}  {profile.regions[region_id].label()}{suffix}")
    return "\n".join(lines)


def _dot_label(lines: list[str]) -> str:
    """A Graphviz double-quoted label of several lines (joined by dot's \\n)."""
    escaped = (line.replace("\\", "\\\\").replace('"', '\\"') for line in lines)
    return '"' + "\\n".join(escaped) + '"'


def control_flow_dot(profile: Profile) -> str:
    """The control-flow graph in Graphviz dot, drawn as in the ompP CFG paper.

    Dotted edges go from a parent to the child it entered first; solid edges
    from a sibling to the one entered right after it exited.  Node fill is
    darker the more exclusive time the node has.
    """
    busiest = max((n.exclusive_s for n in profile.nodes.values()), default=0.0) or 1.0
    out = ["digraph ompp_control_flow {", "  node [shape=box, style=\"rounded,filled\"];"]
    for node in profile.nodes.values():
        grey = 95 - int(55 * node.exclusive_s / busiest)
        label = _dot_label(
            [profile.node_label(node), f"{node.visits}x, excl {node.exclusive_s:.3f} s"]
        )
        out.append(f"  n{node.id} [label={label}, fillcolor=\"grey{grey}\"];")
    for node in profile.nodes.values():
        per_edge: dict[int, dict[int, int]] = defaultdict(dict)
        for pred in node.predecessors:
            per_edge[pred.node][pred.thread] = pred.count
        for pred_node, counts in per_edge.items():
            style = "dotted" if pred_node == node.parent else "solid"
            label = _dot_label([edge_label(counts)])
            out.append(f"  n{pred_node} -> n{node.id} [style={style}, label={label}];")
    out.append("}")
    return "\n".join(out)


def snapshot_series(profile: Profile, top: int = 5) -> dict[str, list[float]]:
    """Per busiest region, the exclusive time spent in each snapshot interval.

    Snapshots are cumulative since program start, so an interval's time is
    the difference between consecutive snapshots.
    """
    final: dict[int, float] = defaultdict(float)
    for snap in profile.snapshots:
        for entry in snap.get("regions", []):
            final[entry["region"]] = max(final[entry["region"]], entry["exclusive_s"])
    busiest = [r for r, _ in sorted(final.items(), key=lambda item: item[1], reverse=True)[:top]]
    series: dict[str, list[float]] = {f"R{r:05d}": [] for r in busiest}
    previous: dict[int, float] = {}
    for snap in profile.snapshots:
        current = {e["region"]: e["exclusive_s"] for e in snap.get("regions", [])}
        for r in busiest:
            series[f"R{r:05d}"].append(current.get(r, 0.0) - previous.get(r, 0.0))
        previous = current
    return series


def snapshot_table(profile: Profile, top: int = 5) -> str:
    """snapshot_series as a table, one row per snapshot."""
    if not profile.snapshots:
        return "no snapshots (set OMPP_SNAPSHOT_INTERVAL to take them)"
    series = snapshot_series(profile, top)
    lines = [f"{'time_s':>8} " + " ".join(f"{label:>10}" for label in series)]
    for i, snap in enumerate(profile.snapshots):
        cells = " ".join(f"{values[i]:10.3f}" for values in series.values())
        lines.append(f"{snap['time_s']:8.2f} {cells}")
    return "\n".join(lines)


def compare(before: Profile, after: Profile, top: int = 10) -> str:
    """Per-region exclusive time of two runs of the same program, largest change first."""

    def by_location(profile: Profile) -> dict[tuple, float]:
        result: dict[tuple, float] = defaultdict(float)
        for node in profile.nodes.values():
            region = profile.region_of(node)
            if region is not None and node.kind in ("region", "task_root"):
                key = (region.kind, region.name, region.file, region.first_line)
                result[key] += node.exclusive_s
        return result

    a, b = by_location(before), by_location(after)
    keys = sorted(set(a) | set(b), key=lambda k: abs(b.get(k, 0) - a.get(k, 0)), reverse=True)
    lines = [f"{'before':>10} {'after':>10} {'change':>10}  Region"]
    for kind, name, file, line in keys[:top]:
        named = f" '{name}'" if name else ""
        old, new = a.get((kind, name, file, line), 0.0), b.get((kind, name, file, line), 0.0)
        lines.append(f"{old:10.3f} {new:10.3f} {new - old:+10.3f}  {kind}{named} {file}:{line}")
    return "\n".join(lines)
