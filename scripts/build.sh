#!/usr/bin/env bash
# Configure and build the C library, the gauss command and the C tests, optimised (-O2), into
# build/release. Extra arguments go to the CMake configure step, e.g.
#   bash scripts/build.sh -DCMAKE_C_FLAGS="-march=native"
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh --system-only

cmake -S . -B build/release \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_FLAGS_RELEASE="-O3 -DNDEBUG" \
  -DGAUSS_TESTS=ON -DGAUSS_TOOLS=ON \
  "$@" >/dev/null
cmake --build build/release -j "$(nproc)"
