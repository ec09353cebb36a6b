#!/usr/bin/env bash
# Configure and build the C library, the gauss command and the C tests, optimised (-O3), into
# build/release. Extra arguments go to the CMake configure step, e.g.
#   bash scripts/build.sh -DCMAKE_C_FLAGS="-march=native"
#
# The library is built with profile-guided optimisation (GCC; CMakeLists.txt's GAUSS_PGO): a
# build with counting objects in build/pgo, a training run of its gauss command on the bundled
# models (scripts/pgo_train.sh, a few seconds), then build/release compiled with the counts. The
# numbers are the same as without it. GAUSS_PGO=0 in the environment builds without a profile,
# as does a training that fails (with a line saying so).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh --system-only

# the counting build and its training; 1 when a profile was made
train() {
  cmake -S . -B build/pgo \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_FLAGS_RELEASE="-O3 -DNDEBUG" \
    -DGAUSS_TESTS=OFF -DGAUSS_TOOLS=ON -DGAUSS_RENDER=OFF \
    -DGAUSS_PGO=GENERATE -DGAUSS_PGO_DIR="$profile" \
    "$@" >/dev/null &&
    cmake --build build/pgo -j "$(nproc)" --target gauss_cli >/dev/null &&
    # the counts add up run after run: a fresh profile each time
    rm -rf "$profile" &&
    bash scripts/pgo_train.sh build/pgo/gauss
}

pgo=(-DGAUSS_PGO=OFF)
profile="$PWD/build/pgo/profile"
if [ "${GAUSS_PGO:-1}" != 0 ]; then
  if train "$@"; then
    pgo=(-DGAUSS_PGO=USE -DGAUSS_PGO_DIR="$profile")
  else
    # the library is the same without a profile, only slower: build it anyway
    echo "build: the profile's training failed; building without a profile" >&2
    rm -rf "$profile"
  fi
fi

cmake -S . -B build/release \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_FLAGS_RELEASE="-O3 -DNDEBUG" \
  -DGAUSS_TESTS=ON -DGAUSS_TOOLS=ON \
  "${pgo[@]}" "$@" >/dev/null
cmake --build build/release -j "$(nproc)"
