# SPDX-License-Identifier: BSD-3-Clause
"""Turns a ``*.ompp.json`` file into a :class:`Profile`."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Union

from .model import Node, Predecessor, Profile, Region, ThreadMetrics


class ProfileFormatError(ValueError):
    """The file is not an ompp profile, or breaks the documented schema."""


def _require(obj: dict, key: str, where: str) -> Any:
    if key not in obj:
        raise ProfileFormatError(f"{where}: missing key '{key}'")
    return obj[key]


def read_profile(source: Union[str, Path, dict]) -> Profile:
    """Reads a profile from a path or from already-parsed JSON.

    Raises ProfileFormatError naming the file and the offending key.
    """
    if isinstance(source, dict):
        data, origin = source, "<profile>"
    else:
        origin = str(source)
        try:
            data = json.loads(Path(source).read_text())
        except json.JSONDecodeError as err:
            raise ProfileFormatError(f"{origin}:{err.lineno}: not JSON ({err.msg})") from err
    if data.get("format") != "ompp-profile":
        raise ProfileFormatError(f"{origin}: not an ompp profile (format={data.get('format')!r})")

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
            threads=[
                ThreadMetrics(
                    thread=t["thread"],
                    visits=t["visits"],
                    inclusive_s=t["inclusive_s"],
                    exclusive_s=t["exclusive_s"],
                    enter_s=t.get("enter_s", 0.0),
                    exit_s=t.get("exit_s", 0.0),
                    startup_s=t.get("startup_s", 0.0),
                    shutdown_s=t.get("shutdown_s", 0.0),
                )
                for t in _require(raw, "threads", where)
            ],
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
        application=_require(data, "application", origin),
        threads=_require(data, "threads", origin),
        wall_time_s=_require(data, "wall_time_s", origin),
        regions=regions,
        nodes=nodes,
        overheads=data.get("overheads", {}),
        properties=data.get("properties", []),
        snapshots=data.get("snapshots", []),
        invariant_violations=data.get("invariant_violations", []),
        counters=[c.get("name", f"counter {i}") for i, c in enumerate(data.get("counters", []))],
    )
