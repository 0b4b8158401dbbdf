#!/usr/bin/env bash
# --opari2-compatible end to end: one of OPARI2's own test inputs is
# instrumented by opari2 and by `ompp-instrument --opari2-compatible`; each
# object goes through OPARI2's init step (nm -B | pomp2-parse-init-regions.awk)
# and is linked against OPARI2's reference POMP2 library /usr/lib/libpomp.a,
# which prints one line per event.  With one thread (OMP_THREAD_LIMIT=1, so
# explicit num_threads clauses too) both programs must print
# the same event stream and the same output.
#
#   run_opari2_compat_test.sh <ompp-instrument> <input.c>
set -euo pipefail
tool=$1 input=$2
name=$(basename "$input" .c)
for need in opari2 /usr/lib/libpomp.a /usr/libexec/pomp2-parse-init-regions.awk; do
  command -v "$need" > /dev/null || [ -e "$need" ] || { echo "SKIP: $need missing"; exit 77; }
done

work=$(mktemp -d /tmp/ompp-opari2-test-XXXXXX)
trap 'rm -rf "$work"' EXIT
cp "$input" "$work/$name.c"
cd "$work"

link_and_run() { # <object> <label>
  nm -B "$1" | awk -f /usr/libexec/pomp2-parse-init-regions.awk > "init_$2.c"
  gcc -c "init_$2.c" -o "init_$2.o"
  "$tool" --opari2-compatible --runtime-library=/usr/lib/libpomp.a -- \
    gcc -fopenmp "$1" "init_$2.o" -o "prog_$2"
  local status=0
  # OMP_THREAD_LIMIT also caps explicit num_threads(n): one thread everywhere.
  OMP_NUM_THREADS=1 OMP_THREAD_LIMIT=1 "./prog_$2" > "stdout_$2.txt" 2> "events_$2.txt" || status=$?
  [ $status -eq 0 ] || { echo "FAIL: the $2-instrumented program exited with status $status"; tail -5 "events_$2.txt"; }
  return $status
}

# OPARI2, as its documentation and test suite run it.
opari2 "$name.c" "$name.mod.c" 2> opari2.log
gcc -fopenmp -I/usr/include -c "$name.mod.c" -o opari2.o
link_and_run opari2.o opari2

# ompp-instrument, as a compiler wrapper.
"$tool" --opari2-compatible -- gcc -fopenmp -c "$name.c" -o ompp.o
status=0
link_and_run ompp.o ompp || status=1

diff -u events_opari2.txt events_ompp.txt || status=1
diff -u stdout_opari2.txt stdout_ompp.txt || status=1
[ "$(wc -l < events_opari2.txt)" -gt 2 ] || { echo "FAIL: OPARI2 produced no events"; status=1; }
if [ $status -eq 0 ]; then
  echo "PASS $name: $(wc -l < events_ompp.txt) identical events"
else
  echo "FAIL $name: the event streams differ (- opari2, + ompp)"
fi
exit $status
