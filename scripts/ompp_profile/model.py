# SPDX-License-Identifier: BSD-3-Clause
"""The profile as the scripts see it: the keys of docs/profile-json.md."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional


@dataclass(frozen=True)
class Region:
    id: int
    kind: str
    name: Optional[str]
    file: str
    first_line: int
    last_line: int

    def label(self) -> str:
        # MPI functions have no source line (docs/mpi.md).
        where = f"{self.file} ({self.first_line}-{self.last_line})" if self.first_line else self.file
        named = f" '{self.name}'" if self.name else ""
        return f"R{self.id:05d} {self.kind}{named} {where}"


@dataclass(frozen=True)
class ThreadMetrics:
    thread: int
    visits: int
    inclusive_s: float
    exclusive_s: float
    # ompP's columns (docs/profile-json.md "nodes[]"); 0 when the construct
    # has no such part.
    min_s: float = 0.0
    max_s: float = 0.0
    body_s: float = 0.0
    body_count: int = 0
    enter_s: float = 0.0
    exit_s: float = 0.0
    startup_s: float = 0.0
    shutdown_s: float = 0.0
    task_s: float = 0.0
    task_switches: int = 0
    # MPI regions: bytes sent and received (docs/mpi.md).
    bytes: int = 0
    # Parallel regions with sampled bodies (docs/analyses.md "Preemption").
    cpu_samples: int = 0
    cpu_sampled_s: float = 0.0
    cpu_s: float = 0.0
    run_delay_s: float = 0.0
    counters_inclusive: tuple = ()
    counters_exclusive: tuple = ()


@dataclass(frozen=True)
class Predecessor:
    node: int
    thread: int
    count: int


@dataclass
class Node:
    id: int
    parent: Optional[int]
    kind: str
    region: Optional[int]
    threads: list[ThreadMetrics]
    predecessors: list[Predecessor]
    children: list["Node"] = field(default_factory=list)

    @property
    def visits(self) -> int:
        return sum(t.visits for t in self.threads)

    @property
    def inclusive_s(self) -> float:
        return sum(t.inclusive_s for t in self.threads)

    @property
    def exclusive_s(self) -> float:
        return sum(t.exclusive_s for t in self.threads)


@dataclass
class Profile:
    application: str
    threads: int
    wall_time_s: float
    regions: dict[int, Region]
    nodes: dict[int, Node]
    overheads: dict
    properties: list[dict]
    snapshots: list[dict]
    # libompp's own check of the profile (docs/analyses.md "Invariants"):
    # empty unless libompp has a bug.
    invariant_violations: list[str] = field(default_factory=list)
    version: int = 1
    tasks: list[dict] = field(default_factory=list)
    warnings: list[dict] = field(default_factory=list)
    # Names of the counters (OMPP_CTRn) in the order of the counter lists.
    counters: list[str] = field(default_factory=list)
    # MPI (docs/mpi.md): a rank's {rank, size, host}; a merged profile's ranks.
    mpi: Optional[dict] = None
    ranks: Optional[dict] = None

    def process_text(self) -> str:
        """Which MPI process(es) the profile is of; "" for a program without MPI."""
        if self.mpi:
            return f"MPI rank {self.mpi['rank']} of {self.mpi['size']} on {self.mpi['host']}"
        if self.ranks:
            slowest = ", ".join(map(str, self.ranks["slowest"][:3]))
            return f"{self.ranks['merged']} of {self.ranks['size']} MPI ranks merged (slowest: {slowest})"
        return ""

    @property
    def roots(self) -> list[Node]:
        return [n for n in self.nodes.values() if n.parent is None]

    def region_of(self, node: Node) -> Optional[Region]:
        return self.regions.get(node.region) if node.region is not None else None

    def node_label(self, node: Node) -> str:
        region = self.region_of(node)
        if node.kind == "root":
            return self.application
        if region is None:
            return node.kind
        prefix = {
            "implicit_barrier": "implicit barrier of ",
            "task_root": "task ",
            "task_stub": "tasks run here: ",
        }.get(node.kind, "")
        return prefix + region.label()
