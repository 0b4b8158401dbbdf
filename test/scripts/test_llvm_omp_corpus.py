"""The LLVM OpenMP corpus' reading of lit RUN/REQUIRES/UNSUPPORTED/XFAIL
lines, on literal sources (no LLVM test is copied here)."""

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
sys.path.insert(0, str(SCRIPTS))  # corpus_harness, which the script imports
spec = importlib.util.spec_from_file_location("llvm_omp_corpus", SCRIPTS / "llvm-omp-corpus.py")
corpus = importlib.util.module_from_spec(spec)
sys.modules["llvm_omp_corpus"] = corpus  # dataclasses look their module up
spec.loader.exec_module(corpus)

CLANG = frozenset({"clang", "clang-16", "clang-16.0", "clang-16.0.6", "linux", "multicpu"})
GCC = frozenset({"gcc", "gcc-12", "gcc-12.2", "gcc-12.2.0", "linux", "multicpu"})


def programs_of(tmp_path, text, name="t.c"):
    (tmp_path / "sub").mkdir(exist_ok=True)
    path = tmp_path / "sub" / name
    path.write_text(text)
    return corpus.read_tests(tmp_path, path)


@pytest.mark.parametrize("expression, clang, gcc", [
    ("gcc", False, True),
    ("gcc-4, gcc-5", False, False),
    ("clang-16", True, False),
    ("!clang", False, True),
    ("linux && !gcc-12", True, False),
    ("(gcc || clang) && multicpu", True, True),
    ("clang-{{1[0-9]}}", True, False),
    ("*", True, True),
])
def test_lit_expressions(expression, clang, gcc):
    assert corpus.holds([expression], CLANG) == clang
    assert corpus.holds([expression], GCC) == gcc


def test_run_lines_continue_and_share_one_build(tmp_path):
    tests, why = programs_of(tmp_path, "// RUN: %libomp-compile-and-run\n"
                                    "// RUN: %libomp-compile && env KMP_BLOCKTIME=infinite \\\n"
                                    "// RUN:   %libomp-run 3 | FileCheck %s\n")
    assert why is None and len(tests) == 1
    test = tests[0]
    assert test.id == "sub/t.c" and test.suite == "sub" and test.lang == "c" and test.flags == []
    assert test.run_script == ("./a.out && env KMP_BLOCKTIME=infinite ./a.out 3 | "
                               "/usr/lib/llvm-16/bin/FileCheck $TEST_SOURCE")


def test_different_builds_are_separate_tests(tmp_path):
    tests, _ = programs_of(tmp_path, "// RUN: %libomp-compile -DA && %libomp-run\n"
                                  "// RUN: %libomp-cxx-compile-c && %libomp-run 2>&1 | %sort-threads\n")
    assert [(t.id, t.lang, t.flags) for t in tests] == [
        ("sub/t.c", "c", ["-DA"]), ("sub/t.c@2", "c++", ["-std=c++17", "-x", "c++"])]
    assert tests[1].run_script == "./a.out 2>&1 | sort -n -s"


@pytest.mark.parametrize("text, why", [
    ("int main() {}\n", "no RUN line"),
    ("// RUN: %libomp-compile\n", "RUN lines only compile"),
    ("// RUN: %clang %flags -DTOOL -shared -fPIC %s -o %T/tool.so\n",
     "builds something other than the test program"),
    ("// RUN: %libomp-compile && env OMP_TOOL_LIBRARIES=%T/tool.so %libomp-run\n",
     "RUN lines use a tool library or a second build"),
])
def test_not_run(tmp_path, text, why):
    assert programs_of(tmp_path, text) == ([], why)


def test_a_direct_compile_is_the_test_program(tmp_path):
    tests, _ = programs_of(tmp_path, "// RUN: %clang %openmp_flags %flags-use-compiler-omp-h %s -o %t"
                                  " && %libomp-run\n")
    assert tests[0].flags == [] and tests[0].run_script == "./a.out"


def test_unsupported_and_libomp_only_api_per_compiler(tmp_path, monkeypatch):
    monkeypatch.setattr(corpus, "compiler_features", {"clang": CLANG, "gcc": GCC}.get)
    tests, _ = programs_of(tmp_path, "// RUN: %libomp-compile-and-run\n// UNSUPPORTED: gcc-4, gcc-12\n")
    assert list(tests[0].unsupported) == ["gcc"]
    tests, _ = programs_of(tmp_path, "// RUN: %libomp-compile-and-run\n// REQUIRES: ompt\n")
    assert set(tests[0].unsupported) == {"clang", "gcc"}
    tests, _ = programs_of(tmp_path, "// RUN: %libomp-compile-and-run\n// XFAIL: gcc\n"
                                  "int main() { kmp_set_defaults(\"x\"); }\n")
    assert tests[0].unsupported == {"gcc": "calls libomp's own API (kmp_*, __kmpc_*, OMPT)"}
    assert tests[0].xfail == ["gcc"]
