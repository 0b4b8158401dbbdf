#!/usr/bin/env bash
# `cmake --install` gives a relocatable prefix: install into a temporary
# prefix, move it elsewhere, then build and run the sample project with the
# moved prefix's ompp-cc/ompp-c++ (found headers and runtime relative to the
# tools, runtime found by the program through its rpath).
#
#   run_install_test.sh <build dir> <runtime option|DEFAULT|SKIP>
set -euo pipefail
build=$1 runtime=$2
here=$(cd "$(dirname "$0")" && pwd)
[ "$runtime" = SKIP ] && { echo "SKIP: no POMP2 library to link against in this build"; exit 77; }
[ "$runtime" = DEFAULT ] && runtime=""

work=$(mktemp -d /tmp/ompp-install-test-XXXXXX)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/first" > "$work/install.log"
mv "$work/first" "$work/moved"
prefix=$work/moved

for f in bin/ompp-instrument bin/ompp-cc bin/ompp-c++ include/pomp2/pomp2_lib.h \
         include/pomp2/pomp2_user.h; do
  [ -e "$prefix/$f" ] || { echo "FAIL: $f not installed"; cat "$work/install.log"; exit 1; }
done
[ "$(readlink "$prefix/bin/ompp-cc")" = ompp-instrument ] ||
  { echo "FAIL: ompp-cc is not a relative link to ompp-instrument"; exit 1; }
if [ -z "$runtime" ]; then
  [ -e "$prefix/lib/libompp.so" ] || { echo "FAIL: lib/libompp.so not installed"; exit 1; }
fi

cp -r "$here/../projects/sample" "$work/src"
export OMPP_INSTRUMENT_OPTIONS="$runtime --verbose"
make -C "$work/src" -s CC="$prefix/bin/ompp-cc" CXX="$prefix/bin/ompp-c++" 2> "$work/build.log" ||
  { cat "$work/build.log"; exit 1; }
# The moved prefix's headers were used, and nothing of the build tree.
grep -q -- "-isystem $prefix/include" "$work/build.log" ||
  { echo "FAIL: compiled without -isystem $prefix/include"; cat "$work/build.log"; exit 1; }
if grep -q -- "$build" "$work/build.log"; then
  echo "FAIL: the moved prefix still refers to the build tree"; cat "$work/build.log"; exit 1
fi
if [ -z "$runtime" ]; then
  # Captured first: with pipefail, `ldd | grep -q` fails whenever grep's
  # early exit hits ldd with SIGPIPE.
  libraries=$(ldd "$work/src/histogram_app")
  grep -q "$prefix/lib/libompp.so" <<<"$libraries" ||
    { echo "FAIL: the program does not load the moved prefix's libompp"; echo "$libraries"; exit 1; }
fi
(cd "$work" && OMP_NUM_THREADS=2 "$work/src/histogram_app")
echo "PASS relocated prefix"
