# SPDX-License-Identifier: BSD-3-Clause
"""The one reader of ``*.ompp.json`` profiles (docs/profile-json.md, the contract).

``read_json`` parses a profile and checks it is one this reader understands
(format, version, the keys every reader relies on); ``read_profile`` turns it
into the :class:`Profile` model.  Every script, benchmark and test reads
profiles through one of them.
"""
from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path
from typing import Any, Union

from .model import Node, Predecessor, Profile, Region, ThreadMetrics


# The contract's version this reader understands (docs/profile-json.md).
SUPPORTED_VERSION = 1


class ProfileFormatError(ValueError):
    """The file is not an ompp profile, or breaks the documented schema."""


def _require(obj: dict, key: str, where: str) -> Any:
    if key not in obj:
        raise ProfileFormatError(f"{where}: missing key '{key}'")
    return obj[key]


def _parse(source: Union[str, Path, dict]) -> tuple[dict, str]:
    if isinstance(source, dict):
        return source, "<profile>"
    origin = str(source)
    try:
        return json.loads(Path(source).read_text()), origin
    except json.JSONDecodeError as err:
        raise ProfileFormatError(f"{origin}:{err.lineno}: not JSON ({err.msg})") from err


def _check(data: dict, origin: str) -> None:
    if not isinstance(data, dict) or data.get("format") != "ompp-profile":
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise ProfileFormatError(f"{origin}: not an ompp profile (format={found!r})")
    version = _require(data, "version", origin)
    if not isinstance(version, int) or version > SUPPORTED_VERSION:
        raise ProfileFormatError(f"{origin}: profile version {version!r}, this reader knows version "
                                 f"{SUPPORTED_VERSION} (docs/profile-json.md)")
    for key in ("application", "threads", "wall_time_s", "regions", "nodes"):
        _require(data, key, origin)


def read_json(source: Union[str, Path, dict]) -> dict:
    """The profile as parsed JSON, checked to be an ompp profile of a known version.

    For callers that look at keys the model does not carry.  Raises
    ProfileFormatError naming the file and the offending key.
    """
    data, origin = _parse(source)
    _check(data, origin)
    return data


def read_profile(source: Union[str, Path, dict]) -> Profile:
    """Reads a profile from a path or from already-parsed JSON.

    Raises ProfileFormatError naming the file and the offending key.
    """
    data, origin = _parse(source)
    _check(data, origin)

    regions = {}
    for raw in _require(data, "regions", origin):
        where = f"{origin}: region {raw.get('id', '?')}"
        region = Region(
            id=_require(raw, "id", where),
            kind=_require(raw, "kind", where),
            name=raw.get("name"),
            file=_require(raw, "file", where),
            first_line=_require(raw, "first_line", where),
            last_line=_require(raw, "last_line", where),
        )
        regions[region.id] = region

    nodes: dict[int, Node] = {}
    for raw in _require(data, "nodes", origin):
        where = f"{origin}: node {raw.get('id', '?')}"
        node = Node(
            id=_require(raw, "id", where),
            parent=raw.get("parent"),
            kind=_require(raw, "kind", where),
            region=raw.get("region"),
            threads=[_thread_metrics(t, where) for t in _require(raw, "threads", where)],
            predecessors=[
                Predecessor(node=p["node"], thread=p["thread"], count=p["count"])
                for p in raw.get("predecessors", [])
            ],
        )
        if node.parent is not None:
            if node.parent not in nodes:
                raise ProfileFormatError(f"{where}: parent {node.parent} does not come before it")
            nodes[node.parent].children.append(node)
        if node.region is not None and node.region not in regions:
            raise ProfileFormatError(f"{where}: unknown region {node.region}")
        nodes[node.id] = node

    return Profile(
        version=data["version"],
        application=_require(data, "application", origin),
        threads=_require(data, "threads", origin),
        wall_time_s=_require(data, "wall_time_s", origin),
        regions=regions,
        nodes=nodes,
        overheads=data.get("overheads", {}),
        properties=data.get("properties", []),
        snapshots=data.get("snapshots", []),
        invariant_violations=data.get("invariant_violations", []),
        tasks=data.get("tasks", []),
        warnings=data.get("warnings", []),
        counters=[c.get("name", f"counter {i}") for i, c in enumerate(data.get("counters", []))],
        mpi=data.get("mpi"),
        ranks=data.get("ranks"),
    )


def _thread_metrics(raw: dict, where: str) -> ThreadMetrics:
    """One entry of a node's ``threads``: the required keys, the rest 0 when absent."""
    required = {key: _require(raw, key, where) for key in ("thread", "visits", "inclusive_s", "exclusive_s")}
    optional = {f.name: tuple(raw[f.name]) if isinstance(raw[f.name], list) else raw[f.name]
                for f in fields(ThreadMetrics) if f.name not in required and f.name in raw}
    return ThreadMetrics(**required, **optional)
