#!/usr/bin/python3
"""Both front ends, one model: every rewriter test input is instrumented once
through Clang's AST and once through the textual fallback front end
(ompp_rewrite --textual), and the outputs (source, warnings, notes) must be
the same.  An input where the textual front end knows less by design (macros
it does not expand, lambdas, Clang's metadirective choice, code only Clang
rejects) says so in a line `// TEXTUAL-DIFFERS: <reason>`; for those the
textual output must still be produced (or the error be the same)."""
import argparse
import re
import subprocess
import sys


def rewrite(rewriter, include, case, lang, args, rewrite_args, textual):
    cmd = [rewriter] + rewrite_args + (["--textual"] if textual else []) + [case, "--"] + lang + \
        ["-I", include] + args
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rewriter", required=True)
    ap.add_argument("--include", required=True)
    ap.add_argument("cases", nargs="+")
    a = ap.parse_args()
    failures = []
    for case in a.cases:
        text = open(case, encoding="utf-8").read()
        def values(key):
            m = re.search(r"^\s*//\s*" + key + r":\s*(.*)$", text, re.M)
            return m.group(1).split() if m else []
        args, rewrite_args = values("ARGS"), values("REWRITE-ARGS")
        differs = re.search(r"^\s*//\s*TEXTUAL-DIFFERS:", text, re.M)
        # As run_case.py builds them: a .c input also as C++ unless C-ONLY.
        c_only = re.search(r"^\s*//\s*C-ONLY", text, re.M)
        languages = [["-xc++"]] if case.endswith(".cpp") else [[]] if c_only else [[], ["-xc++"]]
        for lang in languages:
            failures += compare(a, case, lang, args, rewrite_args, differs)
    for f in failures:
        print("FAIL: " + f)
    print(f"{len(a.cases)} inputs, {len(failures)} failures")
    return 1 if failures else 0


def compare(a, case, lang, args, rewrite_args, differs):
    case_name = case + (" (C++)" if lang else "")
    ast = rewrite(a.rewriter, a.include, case, lang, args, rewrite_args, False)
    textual = rewrite(a.rewriter, a.include, case, lang, args, rewrite_args, True)
    if differs:
        if ast[0] == 0 and textual[0] != 0:
            return [f"{case_name}: the textual front end fails: {textual[2][:500]}"]
        return [f"{case_name}: marked TEXTUAL-DIFFERS, but both front ends agree"] if ast == textual else []
    if ast != textual:
        which = "source" if ast[1] != textual[1] else "status" if ast[0] != textual[0] else "messages"
        return [f"{case_name}: the front ends differ ({which}):\n--- AST\n{ast[2]}{ast[1][:3000]}"
                f"\n--- textual\n{textual[2]}{textual[1][:3000]}"]
    return []


if __name__ == "__main__":
    sys.exit(main())
