#!/usr/bin/python3
"""Instrumentation time per file against a plain -O2 compile of the same file.

For every source it measures the CPU time (user + system, compilers included),
as the median of --repeat runs taken in turns:
  plain     <compiler> -O2 -fopenmp <flags> -c file -o x.o
  rewrite   ompp-instrument --emit-source -- <the same command>   (parse + rewrite)
  ompp      ompp-instrument -- <the same command>                 (rewrite + compile)
and prints a table with the added cost, (ompp - plain) / plain.  The target
(issue 2) is at most +50 %.  This is a benchmark that prints figures, not a
test: it never fails on a slow result.

Without file arguments it measures the BOTS and NPB kernels and the driver's
sample project found in the source tree.
"""
import argparse
import glob
import os
import shlex
import resource
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TARGET = 0.50


def default_files():
    patterns = ["benchmarks/bots/*.cpp", "benchmarks/npb/*.cpp", "benchmarks/bots/*.c",
                "benchmarks/npb/*.c", "test/driver/projects/sample/*.c",
                "test/driver/projects/sample/*.cpp"]
    return sorted(f for p in patterns for f in glob.glob(os.path.join(ROOT, p)))


def cpu_seconds(argv, cwd):
    """User+system CPU time of argv and everything it runs (the compilers run
    by ompp-instrument included): unlike wall time, hardly disturbed by other
    load on the machine."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = subprocess.run(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        raise RuntimeError(f"`{shlex.join(argv)}` failed:\n{result.stderr}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(commands, cwd, repeat):
    """Median CPU time of each command; the commands take turns, so a change
    of machine load affects all of them alike."""
    for argv in commands:  # warm the file cache
        cpu_seconds(argv, cwd)
    samples = [[] for _ in commands]
    for _ in range(repeat):
        for argv, times in zip(commands, samples):
            times.append(cpu_seconds(argv, cwd))
    return tuple(statistics.median(times) for times in samples)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", help="sources (default: BOTS/NPB kernels, samples)")
    parser.add_argument("--tool", default=os.path.join(ROOT, "build", "bin", "ompp-instrument"))
    parser.add_argument("--cc", default="clang-16", help="compiler for .c files")
    parser.add_argument("--cxx", default="clang++-16", help="compiler for C++ files")
    parser.add_argument("--flags", default="", help="extra compile flags, e.g. -I...")
    parser.add_argument("--cxx-flags", default="-std=c++20", help="extra flags for C++ files")
    parser.add_argument("--repeat", type=int, default=3)
    opts = parser.parse_args()

    files = opts.files or default_files()
    if not files:
        sys.exit("no sources found; pass some")
    if not os.access(opts.tool, os.X_OK):
        sys.exit(f"{opts.tool} not found; build target ompp-instrument or pass --tool")
    extra = shlex.split(opts.flags)
    files = [os.path.abspath(f) for f in files]
    opts.tool = os.path.abspath(opts.tool)
    for f in files:  # the kernels' own headers (bench/kernel.hpp, common/npb.hpp)
        for parent in (os.path.dirname(f), os.path.dirname(os.path.dirname(f))):
            for inc in (parent, os.path.join(parent, "common")):
                if os.path.isdir(inc) and "-I" + inc not in extra:
                    extra.append("-I" + inc)

    names = [os.path.relpath(f, ROOT) if f.startswith(ROOT) else f for f in files]
    name_width = max(len(n) for n in names)
    print(f"instrumentation CPU time vs plain -O2 compile (median of {opts.repeat}; "
          f"{opts.cc}/{opts.cxx}; target: at most +{TARGET:.0%})")
    print(f"{'file':<{name_width}}  {'plain s':>8}  {'rewrite s':>9}  {'ompp s':>8}  "
          f"{'added':>7}  within target", flush=True)

    def row(name, plain, rewrite, ompp):
        added = (ompp - plain) / plain
        print(f"{name:<{name_width}}  {plain:8.3f}  {rewrite:9.3f}  {ompp:8.3f}  "
              f"{added:+7.0%}  {'yes' if added <= TARGET else 'NO'}", flush=True)

    totals = [0.0, 0.0, 0.0]
    with tempfile.TemporaryDirectory(prefix="ompp-bench-") as work:
        for f, name in zip(files, names):
            is_c = f.endswith(".c")
            compiler = opts.cc if is_c else opts.cxx
            language_flags = [] if is_c else shlex.split(opts.cxx_flags)
            compile_cmd = [compiler, "-O2", "-fopenmp", *language_flags, *extra, "-c", f,
                           "-o", "x.o"]
            try:
                times = measure([compile_cmd, [opts.tool, "--emit-source", "--", *compile_cmd],
                                 [opts.tool, "--", *compile_cmd]], work, opts.repeat)
            except (RuntimeError, OSError) as error:
                print(f"skipped {name}: {error}", file=sys.stderr)
                continue
            row(name, *times)
            totals = [t + x for t, x in zip(totals, times)]
    if totals[0] == 0:
        sys.exit("no file could be measured")
    row("all files", *totals)


if __name__ == "__main__":
    main()
