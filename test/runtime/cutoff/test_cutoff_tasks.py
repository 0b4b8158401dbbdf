#!/usr/bin/env python3
"""Tasks below BOTS-style `if` and `final` cut-offs, built through ompp-cc
with one compiler and its OpenMP runtime and run at 2 threads: the profile
counts every task and taskwait the program counted itself; each task the
clauses make run at once is an included instance; the tasks after an
undeferred final task are deferred (timed) again; and a taskwait that may
wait (after deferred tasks, after a `nogroup` taskloop) is timed.  Built a
second time with -DPOMP2_NO_INLINE_COUNTS (every untimed task and taskwait a
call into libompp) and both run at 1 thread, the two profiles count the same
on every call path, control flow included.

Usage: test_cutoff_tasks.py --bindir DIR --compiler clang|gcc --source FILE --work DIR
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import unittest

COMPILERS = {"clang": "clang-16", "gcc": "gcc-12"}
OPTS = None


def build(name, *flags):
    """cutoff_tasks.c built through ompp-cc into the work directory."""
    os.makedirs(OPTS.work, exist_ok=True)
    exe = os.path.join(OPTS.work, name)
    built = subprocess.run([os.path.join(OPTS.bindir, "ompp-cc"), f"--compiler={COMPILERS[OPTS.compiler]}",
                            "-fopenmp", "-O1", *flags, OPTS.source, "-o", exe], capture_output=True, text=True)
    if built.returncode != 0:
        raise RuntimeError(f"building {OPTS.source} failed:\n{built.stderr}")
    return exe


def run(exe, threads):
    """(stdout, JSON profile) of one run."""
    outdir = os.path.join(OPTS.work, f"out-{os.path.basename(exe)}-{threads}")
    for old in glob.glob(os.path.join(outdir, "*")):
        os.remove(old)
    env = {k: v for k, v in os.environ.items() if not k.startswith("OMPP_")}
    env.update(OMP_NUM_THREADS=str(threads), OMPP_OUTDIR=outdir, OMPP_QUIET="1")
    ran = subprocess.run([exe], env=env, capture_output=True, text=True, timeout=120)
    if ran.returncode != 0:
        raise RuntimeError(f"{exe} exited {ran.returncode}: {ran.stderr}")
    [profile] = glob.glob(os.path.join(outdir, "*.ompp.json"))
    with open(profile) as f:
        return ran.stdout, json.load(f)


class CutoffTasks(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        stdout, cls.profile = run(build("cutoff_tasks"), 2)
        counts = re.search(r"fib (\d+) (\d+) tasks (\d+) undeferred (\d+) taskwaits (\d+)", stdout)
        cls.fib = (int(counts.group(1)), int(counts.group(2)))
        cls.tasks, cls.undeferred, cls.taskwaits = (int(counts.group(i)) for i in (3, 4, 5))
        cls.line_of = {r["id"]: r["first_line"] for r in cls.profile["regions"]}
        with open(OPTS.source) as f:
            cls.source_lines = f.read().splitlines()

    def line(self, text, occurrence=0):
        """The line number of a statement of the program, found by its text."""
        found = [i + 1 for i, line in enumerate(self.source_lines) if line.strip().startswith(text)]
        return found[occurrence]

    def task_statistics(self, line):
        return [t for t in self.profile["tasks"] if self.line_of[t["region"]] == line]

    def taskwait_visits(self, line):
        """(visits, inclusive seconds) of every taskwait node of the line, all threads."""
        return [(m["visits"], m["inclusive_s"]) for n in self.profile["nodes"]
                if n["region"] is not None and self.line_of.get(n["region"]) == line for m in n["threads"]]

    def test_the_program_ran_right(self):
        self.assertEqual(self.fib, (987, 987))

    def test_every_task_below_a_cutoff_counted_inline(self):
        """bare_fib(16) twice: 2 * 1596 calls with 2 tasks and a taskwait."""
        line = self.line("x = bare_fib") - 1
        tasks = [s for l in (line, self.line("y = bare_fib") - 1) for s in self.task_statistics(l)]
        self.assertEqual(sum(s["instances"] for s in tasks), 2 * 2 * 1596)
        taskwait = self.line("#pragma omp taskwait", 1)
        self.assertEqual(sum(v for v, _ in self.taskwait_visits(taskwait)), 2 * 1596)

    def test_every_task_counted_and_those_run_at_once_included(self):
        fib_tasks = (self.line("x = fib") - 1, self.line("y = fib") - 1)
        statistics = [s for line in fib_tasks for s in self.task_statistics(line)]
        self.assertEqual(len(statistics), 2)
        self.assertEqual(sum(s["instances"] for s in statistics), self.tasks)
        # The tasks above the cut-off are deferred: the runtime may still run
        # a few at once, never fewer than the clauses say.
        included = sum(s["included"] for s in statistics)
        self.assertGreaterEqual(included, self.undeferred)
        self.assertLessEqual(included, self.undeferred + 2 * 14)

    def test_every_taskwait_counted(self):
        visits = self.taskwait_visits(self.line("#pragma omp taskwait"))
        self.assertEqual(sum(v for v, _ in visits), self.taskwaits)

    def test_tasks_after_an_undeferred_final_task_are_deferred_again(self):
        [inside] = self.task_statistics(self.line("#pragma omp task if (0) final(1)") + 2)
        self.assertEqual((inside["instances"], inside["included"]), (1, 1))
        [after] = self.task_statistics(self.line("usleep(2000);") - 1)
        self.assertEqual((after["instances"], after["included"]), (4, 0))
        self.assertGreater(after["mean_s"], 1e-3)

    def test_a_taskwait_that_may_wait_is_timed(self):
        for statement in ("usleep(2000);", "for (int i = 0; i < 2; ++i) usleep(2000);"):
            with self.subTest(after=statement):
                line = self.line(statement)
                taskwait = next(i + 1 for i in range(line, len(self.source_lines))
                                if self.source_lines[i].strip() == "#pragma omp taskwait")
                [(visits, seconds)] = self.taskwait_visits(taskwait)
                self.assertEqual(visits, 1)
                self.assertGreater(seconds, 1e-3)


def counts(profile):
    """What a profile counts per call path (kinds and region lines from the
    root), times left out: visits, included tasks, and the count of every
    control-flow edge into the node, and per task construct its instances
    and included ones."""
    line_of = {r["id"]: r["first_line"] for r in profile["regions"]}
    nodes = {n["id"]: n for n in profile["nodes"]}

    def path(node_id):
        node = nodes[node_id]
        step = (node["kind"], line_of.get(node["region"]))
        return (path(node["parent"]) if node["parent"] is not None else ()) + (step,)

    per_path = {}
    for node in profile["nodes"]:
        per_path[path(node["id"])] = (
            sorted((m["thread"], m["visits"], m.get("body_count")) for m in node["threads"]),
            sorted((path(p["node"]), p["thread"], p["count"]) for p in node["predecessors"]))
    tasks = sorted((line_of[t["region"]], t["instances"], t["included"]) for t in profile["tasks"])
    return per_path, tasks


class InlineCountsAsCalls(unittest.TestCase):
    def test_the_same_counts_with_and_without_inline_counting(self):
        inline_out, inline = run(build("cutoff_tasks_inline"), 1)
        calls_out, calls = run(build("cutoff_tasks_calls", "-DPOMP2_NO_INLINE_COUNTS"), 1)
        self.assertEqual(inline_out, calls_out)
        self.assertIn("bare 987 987", inline_out)
        inline_counts, calls_counts = counts(inline), counts(calls)
        self.assertEqual(inline_counts[1], calls_counts[1])
        self.assertEqual(sorted(inline_counts[0]), sorted(calls_counts[0]))
        for call_path, counted in calls_counts[0].items():
            self.assertEqual(inline_counts[0][call_path], counted, call_path)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--bindir", required=True)
    parser.add_argument("--compiler", choices=COMPILERS, required=True)
    parser.add_argument("--source", required=True)
    parser.add_argument("--work", required=True)
    OPTS, rest = parser.parse_known_args()
    unittest.main(argv=[sys.argv[0], *rest])
