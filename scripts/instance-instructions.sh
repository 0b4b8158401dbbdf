#!/bin/sh
# Instructions per whole instrumented lock, critical, parallel and parallel
# for (with a reduction) instance,
# OpenMP runtime included (callgrind; repeatable on a loaded machine, unlike wall
# time).  Usage: scripts/instance-instructions.sh [BUILD_DIR]
# Builds benchmarks/micro/sync_instances.c with gcc-12 and clang-16, plainly
# and through ompp-cc -O2, runs it at 1 thread for N and 2N instances and
# prints (Ir(2N) - Ir(N)) / N: plain, ompp with OMPP_DEADLOCK off, ompp with
# OMPP_DEADLOCK=report, and what report adds.  Only run_instances is
# counted: start-up, the clock's calibration and the profile's writing vary
# from run to run.
set -eu
build=$(cd "${1:-build}" && pwd)
source=$(cd "$(dirname "$0")/../benchmarks/micro" && pwd)/sync_instances.c
n=${OMPP_INSTANCES:-20000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
instructions() {  # program construct iterations [VAR=value]
    (cd "$tmp" && env OMP_NUM_THREADS=1 ${4:-} valgrind --tool=callgrind --callgrind-out-file="$tmp/out" \
        --toggle-collect=run_instances \
        "$1" "$2" "$3" >/dev/null 2>"$tmp/log")
    sed -n 's/^==[0-9]*== Collected : //p' "$tmp/log"
}
per_instance() {  # program construct [VAR=value]
    one=$(instructions "$1" "$2" "$n" "${3:-}")
    two=$(instructions "$1" "$2" $((2 * n)) "${3:-}")
    echo $(( (two - one) / n ))
}
printf '%-22s %6s %6s %6s %s\n' instance plain off report added
for compiler in gcc-12 clang-16; do
    "$compiler" -fopenmp -O2 "$source" -o "$tmp/plain-$compiler"
    "$build/bin/ompp-cc" --compiler="$compiler" -fopenmp -O2 "$source" -o "$tmp/ompp-$compiler"
    for construct in lock critical parallel parallelfor; do
        plain=$(per_instance "$tmp/plain-$compiler" "$construct")
        off=$(per_instance "$tmp/ompp-$compiler" "$construct" OMPP_DEADLOCK=off)
        on=$(per_instance "$tmp/ompp-$compiler" "$construct" OMPP_DEADLOCK=report)
        printf '%-22s %6d %6d %6d +%d (+%d.%d %%)\n' "$construct, $compiler" "$plain" "$off" "$on" $((on - off)) \
            $((100 * (on - off) / off)) $((1000 * (on - off) / off % 10))
    done
done
