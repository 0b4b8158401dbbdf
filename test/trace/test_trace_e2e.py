#!/usr/bin/env python3
"""OMPP_TRACE end to end: programs instrumented by hand run with tracing on;
ompp-trace reads each OTF2 archive back through the OTF2 reader library.
Checked against what the programs did: event counts per kind and region,
the stream's consistency (every Enter left, in order, per task; every task
created is completed), flush mode with the smallest buffer giving the same
events as one big buffer, memory mode keeping the first events and saying
so in the report, the spill writer thread drained at exit() mid-run and
absent from a fork()ed child, and the critical paths of hand-checked
programs.

Usage: test_trace_e2e.py <directory of the test programs> <ompp-trace> [unittest args]
"""
import glob
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import unittest

PROGRAMS = None
OMPP_TRACE = None
OMPP_VIEW = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "ompp-view")


def run_traced(program, args=(), env=None):
    """Runs a program with OMPP_TRACE=1 in a fresh OMPP_OUTDIR; returns (archive, text report)."""
    outdir = tempfile.mkdtemp(prefix="ompp-trace-")
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("OMPP_")}
    full_env.update({"OMPP_OUTDIR": outdir, "OMP_NUM_THREADS": "2", "OMPP_QUIET": "1", "OMPP_TRACE": "1"})
    full_env.update(env or {})
    proc = subprocess.run([os.path.join(PROGRAMS, program), *map(str, args)], env=full_env, capture_output=True,
                          text=True, timeout=120)
    if proc.returncode != 0:
        raise AssertionError(f"{program} exited {proc.returncode}: {proc.stderr}")
    archives = glob.glob(os.path.join(outdir, "*.ompp.otf2"))
    reports = glob.glob(os.path.join(outdir, "*.ompp.txt"))
    if len(archives) != 1 or len(reports) != 1:
        raise AssertionError(f"expected one archive and one report in {outdir}: {os.listdir(outdir)}")
    with open(reports[0]) as f:
        return archives[0], f.read()


def stats(archive, consistent=True):
    proc = subprocess.run([OMPP_TRACE, "stats", archive], capture_output=True, text=True, timeout=120)
    if consistent and proc.returncode != 0:
        raise AssertionError(f"ompp-trace stats {archive} exited {proc.returncode}: {proc.stdout}{proc.stderr}")
    return json.loads(proc.stdout)


def critical_path(archive):
    """The critical path's steps: (thread, step kind, length in seconds, where)."""
    proc = subprocess.run([OMPP_TRACE, "graph", archive], capture_output=True, text=True, timeout=120, check=True)
    steps = []
    for line in proc.stdout.splitlines():
        match = re.match(r"\s+[\d.]+\s+([\d.]+)\s+(\d+)\s+(work|fork|join|barrier|task start|task wait|lock)\s+(.*)",
                         line)
        if match:
            steps.append((int(match.group(2)), match.group(3), float(match.group(1)), match.group(4)))
    if not steps:
        raise AssertionError(f"no critical path in: {proc.stdout}")
    return steps


def graph_json(archive):
    """`ompp-trace graph --json`: the critical path and the collapsed graph as data."""
    with tempfile.TemporaryDirectory() as work:
        out = os.path.join(work, "graph.json")
        subprocess.run([OMPP_TRACE, "graph", archive, "--json", out], capture_output=True, text=True, timeout=120,
                       check=True)
        with open(out) as f:
            return json.load(f)


class TraceEvents(unittest.TestCase):
    DEFERRED, LOCK_ROUNDS, UNDEFERRED = 37, 5, 11
    TASKS = DEFERRED + UNDEFERRED  # if(0) tasks, counted without a clock when not tracing, are traced too
    ARGS = (DEFERRED, LOCK_ROUNDS, UNDEFERRED)

    @classmethod
    def setUpClass(cls):
        cls.archive, cls.report = run_traced("trace_events", cls.ARGS)
        cls.stats = stats(cls.archive)

    def test_counts_match_the_program(self):
        kinds, enters = self.stats["kinds"], self.stats["enters"]
        self.assertEqual(self.stats["threads"], 2)
        self.assertEqual(kinds["ThreadFork"], 1)
        self.assertEqual(kinds["ThreadJoin"], 1)
        self.assertEqual(kinds["ThreadTeamBegin"], 2)
        self.assertEqual(kinds["ThreadTeamEnd"], 2)
        self.assertEqual(kinds["ThreadTaskCreate"], self.TASKS)
        self.assertEqual(kinds["ThreadTaskComplete"], self.TASKS)
        self.assertEqual(self.stats["tasks"], {"created": self.TASKS, "started": self.TASKS,
                                               "completed": self.TASKS})
        # omp locks and the critical construct (one lock per critical name).
        self.assertEqual(kinds["ThreadAcquireLock"], 2 * self.LOCK_ROUNDS + 2)
        self.assertEqual(kinds["ThreadReleaseLock"], 2 * self.LOCK_ROUNDS + 2)
        self.assertEqual(kinds["Enter"], kinds["Leave"])
        self.assertEqual(enters["work"], 2 + self.TASKS)
        self.assertEqual(enters["!$omp task create @trace_events.c:50"], self.TASKS)
        self.assertEqual(enters["!$omp task @trace_events.c:50"], self.TASKS)
        self.assertEqual(enters["!$omp taskwait @trace_events.c:57"], 1)
        self.assertEqual(enters["!$omp critical sblock @trace_events.c:40"], 2)
        self.assertEqual(enters["!$omp single sblock @trace_events.c:46"], 1)
        self.assertEqual(enters["!$omp barrier @trace_events.c:62"], 2)
        self.assertEqual(enters["!$omp implicit barrier @trace_events.c:30"], 2)
        self.assertEqual(enters["!$omp lock @trace_events.c:25"], 2 * self.LOCK_ROUNDS)
        self.assertEqual(self.stats["problems"], [])

    def test_otf2_print_reads_the_archive(self):
        proc = subprocess.run(["otf2-print", os.path.join(self.archive, "traces.otf2")], capture_output=True,
                              text=True, timeout=120)
        if proc.returncode == 127:
            self.skipTest("otf2-print not installed")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertNotIn("warning", proc.stderr)
        self.assertEqual(proc.stdout.count("THREAD_TASK_CREATE"), self.TASKS)

    def test_the_smallest_buffer_spills_and_loses_nothing(self):
        spilled, _ = run_traced("trace_events", self.ARGS, {"OMPP_TRACE_BUFFER": "48"})
        again = stats(spilled)
        # Task switches depend on which thread runs which task; nothing else does.
        scheduled = {k: v for k, v in again["kinds"].items() if k != "ThreadTaskSwitch"}
        self.assertEqual(scheduled, {k: v for k, v in self.stats["kinds"].items() if k != "ThreadTaskSwitch"})
        for key in ("enters", "tasks"):
            self.assertEqual(again[key], self.stats[key], key)

    def test_memory_mode_keeps_the_first_events_and_says_so(self):
        kept, report = run_traced("trace_events", self.ARGS,
                                  {"OMPP_TRACE_MODE": "memory", "OMPP_TRACE_BUFFER": str(24 * 10)})
        partial = stats(kept, consistent=False)
        self.assertLessEqual(partial["events"], self.stats["events"])
        for thread, kinds in partial["per_thread"].items():
            self.assertGreater(sum(kinds.values()), 0, thread)
        dropped = re.search(r"OMPP_TRACE: (\d+) event\(s\) not in the trace", report)
        self.assertIsNotNone(dropped, report)
        self.assertGreater(int(dropped.group(1)), 0)

    def test_perfetto_json_has_one_slice_per_region_visit(self):
        with tempfile.TemporaryDirectory() as work:
            out = os.path.join(work, "trace.json")
            subprocess.run([OMPP_TRACE, "perfetto", self.archive, "-o", out], check=True, capture_output=True)
            with open(out) as f:
                events = json.load(f)["traceEvents"]
        slices = [e for e in events if e["ph"] == "X"]
        self.assertEqual(len(slices), self.stats["kinds"]["Enter"])
        self.assertTrue(all(e["dur"] >= 0 for e in slices))
        self.assertEqual(len([e for e in events if e["ph"] == "s"]), self.TASKS)
        self.assertEqual(len([e for e in events if e["ph"] == "f"]), self.TASKS)


class JoinBarrierTasks(unittest.TestCase):
    """A worker runs a task after its own Parallel_end, in the runtime's join barrier."""

    def test_the_task_is_inside_the_region_and_the_team(self):
        archive, _ = run_traced("join_barrier_tasks")
        self.assertEqual(stats(archive)["problems"], [])
        with tempfile.TemporaryDirectory() as work:
            out = os.path.join(work, "trace.json")
            subprocess.run([OMPP_TRACE, "perfetto", archive, "-o", out], check=True, capture_output=True)
            with open(out) as f:
                slices = [e for e in json.load(f)["traceEvents"] if e["ph"] == "X"]
        (late,) = [e for e in slices if e["name"].startswith("late")]
        (region,) = [e for e in slices if e["tid"] == late["tid"] and e["name"].startswith("!$omp parallel")]
        self.assertLessEqual(region["ts"], late["ts"])
        self.assertGreaterEqual(region["ts"] + region["dur"], late["ts"] + late["dur"], (region, late))

    def test_the_masters_join_waits_for_the_task(self):
        archive, _ = run_traced("join_barrier_tasks")
        steps = graph_json(archive)["steps"]
        (late,) = [s for s in steps if s["work"] and s["region"].startswith("late @")]
        self.assertGreaterEqual(late["duration_s"], 0.025, steps)
        self.assertEqual(steps[-1]["step"], "join", steps)


class Graph(unittest.TestCase):
    def dot_nodes(self, tasks):
        """ompp-view graph of trace_events with `tasks` tasks: its node count (the critical path printed)."""
        archive, _ = run_traced("trace_events", (tasks, 2))
        with tempfile.TemporaryDirectory() as work:
            dot = os.path.join(work, "graph.dot")
            proc = subprocess.run([OMPP_VIEW, "graph", archive, "-o", dot], capture_output=True, text=True,
                                  timeout=120, env=dict(os.environ, OMPP_TRACE_TOOL=OMPP_TRACE))
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertIn("critical path:", proc.stdout)
            with open(dot) as f:
                text = f.read()
        self.assertTrue(text.startswith("digraph"))
        self.assertIn("color=red", text)
        return len(re.findall(r"^\s*n\d+ \[label=", text, re.MULTILINE))

    def test_repeated_structure_is_collapsed(self):
        # Ten times the tasks, the same graph: its size follows the program's structure (which
        # thread runs a task at which scheduling point varies, and with it a few classes).
        few, many = self.dot_nodes(20), self.dot_nodes(200)
        self.assertLessEqual(abs(many - few), 4)
        self.assertLess(many, 60)


def wait_until_it_catches(pid, number, limit_s=30):
    """Returns once process `pid` has a handler for signal `number` (SigCgt in /proc/PID/status)."""
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        with open(f"/proc/{pid}/status") as status:
            caught = next(int(line.split()[1], 16) for line in status if line.startswith("SigCgt:"))
        if caught & (1 << (number - 1)):
            return
        time.sleep(0.005)
    raise AssertionError(f"process {pid} did not catch signal {number} within {limit_s} s")


class Interrupted(unittest.TestCase):
    def test_sigterm_leaves_a_complete_trace(self):
        outdir = tempfile.mkdtemp(prefix="ompp-trace-term-")
        env = {k: v for k, v in os.environ.items() if not k.startswith("OMPP_")}
        env.update({"OMPP_OUTDIR": outdir, "OMP_NUM_THREADS": "2", "OMPP_QUIET": "1", "OMPP_TRACE": "1"})
        proc = subprocess.Popen([os.path.join(PROGRAMS, "imbalance")], env=env, stderr=subprocess.DEVNULL)
        # libompp catches SIGTERM from the first event on, the fork just before the 200 ms of "slow":
        # a fixed sleep can land before it on a loaded machine (the program then just dies).
        wait_until_it_catches(proc.pid, signal.SIGTERM)
        time.sleep(0.02)
        proc.terminate()
        self.assertEqual(proc.wait(timeout=60), -signal.SIGTERM)
        archives = glob.glob(os.path.join(outdir, "*.ompp.otf2"))
        self.assertEqual(len(archives), 1, os.listdir(outdir))
        # The regions open at the signal are left at program end, as the profile closes them.
        result = stats(archives[0])
        self.assertEqual(result["kinds"]["Enter"], result["kinds"]["Leave"])
        self.assertEqual(result["enters"]["slow"], 1)


class SpillWriterAtTheEnds(unittest.TestCase):
    """The smallest OMPP_TRACE_BUFFER, two chunks of three words (an epoch word and one record): every
    event hands one to the spill writer."""
    PAIRS = 3000
    TINY = {"OMPP_TRACE_BUFFER": "48"}

    def test_exit_mid_run_keeps_every_event_before_it(self):
        archive, _ = run_traced("spill_ends", (self.PAIRS, "exit"), self.TINY)
        result = stats(archive, consistent=False)  # thread 1 is stopped mid-pair
        self.assertEqual(result["enters"]["counted"], self.PAIRS)
        self.assertGreater(result["enters"]["busy"], 0)

    def test_a_forked_child_exits_without_the_parents_spill_writer(self):
        outdir = tempfile.mkdtemp(prefix="ompp-trace-fork-")
        env = {k: v for k, v in os.environ.items() if not k.startswith("OMPP_")}
        env.update({"OMPP_OUTDIR": outdir, "OMP_NUM_THREADS": "2", "OMPP_QUIET": "1", "OMPP_TRACE": "1", **self.TINY})
        proc = subprocess.run([os.path.join(PROGRAMS, "spill_ends"), str(self.PAIRS), "fork"], env=env,
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        archives = glob.glob(os.path.join(outdir, "*.ompp.otf2"))
        self.assertEqual(len(archives), 1, os.listdir(outdir))  # the child traces nothing
        self.assertEqual(stats(archives[0])["enters"]["counted"], self.PAIRS)


class TraceOff(unittest.TestCase):
    def test_no_archive_without_ompp_trace(self):
        outdir = tempfile.mkdtemp(prefix="ompp-trace-off-")
        env = {k: v for k, v in os.environ.items() if not k.startswith("OMPP_")}
        env.update({"OMPP_OUTDIR": outdir, "OMP_NUM_THREADS": "2", "OMPP_QUIET": "1"})
        subprocess.run([os.path.join(PROGRAMS, "imbalance")], env=env, check=True, capture_output=True, timeout=120)
        self.assertEqual(glob.glob(os.path.join(outdir, "*.otf2")), [])


class CriticalPath(unittest.TestCase):
    def test_imbalance_goes_through_the_slow_thread(self):
        archive, _ = run_traced("imbalance")
        steps = critical_path(archive)
        slow = [s for s in steps if s[1] == "work" and s[3].startswith("slow @imbalance.c:31")]
        self.assertEqual(len(slow), 1, steps)
        self.assertGreaterEqual(slow[0][2], 0.19)
        self.assertFalse([s for s in steps if s[3].startswith("fast")], steps)
        # Into the slow thread through the fork, out through its barrier arrival, ending at the join.
        kinds = [s[1] for s in steps]
        self.assertIn("fork", kinds)
        self.assertTrue(any(s[1] in ("barrier", "join") and s[0] != slow[0][0] for s in steps), steps)
        self.assertEqual(steps[-1][0], 0, steps)

    def test_task_chain_runs_through_every_link(self):
        archive, _ = run_traced("task_chain")
        self.assertEqual(stats(archive)["tasks"]["completed"], 3)
        steps = critical_path(archive)
        work = {name: sum(s[2] for s in steps if s[1] == "work" and s[3].startswith(name + " @task_chain.c:29"))
                for name in ("a", "b", "c")}
        self.assertGreaterEqual(work["a"], 0.019, steps)
        self.assertGreaterEqual(work["b"], 0.039, steps)
        self.assertGreaterEqual(work["c"], 0.059, steps)
        order = [s[3][0] for s in steps if s[1] == "work" and re.match(r"[abc] @", s[3])]
        self.assertEqual(order, ["a", "b", "c"], steps)


    def test_loop_iterations_print_once_with_their_count(self):
        archive, _ = run_traced("barrier_loop")
        text = subprocess.run([OMPP_TRACE, "graph", archive], capture_output=True, text=True, timeout=120,
                              check=True).stdout
        total_steps = int(re.search(r"last, (\d+) steps", text).group(1))
        path_s = float(re.search(r"critical path: ([\d.]+) s", text).group(1))
        listing = text.split("where the critical path spends its time:")[0].splitlines()[2:]
        repeats = [int(m.group(1)) for m in (re.search(r"(\d+) times the \d+ steps? below", l) for l in listing) if m]
        self.assertTrue(repeats and max(repeats) >= 5, text)
        self.assertGreaterEqual(total_steps, 4 * 30, text)
        self.assertLess(len(listing), total_steps / 2, text)
        # The top level's lengths add up to the whole path; nested lines are sums of their copies, so the slow
        # steps' lines add up to the slow share of the summary below them.  Columns: begin, length, thread,
        # then the step (or the repeat), indented two spaces per level.
        step_column = len("  {:>12} {:>12}  {:>7}  ".format("", "", ""))
        depth = [len(l[step_column:]) - len(l[step_column:].lstrip(" ")) for l in listing]
        top = [float(l.split()[1]) for l, d in zip(listing, depth) if d == 0]
        self.assertLess(len(top), len(listing), text)
        self.assertAlmostEqual(sum(top), path_s, delta=1e-5 * len(top), msg=text)
        slow_lines = sum(float(l.split()[1]) for l in listing if l.endswith("slow @barrier_loop.c:36"))
        slow_share = sum(float(l.split()[0]) for l in text.split("spends its time:")[1].splitlines()
                         if l.endswith("slow @barrier_loop.c:36"))
        self.assertAlmostEqual(slow_lines, slow_share, delta=1e-5 * len(listing), msg=text)
        self.assertGreater(slow_share, 0.15, text)

        # Only the 3 longest entries: the runs between them one line each, the top level still adding up.
        short = subprocess.run([OMPP_TRACE, "graph", archive, "--lines", "3"], capture_output=True, text=True,
                               timeout=120, check=True).stdout
        listing = short.split("where the critical path spends its time:")[0].splitlines()[2:]
        omitted = [l for l in listing if re.search(r"\.\.\. \d+ shorter steps", l)]
        self.assertTrue(omitted, short)
        top = [l for l in listing if len(l[step_column:]) == len(l[step_column:].lstrip(" "))]
        self.assertLessEqual(len(top), 3 + len(omitted), short)
        self.assertAlmostEqual(sum(float(l.split()[1]) for l in top), path_s, delta=1e-5 * len(top), msg=short)
        self.assertIn("the 3 longest", short.splitlines()[0])
        bad = subprocess.run([OMPP_TRACE, "graph", archive, "--lines", "many"], capture_output=True, text=True,
                             timeout=120)
        self.assertEqual(bad.returncode, 2)
        self.assertIn("--lines wants a number", bad.stderr)


    def test_taskwait_ends_with_the_task_completed_on_another_thread(self):
        archive, _ = run_traced("taskwait_handover")
        steps = graph_json(archive)["steps"]
        (long_work,) = [s for s in steps if s["work"] and s["region"].startswith("long @")]
        self.assertGreaterEqual(long_work["duration_s"], 0.05, steps)
        # Into the master's taskwait from A's completion, not along the master's wait after B.
        self.assertTrue(any(s["step"] == "task wait" and s["thread"] == 0 and s["kind"] == "taskwait" for s in steps),
                        steps)
        self.assertFalse([s for s in steps if s["work"] and s["thread"] == 0 and s["duration_s"] > 0.03], steps)

    def test_time_between_tasks_at_a_barrier_is_in_the_barrier(self):
        archive, _ = run_traced("barrier_after_task")
        steps = graph_json(archive)["steps"]
        # Outside any region (kind ""), as it was, or in the barrier.
        between = [s for s in steps if s["work"] and s["thread"] == 1 and s["duration_s"] >= 0.035
                   and s["kind"] in ("", "implicit barrier")]
        self.assertEqual([(s["kind"], s["line"]) for s in between], [("implicit barrier", 45)], steps)


class CriticalPathJson(unittest.TestCase):
    """The same paths as data (ompp-view html's execution graph view)."""

    def test_imbalance_as_data_matches_the_text(self):
        archive, _ = run_traced("imbalance")
        graph, text_steps = graph_json(archive), critical_path(archive)
        steps = graph["steps"]
        self.assertEqual(len(steps), len(text_steps))
        self.assertEqual([s["thread"] for s in steps], [s[0] for s in text_steps])
        (slow,) = [s for s in steps if s["work"] and s["region"].startswith("slow @")]
        self.assertEqual((slow["kind"], slow["file"], slow["line"], slow["step"]), ("user", "imbalance.c", 31, "work"))
        self.assertGreaterEqual(slow["duration_s"], 0.19)
        self.assertAlmostEqual(slow["end_s"] - slow["begin_s"], slow["duration_s"], places=9)
        self.assertGreater(slow["share"], 0.5)
        self.assertFalse([s for s in steps if s["region"].startswith("fast")], steps)
        self.assertTrue(any(s["step"] == "fork" and not s["work"] and s["thread"] == slow["thread"] for s in steps))
        # Steps follow each other in time, from the trace's start, within its run time.
        for before, after in zip(steps, steps[1:]):
            self.assertLessEqual(before["end_s"], after["end_s"] + 1e-9)
        self.assertAlmostEqual(graph["path_s"], steps[-1]["end_s"] - steps[0]["begin_s"], places=9)
        self.assertLessEqual(graph["path_s"], graph["run_time_s"] + 1e-6)
        # The regions, most first: the slow thread's 200 ms.
        top = graph["regions"][0]
        self.assertEqual((top["region"], top["thread"]), (slow["region"], slow["thread"]))
        self.assertAlmostEqual(sum(r["seconds"] for r in graph["regions"]),
                               sum(s["duration_s"] for s in steps if s["work"]), places=9)
        self.assertTrue(graph["dot"].startswith("digraph"))
        self.assertIn("color=red", graph["dot"])
        self.assertEqual(graph["threads"], 2)

    def test_task_chain_as_data_in_order(self):
        archive, _ = run_traced("task_chain")
        links = [s["region"][0] for s in graph_json(archive)["steps"]
                 if s["work"] and re.match(r"[abc] @task_chain.c:29", s["region"])]
        self.assertEqual(list(dict.fromkeys(links)), ["a", "b", "c"])

    def test_json_option_needs_a_file(self):
        proc = subprocess.run([OMPP_TRACE, "graph", "app.otf2", "--json"], capture_output=True, text=True, timeout=120)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("unexpected argument '--json'", proc.stderr)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    PROGRAMS, OMPP_TRACE = sys.argv[1], sys.argv[2]
    unittest.main(argv=[sys.argv[0], *sys.argv[3:]], verbosity=2)
