# SPDX-License-Identifier: BSD-3-Clause
"""Tests of scripts/ompp_profile and scripts/ompp-view on literal profiles."""
import copy
import json
import re
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


# LITERAL with a software counter, overheads and counter values in its snapshots.
OVER_TIME = copy.deepcopy(LITERAL)
OVER_TIME["counters"] = [{"name": "cpu_time", "source": "software"}]
OVER_TIME["snapshots"][0]["overheads"] = {"synchronization_s": 0.1, "imbalance_s": 0.2}
OVER_TIME["snapshots"][1]["overheads"] = {"synchronization_s": 0.3, "imbalance_s": 0.2}
OVER_TIME["snapshots"][0]["regions"][0]["counters_exclusive"] = [100.0]
OVER_TIME["snapshots"][1]["regions"][0]["counters_exclusive"] = [250.0]


class TerminalViewsTest(unittest.TestCase):
    """cfg --layer/--min-percent, threads, overtime, heatmap, compare rows."""

    def setUp(self):
        self.profile = read_profile(OVER_TIME)

    def test_a_layer_is_the_regions_nodes_and_their_children(self):
        dot = views.control_flow_dot(self.profile, layer="R00001")
        self.assertEqual(set(re.findall(r"^  (n\d+) \[", dot, re.M)), {"n1", "n2", "n3"})
        self.assertIn('n1 -> n2 [style=dotted, label="0-1|1"]', dot)
        self.assertEqual(set(re.findall(r"^  (n\d+) \[", views.control_flow_dot(self.profile, layer="2"), re.M)),
                         {"n2"})
        with self.assertRaisesRegex(ValueError, "no call-tree node of region 9"):
            views.control_flow_dot(self.profile, layer="R9")

    def test_min_percent_leaves_out_small_nodes_and_their_edges(self):
        # of 3.8 s in all: the loop's subtree has 1.5 s (39 %), the critical section 1.7 s (45 %)
        dot = views.control_flow_dot(self.profile, min_percent=42)
        self.assertNotIn("  n2 [", dot)
        self.assertNotIn("n2 ->", dot)
        self.assertIn("  n3 [", dot)
        self.assertIn("  n0 [", dot)  # the root stays

    def test_threads_table_splits_each_threads_time(self):
        table = views.threads_table(self.profile)
        self.assertIn("R00001 PARALLEL a.c (3-20)", table)
        row = next(line for line in table.splitlines() if line.split()[:1] == ["0"])
        self.assertEqual(row.split()[1], "1.800")  # own 0.1 + loop 1.0 + critical 0.7, all work

    def test_overtime_rates_each_intervals_overheads(self):
        rows = views.overtime_table(self.profile).splitlines()[1:]
        # 0.5 s x 2 threads per interval: 0.3 s and then 0.2 s of overhead
        self.assertEqual(rows[0].split()[1:6], ["0.1000", "0.2000", "0.0000", "0.0000", "30.00%"])
        self.assertEqual(rows[1].split()[1:6], ["0.2000", "0.0000", "0.0000", "0.0000", "20.00%"])
        self.assertIn("R00002 LOOP 1.100 s", rows[1])

    def test_heatmap_rows_are_interval_deltas_of_the_metric(self):
        self.assertEqual(views.region_series(self.profile, "cpu_time"), {2: [100.0, 150.0]})
        self.assertEqual(views.region_series(self.profile, "visits"), {2: [2, 0], 3: [0, 3]})
        with self.assertRaisesRegex(ValueError, "known: time, visits, cpu_time"):
            views.region_series(self.profile, "PAPI_TOT_INS")

    def test_compare_rows_carry_both_runs_region_ids(self):
        after = copy.deepcopy(OVER_TIME)
        for region in after["regions"]:
            region["id"] += 10
        for node in after["nodes"]:
            node["region"] = node["region"] + 10 if node["region"] is not None else None
        after["nodes"][3]["threads"] = [metrics(0, 4, 0.1, 0.1), metrics(1, 4, 0.1, 0.1)]
        first = views.compare_rows(self.profile, read_profile(after))[0]
        self.assertEqual((first["before_region"], first["after_region"]), (3, 13))
        self.assertAlmostEqual(first["after_s"] - first["before_s"], -1.5)


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

    def test_terminal_views_and_their_pictures(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "over.2-0.ompp.json"
            path.write_text(json.dumps(OVER_TIME))
            for args, expected in ((["threads"], "management"), (["overtime"], "ovhd %"),
                                   (["heatmap", "cpu_time"], "cpu_time per interval"),
                                   (["cfg", "--layer", "R1", "--min-percent", "1"], "digraph")):
                picture = Path(tmp) / f"{args[0]}.svg"
                out = ["-o", str(picture)] if args[0] != "cfg" or shutil.which("dot") else []
                result = self.run_view(args[0], str(path), *args[1:], *out)
                self.assertEqual(result.returncode, 0, result.stderr)
                if out:
                    self.assertIn("<svg", picture.read_text(), args)
                if args[0] != "cfg" or not out:
                    self.assertIn(expected, result.stdout, args)

    def test_an_unknown_metric_or_layer_is_one_line_and_exit_1(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "over.2-0.ompp.json"
            path.write_text(json.dumps(OVER_TIME))
            for args in (["heatmap", str(path), "PAPI_TOT_INS"], ["cfg", str(path), "--layer", "R77"],
                         ["threads", str(path), "-o", str(Path(tmp) / "bars.txt")]):
                result = self.run_view(*args)
                self.assertEqual(result.returncode, 1, args)
                self.assertEqual(len(result.stderr.strip().splitlines()), 1, result.stderr)

    def test_missing_file_is_one_line_and_exit_1(self):
        result = self.run_view("hot", "/nonexistent/x.ompp.json")
        self.assertEqual(result.returncode, 1)
        self.assertEqual(len(result.stderr.strip().splitlines()), 1)
        self.assertIn("/nonexistent/x.ompp.json", result.stderr)


if __name__ == "__main__":
    unittest.main()
