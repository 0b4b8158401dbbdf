# SPDX-License-Identifier: BSD-3-Clause
"""Where each thread's time in a parallel region went (the COMPASS view),
computed from the call tree alone: pure functions over a :class:`Profile`.
"""
from __future__ import annotations

from collections import defaultdict

from .model import Node, Profile

# The categories, in the order the bars stack them.
CATEGORIES = ("work", "barrier", "lock", "taskwait", "task", "mpi", "management")

PARALLEL_KINDS = frozenset({"PARALLEL", "PARALLEL_LOOP", "PARALLEL_SECTIONS", "PARALLEL_MASTER"})
_LOCK_KINDS = frozenset({"CRITICAL", "LOCK", "ORDERED"})
_SYNCHRONISING_KINDS = frozenset({"ATOMIC", "FLUSH"})
_TASKWAIT_KINDS = frozenset({"TASKWAIT", "TASKGROUP"})


def is_parallel(profile: Profile, node: Node) -> bool:
    region = profile.region_of(node)
    return node.kind == "region" and region is not None and region.kind in PARALLEL_KINDS


def _classify(profile: Profile, node: Node, into: dict[int, dict[str, float]]) -> None:
    """Adds the node's own time, per thread, to the categories it belongs to.

    The rules follow ompP's overhead classes (docs/analyses.md): waiting in
    an implicit or explicit barrier, waiting to enter a critical section or
    lock (leaving it is management), fork/join of the team, in MPI calls
    (libompp_mpi); task stubs have
    no exclusive time, their inclusive time is the tasks run there.
    """
    region = profile.region_of(node)
    kind = region.kind if region is not None else None
    for t in node.threads:
        bucket = into[t.thread]
        if node.kind == "task_stub":
            bucket["task"] += t.inclusive_s
        elif node.kind == "implicit_barrier" or kind == "BARRIER":
            bucket["barrier"] += t.exclusive_s
        elif kind in _TASKWAIT_KINDS:
            bucket["taskwait"] += t.exclusive_s
        elif kind in _LOCK_KINDS:
            bucket["lock"] += t.enter_s
            bucket["management"] += t.exit_s
            bucket["work"] += max(t.exclusive_s - t.enter_s - t.exit_s, 0.0)
        elif kind == "MPI":  # an MPI call made inside the region (docs/mpi.md)
            bucket["mpi"] += t.exclusive_s
        elif kind in _SYNCHRONISING_KINDS:
            bucket["lock"] += t.exclusive_s
        elif kind in PARALLEL_KINDS:
            management = t.startup_s + t.shutdown_s
            bucket["management"] += management
            bucket["work"] += max(t.exclusive_s - management, 0.0)
        else:
            bucket["work"] += t.exclusive_s


def thread_breakdown(profile: Profile) -> list[dict]:
    """One record per parallel-region call-tree node: per thread, the seconds
    in each of CATEGORIES.  A nested parallel region and the task trees are
    not part of their enclosing region's record (the nested one has its own;
    task execution is counted where it ran, through the task stubs)."""
    records = []
    for node in profile.nodes.values():
        if not is_parallel(profile, node):
            continue
        per_thread: dict[int, dict[str, float]] = defaultdict(lambda: dict.fromkeys(CATEGORIES, 0.0))
        stack = [node]
        while stack:
            current = stack.pop()
            _classify(profile, current, per_thread)
            stack.extend(
                child for child in current.children
                if child.kind != "task_root" and not is_parallel(profile, child)
            )
        records.append({
            "node": node.id,
            "region": node.region,
            "threads": [{"thread": tid, **per_thread[tid]} for tid in sorted(per_thread)],
        })
    return records
