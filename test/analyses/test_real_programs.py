#!/usr/bin/env python3
"""Profiles of real programs add up (issue 9): small OpenMP programs of every
construct family under real_programs/, instrumented by ompp-cc with one
compiler family (clang-16 + libomp or gcc-12 + libgomp), run at 1, 2 and 4
threads; libompp's own invariant check (`invariant_violations`) must find
nothing, and the figures users read first are checked here independently:
the `parallel for` run 100 times is one node per call path with execC 100 on
every thread, parallel coverage is at most 100 %, a thread's exclusive times
add up to its measured time.

Usage: test_real_programs.py --bindir DIR --compiler clang|gcc --sources DIR --work DIR
Run outputs go to --work (the build directory), never to the source tree.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from ompp_profile import read_json  # noqa: E402  (the one reader of profiles)

COMPILERS = {"clang": ("clang-16", "clang++-16"), "gcc": ("gcc-12", "g++-12")}
THREAD_COUNTS = (1, 2, 4)
PARALLEL_FOR_INSTANCES = 100  # worksharing.c
OPTS = None


def build(program):
    cc, cxx = COMPILERS[OPTS.compiler]
    env = dict(os.environ, OMPP_CC=cc, OMPP_CXX=cxx)
    exe = os.path.join(OPTS.work, program)
    source = os.path.join(OPTS.sources, program + ".c")
    proc = subprocess.run([os.path.join(OPTS.bindir, "ompp-cc"), "-fopenmp", "-O1", source, "-o", exe],
                          env=env, capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        raise AssertionError(f"ompp-cc {program}.c failed ({OPTS.compiler}):\n{proc.stderr}")
    return exe


def run(exe, threads):
    outdir = os.path.join(OPTS.work, f"{os.path.basename(exe)}.{threads}")
    shutil.rmtree(outdir, ignore_errors=True)
    os.makedirs(outdir)
    env = {k: v for k, v in os.environ.items() if not k.startswith("OMPP_")}
    env.update(OMP_NUM_THREADS=str(threads), OMPP_OUTDIR=outdir, OMPP_QUIET="1")
    proc = subprocess.run([exe], env=env, capture_output=True, text=True, timeout=120, cwd=outdir)
    if proc.returncode != 0:
        raise AssertionError(f"{exe} at {threads} threads exited {proc.returncode}: {proc.stderr}")
    (profile_file,) = glob.glob(os.path.join(outdir, "*.ompp.json"))
    (report_file,) = glob.glob(os.path.join(outdir, "*.ompp.txt"))
    with open(report_file) as g:
        return read_json(profile_file), g.read()


class Family:
    """Runs one program at every thread count and checks each profile."""
    program = None

    @classmethod
    def setUpClass(cls):
        exe = build(cls.program)
        cls.runs = {threads: run(exe, threads) for threads in THREAD_COUNTS}

    def test_invariants_hold(self):
        for threads, (profile, report) in self.runs.items():
            with self.subTest(threads=threads):
                self.assertTrue("invariant_violations" in profile, "the profile has no invariant_violations key")
                self.assertEqual(profile["invariant_violations"], [])
                self.assertNotIn("Profile check", report)

    def test_parallel_coverage_at_most_100_percent(self):
        for threads, (_, report) in self.runs.items():
            with self.subTest(threads=threads):
                coverage = float(re.search(r"Parallel coverage\s*: [\d.]+ sec \(([\d.]+)%\)", report).group(1))
                self.assertLessEqual(coverage, 100.0)

    def test_exclusive_times_add_up_to_the_wall_time_on_the_initial_thread(self):
        for threads, (profile, _) in self.runs.items():
            with self.subTest(threads=threads):
                exclusive = sum(m["exclusive_s"] for n in profile["nodes"] for m in n["threads"] if m["thread"] == 0)
                self.assertAlmostEqual(exclusive, profile["wall_time_s"], delta=1e-6 + 1e-6 * exclusive)

    def test_no_construct_node_nested_in_itself(self):
        for threads, (profile, _) in self.runs.items():
            by_id = {n["id"]: n for n in profile["nodes"]}
            kinds = {r["id"]: r["kind"] for r in profile["regions"]}
            for node in profile["nodes"]:
                parent = by_id.get(node["parent"])
                if node["kind"] != "region" or parent is None or parent["kind"] != "region":
                    continue
                # A recursive task run inside its creation (included) creates
                # the next one inside that creation.
                if parent["region"] == node["region"] and kinds[node["region"]] not in ("PARALLEL_LOOP", "TASK"):
                    self.fail(f"{threads} threads: node {node['id']} nested in a node of its own region")


class Worksharing(Family, unittest.TestCase):
    program = "worksharing"

    def test_parallel_for_is_one_row_with_execc_equal_to_its_instances(self):
        for threads, (profile, report) in self.runs.items():
            with self.subTest(threads=threads):
                (pfor,) = [r["id"] for r in profile["regions"]
                           if r["kind"] == "PARALLEL_LOOP" and r["first_line"] == 15]
                nodes = [n for n in profile["nodes"] if n["region"] == pfor and n["kind"] == "region"]
                self.assertEqual(len(nodes), 1)
                visits = {m["thread"]: m["visits"] for m in nodes[0]["threads"]}
                self.assertEqual(visits, {t: PARALLEL_FOR_INSTANCES for t in range(threads)})
                # The flat profile's table for the region: SUM execC = instances x threads.
                header = re.search(rf"R{pfor:05d} \S*worksharing.c \(15-16\) in main PARALLEL LOOP\n", report)
                table = report[header.end():].split("\n\n")[0]
                sum_row = [line for line in table.splitlines() if line.strip().startswith("SUM")][0]
                self.assertEqual(int(sum_row.split()[2]), PARALLEL_FOR_INSTANCES * threads)

    def test_every_combined_construct_is_one_node_with_its_implicit_barrier_below(self):
        profile, _ = self.runs[2]
        kinds = {r["id"]: r["kind"] for r in profile["regions"]}
        combined = [rid for rid, kind in kinds.items() if kind in ("PARALLEL_LOOP", "PARALLEL_SECTIONS")]
        self.assertGreaterEqual(len(combined), 3)
        for rid in combined:
            nodes = [n for n in profile["nodes"] if n["region"] == rid and n["kind"] == "region"]
            self.assertEqual(len(nodes), 1, rid)
            barriers = [n for n in profile["nodes"] if n["region"] == rid and n["kind"] == "implicit_barrier"]
            self.assertEqual([b["parent"] for b in barriers], [nodes[0]["id"]])


class Synchronisation(Family, unittest.TestCase):
    program = "synchronisation"


class Tasks(Family, unittest.TestCase):
    program = "tasks"


class Nesting(Family, unittest.TestCase):
    program = "nesting"


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--bindir", required=True)
    parser.add_argument("--compiler", choices=sorted(COMPILERS), required=True)
    parser.add_argument("--sources", required=True)
    parser.add_argument("--work", required=True)
    OPTS, rest = parser.parse_known_args()
    os.makedirs(OPTS.work, exist_ok=True)
    unittest.main(argv=[sys.argv[0], *rest])
