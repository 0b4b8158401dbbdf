# SPDX-License-Identifier: BSD-3-Clause
"""`ompp-view html`: one self-contained HTML report of a profile.

The profile is read by the one reader (``reader.py``) into the model; this
module turns the model into a compact JSON payload and embeds it, with the
page's CSS and JavaScript from ``html/`` and the npm libraries they use
(``assets.py``), into a single file that needs no network when it is opened.
"""
from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Iterable, Optional

from .assets import Assets
from .breakdown import CATEGORIES, thread_breakdown
from .model import Profile
from .views import compare_rows

ASSETS = Path(__file__).resolve().parent / "html"
# Source files larger than this are not embedded (generated code, amalgamations).
MAX_SOURCE_BYTES = 2_000_000


def _seconds(value: float) -> float:
    # Microsecond resolution is plenty for a display and keeps the file small.
    return round(value, 6)


def find_sources(profile: Profile, search_dirs: Iterable[Path]) -> dict[str, str]:
    """The text of each source file the regions name, looked up as given
    (absolute, or relative to each of search_dirs in turn); files not found
    or too large are left out."""
    sources: dict[str, str] = {}
    for name in sorted({region.file for region in profile.regions.values()}):
        path = Path(name)
        candidates = [path] if path.is_absolute() else [Path(d) / path for d in search_dirs]
        for candidate in candidates:
            try:
                if candidate.is_file() and candidate.stat().st_size <= MAX_SOURCE_BYTES:
                    sources[name] = candidate.read_text(errors="replace")
                    break
            except OSError:
                continue
    return sources


def report_data(profile: Profile, sources: Optional[dict[str, str]] = None) -> dict:
    """The payload the page reads: regions and nodes as short arrays (a
    10,000-node profile stays a few MB), the analyses as the profile has them."""
    return {
        "application": profile.application,
        "process": profile.process_text(),
        "threads": profile.threads,
        "wall_time_s": profile.wall_time_s,
        # [id, kind, name, file, first_line, last_line]
        "regions": [[r.id, r.kind, r.name, r.file, r.first_line, r.last_line]
                    for r in profile.regions.values()],
        # [id, parent, kind, region, [[thread, visits, inclusive, exclusive]], [[node, thread, count]]]
        "nodes": [[n.id, n.parent, n.kind, n.region,
                   [[t.thread, t.visits, _seconds(t.inclusive_s), _seconds(t.exclusive_s)] for t in n.threads],
                   [[p.node, p.thread, p.count] for p in n.predecessors]]
                  for n in profile.nodes.values()],
        "overheads": profile.overheads,
        "properties": profile.properties,
        "snapshots": profile.snapshots,
        "counters": profile.counters,
        "categories": list(CATEGORIES),
        "breakdown": [
            {**record, "threads": [{k: (_seconds(v) if k != "thread" else v) for k, v in t.items()}
                                   for t in record["threads"]]}
            for record in thread_breakdown(profile)
        ],
        "sources": sources or {},
        "invariant_violations": profile.invariant_violations,
    }


def compare_data(before: Profile, after: Profile, before_name: str) -> dict:
    """The compare panel's payload: the report is AFTER's, BEFORE is the other run."""
    return {
        "other": before_name,
        "before_wall_time_s": before.wall_time_s,
        "before_threads": before.threads,
        "rows": [{**row, "before_s": _seconds(row["before_s"]), "after_s": _seconds(row["after_s"])}
                 for row in compare_rows(before, after)],
    }


def _embeddable_json(data: dict) -> str:
    # Inside <script> the only sequence that ends the element early is "</".
    return json.dumps(data, separators=(",", ":")).replace("</", "<\\/")


def _inline_script(code: str) -> str:
    # "</script" can only occur inside a string, regex or comment of the
    # code, where "<\/script" means the same.
    return "<script>\n" + re.sub(r"</(script)", r"<\\/\1", code, flags=re.I) + "\n</script>"


def render_html(profile: Profile, assets: Assets, sources: Optional[dict[str, str]] = None,
                extra: Optional[dict] = None) -> str:
    """The report; `extra` adds keys to the payload (the compare view's)."""
    template = (ASSETS / "report.html").read_text()
    data = {**report_data(profile, sources), "libraries": assets.notice, **(extra or {})}
    replacements = {
        "/*OMPP_LIBRARY_CSS*/": "\n".join(assets.styles),
        "<!--OMPP_LIBRARY_SCRIPTS-->": "\n".join(_inline_script(code) for code in assets.scripts),
        "/*OMPP_CSS*/": (ASSETS / "report.css").read_text(),
        "/*OMPP_JS*/": (ASSETS / "report.js").read_text(),
        "/*OMPP_DATA*/": _embeddable_json(data),
        "OMPP_TITLE": html.escape(profile.application),
    }
    # One pass, so that nothing inserted is itself searched for markers.
    pattern = re.compile("|".join(re.escape(marker) for marker in replacements))
    return pattern.sub(lambda match: replacements[match.group(0)], template)
