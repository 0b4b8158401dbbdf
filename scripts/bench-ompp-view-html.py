#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Size and generation time of `ompp-view html` on generated profiles.

  scripts/bench-ompp-view-html.py [--sizes REGIONS:NODES ...] [--repeat N]

Prints, per size, the best of N generation times (read + render + write,
in-process) and the size of the HTML file.  With chromium, node and the
build's puppeteer-core (target ompp_view_assets), also the time until the
page is ready (every view drawn, the first control-flow layout in), the
part of it the page's own script took (data-render-ms), and the time from a
click on the widest region in the icicle to every view updated.
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
BROWSER_DRIVER = Path(__file__).resolve().parents[1] / "test" / "scripts" / "view_html_browser.cjs"

from ompp_profile import assets, html_report, read_profile  # noqa: E402
from ompp_profile.synthetic import generated_profile  # noqa: E402


def page_times(html_file: Path, node_modules: Path) -> str:
    """Load time and the page script's own start-up time, measured in headless
    Chromium by the tests' puppeteer driver (view_html_browser.cjs)."""
    chromium = shutil.which("chromium")
    if not (chromium and shutil.which("node") and (node_modules / "puppeteer-core").is_dir()):
        return "-"
    proc = subprocess.run(
        ["node", str(BROWSER_DRIVER), "--node-modules", str(node_modules), "--chromium", chromium,
         "--report", str(html_file), "--click-node", "widest", "--hash", "min=0"], capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        return "failed"
    result = json.loads(proc.stdout)
    return f"{result['load_ms']} / {result['render_ms']} / {result['click_ms']}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", nargs="*", default=["200:1000", "200:10000"])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--node-modules", default=str(Path(__file__).resolve().parents[1] / "build" / "npm" / "node_modules"))
    args = parser.parse_args()
    try:
        libraries = assets.load_assets(assets.find_assets_dir(Path(__file__).resolve().parent))
    except assets.AssetsMissing as err:
        raise SystemExit(f"bench-ompp-view-html: {err}")
    print(f"{'regions':>8} {'nodes':>7} {'generate (s)':>13} {'HTML (KiB)':>11} {'ready / script / click (ms)':>28}")
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
                output.write_text(html_report.render_html(profile, libraries, {}))
                best = min(best, time.perf_counter() - start)
            node_count = len(profile.nodes)
            print(f"{regions:8d} {node_count:7d} {best:13.3f} {output.stat().st_size / 1024:11.0f} {page_times(output, Path(args.node_modules)):>28}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
