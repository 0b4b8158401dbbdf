"""What the regression corpora share: building a test plainly and through
ompp, running both, classifying, known differences, the report, the CI
sample, the command line and the download of a Debian source package.

A corpus script (libgomp-corpus.py, llvm-omp-corpus.py) describes its suite
with a `Suite` (where the tests come from, how one is read, built and run)
and hands it to `main`.  See docs/corpus.md.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import csv
import dataclasses
import fnmatch
import hashlib
import json
import os
import re
import shutil
import shlex
import signal
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable, Protocol

REPO = Path(__file__).resolve().parent.parent
PROG = Path(sys.argv[0]).stem if sys.argv and sys.argv[0] else "corpus"


class CorpusTest(Protocol):
    """What the harness needs of one test of a suite."""
    suite: str                # part of the suite it is in (the CI sample's stratum)
    lang: str                 # "c" or "c++": which ompp driver and compiler
    env: dict[str, str]       # variables of every run of it
    family: str               # construct family, for the CI sample

    @property
    def id(self) -> str: ...


@dataclasses.dataclass
class Suite:
    """One corpus: its name, defaults and the suite-specific steps."""
    name: str                 # e.g. "libgomp"
    help: str                 # --help text
    cache: Path               # default --cache
    known: Path               # default --known-differences
    # cache, allow_fetch -> directory of the testsuite
    testsuite: Callable[[Path, bool], Path]
    # testsuite -> (tests, {file: why it is not run})
    collect: Callable[[Path], tuple[list, dict[str, str]]]
    # test, compiler, testsuite, compiler command -> build command (output a.out)
    build_command: Callable[[object, str, Path, list[str]], list[str]]
    # test -> command that runs ./a.out as the test does
    run_command: Callable[[object], list[str]]
    # test, outcome of run_command -> whether the test passed
    output_ok: Callable[[object, "Outcome"], bool]
    # test, compiler -> whether the test is built with that compiler at all
    applies: Callable[[object, str], bool] = lambda test, compiler: True

# Construct families for the CI sample, first match wins (rarer ones first).
FAMILIES = [
    ("cancel", r"\bcancel(lation)?\b|omp_get_cancellation"),
    ("target", r"\b(target|teams|distribute)\b"),
    ("scan", r"\bscan\b|\binscan\b"),
    ("variant", r"\bmetadirective\b|\bdeclare\s+variant\b|\bassumes?\b"),
    ("lock", r"omp_(init|set|unset|test|destroy)_(nest_)?lock"),
    ("task", r"\btask(loop|group|wait|yield)?\b"),
    ("simd", r"\bsimd\b"),
    ("sections", r"\bsections?\b|\bsingle\b|\bmaster\b|\bmasked\b"),
    ("sync", r"\b(atomic|critical|ordered|flush|barrier)\b"),
    ("reduction", r"\breduction\b|\bdeclare\s+reduction\b"),
    ("loop", r"\b(for|loop)\b"),
    ("parallel", r"\bparallel\b"),
]


def construct_family(text: str) -> str:
    pragmas = "\n".join(re.findall(r"^\s*#\s*pragma\s+omp\s+(.*)$", text, re.M))
    api = "\n".join(re.findall(r"omp_\w+", text))
    for family, pattern in FAMILIES:
        if re.search(pattern, pragmas) or (family in ("lock", "cancel") and re.search(pattern, api)):
            return family
    return "api"


def fail(message: str) -> None:
    print(f"{PROG}: {message}", file=sys.stderr)
    sys.exit(2)


def fetch_from_source_package(cache: Path, allow_fetch: bool, package: str, subdir: str,
                              extract: Callable[[Path, Path], None]) -> Path:
    """`subdir` of Debian's source package `package`, extracted once into
    cache/<top directory>/subdir by `extract(orig_tarball, into)`; the
    downloaded archives are deleted again."""
    found = sorted(cache.glob(f"*/{subdir}"))
    if found:
        return found[-1]
    if not allow_fetch:
        fail(f"no {subdir} under {cache} and --no-fetch given")
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache, prefix=".fetch-") as tmp:
        download_source_package(package, Path(tmp), subdir)
        orig = sorted(Path(tmp).glob(f"{package}_*.orig.tar.*"))
        if not orig:
            fail(f"apt-get source {package} left no .orig tarball in {tmp}")
        unpacked = Path(tmp) / "unpacked"
        extract(orig[0], unpacked)
        tops = [p for p in unpacked.iterdir() if (p / subdir).is_dir()] if unpacked.is_dir() else []
        if not tops:
            fail(f"no {subdir} in {orig[0].name}")
        target = cache / tops[0].name
        tops[0].rename(target)
    return target / subdir


def extract_members(tar: tarfile.TarFile, into: Path, *fragments: str) -> None:
    """Streams a tarball, extracting the files and directories whose path has
    one of `fragments` in it (safe paths only)."""
    for member in tar:
        if (any(f in member.name for f in fragments) and (member.isfile() or member.isdir())
                and not member.name.startswith("/") and ".." not in member.name.split("/")):
            member.mode &= 0o755
            tar.extract(member, into, set_attrs=member.isfile())


def download_source_package(package: str, into: Path, subdir: str) -> None:
    command = ["apt-get", "source", "--download-only", package]
    print(f"{PROG}: fetching {package} source package into {into}", file=sys.stderr)
    result = subprocess.run(command, cwd=into, capture_output=True, text=True)
    if result.returncode != 0 and "deb-src" in result.stderr and enable_deb_src():
        subprocess.run(["apt-get", "update", "-q"], check=False, stdout=subprocess.DEVNULL)
        result = subprocess.run(command, cwd=into, capture_output=True, text=True)
    if result.returncode != 0:
        sys.stderr.write(result.stderr)
        fail(f"`{' '.join(command)}` failed; enable deb-src lines in "
             "/etc/apt/sources.list.d/debian.sources (Types: deb deb-src) and run "
             f"apt-get update, or pass --cache DIR holding */{subdir}")


def enable_deb_src() -> bool:
    """Adds deb-src next to deb in Debian's apt sources (root only)."""
    if os.geteuid() != 0:
        return False
    changed = False
    deb822 = Path("/etc/apt/sources.list.d/debian.sources")
    if deb822.exists():
        text = deb822.read_text()
        new = re.sub(r"^Types:\s*deb\s*$", "Types: deb deb-src", text, flags=re.M)
        if new != text:
            deb822.write_text(new)
            changed = True
    legacy = Path("/etc/apt/sources.list")
    if legacy.exists():
        lines = legacy.read_text().splitlines()
        present = {l for l in lines if l.startswith("deb-src ")}
        added = ["deb-src " + l[4:] for l in lines
                 if l.startswith("deb ") and "deb-src " + l[4:] not in present]
        if added:
            legacy.write_text("\n".join(lines + added) + "\n")
            changed = True
    if changed:
        print(f"{PROG}: enabled deb-src in apt sources", file=sys.stderr)
    return changed


# ------------------------------------------------------------------ building and running

CRASH_MARKERS = re.compile(
    r"PLEASE submit a bug report|Stack dump:|LLVM ERROR|Assertion .* failed|"
    r"terminate called|Segmentation fault|UNREACHABLE executed|ompp-instrument.*(signal|crash)")
COMPILER_ICE = re.compile(r"internal compiler error")
# ompp-instrument's own one-line warning (not any line whose file path has
# "ompp" in it, such as ~/.cache/ompp/...: a construct's "file:line: warning:
# not instrumented" leaves the file instrumented, see constructs_not_instrumented).
UNINSTRUMENTED = re.compile(
    r"ompp-instrument: [^\n]*(compil\w* (it |the file |them )?unchanged|uninstrumented|"
    r"without instrumentation|not instrumented)", re.I)
ERROR_LINE = re.compile(r"\berror\b|\bfatal\b|undefined reference|Assertion|LLVM ERROR|"
                        r"Stack dump|terminate called", re.I)

# ompp-instrument's warning for one construct it leaves as it is.
CONSTRUCT_NOT_INSTRUMENTED = re.compile(r"warning: not instrumented: (.*)")

COMPILERS = {
    "gcc": {"c": "gcc-12", "c++": "g++-12"},
    "clang": {"c": "clang-16", "c++": "clang++-16"},
}


@dataclasses.dataclass
class Outcome:
    status: int | None       # exit status; negative = killed by that signal; None = timed out
    output: str
    seconds: float

    @property
    def timed_out(self) -> bool:
        return self.status is None


def run(command: list[str], cwd: Path, env: dict[str, str], limit: float) -> Outcome:
    start = time.monotonic()
    with subprocess.Popen(["nice", "-n", "10", *command], cwd=cwd, env=env,
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, start_new_session=True) as proc:
        try:
            out, _ = proc.communicate(timeout=limit)
            status = proc.returncode
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, _ = proc.communicate()
            status = None
    return Outcome(status, out.decode(errors="replace"), time.monotonic() - start)


def first_error(text: str) -> str:
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    for line in lines:
        if ERROR_LINE.search(line) and "warning:" not in line:
            return line[:300]
    return lines[0][:300] if lines else ""


def describe_status(status: int | None) -> str:
    if status is None:
        return "timeout"
    if status < 0:
        try:
            return signal.Signals(-status).name
        except ValueError:
            return f"signal {-status}"
    return f"exit {status}"


@dataclasses.dataclass
class Result:
    test: str
    compiler: str
    family: str
    category: str
    detail: str = ""
    known: str = ""
    plain_seconds: float = 0.0
    ompp_seconds: float = 0.0
    profile_written: bool = False
    constructs_not_instrumented: list[str] = dataclasses.field(default_factory=list)


def env_assignment(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name.startswith("OMPP_"):
        raise argparse.ArgumentTypeError(f"'{text}': expected OMPP_<NAME>=<value>")
    return name, value


class Runner:
    """Builds one test plainly and through ompp with one compiler, runs both
    and classifies the difference (docs/corpus.md, "Classification")."""

    def __init__(self, args: argparse.Namespace, suite: Suite, testsuite: Path):
        self.args = args
        self.suite = suite
        self.testsuite = testsuite
        self.bin = Path(args.ompp_build).resolve() / "bin"
        self.work = Path(args.output).resolve() / "work"

    def base_env(self, test: CorpusTest) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("OMP_", "GOMP_", "KMP_", "LIBOMP_", "OMPP_"))}
        env["OMP_NUM_THREADS"] = str(self.args.threads)
        env.update(test.env)
        return env

    def build_command(self, test: CorpusTest, compiler: str, driver: str | None) -> list[str]:
        compiler_cmd = [driver] if driver else [COMPILERS[compiler][test.lang]]
        return self.suite.build_command(test, compiler, self.testsuite, compiler_cmd)

    def ompp_env(self, env: dict[str, str], compiler: str, outdir: Path) -> dict[str, str]:
        env = dict(env, OMPP_CC=COMPILERS[compiler]["c"], OMPP_CXX=COMPILERS[compiler]["c++"],
                   OMPP_QUIET="1", OMPP_OUTDIR=str(outdir))
        env.update(self.args.ompp_env)
        return env

    def run_test(self, test: CorpusTest, cwd: Path, env: dict[str, str], limit: float) -> Outcome:
        return run(self.suite.run_command(test), cwd, env, limit)

    def output_ok(self, test: CorpusTest, outcome: Outcome) -> bool:
        return not outcome.timed_out and self.suite.output_ok(test, outcome)

    def check(self, test: CorpusTest, compiler: str) -> Result:
        result = Result(test.id, compiler, test.family, "")
        work = self.work / compiler / re.sub(r"[^\w.+@-]", "_", test.id)
        shutil.rmtree(work, ignore_errors=True)
        (work / "plain").mkdir(parents=True)
        (work / "ompp").mkdir(parents=True)
        env = self.base_env(test)
        log = []

        plain_cmd = self.build_command(test, compiler, None)
        built = run(plain_cmd, work / "plain", env, self.args.build_timeout)
        log.append(f"$ {' '.join(plain_cmd)}\n{built.output}")
        if built.status != 0:
            return self.finish(result, work, log, "plain-build-fails", first_error(built.output))
        plain = self.run_test(test, work / "plain", env, self.args.timeout)
        result.plain_seconds = round(plain.seconds, 3)
        log.append(f"$ {shell_line(self.suite.run_command(test))}  -> {describe_status(plain.status)}\n{plain.output}")
        if not self.output_ok(test, plain):
            return self.finish(result, work, log, "plain-run-fails",
                               f"{describe_status(plain.status)}: {first_error(plain.output)}")

        driver = str(self.bin / ("ompp-c++" if test.lang == "c++" else "ompp-cc"))
        ompp_cmd = self.build_command(test, compiler, driver)
        outdir = work / "ompp" / "profile"
        oenv = self.ompp_env(env, compiler, outdir)
        built = run(ompp_cmd, work / "ompp", oenv, self.args.build_timeout)
        log.append(f"$ OMPP_CC={oenv['OMPP_CC']} OMPP_CXX={oenv['OMPP_CXX']} "
                   f"{' '.join(ompp_cmd)}\n{built.output}")
        if built.timed_out:
            return self.finish(result, work, log, "hang", "ompp build timed out")
        if CRASH_MARKERS.search(built.output) and not COMPILER_ICE.search(built.output):
            return self.finish(result, work, log, "crash", first_crash_line(built.output))
        if built.status != 0:
            return self.finish(result, work, log, "build-fails", first_error(built.output))
        uninstrumented = UNINSTRUMENTED.search(built.output)
        result.constructs_not_instrumented = sorted(set(CONSTRUCT_NOT_INSTRUMENTED.findall(built.output)))

        limit = max(self.args.timeout, 10 * plain.seconds + 10)
        ompp = self.run_test(test, work / "ompp", oenv, limit)
        result.ompp_seconds = round(ompp.seconds, 3)
        result.profile_written = any(outdir.glob("*.json")) if outdir.is_dir() else False
        log.append(f"$ {shell_line(self.suite.run_command(test))}  -> {describe_status(ompp.status)}\n{ompp.output}")
        same = self.output_ok(test, ompp) and (ompp.status == plain.status)
        if not same:
            flaky = self.plain_failures(test, work / "plain", env)
            if flaky:
                return self.finish(result, work, log, "plain-run-fails",
                                   f"plain run flaky: {flaky} of {self.args.plain_reruns} reruns failed")
        if ompp.timed_out:
            return self.finish(result, work, log, "hang",
                               f"ompp run timed out after {limit:.0f}s (plain {plain.seconds:.1f}s)")
        if not same:
            if self.runtime_crashed(ompp, work / "ompp", oenv, limit):
                return self.finish(result, work, log, "crash",
                                   f"libompp: {describe_status(ompp.status)}: {first_crash_line(ompp.output)}")
            return self.finish(result, work, log, "runs-differently",
                               f"plain {describe_status(plain.status)}, ompp "
                               f"{describe_status(ompp.status)}: {first_error(ompp.output)}")
        if uninstrumented:
            return self.finish(result, work, log, "uninstrumented", uninstrumented.group(0))
        return self.finish(result, work, log, "pass", "")

    def plain_failures(self, test: CorpusTest, cwd: Path, env: dict[str, str]) -> int:
        """How often the plain program fails when run again: a test whose plain
        build is itself unreliable says nothing about ompp."""
        return sum(1 for _ in range(self.args.plain_reruns)
                   if not self.output_ok(test, self.run_test(test, cwd, env, self.args.timeout)))

    def runtime_crashed(self, outcome: Outcome, cwd: Path, env: dict[str, str], limit: float) -> bool:
        """A libompp assertion, or a signal whose backtrace goes through libompp."""
        if re.search(r"(libompp|ompp::|runtime/)[^\n]*Assertion|Assertion[^\n]*(ompp|runtime/)",
                     outcome.output):
            return True
        if outcome.status is None or outcome.status >= 0 or not shutil.which("gdb"):
            return False
        trace = run(["gdb", "-q", "-batch", "-ex", "run", "-ex", "bt", "./a.out"], cwd, env, limit)
        (cwd / "gdb.log").write_text(trace.output)
        frames = [l for l in trace.output.splitlines() if re.match(r"#\d+ ", l)]
        return any(re.search(r"libompp|ompp::|POMP2_|pomp2_", f) for f in frames)

    def finish(self, result: Result, work: Path, log: list[str], category: str, detail: str) -> Result:
        result.category, result.detail = category, detail
        if category == "pass" and not self.args.keep:
            shutil.rmtree(work, ignore_errors=True)
        else:
            (work / "log.txt").write_text("\n".join(log), errors="replace")
        return result


def shell_line(command: list[str]) -> str:
    return " ".join(shlex.quote(word) for word in command)


def first_crash_line(text: str) -> str:
    for line in text.splitlines():
        if CRASH_MARKERS.search(line) or "Assertion" in line:
            return line.strip()[:300]
    return first_error(text)


# ------------------------------------------------------------------ known differences and report


def load_known(path: Path, test_ids: set[str]) -> list[tuple[str, str, str]]:
    """Entries of the known-differences file; one that names no test of the
    testsuite (a c-c++-common test without @c/@c++ or a glob) is an error,
    since it would silently accept nothing."""
    entries = []
    if not path.exists():
        return entries
    for number, line in enumerate(path.read_text().splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split(None, 2)
        if len(parts) < 3 or parts[1] not in ("gcc", "clang", "*"):
            fail(f"{path}:{number}: expected `TEST gcc|clang|* REASON`, got: {line}")
        if not any(fnmatch.fnmatchcase(t, parts[0]) for t in test_ids):
            fail(f"{path}:{number}: `{parts[0]}` names no run test of the testsuite "
                 "(c-c++-common tests end in @c or @c++; globs allowed)")
        entries.append((parts[0], parts[1], parts[2]))
    return entries


def known_reason(known: list[tuple[str, str, str]], result: Result) -> str:
    for test, compiler, reason in known:
        if fnmatch.fnmatchcase(result.test, test) and compiler in ("*", result.compiler):
            return reason
    return ""


FAILURES = ("build-fails", "runs-differently", "crash", "hang")
COLUMNS = ("total", "plain-build-fails", "plain-run-fails", "denominator", "pass",
           "uninstrumented", "build-fails", "runs-differently", "crash", "hang", "known")


def summary(results: list[Result]) -> dict[str, dict[str, float]]:
    table = {}
    for compiler in sorted({r.compiler for r in results}):
        mine = [r for r in results if r.compiler == compiler]
        row = {c: sum(1 for r in mine if r.category == c) for c in COLUMNS}
        row["total"] = len(mine)
        row["denominator"] = len(mine) - row["plain-build-fails"] - row["plain-run-fails"]
        row["known"] = sum(1 for r in mine if r.known)
        row["partly-instrumented"] = sum(1 for r in mine
                                         if r.category == "pass" and r.constructs_not_instrumented)
        den = row["denominator"] or 1
        row["same-result-%"] = round(100 * (row["pass"] + row["uninstrumented"]) / den, 2)
        row["instrumented-%"] = round(100 * row["pass"] / den, 2)
        table[compiler] = row
    return table


def print_report(results: list[Result], skipped: dict[str, str], out: Path) -> None:
    table = summary(results)
    headers = list(COLUMNS) + ["partly-instrumented", "same-result-%", "instrumented-%"]
    short = {"plain-build-fails": "plain-bf", "plain-run-fails": "plain-rf",
             "denominator": "denom", "uninstrumented": "uninstr", "build-fails": "build-f",
             "runs-differently": "runs-diff", "same-result-%": "same%", "partly-instrumented": "partly",
             "instrumented-%": "instr%"}
    names = [short.get(h, h) for h in headers]
    print(f"{'compiler':<9}" + "".join(f"{n:>10}" for n in names))
    for compiler, row in table.items():
        print(f"{compiler:<9}" + "".join(f"{row[h]:>10}" for h in headers))
    print(f"\n({len(skipped)} files or builds are not run here (the suite's own reasons: "
          "not_run_tests in results.json)")
    failing = sorted((r for r in results if r.category in FAILURES),
                     key=lambda r: (bool(r.known), r.compiler, r.category, r.test))
    if failing:
        print("\nFailing tests:")
        for r in failing:
            tag = f"known: {r.known}" if r.known else r.detail
            print(f"  {r.compiler:<6}{r.category:<17}{r.test}: {tag}")
    uninstr = [r for r in results if r.category == "uninstrumented"]
    if uninstr:
        print("\nCompiled uninstrumented:")
        for r in sorted(uninstr, key=lambda r: (r.compiler, r.test)):
            print(f"  {r.compiler:<6}{r.test}: {r.detail}")
    partial = [r for r in results if r.constructs_not_instrumented and r.category == "pass"]
    if partial:
        print("\nPassing, with constructs ompp left uninstrumented (warned):")
        for r in sorted(partial, key=lambda r: (r.compiler, r.test)):
            skipped_constructs = r.constructs_not_instrumented
            more = f" (and {len(skipped_constructs) - 2} more)" if len(skipped_constructs) > 2 else ""
            print(f"  {r.compiler:<6}{r.test}: {'; '.join(skipped_constructs[:2])}{more}")
    print(f"\nresults: {out / 'results.json'}, {out / 'results.csv'}; logs of non-passing "
          f"tests under {out / 'work'}")


def write_results(results: list[Result], skipped: dict[str, str], out: Path) -> None:
    rows = [dataclasses.asdict(r) for r in sorted(results, key=lambda r: (r.compiler, r.test))]
    data = {"summary": summary(results), "results": rows, "not_run_tests": skipped}
    tmp = out / "results.json.tmp"
    tmp.write_text(json.dumps(data, indent=1))
    tmp.replace(out / "results.json")
    with open(out / "results.csv.tmp", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]) if rows else ["test"])
        writer.writeheader()
        writer.writerows(rows)
    (out / "results.csv.tmp").replace(out / "results.csv")


# ------------------------------------------------------------------ sample


def stratified_sample(tests: list[CorpusTest], per_group: int) -> list[str]:
    """The per_group tests of each (suite, construct family) with the smallest
    hash of their id: a fixed choice that moves little when the suite changes."""
    groups: dict[tuple[str, str], list[CorpusTest]] = {}
    for t in tests:
        groups.setdefault((t.suite, t.family), []).append(t)
    chosen = []
    for key in sorted(groups):
        ranked = sorted(groups[key], key=lambda t: hashlib.sha256(t.id.encode()).hexdigest())
        chosen += [t.id for t in ranked[:per_group]]
    return sorted(chosen)


def plain_runnable_everywhere(result_files: list[str]) -> set[str]:
    """Tests whose plain build and run succeeded with every compiler of the given results."""
    rows = [r for f in result_files for r in json.loads(Path(f).read_text())["results"]]
    failed = {r["test"] for r in rows if r["category"] in ("plain-build-fails", "plain-run-fails")}
    return {r["test"] for r in rows} - failed


def read_list(path: Path) -> list[str]:
    return [l.split("#")[0].strip() for l in path.read_text().splitlines()
            if l.split("#")[0].strip()]


# ------------------------------------------------------------------ main


def parse_args(argv: list[str], suite: Suite) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog=f"{PROG}.py", description=suite.help,
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                usage=argparse.SUPPRESS)
    p.add_argument("--ompp-build", default=str(REPO / "build"), metavar="DIR",
                   help="ompp build (or install) directory holding bin/ompp-cc and bin/ompp-c++ "
                        "(default: build/ of this repository)")
    p.add_argument("--compiler", choices=("gcc", "clang", "both"), default="both",
                   help="real compiler(s): gcc-12/g++-12, clang-16/clang++-16 (default both, clang first)")
    p.add_argument("--jobs", "-j", type=int, default=2, metavar="N", help="tests built and run at once (default 2)")
    p.add_argument("--filter", metavar="REGEX", help="only tests whose id matches REGEX (re.search)")
    p.add_argument("--sample", metavar="FILE", help="only the test ids listed in FILE (one per line, # comments)")
    p.add_argument("--rerun", metavar="RESULTS_JSON",
                   help="only the tests and compilers that did not pass (or were known) in an earlier results.json")
    p.add_argument("--output", "-o", metavar="DIR",
                   default=str(Path(os.environ.get("TMPDIR", "/tmp")) / f"ompp-{suite.name}-corpus"),
                   help=f"results and logs (default $TMPDIR/ompp-{suite.name}-corpus); keep it out of the repository")
    p.add_argument("--cache", metavar="DIR", default=str(suite.cache),
                   help=f"where the testsuite is (or is fetched to) (default {suite.cache})")
    p.add_argument("--no-fetch", action="store_true", help="fail instead of fetching the testsuite")
    p.add_argument("--known-differences", metavar="FILE", default=str(suite.known),
                   help=f"accepted differences (default {suite.known.relative_to(REPO)})")
    p.add_argument("--ompp-env", metavar="NAME=VALUE", action="append", default=[], type=env_assignment,
                   help="an environment variable of every instrumented build and run, e.g. OMPP_DEADLOCK=abort "
                        "or OMPP_TRACE=1 (repeatable): the corpus then checks that feature against the plain "
                        "results")
    p.add_argument("--threads", type=int, default=2, metavar="N", help="OMP_NUM_THREADS of every run (default 2)")
    p.add_argument("--timeout", type=float, default=60, metavar="SECONDS",
                   help="seconds a plain run may take; an ompp run gets max(this, 10 x plain + 10) (default 60)")
    p.add_argument("--plain-reruns", type=int, default=5, metavar="N",
                   help="when the ompp run differs, run the plain program N more times; if it fails "
                        "once, the test counts as plain-run-fails (flaky), not as ompp's (default 5)")
    p.add_argument("--build-timeout", type=float, default=300, metavar="SECONDS", help="seconds per build (default 300)")
    p.add_argument("--keep", action="store_true", help="keep the work directories of passing tests too")
    p.add_argument("--list", action="store_true", help="list the selected tests (id and construct family) and exit")
    p.add_argument("--write-sample", metavar="FILE",
                   help="write a stratified sample (by suite and construct family) of the selected tests to FILE and exit")
    p.add_argument("--sample-from", metavar="RESULTS_JSON", action="append",
                   help="with --write-sample: only tests whose plain build and run succeeded in these "
                        "earlier results (repeatable, e.g. one per compiler)")
    p.add_argument("--per-group", type=int, default=2, metavar="N", help="tests per (suite, family) for --write-sample (default 2)")
    args = p.parse_args(argv)
    if args.jobs < 1 or args.threads < 1:
        p.error("--jobs and --threads must be at least 1")
    out = Path(args.output).resolve()
    if (out == REPO or REPO in out.parents) and not git_ignored(out):
        p.error(f"--output {out} is inside the repository and not ignored by git; "
                "results never go into the sources")
    return args


def git_ignored(path: Path) -> bool:
    return subprocess.run(["git", "-C", str(REPO), "check-ignore", "-q", str(path)],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0


def select(tests: list[CorpusTest], args: argparse.Namespace,
           suite: Suite) -> tuple[list[tuple[CorpusTest, str]], list[str]]:
    compilers = ["clang", "gcc"] if args.compiler == "both" else [args.compiler]
    ids = {t.id for t in tests}
    unknown: list[str] = []
    chosen = tests
    if args.filter:
        rx = re.compile(args.filter)
        chosen = [t for t in chosen if rx.search(t.id)]
    if args.sample:
        wanted = read_list(Path(args.sample))
        unknown = [w for w in wanted if w not in ids]
        chosen = [t for t in chosen if t.id in set(wanted)]
    pairs = [(t, c) for c in compilers for t in chosen if suite.applies(t, c)]
    if args.rerun:
        previous = json.loads(Path(args.rerun).read_text())["results"]
        again = {(r["test"], r["compiler"]) for r in previous
                 if r["category"] not in ("pass", "uninstrumented", "plain-build-fails", "plain-run-fails")}
        pairs = [(t, c) for t, c in pairs if (t.id, c) in again]
    return pairs, unknown


def main(argv: list[str], suite: Suite) -> int:
    args = parse_args(argv, suite)
    testsuite = suite.testsuite(Path(args.cache), not args.no_fetch)
    tests, skipped = suite.collect(testsuite)
    pairs, unknown = select(tests, args, suite)
    for name in unknown:
        print(f"{PROG}: {args.sample}: no run test {name}", file=sys.stderr)
    if args.list:
        for t in sorted({t.id: t for t, _ in pairs}.values(), key=lambda t: t.id):
            print(f"{t.id}\t{t.family}")
        return 1 if unknown else 0
    if args.write_sample:
        candidates = list({t.id: t for t, _ in pairs}.values())
        if args.sample_from:
            runnable = plain_runnable_everywhere(args.sample_from)
            candidates = [t for t in candidates if t.id in runnable]
        sample = stratified_sample(candidates, args.per_group)
        Path(args.write_sample).write_text(
            f"# CI sample of the {suite.name} corpus: written by scripts/{PROG}.py --write-sample\n"
            + "\n".join(sample) + "\n")
        print(f"{len(sample)} tests written to {args.write_sample}")
        return 0
    for tool in ("ompp-cc", "ompp-c++"):
        if not (Path(args.ompp_build) / "bin" / tool).exists():
            print(f"{PROG}: no bin/{tool} in --ompp-build {args.ompp_build}", file=sys.stderr)
            return 2
    out = Path(args.output).resolve()
    out.mkdir(parents=True, exist_ok=True)
    known = load_known(Path(args.known_differences), {t.id for t in tests})
    runner = Runner(args, suite, testsuite)
    results: list[Result] = []
    lock = threading.Lock()
    start = time.monotonic()
    print(f"{PROG}: {len(pairs)} builds pairs ({len(tests)} run tests in {testsuite})",
          file=sys.stderr)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(runner.check, t, c) for t, c in pairs]
        for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
            result = future.result()
            result.known = known_reason(known, result) if result.category in FAILURES else ""
            with lock:
                results.append(result)
                if sys.stderr.isatty() or done % 25 == 0 or done == len(futures):
                    print(f"  [{done}/{len(futures)} {time.monotonic() - start:.0f}s] "
                          f"{result.compiler} {result.test}: {result.category}", file=sys.stderr)
    write_results(results, skipped, out)
    print_report(results, skipped, out)
    unexpected = [r for r in results if r.category in FAILURES and not r.known]
    stale = sorted({(t, c) for t, c, _ in known} -
                   {(t, c) for t, c, _ in known
                    for r in results if r.known and fnmatch.fnmatchcase(r.test, t)})
    ran = {r.test for r in results}
    for test, compiler in stale:
        if any(fnmatch.fnmatchcase(name, test) for name in ran):
            print(f"note: known difference {test} ({compiler}) did not occur", file=sys.stderr)
    print(f"\n{len(unexpected)} unexpected failure(s)")
    return 1 if unexpected or unknown else 0

