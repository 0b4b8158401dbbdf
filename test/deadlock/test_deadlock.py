#!/usr/bin/env python3
"""Deadlock detection (OMPP_DEADLOCK): the deadlocks of deadlocks.c, built
through ompp-cc with one compiler family and run at 2 threads, each end with
status 86 under OMPP_DEADLOCK=abort, their report naming every source line
marked "expect: CASE waits|holds" in a thread's wait or in what it holds, and
a profile written; under OMPP_DEADLOCK=report the program stays blocked after
the report.  Correct programs (the correct_* cases and every construct family
of test/barriers/families.c) are never reported, with the watchdog looking
every 10 ms.

Usage: test_deadlock.py --bindir DIR --compiler clang|gcc --source FILE --families FILE --work DIR
"""
import argparse
import glob
import os
import re
import selectors
import subprocess
import sys
import time
import unittest

COMPILERS = {"clang": "clang-16", "gcc": "gcc-12"}
ABORT_STATUS = 86
OPTS = None


# Unoptimised: a lock call's line comes from its return address, and the
# optimiser may merge the calls of two branches into one (docs/deadlock.md).
def build(source, exe, optimisation="-O0"):
    env = dict(os.environ, OMPP_CC=COMPILERS[OPTS.compiler])
    proc = subprocess.run([os.path.join(OPTS.bindir, "ompp-cc"), "-fopenmp", "-g", optimisation, source, "-o", exe],
                          env=env, capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        raise AssertionError(f"ompp-cc failed:\n{proc.stderr}")
    return exe


def environment(outdir, **settings):
    env = {k: v for k, v in os.environ.items() if not k.startswith("OMPP_")}
    env.update(OMP_NUM_THREADS="2", OMP_DYNAMIC="false", OMPP_OUTDIR=outdir, **settings)
    return env


def expected_lines(case):
    """(line, role) of every line marked "expect: CASE waits|holds"."""
    with open(OPTS.source) as f:
        return [(n, m.group(1)) for n, line in enumerate(f, 1)
                if (m := re.search(rf"expect: {case} (waits|holds)\b", line))]


class Deadlocks(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        os.makedirs(OPTS.work, exist_ok=True)
        cls.exe = build(OPTS.source, os.path.join(OPTS.work, "deadlocks"))
        cls.cases = subprocess.run([cls.exe], capture_output=True, text=True, check=True).stdout.split()
        cls.deadlocks = [c for c in cls.cases if not c.startswith("correct_")]

    def outdir(self, name):
        path = os.path.join(OPTS.work, name)
        os.makedirs(path, exist_ok=True)
        for old in glob.glob(os.path.join(path, "*.ompp.*")):
            os.remove(old)
        return path

    def test_each_deadlock_ends_the_program_with_its_lines_named(self):
        self.assertEqual(len(self.deadlocks), 4)
        for case in self.deadlocks:
            with self.subTest(case=case):
                outdir = self.outdir(case)
                proc = subprocess.run([self.exe, case], env=environment(outdir, OMPP_DEADLOCK="abort",
                                                                        OMPP_DEADLOCK_INTERVAL="0.05"),
                                      capture_output=True, text=True, timeout=60)
                self.assertEqual(proc.returncode, ABORT_STATUS, proc.stderr)
                self.assertIn("ompp: DEADLOCK", proc.stderr)
                lines = expected_lines(case)
                self.assertTrue(lines, f"no line of deadlocks.c is marked 'expect: {case}'")
                for line, role in lines:
                    self.assertRegex(proc.stderr, rf"ompp: +{role} [^\n]*deadlocks\.c:{line}\b",
                                     f"line {line} not named in what a thread {role}")
                self.assertEqual(len(glob.glob(os.path.join(outdir, "*.ompp.json"))), 1, proc.stderr)

    def test_report_leaves_the_program_blocked_with_its_profile_written(self):
        outdir = self.outdir("report")
        proc = subprocess.Popen([self.exe, "lock_order"], env=environment(outdir, OMPP_DEADLOCK="report"),
                                stderr=subprocess.PIPE)
        try:
            stderr = ""  # up to the line that says the program stays blocked
            deadline = time.monotonic() + 60
            readable = selectors.DefaultSelector()
            readable.register(proc.stderr, selectors.EVENT_READ)
            while "stays blocked" not in stderr and time.monotonic() < deadline:
                if not readable.select(timeout=1):
                    continue
                chunk = os.read(proc.stderr.fileno(), 4096)
                if not chunk:
                    break
                stderr += chunk.decode()
            self.assertIn("stays blocked", stderr)
            time.sleep(0.5)
            self.assertIsNone(proc.poll(), "the program ended")
            self.assertEqual(len(glob.glob(os.path.join(outdir, "*.ompp.json"))), 1, stderr)
        finally:
            proc.kill()
            proc.wait()
            proc.stderr.close()

    def test_correct_programs_are_never_reported(self):
        families = build(OPTS.families, os.path.join(OPTS.work, "families"), "-O1")
        runs = [(self.exe, case) for case in self.cases if case.startswith("correct_")]
        listing = subprocess.run([families], capture_output=True, text=True, check=True).stdout.split()
        runs += [(families, family) for family in listing]
        self.assertGreater(len(runs), 10)
        for exe, case in runs:
            with self.subTest(program=os.path.basename(exe), case=case):
                env = environment(self.outdir("correct"), OMPP_DEADLOCK="abort", OMPP_DEADLOCK_INTERVAL="0.01",
                                  OMP_CANCELLATION="true")
                proc = subprocess.run([exe, case], env=env, capture_output=True, text=True, timeout=60)
                self.assertNotIn("DEADLOCK", proc.stderr)
                self.assertEqual(proc.returncode, 0, proc.stderr)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    for option in ("--bindir", "--source", "--families", "--work"):
        parser.add_argument(option, required=True)
    parser.add_argument("--compiler", choices=COMPILERS, required=True)
    OPTS, rest = parser.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
