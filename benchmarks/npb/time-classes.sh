#!/bin/bash
# Times every NPB kernel at every class and at 1 and 2 threads and prints a
# Markdown table: the fastest and the median time_s of RUNS runs (the fastest
# is the better estimate on a machine shared with other work), whether every
# run verified, and the checksum (docs/benchmarks-npb.md holds this machine's
# table).
#
# Usage: time-classes.sh BIN_DIR [RUNS]     (RUNS defaults to 3)
#   BIN_DIR  the directory holding npb_cg, npb_ep, ... (e.g. build/bin)
# Environment: NPB_KERNELS (default "cg ep ft is mg"), NPB_CLASSES
# (default "S W A"), NPB_THREADS (default "1 2").
set -euo pipefail

usage() { sed -n '2,12s/^# \{0,1\}//p' "$0"; }
if [[ $# -ge 1 && ($1 == -h || $1 == --help) ]]; then
  usage
  exit 0
fi
if [[ $# -lt 1 || $# -gt 2 ]]; then
  usage >&2
  exit 2
fi
bin_dir=$1
runs=${2:-3}
if ! [[ $runs =~ ^[1-9][0-9]*$ ]]; then
  echo "time-classes.sh: RUNS must be a positive integer, not '$runs'" >&2
  exit 2
fi

echo "| kernel | class | threads | fastest s | median s | verified | checksum |"
echo "|--------|-------|---------|-----------|----------|----------|----------|"
status=0
for kernel in ${NPB_KERNELS:-cg ep ft is mg}; do
  program=$bin_dir/npb_$kernel
  if [[ ! -x $program ]]; then
    echo "time-classes.sh: no executable $program" >&2
    exit 2
  fi
  for class in ${NPB_CLASSES:-S W A}; do
    for threads in ${NPB_THREADS:-1 2}; do
      times=()
      verified=1
      checksum=
      for ((run = 0; run < runs; run++)); do
        line=$(OMP_NUM_THREADS=$threads "$program" --class "$class" | tail -n 1) || verified=0
        [[ $line == *" verified=1 "* ]] || verified=0
        times+=("$(sed -E 's/.* time_s=([0-9.]+) .*/\1/' <<<"$line")")
        checksum=$(sed -E 's/.* checksum=([^ ]+)$/\1/' <<<"$line")
      done
      sorted=$(printf '%s\n' "${times[@]}" | sort -g)
      fastest=$(sed -n 1p <<<"$sorted")
      median=$(sed -n "$(((runs + 1) / 2))p" <<<"$sorted")
      echo "| $kernel | $class | $threads | $fastest | $median | $verified | $checksum |"
      [[ $verified == 1 ]] || status=1
    done
  done
done
exit $status
