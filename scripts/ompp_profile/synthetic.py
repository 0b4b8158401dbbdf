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


_THREAD_COLUMNS = ("min_s", "max_s", "body_s", "body_count", "enter_s", "exit_s", "startup_s", "shutdown_s", "task_s",
                   "task_switches")


def rank_profiles(ranks: int, regions: int, nodes: int, threads: int = 2, slow_rank: int = 1, seed: int = 1):
    """Yields (rank, profile) for the ranks of one made-up MPI run: the same
    call tree on every rank (generated_profile's, every column libompp writes),
    times growing slightly with the rank and doubled on `slow_rank`, and an
    MPI_Allreduce under the root in which each rank waits for the slow one."""
    base = generated_profile(regions, nodes, threads, seed=seed)
    mpi_region = len(base["regions"]) + 1
    base["regions"].append({"id": mpi_region, "kind": "MPI", "name": "MPI_Allreduce", "file": "MPI library",
                            "first_line": 0, "last_line": 0})
    for region in base["regions"]:
        region.update(function=None, directive_last_line=region["first_line"], block_end_file=region["file"],
                      block_end_first_line=region["last_line"])
    base.update(max_depth=50, start_date="2026-11-24T10:00:00+0000", end_date="2026-11-24T10:00:09+0000",
                user_time_s=1.0, system_time_s=0.1, final_report=True, source_root="", counters=[],
                counter_errors=[], threads_info=[{"thread": t, "team_level": 1 if t else 0, "parent_thread": 0}
                                                 for t in range(threads)],
                tasks=[], warnings=[], invariant_violations=[])
    for node in base["nodes"]:
        for metrics in node["threads"]:
            for column in _THREAD_COLUMNS:
                metrics.setdefault(column, 0)
    base["nodes"].append({"id": len(base["nodes"]), "parent": 0, "kind": "region", "region": mpi_region,
                          "threads": [{"thread": 0, "visits": 10, "inclusive_s": 0.0, "exclusive_s": 0.0, "bytes": 80,
                                       **{c: 0 for c in _THREAD_COLUMNS}}], "predecessors": []})
    work = base["wall_time_s"] * 2
    for rank in range(ranks):
        factor = (2.0 if rank == slow_rank else 1.0) * (1.0 + rank * 1e-4)
        profile = {**base, "mpi": {"rank": rank, "size": ranks, "host": f"node{rank // 32}"},
                   "wall_time_s": work + 1.0}
        profile["nodes"] = [{**node, "threads": [{**m, "inclusive_s": m["inclusive_s"] * factor,
                                                  "exclusive_s": m["exclusive_s"] * factor}
                                                 for m in node["threads"]]}
                            for node in base["nodes"][:-1]]
        wait = work - base["wall_time_s"] * factor
        mpi_node = base["nodes"][-1]
        profile["nodes"].append({**mpi_node, "threads": [{**mpi_node["threads"][0], "inclusive_s": wait,
                                                          "exclusive_s": wait}]})
        yield rank, profile
