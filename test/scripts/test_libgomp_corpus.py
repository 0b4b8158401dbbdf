"""The libgomp corpus' reading of DejaGnu directives and its classification
helpers, on literal sources (no GCC test is copied here)."""

import importlib.util
import json
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
SCRIPT = SCRIPTS / "libgomp-corpus.py"
sys.path.insert(0, str(SCRIPTS))  # corpus_harness, which the script imports
spec = importlib.util.spec_from_file_location("libgomp_corpus", SCRIPT)
corpus = importlib.util.module_from_spec(spec)
sys.modules["libgomp_corpus"] = corpus  # dataclasses look their module up
spec.loader.exec_module(corpus)
harness = corpus.harness


def fields(text: str, name: str = "t.c"):
    return corpus.test_fields(Path("/suite/libgomp.c") / name, text)


def test_tcl_words_keep_braces_and_substitute_quotes():
    assert corpus.tcl_words('run { target { a && b } }') == ["run", " target { a && b } "]
    assert corpus.tcl_words(r'"x(\n|\r)" VAR') == ["x(\n|\r)", "VAR"]


def test_directives_with_nested_braces():
    found = corpus.dg_directives('/* { dg-do run { target lp64 } } */\n// { dg-options "-O0" }\n')
    assert found == [("dg-do", ["run", " target lp64 "]), ("dg-options", ["-O0"])]


def test_default_action_is_run_with_o2():
    reason, f = fields("int main(void) { return 0; }\n")
    assert reason is None and f["options"] == ["-O2"] and not f["should_fail"]


@pytest.mark.parametrize("text, why", [
    ("/* { dg-do compile } */", "dg-do compile"),
    ("/* { dg-do link } */", "dg-do link"),
    ("/* { dg-do run { target offload_device_nonshared_as } } */", "dg-do run not for this target"),
    ("/* { dg-require-effective-target offload_device } */", "requires offload_device"),
    ('/* { dg-skip-if "" { *-*-* } } */', "dg-skip-if"),
])
def test_not_run_here(text, why):
    assert fields(text)[0] == why


def test_options_selectors_env_and_output():
    text = ('/* { dg-options "-O1 -fdump-tree-gimple" } */\n'
            '/* { dg-additional-options "-mavx" { target avx_nonexistent } } */\n'
            '/* { dg-additional-options "-DX=1" { target { x86_64-*-* && lp64 } } } */\n'
            '/* { dg-additional-sources "helper.c" } */\n'
            '/* { dg-set-target-env-var OMP_CANCELLATION "true" } */\n'
            '/* { dg-shouldfail "error directive" } */\n'
            '/* { dg-output "answer (\\n|\\r)+" } */\n')
    reason, f = fields(text)
    assert reason is None
    assert f["options"] == ["-O1", "-DX=1"]
    assert f["sources"] == [Path("/suite/libgomp.c/helper.c")]
    assert f["env"] == {"OMP_CANCELLATION": "true"}
    assert f["should_fail"] and f["output_regex"] == "answer (\n|\r)+"


def test_construct_family_prefers_rarer_constructs():
    assert corpus.construct_family("#pragma omp parallel\n#pragma omp task\n") == "task"
    assert corpus.construct_family("#pragma omp parallel for\n") == "loop"
    assert corpus.construct_family("omp_set_lock(&l);\n#pragma omp parallel\n") == "lock"
    assert corpus.construct_family("int main() {}\n") == "api"


def result(test, compiler, category, **kw):
    return harness.Result(test=test, compiler=compiler, family="loop", category=category, **kw)


def test_uninstrumented_is_the_tools_warning_not_a_path_with_ompp_in_it():
    construct = "/root/.cache/ompp/t.c:3: warning: not instrumented: 'scope' is not supported"
    unchanged = ("ompp-instrument: warning: /root/.cache/ompp/t.c is compiled unchanged, without "
                 "measurement: Clang cannot parse it (t.c:1:2: error: x)")
    assert harness.UNINSTRUMENTED.search(construct) is None
    assert harness.CONSTRUCT_NOT_INSTRUMENTED.search(construct)
    assert harness.UNINSTRUMENTED.search(unchanged)


def test_summary_excludes_plain_failures_from_the_denominator():
    rows = [result("a", "gcc", "pass"), result("b", "gcc", "uninstrumented"),
            result("c", "gcc", "runs-differently"), result("d", "gcc", "plain-build-fails"),
            result("e", "gcc", "plain-run-fails")]
    row = harness.summary(rows)["gcc"]
    assert row["denominator"] == 3
    assert row["same-result-%"] == pytest.approx(66.67)
    assert row["instrumented-%"] == pytest.approx(33.33)


def test_known_differences_match_globs_and_compiler(tmp_path):
    known = tmp_path / "known.txt"
    known.write_text("# comment\nlibgomp.c/lock-*.c gcc nest locks\n")
    ids = {"libgomp.c/lock-3.c", "libgomp.c/x.c", "libgomp.c-c++-common/y.c@c"}
    entries = harness.load_known(known, ids)
    assert harness.known_reason(entries, result("libgomp.c/lock-3.c", "gcc", "crash")) == "nest locks"
    assert harness.known_reason(entries, result("libgomp.c/lock-3.c", "clang", "crash")) == ""
    known.write_text("libgomp.c/x.c icc reason\n")
    with pytest.raises(SystemExit):
        harness.load_known(known, ids)


def test_a_known_difference_that_names_no_test_is_an_error(tmp_path, capsys):
    known = tmp_path / "known.txt"
    ids = {"libgomp.c-c++-common/y.c@c", "libgomp.c-c++-common/y.c@c++"}
    known.write_text("libgomp.c-c++-common/y.c@* clang flaky\n")
    assert harness.load_known(known, ids)[0][0] == "libgomp.c-c++-common/y.c@*"
    known.write_text("libgomp.c-c++-common/y.c clang flaky\n")  # without @c/@c++ it matches nothing
    with pytest.raises(SystemExit):
        harness.load_known(known, ids)
    assert "known.txt:1: `libgomp.c-c++-common/y.c` names no run test" in capsys.readouterr().err


def test_rerun_selects_only_earlier_failures(tmp_path):
    tests = [corpus.Test(suite="libgomp.c", path=Path(f"/s/libgomp.c/{n}.c"), lang="c", options=[],
                         sources=[], env={}, should_fail=False, output_regex=None, family="api")
             for n in ("a", "b")]
    previous = tmp_path / "results.json"
    previous.write_text(json.dumps({"results": [
        {"test": "libgomp.c/a.c", "compiler": "gcc", "category": "build-fails"},
        {"test": "libgomp.c/b.c", "compiler": "gcc", "category": "pass"}]}))
    args = harness.parse_args(["--compiler", "gcc", "--rerun", str(previous), "-o", str(tmp_path / "o")],
                              corpus.SUITE)
    pairs, unknown = harness.select(tests, args, corpus.SUITE)
    assert [(t.id, c) for t, c in pairs] == [("libgomp.c/a.c", "gcc")] and not unknown
