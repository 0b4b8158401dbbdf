# SPDX-License-Identifier: BSD-3-Clause
"""Views over a :class:`Profile`: pure functions returning text."""
from __future__ import annotations

from collections import defaultdict
from typing import Iterable

from .breakdown import CATEGORIES, thread_breakdown
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


def subtree_times(profile: Profile) -> dict[int, float]:
    """subtree_time of every node, in one pass (children come after their
    parents in a profile, so walking backwards sums children first)."""
    times = {node.id: node.exclusive_s for node in profile.nodes.values()}
    for node in reversed(list(profile.nodes.values())):
        if node.parent is not None:
            times[node.parent] += times[node.id]
    return times


def _parse_region(text: str) -> int:
    """A region id as the reports print it (R00012) or as a number."""
    try:
        return int(text[1:] if text[:1] in "Rr" else text)
    except ValueError:
        raise ValueError(f"--layer {text}: not a region id (e.g. R00012 or 12)") from None


def control_flow_dot(profile: Profile, layer: str | None = None, min_percent: float = 0.0) -> str:
    """The control-flow graph in Graphviz dot, drawn as in the ompP CFG paper.

    Dotted edges go from a parent to the child it entered first; solid edges
    from a sibling to the one entered right after it exited.  Node fill is
    darker the more exclusive time the node has.  With `layer` (a region id),
    only the paper's layers of that region: each of its call-tree nodes and
    that node's children, where a "+" marks a child with a layer of its own.
    Nodes whose subtree has less than min_percent of all time are left out.
    """
    times = subtree_times(profile)
    total = sum(times[root.id] for root in profile.roots) or 1.0
    if layer is None:
        tops: set[int] = set()
        candidates = list(profile.nodes.values())
    else:
        region = _parse_region(layer)
        tops = {n.id for n in profile.nodes.values() if n.region == region and n.kind in ("region", "task_root")}
        if not tops:
            raise ValueError(f"--layer {layer}: no call-tree node of region {region} in this profile")
        candidates = [n for top in sorted(tops) for n in (profile.nodes[top], *profile.nodes[top].children)]
    shown = list({n.id: n for n in candidates
                  if n.id in tops or n.parent is None or 100.0 * times[n.id] / total >= min_percent}.values())
    ids = {n.id for n in shown}
    busiest = max((n.exclusive_s for n in shown), default=0.0) or 1.0
    out = ["digraph ompp_control_flow {", "  node [shape=box, style=\"rounded,filled\"];"]
    for node in shown:
        grey = 95 - int(55 * node.exclusive_s / busiest)
        more = " [+]" if tops and node.id not in tops and node.children else ""
        label = _dot_label([profile.node_label(node) + more,
                            f"{node.visits}x, excl {node.exclusive_s:.3f} s, "
                            f"{100.0 * times[node.id] / total:.1f}% of all time"])
        width = ", penwidth=2" if node.id in tops else ""
        out.append(f"  n{node.id} [label={label}, fillcolor=\"grey{grey}\"{width}];")
    for node in shown:
        per_edge: dict[int, dict[int, int]] = defaultdict(dict)
        for pred in node.predecessors:
            per_edge[pred.node][pred.thread] = pred.count
        for pred_node, counts in per_edge.items():
            if pred_node not in ids:
                continue
            style = "dotted" if pred_node == node.parent else "solid"
            label = _dot_label([edge_label(counts)])
            out.append(f"  n{pred_node} -> n{node.id} [style={style}, label={label}];")
    out.append("}")
    return "\n".join(out)


def per_interval(profile: Profile, value) -> list[float]:
    """value(snapshot) per snapshot interval: snapshots are cumulative since
    program start, so an interval's figure is the difference between
    consecutive snapshots."""
    values = [value(snap) for snap in profile.snapshots]
    return [v - (values[i - 1] if i else 0.0) for i, v in enumerate(values)]


def region_metric(profile: Profile, metric: str):
    """A function (snapshot entry -> number) for a metric name: "time"
    (exclusive seconds), "visits", or one of the profile's counters."""
    if metric == "time":
        return lambda entry: entry.get("exclusive_s", 0.0)
    if metric == "visits":
        return lambda entry: entry.get("visits", 0)
    if metric not in profile.counters:
        known = ", ".join(["time", "visits", *profile.counters])
        raise ValueError(f"{metric}: not a metric of this profile (known: {known})")
    index = profile.counters.index(metric)
    return lambda entry: (entry.get("counters_exclusive") or [0.0] * (index + 1))[index]


def region_series(profile: Profile, metric: str = "time", top: int = 5) -> dict[int, list[float]]:
    """Per region with the most of `metric` by the last snapshot (at most
    `top`), the metric per snapshot interval, summed over threads."""
    value = region_metric(profile, metric)
    cumulative = [{e["region"]: value(e) for e in snap.get("regions", [])} for snap in profile.snapshots]
    final: dict[int, float] = defaultdict(float)
    for snap in cumulative:
        for region, v in snap.items():
            final[region] = max(final[region], v)
    busiest = [r for r, v in sorted(final.items(), key=lambda item: item[1], reverse=True)[:top] if v > 0]
    return {r: [snap.get(r, 0.0) - (cumulative[i - 1].get(r, 0.0) if i else 0.0) for i, snap in enumerate(cumulative)]
            for r in busiest}


def snapshot_series(profile: Profile, top: int = 5) -> dict[str, list[float]]:
    """Per busiest region, the exclusive time spent in each snapshot interval."""
    return {f"R{r:05d}": values for r, values in region_series(profile, "time", top).items()}


OVERHEAD_CLASSES = ("synchronization_s", "imbalance_s", "limited_parallelism_s", "thread_management_s")


def overheads_over_time(profile: Profile) -> dict[str, list[float]]:
    """Each of ompP's four overhead classes per snapshot interval (seconds, all threads)."""
    return {k: per_interval(profile, lambda snap, k=k: snap.get("overheads", {}).get(k, 0.0))
            for k in OVERHEAD_CLASSES}


def overtime_table(profile: Profile) -> str:
    """Per snapshot interval: the overhead classes, their share of the
    interval's thread time (the severity ompP's overhead properties use), and
    the region that took the most exclusive time."""
    if not profile.snapshots:
        return "no snapshots (set OMPP_SNAPSHOT_INTERVAL to take them)"
    overheads = overheads_over_time(profile)
    busiest = region_series(profile, "time", top=len(profile.regions))
    lines = [f"{'time_s':>8} {'synch':>9} {'imbal':>9} {'limpar':>9} {'mgmt':>9} {'ovhd %':>7}  busiest region in the interval"]
    for i, snap in enumerate(profile.snapshots):
        length = snap["time_s"] - (profile.snapshots[i - 1]["time_s"] if i else 0.0)
        thread_time = length * profile.threads or 1.0
        figures = [overheads[k][i] for k in OVERHEAD_CLASSES]
        top = max(busiest.items(), key=lambda item: item[1][i], default=None)
        where = f"R{top[0]:05d} {profile.regions[top[0]].kind} {top[1][i]:.3f} s" if top and top[1][i] > 0 else "-"
        lines.append(f"{snap['time_s']:8.2f} " + " ".join(f"{v:9.4f}" for v in figures) +
                     f" {100.0 * sum(figures) / thread_time:6.2f}%  {where}")
    return "\n".join(lines)


def heatmap_table(profile: Profile, metric: str, top: int = 20) -> str:
    """The region x interval matrix of a metric (time, visits or a counter),
    busiest regions first, as text."""
    if not profile.snapshots:
        return "no snapshots (set OMPP_SNAPSHOT_INTERVAL to take them)"
    rows = region_series(profile, metric, top)
    lines = [f"{metric} per interval; columns end at " + ", ".join(f"{s['time_s']:.2f}" for s in profile.snapshots) + " s"]
    for region, values in rows.items():
        label = f"R{region:05d} {profile.regions[region].kind}" if region in profile.regions else f"R{region:05d}"
        lines.append(f"{label:<24} " + " ".join(f"{v:9.3g}" for v in values))
    return "\n".join(lines)


def threads_table(profile: Profile) -> str:
    """ompp_profile.breakdown per parallel region call path and thread: where
    each thread's time went (the COMPASS view), seconds and % of its sum."""
    records = thread_breakdown(profile)
    if not records:
        return "no parallel regions in this profile"
    header = f"{'thread':>8} " + " ".join(f"{c:>16}" for c in CATEGORIES) + f" {'sum':>9}"
    lines = []
    for record in sorted(records, key=lambda r: -sum(sum(t[c] for c in CATEGORIES) for t in r["threads"])):
        node = profile.nodes[record["node"]]
        lines += ["", profile.node_label(node) + f" (call-tree node {node.id})", header]
        for t in record["threads"]:
            total = sum(t[c] for c in CATEGORIES) or 1.0
            cells = " ".join(f"{t[c]:9.3f} ({100.0 * t[c] / total:3.0f}%)" for c in CATEGORIES)
            lines.append(f"{t['thread']:>8} {cells} {sum(t[c] for c in CATEGORIES):9.3f}")
    return "\n".join(lines[1:])


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


def compare_rows(before: Profile, after: Profile) -> list[dict]:
    """Per region, matched between two runs of the same program by kind, name,
    file and first line: exclusive time and visits (summed over call paths and
    threads) before and after, and the region's id in each run; largest
    change of time first."""

    def by_location(profile: Profile) -> dict[tuple, dict]:
        result: dict[tuple, dict] = {}
        for node in profile.nodes.values():
            region = profile.region_of(node)
            if region is not None and node.kind in ("region", "task_root"):
                key = (region.kind, region.name, region.file, region.first_line)
                entry = result.setdefault(key, {"region": region.id, "exclusive_s": 0.0, "visits": 0})
                entry["exclusive_s"] += node.exclusive_s
                entry["visits"] += node.visits
        return result

    a, b = by_location(before), by_location(after)
    empty = {"region": None, "exclusive_s": 0.0, "visits": 0}
    rows = []
    for key in set(a) | set(b):
        old, new = a.get(key, empty), b.get(key, empty)
        kind, name, file, line = key
        rows.append({"kind": kind, "name": name, "file": file, "line": line,
                     "before_region": old["region"], "after_region": new["region"],
                     "before_s": old["exclusive_s"], "after_s": new["exclusive_s"],
                     "before_visits": old["visits"], "after_visits": new["visits"]})
    return sorted(rows, key=lambda r: (-abs(r["after_s"] - r["before_s"]), r["file"], r["line"]))


def compare(before: Profile, after: Profile, top: int = 10) -> str:
    """Per-region exclusive time of two runs of the same program, largest change first."""
    lines = [f"{'before':>10} {'after':>10} {'change':>10}  Region"]
    for row in compare_rows(before, after)[:top]:
        named = f" '{row['name']}'" if row["name"] else ""
        lines.append(f"{row['before_s']:10.3f} {row['after_s']:10.3f} {row['after_s'] - row['before_s']:+10.3f}  "
                     f"{row['kind']}{named} {row['file']}:{row['line']}")
    return "\n".join(lines)
