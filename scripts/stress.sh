#!/bin/bash
# libompp under stress (issue 10): each case of the issue's "Done when" list,
# without and with ompp where that makes sense, one table row each: wall
# time, peak RSS, exit status, whether a complete profile was written and
# whether anything half-written (a temporary file, a partial report) was left.
# Usage: scripts/stress.sh [BUILD_DIR]  (BUILD_DIR/lib/libompp.so; g++-12 and
# gcc-12 with libgomp build the programs).  Correctness checks of the same
# cases: test/runtime/e2e/test_stress.py.
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
source_dir=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
full_disk=$tmp/full
cleanup() {
    mountpoint -q "$full_disk" 2>/dev/null && umount "$full_disk"
    rm -rf "$tmp"
}
trap cleanup EXIT
e2e=$source_dir/test/runtime/e2e
g++-12 -std=c++17 -O1 -fopenmp -DOMPP_STRESS_PLAIN -I"$source_dir/include" "$e2e/stress_program.cpp" -o "$tmp/plain"
g++-12 -std=c++17 -O1 -fopenmp -I"$source_dir/include" "$e2e/stress_program.cpp" -L"$build/lib" \
    -Wl,-rpath,"$build/lib" -lompp -o "$tmp/ompp"
gcc-12 -shared -fPIC -O1 "$e2e/enospc_shim.c" -o "$tmp/enospc_shim.so" -ldl
export OMP_NUM_THREADS=2 OMPP_QUIET=1

# measure DIR PROGRAM ARGS...: "seconds peak-KB exit-status" of one run
# writing into DIR (emptied first); its stdout is in $tmp/stdout.
measure() {
    local dir=$1 status=0
    shift
    find "$dir" -mindepth 1 -delete 2>/dev/null || true
    mkdir -p "$dir"
    (cd "$dir" && OMPP_OUTDIR="$dir" /usr/bin/time -f "%e %M" -o "$tmp/time" "$@" >"$tmp/stdout" 2>"$tmp/err") ||
        status=$?
    echo "$(tail -1 "$tmp/time") $status"
}
# profile_threads FILE: the number of threads in the profile FILE, read
# through the one reader (scripts/ompp_profile); fails unless FILE is one.
profile_threads() {
    python3 -c "import sys; sys.path.insert(0, sys.argv[1]); from ompp_profile import read_json; print(len(read_json(sys.argv[2]).get('threads_info', [])))" \
        "$source_dir/scripts" "$1"
}
# outcome DIR: whether a complete profile (text and JSON) is in DIR, and
# whether anything else (a temporary or half-written file) is.
outcome() {
    local dir=$1 written=no leftovers=no json
    json=$(find "$dir" -name '*.ompp.json' | head -1)
    [ -n "$json" ] && [ -f "${json%.json}.txt" ] && grep -q "ompP Control Flow" "${json%.json}.txt" &&
        profile_threads "$json" >/dev/null 2>&1 && written=yes
    [ -n "$(find "$dir" -name '.ompp-*')" ] && leftovers=yes
    if [ "$written" = no ] && [ -n "$(find "$dir" -name '*.ompp.*')" ]; then leftovers=yes; fi
    echo "$written $leftovers"
}
format='%-32s %8s %9s %8s %9s %5s %7s %7s  %s\n'
print_row() { printf "$format" "$@"; }
print_row case plain_s plain_KB ompp_s ompp_KB exit profile partial note
out=$tmp/out
# row NAME ARGS...: the stress program without and with ompp (environment:
# run_env; the plain run's stdout is kept in $tmp/plain_stdout).
run_env=()
note=
row() {
    local name=$1 plain_s plain_kb ompp_s ompp_kb status written leftovers
    shift
    read -r plain_s plain_kb _ <<<"$(measure "$out" env "${run_env[@]}" "$tmp/plain" "$@")"
    cp "$tmp/stdout" "$tmp/plain_stdout"
    read -r ompp_s ompp_kb status <<<"$(measure "$out" env "${run_env[@]}" "$tmp/ompp" "$@")"
    read -r written leftovers <<<"$(outcome "$out")"
    print_row "$name" "$plain_s" "$plain_kb" "$ompp_s" "$ompp_kb" "$status" "$written" "$leftovers" "$note"
}

row "depth 100,000" deep 100000
row "quicksort 2,000 sorted" quicksort 2000

# Run-time names: the whole run, then the time of the events alone.
row "100,000 run-time names" names 100000
registration() { sed -n "s/^registration: \([0-9.]*\) s, cpu \([0-9.]*\) s$/\\$1/p" "$2"; }
print_row "  of which registration" "$(registration 1 "$tmp/plain_stdout")" - "$(registration 1 "$tmp/stdout")" - \
    - - - "the names' events; cpu: plain $(registration 2 "$tmp/plain_stdout") s, ompp $(registration 2 "$tmp/stdout") s"

# libgomp starts new OS threads for every nested team; a passive wait keeps
# spinning threads from dominating on a loaded machine.
run_env=(OMP_WAIT_POLICY=passive)
note="threads in profile: ?" row "10,000 nested teams" churn 10000 >"$tmp/row"
threads=$(profile_threads "$(find "$out" -name '*.ompp.json' | head -1)" 2>/dev/null || echo "?")
sed "s/threads in profile: ?/threads in profile: $threads/" "$tmp/row"
run_env=()

# Planted links at the first predicted names: dangling ones, and ones to a
# file that must not be overwritten.
find "$out" -mindepth 1 -delete
echo precious >"$tmp/victim"
ln -s "$tmp/nowhere/a" "$out/ompp.2-0.ompp.json"
ln -s "$tmp/nowhere/b" "$out/ompp.2-1.ompp.txt"
ln -s "$tmp/victim" "$out/ompp.2-2.ompp.txt"
(cd "$out" && OMPP_OUTDIR="$out" /usr/bin/time -f "%e %M" -o "$tmp/time" "$tmp/ompp" quicksort 100 \
    2>/dev/null) && status=0 || status=$?
read -r s kb <<<"$(tail -1 "$tmp/time")"
[ -f "$out/ompp.2-3.ompp.json" ] && [ -f "$out/ompp.2-3.ompp.txt" ] && written=yes || written=no
[ "$(cat "$tmp/victim")" = precious ] && [ ! -e "$tmp/nowhere" ] && note="links untouched, index 3" ||
    note="a link was followed"
print_row "planted links (dangling, to a file)" - - "$s" "$kb" "$status" "$written" no "$note"

# A full disk during the exit-time write: a 64 KiB tmpfs where one can be
# mounted, else write() failing with ENOSPC after 64 KiB (preload shim).  One
# line per directory tried, nothing half-written, exit status unchanged.
app=ompp-stress-enospc-$$
mkdir -p "$full_disk"
if mount -t tmpfs -o size=64k tmpfs "$full_disk" 2>/dev/null; then
    read -r s kb status <<<"$(measure "$full_disk" env OMPP_APPNAME="$app" "$tmp/ompp" names 20000)"
    fallback=$(find /tmp -maxdepth 1 -name "$app.*.ompp.json" | wc -l)
    rm -f /tmp/"$app".*.ompp.*
    note="64 KiB tmpfs; $(wc -l <"$tmp/err") stderr line(s); profile in fallback /tmp: $fallback"
else
    read -r s kb status <<<"$(measure "$full_disk" env LD_PRELOAD="$tmp/enospc_shim.so" "$tmp/ompp" names 20000)"
    note="simulated (preload shim, no tmpfs mount); $(wc -l <"$tmp/err") stderr line(s)"
fi
read -r written leftovers <<<"$(outcome "$full_disk")"
print_row "ENOSPC during the final write" - - "$s" "$kb" "$status" "$written" "$leftovers" "$note"
mountpoint -q "$full_disk" && umount "$full_disk"

# SIGTERM once the exit-time write of a large report has begun (a temporary
# file appeared): a complete profile or none, the signal's exit status (143).
find "$out" -mindepth 1 -delete
start=$(date +%s.%N)
(cd "$out" && OMPP_OUTDIR="$out" exec "$tmp/ompp" names 100000 >/dev/null 2>&1) &
pid=$!
while kill -0 "$pid" 2>/dev/null && [ -z "$(find "$out" -name '.ompp-*' -print -quit)" ]; do sleep 0.005; done
kill -TERM "$pid" 2>/dev/null || true
status=0
wait "$pid" || status=$?
s=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.2f}')" "$start" "$(date +%s.%N)")
read -r written leftovers <<<"$(outcome "$out")"
print_row "SIGTERM during the final write" - - "$s" - "$status" "$written" "$leftovers" "100,000 names"

# Awkward names and values.
read -r s kb status <<<"$(measure "$out" env OMPP_APPNAME="$(printf 'x%.0s' {1..300})" "$tmp/ompp" deep 10)"
read -r written leftovers <<<"$(outcome "$out")"
print_row "300-character application name" - - "$s" "$kb" "$status" "$written" "$leftovers" \
    "file name: $(find "$out" -name '*.ompp.txt' -printf '%f' | wc -c) characters"
read -r s kb status <<<"$(measure "$out" env OMPP_SNAPSHOT_INTERVAL=nan OMPP_MAX_DEPTH=inf "$tmp/ompp" deep 10)"
read -r written leftovers <<<"$(outcome "$out")"
print_row "NaN and inf values" - - "$s" "$kb" "$status" "$written" "$leftovers" "$(wc -l <"$tmp/err") stderr line(s)"
