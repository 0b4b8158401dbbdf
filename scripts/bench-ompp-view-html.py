#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Size and generation time of `ompp-view html` on generated profiles.

  scripts/bench-ompp-view-html.py [--sizes REGIONS:NODES ...] [--repeat N]

Prints, per size, the best of N generation times (read + render + write,
in-process) and the size of the HTML file.  With chromium installed, also
the time the page's script took to build every view (data-render-ms).
"""
import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ompp_profile import html_report, read_profile  # noqa: E402
from ompp_profile.synthetic import generated_profile  # noqa: E402


def render_ms(html_file: Path) -> str:
    """The page's own measure of its start-up, read back through chromium's DOM dump."""
    chromium = shutil.which("chromium")
    if not chromium:
        return "-"
    with tempfile.TemporaryDirectory() as profile_dir:
        dom = subprocess.run(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={profile_dir}",
             "--window-size=1400,1000", "--dump-dom", html_file.as_uri()],
            capture_output=True, text=True, timeout=60).stdout
    marker = 'data-render-ms="'
    start = dom.find(marker)
    return dom[start + len(marker):dom.find('"', start + len(marker))] if start >= 0 else "?"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", nargs="*", default=["200:1000", "200:10000"])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{'regions':>8} {'nodes':>7} {'generate (s)':>13} {'HTML (KiB)':>11} {'page script (ms)':>17}")
    with tempfile.TemporaryDirectory() as work:
        for size in args.sizes:
            regions, nodes = (int(x) for x in size.split(":"))
            source = Path(work) / f"g{regions}_{nodes}.ompp.json"
            source.write_text(json.dumps(generated_profile(regions, nodes, snapshots=20)))
            output = source.with_suffix(".html")
            best = float("inf")
            for _ in range(args.repeat):
                start = time.perf_counter()
                profile = read_profile(source)
                output.write_text(html_report.render_html(profile, {}))
                best = min(best, time.perf_counter() - start)
            node_count = len(profile.nodes)
            print(f"{regions:8d} {node_count:7d} {best:13.3f} {output.stat().st_size / 1024:11.0f} {render_ms(output):>17}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
