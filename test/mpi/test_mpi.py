# SPDX-License-Identifier: BSD-3-Clause
"""MPI + OpenMP end to end (docs/mpi.md): hybrid_ranks.c built through
ompp-cc / ompp-c++ with the MPI compiler wrappers as a user would, run under
mpirun with 4 ranks of 2 threads, rank 1 slow; its rank profiles and their
merge checked.  Needs OMPP_BINDIR (the build's bin/) and Open MPI's mpirun.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "test" / "scripts"))

from ompp_profile import read_profile  # noqa: E402
from ompp_profile.breakdown import thread_breakdown  # noqa: E402
from test_profile_contract import SCHEMA, violations  # noqa: E402

RANKS, THREADS, SLOW_RANK = 4, 2, 1
BINDIR = Path(os.environ.get("OMPP_BINDIR", ROOT / "build" / "bin"))
VIEW = [sys.executable, str(ROOT / "scripts" / "ompp-view")]


def clean_environment(**extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OMPP_", "OMPI_", "PMI", "SLURM_"))}
    env.update(extra)
    return env


def run(command, cwd, env=None, timeout=300):
    done = subprocess.run(command, cwd=cwd, env=env or clean_environment(), capture_output=True, text=True,
                          timeout=timeout)
    if done.returncode != 0:
        raise AssertionError(f"{' '.join(map(str, command))} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return done


def mpirun(program, outdir, cwd):
    # Containers (CI) often forbid the cross-memory attach Open MPI's shared
    # memory transport tries first; without it, it copies through a buffer.
    env = clean_environment(OMPP_OUTDIR=str(outdir), OMPP_QUIET="1", OMP_NUM_THREADS=str(THREADS),
                            OMPI_MCA_btl_vader_single_copy_mechanism="none")
    return run(["mpirun", "--oversubscribe", "--allow-run-as-root", "-np", str(RANKS), str(program),
                str(SLOW_RANK)], cwd, env)


def node_path(profile, node):
    """The regions from the root down to `node`, as (kind, name) pairs."""
    path = []
    while node.parent is not None:
        region = profile.region_of(node)
        path.append((region.kind, region.name) if region else (node.kind, None))
        node = profile.nodes[node.parent]
    return list(reversed(path))


@unittest.skipUnless(shutil.which("mpirun") and shutil.which("mpicc"), "Open MPI (mpirun, mpicc) not installed")
class HybridRun(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = Path(tempfile.mkdtemp(prefix="ompp-mpi-"))
        cls.outdir = cls.work / "profiles"  # shared by all ranks
        shutil.copy(HERE / "hybrid_ranks.c", cls.work)
        run([BINDIR / "ompp-cc", "--compiler=mpicc", "-fopenmp", "-O2", "hybrid_ranks.c", "-o", "hybrid"], cls.work)
        cls.run_output = mpirun(cls.work / "hybrid", cls.outdir, cls.work)
        cls.files = sorted(cls.outdir.glob("*.ompp.json"))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def profile_of(self, rank):
        (path,) = [p for p in self.files if f".rank{rank}-of-{RANKS}." in p.name]
        return path

    def test_one_profile_per_rank_named_with_rank_and_size(self):
        self.assertEqual([p.name for p in self.files],
                         [f"hybrid.rank{r}-of-{RANKS}.{THREADS}-0.ompp.json" for r in range(RANKS)])
        for rank in range(RANKS):
            raw = json.loads(self.profile_of(rank).read_text())
            self.assertEqual(violations(raw, SCHEMA), [])
            self.assertEqual((raw["mpi"]["rank"], raw["mpi"]["size"]), (rank, RANKS))
            self.assertTrue(raw["mpi"]["host"])
            text = self.profile_of(rank).with_suffix(".txt").read_text()
            self.assertIn(f"MPI Rank        : {rank} of {RANKS} (host {raw['mpi']['host']})", text)

    def test_mpi_calls_are_regions_inside_the_openmp_region_that_made_them(self):
        profile = read_profile(self.profile_of(SLOW_RANK))
        mpi_nodes = {}
        for node in profile.nodes.values():
            region = profile.region_of(node)
            if node.kind == "region" and region.kind == "MPI":
                mpi_nodes.setdefault(region.name, []).append(node)
        self.assertEqual(sorted(mpi_nodes),
                         ["MPI_Allreduce", "MPI_Barrier", "MPI_Finalize", "MPI_Init_thread", "MPI_Sendrecv"])
        paths = {tuple(node_path(profile, n)): n for n in mpi_nodes["MPI_Allreduce"]}
        inside = paths[(("PARALLEL", None), ("MASTER", None), ("MPI", "MPI_Allreduce"))]
        outside = paths[(("MPI", "MPI_Allreduce"),)]
        # From the master thread (thread 0) inside, once per step; 8 bytes each.
        self.assertEqual([(t.thread, t.visits, t.bytes) for t in inside.threads], [(0, 3, 24)])
        self.assertEqual([(t.thread, t.visits, t.bytes) for t in outside.threads], [(0, 3, 24)])
        (sendrecv,) = mpi_nodes["MPI_Sendrecv"]
        self.assertEqual(sendrecv.threads[0].bytes, 2 * 1000 * 4)  # 1000 ints out and 1000 in
        (barrier,) = mpi_nodes["MPI_Barrier"]
        self.assertEqual(barrier.threads[0].visits, 3)
        self.assertGreater(inside.threads[0].inclusive_s, 0)
        # ompp-view threads: the master's Allreduce is its MPI time in the region.
        (record,) = thread_breakdown(profile)
        master, worker = record["threads"]
        self.assertAlmostEqual(master["mpi"], inside.threads[0].exclusive_s)
        self.assertEqual(worker["mpi"], 0.0)

    def test_the_merged_profile_names_the_slow_rank(self):
        merged_path = self.work / "merged.json"
        report = run([*VIEW, "merge", str(self.outdir), "-o", str(merged_path)], self.work).stdout
        merged = json.loads(merged_path.read_text())
        self.assertEqual(violations(merged, SCHEMA), [])
        ranks = merged["ranks"]
        self.assertEqual((ranks["size"], ranks["merged"], ranks["missing"]), (RANKS, RANKS, []))
        self.assertEqual(ranks["slowest"][0], SLOW_RANK)
        regions = {r["id"]: r for r in merged["regions"]}
        loop = next(s for s in ranks["regions"] if regions[s["region"]]["kind"] == "LOOP")
        self.assertEqual(loop["max_rank"], SLOW_RANK)
        self.assertLessEqual(loop["min_s"], loop["mean_s"])
        self.assertLess(loop["mean_s"], loop["max_s"])
        imbalance = [p for p in merged["properties"] if p["name"] == "ImbalanceAcrossRanks"]
        self.assertTrue(imbalance)
        self.assertEqual(regions[imbalance[0]["region"]]["kind"], "LOOP")
        self.assertIn(f"rank {SLOW_RANK} takes", imbalance[0]["text"])
        self.assertIn(imbalance[0]["text"], report)
        # Every rank's Allreduce in one merged node per call path, bytes summed.
        allreduce = [s for s in ranks["regions"] if regions[s["region"]].get("name") == "MPI_Allreduce"]
        self.assertEqual(allreduce[0]["bytes"], RANKS * 6 * 8)
        # The merged profile is a profile: the views read it.
        self.assertIn(imbalance[0]["text"], run([*VIEW, "ranks", str(merged_path)], self.work).stdout)
        self.assertIn("MPI_Allreduce", run([*VIEW, "tree", str(merged_path)], self.work).stdout)
        run([*VIEW, "html", str(merged_path), "-o", str(self.work / "merged.html")], self.work)
        self.assertIn(f"{RANKS} of {RANKS} MPI ranks merged (slowest: {SLOW_RANK}",
                      (self.work / "merged.html").read_text())

    def test_the_html_report_of_a_rank_names_it(self):
        page = self.work / "rank.html"
        run([*VIEW, "html", str(self.profile_of(SLOW_RANK)), "-o", str(page)], self.work)
        self.assertIn(f"MPI rank {SLOW_RANK} of {RANKS} on ", page.read_text())


@unittest.skipUnless(shutil.which("mpirun") and shutil.which("mpicxx"), "Open MPI (mpirun, mpicxx) not installed")
class BuildSystems(unittest.TestCase):
    """OMPP_CXX=mpicxx ompp-c++ and make CC=ompp-cc OMPP_CC=mpicc build MPI programs that measure MPI."""

    def setUp(self):
        self.work = Path(tempfile.mkdtemp(prefix="ompp-mpi-build-"))
        self.addCleanup(shutil.rmtree, self.work, True)

    def mpi_regions(self, outdir):
        files = sorted(outdir.glob("*.ompp.json"))
        self.assertEqual(len(files), RANKS)
        profile = read_profile(files[0])
        return {r.name for r in profile.regions.values() if r.kind == "MPI"}

    def test_ompp_cxx_with_mpicxx(self):
        shutil.copy(HERE / "hybrid_ranks.c", self.work / "hybrid_ranks.cpp")
        run([BINDIR / "ompp-c++", "-fopenmp", "-O2", "hybrid_ranks.cpp", "-o", "hybrid"], self.work,
            clean_environment(OMPP_CXX="mpicxx"))
        mpirun(self.work / "hybrid", self.work / "out", self.work)
        self.assertIn("MPI_Allreduce", self.mpi_regions(self.work / "out"))

    def test_a_program_without_mpi_gets_no_mpi_library(self):
        (self.work / "plain.c").write_text("int main(void) {\n#pragma omp parallel\n  {}\n  return 0;\n}\n")
        run([BINDIR / "ompp-cc", "--compiler=gcc", "-fopenmp", "plain.c", "-o", "plain"], self.work)
        libraries = run(["ldd", "plain"], self.work).stdout
        self.assertIn("libompp.so", libraries)
        self.assertNotIn("libompp_mpi", libraries)
        self.assertNotIn("libmpi", libraries)

    def test_make_with_ompp_cc(self):
        shutil.copy(HERE / "hybrid_ranks.c", self.work)
        (self.work / "Makefile").write_text(
            "CFLAGS = -O2 -fopenmp\n"
            "hybrid: hybrid_ranks.o\n\t$(CC) $(CFLAGS) $^ -o $@\n")
        run(["make", f"CC={BINDIR / 'ompp-cc'}"], self.work, clean_environment(OMPP_CC="mpicc"))
        mpirun(self.work / "hybrid", self.work / "out", self.work)
        self.assertIn("MPI_Sendrecv", self.mpi_regions(self.work / "out"))


if __name__ == "__main__":
    unittest.main()
