# SPDX-License-Identifier: BSD-3-Clause
"""Generated profiles of a chosen size, for the HTML report's benchmark and
tests: parallel regions with loops, critical sections, implicit barriers,
task trees and task stubs, control flow, overheads, properties, snapshots.
The figures are consistent (inclusive = exclusive + children, per thread)
but made up; the shape is what matters.
"""
from __future__ import annotations

import random

_INNER_KINDS = ("LOOP", "CRITICAL", "SINGLE", "BARRIER", "USER_REGION", "ATOMIC", "TASKWAIT")


def generated_profile(regions: int, nodes: int, threads: int = 4, snapshots: int = 0, seed: int = 1,
                      per_thread_snapshots: bool = False) -> dict:
    """A profile with about `regions` regions and `nodes` call-tree nodes;
    with per_thread_snapshots, the snapshots' region entries also carry
    per-thread rows (which libompp does not write yet, docs/analyses.md)."""
    rng = random.Random(seed)
    region_list = [{"id": 1, "kind": "TASK", "name": None, "file": "generated.c", "first_line": 2, "last_line": 3}]
    for rid in range(2, regions + 1):
        kind = "PARALLEL" if rid % 10 == 2 else _INNER_KINDS[rid % len(_INNER_KINDS)]
        name = f"r{rid}" if kind in ("CRITICAL", "USER_REGION") else None
        line = 10 * rid
        region_list.append({"id": rid, "kind": kind, "name": name, "file": "generated.c",
                            "first_line": line, "last_line": line + 5})
    parallel = [r["id"] for r in region_list if r["kind"] == "PARALLEL"]
    inner = [r["id"] for r in region_list if r["kind"] not in ("PARALLEL", "TASK")]

    raw: list[dict] = []

    def add(parent, kind, region, team):
        node = {"id": len(raw), "parent": parent, "kind": kind, "region": region, "team": team,
                "own": [rng.uniform(0.001, 0.05) * (kind != "task_stub") for _ in team],
                "visits": rng.randint(1, 50), "children": []}
        raw.append(node)
        if parent is not None:
            raw[parent]["children"].append(node["id"])
        return node["id"]

    root = add(None, "root", None, [0])
    task_tree = add(None, "task_root", 1, list(range(threads)))
    team = list(range(threads))
    while len(raw) < nodes:
        top = add(root, "region", rng.choice(parallel), team)
        frontier = [top]
        for _ in range(rng.randint(5, 40)):
            if len(raw) >= nodes:
                break
            parent = rng.choice(frontier)
            child = add(parent, "region", rng.choice(inner), team)
            frontier.append(child)
            if rng.random() < 0.1:
                add(child, "task_stub", 1, team)
        add(top, "implicit_barrier", raw[top]["region"], team)
        if rng.random() < 0.3:
            add(task_tree, "region", rng.choice(inner), team)

    def inclusive(node, slot):
        return node["own"][slot] + sum(inclusive(raw[c], slot) for c in node["children"] if len(raw[c]["team"]) > slot)

    out_nodes = []
    for node in raw:
        children = node["children"]
        metrics = [{"thread": tid, "visits": node["visits"], "exclusive_s": round(node["own"][slot], 6),
                    "inclusive_s": round(inclusive(node, slot), 6)}
                   for slot, tid in enumerate(node["team"])]
        out_nodes.append({"id": node["id"], "parent": node["parent"], "kind": node["kind"],
                          "region": node["region"], "threads": metrics, "predecessors": []})
        for i, child in enumerate(children):
            before = node["id"] if i == 0 else children[i - 1]
            raw[child]["pred"] = before
    for node in out_nodes:
        before = raw[node["id"]].get("pred")
        if before is not None:
            node["predecessors"] = [{"node": before, "thread": t["thread"], "count": raw[node["id"]]["visits"]}
                                    for t in node["threads"]]
    wall = max(t["inclusive_s"] for t in out_nodes[root]["threads"]) + 1.0
    classes = ("synchronization_s", "imbalance_s", "limited_parallelism_s", "thread_management_s")
    return {
        "format": "ompp-profile", "version": 1, "application": "generated", "threads": threads,
        "wall_time_s": wall,
        "regions": region_list,
        "nodes": out_nodes,
        "overheads": {
            "program": {"total_s": wall * threads, **{k: rng.uniform(0, 0.1) * wall for k in classes}},
            "regions": [{"region": r, "total_s": wall, **{k: rng.uniform(0, 0.1) * wall for k in classes}}
                        for r in parallel],
        },
        "properties": sorted(
            ({"name": "ImbalanceInParallelLoop", "region": r, "severity_pct": round(rng.uniform(0.1, 20), 2),
              "text": f"made up for R{r:05d}"} for r in inner[:50]),
            key=lambda p: -p["severity_pct"]),
        "snapshots": [
            {"time_s": round((i + 1) * wall / snapshots, 3),
             "regions": [{"region": r, "visits": (i + 1) * threads, "exclusive_s": round((i + 1) * 0.01 * (r % 7), 6),
                          **({"threads": [{"thread": t, "visits": i + 1,
                                           "exclusive_s": round((i + 1) * 0.01 * (r % 7) * (t + 1) / 10, 6)}
                                          for t in range(threads)]} if per_thread_snapshots else {})}
                         for r in inner[:20]],
             "overheads": {k: (i + 1) * 0.001 for k in classes}}
            for i in range(snapshots)
        ],
    }
