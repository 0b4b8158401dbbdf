#!/usr/bin/env python3
"""End-to-end checks of the analyses: programs instrumented by hand through
the POMP2 API run against libompp; their JSON profiles and text reports are
checked against hand-computed expectations (with tolerances where time is
designed into the program by sleeps or spins).

Usage: test_analyses_e2e.py <directory holding the test programs> [unittest args]
"""
import glob
import os
import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from ompp_profile import read_json  # noqa: E402  (the one reader of profiles)

PROGRAMS = None
OMPP_VIEW = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "ompp-view")


def run_profiled(program, args=(), env=None, threads=2, outdir=None, cpus=None):
    """Runs a test program in OMPP_OUTDIR (fresh unless given), on the given CPUs
    (default: any); returns (json, text, stderr)."""
    outdir = outdir or tempfile.mkdtemp(prefix="ompp-analyses-")
    full_env = dict(os.environ)
    for key in list(full_env):
        if key.startswith("OMPP_"):
            del full_env[key]
    full_env.update({"OMPP_OUTDIR": outdir, "OMP_NUM_THREADS": str(threads), "OMPP_QUIET": "1"})
    full_env.update(env or {})
    pin = (lambda: os.sched_setaffinity(0, cpus)) if cpus else None
    proc = subprocess.run([os.path.join(PROGRAMS, program), *args], env=full_env, capture_output=True,
                          text=True, timeout=120, preexec_fn=pin)
    if proc.returncode != 0:
        raise AssertionError(f"{program} exited {proc.returncode}: {proc.stderr}")
    profiles = glob.glob(os.path.join(outdir, "*.ompp.json"))
    reports = glob.glob(os.path.join(outdir, "*.ompp.txt"))
    if len(profiles) != 1 or len(reports) != 1:
        raise AssertionError(f"expected one profile and one report in {outdir}, found {os.listdir(outdir)}")
    profile = read_json(profiles[0])
    with open(reports[0]) as f:
        report = f.read()
    return profile, report, proc.stderr


def region_id(profile, kind, name=None):
    matches = [r["id"] for r in profile["regions"] if r["kind"] == kind and (name is None or r["name"] == name)]
    if len(matches) != 1:
        raise AssertionError(f"expected one {kind} region named {name}, found {matches}")
    return matches[0]


def nodes_of(profile, region, kind="region"):
    return [n for n in profile["nodes"] if n["region"] == region and n["kind"] == kind]


def predecessor_counts(profile, node):
    """{(predecessor region or 'root'/'parent-kind', thread): count} for one node."""
    by_id = {n["id"]: n for n in profile["nodes"]}
    counts = {}
    for p in node["predecessors"]:
        pred = by_id[p["node"]]
        key = pred["region"] if pred["kind"] == "region" else pred["kind"]
        counts[(key, p["thread"])] = counts.get((key, p["thread"]), 0) + p["count"]
    return counts


class ControlFlowVersions(unittest.TestCase):
    """The CFG paper's Fig. 1: same flat profile, different control flow."""

    def check_version(self, version, expected_foo, expected_bar):
        profile, report, _ = run_profiled("cfg_versions", [version])
        foo = region_id(profile, "USER_REGION", "foo")
        bar = region_id(profile, "USER_REGION", "bar")
        (foo_node,) = nodes_of(profile, foo)
        (bar_node,) = nodes_of(profile, bar)
        self.assertEqual(sum(t["visits"] for t in foo_node["threads"]), 20)
        self.assertEqual(sum(t["visits"] for t in bar_node["threads"]), 20)
        self.assertEqual(predecessor_counts(profile, foo_node), expected_foo(foo, bar))
        self.assertEqual(predecessor_counts(profile, bar_node), expected_bar(foo, bar))
        self.assertIn("ompP Control Flow", report)
        return report

    def test_version_a_alternates(self):
        report = self.check_version("A", lambda foo, bar: {("root", 0): 1, (bar, 0): 19},
                                    lambda foo, bar: {(foo, 0): 20})
        self.assertRegex(report, r"after R\d{5} USER REGION\s+0\|19  \[total 19\]")
        self.assertRegex(report, r"after R\d{5} USER REGION\s+0\|20  \[total 20\]")

    def test_version_b_repeats(self):
        self.check_version("B", lambda foo, bar: {("root", 0): 1, (foo, 0): 19},
                           lambda foo, bar: {(foo, 0): 1, (bar, 0): 19})

    def test_the_graph_is_drawn_by_ompp_view_from_the_json(self):
        """One control-flow renderer: libompp writes no .cfg.dot (and says so
        when asked to), `ompp-view cfg` draws the graph from the JSON profile."""
        outdir = tempfile.mkdtemp(prefix="ompp-analyses-")
        _, _, stderr = run_profiled("cfg_versions", ["A"], {"OMPP_CONTROLFLOW_DOT": "1"}, outdir=outdir)
        self.assertEqual(glob.glob(os.path.join(outdir, "*.cfg.dot")), [])
        self.assertIn("ompp-view cfg", stderr)
        (json_file,) = glob.glob(os.path.join(outdir, "*.ompp.json"))
        svg_file = os.path.join(outdir, "cfg.svg")
        view = subprocess.run([sys.executable, OMPP_VIEW, "cfg", json_file, "-o", svg_file],
                              capture_output=True, text=True)
        self.assertEqual(view.returncode, 0, view.stderr)
        with open(svg_file) as f:
            self.assertIn("<svg", f.read())

    def test_ompp_view_labels_edges_as_libompps_report(self):
        """One definition of `T|N` (N times each): the control-flow section of
        libompp's report and `ompp-view cfg` label the edges of a profile alike."""
        outdir = tempfile.mkdtemp(prefix="ompp-analyses-")
        _, report, _ = run_profiled("cfg_versions", ["A", "parallel"], outdir=outdir)
        (json_file,) = glob.glob(os.path.join(outdir, "*.ompp.json"))
        section = report[report.index("ompP Control Flow"):]
        from_report = re.findall(r"^\s+after .*?  (\S+(?:, \S+)*)  \[total \d+\]$", section, re.MULTILINE)
        view = subprocess.run([sys.executable, OMPP_VIEW, "cfg", json_file], capture_output=True, text=True)
        self.assertEqual(view.returncode, 0, view.stderr)
        from_view = re.findall(r'n\d+ -> n\d+ \[[^\]]*label="([^"]*)"', view.stdout)
        self.assertIn("0-1|19", from_report)
        self.assertEqual(sorted(from_view), sorted(from_report))

    def test_threads_in_a_parallel_region_are_grouped(self):
        profile, report, _ = run_profiled("cfg_versions", ["A", "parallel"])
        foo = region_id(profile, "USER_REGION", "foo")
        bar = region_id(profile, "USER_REGION", "bar")
        parallel = region_id(profile, "PARALLEL")
        inside = [n for n in nodes_of(profile, foo)
                  if n["parent"] is not None and profile["nodes"][n["parent"]]["region"] == parallel]
        self.assertEqual(len(inside), 1)
        self.assertEqual(predecessor_counts(profile, inside[0]),
                         {(parallel, 0): 1, (parallel, 1): 1, (bar, 0): 19, (bar, 1): 19})
        self.assertRegex(report, r"0-1\|19  \[total 38\]")


class ImbalanceAndContention(unittest.TestCase):
    """Loop imbalance ~250 ms and critical-section waiting ~100 ms (sleeps)."""

    @classmethod
    def setUpClass(cls):
        cls.profile, cls.report, _ = run_profiled("imbalance_critical")

    def test_overhead_classes(self):
        p = self.profile
        parallel = region_id(p, "PARALLEL")
        (record,) = [r for r in p["overheads"]["regions"] if r["region"] == parallel]
        # 250 ms at the loop's barrier + 100 ms at the region's end, where the
        # thread that left the critical section first waits for the other.
        # Sleeps only ever overrun, so the upper bounds are the generous ones.
        self.assertTrue(0.25 <= record["imbalance_s"] <= 0.55, record)
        self.assertTrue(0.07 <= record["synchronization_s"] <= 0.25, record)
        self.assertLess(record["limited_parallelism_s"], 0.01)
        # thread creation at the first fork: not designed into the program
        self.assertLess(record["thread_management_s"], 0.3)
        self.assertAlmostEqual(p["overheads"]["program"]["total_s"], p["wall_time_s"] * p["threads"], places=6)
        self.assertTrue(2 * 0.45 <= record["total_s"] <= 2 * 0.8, record)  # 2 threads x ~0.5 s

    def skip_if_preempted(self):
        # Its waits are imbalance and contention unless other work takes the CPUs away, which ompp then rightly
        # reports as preemption and leaves out of them (a test run in parallel with others on a 2-core machine).
        preempted = [q for q in self.profile["properties"] if q["name"] == "ThreadsPreemptedInParallelRegion"]
        if preempted:
            self.skipTest("the machine is busy: the threads were preempted: " + preempted[0]["text"])

    def test_properties(self):
        self.skip_if_preempted()
        p = self.profile
        loop = region_id(p, "LOOP")
        critical = region_id(p, "CRITICAL")
        by_name = {(q["name"], q["region"]): q for q in p["properties"]}
        basis = p["wall_time_s"] * p["threads"]
        imbalance = by_name[("ImbalanceInParallelLoop", loop)]
        self.assertTrue(100 * 0.2 / basis <= imbalance["severity_pct"] <= 100 * 0.4 / basis, imbalance)
        contention = by_name[("CriticalSectionContention", critical)]
        self.assertTrue(100 * 0.07 / basis <= contention["severity_pct"] <= 100 * 0.25 / basis, contention)
        severities = [q["severity_pct"] for q in p["properties"]]
        self.assertEqual(severities, sorted(severities, reverse=True))
        self.assertEqual(p["properties"][0]["name"], "ImbalanceInParallelLoop")
        region_imbalance = by_name[("ImbalanceInParallelRegion", region_id(p, "PARALLEL"))]
        self.assertTrue(100 * 0.07 / basis <= region_imbalance["severity_pct"] <= 100 * 0.25 / basis, region_imbalance)

    def test_report_sections(self):
        self.assertIn("ompP Overhead Analysis Report", self.report)
        self.assertIn("Overheads wrt. whole program:", self.report)
        self.skip_if_preempted()
        self.assertRegex(self.report, r"Property P00001 'ImbalanceInParallelLoop' holds for\n"
                                      r"     'LOOP imbalance_critical.c \(33-40\)'")
        self.assertIn("'CriticalSectionContention' holds for", self.report)


class Oversubscription(unittest.TestCase):
    """Threads that wait for a CPU are preempted, not imbalanced (issue 9, item 4)."""

    def properties(self, profile):
        return {q["name"]: q for q in profile["properties"]}

    def test_four_threads_on_one_cpu_are_preempted_not_imbalanced(self):
        one_cpu = {min(os.sched_getaffinity(0))}
        profile, report, _ = run_profiled("oversubscription", threads=4, cpus=one_cpu)
        parallel = region_id(profile, "PARALLEL")
        (node,) = nodes_of(profile, parallel)
        self.assertEqual(len(node["threads"]), 4)
        for t in node["threads"]:
            self.assertGreater(t["cpu_samples"], 0, t)
            self.assertLess(t["cpu_s"], 0.8 * t["cpu_sampled_s"], t)  # a quarter of a CPU each
            self.assertGreater(t["run_delay_s"], 0.2 * t["cpu_sampled_s"], t)
        found = self.properties(profile)
        self.assertIn("ThreadsPreemptedInParallelRegion", found, profile["properties"])
        self.assertEqual(found["ThreadsPreemptedInParallelRegion"]["region"], parallel)
        self.assertEqual([name for name in found if name.startswith("Imbalance")], [], profile["properties"])
        self.assertIn("'ThreadsPreemptedInParallelRegion' holds for", report)

    def test_an_imbalanced_loop_is_still_imbalanced(self):
        profile, _, _ = run_profiled("oversubscription", ["imbalanced"], threads=2)
        found = self.properties(profile)
        # Two threads on two CPUs: waits are imbalance unless other work takes the CPUs away, which ompp
        # then rightly reports as preemption (a test run in parallel with others on a 2-core machine).
        if "ThreadsPreemptedInParallelRegion" in found and "ImbalanceInParallelLoop" not in found:
            self.skipTest("the machine is busy: the threads were preempted: "
                          + found["ThreadsPreemptedInParallelRegion"]["text"])
        self.assertIn("ImbalanceInParallelLoop", found, profile["properties"])
        self.assertEqual(found["ImbalanceInParallelLoop"]["region"], region_id(profile, "LOOP"))


class TeamHandOver(unittest.TestCase):
    """Consecutive parallel regions, the fork node changing and not, teams of every size
    (docs/runtime.md, "The team hand-over's order"): every thread's visit of every instance is
    counted, and under ThreadSanitizer (the tsan preset) no race between a worker's report and
    the master's reading of the previous one."""

    def test_every_instance_of_every_thread_is_counted(self):
        threads, rounds = 4, 60
        profile, _, _ = run_profiled("team_handover", [str(rounds)], threads=threads)
        by_line = {r["first_line"]: r["id"] for r in profile["regions"] if r["kind"] == "PARALLEL"}
        ((a_node,), (b_node,)) = (nodes_of(profile, by_line[line]) for line in (30, 40))
        sizes = [2 + r % (threads - 1) for r in range(rounds)]
        # A thread's ompp id is not its OpenMP number (libgomp may give a number to another of its
        # threads when a team shrinks and grows again): the master's visits, and all the others'.
        for node, instances, visits in ((a_node, 2 * rounds, 2 * sum(sizes)), (b_node, rounds, threads * rounds)):
            by_thread = {t["thread"]: t["visits"] for t in node["threads"]}
            self.assertEqual(by_thread[0], instances, by_thread)
            self.assertEqual(sum(by_thread.values()), visits, by_thread)


class Snapshots(unittest.TestCase):

    def test_periodic_and_labelled_snapshots_are_cumulative_and_ordered(self):
        profile, report, _ = run_profiled("snapshots_and_counters", ["3"], {"OMPP_SNAPSHOT_INTERVAL": "0.05"})
        snaps = profile["snapshots"]
        labels = [s["label"] for s in snaps if s["label"]]
        self.assertEqual(labels, ["round 1", "round 2", "round 3"])
        self.assertGreaterEqual(len(snaps) - len(labels), 3)  # ~0.6 s run at 0.05 s
        times = [s["time_s"] for s in snaps]
        self.assertEqual(times, sorted(times))
        spin = region_id(profile, "USER_REGION", "spin")
        visits = [next((r["visits"] for r in s["regions"] if r["region"] == spin), 0) for s in snaps]
        self.assertEqual(visits, sorted(visits))
        labelled = [next(r["visits"] for r in s["regions"] if r["region"] == spin) for s in snaps if s["label"]]
        self.assertEqual(labelled, [1, 2, 3])
        self.assertIn("ompP Snapshots", report)
        self.assertIn("round 3", report)

    def test_dump_interval_alias_and_too_small_interval(self):
        profile, _, _ = run_profiled("snapshots_and_counters", ["2"], {"OMPP_DUMP_INTERVAL": "0.05"})
        self.assertGreaterEqual(len([s for s in profile["snapshots"] if not s["label"]]), 2)
        profile, _, stderr = run_profiled("snapshots_and_counters", ["1"], {"OMPP_SNAPSHOT_INTERVAL": "0.001"})
        self.assertIn("OMPP_SNAPSHOT_INTERVAL", stderr)
        self.assertIn("0.01", stderr)
        self.assertEqual([s["label"] for s in profile["snapshots"]], ["round 1"])


class SoftwareCounters(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.profile, cls.report, cls.stderr = run_profiled(
            "snapshots_and_counters", ["1"],
            {"OMPP_CTR1": "cpu_time", "OMPP_CTR2": "voluntary_ctx_switches", "OMPP_CTR3": "PAPI_TOT_INS",
             "OMPP_CTR4": "page_faults"})

    def counter(self, region_name, index, which="counters_exclusive"):
        region = region_id(self.profile, "USER_REGION", region_name)
        return sum(t[which][index] for n in nodes_of(self.profile, region) for t in n["threads"])

    def test_counters_are_listed_in_order_and_papi_failure_is_reported(self):
        names = [c["name"] for c in self.profile["counters"]]
        self.assertEqual(names, ["cpu_time", "voluntary_ctx_switches", "page_faults"])
        self.assertEqual(len(self.profile["counter_errors"]), 1)
        self.assertIn("OMPP_CTR3=PAPI_TOT_INS", self.profile["counter_errors"][0])
        self.assertEqual(self.stderr.count("OMPP_CTR3=PAPI_TOT_INS"), 1)
        self.assertIn("OMPP_CTR3=PAPI_TOT_INS", self.report)

    def test_cpu_time_follows_work_not_sleep(self):
        self.assertGreater(self.counter("spin", 0), 0.06e9)
        self.assertLess(self.counter("spin", 0), 2e9)
        self.assertLess(self.counter("nap", 0), 0.03e9)
        self.assertGreaterEqual(self.counter("spin", 0, "counters_inclusive"), self.counter("spin", 0))

    def test_sleeping_switches_context_and_touching_memory_faults(self):
        self.assertGreaterEqual(self.counter("nap", 1), 1)
        self.assertGreater(self.counter("touch", 2), 2000)  # 4096 pages of 4 KiB
        self.assertLess(self.counter("nap", 2), 200)

    def test_snapshots_carry_counters(self):
        snap = self.profile["snapshots"][-1]
        spin = region_id(self.profile, "USER_REGION", "spin")
        (entry,) = [r for r in snap["regions"] if r["region"] == spin]
        self.assertEqual(len(entry["counters_exclusive"]), 3)
        self.assertGreater(entry["counters_exclusive"][0], 0.06e9)


if __name__ == "__main__":
    PROGRAMS = sys.argv.pop(1)
    unittest.main()
