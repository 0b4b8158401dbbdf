# SPDX-License-Identifier: BSD-3-Clause
"""Tests of `ompp-view html` (scripts/ompp_profile/html_report.py).

- the threads breakdown on a literal profile;
- a generated 10,000-node profile: the report is self-contained and carries
  every node;
- a real profile: tasks.c instrumented by ompp-cc and run with snapshots
  (only when OMPP_BINDIR names the build's bin/ directory, as ctest does);
- the reports open in headless Chromium (skipped when `chromium` is not
  installed): the script runs to its end, the tree is drawn, and a region
  selected through the location hash is marked in the call tree, the control
  flow, the source and the threads view.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
REAL_PROGRAMS = Path(__file__).resolve().parents[1] / "analyses" / "real_programs"
sys.path.insert(0, str(SCRIPTS))

from ompp_profile import read_profile  # noqa: E402
from ompp_profile.breakdown import thread_breakdown  # noqa: E402
from ompp_profile.html_report import render_html  # noqa: E402
from ompp_profile.synthetic import generated_profile  # noqa: E402

CHROMIUM = shutil.which("chromium")


def metrics(thread, inclusive, exclusive, **parts):
    return {"thread": thread, "visits": 1, "inclusive_s": inclusive, "exclusive_s": exclusive, **parts}


# A parallel region on two threads: thread 1 waits 0.3 s at the implicit
# barrier, after running 0.2 s of tasks there (a stub); both wait to enter a
# critical section (enter_s) and leave it (exit_s); the fork/join costs
# startup/shutdown on the master.
BREAKDOWN_PROFILE = {
    "format": "ompp-profile", "version": 1, "application": "breakdown", "threads": 2, "wall_time_s": 2.0,
    "regions": [
        {"id": 1, "kind": "PARALLEL", "name": None, "file": "b.c", "first_line": 1, "last_line": 9},
        {"id": 2, "kind": "CRITICAL", "name": None, "file": "b.c", "first_line": 3, "last_line": 4},
        {"id": 3, "kind": "TASK", "name": None, "file": "b.c", "first_line": 5, "last_line": 6},
    ],
    "nodes": [
        {"id": 0, "parent": None, "kind": "root", "region": None, "threads": [metrics(0, 2.0, 0.1)]},
        {"id": 1, "parent": 0, "kind": "region", "region": 1,
         "threads": [metrics(0, 1.9, 1.0, startup_s=0.05, shutdown_s=0.02), metrics(1, 1.8, 0.6)]},
        {"id": 2, "parent": 1, "kind": "region", "region": 2,
         "threads": [metrics(0, 0.9, 0.9, enter_s=0.4, exit_s=0.1), metrics(1, 0.7, 0.7, enter_s=0.1, exit_s=0.1)]},
        {"id": 3, "parent": 1, "kind": "implicit_barrier", "region": 1,
         "threads": [metrics(0, 0.0, 0.0), metrics(1, 0.5, 0.3)]},
        {"id": 4, "parent": 3, "kind": "task_stub", "region": 3, "threads": [metrics(1, 0.2, 0.0)]},
        {"id": 5, "parent": None, "kind": "task_root", "region": 3, "threads": [metrics(1, 0.2, 0.2)]},
    ],
}


class BreakdownTest(unittest.TestCase):
    def test_each_thread_time_goes_to_its_category(self):
        (record,) = thread_breakdown(read_profile(BREAKDOWN_PROFILE))
        self.assertEqual(record["node"], 1)
        master, worker = record["threads"]
        expected_master = {"work": 1.0 - 0.07 + 0.9 - 0.5, "barrier": 0.0, "lock": 0.4, "taskwait": 0.0,
                           "task": 0.0, "management": 0.07 + 0.1}
        expected_worker = {"work": 0.6 + 0.5, "barrier": 0.3, "lock": 0.1, "taskwait": 0.0,
                           "task": 0.2, "management": 0.1}
        for got, expected in ((master, expected_master), (worker, expected_worker)):
            for category, seconds in expected.items():
                self.assertAlmostEqual(got[category], seconds, msg=f"thread {got['thread']} {category}")

    def test_a_nested_parallel_region_gets_its_own_record(self):
        nested = json.loads(json.dumps(BREAKDOWN_PROFILE))
        nested["regions"].append({"id": 4, "kind": "PARALLEL", "name": None, "file": "b.c",
                                  "first_line": 7, "last_line": 8})
        nested["nodes"].append({"id": 6, "parent": 1, "kind": "region", "region": 4,
                                "threads": [metrics(0, 5.0, 5.0)]})
        records = thread_breakdown(read_profile(nested))
        self.assertEqual([r["node"] for r in records], [1, 6])
        self.assertAlmostEqual(records[0]["threads"][0]["work"], 1.0 - 0.07 + 0.9 - 0.5)


def embedded_payload(html: str) -> dict:
    match = re.search(r'<script type="application/json" id="ompp-data">(.*?)</script>', html, re.S)
    return json.loads(match.group(1))


def external_references(html: str) -> list[str]:
    """src/href attributes (and CSS url()s) that would need the network."""
    return re.findall(r'(?:src|href)\s*=\s*["\']?\s*(?:https?:)?//[^"\'\s>]*|url\(\s*["\']?(?:https?:)?//', html, re.I)


def dump_dom(html_file: Path, fragment: str) -> tuple[str, str]:
    with tempfile.TemporaryDirectory() as profile_dir:
        proc = subprocess.run(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--no-first-run", "--enable-logging=stderr",
             f"--user-data-dir={profile_dir}", "--window-size=1400,1000", "--dump-dom",
             html_file.as_uri() + "#" + fragment],
            capture_output=True, text=True, timeout=25)
    return proc.stdout, proc.stderr


def section(dom: str, section_id: str) -> str:
    start = dom.index(f'<section id="{section_id}"')
    return dom[start:dom.index("</section>", start)]


def selected_tags(html_part: str, region: int) -> list[str]:
    """Tags that carry the region and the `sel` class."""
    return [tag for tag in re.findall(r"<[^>]+>", html_part)
            if f'data-r="{region}"' in tag and re.search(r'class="[^"]*\bsel\b', tag)]


class GeneratedProfileTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = Path(tempfile.mkdtemp(prefix="ompp-view-html-"))
        cls.profile_data = generated_profile(regions=200, nodes=10_000, snapshots=10)
        cls.html = render_html(read_profile(cls.profile_data), {})
        cls.html_file = cls.work / "generated.html"
        cls.html_file.write_text(cls.html)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def test_carries_every_node_and_region(self):
        payload = embedded_payload(self.html)
        self.assertEqual(len(payload["nodes"]), len(self.profile_data["nodes"]))
        self.assertGreaterEqual(len(self.profile_data["nodes"]), 10_000)
        self.assertEqual(len(payload["regions"]), 200)
        self.assertEqual(len(payload["snapshots"]), 10)

    def test_is_self_contained(self):
        self.assertEqual(external_references(self.html), [])
        self.assertNotIn("<link", self.html)
        self.assertIn("renderTree", self.html)  # the script is inline, not referenced

    def test_the_reference_check_can_fail(self):
        self.assertTrue(external_references('<script src="https://cdn.example/d3.js"></script>'))
        self.assertTrue(external_references('<link href="//cdn.example/x.css">'))

    @unittest.skipUnless(CHROMIUM, "chromium not installed")
    def test_opens_in_chromium_and_stays_bounded(self):
        dom, log = dump_dom(self.html_file, "min=0")
        self.assertIn('data-ready="1"', dom, log[-2000:])
        self.assertNotIn("Uncaught", log)
        cells = int(re.search(r'id="icicle"[^>]*data-cells="(\d+)"', dom).group(1))
        self.assertGreater(cells, 100)
        self.assertLessEqual(cells, 4000)  # drawn lazily: never every one of the 10,000 nodes


@unittest.skipUnless(os.environ.get("OMPP_BINDIR"), "OMPP_BINDIR (the build's bin/) not set")
class RealProfileTest(unittest.TestCase):
    """tasks.c through ompp-cc, 2 threads, snapshots on."""

    @classmethod
    def setUpClass(cls):
        cls.work = Path(tempfile.mkdtemp(prefix="ompp-view-html-real-"))
        exe = cls.work / "tasks"
        subprocess.run([os.path.join(os.environ["OMPP_BINDIR"], "ompp-cc"), "-fopenmp", "-O1",
                        str(REAL_PROGRAMS / "tasks.c"), "-o", str(exe)],
                       check=True, capture_output=True, timeout=300)
        env = {k: v for k, v in os.environ.items() if not k.startswith("OMPP_")}
        env.update(OMP_NUM_THREADS="2", OMPP_QUIET="1", OMPP_SNAPSHOT_INTERVAL="0.01")
        subprocess.run([str(exe)], check=True, cwd=cls.work, env=env, capture_output=True, timeout=60)
        (cls.profile_file,) = glob.glob(str(cls.work / "*.ompp.json"))
        cls.html_file = cls.work / "report.html"
        subprocess.run([str(SCRIPTS / "ompp-view"), "html", cls.profile_file, "-o", str(cls.html_file)],
                       check=True, capture_output=True, timeout=60)
        cls.html = cls.html_file.read_text()
        cls.profile = read_profile(cls.profile_file)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def test_report_carries_the_profile_and_its_source(self):
        payload = embedded_payload(self.html)
        self.assertEqual(len(payload["nodes"]), len(self.profile.nodes))
        self.assertEqual(external_references(self.html), [])
        (source_name,) = payload["sources"]
        self.assertIn("#pragma omp taskgroup", payload["sources"][source_name])

    def test_threads_view_sees_task_execution(self):
        (record,) = embedded_payload(self.html)["breakdown"]
        self.assertGreater(sum(t["task"] for t in record["threads"]), 0.0)

    @unittest.skipUnless(CHROMIUM, "chromium not installed")
    def test_selection_in_the_hash_is_marked_in_every_view(self):
        parallel = next(n for n in self.profile.nodes.values()
                        if n.kind == "region" and self.profile.regions[n.region].kind == "PARALLEL")
        region = parallel.region
        dom, log = dump_dom(self.html_file, f"region={region}&cfg={parallel.parent}")
        self.assertIn('data-ready="1"', dom, log[-2000:])
        self.assertNotIn("Uncaught", log)
        for view in ("calltree", "cfg", "source", "threads"):
            self.assertTrue(selected_tags(section(dom, view), region), f"region {region} not marked in {view}")
        # the over-time panel is there exactly when the run took snapshots
        self.assertEqual('id="overtime" class="panel wide empty"' in dom, not self.profile.snapshots)

    @unittest.skipUnless(CHROMIUM, "chromium not installed")
    def test_layer_navigation_shows_a_node_its_children_and_the_way_up(self):
        parallel = next(n for n in self.profile.nodes.values()
                        if n.kind == "region" and self.profile.regions[n.region].kind == "PARALLEL")
        dom, _ = dump_dom(self.html_file, f"cfg={parallel.id}")
        cfg = section(dom, "cfg")
        shown = {int(n) for n in re.findall(r'data-n="(\d+)"', cfg)}
        self.assertEqual(shown, {parallel.id} | {c.id for c in parallel.children})
        self.assertIn(f'data-cfg="{parallel.parent}"', cfg)  # the ^ to the parent layer


if __name__ == "__main__":
    unittest.main()
