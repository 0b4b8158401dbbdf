#!/usr/bin/python3
"""Clause placement of split combined constructs, clause by clause.

ompp splits `parallel for`, `parallel for simd`, `parallel sections`,
`parallel loop` and `parallel masked/master` into `parallel` + the inner
construct (instrumenter/plan/ClausePlacement.cpp).  Each row of TABLE below is
a small program around one combined construct and the clauses it exercises,
with the leaf each of those clauses must land on.  For each row and for
clang-16 and gcc-12, as C and as C++, the program is built plain and through
the rewriter (linked with the POMP2 event recorder), both are run with 1 and 2
threads, and
  * the instrumented program prints what the plain one prints,
  * the clauses are on the leaves the table says,
  * the event stream nests per thread and has the construct's fork/join.
The plain build is the oracle: no expected values are written here.

  combined_clauses.py --list                  row names (CTest makes one test each)
  combined_clauses.py --rewriter R --include I --recorder REC --workdir W ROW...
"""
import argparse
import os
import sys
from dataclasses import dataclass, field

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_case  # noqa: E402  (event-stream checks shared with the case runner)


@dataclass
class Row:
    name: str
    code: str                 # body of main(): declarations, the construct, printf
    parallel: list = field(default_factory=list)  # clauses that must be on `parallel`
    inner: list = field(default_factory=list)     # clauses that must be on the inner construct
    top: str = ""             # file-scope declarations
    languages: tuple = (".c", ".cpp")
    compilers: tuple = ("clang", "gcc")
    whole_for_clang: bool = False  # Clang compiles it unsplit (#ifndef __clang__): no events


TABLE = [
    # --- parallel for -------------------------------------------------------
    Row("num_threads", """
  int t[8] = {0};
  #pragma omp parallel for num_threads(2) schedule(static, 1)
  for (int i = 0; i < 8; ++i) t[i] = omp_get_num_threads();
  printf("%d %d\\n", t[0], t[7]);""", parallel=["num_threads(2)"], inner=["schedule(static, 1)"]),
    Row("if_unmodified", """
  int t[8] = {0}, n = 0;
  #pragma omp parallel for if(n > 0)
  for (int i = 0; i < 8; ++i) t[i] = omp_get_num_threads();
  printf("%d\\n", t[7]);""", parallel=["if(n > 0)"]),
    Row("if_parallel", """
  int t[8] = {0}, n = 0;
  #pragma omp parallel for if(parallel: n > 0)
  for (int i = 0; i < 8; ++i) t[i] = omp_get_num_threads();
  printf("%d\\n", t[7]);""", parallel=["if(parallel: n > 0)"]),
    Row("proc_bind", """
  int b[8] = {0};
  #pragma omp parallel for proc_bind(close)
  for (int i = 0; i < 8; ++i) b[i] = (int)omp_get_proc_bind();
  printf("%d\\n", b[3]);""", parallel=["proc_bind(close)"]),
    Row("copyin", """
  int v[8] = {0};
  tp = 7;
  #pragma omp parallel for copyin(tp)
  for (int i = 0; i < 8; ++i) v[i] = tp;
  printf("%d %d\\n", v[0], v[7]);""", top="int tp;\n#pragma omp threadprivate(tp)\n",
        parallel=["copyin(tp)"]),
    Row("default_none_counter_outside", """
  int a[64], i;
  #pragma omp parallel for default(none) shared(a)
  for (i = 0; i < 64; ++i) a[i] = 2 * i;
  printf("%d\\n", a[63]);""", parallel=["default(none)", "shared(a)", "shared(i)"]),
    Row("private", """
  int x = 5, a[16];
  #pragma omp parallel for private(x) default(none) shared(a)
  for (int i = 0; i < 16; ++i) { x = i; a[i] = x * x; }
  printf("%d %d\\n", x, a[15]);""", parallel=["private(x)", "default(none)", "shared(a)"]),
    Row("firstprivate", """
  int x = 5, a[16];
  #pragma omp parallel for firstprivate(x) default(none) shared(a)
  for (int i = 0; i < 16; ++i) a[i] = x + i;
  printf("%d %d\\n", x, a[15]);""", inner=["firstprivate(x)"], parallel=["shared(x)"]),
    Row("lastprivate", """
  int x = -1;
  #pragma omp parallel for lastprivate(x) default(none)
  for (int i = 0; i < 16; ++i) x = i * 3;
  printf("%d\\n", x);""", inner=["lastprivate(x)"], parallel=["default(none)", "shared(x)"]),
    Row("firstprivate_lastprivate_same_variable", """
  int x = 10;
  #pragma omp parallel for firstprivate(x) lastprivate(x) default(none)
  for (int i = 0; i < 16; ++i) x += i;
  printf("%d\\n", x >= 25);""", inner=["firstprivate(x)", "lastprivate(x)"], parallel=["shared(x)"]),
    Row("lastprivate_conditional", """
  int x = -1, a[32];
  for (int k = 0; k < 32; ++k) a[k] = k % 7 == 3;
  #pragma omp parallel for lastprivate(conditional: x)
  for (int i = 0; i < 32; ++i) if (a[i]) x = i;
  printf("%d\\n", x);""", inner=["lastprivate(conditional: x)"]),
    Row("reduction", """
  long s = 0;
  #pragma omp parallel for reduction(+: s) default(none)
  for (int i = 0; i < 1000; ++i) s += i;
  printf("%ld\\n", s);""", inner=["reduction(+: s)"], parallel=["shared(s)"]),
    Row("reduction_array_section", """
  int h[4] = {0};
  #pragma omp parallel for reduction(+: h[0:4]) default(none)
  for (int i = 0; i < 100; ++i) h[i % 4] += i;
  printf("%d %d\\n", h[0], h[3]);""", inner=["reduction(+: h[0:4])"], parallel=["shared(h)"]),
    Row("reduction_task", """
  int s = 0;
  #pragma omp parallel for reduction(task, +: s)
  for (int i = 0; i < 16; ++i) {
    #pragma omp task in_reduction(+: s)
    s += i;
  }
  printf("%d\\n", s);""", inner=["reduction(task, +: s)"]),
    Row("reduction_inscan", """
  int a[64], b[64], s = 0;
  for (int k = 0; k < 64; ++k) a[k] = k;
  #pragma omp parallel for reduction(inscan, +: s)
  for (int i = 0; i < 64; ++i) {
    s += a[i];
    #pragma omp scan inclusive(s)
    b[i] = s;
  }
  printf("%d %d %d\\n", s, b[10], b[63]);""", inner=["reduction(inscan, +: s)"], whole_for_clang=True),
    Row("linear", """
  int j = 0, a[32];
  #pragma omp parallel for linear(j: 2) default(none) shared(a)
  for (int i = 0; i < 16; ++i) { a[i] = j; j += 2; }
  printf("%d %d\\n", a[15], j);""", inner=["linear(j: 2)"], parallel=["shared(a)", "shared(j)"]),
    Row("schedule_collapse", """
  int a[8][8];
  #pragma omp parallel for collapse(2) schedule(dynamic, 3)
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) a[i][j] = i * j;
  printf("%d\\n", a[7][7]);""", inner=["collapse(2)", "schedule(dynamic, 3)"]),
    Row("ordered", """
  int seq[16], n = 0;
  #pragma omp parallel for ordered schedule(static, 1)
  for (int i = 0; i < 16; ++i) {
    #pragma omp ordered
    seq[n++] = i;
  }
  printf("%d %d %d\\n", seq[0], seq[5], seq[15]);""", inner=["ordered", "schedule(static, 1)"]),
    Row("order_concurrent", """
  int a[32];
  #pragma omp parallel for order(concurrent)
  for (int i = 0; i < 32; ++i) a[i] = i + 1;
  printf("%d\\n", a[31]);""", inner=["order(concurrent)"]),
    Row("allocate_with_privatising_clause", """
  int x = 3, y = 0, a[16];
  #pragma omp parallel for private(x) lastprivate(y) allocate(omp_default_mem_alloc: x, y)
  for (int i = 0; i < 16; ++i) { x = i; y = x + 1; a[i] = y; }
  printf("%d %d\\n", y, a[0]);""", parallel=["private(x)", "allocate(omp_default_mem_alloc: x)"],
        inner=["lastprivate(y)", "allocate(omp_default_mem_alloc: y)"]),
    # --- parallel for simd --------------------------------------------------
    Row("simd_default_none_counter_lastprivate", """
  int a[64], i;
  #pragma omp parallel for simd default(none) shared(a)
  for (i = 0; i < 64; ++i) a[i] = i;
  printf("%d %d\\n", i, a[63]);""", parallel=["default(none)", "shared(a)", "shared(i)"]),
    Row("simd_collapse_counters_lastprivate", """
  int a[8][8], i, j;
  #pragma omp parallel for simd collapse(2) default(none) shared(a)
  for (i = 0; i < 8; ++i)
    for (j = 0; j < 8; ++j) a[i][j] = i + j;
  printf("%d %d %d\\n", i, j, a[7][7]);""", inner=["collapse(2)"], parallel=["shared(i, j)"]),
    Row("simd_if_modifiers", """
  int t[8] = {0}, n = 0;
  #pragma omp parallel for simd if(parallel: n > 0) if(simd: n > 1)
  for (int i = 0; i < 8; ++i) t[i] = i * 2;
  printf("%d\\n", t[7]);""", parallel=["if(parallel: n > 0)"], inner=["if(simd: n > 1)"]),
    Row("simd_if_unmodified", """
  int t[8] = {0}, n = 0;
  #pragma omp parallel for simd if(n > 0)
  for (int i = 0; i < 8; ++i) t[i] = i * 2;
  printf("%d\\n", t[7]);""", parallel=["if(n > 0)"], inner=["if(n > 0)"]),
    Row("simd_safelen_simdlen_aligned_nontemporal", """
  static float a[64] __attribute__((aligned(64))), b[64] __attribute__((aligned(64)));
  for (int k = 0; k < 64; ++k) b[k] = (float)k;
  #pragma omp parallel for simd safelen(8) simdlen(4) aligned(a, b: 64) nontemporal(a)
  for (int i = 0; i < 64; ++i) a[i] = b[i] * 2.0f;
  printf("%g\\n", (double)a[63]);""",
        inner=["safelen(8)", "simdlen(4)", "aligned(a, b: 64)", "nontemporal(a)"]),
    Row("simd_linear", """
  int j = 0, a[32];
  #pragma omp parallel for simd linear(j: 1)
  for (int i = 0; i < 32; ++i) { a[i] = j; j++; }
  printf("%d %d\\n", a[31], j);""", inner=["linear(j: 1)"]),
    Row("simd_reduction_inscan", """
  int a[64], b[64], s = 0;
  for (int k = 0; k < 64; ++k) a[k] = k;
  #pragma omp parallel for simd reduction(inscan, +: s)
  for (int i = 0; i < 64; ++i) {
    b[i] = s;
    #pragma omp scan exclusive(s)
    s += a[i];
  }
  printf("%d %d %d\\n", s, b[10], b[63]);""", inner=["reduction(inscan, +: s)"], whole_for_clang=True),
    # --- parallel sections --------------------------------------------------
    Row("sections_privatising", """
  int x = 4, s = 0, last = 0;
  #pragma omp parallel sections firstprivate(x) lastprivate(last) reduction(+: s) default(none)
  {
    { s += x; last = 1; }
    #pragma omp section
    { s += 2 * x; last = 2; }
  }
  printf("%d %d %d\\n", x, s, last);""", inner=["firstprivate(x)", "lastprivate(last)", "reduction(+: s)"],
        parallel=["shared(x, last, s)"]),
    Row("sections_reduction_task", """
  int s = 0;
  #pragma omp parallel sections reduction(task, +: s)
  {
    {
      #pragma omp task in_reduction(+: s)
      s += 3;
    }
    #pragma omp section
    s += 4;
  }
  printf("%d\\n", s);""", inner=["reduction(task, +: s)"]),
    # --- parallel loop ------------------------------------------------------
    # clang-16 miscompiles `loop` itself: the plain `parallel loop` programs
    # below print garbage (reduction 0, firstprivate unset), so gcc only.
    Row("loop_clauses", """
  long s = 0;
  int i, j;
  #pragma omp parallel loop collapse(2) reduction(+: s) lastprivate(i, j) order(concurrent) bind(parallel)
  for (i = 0; i < 16; ++i)
    for (j = 0; j < 16; ++j) s += i * j;
  printf("%ld %d %d\\n", s, i, j);""", inner=["collapse(2)", "reduction(+: s)", "lastprivate(i, j)",
                                              "order(concurrent)", "bind(parallel)"],
        compilers=("gcc",)),
    Row("loop_firstprivate_on_parallel", """
  int x = 5, a[16];
  #pragma omp parallel loop firstprivate(x)
  for (int i = 0; i < 16; ++i) a[i] = x + i;
  printf("%d %d\\n", x, a[15]);""", parallel=["firstprivate(x)"], compilers=("gcc",)),
    # --- parallel master / masked -------------------------------------------
    # clang-16 never runs the block of a plain `parallel masked`: gcc only.
    Row("masked_filter", """
  int who = -1, ran = -1;
  #pragma omp parallel masked filter(omp_get_num_threads() - 1) firstprivate(who) shared(ran)
  { who = omp_get_thread_num(); ran = who; }
  printf("%d %d\\n", who, ran);""", inner=["filter(omp_get_num_threads() - 1)"],
        parallel=["firstprivate(who)", "shared(ran)"], compilers=("gcc",)),
    Row("masked_reduction", """
  int s = 0;
  #pragma omp parallel masked reduction(+: s)
  s += omp_get_thread_num() + 1;
  printf("%d\\n", s);""", parallel=["reduction(+: s)"], compilers=("gcc",)),
    Row("master_private", """
  int x = 1, s = 0;
  #pragma omp parallel master private(x) num_threads(2) shared(s)
  { x = 5; s = x + omp_get_num_threads(); }
  printf("%d %d\\n", x, s > 5);""", parallel=["private(x)", "num_threads(2)", "shared(s)"]),
    # --- not combined: the loop that carries a task reduction is not nowait --
    Row("for_reduction_task", """
  int s = 0;
  #pragma omp parallel
  #pragma omp for reduction(task, +: s)
  for (int i = 0; i < 16; ++i) {
    #pragma omp task in_reduction(+: s)
    s += i;
  }
  printf("%d\\n", s);""", inner=["reduction(task, +: s)"]),
]


def program(row):
    return ("#include <omp.h>\n#include <stdio.h>\n" + row.top + "int main(void) {" + row.code +
            "\n  return 0;\n}\n")


def pragma_lines(text):
    return [line.strip() for line in text.splitlines() if line.strip().startswith("#pragma omp")]


def check_placement(row, rewritten):
    """The first `#pragma omp parallel` line and the pragma after it."""
    lines = pragma_lines(rewritten)
    first = next((i for i, line in enumerate(lines) if line.startswith("#pragma omp parallel")), None)
    if first is None or first + 1 >= len(lines):
        run_case.fail("no parallel + inner pragma in the rewritten program:\n" + "\n".join(lines))
    parallel, inner = lines[first], lines[first + 1]
    for clause in row.parallel:
        if clause not in parallel:
            run_case.fail(f"'{clause}' not on the parallel: '{parallel}' / '{inner}'")
    for clause in row.inner:
        if clause not in inner:
            run_case.fail(f"'{clause}' not on the inner construct: '{parallel}' / '{inner}'")
        if clause not in row.parallel and clause in parallel:
            run_case.fail(f"'{clause}' also on the parallel: '{parallel}'")


def run_program(exe, threads, env_extra=None):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), **(env_extra or {}))
    r = run_case.run([exe], env=env, timeout=60)
    if r.returncode != 0:
        run_case.fail(f"{exe} with {threads} thread(s) exited with {r.returncode}:\n{r.stderr}")
    return r.stdout


def check_events(log, label, split):
    """Events nest per thread; a split construct forks and joins on thread 0."""
    per_thread = {}
    with open(log) if os.path.exists(log) else open(os.devnull) as f:
        for line in f:
            tid, call, rtype, rline = line.split()
            if call == "error":
                run_case.fail(f"{label}: recorder reports {line.strip()}")
            per_thread.setdefault(int(tid[1:]), []).append((call, rtype, rline))
    for tid, events in per_thread.items():
        run_case.check_balance(events, f"{label}, thread {tid}")
    calls = [c for c, _, _ in per_thread.get(0, [])]
    if split != ("Parallel_fork" in calls and "Parallel_join" in calls):
        run_case.fail(f"{label}: {'no' if split else 'unexpected'} Parallel_fork/join on thread 0: {calls}")


def check_row(a, row):
    for ext in row.languages:
        work = os.path.join(os.path.abspath(a.workdir), row.name + ext.replace(".", "-"))
        os.makedirs(work, exist_ok=True)
        src = os.path.join(work, row.name + ext)
        with open(src, "w") as f:
            f.write(program(row))
        lang = "-xc++" if ext == ".cpp" else "-xc"
        rw = run_case.run([a.rewriter, src, "--", lang, "-I", a.include])
        if rw.returncode != 0 or "warning:" in rw.stderr:
            run_case.fail(f"{row.name}{ext}: rewriter failed or warned:\n{rw.stderr}")
        check_placement(row, rw.stdout)
        out_src = os.path.join(work, row.name + ".ompp" + ext)
        with open(out_src, "w") as f:
            f.write(rw.stdout)
        for comp in row.compilers:
            tools = run_case.COMPILERS[comp]
            rec_obj = os.path.join(work, f"recorder.{comp}.o")
            r = run_case.run([tools["recorder"], "-std=c11", "-fopenmp", "-I", a.include, "-c",
                              a.recorder, "-o", rec_obj])
            if r.returncode != 0:
                run_case.fail(f"{comp}: recorder does not compile:\n{r.stderr}")
            plain, instrumented = (os.path.join(work, f"{kind}.{comp}") for kind in ("plain", "ompp"))
            builds = ((plain, [src]), (instrumented, [out_src, rec_obj]))
            for exe, inputs in builds:
                r = run_case.run([tools[ext], "-fopenmp", "-O1", "-I", a.include] + inputs + ["-o", exe])
                if r.returncode != 0:
                    run_case.fail(f"{row.name}{ext} with {comp}: {os.path.basename(exe)} build fails:\n"
                                  + r.stderr)
            for threads in (1, 2):
                label = f"{row.name}{ext} with {comp}, {threads} thread(s)"
                expected = run_program(plain, threads)
                log = os.path.join(work, f"events.{comp}.{threads}")
                if os.path.exists(log):
                    os.remove(log)
                got = run_program(instrumented, threads, {"OMPP_TEST_EVENTS": log})
                if got != expected:
                    run_case.fail(f"{label}: prints '{got.strip()}', the plain build '{expected.strip()}'")
                check_events(log, label, not (row.whole_for_clang and comp == "clang"))
        print(f"ok: {row.name}{ext}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--rewriter")
    ap.add_argument("--include")
    ap.add_argument("--recorder")
    ap.add_argument("--workdir")
    ap.add_argument("rows", nargs="*")
    a = ap.parse_args()
    if a.list:
        print(";".join(r.name for r in TABLE))
        return
    rows = {r.name: r for r in TABLE}
    for name in a.rows or rows:
        if name not in rows:
            run_case.fail(f"no row '{name}'")
        check_row(a, rows[name])


if __name__ == "__main__":
    main()
