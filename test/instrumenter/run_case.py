#!/usr/bin/python3
"""Instrument one test input, build it with clang-16 and g++-12, run it with
1 and 2 threads against the POMP2 event recorder and check its event stream.

The expectations live in the input as comments (one construct per file):

  // ARGS: -std=c++17              clang/compiler flags for this input
  // COMPILERS: clang              only these compilers (default: clang gcc)
  // REWRITE-ARGS: --opari2        options of the test front end (ompp_rewrite)
  // EXPECT-WARNING: <regex>       rewriter stderr must match (else: no warnings allowed)
  // EXPECT-REWRITE-ERROR          rewriting must fail and print nothing on stdout
  // EXPECT-UNCHANGED              the output must equal the input
  // STDOUT: <text>                the program's stdout (with 1 and 2 threads)
  // T1: Call type[@line]; ...     thread 0's exact event sequence with 1 thread
  // T1.PREFIX: ...                 how thread 0's sequence starts with 1 thread
  // T2.<t>: ...                   thread t's exact sequence with 2 threads
  // T2.COUNT: Call type = <n>     number of such events over all threads (2 threads; T1.COUNT: 1)
  // NO-BALANCE                    skip the check that begin/end events nest per thread
  // C-ONLY                        a .c input is otherwise also checked as C++ (-xc++)
  // EXPECT-SYMBOL: <regex>        a symbol (nm) of the program, e.g. POMP2_Init_reg_...
  // EXPECT-CTC: <regex>           a region description (CTC string) in the output, e.g. function=...
  // EXPECT-COMPILER-WARNING: <re> both compilers warn like this (-Wall): checks #line mapping
  // ENV: NAME=value               set when the program runs (e.g. OMP_CANCELLATION=true)
  // JOIN-BARRIER: type@line        a worksharing construct ending its parallel region: GCC leaves
                                   its implicit barrier to the region's join barrier, Clang keeps a
                                   measured one (docs/instrumenter.md); sequences are written in
                                   GCC's form, Clang's barrier events of it are left out
Sequences may continue over several lines with the same key.
"""
import argparse
import os
import re
import subprocess
import sys

COMPILERS = {
    "clang": {".c": "clang-16", ".cpp": "clang++-16", "recorder": "clang-16"},
    "gcc": {".c": "gcc-12", ".cpp": "g++-12", "recorder": "gcc-12"},
}


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


# Expectation keys by how their values are collected.
SPLIT_KEYS = {"ARGS": "args", "REWRITE-ARGS": "rewrite_args", "COMPILERS": "compilers", "ENV": "env"}
LIST_KEYS = {"EXPECT-WARNING": "warnings", "EXPECT-SYMBOL": "symbols", "EXPECT-CTC": "ctcs",
             "EXPECT-COMPILER-WARNING": "compiler_warnings", "JOIN-BARRIER": "join_barriers"}
FLAG_KEYS = {"C-ONLY": ("c_only", True), "EXPECT-REWRITE-ERROR": ("rewrite_error", True),
             "EXPECT-UNCHANGED": ("unchanged", True), "NO-BALANCE": ("balance", False)}


def parse_expectations(text):
    exp = {"seq": {}, "count": [], "stdout": None, "rewrite_error": False, "unchanged": False,
           "balance": True, "c_only": False}
    for field in list(SPLIT_KEYS.values()) + list(LIST_KEYS.values()):
        exp[field] = []
    for line in text.splitlines():
        m = re.match(r"\s*//\s*([A-Z0-9.\-]+):?\s?(.*)$", line)
        if not m:
            continue
        key, value = m.group(1), m.group(2).strip()
        if key in SPLIT_KEYS:
            exp[SPLIT_KEYS[key]] += value.split()
        elif key in LIST_KEYS:
            exp[LIST_KEYS[key]].append(value)
        elif key in FLAG_KEYS:
            field, flag = FLAG_KEYS[key]
            exp[field] = flag
        elif key == "STDOUT":
            exp["stdout"] = value
        elif key in ("T1.COUNT", "T2.COUNT"):
            call, n = value.rsplit("=", 1)
            exp["count"].append((int(key[1]), call.strip(), int(n)))
        elif re.fullmatch(r"T1|T2\.\d+|T1\.PREFIX", key):
            items = [i.strip() for i in value.split(";") if i.strip()]
            exp["seq"].setdefault(key, []).extend(items)
    return exp


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def check_balance(events, label):
    stack = []
    for call, rtype, line in events:
        for opener, closer in (("_enter", "_exit"), ("_begin", "_end"), ("_fork", "_join"),
                               ("Begin", "End")):
            if call.endswith(opener):
                stack.append((call[: -len(opener)] + closer, rtype, line))
                break
            if call.endswith(closer):
                want = (call, rtype, line)
                if not stack or stack[-1] != want:
                    fail(f"{label}: {call} {rtype} {line} closes {stack[-1] if stack else 'nothing'}")
                stack.pop()
                break
    if stack:
        fail(f"{label}: events left open: {stack}")


def matches(item, event):
    call, rtype, line = event
    m = re.fullmatch(r"(\S+)\s+(\S+?)(?:@(\d+))?", item)
    if not m:
        fail(f"bad expectation item '{item}'")
    return m.group(1) == call and m.group(2) == rtype and (m.group(3) is None or m.group(3) == line)


def check_sequence(expected, events, label):
    shown = "; ".join(f"{c} {t}@{l}" for c, t, l in events)
    if len(expected) != len(events) or not all(matches(i, e) for i, e in zip(expected, events)):
        fail(f"{label}: event sequence differs\n  expected: {'; '.join(expected)}\n  actual:   {shown}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rewriter", required=True)
    ap.add_argument("--include", required=True)
    ap.add_argument("--recorder", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("case")
    a = ap.parse_args()

    case = os.path.abspath(a.case)
    name, ext = os.path.splitext(os.path.basename(case))
    with open(case) as f:
        source = f.read()
    exp = parse_expectations(source)
    languages = [ext] if ext == ".cpp" or exp["c_only"] else [".c", ".cpp"]
    for lang_ext in languages:
        check_language(a, case, name, source, exp, lang_ext)


def check_language(a, case, name, source, exp, ext):
    """Rewrites, builds and runs the case as C (ext ".c") or C++ (".cpp")."""
    work = os.path.join(os.path.abspath(a.workdir), name + ext.replace(".", "-"))
    os.makedirs(work, exist_ok=True)
    lang = ["-xc++"] if ext == ".cpp" else ["-xc"]

    rw = run([a.rewriter] + exp["rewrite_args"] + [case, "--"] + lang + ["-I", a.include] + exp["args"])
    if exp["rewrite_error"]:
        if rw.returncode == 0 or rw.stdout:
            fail("rewriting should have failed without output")
        if not re.search(re.escape(os.path.basename(case)) + r":\d+:\d+: error:", rw.stderr):
            fail("no file:line:col diagnostic: " + rw.stderr)
        print(f"ok ({ext}): rewrite error reported:\n" + rw.stderr)
        return
    if rw.returncode != 0:
        fail("rewriter failed:\n" + rw.stderr)
    for pattern in exp["warnings"]:
        if not re.search(pattern, rw.stderr):
            fail(f"rewriter stderr lacks /{pattern}/:\n{rw.stderr}")
    if not exp["warnings"] and "warning:" in rw.stderr:
        fail("unexpected rewriter warning:\n" + rw.stderr)
    if exp["unchanged"]:
        if rw.stdout != source:
            fail("output differs from the already instrumented input")
        print(f"ok ({ext}): unchanged")
        return
    if not rw.stdout.startswith("#define OMPP_INSTRUMENTED 1"):
        fail("output lacks the OMPP_INSTRUMENTED marker")
    ctcs = re.findall(r'^  "(\d+\*.*\*\*)",$', rw.stdout, re.M)
    for pattern in exp["ctcs"]:
        if not any(re.search(pattern, c) for c in ctcs):
            fail(f"no region description matches /{pattern}/:\n" + "\n".join(ctcs))
    out_src = os.path.join(work, name + ".ompp" + ext)
    with open(out_src, "w") as f:
        f.write(rw.stdout)

    for comp, tools in COMPILERS.items():
        if exp["compilers"] and comp not in exp["compilers"]:
            continue
        rec_obj = os.path.join(work, f"recorder.{comp}.o")
        r = run([tools["recorder"], "-std=c11", "-fopenmp", "-I", a.include, "-c", a.recorder, "-o", rec_obj])
        if r.returncode != 0:
            fail(f"{comp}: recorder does not compile:\n{r.stderr}")
        exe = os.path.join(work, f"{name}.{comp}")
        cmd = [tools[ext], "-fopenmp", "-g", "-Wall", "-I", a.include, "-iquote", os.path.dirname(case)] + \
            [x for x in exp["args"] if not x.startswith("-x")] + [out_src, rec_obj, "-o", exe]
        r = run(cmd, cwd=work)
        if r.returncode != 0:
            fail(f"{ext} with {comp}: instrumented source does not compile ({' '.join(cmd)}):\n{r.stderr}")
        for pattern in exp["compiler_warnings"]:
            if not re.search(pattern, r.stderr):
                fail(f"{comp}: compiler output lacks /{pattern}/:\n{r.stderr}")
        if exp["symbols"]:
            nm = run(["nm", exe]).stdout
            for pattern in exp["symbols"]:
                if not re.search(pattern, nm, re.M):
                    fail(f"{comp}: no symbol /{pattern}/ in the program")
        for threads in (1, 2):
            log = os.path.join(work, f"events.{comp}.{threads}")
            env = dict(os.environ, OMP_NUM_THREADS=str(threads), OMPP_TEST_EVENTS=log)
            env.update(item.split("=", 1) for item in exp["env"])
            try:
                r = run([exe], env=env, timeout=60)
            except subprocess.TimeoutExpired:
                fail(f"{ext} with {comp}, {threads} thread(s): the program hangs")
            label = f"{ext} with {comp}, {threads} thread(s)"
            if r.returncode != 0:
                fail(f"{label}: program exited with {r.returncode}:\n{r.stderr}")
            if exp["stdout"] is not None and r.stdout.strip() != exp["stdout"]:
                fail(f"{label}: stdout '{r.stdout.strip()}' != '{exp['stdout']}'")
            per_thread = {}
            with open(log) as f:
                for line in f:
                    tid, call, rtype, rline = line.split()
                    if call == "error":
                        fail(f"{label}: recorder reports {line.strip()}")
                    if comp == "clang" and call.startswith("Implicit_barrier_") and \
                            f"{rtype}@{rline}" in exp["join_barriers"]:
                        continue
                    per_thread.setdefault(int(tid[1:]), []).append((call, rtype, rline))
            if exp["balance"]:
                for tid, events in per_thread.items():
                    check_balance(events, f"{label}, thread {tid}")
            for key, items in exp["seq"].items():
                if key == "T1" and threads == 1:
                    check_sequence(items, per_thread.get(0, []), label)
                elif key == "T1.PREFIX" and threads == 1:
                    check_sequence(items, per_thread.get(0, [])[: len(items)], label)
                elif key.startswith("T2.") and threads == 2:
                    check_sequence(items, per_thread.get(int(key[3:]), []), f"{label}, thread {key[3:]}")
            for count_threads, call, n in exp["count"]:
                if count_threads == threads:
                    got = sum(1 for evs in per_thread.values() for e in evs if matches(call, e))
                    if got != n:
                        fail(f"{label}: {got} events '{call}', expected {n}")
    print(f"ok: {name} as {ext}")


if __name__ == "__main__":
    main()
