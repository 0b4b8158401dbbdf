#!/usr/bin/python3
"""Runs one driver test case: a source file that carries its own command line,
expected exit status and expectations (include-what-you-use's tests/driver
style), for one underlying compiler.

Directives, one per comment line (`// DRIVER_<KEY>: <value>`):
  ARGS      ompp-instrument's arguments (required; may repeat to run several
            commands in order, each must meet EXIT)
  EXIT      expected exit status of the last ARGS command: a number or
            `nonzero` (default 0)
  WRITE     `<name>: <text>` writes an extra file into the source directory
            (`\\n` for newlines, placeholders expanded) before anything runs
  EXISTS / ABSENT   a path (relative to the work directory) that must / must
            not exist afterwards
  STDERR / STDOUT   a regular expression the output must match (re.search)
  NOT_STDERR / NOT_STDOUT   a regular expression the output must not match
  PROGRAM   run this sibling of ompp-instrument instead (ompp-cc, ompp-c++)
  ENV       `NAME=value` set in the environment of every command
  STDERR_LINES      exact number of stderr lines of the last command
  THEN      a shell command run afterwards in the work directory; must exit 0
            (Python in it can import ompp_profile, the one reader of profiles)
  THEN_STDOUT       regular expression its stdout must match
  COMPILERS         compiler families this case runs with (default: clang gcc)

Placeholders (escaped inside regular expressions): {tool} ompp-instrument, {cc}/{cxx} the C/C++ compiler under
test, {strict_cflags}/{strict_cxxflags} the strict warning set of real projects for C/C++ with that compiler
(STRICT_C, STRICT_CXX), {src} the case's source (copied into {dir}), {dir} the source
directory, {out} the work directory (the commands' current directory),
{bindir} the directory of ompp-instrument, {runtime} the option selecting the POMP2 library to link.

Every case also checks that nothing in the source directory changed (names
and SHA-256 of every file): the instrumenter never writes into a source tree.
"""
import argparse
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

SCRIPTS_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "scripts")

COMPILERS = {"clang": ("clang-16", "clang++-16"), "gcc": ("gcc", "g++")}
# The strict warning set of real projects, for {strict_cflags} and
# {strict_cxxflags}; -Wuseless-cast is g++'s only.
STRICT_COMMON = ("-Wall -Wextra -Wshadow -Wconversion -Wsign-conversion -Wcast-qual -Wundef -Wpedantic "
                 "-Wmissing-declarations -Wunused -Wredundant-decls")
STRICT_C = STRICT_COMMON + " -Wdeclaration-after-statement"
STRICT_CXX = {"clang": STRICT_COMMON + " -Wold-style-cast",
              "gcc": STRICT_COMMON + " -Wold-style-cast -Wuseless-cast"}

SKIP = 77


def directives(path):
    found = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"\s*(?://|#|/\*)\s*DRIVER_([A-Z_]+):\s?(.*?)\s*(\*/)?\s*$", line)
            if m:
                found.append((m.group(1), m.group(2)))
    return found


def tree_digest(root):
    digest = {}
    for base, _, files in os.walk(root):
        for name in files:
            p = os.path.join(base, name)
            with open(p, "rb") as f:
                digest[os.path.relpath(p, root)] = hashlib.sha256(f.read()).hexdigest()
    return digest


def fail(case, message):
    print(f"FAIL {case}: {message}")
    sys.exit(1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("case")
    parser.add_argument("--tool", required=True)
    parser.add_argument("--compiler", choices=sorted(COMPILERS), required=True)
    parser.add_argument("--runtime", default="DEFAULT",
                        help="value of {runtime}: an ompp-instrument option, DEFAULT (none "
                             "needed: libompp) or SKIP (no POMP2 library in this build)")
    parser.add_argument("--keep", action="store_true", help="keep the work directory")
    opts = parser.parse_args()

    case = os.path.basename(opts.case)
    entries = directives(opts.case)
    wanted = [v.split() for k, v in entries if k == "COMPILERS"]
    if wanted and opts.compiler not in wanted[0]:
        print(f"SKIP {case}: not a case for {opts.compiler}")
        sys.exit(SKIP)
    if "{runtime}" in open(opts.case, encoding="utf-8").read() and opts.runtime == "SKIP":
        print(f"SKIP {case}: no POMP2 library to link against in this build")
        sys.exit(SKIP)

    work = tempfile.mkdtemp(prefix="ompp-driver-test-")
    try:
        src_dir = os.path.join(work, "src")
        out_dir = os.path.join(work, "out")
        os.makedirs(src_dir)
        os.makedirs(out_dir)
        src = os.path.join(src_dir, case)
        shutil.copy(opts.case, src)
        cc, cxx = COMPILERS[opts.compiler]
        subst = {"tool": opts.tool, "bindir": os.path.dirname(opts.tool), "cc": cc, "cxx": cxx,
                 "strict_cflags": STRICT_C, "strict_cxxflags": STRICT_CXX[opts.compiler],
                 "src": src, "dir": src_dir, "out": out_dir,
                 "runtime": "" if opts.runtime == "DEFAULT" else opts.runtime}

        def expand(text, regex=False):
            def value(m):
                v = subst.get(m.group(1), m.group(0))
                return re.escape(v) if regex and m.group(1) in subst else v
            return re.sub(r"\{(\w+)\}", value, text)

        for key, value in entries:
            if key == "WRITE":
                name, _, text = expand(value).partition(":")
                target = os.path.join(src_dir, name.strip())
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with open(target, "w", encoding="utf-8") as f:
                    f.write(text.strip().replace("\\n", "\n") + "\n")
        before = tree_digest(src_dir)

        program = next((v for k, v in entries if k == "PROGRAM"), None)
        program = os.path.join(os.path.dirname(opts.tool), program) if program else opts.tool
        env = dict(os.environ)
        env.pop("OMPP_INSTRUMENT_OPTIONS", None)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [SCRIPTS_DIR, env.get("PYTHONPATH")]))
        for key, value in entries:
            if key == "ENV":
                name, _, text = expand(value).partition("=")
                env[name] = text

        expected_exit = next((v for k, v in entries if k == "EXIT"), "0")
        commands = [expand(v) for k, v in entries if k == "ARGS"]
        if not commands:
            fail(case, "no DRIVER_ARGS")
        result = None
        for i, args in enumerate(commands):
            argv = [program] + shlex.split(args)
            result = subprocess.run(argv, cwd=out_dir, capture_output=True, text=True,
                                    timeout=300, env=env)
            print(f"$ {shlex.join(argv)}\n[exit {result.returncode}]\n{result.stderr}", end="")
            last = i == len(commands) - 1
            ok = (result.returncode != 0 if expected_exit == "nonzero"
                  else result.returncode == int(expected_exit)) if last else result.returncode == 0
            if not ok:
                fail(case, f"exit status {result.returncode}, expected "
                           f"{expected_exit if last else 0}")

        for key, value in entries:
            value = expand(value, regex=key in ("STDERR", "STDOUT", "NOT_STDERR", "NOT_STDOUT"))
            if key == "EXISTS" and not os.path.exists(os.path.join(out_dir, value)):
                fail(case, f"{value} was not created")
            elif key == "ABSENT" and os.path.exists(os.path.join(out_dir, value)):
                fail(case, f"{value} exists but must not")
            elif key == "STDERR" and not re.search(value, result.stderr, re.M):
                fail(case, f"stderr does not match /{value}/")
            elif key == "NOT_STDERR" and re.search(value, result.stderr, re.M):
                fail(case, f"stderr matches /{value}/")
            elif key == "NOT_STDOUT" and re.search(value, result.stdout, re.M):
                fail(case, f"stdout matches /{value}/")
            elif key == "STDOUT" and not re.search(value, result.stdout, re.M):
                fail(case, f"stdout does not match /{value}/:\n{result.stdout[:2000]}")
            elif key == "STDERR_LINES" and len(result.stderr.splitlines()) != int(value):
                fail(case, f"stderr has {len(result.stderr.splitlines())} lines, expected {value}")
        then_out = ""
        for key, value in entries:
            if key == "THEN":
                then = subprocess.run(expand(value), shell=True, cwd=out_dir, env=env,
                                      capture_output=True, text=True, timeout=300)
                print(f"$ {expand(value)}\n[exit {then.returncode}]\n{then.stderr}", end="")
                if then.returncode != 0:
                    fail(case, f"`{expand(value)}` failed")
                then_out += then.stdout
        for key, value in entries:
            if key == "THEN_STDOUT" and not re.search(expand(value, regex=True), then_out, re.M):
                fail(case, f"output of THEN does not match /{value}/:\n{then_out[:2000]}")

        after = tree_digest(src_dir)
        if after != before:
            changed = sorted(set(after.items()) ^ set(before.items()))
            fail(case, f"the source directory changed: {changed}")
        print(f"PASS {case} ({opts.compiler})")
    finally:
        if opts.keep:
            print(f"work directory kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
