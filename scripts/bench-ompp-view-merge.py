#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Time and peak memory of `ompp-view merge` on generated rank profiles.

  scripts/bench-ompp-view-merge.py [--ranks N] [--regions R] [--nodes K] [--threads T]

Writes N rank profiles of one made-up run (synthetic.rank_profiles: R
regions, about K call-tree nodes, T threads each) to a temporary directory,
then runs `ompp-view merge` on the directory as a user would and prints its
wall time, CPU time and peak resident memory (of its largest process: it
parses with one worker process per CPU) and the sizes read and written.
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent
sys.path.insert(0, str(SCRIPTS))

from ompp_profile.synthetic import rank_profiles  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ranks", type=int, default=1024)
    parser.add_argument("--regions", type=int, default=200)
    parser.add_argument("--nodes", type=int, default=600)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ompp-merge-bench-") as tmp:
        directory = Path(tmp) / "profiles"
        directory.mkdir()
        for rank, profile in rank_profiles(args.ranks, args.regions, args.nodes, args.threads):
            (directory / f"gen.rank{rank}-of-{args.ranks}.{args.threads}-0.ompp.json").write_text(json.dumps(profile))
        read = sum(p.stat().st_size for p in directory.iterdir())
        merged = Path(tmp) / "merged.json"
        load_before = os.getloadavg()[0]
        start = time.perf_counter()
        subprocess.run([sys.executable, str(SCRIPTS / "ompp-view"), "merge", str(directory), "-o", str(merged)],
                       check=True, stdout=subprocess.DEVNULL)
        seconds = time.perf_counter() - start
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        print(f"{args.ranks} ranks x {args.regions} regions ({read / 1e6:.0f} MB of profiles): merged in "
              f"{seconds:.2f} s ({usage.ru_utime + usage.ru_stime:.2f} s CPU in all processes), peak memory of a "
              f"process {usage.ru_maxrss / 1024:.0f} MB, merged profile {merged.stat().st_size / 1e6:.2f} MB; "
              f"load average before {load_before:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
