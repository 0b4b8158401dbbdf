#!/usr/bin/env bash
# Builds everything and runs every test: the main build (instrumenter,
# runtime, benchmarks' smoke runs) and the runtime's tests again under
# AddressSanitizer+UBSan and ThreadSanitizer.  This is what CI runs; the
# default preset also runs the libgomp and LLVM OpenMP corpora's CI samples
# (label corpus, which fetch the gcc-12 and llvm-toolchain-16 source packages
# from Debian if they are not cached yet) and
# the MPI tests (label mpi: Open MPI is installed for them, docs/mpi.md).
set -euo pipefail
cd "$(dirname "$0")/.."
OMPP_WITH_MPI=1 scripts/install-deps.sh

jobs=$(nproc)
for preset in default asan tsan; do
  echo "=== ompp: preset ${preset} ==="
  corpus=()
  # The default preset's instrumenter is an assertion build here (no extra
  # build: the same objects, with assert/llvm_unreachable and LLVM's checks).
  [ "${preset}" = default ] && corpus=(-DOMPP_CORPUS_TESTS=ON -DOMPP_ASSERTIONS=ON -DOMPP_WITH_MPI=ON)
  cmake --preset "${preset}" "${corpus[@]}" >/dev/null
  cmake --build --preset "${preset}" -j "${jobs}"
  ctest --preset "${preset}" -j "${jobs}"
done
