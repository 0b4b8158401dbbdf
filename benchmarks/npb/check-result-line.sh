#!/bin/sh
# Usage: check-result-line.sh KERNEL COMMAND [ARGS...]
# Runs an NPB kernel and fails unless it exits with status 0 and its last
# output line is a RESULT line for KERNEL with verified=1 (the kernel protocol
# of docs/benchmarks.md).
set -u
kernel=$1
shift
output=$("$@")
status=$?
printf '%s\n' "$output"
if [ "$status" -ne 0 ]; then
  echo "check-result-line: '$*' exited with status $status" >&2
  exit 1
fi
last=$(printf '%s\n' "$output" | tail -n 1)
pattern="^RESULT kernel=$kernel variant=class-[A-Z] size=[a-z]+ threads=[0-9]+ time_s=[0-9]+\.[0-9]+ verified=1 checksum=[-+0-9.e]+$"
if ! printf '%s\n' "$last" | grep -Eq "$pattern"; then
  echo "check-result-line: last line does not follow the kernel protocol:" >&2
  echo "  $last" >&2
  exit 1
fi
