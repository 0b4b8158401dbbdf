#!/usr/bin/env bash
# Builds everything and runs every test: the main build (instrumenter,
# runtime, benchmarks' smoke runs) and the runtime's tests again under
# AddressSanitizer+UBSan and ThreadSanitizer.  This is what CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh

jobs=$(nproc)
for preset in default asan tsan; do
  echo "=== ompp: preset ${preset} ==="
  cmake --preset "${preset}" >/dev/null
  cmake --build --preset "${preset}" -j "${jobs}"
  ctest --preset "${preset}" -j "${jobs}"
done
