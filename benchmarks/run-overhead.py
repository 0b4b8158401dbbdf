#!/usr/bin/python3
"""Measure ompp's own overhead on the BOTS and NPB kernels.

Builds every kernel under benchmarks/ twice -- plain, and through ompp-c++ --
runs each variant at each thread count (interleaving plain and instrumented
runs, in an order rotated from round to round), checks that the instrumented results equal the plain ones, and prints a
table like Fig. 13 and Table I of the Score-P task-profiling paper: median
times, overhead, task counts and mean task time (from the ompp JSON profile),
profile size and peak memory.  The same rows go to a CSV file.

Kernels follow the protocol of docs/benchmarks.md.  Exit status: 0 when every
run verified and every instrumented result matched the plain one, 1 otherwise,
2 for bad usage or a failed build.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import datetime
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

SOURCE_DIR = Path(__file__).resolve().parent        # benchmarks/
REPO_DIR = SOURCE_DIR.parent
KERNEL_PREFIXES = ("bots_", "npb_", "sync_")
OPTIMISATION_FLAGS = "-O2 -DNDEBUG"
GNU_TIME = "/usr/bin/time"  # Debian package "time"
RESULT_RE = re.compile(r"^RESULT (.*)$", re.MULTILINE)
TRACE_WRITTEN_RE = re.compile(r"^ompp: trace written to .* \((\d+) events\)$", re.MULTILINE)

sys.path.insert(0, str(REPO_DIR / "scripts"))
import ompp_profile  # noqa: E402  (the one reader of profiles)
from ompp_profile import Node, Profile  # noqa: E402

# The overhead issue's targets (issue 11), as (kernel, variant or None for all, threads or None) -> max overhead %.
# The first matching entry counts.  Tasks below an `if`/`final` cut-off cost at most 1.3x plain (item 3); tasks
# without a cut-off 2x at one thread (item 3); kernels with a manual cut-off or none of their own, and NPB, stay
# within noise, 2 % (items 3 and 5); a busy-wait pipeline with flush 5 % at 2 threads (item 4).
TARGETS = [
    ("fib", "if", None, 30.0),
    ("fib", "final", None, 30.0),
    ("nqueens", "if", None, 30.0),
    ("nqueens", "final", None, 30.0),
    ("fib", "nocutoff", 1, 100.0),
    ("nqueens", "nocutoff", 1, 100.0),
    ("uts", None, 1, 100.0),
    ("pipeline", None, 2, 5.0),
]
# BOTS kernels whose task creation stops at a cut-off (their `cutoff` variant, or a cut-off built in).
CUTOFF_VARIANTS = ("cutoff", "default")
WITHIN_NOISE = 2.0


class HarnessError(Exception):
    """A problem that stops the harness (bad usage, failed build)."""


@dataclasses.dataclass
class Run:
    """One execution of one kernel."""
    time_s: float
    verified: bool
    checksum: str
    exit_code: int
    max_rss_kb: int
    profile_bytes: int = 0
    tasks: int | None = None           # every task instance, those run at once inside their creation included
    tasks_with_node: int | None = None # instances with a task_root node of their own (deferred ones)
    task_time_s: float | None = None   # summed own time of the tasks_with_node
    trace_bytes: int = 0               # --trace: the OTF2 archive's size
    trace_events: int = 0              # --trace: events in it
    error: str = ""


@dataclasses.dataclass
class Row:
    executable: str
    kernel: str
    variant: str
    threads: int
    plain: list[Run]
    instrumented: list[Run]
    missing: str = ""  # why there are no instrumented runs although there should be
    traced: list[Run] = dataclasses.field(default_factory=list)  # --trace: instrumented, OMPP_TRACE=1


def target_for(executable: str, kernel: str, variant: str, threads: int) -> float | None:
    if executable.startswith("npb_"):
        return WITHIN_NOISE
    for name, target_variant, target_threads, limit in TARGETS:
        if name == kernel and target_variant in (None, variant) and target_threads in (None, threads):
            return limit
    if executable.startswith("bots_") and kernel != "uts" and variant in CUTOFF_VARIANTS:
        return WITHIN_NOISE
    return None


# --------------------------------------------------------------------------- building

def build(label: str, build_dir: Path, cxx: str, env: dict[str, str], jobs: int, reuse: bool,
          keep_going: bool) -> Path:
    """Configures and builds benchmarks/ into build_dir; returns its bin/ directory.

    With keep_going, kernels that fail to compile are left out (and reported
    later as missing) instead of stopping the harness.
    """
    if not reuse:
        # --fresh: a cache from another compiler must not leak in.  The flags are
        # explicit so both builds get the same ones even if CMake cannot identify
        # the wrapper as the compiler it wraps.
        configure = ["cmake", "--fresh", "-S", str(SOURCE_DIR), "-B", str(build_dir), "-G", "Ninja",
                     "-DCMAKE_BUILD_TYPE=Release", f"-DCMAKE_CXX_FLAGS_RELEASE={OPTIMISATION_FLAGS}",
                     f"-DCMAKE_CXX_COMPILER={cxx}"]
        build_command = ["cmake", "--build", str(build_dir), "-j", str(jobs)]
        if keep_going:
            build_command += ["--", "-k", "0"]  # Ninja: build every target that can be built
        for command in (configure, build_command):
            print(f"[{label}] {' '.join(command)}", file=sys.stderr, flush=True)
            result = subprocess.run(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if result.returncode != 0:
                sys.stderr.write(result.stdout[-6000:])
                if command is configure or not keep_going:
                    raise HarnessError(f"{label} build failed (exit {result.returncode}): {' '.join(command)}")
                print(f"[{label}] some targets failed to build; their kernels are reported as missing",
                      file=sys.stderr)
    bin_dir = build_dir / "bin"
    if not bin_dir.is_dir():
        raise HarnessError(f"{label} build has no {bin_dir}; build it first or drop --no-build")
    return bin_dir


def discover_kernels(bin_dir: Path) -> list[str]:
    return sorted(p.name for p in bin_dir.iterdir()
                  if p.name.startswith(KERNEL_PREFIXES) and p.is_file() and os.access(p, os.X_OK))


def list_variants(executable: Path, size: str) -> list[str]:
    # The size goes along because a kernel's variants can depend on it (NPB: the class).
    result = subprocess.run([str(executable), "--size", size, "--list-variants"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, timeout=30)
    variants = result.stdout.split()
    if result.returncode != 0 or not variants:
        raise HarnessError(f"{executable} --list-variants failed (exit {result.returncode}): {result.stderr.strip()}")
    return variants


# --------------------------------------------------------------------------- profiles

def task_figures(profile: Profile) -> tuple[int, float]:
    """Task count and summed own task time of an ompp profile (docs/profile-json.md).

    A task instance is a visit of a task_root node.  A task's own time is the
    inclusive time of its task_root minus the time spent in nested tasks it ran
    (task_stub nodes, and any task_root nested directly), so nested tasks are
    not counted twice.
    """
    def nested_task_time(node: Node) -> float:
        total = 0.0
        for child in node.children:
            if child.kind in ("task_stub", "task_root"):
                total += child.inclusive_s
            else:
                total += nested_task_time(child)
        return total

    task_roots = [node for node in profile.nodes.values() if node.kind == "task_root"]
    return sum(node.visits for node in task_roots), sum(node.inclusive_s - nested_task_time(node) for node in task_roots)


def task_instances(profile: Profile, task_root_visits: int) -> int:
    """Every task instance of an ompp profile.

    Tasks run at once inside their creation (undeferred, included, or run at
    once by the OpenMP runtime, as libgomp does once a team has many queued
    tasks and libomp does in a team of one) have no task_root node; the
    profile's task table (docs/profile-json.md, "tasks") counts them with the
    others.  A profile without that table has only the task_root visits.
    """
    if not profile.tasks:
        return task_root_visits
    return sum(int(entry.get("instances", 0)) for entry in profile.tasks)


def read_profile(out_dir: Path, run: Run) -> None:
    """Fills in the profile figures of an instrumented run from the files it left in out_dir."""
    files = [p for p in out_dir.iterdir() if p.name.endswith((".ompp.json", ".ompp.txt"))]
    run.profile_bytes = sum(p.stat().st_size for p in files)
    json_files = [p for p in files if p.name.endswith(".ompp.json")]
    if not json_files:
        run.error = "no .ompp.json profile written"
        return
    try:
        tasks, with_node, task_time = 0, 0, 0.0
        for path in json_files:
            profile = ompp_profile.read_profile(path)
            count, own = task_figures(profile)
            tasks += task_instances(profile, count)
            with_node += count
            task_time += own
        run.tasks, run.tasks_with_node, run.task_time_s = tasks, with_node, task_time
    except (ompp_profile.ProfileFormatError, ValueError, KeyError, TypeError) as error:
        run.error = f"unreadable profile {json_files[0].name}: {error}"


# --------------------------------------------------------------------------- running

def parse_result(stdout: str) -> dict[str, str]:
    matches = RESULT_RE.findall(stdout)
    if not matches:
        return {}
    return dict(field.split("=", 1) for field in matches[-1].split() if "=" in field)


def read_trace(out_dir: Path, stderr: str, run: Run) -> None:
    """Fills in the trace figures of an OMPP_TRACE=1 run: archive size, events (libompp's stderr line)."""
    archives = list(out_dir.glob("*.ompp.otf2"))
    written = TRACE_WRITTEN_RE.search(stderr)
    if not archives or not written:
        run.error = "no OTF2 trace written"
        return
    run.trace_bytes = sum(p.stat().st_size for a in archives for p in a.rglob("*") if p.is_file())
    run.trace_events = int(written.group(1))


def pinned_cpus(threads: int) -> set[int]:
    """The first `threads` CPUs this process may use (all of them if it may use fewer)."""
    allowed = sorted(os.sched_getaffinity(0))
    return set(allowed[:threads])


def run_once(executable: Path, variant: str, size: str, threads: int, timeout: float, profile: bool,
             trace: bool = False, pin: bool = False) -> Run:
    """Runs the kernel once in a scratch directory, under GNU time for its peak memory.

    (getrusage of a child forked from Python would report Python's own
    resident set when the kernel's is smaller.)  With `pin`, on the
    first `threads` CPUs (pinned_cpus).
    """
    with tempfile.TemporaryDirectory(prefix="ompp-overhead-") as scratch:
        env = dict(os.environ, OMP_NUM_THREADS=str(threads))
        if profile:
            env["OMPP_OUTDIR"] = scratch
        if trace:
            env.update(OMPP_TRACE="1", TMPDIR=scratch)
            env.pop("OMPP_QUIET", None)
        rss_file = Path(scratch) / "maxrss.kb"
        command = [GNU_TIME, "-f", "%M", "-o", str(rss_file),
                   str(executable), "--size", size, "--variant", variant]
        cpus = pinned_cpus(threads) if pin else None
        process = subprocess.Popen(command, cwd=scratch, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True, start_new_session=True,
                                   preexec_fn=(lambda: os.sched_setaffinity(0, cpus)) if cpus else None)
        try:
            stdout, stderr = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            return Run(0.0, False, "", -9, 0, error=f"timed out after {timeout:.0f} s")
        try:
            max_rss_kb = int(rss_file.read_text().split()[-1])
        except (OSError, ValueError, IndexError):
            max_rss_kb = 0
        fields = parse_result(stdout)
        run = Run(time_s=float(fields.get("time_s", "nan")), verified=fields.get("verified") == "1",
                  checksum=fields.get("checksum", ""), exit_code=process.returncode, max_rss_kb=max_rss_kb)
        if not fields:
            run.error = f"no RESULT line (exit {process.returncode}): {stderr.strip()[-300:]}"
        elif process.returncode != 0:
            run.error = f"exit {process.returncode}: {stderr.strip()[-300:]}"
        if profile:
            read_profile(Path(scratch), run)
        if trace and not run.error:
            read_trace(Path(scratch), stderr, run)
        return run


# --------------------------------------------------------------------------- reporting

def median(values: list[float]) -> float | None:
    values = [v for v in values if v is not None and v == v]
    return statistics.median(values) if values else None


def row_problems(row: Row) -> list[str]:
    """Why a row does not count as a valid comparison (empty when it does)."""
    problems = [row.missing] if row.missing else []
    reference = row.plain[0].checksum if row.plain else None
    for label, runs in (("plain", row.plain), ("instrumented", row.instrumented), ("traced", row.traced)):
        for i, run in enumerate(runs):
            if run.error:
                problems.append(f"{label} run {i + 1}: {run.error}")
            elif not run.verified:
                problems.append(f"{label} run {i + 1}: verification failed")
            elif run.checksum != reference:
                problems.append(f"{label} run {i + 1}: checksum {run.checksum} != plain {reference}")
    return problems


def summarise(row: Row) -> dict[str, object]:
    plain_s = median([r.time_s for r in row.plain])
    instr_s = median([r.time_s for r in row.instrumented]) if row.instrumented else None
    overhead = (instr_s - plain_s) / plain_s * 100.0 if plain_s and instr_s is not None else None
    tasks = median([r.tasks for r in row.instrumented if r.tasks is not None])
    mean_task_us = median([r.task_time_s / r.tasks_with_node * 1e6 for r in row.instrumented
                           if r.tasks_with_node and r.task_time_s is not None])
    target = target_for(row.executable, row.kernel, row.variant, row.threads)
    traced_s = median([r.time_s for r in row.traced]) if row.traced else None
    bytes_per_event = median([r.trace_bytes / r.trace_events for r in row.traced if r.trace_events])
    problems = row_problems(row)
    return {
        "kernel": row.kernel, "suite": row.executable.split("_", 1)[0], "variant": row.variant,
        "threads": row.threads, "runs": len(row.plain),
        "plain_s": plain_s, "instrumented_s": instr_s, "overhead_pct": overhead,
        "target_pct": target,
        "target_met": None if overhead is None or target is None else overhead < target,
        "traced_s": traced_s, "traced_x": traced_s / plain_s if plain_s and traced_s is not None else None,
        "trace_events": int(median([r.trace_events for r in row.traced])) if row.traced else None,
        "trace_bytes_per_event": bytes_per_event,
        "tasks": int(tasks) if tasks is not None else None, "mean_task_us": mean_task_us,
        "profile_bytes": median([r.profile_bytes for r in row.instrumented]) if row.instrumented else None,
        "plain_rss_mb": median([r.max_rss_kb / 1024 for r in row.plain]),
        "instrumented_rss_mb": median([r.max_rss_kb / 1024 for r in row.instrumented]) if row.instrumented else None,
        "checksum": row.plain[0].checksum if row.plain else "",
        "valid": not problems, "problems": "; ".join(problems),
    }


def fmt_value(value: object, spec: str) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "NO"
    return format(value, spec)


COLUMNS = [  # header, key, format, width
    ("kernel", "kernel", "", 10), ("variant", "variant", "", 9), ("thr", "threads", "d", 3),
    ("plain s", "plain_s", ".3f", 8), ("ompp s", "instrumented_s", ".3f", 8),
    ("overhead%", "overhead_pct", "+.1f", 9), ("target%", "target_pct", ".0f", 7), ("met", "target_met", "", 3),
    ("tasks", "tasks", ",d", 13), ("task us", "mean_task_us", ".2f", 8),
    ("trace s", "traced_s", ".3f", 8), ("trace x", "traced_x", ".2f", 7),
    ("B/event", "trace_bytes_per_event", ".1f", 7),
    ("profile B", "profile_bytes", ",.0f", 11), ("RSS MB", "plain_rss_mb", ".1f", 7),
    ("ompp RSS", "instrumented_rss_mb", ".1f", 8), ("ok", "valid", "", 3),
]


def print_table(summaries: list[dict[str, object]]) -> None:
    print("  ".join(h.rjust(w) if f else h.ljust(w) for h, _, f, w in COLUMNS))
    for s in summaries:
        print("  ".join(fmt_value(s[k], f).rjust(w) if f else fmt_value(s[k], f).ljust(w)
                        for _, k, f, w in COLUMNS))
    for s in summaries:
        if s["problems"]:
            print(f"! {s['kernel']} {s['variant']} threads={s['threads']}: {s['problems']}")


def write_csv(path: Path, summaries: list[dict[str, object]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(summaries[0].keys()) if summaries else ["kernel"])
        writer.writeheader()
        writer.writerows(summaries)


# --------------------------------------------------------------------------- main

def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="run-overhead.py",
        description=__doc__.split("\n\n")[1].replace("\n", " "),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Environment: OMPP_CXX (compiler ompp-c++ wraps, also the default --cxx).  Instrumented runs get "
               "OMPP_OUTDIR set to a scratch directory; other OMPP_* variables are passed through.\n"
               "Example: benchmarks/run-overhead.py --ompp-cxx build/bin/ompp-c++ --runs 5 --threads 1,2")
    parser.add_argument("--ompp-cxx", default=str(REPO_DIR / "build" / "bin" / "ompp-c++"),
                        help="the ompp-c++ wrapper of an ompp build or install prefix (default: %(default)s)")
    parser.add_argument("--cxx", default=os.environ.get("OMPP_CXX", "g++"),
                        help="compiler of the plain build and the one ompp-c++ wraps (default: $OMPP_CXX or g++)")
    parser.add_argument("--plain-only", action="store_true",
                        help="build and time only the plain kernels (when no ompp-c++ is available)")
    parser.add_argument("--no-profile", action="store_true",
                        help="do not expect profiles from the instrumented runs (a stand-in compiler, "
                             "to test the harness itself)")
    parser.add_argument("--build-dir", type=Path, default=REPO_DIR / "build" / "overhead",
                        help="where the plain/ and ompp/ builds go (default: %(default)s)")
    parser.add_argument("--no-build", action="store_true", help="reuse the existing builds in --build-dir")
    parser.add_argument("--trace", action="store_true",
                        help="also run the instrumented build with OMPP_TRACE=1 (interleaved with the others): "
                             "columns 'trace s', 'trace x' (vs plain) and 'B/event' (OTF2 archive bytes per event)")
    parser.add_argument("--jobs", type=int, default=2, help="parallel build jobs (default: %(default)s)")
    parser.add_argument("--size", default="bench", choices=["smoke", "small", "bench"],
                        help="kernel input size (default: %(default)s)")
    parser.add_argument("--threads", default="1,2", help="comma-separated thread counts (default: %(default)s)")
    parser.add_argument("--runs", type=int, default=5, help="runs per build and setting; the median counts "
                        "(default: %(default)s)")
    parser.add_argument("--kernels", default="",
                        help="comma-separated kernels to run, e.g. fib,npb_cg (default: all that were built)")
    parser.add_argument("--variants", default="", help="comma-separated variants to run (default: all listed)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per run (default: %(default)s)")
    parser.add_argument("--pin", action="store_true",
                        help="run each program on the first N CPUs this harness may use, N the thread count, so "
                             "that the plain and instrumented runs of a setting share their CPUs (a VM's CPUs "
                             "are not always equally fast: another guest may take one of them)")
    parser.add_argument("--csv", type=Path, default=None,
                        help="CSV output (default: benchmarks/results/overhead-<UTC time>.csv)")
    args = parser.parse_args(argv)
    try:
        args.thread_counts = [int(t) for t in args.threads.split(",") if t]
    except ValueError:
        parser.error(f"--threads expects comma-separated integers, got '{args.threads}'")
    if not args.thread_counts or min(args.thread_counts) < 1:
        parser.error("--threads needs at least one positive thread count")
    args.build_dir = args.build_dir.resolve()  # kernels run in scratch directories
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if not args.plain_only:
        found = shutil.which(args.ompp_cxx)
        if found is None:
            parser.error(f"ompp-c++ not found or not executable: {args.ompp_cxx} "
                         "(build ompp first, pass --ompp-cxx, or use --plain-only)")
        # Absolute, but symlinks kept: the wrapper's name selects its language.
        args.ompp_cxx = os.path.abspath(found)
    if not os.access(GNU_TIME, os.X_OK):
        parser.error(f"{GNU_TIME} (GNU time, Debian package 'time') is needed to measure peak memory")
    if shutil.which(args.cxx) is None:
        parser.error(f"compiler not found: {args.cxx}")
    return args


def rotated(items: list, by: int) -> list:
    """`items` starting at position `by` (modulo its length), wrapping around."""
    shift = by % len(items) if items else 0
    return items[shift:] + items[:shift]


def selected(executable: str, wanted: list[str]) -> bool:
    kernel = executable.split("_", 1)[1]
    return not wanted or executable in wanted or kernel in wanted


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    env = dict(os.environ, OMPP_CXX=args.cxx)
    try:
        plain_bin = build("plain", args.build_dir / "plain", args.cxx, env, args.jobs, args.no_build,
                          keep_going=False)
        ompp_bin = None if args.plain_only else build(
            "ompp", args.build_dir / "ompp", args.ompp_cxx, env, args.jobs, args.no_build, keep_going=True)
        wanted = [k for k in args.kernels.split(",") if k]
        executables = [e for e in discover_kernels(plain_bin) if selected(e, wanted)]
        if not executables:
            raise HarnessError(f"no kernels to run in {plain_bin} (--kernels {args.kernels!r})")
        rows: list[Row] = []
        load_before = os.getloadavg()
        for executable in executables:
            kernel = executable.split("_", 1)[1]
            variants = list_variants(plain_bin / executable, args.size)
            if args.variants:
                variants = [v for v in variants if v in args.variants.split(",")]
            instrumented = None if ompp_bin is None else ompp_bin / executable
            missing = ""
            if instrumented is not None and not instrumented.exists():
                missing = f"{executable} was not built through ompp-c++ ({instrumented} missing)"
                instrumented = None
            for variant in variants:
                for threads in args.thread_counts:
                    row = Row(executable, kernel, variant, threads, [], [], missing)
                    print(f"{executable} --variant {variant} threads={threads}: ", end="", file=sys.stderr,
                          flush=True)
                    # One run of each configuration per round, interleaved so that drifting machine
                    # load hits them alike, and in rotated order so that none always runs first (after
                    # a pause, into cold caches) or right after another.
                    configurations = [(row.plain, plain_bin / executable, {"profile": False})]
                    if instrumented is not None:
                        configurations.append((row.instrumented, instrumented, {"profile": not args.no_profile}))
                        if args.trace:
                            configurations.append((row.traced, instrumented, {"profile": True, "trace": True}))
                    for round_index in range(args.runs):
                        for runs, executable_path, options in rotated(configurations, round_index):
                            runs.append(run_once(executable_path, variant, args.size, threads, args.timeout,
                                                 pin=args.pin, **options))
                        print(".", end="", file=sys.stderr, flush=True)
                    summary = summarise(row)
                    print(f" plain {fmt_value(summary['plain_s'], '.3f')} s, ompp "
                          f"{fmt_value(summary['instrumented_s'], '.3f')} s, overhead "
                          f"{fmt_value(summary['overhead_pct'], '+.1f')}%", file=sys.stderr)
                    rows.append(row)
    except HarnessError as error:
        print(f"run-overhead.py: error: {error}", file=sys.stderr)
        return 2

    summaries = [summarise(row) for row in rows]
    load_after = os.getloadavg()
    print(f"\nompp overhead: size={args.size}, median of {args.runs} run(s), compiler {args.cxx}"
          + ("" if args.plain_only else f", instrumented with {args.ompp_cxx}"))
    print(f"load average before: {load_before[0]:.2f}, after: {load_after[0]:.2f} ({os.cpu_count()} cores)"
          + (f"; each run pinned to CPUs {sorted(pinned_cpus(1))[0]}.. (one per thread)" if args.pin else ""))
    print_table(summaries)
    csv_path = args.csv or SOURCE_DIR / "results" / (
        "overhead-" + datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ") + ".csv")
    write_csv(csv_path, summaries)
    print(f"\nCSV: {csv_path}")
    return 0 if all(s["valid"] for s in summaries) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
