#!/usr/bin/env python3
"""Tasks below BOTS-style `if` and `final` cut-offs, built through ompp-cc
with one compiler and its OpenMP runtime and run at 2 threads: the profile
counts every task and taskwait the program counted itself; each task the
clauses make run at once is an included instance; the tasks after an
undeferred final task are deferred (timed) again; and a taskwait that may
wait (after deferred tasks, after a `nogroup` taskloop) is timed.

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


class CutoffTasks(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        os.makedirs(OPTS.work, exist_ok=True)
        exe = os.path.join(OPTS.work, "cutoff_tasks")
        build = subprocess.run([os.path.join(OPTS.bindir, "ompp-cc"), f"--compiler={COMPILERS[OPTS.compiler]}",
                                "-fopenmp", "-O1", OPTS.source, "-o", exe], capture_output=True, text=True)
        if build.returncode != 0:
            raise RuntimeError(f"building {OPTS.source} failed:\n{build.stderr}")
        outdir = os.path.join(OPTS.work, "out")
        for old in glob.glob(os.path.join(outdir, "*")):
            os.remove(old)
        env = {k: v for k, v in os.environ.items() if not k.startswith("OMPP_")}
        env.update(OMP_NUM_THREADS="2", OMPP_OUTDIR=outdir, OMPP_QUIET="1")
        run = subprocess.run([exe], env=env, capture_output=True, text=True, timeout=120)
        if run.returncode != 0:
            raise RuntimeError(f"cutoff_tasks exited {run.returncode}: {run.stderr}")
        counts = re.search(r"fib (\d+) (\d+) tasks (\d+) undeferred (\d+) taskwaits (\d+)", run.stdout)
        cls.fib = (int(counts.group(1)), int(counts.group(2)))
        cls.tasks, cls.undeferred, cls.taskwaits = (int(counts.group(i)) for i in (3, 4, 5))
        [profile] = glob.glob(os.path.join(outdir, "*.ompp.json"))
        with open(profile) as f:
            cls.profile = json.load(f)
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


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--bindir", required=True)
    parser.add_argument("--compiler", choices=COMPILERS, required=True)
    parser.add_argument("--source", required=True)
    parser.add_argument("--work", required=True)
    OPTS, rest = parser.parse_known_args()
    unittest.main(argv=[sys.argv[0], *rest])
