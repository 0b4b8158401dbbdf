#!/usr/bin/env python3
"""Overhead of continuous profiling.

Runs the snapshot workload (build target ompp_snapshot_workload) under libompp
without snapshots and with OMPP_SNAPSHOT_INTERVAL (default 0.1 s), interleaved
so that drift in machine load hits both alike, and prints the median elapsed
time, the median CPU time of the process (user + system, which includes the
snapshot thread's work) and the number of snapshots taken.

Usage: snapshot_overhead.py [--build DIR] [--reps N] [--iterations N] [--interval S]
"""
import argparse
import glob
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from ompp_profile import read_profile  # noqa: E402  (the one reader of profiles)


def run_once(workload, iterations, env):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    proc = subprocess.run([workload, str(iterations)], env=env, capture_output=True, text=True, check=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    inner = float(proc.stdout.split()[0])  # the parallel part, timed by the program
    return wall, cpu, inner


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build")
    parser.add_argument("--reps", type=int, default=7)
    parser.add_argument("--iterations", type=int, default=8000)
    parser.add_argument("--interval", default="0.1")
    args = parser.parse_args()
    workload = os.path.join(args.build, "bin", "ompp_snapshot_workload")
    if not os.access(workload, os.X_OK):
        sys.exit(f"snapshot_overhead.py: {workload} not found; build the target ompp_snapshot_workload first")

    outdir = tempfile.mkdtemp(prefix="ompp-snapshot-bench-")
    base = {k: v for k, v in os.environ.items() if not k.startswith("OMPP_")}
    # passive waiting: CPU time then counts work, not libgomp spinning at barriers
    base.update({"OMPP_OUTDIR": outdir, "OMPP_QUIET": "1", "OMP_NUM_THREADS": base.get("OMP_NUM_THREADS", "2"),
                 "OMP_WAIT_POLICY": base.get("OMP_WAIT_POLICY", "passive")})
    with_snapshots = dict(base, OMPP_SNAPSHOT_INTERVAL=args.interval)

    off, on = [], []
    for _ in range(args.reps):
        off.append(run_once(workload, args.iterations, base))
        on.append(run_once(workload, args.iterations, with_snapshots))

    profiles = [read_profile(f) for f in glob.glob(os.path.join(outdir, "*.ompp.json"))]
    snapshots = [len(p.snapshots) for p in profiles if p.snapshots]
    nodes = max(len(p.nodes) for p in profiles)
    for f in glob.glob(os.path.join(outdir, "*")):
        os.remove(f)
    os.rmdir(outdir)

    def med(samples, i):
        return statistics.median(s[i] for s in samples)

    print(f"workload: {args.iterations} iterations of a parallel loop over 64 user regions + a critical section, "
          f"{base['OMP_NUM_THREADS']} threads, {nodes} call-tree nodes")
    print(f"runs per setting: {args.reps} (interleaved); snapshot interval {args.interval} s; "
          f"snapshots per run: median {statistics.median(snapshots):.0f}")
    print(f"{'':28}{'elapsed [s]':>12}{'parallel part [s]':>19}{'CPU [s]':>10}")
    print(f"{'without snapshots':28}{med(off, 0):12.3f}{med(off, 2):19.3f}{med(off, 1):10.3f}")
    print(f"{'with snapshots':28}{med(on, 0):12.3f}{med(on, 2):19.3f}{med(on, 1):10.3f}")
    d_wall = med(on, 0) - med(off, 0)
    d_cpu = med(on, 1) - med(off, 1)
    n = statistics.median(snapshots)
    print(f"overhead: elapsed {100 * d_wall / med(off, 0):+.2f} %, CPU {100 * d_cpu / med(off, 1):+.2f} %"
          + (f", {1000 * d_cpu / n:.2f} ms CPU per snapshot" if n else ""))


if __name__ == "__main__":
    main()
