#!/usr/bin/env bash
# The main job on a bundled example: build ompp, instrument and build
# docs/examples/demo.cpp with ompp-c++, run it on 2 threads, print its profile.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh

cmake --preset default >/dev/null
cmake --build --preset default -j "$(nproc)" --target ompp-instrument ompp ompp_headers

work=build/demo
mkdir -p "$work"
rm -f "$work"/demo.*.ompp.txt "$work"/demo.*.ompp.json
build/bin/ompp-c++ -O2 -fopenmp docs/examples/demo.cpp -o "$work/demo"
(cd "$work" && OMP_NUM_THREADS=2 OMPP_QUIET=1 ./demo)
cat "$work"/demo.2-0.ompp.txt
echo
echo "ompp: report and JSON profile are in $work/ (demo.2-0.ompp.txt, demo.2-0.ompp.json)" >&2
