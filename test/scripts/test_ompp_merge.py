# SPDX-License-Identifier: BSD-3-Clause
"""Tests of `ompp-view merge` / `ompp-view ranks` (scripts/ompp_profile/merge.py)
on generated rank profiles (synthetic.rank_profiles)."""
import json
import math
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
sys.path.insert(0, str(SCRIPTS))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ompp_profile import merge  # noqa: E402
from ompp_profile.synthetic import rank_profiles  # noqa: E402
from test_profile_contract import SCHEMA, violations  # noqa: E402

RANKS, SLOW = 8, 5


def write_profiles(directory, ranks=RANKS, only=None):
    for rank, profile in rank_profiles(ranks, regions=20, nodes=60, slow_rank=SLOW):
        if only is None or rank in only:
            (directory / f"gen.rank{rank}-of-{ranks}.2-0.ompp.json").write_text(json.dumps(profile))
    return sorted(directory.glob("*.ompp.json"))


def view(*args):
    return subprocess.run([sys.executable, str(SCRIPTS / "ompp-view"), *map(str, args)], capture_output=True, text=True)


def assert_close(test, a, b, where="$"):
    if isinstance(a, dict):
        test.assertEqual(a.keys(), b.keys(), where)
        for key in a:
            assert_close(test, a[key], b[key], f"{where}.{key}")
    elif isinstance(a, list):
        test.assertEqual(len(a), len(b), where)
        for i, (x, y) in enumerate(zip(a, b)):
            assert_close(test, x, y, f"{where}[{i}]")
    elif isinstance(a, float):
        test.assertTrue(math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12), f"{where}: {a} != {b}")
    else:
        test.assertEqual(a, b, where)


class Merge(unittest.TestCase):
    def setUp(self):
        self.dir = Path(tempfile.mkdtemp(prefix="ompp-merge-"))
        self.files = write_profiles(self.dir)
        self.merged = merge.merge_profiles(self.files)

    def tearDown(self):
        for path in self.dir.iterdir():
            path.unlink()
        self.dir.rmdir()

    def test_the_merged_profile_keeps_the_contract(self):
        self.assertEqual(violations(self.merged, SCHEMA), [])
        self.assertEqual((self.merged["ranks"]["size"], self.merged["ranks"]["merged"]), (RANKS, RANKS))

    def test_min_mean_max_and_the_rank_of_the_max_per_region(self):
        per_rank = {}
        for path in self.files:
            raw = json.loads(path.read_text())
            top = next(n for n in raw["nodes"] if n["parent"] == 0 and n["kind"] == "region")
            region = next(r for r in raw["regions"] if r["id"] == top["region"])
            per_rank[raw["mpi"]["rank"]] = sum(t["inclusive_s"] for n in raw["nodes"] if n["kind"] == "region"
                                               and n["region"] == region["id"] for t in n["threads"])
        regions = {r["id"]: r for r in self.merged["regions"]}
        stat = next(s for s in self.merged["ranks"]["regions"]
                    if (regions[s["region"]]["kind"], regions[s["region"]]["first_line"]) ==
                    (region["kind"], region["first_line"]))
        self.assertAlmostEqual(stat["min_s"], min(per_rank.values()))
        self.assertAlmostEqual(stat["mean_s"], sum(per_rank.values()) / RANKS)
        self.assertAlmostEqual(stat["max_s"], max(per_rank.values()))
        self.assertEqual(stat["max_rank"], max(per_rank, key=per_rank.get))
        self.assertEqual(stat["max_rank"], SLOW)

    def test_the_slow_rank_is_named_slowest_and_in_the_imbalance(self):
        self.assertEqual(self.merged["ranks"]["slowest"][0], SLOW)
        top = self.merged["properties"][0]
        self.assertEqual(top["name"], "ImbalanceAcrossRanks")
        self.assertIn(f"rank {SLOW} takes", top["text"])
        self.assertNotIn("MPI", {r["kind"] for r in self.merged["regions"] if r["id"] in
                                 {p["region"] for p in self.merged["properties"]}})

    def test_mpi_bytes_add_up_over_ranks(self):
        regions = {r["id"]: r for r in self.merged["regions"]}
        (stat,) = [s for s in self.merged["ranks"]["regions"] if regions[s["region"]]["kind"] == "MPI"]
        self.assertEqual(stat["bytes"], 80 * RANKS)

    def test_worker_processes_merge_the_same_profile(self):
        saved = merge._FILES_PER_WORKER
        merge._FILES_PER_WORKER = 2
        try:
            assert_close(self, merge.merge_profiles(self.files, workers=3), self.merged)
        finally:
            merge._FILES_PER_WORKER = saved

    def test_the_command_writes_the_merged_profile_and_the_report(self):
        output = self.dir / "run.merged.ompp.json"
        done = view("merge", self.dir, "-o", output)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn(self.merged["properties"][0]["text"], done.stdout)
        again = view("merge", self.dir, "-o", self.dir / "again.json")  # the merged file is left out
        self.assertEqual(again.returncode, 0, again.stderr)
        self.assertEqual(json.loads((self.dir / "again.json").read_text())["ranks"]["merged"], RANKS)
        ranks = view("ranks", output)
        self.assertEqual(ranks.returncode, 0, ranks.stderr)
        self.assertIn(f"{RANKS} of {RANKS} ranks", ranks.stdout)
        self.assertEqual(view("tree", output).returncode, 0)


class Problems(unittest.TestCase):
    def setUp(self):
        self.dir = Path(tempfile.mkdtemp(prefix="ompp-merge-bad-"))

    def tearDown(self):
        for path in self.dir.iterdir():
            path.unlink()
        self.dir.rmdir()

    def test_two_profiles_of_one_rank_are_refused_naming_both(self):
        (first,) = write_profiles(self.dir, only={2})
        second = self.dir / "copy.ompp.json"
        second.write_text(first.read_text())
        done = view("merge", first, second, "-o", self.dir / "m.json")
        self.assertEqual(done.returncode, 1)
        self.assertIn("a second profile of rank 2", done.stderr)
        self.assertIn(first.name, done.stderr)
        self.assertIn(second.name, done.stderr)

    def test_missing_ranks_are_listed(self):
        write_profiles(self.dir, only={0, 1, 3, 4, 5, 6})
        merged = merge.merge_profiles(merge.profile_files([str(self.dir)]))
        self.assertEqual(merged["ranks"]["missing"], [2, 7])
        self.assertIn("missing ranks (no profile): 2, 7", merge.ranks_report(merged))

    def test_a_directory_without_profiles_is_an_error(self):
        done = view("merge", self.dir)
        self.assertEqual(done.returncode, 1)
        self.assertIn("no *.ompp.json profiles", done.stderr)

    def test_ranks_wants_a_merged_profile(self):
        (rank_file,) = write_profiles(self.dir, only={0})
        done = view("ranks", rank_file)
        self.assertEqual(done.returncode, 1)
        self.assertIn("not a merged profile", done.stderr)


if __name__ == "__main__":
    unittest.main()
