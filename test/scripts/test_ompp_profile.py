# SPDX-License-Identifier: BSD-3-Clause
"""Tests of scripts/ompp_profile and scripts/ompp-view on literal profiles."""
import copy
import json
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
sys.path.insert(0, str(SCRIPTS))

from ompp_profile import ProfileFormatError, read_profile  # noqa: E402
from ompp_profile import views  # noqa: E402


def metrics(thread, visits, inclusive, exclusive):
    return {"thread": thread, "visits": visits, "inclusive_s": inclusive, "exclusive_s": exclusive}


# A parallel region (R1) with a loop (R2) and a critical section (R3) run by
# two threads; the loop comes first, then the critical section 4 times per
# thread, as in the ompP CFG paper's "version B".
LITERAL = {
    "format": "ompp-profile",
    "version": 1,
    "application": "literal",
    "threads": 2,
    "wall_time_s": 2.0,
    "regions": [
        {"id": 1, "kind": "PARALLEL", "name": None, "file": "a.c", "first_line": 3, "last_line": 20},
        {"id": 2, "kind": "LOOP", "name": None, "file": "a.c", "first_line": 5, "last_line": 9},
        {"id": 3, "kind": "CRITICAL", "name": "acc", "file": "a.c", "first_line": 11, "last_line": 12},
    ],
    "nodes": [
        {"id": 0, "parent": None, "kind": "root", "region": None,
         "threads": [metrics(0, 1, 2.0, 0.2)], "predecessors": []},
        {"id": 1, "parent": 0, "kind": "region", "region": 1,
         "threads": [metrics(0, 1, 1.8, 0.1), metrics(1, 1, 1.8, 0.3)],
         "predecessors": [{"node": 0, "thread": 0, "count": 1}]},
        {"id": 2, "parent": 1, "kind": "region", "region": 2,
         "threads": [metrics(0, 1, 1.0, 1.0), metrics(1, 1, 0.5, 0.5)],
         "predecessors": [{"node": 1, "thread": 0, "count": 1}, {"node": 1, "thread": 1, "count": 1}]},
        {"id": 3, "parent": 1, "kind": "region", "region": 3,
         "threads": [metrics(0, 4, 0.7, 0.7), metrics(1, 4, 1.0, 1.0)],
         "predecessors": [{"node": 2, "thread": 0, "count": 1}, {"node": 2, "thread": 1, "count": 1},
                          {"node": 3, "thread": 0, "count": 3}, {"node": 3, "thread": 1, "count": 3}]},
    ],
    "snapshots": [
        {"time_s": 0.5, "regions": [{"region": 2, "visits": 2, "exclusive_s": 0.4}]},
        {"time_s": 1.0, "regions": [{"region": 2, "visits": 2, "exclusive_s": 1.5},
                                    {"region": 3, "visits": 3, "exclusive_s": 0.2}]},
    ],
}


class ReaderTest(unittest.TestCase):
    def test_builds_the_tree_parents_first(self):
        profile = read_profile(LITERAL)
        self.assertEqual([r.id for r in profile.roots], [0])
        parallel = profile.nodes[1]
        self.assertEqual([c.id for c in parallel.children], [2, 3])
        self.assertEqual(profile.nodes[3].visits, 8)
        self.assertAlmostEqual(profile.nodes[2].inclusive_s, 1.5)

    def test_inclusive_is_exclusive_plus_children_per_thread(self):
        profile = read_profile(LITERAL)
        for node in profile.nodes.values():
            for t in node.threads:
                children = sum(
                    ct.inclusive_s for c in node.children for ct in c.threads if ct.thread == t.thread
                )
                self.assertAlmostEqual(t.inclusive_s, t.exclusive_s + children, msg=f"node {node.id}")

    def test_rejects_a_file_that_is_not_a_profile(self):
        with self.assertRaisesRegex(ProfileFormatError, "not an ompp profile"):
            read_profile({"format": "cube"})

    def test_names_the_missing_key(self):
        broken = copy.deepcopy(LITERAL)
        del broken["regions"][1]["first_line"]
        with self.assertRaisesRegex(ProfileFormatError, "region 2: missing key 'first_line'"):
            read_profile(broken)

    def test_rejects_a_child_before_its_parent(self):
        broken = copy.deepcopy(LITERAL)
        broken["nodes"].reverse()
        with self.assertRaisesRegex(ProfileFormatError, "parent .* does not come before"):
            read_profile(broken)

    def test_reports_file_and_line_of_bad_json(self):
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            f.write('{"format": "ompp-profile",\n  oops}')
        with self.assertRaisesRegex(ProfileFormatError, f"{f.name}:2: not JSON"):
            read_profile(f.name)


class ViewsTest(unittest.TestCase):
    def setUp(self):
        self.profile = read_profile(LITERAL)

    def test_thread_ranges(self):
        self.assertEqual(views.thread_ranges([3, 0, 1, 2, 5, 7, 8]), "0-3,5,7-8")

    def test_edge_labels_group_threads_with_equal_counts(self):
        self.assertEqual(views.edge_label({0: 5, 1: 5, 2: 5, 3: 5, 4: 1}), "0-3|5, 4|1")
        self.assertEqual(views.edge_label({0: 2, 1: 3}), "0|2, 1|3")

    def test_call_tree_shows_percent_of_measured_thread_time(self):
        tree = views.call_tree(self.profile).splitlines()
        critical = next(line for line in tree if "CRITICAL" in line)
        # 1.7 s of the 3.8 thread-seconds measured (all nodes' exclusive time).
        self.assertIn("44.74%", critical)
        self.assertIn("'acc'", critical)
        root = next(line for line in tree if line.rstrip().endswith("literal"))
        self.assertTrue(root.split()[:2] == ["3.800", "100.00%"], root)

    def test_parent_on_one_thread_is_not_smaller_than_its_team_child(self):
        # The root ran on thread 0 only (JSON inclusive 2.0 s) around a
        # parallel region of two threads (3.6 s together).
        for line in views.call_tree(self.profile).splitlines()[1:]:
            if "PARALLEL" in line:
                self.assertEqual(line.split()[0], "3.600")
        self.assertGreaterEqual(views.subtree_time(self.profile.nodes[0]),
                                views.subtree_time(self.profile.nodes[1]))

    def test_min_percent_hides_small_subtrees(self):
        tree = views.call_tree(self.profile, min_percent=40.0)
        self.assertIn("CRITICAL", tree)
        self.assertNotIn("LOOP", tree)

    def test_hot_regions_rank_by_exclusive_time(self):
        rows = views.hot_regions(self.profile).splitlines()[1:]
        self.assertIn("CRITICAL", rows[0])
        self.assertIn("LOOP", rows[1])

    def test_hot_regions_keep_task_creation_and_execution_apart(self):
        tasks = copy.deepcopy(LITERAL)
        tasks["regions"].append(
            {"id": 4, "kind": "TASK", "name": None, "file": "a.c", "first_line": 14, "last_line": 15})
        tasks["nodes"].append({"id": 4, "parent": 1, "kind": "region", "region": 4,
                               "threads": [metrics(0, 3, 0.01, 0.01)], "predecessors": []})
        tasks["nodes"].append({"id": 5, "parent": 0, "kind": "task_root", "region": 4,
                               "threads": [metrics(1, 3, 0.6, 0.6)], "predecessors": []})
        rows = views.hot_regions(read_profile(tasks)).splitlines()[1:]
        execution = next(row for row in rows if "(task execution)" in row)
        creation = next(row for row in rows if "TASK" in row and "(task execution)" not in row)
        self.assertEqual(execution.split()[:2], ["0.600", "3"])
        self.assertEqual(creation.split()[:2], ["0.010", "3"])

    def test_control_flow_dot_has_parent_and_sibling_edges(self):
        dot = views.control_flow_dot(self.profile)
        # T|N: threads T, N times each (the same definition as libompp's control-flow section).
        self.assertIn('n1 -> n2 [style=dotted, label="0-1|1"]', dot)
        self.assertIn('n2 -> n3 [style=solid, label="0-1|1"]', dot)
        self.assertIn('n3 -> n3 [style=solid, label="0-1|3"]', dot)
        if shutil.which("dot"):
            subprocess.run(["dot", "-Tsvg"], input=dot, text=True, check=True, capture_output=True)

    def test_snapshot_series_are_interval_deltas(self):
        series = views.snapshot_series(self.profile)
        self.assertEqual(list(series), ["R00002", "R00003"])
        self.assertEqual([round(v, 6) for v in series["R00002"]], [0.4, 1.1])
        self.assertEqual([round(v, 6) for v in series["R00003"]], [0.0, 0.2])

    def test_compare_reports_the_largest_change_first(self):
        after = copy.deepcopy(LITERAL)
        after["nodes"][3]["threads"] = [metrics(0, 4, 0.1, 0.1), metrics(1, 4, 0.1, 0.1)]
        rows = views.compare(self.profile, read_profile(after)).splitlines()
        self.assertIn("CRITICAL 'acc' a.c:11", rows[1])
        self.assertIn("-1.500", rows[1])


class CommandLineTest(unittest.TestCase):
    def run_view(self, *args):
        return subprocess.run([str(SCRIPTS / "ompp-view"), *args], capture_output=True, text=True)

    def test_tree_of_a_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "literal.2-0.ompp.json"
            path.write_text(json.dumps(LITERAL))
            result = self.run_view("tree", str(path))
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertIn("R00003 CRITICAL 'acc' a.c (11-12)", result.stdout)

    def test_a_profile_that_does_not_add_up_is_one_warning_line(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "literal.2-0.ompp.json"
            path.write_text(json.dumps(dict(LITERAL, invariant_violations=["thread 1: a", "thread 2: b"])))
            result = self.run_view("hot", str(path))
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertEqual(result.stderr.strip().splitlines(),
                             [f"ompp-view: warning: {path}: libompp found 2 figure(s) that do not add up "
                              "(first: thread 1: a)"])
            path.write_text(json.dumps(dict(LITERAL, invariant_violations=[])))
            self.assertEqual(self.run_view("hot", str(path)).stderr, "")

    def test_missing_file_is_one_line_and_exit_1(self):
        result = self.run_view("hot", "/nonexistent/x.ompp.json")
        self.assertEqual(result.returncode, 1)
        self.assertEqual(len(result.stderr.strip().splitlines()), 1)
        self.assertIn("/nonexistent/x.ompp.json", result.stderr)


if __name__ == "__main__":
    unittest.main()
