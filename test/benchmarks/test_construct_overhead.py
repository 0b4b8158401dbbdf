"""Tests of benchmarks/construct-overhead.py and its program (benchmarks/epcc).

The program tests build the driver with the construct sets compiled plainly
(gcc-12), so they need no ompp; what ompp adds is the smoke test's business
("benchmark smoke: construct-overhead.py").  No figure is judged: only what
the program prints and how the script reads it.
"""

import os
import re
import subprocess
import tempfile
import unittest
from pathlib import Path

import benchmark_scripts

script = benchmark_scripts.load("construct-overhead.py", "OMPP_CONSTRUCT_OVERHEAD", "construct_overhead")
EPCC = Path(script.__file__).parent / "epcc"


class Rows(unittest.TestCase):
    def test_paired_rows_take_the_median_and_middle_half_of_all_rounds(self):
        figures = script.Figures(plain=[1000.0, 1010.0, 990.0], ompp=[1100.0, 1130.0, 1090.0],
                                 added=[10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 1000.0],
                                 run_added=[20.0, 55.0, 35.0])
        r = script.row("FOR", figures, "gcc", 2, separate=False)
        self.assertEqual(r["plain_ns"], 1000.0)
        self.assertEqual(r["ompp_ns"], 1100.0)
        self.assertEqual(r["added_ns"], 45.0)  # the median of the rounds, not ompp_ns - plain_ns
        self.assertEqual((r["rounds_low_ns"], r["rounds_high_ns"]), (22.5, 67.5))
        self.assertEqual((r["runs_low_ns"], r["runs_high_ns"]), (20.0, 55.0))
        self.assertEqual(r["target_ns"], 80)
        self.assertEqual(r["method"], "paired")

    def test_a_paired_floor_is_already_a_difference(self):
        figures = script.Figures(plain=[80.0], ompp=[250.0], added=[170.0], run_added=[170.0],
                                 floor=[30.0, 40.0, 50.0])
        self.assertEqual(script.row("LOCK", figures, "gcc", 2, separate=False)["floor_ns"], 40.0)

    def test_separate_rows_subtract_the_medians(self):
        figures = script.Figures(plain=[1000.0, 1200.0, 1100.0], ompp=[1150.0, 1250.0, 1300.0],
                                 run_added=[150.0, 50.0, 200.0],
                                 floor=[1180.0, 1140.0, 1160.0])
        r = script.row("CRITICAL", figures, "gcc", 1, separate=True)
        self.assertEqual(r["added_ns"], 150.0)
        self.assertEqual((r["runs_low_ns"], r["runs_high_ns"]), (50.0, 200.0))
        self.assertEqual((r["rounds_low_ns"], r["rounds_high_ns"]), ("", ""))  # one figure per run
        self.assertEqual(r["floor_ns"], 60.0)
        self.assertEqual(r["target_ns"], "")  # targets are for 2 threads


class Program(unittest.TestCase):
    """The driver linked with no, one or both construct sets."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        work = Path(cls.tmp.name)

        def compile_(*args):
            subprocess.run(["gcc-12", "-fopenmp", "-O1", *map(str, args)], check=True, cwd=work)

        compile_("-c", EPCC / "construct_overhead.c", "-o", "driver.o")
        for variant in ("plain", "ompp"):
            compile_(f"-DCONSTRUCT_SET={variant}", "-c", EPCC / "construct_kernels.c", "-o", f"{variant}.o")
        compile_("driver.o", "-o", "none")
        compile_("driver.o", "plain.o", "-o", "one")
        compile_("driver.o", "plain.o", "ompp.o", "-o", "both")
        cls.work = work

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def run_program(self, name, *args, threads=2):
        env = dict(os.environ, OMP_NUM_THREADS=str(threads))
        return subprocess.run([str(self.work / name), "--time", "0.0005", *args], capture_output=True, text=True,
                              env=env, timeout=120)

    def test_both_sets_are_measured_round_by_round(self):
        done = self.run_program("both", "--rounds", "3", "--only", "BARRIER")
        self.assertEqual(done.returncode, 0, done.stderr)
        lines = [line for line in done.stdout.splitlines() if not script.TRANSFER_LINE.match(line)]
        self.assertEqual(len(lines), 1, done.stdout)
        m = script.PAIRED_LINE.match(lines[0])
        self.assertIsNotNone(m, lines[0])
        self.assertEqual((m.group(1), m.group(2)), ("BARRIER", "2"))
        self.assertEqual(len(m.group(6).split(",")), 3)

    def test_one_set_is_measured_as_epcc_does(self):
        done = self.run_program("one", "--rounds", "2")
        self.assertEqual(done.returncode, 0, done.stderr)
        names = [m.group(1) for m in script.SEPARATE_LINE.finditer(done.stdout)]
        self.assertEqual(sorted(names), sorted(script.TARGETS_NS))
        self.assertNotIn("PAIRED", done.stdout)

    def test_the_line_transfer_is_measured_with_two_threads(self):
        noted = []
        script.transfers(self.run_program("one", "--only", "ATOMIC").stdout, noted)
        self.assertEqual(len(noted), 1)
        self.assertGreater(noted[0], 0)
        alone = self.run_program("one", "--only", "ATOMIC", threads=1)
        self.assertEqual(alone.returncode, 0, alone.stderr)
        self.assertNotIn("TRANSFER", alone.stdout)

    def test_no_set_is_an_error(self):
        done = self.run_program("none")
        self.assertEqual(done.returncode, 2)
        self.assertIn("linked with no construct set", done.stderr)

    def test_bad_usage(self):
        for args in (["--rounds", "0"], ["--rounds", "x"], ["--only", "NOTHING"], ["--frobnicate"]):
            with self.subTest(args=args):
                done = self.run_program("both", *args)
                self.assertEqual(done.returncode, 2)
                self.assertTrue(re.search(r"usage:|no construct named", done.stderr), done.stderr)


if __name__ == "__main__":
    unittest.main()
