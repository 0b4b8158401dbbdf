#!/usr/bin/python3
"""libompp under stress (issue 10): deep recursion, quicksort on sorted input,
run-time user-region names, nested-team thread churn, planted files, a full
disk, SIGTERM during the final write, awkward names and values.  Correctness
only; scripts/stress.sh measures time and memory.  Configuration as
test_e2e.py: OMPP_E2E_CXX, OMPP_E2E_CC, OMPP_E2E_LIBDIR, OMPP_E2E_INCLUDE,
OMPP_E2E_SOURCES."""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "scripts"))
from ompp_profile import read_json  # noqa: E402  (the one reader of profiles)

CXX = os.environ.get("OMPP_E2E_CXX", "g++-12")
CC = os.environ.get("OMPP_E2E_CC", "gcc-12")
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
        cls.shim = cls.work / "enospc_shim.so"
        build = run([CC, "-shared", "-fPIC", "-O1", str(SOURCES / "enospc_shim.c"), "-o", str(cls.shim), "-ldl"])
        if build.returncode != 0:
            raise RuntimeError(f"building the ENOSPC shim failed:\n{build.stderr}")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def environment(self, outdir, **env):
        return dict(os.environ, OMP_NUM_THREADS="2", OMPP_OUTDIR=str(outdir), OMPP_QUIET="1", **env)

    def launch(self, *args, outdir=None, **env):
        outdir = Path(outdir or tempfile.mkdtemp(dir=self.work))
        result = run([str(self.exe), *args], env=self.environment(outdir, **env), cwd=self.work)
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

    def test_thread_churn_recycles_thread_state(self):
        # libgomp starts new OS threads for each of the 300 x 2 nested teams;
        # a passive wait keeps the run short on a loaded machine.
        _, outdir = self.launch("churn", "300", OMP_WAIT_POLICY="passive")
        profile = self.profile(outdir)
        self.assertEqual(profile["invariant_violations"], [])
        # States are carried on by team position: the initial thread, the
        # outer worker, the two inner workers, and a few more when a new
        # thread starts before the one it replaces has ended.
        self.assertLess(len(profile["threads_info"]), 12, profile["threads_info"])
        inner = max(r["id"] for r in profile["regions"] if r["kind"] == "PARALLEL")
        # The region's own nodes, not its join barrier's (implicit_barrier).
        visits = sum(m["visits"] for n in profile["nodes"] if n.get("region") == inner and n["kind"] == "region"
                     for m in n["threads"])
        self.assertEqual(visits, 300 * 2 * 2)

    def test_sigterm_during_the_final_write(self):
        outdir = Path(tempfile.mkdtemp(dir=self.work))
        process = subprocess.Popen([str(self.exe), "names", "50000"], env=self.environment(outdir), cwd=self.work,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        # A temporary file in the output directory: the exit-time write has begun.
        deadline = time.monotonic() + 200
        while not any(outdir.glob(".ompp-*")) and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.002)
        if process.poll() is not None:
            self.skipTest("the program ended before the write could be interrupted")
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=240)
        self.assertEqual(process.returncode, -signal.SIGTERM, stderr)
        # The signal waits for the write under way (its handler must not run
        # on the writing thread and wait for itself): a complete profile
        # under the final names, nothing else.
        self.assertEqual(sorted(p.suffix for p in outdir.iterdir()), [".json", ".txt"])
        profile = self.profile(outdir)
        self.assertEqual(len([r for r in profile["regions"] if r["kind"] == "USER_REGION"]), 50000)
        [text] = outdir.glob("*.ompp.txt")
        self.assertIn("ompP Control Flow", text.read_text())

    def test_full_disk_leaves_nothing_half_written(self):
        outdir = Path(tempfile.mkdtemp(dir=self.work))
        result = run([str(self.exe), "names", "2000"], cwd=self.work,
                     env=self.environment(outdir, LD_PRELOAD=str(self.shim), ENOSPC_AFTER="65536"))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(list(outdir.iterdir()), [])
        lines = result.stderr.strip().splitlines()
        self.assertTrue(lines and all("No space left on device" in line for line in lines), result.stderr)

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
