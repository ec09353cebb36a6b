#!/usr/bin/env bash
# Soak: random corpus models (tests/models/**/*.xml) under random options, forces, controls and
# states, some NaN or huge, stepped for SECONDS (default 600) under AddressSanitizer and
# UndefinedBehaviorSanitizer; fails on any fault or sanitizer report.
#
#   bash scripts/soak.sh [SECONDS] [SEED]
#
# Builds the library into build/asan (as scripts/test.sh does) and the driver fuzz/soak.c against
# it (build/asan/soak); prints the steps done and the warnings the steps raised.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

seconds=${1:-600}
case "$seconds" in
  ''|*[!0-9]*) echo "usage: bash scripts/soak.sh [SECONDS] [SEED]" >&2; exit 2 ;;
esac
seed=${2:-$(date +%s)}
jobs=$(nproc)

cmake -S . -B build/asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-O1 -g" \
  -DGAUSS_SANITIZE=ON -DGAUSS_TESTS=ON -DGAUSS_TOOLS=ON >/dev/null &&
  cmake --build build/asan --target gauss_static -j "$jobs" >/dev/null ||
  { echo "soak: cannot build the library in build/asan" >&2; exit 1; }
cc=${CC:-cc}
san="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
"$cc" -std=c11 -O1 -g -Wall -Wextra $san -Iinclude fuzz/soak.c build/asan/libgauss.a \
  $(pkg-config --libs libxml-2.0 libpng) -lqhull_r -lccd -lm -o build/asan/soak ||
  { echo "soak: cannot build the driver" >&2; exit 1; }

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
echo "== soak for ${seconds}s (seed $seed)"
build/asan/soak "$seconds" tests/models "$seed"
rc=$?
if [ "$rc" -ne 0 ]; then
  echo "soak: FAILED (exit $rc); replay with: bash scripts/soak.sh $seconds $seed"
  exit 1
fi
echo "soak: passed"
