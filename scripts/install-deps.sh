#!/usr/bin/env bash
# Installs the Debian packages ompp builds, tests and benchmarks with, if any
# is missing.  Safe to run repeatedly; needs root (or sudo) only to install.
# OMPP_WITH_MPI=1 adds Open MPI, for libompp_mpi and the MPI tests
# (docs/mpi.md); ompp itself never needs it.
set -euo pipefail

packages=(
  cmake ninja-build g++-12
  clang-16 libclang-16-dev llvm-16-dev llvm-16-tools libomp-16-dev libclang-rt-16-dev
  libfmt-dev catch2 nlohmann-json3-dev libpapi-dev
  libbenchmark-dev libgtest-dev
  python3 python3-matplotlib python3-pytest graphviz time
  opari2 libpomp2-dev
  libotf2-trace-dev otf2-tools
  dpkg-dev gdb
  chromium
)
[ "${OMPP_WITH_MPI:-0}" = 1 ] && packages+=(openmpi-bin libopenmpi-dev)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# npm installs ompp-view html's pinned libraries and puppeteer-core into the
# build tree (scripts/ompp-view-deps, CMake target ompp_view_assets).  A
# Node.js from elsewhere (NodeSource, nvm) brings its own npm; take
# Debian's only when there is none.
command -v npm >/dev/null || missing+=(nodejs npm)
[ ${#missing[@]} -eq 0 ] && exit 0

echo "ompp: installing ${missing[*]}" >&2
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
"${sudo_cmd[@]}" apt-get update -q
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
