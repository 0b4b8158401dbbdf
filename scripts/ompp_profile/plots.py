# SPDX-License-Identifier: BSD-3-Clause
"""Pictures of the terminal views (PNG, SVG or PDF by the file name), drawn
by matplotlib, which is imported only when a picture is asked for."""
from __future__ import annotations

from pathlib import Path

from .breakdown import CATEGORIES, thread_breakdown
from .model import Profile
from .views import overheads_over_time, region_series

# The HTML report's colours for the threads categories (html/report.js).
CATEGORY_COLOURS = {"work": "#74c0fc", "barrier": "#ffa8a8", "lock": "#e599f7", "taskwait": "#ffd43b",
                    "task": "#8ce99a", "mpi": "#ff922b", "management": "#adb5bd"}


class PlotError(Exception):
    pass


def _pyplot():
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise PlotError("pictures need matplotlib (Debian package python3-matplotlib)") from None
    return plt


def _save(figure, output: str) -> None:
    if Path(output).suffix.lower() not in (".png", ".svg", ".pdf"):
        raise PlotError(f"{output}: use a .png, .svg or .pdf file name")
    figure.tight_layout()
    try:
        figure.savefig(output)
    except OSError as err:
        raise PlotError(f"{output}: cannot write ({err.strerror})") from None


def _times(profile: Profile) -> list[float]:
    return [snap["time_s"] for snap in profile.snapshots]


def _region_label(profile: Profile, region: int) -> str:
    known = profile.regions.get(region)
    return f"R{region:05d} {known.kind.lower()}" if known else f"R{region:05d}"


def snapshots_plot(profile: Profile, output: str, top: int) -> None:
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(8, 4.5))
    for region, values in region_series(profile, "time", top).items():
        axes.plot(_times(profile), values, marker="o", label=_region_label(profile, region))
    axes.set_xlabel("time since start (s)")
    axes.set_ylabel("exclusive time in interval (s, all threads)")
    axes.set_title(f"{profile.application}: where each interval went")
    axes.legend(fontsize="small")
    _save(figure, output)


def overtime_plot(profile: Profile, output: str, top: int) -> None:
    """Overheads, exclusive time and invocations per interval, one panel each."""
    plt = _pyplot()
    figure, (overheads, time, visits) = plt.subplots(3, 1, figsize=(8, 9), sharex=True)
    times = _times(profile)
    for name, values in overheads_over_time(profile).items():
        overheads.plot(times, values, marker=".", label=name.removesuffix("_s").replace("_", " "))
    overheads.set_ylabel("overhead (s)")
    overheads.set_title(f"{profile.application}: per snapshot interval, all threads")
    for axes, metric, unit in ((time, "time", "exclusive time (s)"), (visits, "visits", "invocations")):
        for region, values in region_series(profile, metric, top).items():
            axes.plot(times, values, marker=".", label=_region_label(profile, region))
        axes.set_ylabel(unit)
    visits.set_xlabel("time since start (s)")
    for axes in (overheads, time, visits):
        axes.legend(fontsize="x-small", loc="upper left", bbox_to_anchor=(1.0, 1.0))
    _save(figure, output)


def heatmap_plot(profile: Profile, metric: str, output: str, top: int) -> None:
    """Regions (rows) x snapshot intervals (columns), coloured by the metric."""
    plt = _pyplot()
    rows = region_series(profile, metric, top)
    figure, axes = plt.subplots(figsize=(9, 1.2 + 0.3 * max(len(rows), 1)))
    times = _times(profile)
    image = axes.imshow([values for values in rows.values()] or [[0.0] * len(times)], aspect="auto",
                        cmap="YlOrRd", interpolation="nearest",
                        extent=(0, times[-1] if times else 1, len(rows) - 0.5, -0.5))
    axes.set_yticks(range(len(rows)), [_region_label(profile, r) for r in rows], fontsize="small")
    axes.set_xlabel("time since start (s)")
    axes.set_title(f"{profile.application}: {metric} per region and snapshot interval")
    figure.colorbar(image, ax=axes, label=metric)
    _save(figure, output)


def threads_plot(profile: Profile, output: str) -> None:
    """COMPASS-style stacked bars: per parallel region call path, per thread."""
    plt = _pyplot()
    records = thread_breakdown(profile)
    if not records:
        raise PlotError("no parallel regions in this profile")
    bars = [(f"{_region_label(profile, r['region'])} t{t['thread']}", t) for r in records for t in r["threads"]]
    figure, axes = plt.subplots(figsize=(9, 1.2 + 0.28 * len(bars)))
    left = [0.0] * len(bars)
    for category in CATEGORIES:
        widths = [t[category] for _, t in bars]
        axes.barh(range(len(bars)), widths, left=left, color=CATEGORY_COLOURS[category], label=category)
        left = [a + b for a, b in zip(left, widths)]
    axes.set_yticks(range(len(bars)), [label for label, _ in bars], fontsize="small")
    axes.invert_yaxis()
    axes.set_xlabel("seconds")
    axes.set_title(f"{profile.application}: where each thread's time went, per parallel region")
    axes.legend(fontsize="small", ncol=len(CATEGORIES), loc="upper center", bbox_to_anchor=(0.5, -0.08))
    _save(figure, output)

