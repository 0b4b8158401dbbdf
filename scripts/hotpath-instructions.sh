#!/bin/sh
# Instructions per hot-path iteration (callgrind; repeatable on a loaded
# machine, unlike wall time).  Usage: scripts/hotpath-instructions.sh [BUILD_DIR]
# Prints one line per scenario: instructions per iteration, where an
# iteration is a user-region pair, one construct instance (counted: an
# atomic counted without timing, ompp's default output), one task
# created, begun and ended, one task created and run at once by a
# running task (included: the OpenMP runtime chose so; undeferred: its if
# clause, passed by ompp's output, said so), one call of fib below an `if`
# cut-off (fibcall: an undeferred task whose body has a taskwait; the
# -inline rows: both as ompp-instrument writes them, counted in the
# instrumented code while libompp's cache allows), or (fibnode) one
# node of fib without cut-off: a task creating two child tasks that run at
# its taskwait (3 instances; fibnode-inline: as ompp-instrument writes it,
# each creation's end closed in the instrumented code), or (utsnode) one
# node of BOTS UTS as libgomp runs it: a task run at once inside its
# creation that creates two such tasks, each of the three ending with a
# taskwait, as ompp-instrument writes them; utsdeep: the same node
# inside two levels of such tasks, as nearly all of UTS's are.  OMPP_TRACE=1
# (passed through to the driver): every event recorded too, as a traced run
# does.
set -eu
build=${1:-build}
driver="$build/bin/ompp_hotpath_counts"
n=200000
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
instructions() {
    valgrind --tool=callgrind --callgrind-out-file="$tmp/out" "$driver" "$1" "$2" >/dev/null 2>"$tmp/log"
    sed -n 's/^==[0-9]*== Collected : //p' "$tmp/log"
}
for scenario in user atomic counted critical loop parallel task included undeferred fibcall undeferred-inline \
    fibcall-inline fibnode fibnode-inline utsnode utsdeep; do
    one=$(instructions "$scenario" "$n")
    two=$(instructions "$scenario" $((2 * n)))
    per_iteration=$(( (two - one) / n ))
    if [ "$scenario" = fibnode ] || [ "$scenario" = fibnode-inline ] || [ "$scenario" = utsnode ] ||
        [ "$scenario" = utsdeep ]; then
        echo "$scenario: $per_iteration instructions per iteration ($(( per_iteration / 3 )) per task instance)"
    else
        echo "$scenario: $per_iteration instructions per iteration"
    fi
done
