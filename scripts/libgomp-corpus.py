#!/usr/bin/env python3
"""Regression corpus: GCC 12's libgomp run tests, plain and through ompp.

See `libgomp-corpus.py --help` (the text below, HELP) and docs/corpus.md.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import os
import re
import sys
import tarfile
from pathlib import Path

import corpus_harness as harness
from corpus_harness import Outcome, construct_family, fail

DEFAULT_KNOWN = harness.REPO / "test" / "corpus" / "known-differences.txt"
DEFAULT_CACHE = Path(os.environ.get("OMPP_CORPUS_CACHE",
                                    Path.home() / ".cache" / "ompp" / "gcc-12"))
SOURCE_PACKAGE = "gcc-12"
SUITES = ("libgomp.c", "libgomp.c-c++-common", "libgomp.c++")

HELP = """\
NAME
    libgomp-corpus.py - build and run GCC 12's libgomp tests plain and through ompp

SYNOPSIS
    scripts/libgomp-corpus.py [--ompp-build DIR] [--compiler gcc|clang|both]
                              [--jobs N] [--filter REGEX] [--sample FILE]
                              [--output DIR] [--cache DIR]
                              [--ompp-env OMPP_NAME=VALUE ...] [OPTIONS]

DESCRIPTION
    Collects every run test ({ dg-do run }, the harness's default) of
    libgomp.c, libgomp.c-c++-common and libgomp.c++ from GCC 12's libgomp
    testsuite that needs no offload device, and for each compiler builds it
    twice, plainly and through ompp-cc/ompp-c++, runs both builds at
    OMP_NUM_THREADS=2 and compares the results.  c-c++-common tests are built
    as C and as C++, as the libgomp harness does.

    Each test is built as the harness builds it: -fopenmp, then its dg-options
    (default -O2), its dg-additional-options and dg-additional-sources; runs
    get its dg-set-target-env-var variables; dg-shouldfail inverts the
    expected exit status and dg-output is matched against the run's output.
    Options clang does not know that only serve the harness's scans
    (-fdump-*, -foffload*) are dropped.

    The testsuite comes from Debian's source package (apt-get source gcc-12):
    only libgomp/testsuite is extracted, into the cache directory.  If the
    cache is empty it is fetched (as root, deb-src is enabled in
    /etc/apt/sources.list.d/debian.sources or /etc/apt/sources.list first).

CLASSIFICATION
    pass            same result, instrumented
    uninstrumented  same result, ompp warned and compiled the file unchanged
    build-fails     the plain build succeeds, the ompp build fails
    runs-differently exit status or checked output (dg-output) differ: a
                    silent wrong result
    crash           ompp-instrument, or libompp in the running program,
                    crashed or failed an assertion
    hang            the ompp build or run exceeded its time limit (the plain
                    one did not)
    Tests whose plain build fails (plain-build-fails) or whose plain run fails
    or hangs (plain-run-fails) are not counted in the denominator; they are
    listed separately.  When the ompp run differs, the plain program is run
    --plain-reruns more times first: if it fails once, the test is unreliable
    by itself and counts as plain-run-fails.

OUTPUT
    A table of counts per compiler, then every failing test with its first
    error line.  In the output directory: results.json and results.csv (one
    row per test and compiler), and work/<compiler>/<test>/ with the build
    commands, logs and outputs of every test that did not pass.

KNOWN DIFFERENCES
    test/corpus/known-differences.txt (or --known-differences FILE) lists
    accepted differences, one per line: TEST COMPILER REASON, COMPILER being
    gcc, clang or *.  TEST is the test id as printed (suite/file, with @c or
    @c++ for c-c++-common tests) and may be a glob.  Matching failures are
    reported as known, not as failures.

ENVIRONMENT
    OMPP_CORPUS_CACHE  default for --cache (default ~/.cache/ompp/gcc-12)
    TMPDIR             default parent of --output

EXIT STATUS
    0 no unexpected failure, 1 an unexpected failure (or an unknown test in
    --sample), 2 bad usage or the testsuite could not be fetched.

EXAMPLES
    scripts/libgomp-corpus.py --ompp-build build --compiler clang
    scripts/libgomp-corpus.py --filter 'task|cancel' --jobs 2
    scripts/libgomp-corpus.py --sample test/corpus/sample.txt
    scripts/libgomp-corpus.py --rerun OUT/results.json -o OUT2   # only what failed in OUT
"""

TARGET_TRIPLET = "x86_64-pc-linux-gnu"


def has_cpu_flag(flag: str) -> bool:
    try:
        return re.search(rf"^flags\s*:.*\b{flag}\b", Path("/proc/cpuinfo").read_text(),
                         re.M) is not None
    except OSError:
        return False


# Effective targets of DejaGnu's target-supports on x86_64 Linux without any
# offload device; anything not listed is false.
EFFECTIVE_TARGETS = {
    "size32plus": True, "tls_runtime": True, "tls": True, "tls_native": True,
    "sync_int_long": True, "lto": True, "fpic": True, "shared": True,
    "large_long_double": True, "vect_simd_clones": True, "__float128": True,
    "lp64": True, "alias": True, "fopenmp": True, "pthread": True,
    "avx_runtime": has_cpu_flag("avx"),
}

# ------------------------------------------------------------------ dg parsing


def tcl_words(text: str) -> list[str]:
    """Splits a Tcl list: {braced} words keep their text, "quoted" words get
    Tcl's backslash substitution."""
    words, i, n = [], 0, len(text)
    while i < n:
        if text[i].isspace():
            i += 1
            continue
        if text[i] == "{":
            depth, j = 1, i + 1
            while j < n and depth:
                depth += {"{": 1, "}": -1}.get(text[j], 0)
                j += 1
            words.append(text[i + 1:j - 1])
            i = j
        elif text[i] == '"':
            j, out = i + 1, []
            while j < n and text[j] != '"':
                if text[j] == "\\" and j + 1 < n:
                    out.append({"n": "\n", "r": "\r", "t": "\t"}.get(text[j + 1], text[j + 1]))
                    j += 2
                else:
                    out.append(text[j])
                    j += 1
            words.append("".join(out))
            i = j + 1
        else:
            j = i
            while j < n and not text[j].isspace():
                j += 1
            words.append(text[i:j])
            i = j
    return words


def dg_directives(source: str) -> list[tuple[str, list[str]]]:
    """Every `{ dg-NAME args }` in a file, with its arguments as Tcl words."""
    found = []
    for match in re.finditer(r"\{\s*(dg-[\w-]+)", source):
        depth, j = 1, match.end()
        while j < len(source) and depth:
            depth += {"{": 1, "}": -1}.get(source[j], 0)
            if source[j] == "\n" and depth:
                break
            j += 1
        if depth == 0:
            found.append((match.group(1), tcl_words(source[match.end():j - 1])))
    return found


def selector_holds(words: list[str]) -> bool:
    """Evaluates a DejaGnu selector: `target X Y`, `! X`, `{ A && B }`, `{ A || B }`."""
    if not words:
        return True
    if words[0] in ("target", "xfail"):
        words = words[1:]
    return evaluate_selector_expr(words)


def evaluate_selector_expr(words: list[str]) -> bool:
    if "||" in words:
        i = words.index("||")
        return evaluate_selector_expr(words[:i]) or evaluate_selector_expr(words[i + 1:])
    if "&&" in words:
        i = words.index("&&")
        return evaluate_selector_expr(words[:i]) and evaluate_selector_expr(words[i + 1:])
    if words and words[0] == "!":
        return not evaluate_selector_expr(words[1:])
    # A plain list of triplets / effective targets: any of them.
    return any(selector_atom(word) for word in words)


def selector_atom(word: str) -> bool:
    if any(c.isspace() for c in word.strip()):
        return evaluate_selector_expr(tcl_words(word))
    word = word.strip()
    if "-" in word and ("*" in word or word.count("-") >= 2):
        return fnmatch.fnmatch(TARGET_TRIPLET, word)
    return EFFECTIVE_TARGETS.get(word, False)


@dataclasses.dataclass
class Test:
    """One libgomp run test as one language builds it."""
    suite: str           # libgomp.c, libgomp.c-c++-common or libgomp.c++
    path: Path           # the main source file
    lang: str            # "c" or "c++"
    options: list[str]
    sources: list[Path]  # dg-additional-sources
    env: dict[str, str]
    should_fail: bool
    output_regex: str | None
    family: str

    @property
    def id(self) -> str:
        name = f"{self.suite}/{self.path.relative_to(self.path_root).as_posix()}"
        return f"{name}@{self.lang}" if self.suite == "libgomp.c-c++-common" else name

    @property
    def path_root(self) -> Path:
        root = self.path.parent
        while root.name != self.suite:
            root = root.parent
        return root


def collect_tests(testsuite: Path) -> tuple[list[Test], dict[str, str]]:
    """The run tests of the three suites, and why each other file was skipped."""
    tests, skipped = [], {}
    plan = [("libgomp.c", "*.c", ["c"]), ("libgomp.c-c++-common", "*.c", ["c", "c++"]),
            ("libgomp.c++", "*.C", ["c++"])]
    for suite, pattern, langs in plan:
        for path in sorted((testsuite / suite).rglob(pattern)):
            text = path.read_text(errors="replace")
            reason, fields = test_fields(path, text)
            rel = f"{suite}/{path.relative_to(testsuite / suite).as_posix()}"
            if reason:
                skipped[rel] = reason
                continue
            for lang in langs:
                tests.append(Test(suite=suite, path=path, lang=lang,
                                  family=construct_family(text), **fields))
    return tests, skipped


def test_fields(path: Path, text: str) -> tuple[str | None, dict]:
    action = "run"
    options: list[str] | None = None
    extra: list[str] = []
    sources: list[Path] = []
    env: dict[str, str] = {}
    should_fail = False
    outputs: list[str] = []
    for name, args in dg_directives(text):
        selected = selector_holds(tcl_words(args[1])) if len(args) > 1 else True
        if name == "dg-do":
            action = args[0] if args else "run"
            if len(args) > 1 and not selector_holds(tcl_words(args[1])):
                return f"dg-do {action} not for this target", {}
        elif name == "dg-require-effective-target":
            if not (args and EFFECTIVE_TARGETS.get(args[0], False)):
                return f"requires {args[0] if args else '?'}", {}
        elif name == "dg-skip-if":
            if len(args) > 1 and selector_holds(tcl_words(args[1])):
                return "dg-skip-if", {}
        elif name == "dg-options" and args and selected:
            options = args[0].split()
        elif name == "dg-additional-options" and args and selected:
            extra += args[0].split()
        elif name == "dg-additional-sources" and args:
            sources += [path.parent / s for s in args[0].split()]
        elif name == "dg-set-target-env-var" and len(args) >= 2:
            env[args[0]] = args[1]
        elif name == "dg-shouldfail":
            should_fail = selector_holds(tcl_words(args[1])) if len(args) > 1 else True
        elif name == "dg-output" and args and selected:
            outputs.append(args[0])
    if action != "run":
        return f"dg-do {action}", {}
    flags = [f for f in (options if options is not None else ["-O2"]) + extra
             if not f.startswith(("-fdump-", "-foffload"))]
    return None, dict(options=flags, sources=sources, env=env, should_fail=should_fail,
                      output_regex="".join(outputs) or None)


# ------------------------------------------------------------------ fetching


def fetch_testsuite(cache: Path, allow_fetch: bool) -> Path:
    """libgomp/testsuite of the gcc-12 source package, extracted into cache."""
    return harness.fetch_from_source_package(cache, allow_fetch, SOURCE_PACKAGE,
                                             "libgomp/testsuite", extract_testsuite)


def extract_testsuite(orig: Path, into: Path) -> None:
    """Streams the gcc tarball inside Debian's .orig tarball, keeping libgomp/testsuite."""
    with tarfile.open(orig) as outer:
        inner = next((m for m in outer.getmembers()
                      if re.search(r"/gcc-[\d.]+(-dfsg)?\.tar\.\w+$", m.name)), None)
        if inner is None:
            fail(f"no gcc-*.tar.* inside {orig.name}")
        with tarfile.open(fileobj=outer.extractfile(inner), mode="r|*") as gcc:
            harness.extract_members(gcc, into, "/libgomp/testsuite/")


# ------------------------------------------------------------------ building and running

# GCC optimisation options clang-16 rejects; they only steer GCC's optimiser.
GCC_ONLY_OPTIONS = re.compile(r"-f(no-)?(ipa-|tree-|vect-cost-model|lto-partition|extern-tls-init)")


def build_command(test: Test, compiler: str, testsuite: Path, compiler_cmd: list[str]) -> list[str]:
    options = test.options
    if compiler == "clang":
        options = [o for o in options if not GCC_ONLY_OPTIONS.match(o)]
        options.append("-Wno-unknown-warning-option")
    flags = ["-fopenmp", *options, f"-I{test.path.parent}", f"-I{testsuite.parent}"]
    lang = ["-x", "c++"] if test.lang == "c++" and test.path.suffix == ".c" else []
    sources = [str(test.path), *map(str, test.sources)]
    return [*compiler_cmd, *flags, *lang, *sources, "-o", "a.out", "-lm", "-latomic"]


def output_ok(test: Test, outcome: Outcome) -> bool:
    """dg-shouldfail inverts the exit status; dg-output must match the output."""
    exit_ok = (outcome.status != 0) if test.should_fail else (outcome.status == 0)
    if not exit_ok:
        return False
    if test.output_regex:
        try:
            return re.search(test.output_regex, outcome.output) is not None
        except re.error:
            return True
    return True


SUITE = harness.Suite(
    name="libgomp", help=HELP, cache=DEFAULT_CACHE, known=DEFAULT_KNOWN,
    testsuite=fetch_testsuite, collect=collect_tests, build_command=build_command,
    run_command=lambda test: ["./a.out"], output_ok=output_ok)

if __name__ == "__main__":
    sys.exit(harness.main(sys.argv[1:], SUITE))
