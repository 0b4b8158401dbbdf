#!/usr/bin/env python3
"""Regression corpus: LLVM 16's OpenMP runtime (libomp) lit tests, plain and through ompp.

See `llvm-omp-corpus.py --help` (the text below, HELP) and docs/corpus.md.
What it shares with the libgomp corpus (building, running, classifying,
reporting) is in corpus_harness.py.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import re
import shlex
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import Callable

import corpus_harness as harness
from corpus_harness import COMPILERS, Outcome, construct_family

DEFAULT_KNOWN = harness.REPO / "test" / "corpus" / "llvm-known-differences.txt"
DEFAULT_CACHE = Path(os.environ.get("OMPP_LLVM_CORPUS_CACHE",
                                    Path.home() / ".cache" / "ompp" / "llvm-toolchain-16"))
SOURCE_PACKAGE = "llvm-toolchain-16"
TESTSUITE_DIR = "openmp/runtime/test"
LLVM_BIN = Path("/usr/lib/llvm-16/bin")

HELP = """\
NAME
    llvm-omp-corpus.py - build and run LLVM 16's libomp tests plain and through ompp

SYNOPSIS
    scripts/llvm-omp-corpus.py [--ompp-build DIR] [--compiler gcc|clang|both]
                               [--jobs N] [--filter REGEX] [--sample FILE]
                               [--output DIR] [--cache DIR] [OPTIONS]

DESCRIPTION
    Collects the lit tests (*.c, *.cpp) of LLVM 16's openmp/runtime/test and
    for each compiler builds each one twice, plainly and through
    ompp-cc/ompp-c++, runs both at OMP_NUM_THREADS=2 as its RUN lines say
    (their env settings, arguments, FileCheck and check.py pipelines) and
    compares the results.

    RUN lines are read as lit reads them (continuations, && between lines,
    the %libomp-* substitutions of lit.cfg).  A test must build exactly one
    program with %libomp-compile (or -cxx-, -c99-, -irbuilder-, or a direct
    %clang ... %s -o %t); tests that build tools (OMPT's tool.so) or only
    compile are not run.  REQUIRES and UNSUPPORTED are evaluated with the
    features lit would have for the compiler (clang, clang-16, clang-16.0,
    clang-16.0.6 or gcc, gcc-12, ...; linux, affinity, hidden-helper,
    x86_64-target-arch, multicpu; not ompt, hwloc).  A test XFAILed for a
    compiler fails plainly and counts as plain-run-fails.

    Build: -fopenmp -pthread -fno-omit-frame-pointer -I<test root>, the
    RUN line's own options, -lm -latomic; clang-16 with its libomp,
    gcc-12 with libgomp.  With gcc, tests that call libomp's own API
    (kmp_*, __kmpc_*, OMPT) are not built.  FileCheck and not are LLVM 16's.

    The tests come from Debian's source package (apt-get source
    llvm-toolchain-16): only openmp/runtime/test is extracted, into the cache
    directory.  If the cache is empty it is fetched (as root, deb-src is
    enabled first).

CLASSIFICATION, OUTPUT, KNOWN DIFFERENCES, EXIT STATUS
    As libgomp-corpus.py (docs/corpus.md); the known differences are in
    test/corpus/llvm-known-differences.txt, test ids are paths below
    openmp/runtime/test (e.g. tasking/omp_task.c).

ENVIRONMENT
    OMPP_LLVM_CORPUS_CACHE  default for --cache (~/.cache/ompp/llvm-toolchain-16)
    TMPDIR                  default parent of --output

EXAMPLES
    scripts/llvm-omp-corpus.py --ompp-build build --compiler clang
    scripts/llvm-omp-corpus.py --filter '^tasking/' --jobs 2
    scripts/llvm-omp-corpus.py --sample test/corpus/llvm-sample.txt
"""

# lit.cfg's substitutions for building the test program: the kind of build
# and what it adds to the flags.  Longest first: they are prefixes of each other.
COMPILE_SUBSTITUTIONS = {
    "%libomp-cxx-compile-c": ("c++", ["-std=c++17", "-x", "c++"]),
    "%libomp-cxx-compile": ("c++", ["-std=c++17"]),
    "%libomp-irbuilder-compile": ("c", ["-fopenmp-enable-irbuilder"]),
    "%libomp-c99-compile": ("c", ["-std=c99"]),
    "%libomp-compile": ("c", []),
}
BASE_FLAGS = ["-fopenmp", "-pthread", "-fno-omit-frame-pointer"]
# A compile written out: `%clang %openmp_flags %flags... %s -o %t`.
DIRECT_COMPILE = re.compile(r"^%(clang|clangXX)\s")
DIRECT_COMPILE_WORDS = {"%openmp_flags", "%flags", "%flags-use-compiler-omp-h", "%s", "-o", "%t"}
# libomp's own interfaces, which libgomp does not have.
LIBOMP_ONLY = re.compile(r"\bkmp_\w+\s*\(|\b__kmpc_\w+|omp-tools\.h|\bompt_\w+|#\s*include\s*[<\"]kmp")


@dataclasses.dataclass
class LitTest:
    """One lit test of openmp/runtime/test."""
    rel: str                  # path below the test root: the test id
    path: Path
    lang: str
    flags: list[str]          # the RUN line's build flags beyond BASE_FLAGS
    run_script: str           # the RUN lines after the build, %libomp-run -> ./a.out
    family: str
    unsupported: dict[str, str]  # compiler -> why it is not built with it
    xfail: list[str]          # compilers lit expects it to fail with
    env: dict[str, str] = dataclasses.field(default_factory=dict)

    @property
    def id(self) -> str:
        return self.rel

    @property
    def suite(self) -> str:
        return self.rel.split("/")[0]


# ------------------------------------------------------------------ lit directives


def lit_lines(text: str, keyword: str) -> list[str]:
    """The `KEYWORD:` lines of a test; for RUN, lines ending in \\ continue."""
    lines, pending = [], ""
    for match in re.finditer(rf"\b{keyword}:(.*)$", text, re.M):
        part = match.group(1).strip()
        if keyword == "RUN" and part.endswith("\\"):
            pending += part[:-1].rstrip() + " "
            continue
        lines.append(pending + part)
        pending = ""
    if pending:
        lines.append(pending)
    return lines


@functools.cache
def compiler_features(compiler: str) -> frozenset[str]:
    """What lit's config knows of this machine and compiler (lit.cfg, OpenMPTesting.cmake)."""
    name = {"clang": "clang", "gcc": "gcc"}[compiler]
    version = subprocess.run([COMPILERS[compiler]["c"], "-dumpfullversion" if compiler == "gcc"
                              else "-dumpversion"], capture_output=True, text=True).stdout.strip()
    parts = version.split(".")
    features = {name} | {f"{name}-{'.'.join(parts[:n])}" for n in range(1, len(parts) + 1)}
    features |= {"linux", "affinity", "hidden-helper", "x86_64-target-arch", "x86-target-arch"}
    if (os.cpu_count() or 1) > 1:
        features.add("multicpu")
    return frozenset(features)


def lit_expression_holds(expression: str, features: frozenset[str]) -> bool:
    """A lit boolean expression: identifiers (with {{regex}} parts), !, &&, ||, ()."""
    tokens = re.findall(r"\(|\)|&&|\|\||!|[^\s()&|!]+", expression)
    position = 0

    def peek() -> str | None:
        return tokens[position] if position < len(tokens) else None

    def take() -> str:
        nonlocal position
        position += 1
        return tokens[position - 1]

    def atom() -> bool:
        token = take()
        if token == "!":
            return not atom()
        if token == "(":
            value = disjunction()
            take()
            return value
        if token in ("true", "*"):
            return True
        if token == "false":
            return False
        pattern = "".join(f"(?:{part[2:-2]})" if part.startswith("{{") else re.escape(part)
                          for part in re.split(r"(\{\{.*?\}\})", token) if part)
        return any(re.fullmatch(pattern, feature) for feature in features)

    def chain(operator: str, operand: Callable[[], bool], combine: Callable[[bool, bool], bool]) -> bool:
        value = operand()
        while peek() == operator:
            take()
            value = combine(value, operand())
        return value

    def conjunction() -> bool:
        return chain("&&", atom, lambda a, b: a and b)

    def disjunction() -> bool:
        return chain("||", conjunction, lambda a, b: a or b)

    return disjunction()


def holds(lines: list[str], features: frozenset[str], combine=any) -> bool:
    """Whether any (UNSUPPORTED, XFAIL) or all (REQUIRES: combine=all) of the
    comma-separated expressions of these lines hold."""
    return combine(lit_expression_holds(item, features)
                   for line in lines for item in line.split(",") if item.strip())


# ------------------------------------------------------------------ RUN lines


def split_run(commands: list[str]) -> tuple[list[tuple[tuple[str, tuple[str, ...]], str]], str | None]:
    """The RUN commands as programs to build, each (kind, flags) with the
    script that runs it; or why the test is not run.  Commands that rebuild
    the same program (to run it with other settings) share one build."""
    script = " && ".join(commands)
    for name in ("%libomp-cxx-compile", "%libomp-irbuilder-compile", "%libomp-c99-compile",
                 "%libomp-compile"):
        script = script.replace(f"{name}-and-run", f"{name} && %libomp-run")
    runs_of: dict[tuple[str, tuple[str, ...]], list[str]] = {}
    build = None
    for segment in (s.strip() for s in script.split("&&")):
        kind = next((k for k in COMPILE_SUBSTITUTIONS if re.match(rf"{k}(\s|$)", segment)), None)
        if kind:
            lang, flags = COMPILE_SUBSTITUTIONS[kind]
            build = (lang, tuple(flags + shlex.split(segment[len(kind):])))
        elif DIRECT_COMPILE.match(segment):
            words = shlex.split(segment)
            if "%s" not in words or "%t" not in words:
                return [], "builds something other than the test program"
            build = ("c++" if words[0] == "%clangXX" else "c",
                     tuple(w for w in words[1:] if w not in DIRECT_COMPILE_WORDS))
        elif segment and build is None:
            return [], "runs something before building the test program"
        elif segment:
            if re.search(r"%(T|clang|flags|preload-tool|no-as-needed-flag)\b", segment):
                return [], "RUN lines use a tool library or a second build"
            runs_of.setdefault(build, []).append(segment)
            continue
        runs_of.setdefault(build, [])
    if not any(runs_of.values()):
        return [], "RUN lines only compile"
    return [(b, run_script(" && ".join(r))) for b, r in runs_of.items() if r], None


def run_script(runs: str) -> str:
    """lit's substitutions for running the program and checking its output."""
    replacements = [
        ("%libomp-run", "./a.out"), ("%sort-threads", "sort -n -s"), ("%python", "python3"),
        ("%not", str(LLVM_BIN / "not")), ("%S", "$TEST_DIR"), ("%s", "$TEST_SOURCE"),
        ("%t", "./a.out"),
    ]
    for old, new in replacements:
        runs = runs.replace(old, new)
    return re.sub(r"(?<![\w/.-])FileCheck\b", str(LLVM_BIN / "FileCheck"), runs)


def read_tests(root: Path, path: Path) -> tuple[list[LitTest], str | None]:
    """The test programs of one file (a file whose RUN lines build it in
    different ways gives one test per build: id, id@2, ...)."""
    text = path.read_text(errors="replace")
    rel = path.relative_to(root).as_posix()
    commands = lit_lines(text, "RUN")
    if not commands:
        return [], "no RUN line"
    programs, why = split_run(commands)
    if why:
        return [], why
    unsupported: dict[str, str] = {}
    for compiler in ("clang", "gcc"):
        features = compiler_features(compiler)
        if not holds(lit_lines(text, "REQUIRES"), features, all):
            unsupported[compiler] = "REQUIRES: " + ", ".join(lit_lines(text, "REQUIRES"))
        elif holds(lit_lines(text, "UNSUPPORTED"), features):
            unsupported[compiler] = "UNSUPPORTED: " + ", ".join(lit_lines(text, "UNSUPPORTED"))
    if LIBOMP_ONLY.search(text):
        unsupported.setdefault("gcc", "calls libomp's own API (kmp_*, __kmpc_*, OMPT)")
    xfail = [c for c in ("clang", "gcc") if holds(lit_lines(text, "XFAIL"), compiler_features(c))]
    tests = []
    for number, ((lang, flags), script) in enumerate(programs, 1):
        mine = dict(unsupported)
        if "-fopenmp-enable-irbuilder" in flags:
            mine.setdefault("gcc", "clang's -fopenmp-enable-irbuilder")
        tests.append(LitTest(rel=rel if number == 1 else f"{rel}@{number}", path=path,
                             lang="c++" if path.suffix == ".cpp" else lang, flags=list(flags),
                             run_script=script, family=construct_family(text),
                             unsupported=mine, xfail=xfail))
    return tests, None


def collect_tests(root: Path) -> tuple[list[LitTest], dict[str, str]]:
    """Every lit test that builds and runs one program, and why each other file is not run;
    a test not built with one compiler is listed as `id (compiler)`."""
    tests, skipped = [], {}
    for path in sorted(p for p in root.rglob("*") if p.suffix in (".c", ".cpp")):
        found, why = read_tests(root, path)
        if why:
            skipped[path.relative_to(root).as_posix()] = why
        for test in found:
            for compiler, reason in test.unsupported.items():
                skipped[f"{test.id} ({compiler})"] = reason
            if len(test.unsupported) < 2:
                tests.append(test)
    return tests, skipped


# ------------------------------------------------------------------ fetching, building, running


def fetch_testsuite(cache: Path, allow_fetch: bool) -> Path:
    """openmp/runtime/test of the llvm-toolchain-16 source package, extracted into cache."""
    return harness.fetch_from_source_package(cache, allow_fetch, SOURCE_PACKAGE, TESTSUITE_DIR,
                                             extract_testsuite)


def extract_testsuite(orig: Path, into: Path) -> None:
    """openmp/runtime/test, and the one libomp header three atomic tests include."""
    with tarfile.open(orig, mode="r|*") as tar:
        harness.extract_members(tar, into, f"/{TESTSUITE_DIR}/", "/openmp/runtime/src/kmp_platform.h")


def build_command(test: LitTest, compiler: str, testsuite: Path, compiler_cmd: list[str]) -> list[str]:
    return [*compiler_cmd, *BASE_FLAGS, "-I", str(testsuite), *test.flags, str(test.path),
            "-o", "a.out", "-lm", "-latomic"]


def run_command(test: LitTest) -> list[str]:
    """The RUN lines after the build, as lit runs them (bash, pipefail)."""
    return ["env", f"TEST_DIR={test.path.parent}", f"TEST_SOURCE={test.path}",
            "bash", "-o", "pipefail", "-c", test.run_script]


def output_ok(test: LitTest, outcome: Outcome) -> bool:
    return outcome.status == 0


SUITE = harness.Suite(
    name="llvm-omp", help=HELP, cache=DEFAULT_CACHE, known=DEFAULT_KNOWN,
    testsuite=fetch_testsuite, collect=collect_tests, build_command=build_command,
    run_command=run_command, output_ok=output_ok,
    applies=lambda test, compiler: compiler not in test.unsupported)

if __name__ == "__main__":
    sys.exit(harness.main(sys.argv[1:], SUITE))
