#!/usr/bin/python3
"""NAME
    construct-overhead.py - what ompp adds to each OpenMP construct, EPCC style

SYNOPSIS
    benchmarks/construct-overhead.py [--ompp-build DIR] [--compilers gcc,clang]
                                     [--threads 1,2] [--runs N] [--time SECONDS]
                                     [--ompp-env NAME=VALUE]... [--floor]
                                     [--csv FILE]

DESCRIPTION
    Builds benchmarks/epcc/construct_overhead.c twice per compiler, plainly
    and through ompp-cc, and runs both at each thread count.  The program
    measures every construct as the EPCC OpenMP micro-benchmarks do: a timed
    loop of the construct around a 0.1 us delay minus a timed reference loop
    without it, per instance.  The table shows, per construct, compiler and
    thread count, the plain overhead, the instrumented overhead and their
    difference (what ompp adds per instance; the median over --runs runs of
    each program, plain and instrumented runs interleaved), and the target of
    the overhead issue for 2 threads.  The machine's load average is printed
    before and after: on a shared machine the figures are only as good as it.
    The column `rounds ns` is the least and the most that one run of the
    instrumented program added over the plain run right before it: where
    that range is wider than a target, one table cannot tell whether the
    target is met (on a 2-core VM the team constructs' plain overheads of
    1.5-3 us move by more than their targets from run to run).

    With --floor, the instrumented program also runs with
    benchmarks/epcc/clock_floor.c preloaded: its critical and lock events are
    one clock read each and nothing else, the four reads per instance ompp
    needs.  The column `floor ns` is what those reads alone add to CRITICAL
    and LOCK (the same median, interleaved): the least a profiler that times
    waiting and holding separately can add on this machine.

OPTIONS
    --ompp-build DIR   the ompp build tree with bin/ompp-cc (default: build)
    --compilers LIST   gcc (gcc-12 and libgomp), clang (clang-16 and libomp)
    --threads LIST     OMP_NUM_THREADS values (default: 1,2)
    --runs N           runs of each program per thread count (default: 5)
    --time SECONDS     target time of one measured loop (default: 0.05)
    --ompp-env NAME=VALUE
                       set NAME for the instrumented runs (repeatable), e.g.
                       OMPP_DEADLOCK=report to see what deadlock detection adds
    --floor            also measure the clock reads' floor of CRITICAL and LOCK
    --csv FILE         also write the rows as CSV

EXIT STATUS
    0 when every run succeeded, 1 when a program failed or computed a wrong
    result, 2 for bad usage or a failed build.  Targets are reported, never
    judged: timing belongs to benchmarks, not to tests.
"""
from __future__ import annotations

import argparse
import csv
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

SOURCE = Path(__file__).resolve().parent / "epcc" / "construct_overhead.c"
FLOOR_SOURCE = SOURCE.parent / "clock_floor.c"
POMP2_HEADERS = Path(__file__).resolve().parent.parent / "include"
COMPILERS = {"gcc": "gcc-12", "clang": "clang-16"}
# The constructs whose events clock_floor.c replaces.
FLOOR_CONSTRUCTS = ("CRITICAL", "LOCK")
# Added ns per instance at 2 threads that the overhead issue asks for.
TARGETS_NS = {"PARALLEL": 120, "PARALLEL_FOR": 150, "FOR": 80, "BARRIER": 60, "SINGLE": 80,
              "CRITICAL": 50, "LOCK": 50, "ATOMIC": 30, "REDUCTION": 150, "TASK": 80}
LINE = re.compile(r"^CONSTRUCT (\S+) threads=(\d+) instances=(\d+) overhead_ns=(\S+) reference_ns=(\S+)$",
                  re.MULTILINE)


def parse_args(argv: list[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(add_help=False)
    ap.add_argument("-h", "--help", action="store_true")
    ap.add_argument("--ompp-build", type=Path, default=Path("build"), metavar="DIR")
    ap.add_argument("--compilers", default="gcc,clang", metavar="LIST")
    ap.add_argument("--threads", default="1,2", metavar="LIST")
    ap.add_argument("--runs", type=int, default=5, metavar="N")
    ap.add_argument("--time", type=float, default=0.05, metavar="SECONDS")
    ap.add_argument("--ompp-env", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--floor", action="store_true")
    ap.add_argument("--csv", type=Path, metavar="FILE")
    args = ap.parse_args(argv)
    if args.help:
        print(__doc__)
        sys.exit(0)
    args.compilers = [c for c in args.compilers.split(",") if c]
    if not args.compilers or any(c not in COMPILERS for c in args.compilers):
        ap.error(f"--compilers takes a list of {', '.join(COMPILERS)}")
    try:
        args.threads = [int(t) for t in args.threads.split(",")]
    except ValueError:
        ap.error("--threads takes a list of numbers, e.g. 1,2")
    if args.runs < 1 or not args.time > 0 or any(t < 1 for t in args.threads):
        ap.error("--runs, --time and --threads must be positive")
    if any("=" not in setting for setting in args.ompp_env):
        ap.error("--ompp-env takes NAME=VALUE")
    args.ompp_env = dict(setting.split("=", 1) for setting in args.ompp_env)
    return args


def compile_or_exit(command: list[str], output: Path, env: dict[str, str] | None = None) -> Path:
    done = subprocess.run(command + ["-o", str(output)], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        print(f"construct-overhead: building {output.name} failed:\n{done.stderr}", file=sys.stderr)
        sys.exit(2)
    return output


def build(compiler: str, ompp_cc: Path, out: Path) -> dict[str, Path]:
    """The plain and the instrumented program of one compiler."""
    env = dict(os.environ, OMPP_CC=COMPILERS[compiler])
    return {variant: compile_or_exit(command + ["-fopenmp", "-O2", str(SOURCE)],
                                     out / f"construct_overhead.{compiler}.{variant}", env)
            for variant, command in (("plain", [COMPILERS[compiler]]), ("ompp", [str(ompp_cc)]))}


def build_floor(compiler: str, out: Path) -> Path:
    """clock_floor.c as a library to preload into the instrumented program."""
    return compile_or_exit([COMPILERS[compiler], "-fopenmp", "-O2", "-shared", "-fPIC", f"-I{POMP2_HEADERS}",
                            str(FLOOR_SOURCE)],
                           out / f"clock_floor.{compiler}.so")


def run(exe: Path, threads: int, seconds: float, outdir: Path, settings: dict[str, str],
        only: str | None = None) -> dict[str, float]:
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), OMPP_OUTDIR=str(outdir), OMPP_QUIET="1", **settings)
    command = [str(exe), "--time", str(seconds)] + (["--only", only] if only else [])
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"{exe.name} at {threads} threads exited with {done.returncode}:\n{done.stderr}")
    return {m.group(1): float(m.group(4)) for m in LINE.finditer(done.stdout)}


def run_floor(exe: Path, floor: Path, threads: int, seconds: float, outdir: Path,
              settings: dict[str, str]) -> dict[str, float]:
    """The floor constructs of the instrumented program with clock_floor preloaded."""
    preload = dict(settings, LD_PRELOAD=str(floor))
    return {name: ns for construct in FLOOR_CONSTRUCTS
            for name, ns in run(exe, threads, seconds, outdir, preload, only=construct).items()}


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    ompp_cc = args.ompp_build / "bin" / "ompp-cc"
    if not ompp_cc.exists():
        print(f"construct-overhead: {ompp_cc} not found (build ompp first, or name it with --ompp-build)",
              file=sys.stderr)
        return 2
    load_before = os.getloadavg()
    rows = []
    failed = False
    with tempfile.TemporaryDirectory(prefix="ompp-constructs-") as tmp:
        work = Path(tmp)
        for compiler in args.compilers:
            programs = build(compiler, ompp_cc, work)
            floor = build_floor(compiler, work) if args.floor else None
            for threads in args.threads:
                samples: dict[str, dict[str, list[float]]] = {"plain": {}, "ompp": {}, "floor": {}}
                try:
                    for _ in range(args.runs):  # interleaved: plain, ompp, [floor,] plain, ompp, ...
                        measured = {variant: run(exe, threads, args.time, work,
                                                 args.ompp_env if variant == "ompp" else {})
                                    for variant, exe in programs.items()}
                        if floor:
                            measured["floor"] = run_floor(programs["ompp"], floor, threads, args.time, work,
                                                          args.ompp_env)
                        for variant, figures in measured.items():
                            for name, ns in figures.items():
                                samples[variant].setdefault(name, []).append(ns)
                except (RuntimeError, subprocess.TimeoutExpired) as error:
                    print(f"construct-overhead: {error}", file=sys.stderr)
                    failed = True
                    continue
                missing = set(TARGETS_NS) - set(samples["plain"]) | set(TARGETS_NS) - set(samples["ompp"])
                if floor:
                    missing |= set(FLOOR_CONSTRUCTS) - set(samples["floor"])
                if missing:
                    print(f"construct-overhead: {compiler} at {threads} threads measured no "
                          f"{', '.join(sorted(missing))}", file=sys.stderr)
                    failed = True
                for name, plain in samples["plain"].items():
                    instrumented = samples["ompp"].get(name)
                    if not instrumented:
                        continue
                    plain_ns, ompp_ns = statistics.median(plain), statistics.median(instrumented)
                    floor_ns = samples["floor"].get(name)
                    paired = [o - p for p, o in zip(plain, instrumented)]
                    rows.append({"construct": name, "compiler": compiler, "threads": threads,
                                 "plain_ns": round(plain_ns, 1), "ompp_ns": round(ompp_ns, 1),
                                 "added_ns": round(ompp_ns - plain_ns, 1),
                                 "rounds_min_ns": round(min(paired), 1), "rounds_max_ns": round(max(paired), 1),
                                 "floor_ns": round(statistics.median(floor_ns) - plain_ns, 1) if floor_ns else "",
                                 "target_ns": TARGETS_NS.get(name, "") if threads == 2 else ""})
    load_after = os.getloadavg()

    print(f"load average before: {load_before[0]:.2f}, after: {load_after[0]:.2f} ({os.cpu_count()} cores); "
          f"median of {args.runs} runs, {args.time} s per loop"
          + "".join(f"; instrumented runs with {name}={value}" for name, value in args.ompp_env.items()))
    header = f"{'construct':<13} {'compiler':<8} {'threads':>7} {'plain ns':>10} {'ompp ns':>10} " \
             f"{'added ns':>10} {'rounds ns':>15}" + (f" {'floor ns':>9}" if args.floor else "") + f" {'target':>7}"
    print(header)
    print("-" * len(header))
    for r in rows:
        print(f"{r['construct']:<13} {r['compiler']:<8} {r['threads']:>7} {r['plain_ns']:>10.1f} "
              f"{r['ompp_ns']:>10.1f} {r['added_ns']:>10.1f} "
              f"{r['rounds_min_ns']:>7.0f}..{r['rounds_max_ns']:<6.0f}" + (f" {str(r['floor_ns']):>9}" if args.floor else "")
              + f" {str(r['target_ns']):>7}")
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]) if rows else ["construct"])
            writer.writeheader()
            writer.writerows(rows)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
