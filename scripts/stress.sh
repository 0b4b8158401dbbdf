#!/bin/bash
# libompp under stress (issue 10): each case run without and with ompp, one
# table row each: time, peak RSS, whether the profile was written and whether
# anything half-written was left.  Usage: scripts/stress.sh [BUILD_DIR]
# (BUILD_DIR/lib/libompp.so; g++-12 with libgomp builds the programs).
# Correctness checks of the same cases: test/runtime/e2e/test_stress.py.
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
source_dir=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
program=$source_dir/test/runtime/e2e/stress_program.cpp
g++-12 -std=c++17 -O1 -fopenmp -DOMPP_STRESS_PLAIN -I"$source_dir/include" "$program" -o "$tmp/plain"
g++-12 -std=c++17 -O1 -fopenmp -I"$source_dir/include" "$program" -L"$build/lib" -Wl,-rpath,"$build/lib" -lompp \
    -o "$tmp/ompp"
export OMP_NUM_THREADS=2 OMPP_QUIET=1

# measure NAME PROGRAM ARGS...: "seconds peak-KB exit-status" of one run in $tmp/out.
measure() {
    rm -rf "$tmp/out" && mkdir -p "$tmp/out"
    local status=0
    (cd "$tmp/out" && OMPP_OUTDIR="$tmp/out" /usr/bin/time -f "%e %M" -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err") ||
        status=$?
    echo "$(cat "$tmp/time" | tail -1) $status"
}
# Whether a complete profile (text and JSON) is in $tmp/out, and whether
# anything else (a temporary or half-written file) is.
outcome() {
    local written=no leftovers=no json
    json=$(find "$tmp/out" -name '*.ompp.json' | head -1)
    [ -n "$json" ] && [ -f "${json%.json}.txt" ] && python3 -c "import sys; sys.path.insert(0, sys.argv[1]); from ompp_profile import read_json; read_json(sys.argv[2])" "$source_dir/scripts" "$json" \
        2>/dev/null && written=yes
    [ -n "$(find "$tmp/out" -name '.ompp-*' -o -name '*.txt' ! -name '*.ompp.txt')" ] && leftovers=yes
    if [ "$written" = no ] && [ -n "$(find "$tmp/out" -name '*.ompp.*')" ]; then leftovers=yes; fi
    echo "$written $leftovers"
}

printf '%-28s %9s %10s %9s %10s %6s %8s %9s\n' case plain_s plain_KB ompp_s ompp_KB exit profile partial
row() {
    local name=$1
    shift
    read -r plain_s plain_kb _ <<<"$(measure "$tmp/plain" "$@")"
    read -r ompp_s ompp_kb status <<<"$(measure "$tmp/ompp" "$@")"
    read -r written leftovers <<<"$(outcome)"
    printf '%-28s %9s %10s %9s %10s %6s %8s %9s\n' "$name" "$plain_s" "$plain_kb" "$ompp_s" "$ompp_kb" "$status" \
        "$written" "$leftovers"
}
row "depth 100,000" deep 100000
row "quicksort 2,000 sorted" quicksort 2000
row "40,000 run-time names" names 40000
row "100,000 run-time names" names 100000
row "1,000 nested teams" churn 1000

# Files: planted dangling links at the first predicted names.
rm -rf "$tmp/out" && mkdir -p "$tmp/out"
ln -s "$tmp/nowhere/a" "$tmp/out/ompp.2-0.ompp.json"
ln -s "$tmp/nowhere/b" "$tmp/out/ompp.2-1.ompp.txt"
(cd "$tmp/out" && OMPP_OUTDIR="$tmp/out" /usr/bin/time -f "%e %M" -o "$tmp/time" "$tmp/ompp" quicksort 100 2>/dev/null)
read -r s kb <<<"$(tail -1 "$tmp/time")"
[ -f "$tmp/out/ompp.2-2.ompp.json" ] && [ -f "$tmp/out/ompp.2-2.ompp.txt" ] && written=yes || written=no
printf '%-28s %9s %10s %9s %10s %6s %8s %9s\n' "planted dangling links" - - "$s" "$kb" 0 "$written" no

# A file-size limit (as a full disk) during the exit-time write: no profile,
# one line, nothing half-written, exit status unchanged.
read -r s kb status <<<"$(measure bash -c "trap '' XFSZ; ulimit -f 64; exec $tmp/ompp names 20000")"
read -r written leftovers <<<"$(outcome)"
printf '%-28s %9s %10s %9s %10s %6s %8s %9s\n' "file size limit (ENOSPC)" - - "$s" "$kb" "$status" "$written" \
    "$leftovers"

# SIGTERM, then a second one, during the exit-time write of a large report:
# the second kills at once; no half-written files.
rm -rf "$tmp/out" && mkdir -p "$tmp/out"
(cd "$tmp/out" && OMPP_OUTDIR="$tmp/out" exec "$tmp/ompp" names 100000) &
pid=$!
sleep 1
kill -TERM "$pid" 2>/dev/null || true
sleep 0.2
kill -TERM "$pid" 2>/dev/null || true
status=0
wait "$pid" || status=$?
read -r written leftovers <<<"$(outcome)"
printf '%-28s %9s %10s %9s %10s %6s %8s %9s\n' "SIGTERM x2 during write" - - - - "$status" "$written" "$leftovers"
