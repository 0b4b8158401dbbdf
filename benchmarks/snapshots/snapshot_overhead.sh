#!/usr/bin/env bash
# Overhead of continuous profiling: runs the snapshot workload under libompp
# with and without OMPP_SNAPSHOT_INTERVAL=0.1 and prints the median elapsed
# time of each and the difference.
#
# Usage: benchmarks/snapshots/snapshot_overhead.sh [build-dir] [repetitions] [iterations]
set -euo pipefail
build=${1:-build}
reps=${2:-7}
iterations=${3:-3000}
workload="$build/bin/ompp_snapshot_workload"
if [[ ! -x $workload ]]; then
    echo "snapshot_overhead.sh: $workload not found; build the target ompp_snapshot_workload first" >&2
    exit 1
fi
outdir=$(mktemp -d)
trap 'rm -rf "$outdir"' EXIT
export OMPP_OUTDIR=$outdir OMPP_QUIET=1 OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}

median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

off=() on=()
for ((i = 0; i < reps; i++)); do
    # interleaved, so drift in machine load hits both alike
    off+=("$(env -u OMPP_SNAPSHOT_INTERVAL "$workload" "$iterations" | cut -d' ' -f1)")
    on+=("$(OMPP_SNAPSHOT_INTERVAL=0.1 "$workload" "$iterations" | cut -d' ' -f1)")
done
snapshots=$(/usr/bin/python3 -c '
import glob, json, sys
counts = [len(json.load(open(f))["snapshots"]) for f in glob.glob(sys.argv[1] + "/*.json")]
print(max(counts))' "$outdir")
nodes=$(/usr/bin/python3 -c '
import glob, json, sys
print(max(len(json.load(open(f))["nodes"]) for f in glob.glob(sys.argv[1] + "/*.json")))' "$outdir")
m_off=$(printf '%s\n' "${off[@]}" | median)
m_on=$(printf '%s\n' "${on[@]}" | median)
echo "workload: $iterations iterations x 64 user regions + loop + critical, $OMP_NUM_THREADS threads, $nodes call-tree nodes"
echo "runs per setting: $reps (interleaved)"
echo "median elapsed without snapshots : $m_off s"
echo "median elapsed with 0.1 s interval: $m_on s  ($snapshots snapshots in the longest run)"
awk -v a="$m_off" -v b="$m_on" -v n="$snapshots" 'BEGIN {
    printf "snapshot overhead: %+.2f %% of elapsed time", 100 * (b - a) / a
    if (n > 0) printf ", %.2f ms per snapshot", 1000 * (b - a) / n
    printf "\n" }'
