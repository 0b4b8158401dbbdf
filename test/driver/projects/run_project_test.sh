#!/usr/bin/env bash
# Builds the sample project (test/driver/projects/sample) through ompp and
# checks the result: the program runs, its objects call POMP2 (so they were
# instrumented), a second build has nothing to do (dependency files name the
# real sources), and the source tree is unchanged.
#
#   run_project_test.sh <make|cmake-compiler|cmake-launcher> <clang|gcc> <bin dir> <runtime option|DEFAULT|SKIP>
set -euo pipefail
mode=$1 family=$2 bindir=$3 runtime=$4
here=$(cd "$(dirname "$0")" && pwd)
[ "$runtime" = SKIP ] && { echo "SKIP: no POMP2 library to link against in this build"; exit 77; }
[ "$runtime" = DEFAULT ] && runtime=""
case $family in
  clang) cc=clang-16 cxx=clang++-16 ;;
  gcc) cc=gcc cxx=g++ ;;
esac
export OMPP_INSTRUMENT_OPTIONS=$runtime OMPP_CC=$cc OMPP_CXX=$cxx

work=$(mktemp -d /tmp/ompp-project-test-XXXXXX)
trap 'rm -rf "$work"' EXIT
cp -r "$here/sample" "$work/src"
digest() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum); }

case $mode in
  make)
    # Make builds in its source directory; compare against a pristine copy.
    cp -r "$work/src" "$work/pristine"
    make -C "$work/src" -s CC="$bindir/ompp-cc" CXX="$bindir/ompp-c++"
    app=$work/src/histogram_app
    make -C "$work/src" -q CC="$bindir/ompp-cc" CXX="$bindir/ompp-c++" ||
      { echo "FAIL: a second make would rebuild (dependency files?)"; cat "$work"/src/*.d; exit 1; }
    for f in histogram.c histogram.h main.cpp Makefile CMakeLists.txt; do
      cmp "$work/src/$f" "$work/pristine/$f"
    done
    ;;
  cmake-compiler | cmake-launcher)
    before=$(digest "$work/src")
    if [ "$mode" = cmake-compiler ]; then
      args=(-DCMAKE_C_COMPILER="$bindir/ompp-cc" -DCMAKE_CXX_COMPILER="$bindir/ompp-c++")
    else
      launcher="$bindir/ompp-instrument;--"
      args=(-DCMAKE_C_COMPILER=$cc -DCMAKE_CXX_COMPILER=$cxx
            -DCMAKE_C_COMPILER_LAUNCHER="$launcher" -DCMAKE_CXX_COMPILER_LAUNCHER="$launcher"
            -DCMAKE_C_LINKER_LAUNCHER="$launcher" -DCMAKE_CXX_LINKER_LAUNCHER="$launcher")
    fi
    cmake -S "$work/src" -B "$work/build" -G Ninja "${args[@]}" > "$work/configure.log" ||
      { cat "$work/configure.log"; exit 1; }
    cmake --build "$work/build"
    app=$work/build/histogram_app
    # Captured first: with pipefail, `ninja | grep -q` can fail on SIGPIPE.
    second_build=$(ninja -C "$work/build" -n)
    if ! grep -q "no work to do" <<<"$second_build"; then
      echo "FAIL: a second build would rebuild:"; ninja -C "$work/build" -n -d explain; exit 1
    fi
    [ "$before" = "$(digest "$work/src")" ] || { echo "FAIL: the source tree changed"; exit 1; }
    ;;
  *) echo "unknown mode $mode"; exit 2 ;;
esac

symbols=$(nm "$app")
grep -q 'POMP2_Parallel_fork' <<< "$symbols" || { echo "FAIL: $app does not call POMP2"; exit 1; }
(cd "$work" && OMP_NUM_THREADS=2 "$app")
echo "PASS $mode ($family)"
