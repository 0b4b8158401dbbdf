# SPDX-License-Identifier: BSD-3-Clause
"""Per-rank profiles of one MPI run merged into one profile (docs/mpi.md).

``merge_profiles`` reads the rank profiles one at a time in each worker
process (only one is ever parsed in a process) into a merged call tree whose
thread t is the sum of every rank's thread t, and per region and rank two
numbers (its thread-seconds, and those outside MPI calls): memory grows with
the call tree and the number of ranks, never with the size of the profiles.  The result is an ordinary profile
(docs/profile-json.md), so every view reads it, plus a ``ranks`` object:
the ranks, per region min / mean / max over ranks with the rank of the max,
and the slowest ranks; its ``properties`` are the regions' imbalance across
ranks.  ``ranks_report`` is the text report of a merged profile.
"""
from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from operator import add, itemgetter
from pathlib import Path
from typing import Iterable, Optional

from .reader import ProfileFormatError, read_json

# Regions whose imbalance across ranks costs less than this share of all
# ranks' time are not reported as a property.
_MIN_SEVERITY_PCT = 1.0
_MAX_PROPERTIES = 20
# Fewer profiles than this per worker process are merged in this process.
_FILES_PER_WORKER = 32
# A merged node's thread t: the sums of these over the ranks' thread t
# (visits and inclusive_s first).
_SUMMED = ("visits", "inclusive_s", "exclusive_s", "body_s", "body_count", "enter_s", "exit_s", "startup_s",
           "shutdown_s", "task_s", "task_switches")
_N = len(_SUMMED)
_COLUMNS = (*_SUMMED, "min_s", "max_s")  # min_s and max_s: the extremes
_columns = itemgetter(*_COLUMNS)


def profile_files(arguments: Iterable[str]) -> list[Path]:
    """The profiles named, a directory standing for its *.ompp.json files
    (merged profiles among them left out)."""
    files: list[Path] = []
    for argument in arguments:
        path = Path(argument)
        if path.is_dir():
            found = sorted(p for p in path.glob("*.ompp.json") if not p.name.endswith(".merged.ompp.json"))
            if not found:
                raise ProfileFormatError(f"{path}: no *.ompp.json profiles in this directory")
            files.extend(found)
        else:
            files.append(path)
    if not files:
        raise ProfileFormatError("no profiles to merge")
    return files


class _MergedNode:
    __slots__ = ("id", "parent", "kind", "region", "threads", "bytes")

    def __init__(self, node_id: int, parent: Optional[int], kind: str, region: Optional[int], moves_bytes: bool):
        self.id, self.parent, self.kind, self.region = node_id, parent, kind, region
        self.threads: dict[int, list] = {}  # thread -> _SUMMED sums, then min_s, max_s
        self.bytes: Optional[dict[int, int]] = {} if moves_bytes else None  # MPI regions: thread -> bytes

    def add(self, threads: list[dict]) -> tuple[int, float]:
        """Adds one rank's threads; their visits and inclusive time."""
        visits, inclusive = 0, 0.0
        if self.bytes is not None:
            for metrics in threads:
                self.bytes[metrics["thread"]] = self.bytes.get(metrics["thread"], 0) + metrics.get("bytes", 0)
        for metrics in threads:
            try:
                values = _columns(metrics)
            except KeyError:  # a profile without the optional columns
                values = tuple(metrics.get(key, 0) for key in _COLUMNS)
            visits += values[0]
            inclusive += values[1]
            sums = self.threads.get(metrics["thread"])
            if sums is None:
                self.threads[metrics["thread"]] = list(values)
                continue
            sums[:_N] = map(add, sums[:_N], values[:_N])
            if values[_N] < sums[_N]:
                sums[_N] = values[_N]
            if values[_N + 1] > sums[_N + 1]:
                sums[_N + 1] = values[_N + 1]
        return visits, inclusive

    def absorb(self, other: "_MergedNode") -> None:
        """Adds another partial merge's figures of this node."""
        for thread, theirs in other.threads.items():
            sums = self.threads.get(thread)
            if sums is None:
                self.threads[thread] = list(theirs)
                continue
            sums[:_N] = map(add, sums[:_N], theirs[:_N])
            sums[_N] = min(sums[_N], theirs[_N])
            sums[_N + 1] = max(sums[_N + 1], theirs[_N + 1])
        if self.bytes is not None and other.bytes is not None:
            for thread, moved in other.bytes.items():
                self.bytes[thread] = self.bytes.get(thread, 0) + moved

    def to_json(self) -> dict:
        threads = []
        for thread in sorted(self.threads):
            sums = self.threads[thread]
            entry = {"thread": thread, **dict(zip(_SUMMED, sums)), "min_s": sums[_N], "max_s": sums[_N + 1]}
            if self.bytes is not None:
                entry["bytes"] = self.bytes.get(thread, 0)
            threads.append(entry)
        return {"id": self.id, "parent": self.parent, "kind": self.kind, "region": self.region,
                "threads": threads, "predecessors": []}


class _Merge:
    def __init__(self):
        self.region_ids: dict[tuple, int] = {}
        self.regions: list[dict] = []
        self.node_ids: dict[tuple, int] = {}
        self.nodes: list[_MergedNode] = []
        self.region_time: dict[int, dict[int, float]] = {}  # merged region -> rank -> thread-seconds
        self.region_work: dict[int, dict[int, float]] = {}  # the same, less the MPI calls inside
        self.source_roots: set[str] = set()
        self.region_bytes: dict[int, int] = {}
        self.region_visits: dict[int, int] = {}
        self.ranks: dict[int, dict] = {}
        self.sizes: set[int] = set()
        self.applications: set[str] = set()
        self.threads = 1
        self.max_depth = 0
        self.wall_time_s = 0.0
        self.dates: list[tuple[str, str]] = []
        self.cpu = [0.0, 0.0]
        self.overheads: dict[Optional[int], dict[str, float]] = {}

    def merged_region(self, raw: dict) -> int:
        key = (raw["kind"], raw.get("file"), raw.get("first_line"), raw.get("name"))
        merged = self.region_ids.get(key)
        if merged is None:
            merged = self.region_ids[key] = len(self.regions) + 1
            self.regions.append({**raw, "id": merged})
        return merged

    def add(self, data: dict, origin: str, position: int) -> None:
        mpi = data.get("mpi")
        if "ranks" in data:
            raise ProfileFormatError(f"{origin}: a merged profile; merge the rank profiles instead")
        rank = mpi["rank"] if mpi else position
        if rank in self.ranks:
            raise ProfileFormatError(f"{origin}: a second profile of rank {rank} (the first: "
                                     f"{self.ranks[rank]['file']}); merge the profiles of one run")
        if mpi:
            self.sizes.add(mpi["size"])
        self.applications.add(data["application"])
        self.source_roots.add(data.get("source_root", ""))
        self.threads = max(self.threads, data["threads"])
        self.max_depth = max(self.max_depth, data.get("max_depth", 0))
        self.wall_time_s = max(self.wall_time_s, data["wall_time_s"])
        self.dates.append((data.get("start_date", ""), data.get("end_date", "")))
        self.cpu[0] += data.get("user_time_s", 0.0)
        self.cpu[1] += data.get("system_time_s", 0.0)

        local_regions = {raw["id"]: self.merged_region(raw) for raw in data["regions"]}
        mpi_regions = {raw["id"] for raw in data["regions"] if raw["kind"] == "MPI"}
        local_nodes: dict[int, int] = {}
        mpi_below = _mpi_time_below(data["nodes"], mpi_regions)
        # The rank's first thread: the one at the root (the program's main thread).
        root_threads = data["nodes"][0]["threads"] if data["nodes"] else []
        first_thread = min((t["thread"] for t in root_threads), default=0)
        mpi_on_first_thread = 0.0
        for raw in data["nodes"]:
            parent = local_nodes.get(raw["parent"]) if raw["parent"] is not None else None
            region = local_regions.get(raw["region"]) if raw["region"] is not None else None
            key = (parent, raw["kind"], region)
            merged_id = self.node_ids.get(key)
            if merged_id is None:
                merged_id = self.node_ids[key] = len(self.nodes)
                moves_bytes = raw["kind"] == "region" and raw["region"] in mpi_regions
                self.nodes.append(_MergedNode(merged_id, parent, raw["kind"], region, moves_bytes))
            local_nodes[raw["id"]] = merged_id
            threads = raw["threads"]
            visits, inclusive = self.nodes[merged_id].add(threads)
            if raw["kind"] == "region" and region is not None and threads:
                per_rank = self.region_time.setdefault(region, {})
                per_rank[rank] = per_rank.get(rank, 0.0) + inclusive
                work = self.region_work.setdefault(region, {})
                work[rank] = work.get(rank, 0.0) + inclusive - mpi_below.get(raw["id"], 0.0)
                self.region_visits[region] = self.region_visits.get(region, 0) + visits
                if raw["region"] in mpi_regions:
                    self.region_bytes[region] = self.region_bytes.get(region, 0) + sum(t.get("bytes", 0) for t in threads)
                    mpi_on_first_thread += sum(t["inclusive_s"] for t in threads if t["thread"] == first_thread)

        for entry in data.get("overheads", {}).get("regions", []):
            self._add_overheads(local_regions.get(entry["region"]), entry)
        if "program" in data.get("overheads", {}):
            self._add_overheads(None, data["overheads"]["program"])
        self.ranks[rank] = {
            "rank": rank, "host": mpi.get("host", "") if mpi else "", "file": origin,
            "threads": data["threads"], "wall_time_s": data["wall_time_s"],
            "mpi_s": mpi_on_first_thread, "work_s": max(0.0, data["wall_time_s"] - mpi_on_first_thread)}

    def absorb(self, other: "_Merge") -> None:
        """Adds a partial merge of other profiles (another worker's)."""
        for rank, info in other.ranks.items():
            if rank in self.ranks:
                raise ProfileFormatError(f"{info['file']}: a second profile of rank {rank} (the first: "
                                         f"{self.ranks[rank]['file']}); merge the profiles of one run")
            self.ranks[rank] = info
        regions = {raw["id"]: self.merged_region(raw) for raw in other.regions}
        nodes: dict[int, int] = {}
        for node in other.nodes:  # parents before children
            parent = nodes[node.parent] if node.parent is not None else None
            region = regions[node.region] if node.region is not None else None
            key = (parent, node.kind, region)
            merged_id = self.node_ids.get(key)
            if merged_id is None:
                merged_id = self.node_ids[key] = len(self.nodes)
                self.nodes.append(_MergedNode(merged_id, parent, node.kind, region, node.bytes is not None))
            nodes[node.id] = merged_id
            self.nodes[merged_id].absorb(node)
        for mine, theirs in ((self.region_time, other.region_time), (self.region_work, other.region_work)):
            for region, per_rank in theirs.items():
                mine.setdefault(regions[region], {}).update(per_rank)
        for mine, theirs in ((self.region_visits, other.region_visits), (self.region_bytes, other.region_bytes)):
            for region, value in theirs.items():
                mine[regions[region]] = mine.get(regions[region], 0) + value
        for region, entry in other.overheads.items():
            self._add_overheads(regions[region] if region is not None else None, entry)
        self.sizes |= other.sizes
        self.applications |= other.applications
        self.source_roots |= other.source_roots
        self.threads = max(self.threads, other.threads)
        self.max_depth = max(self.max_depth, other.max_depth)
        self.wall_time_s = max(self.wall_time_s, other.wall_time_s)
        self.dates += other.dates
        self.cpu = [mine + theirs for mine, theirs in zip(self.cpu, other.cpu)]

    def _add_overheads(self, region: Optional[int], entry: dict) -> None:
        summed = self.overheads.setdefault(region, {})
        for key, value in entry.items():
            if key != "region" and isinstance(value, (int, float)):
                summed[key] = summed.get(key, 0.0) + value

    def result(self, top: int) -> dict:
        ranks = sorted(self.ranks)
        count = len(ranks)
        size = max(self.sizes) if self.sizes else count
        region_stats = []
        for region in self.regions:
            per_rank = self.region_time.get(region["id"], {})
            low, mean, high = _spread(per_rank, ranks)
            region_stats.append({
                "region": region["id"], "min_s": low[0], "min_rank": low[1], "mean_s": mean,
                "max_s": high[0], "max_rank": high[1], "ranks": len(per_rank),
                "visits": self.region_visits.get(region["id"], 0), "bytes": self.region_bytes.get(region["id"], 0)})
        region_stats.sort(key=lambda s: -s["max_s"])
        all_time = sum(self.ranks[r]["wall_time_s"] for r in ranks) or 1.0
        properties = []
        root = next(iter(self.source_roots)) if len(self.source_roots) == 1 else ""
        for region in self.regions:
            if region["kind"] == "MPI":
                continue  # where ranks wait: the imbalance shows in the regions they wait for
            low, mean, high = _spread(self.region_work.get(region["id"], {}), ranks)
            lost = high[0] - mean
            severity = 100.0 * lost * count / all_time
            if severity < _MIN_SEVERITY_PCT:
                continue
            properties.append({
                "name": "ImbalanceAcrossRanks", "region": region["id"], "severity_pct": round(severity, 3),
                "text": (f"{_region_text(region, root)}: outside MPI calls rank {high[1]} takes {high[0]:.3f} s, "
                         f"the mean rank {mean:.3f} s (least: rank {low[1]}, {low[0]:.3f} s); the other ranks "
                         f"wait {lost:.3f} s on average")})
        properties.sort(key=lambda p: -p["severity_pct"])
        slowest = sorted(ranks, key=lambda r: (-self.ranks[r]["work_s"], r))[:top]
        program = self.overheads.get(None, {})
        return {
            "format": "ompp-profile", "version": 1,
            "application": " ".join(sorted(self.applications)),
            "threads": self.threads, "max_depth": self.max_depth, "wall_time_s": self.wall_time_s,
            "start_date": min(d[0] for d in self.dates), "end_date": max(d[1] for d in self.dates),
            "user_time_s": self.cpu[0], "system_time_s": self.cpu[1], "final_report": True,
            "source_root": root, "counters": [], "counter_errors": [],
            "regions": self.regions,
            "nodes": [node.to_json() for node in self.nodes],
            "threads_info": [{"thread": thread, "team_level": 0 if thread == 0 else 1, "parent_thread": 0}
                             for thread in sorted({t for node in self.nodes for t in node.threads})],
            "tasks": [],
            "overheads": {"program": {"total_s": 0.0, **program},
                          "regions": [{"region": region, **values} for region, values in self.overheads.items()
                                      if region is not None]},
            "properties": properties[:_MAX_PROPERTIES],
            "snapshots": [], "warnings": [], "invariant_violations": [],
            "ranks": {
                "size": size, "merged": count,
                "missing": [r for r in range(size) if r not in self.ranks] if self.sizes else [],
                "profiles": [self.ranks[r] for r in ranks],
                "regions": region_stats,
                "slowest": slowest,
            },
        }


def _mpi_time_below(nodes: list[dict], mpi_regions: set[int]) -> dict[int, float]:
    """Per node id of one profile: the time of the MPI calls in its subtree
    (its own, for an MPI node), all threads."""
    below: dict[int, float] = {}
    for raw in reversed(nodes):  # children before parents
        own = below.get(raw["id"], 0.0)
        if raw["kind"] == "region" and raw["region"] in mpi_regions:
            own = sum(t["inclusive_s"] for t in raw["threads"])
            below[raw["id"]] = own
        if raw["parent"] is not None and own:
            below[raw["parent"]] = below.get(raw["parent"], 0.0) + own
    return below


def _spread(per_rank: dict[int, float], ranks: list[int]) -> tuple[tuple[float, int], float, tuple[float, int]]:
    """(min, its rank), the mean and (max, its rank) over `ranks` (absent: 0);
    ties go to the lowest rank."""
    times = [(per_rank.get(rank, 0.0), rank) for rank in ranks]
    low = min(times)
    high = max(times, key=lambda t: (t[0], -t[1]))
    return low, sum(t for t, _ in times) / len(times), high


def _region_text(region: dict, root: str = "") -> str:
    name = f" '{region['name']}'" if region.get("name") else ""
    file = region["file"].removeprefix(root) if root else region["file"]
    where = file if not region.get("first_line") else f"{file} ({region['first_line']})"
    return f"R{region['id']:05d} {region['kind']}{name} {where}"


def _merge_part(numbered: list[tuple[int, Path]]) -> _Merge:
    merge = _Merge()
    for position, path in numbered:
        merge.add(read_json(path), str(path), position)
    return merge


def merge_profiles(files: Iterable[Path], top: int = 5, workers: Optional[int] = None) -> dict:
    """The merged profile of the rank profiles in `files`, each read once, one
    at a time per worker process (parsing JSON is most of the work); the
    workers' partial merges are combined in file order."""
    numbered = list(enumerate(files))
    workers = min(workers or os.cpu_count() or 1, max(1, len(numbered) // _FILES_PER_WORKER))
    if workers == 1:
        return _merge_part(numbered).result(top)
    chunk = -(-len(numbered) // workers)
    parts = [numbered[i:i + chunk] for i in range(0, len(numbered), chunk)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        merged, *rest = pool.map(_merge_part, parts)
    for part in rest:
        merged.absorb(part)
    return merged.result(top)


def ranks_report(merged: dict, top: int = 20) -> str:
    """The cross-rank text report of a merged profile."""
    ranks = merged.get("ranks")
    if ranks is None:
        raise ProfileFormatError("not a merged profile (no 'ranks'): make one with 'ompp-view merge'")
    by_rank = {p["rank"]: p for p in ranks["profiles"]}
    regions = {r["id"]: r for r in merged["regions"]}
    lines = [f"ompP cross-rank report: {merged['application']}, {ranks['merged']} of {ranks['size']} ranks, "
             f"up to {merged['threads']} threads each, {merged['wall_time_s']:.3f} s"]
    if ranks["missing"]:
        lines.append(f"missing ranks (no profile): {', '.join(map(str, ranks['missing']))}")
    lines += ["", "Slowest ranks (time outside MPI on the rank's first thread):",
              f"{'rank':>6} {'host':<20} {'wall_s':>10} {'mpi_s':>10} {'work_s':>10}"]
    for rank in ranks["slowest"]:
        p = by_rank[rank]
        lines.append(f"{rank:>6} {p['host']:<20} {p['wall_time_s']:>10.3f} {p['mpi_s']:>10.3f} {p['work_s']:>10.3f}")
    lines += ["", "Regions across ranks (thread-seconds per rank; by max):",
              f"{'region':<48} {'min_s':>9} {'mean_s':>9} {'max_s':>9} {'max_rank':>8} {'visits':>10} {'bytes':>12}"]
    for stat in ranks["regions"][:top]:
        lines.append(f"{_region_text(regions[stat['region']], merged.get('source_root', ''))[:48]:<48} {stat['min_s']:>9.3f} {stat['mean_s']:>9.3f} "
                     f"{stat['max_s']:>9.3f} {stat['max_rank']:>8} {stat['visits']:>10} {stat['bytes']:>12}")
    if len(ranks["regions"]) > top:
        lines.append(f"... {len(ranks['regions']) - top} more regions in the merged profile")
    lines += ["", "Imbalance across ranks:"]
    if not merged["properties"]:
        lines.append(f"  none above {_MIN_SEVERITY_PCT}% of all ranks' time")
    for prop in merged["properties"]:
        lines.append(f"  {prop['name']} {prop['severity_pct']:6.2f}%  {prop['text']}")
    return "\n".join(lines)
