#!/usr/bin/python3
"""libompp under stress (issue 10): deep recursion, quicksort on sorted input,
run-time user-region names, planted files, awkward
names and values.  Correctness only; scripts/stress.sh measures time and
memory.  Configuration as test_e2e.py: OMPP_E2E_CXX, OMPP_E2E_LIBDIR,
OMPP_E2E_INCLUDE, OMPP_E2E_SOURCES."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "scripts"))
from ompp_profile import read_json  # noqa: E402  (the one reader of profiles)

CXX = os.environ.get("OMPP_E2E_CXX", "g++-12")
LIBDIR = Path(os.environ["OMPP_E2E_LIBDIR"])
INCLUDE = Path(os.environ["OMPP_E2E_INCLUDE"])
SOURCES = Path(os.environ.get("OMPP_E2E_SOURCES", Path(__file__).parent))


def run(cmd, **kwargs):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=240, **kwargs)


class StressTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = Path(tempfile.mkdtemp(prefix="ompp-stress-"))
        cls.exe = cls.work / "stress"
        build = run([CXX, "-std=c++17", "-O1", "-fopenmp", f"-I{INCLUDE}", str(SOURCES / "stress_program.cpp"),
                     f"-L{LIBDIR}", f"-Wl,-rpath,{LIBDIR}", "-lompp", "-o", str(cls.exe)])
        if build.returncode != 0:
            raise RuntimeError(f"building the stress program failed:\n{build.stderr}")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def launch(self, *args, outdir=None, **env):
        outdir = Path(outdir or tempfile.mkdtemp(dir=self.work))
        environment = dict(os.environ, OMP_NUM_THREADS="2", OMPP_OUTDIR=str(outdir), OMPP_QUIET="1")
        environment.update(env)
        result = run([str(self.exe), *args], env=environment, cwd=self.work)
        self.assertEqual(result.returncode, 0, result.stderr)
        return result, outdir

    def profile(self, outdir, pattern="stress.*.ompp.json"):
        [path] = sorted(outdir.glob(pattern))
        self.assertTrue(Path(str(path)[:-len(".json")] + ".txt").exists())
        return read_json(path)

    def test_depth_100000_folds(self):
        _, outdir = self.launch("deep", "100000")
        profile = self.profile(outdir)
        self.assertLessEqual(len(profile["nodes"]), profile["max_depth"] + 2)
        depths = [n.get("recursion_depth", 0) for n in profile["nodes"]]
        self.assertEqual(max(depths), 100000 - profile["max_depth"])

    def test_quicksort_on_sorted_input(self):
        _, outdir = self.launch("quicksort", "2000")
        profile = self.profile(outdir)
        self.assertLess(len(profile["nodes"]), 200)
        self.assertTrue(any(n.get("recursion_depth", 0) > 1000 for n in profile["nodes"]))

    def test_run_time_names(self):
        _, outdir = self.launch("names", "20000")
        profile = self.profile(outdir)
        names = {r["name"] for r in profile["regions"] if r["kind"] == "USER_REGION"}
        self.assertEqual(len(names), 20000)
        self.assertEqual(profile["warnings"], [])

    def test_planted_links_do_not_lose_the_profile(self):
        outdir = Path(tempfile.mkdtemp(dir=self.work))
        victim = outdir / "victim"
        victim.write_text("precious")
        for index in range(2):
            (outdir / f"stress.1-{index}.ompp.json").symlink_to(outdir / "missing" / str(index))
        (outdir / "stress.1-2.ompp.txt").symlink_to(victim)
        self.launch("deep", "10", outdir=outdir)
        self.assertEqual(victim.read_text(), "precious")
        self.assertTrue((outdir / "stress.1-3.ompp.json").exists())
        self.assertTrue((outdir / "stress.1-3.ompp.txt").exists())
        self.assertFalse((outdir / "missing").exists())

    def test_300_character_application_name(self):
        _, outdir = self.launch("deep", "10", OMPP_APPNAME="x" * 300)
        [path] = outdir.glob("*.json")
        self.assertEqual(read_json(path)["application"], "x" * 300)

    def test_not_a_number_is_rejected_in_one_line(self):
        for value in ("nan", "inf", "-1"):
            result, outdir = self.launch("deep", "10", OMPP_SNAPSHOT_INTERVAL=value)
            lines = result.stderr.strip().splitlines()
            self.assertEqual(len(lines), 1, result.stderr)
            self.assertIn("OMPP_SNAPSHOT_INTERVAL", lines[0])
            self.profile(outdir)


if __name__ == "__main__":
    unittest.main()
