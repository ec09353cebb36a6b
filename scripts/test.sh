#!/usr/bin/env bash
# Every test: set-up and the optimised build, the C tests (ctest), the C tests again built with
# AddressSanitizer + UndefinedBehaviorSanitizer (build/asan), a short run of the gauss command
# under the sanitizers, the fuzz targets for 50 s each (scripts/fuzz.sh: xml, binary, fields;
# GAUSS_FUZZ_SECONDS changes the time, 0 skips them), a 60 s soak under the sanitizers
# (scripts/soak.sh; GAUSS_SOAK_SECONDS, 0 skips it), the manylinux wheel (scripts/wheel.sh, for
# tests/python/test_wheel.py), then the Python tests (pytest). The fuzzers and the soak run one
# after the other in the background while pytest runs: each is a single process with a fixed time
# budget, pytest mostly keeps one core busy, so on two cores they overlap instead of adding ~3.5
# minutes; their output is printed after pytest's. Exits non-zero when anything failed; the last
# line printed is pytest's summary.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

jobs=$(nproc)
failed=()

# the library first: its training profile is then there for setup.sh's Python package build
bash scripts/build.sh || { echo "test: build failed" >&2; exit 1; }
bash scripts/setup.sh || { echo "test: set-up failed" >&2; exit 1; }

echo "== C tests (build/release)"
ctest --test-dir build/release --output-on-failure -j "$jobs" || failed+=("C tests")

echo "== C tests under AddressSanitizer + UBSan (build/asan)"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
if cmake -S . -B build/asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-O1 -g" \
     -DGAUSS_SANITIZE=ON -DGAUSS_TESTS=ON -DGAUSS_TOOLS=ON >/dev/null \
   && cmake --build build/asan -j "$jobs" >/dev/null; then
  ctest --test-dir build/asan --output-on-failure -j "$jobs" || failed+=("C tests (sanitizers)")
  echo "== gauss simulate under the sanitizers"
  log=build/asan/simulate.log
  if ! { build/asan/gauss simulate tests/models/gymnasium/humanoid.xml --time 1 &&
          build/asan/gauss simulate tests/models/dm_control/stacker.xml --time 0.5; } >"$log" 2>&1; then
    cat "$log"
    failed+=("gauss simulate (sanitizers)")
  fi
else
  failed+=("sanitizer build")
fi

if [ "${#failed[@]}" -gt 0 ]; then
  printf 'test: FAILED:'
  printf ' [%s]' "${failed[@]}"
  printf '\n'
else
  echo "test: C tests passed (release and sanitizers)"
fi

echo "== manylinux wheel (scripts/wheel.sh), installed into a fresh venv by tests/python/test_wheel.py"
if whl=$(bash scripts/wheel.sh build/dist | tail -1) && [ -n "$whl" ]; then
  export GAUSS_WHEEL="$PWD/$whl"
else
  failed+=("wheel")
fi

# the fuzzers, then the soak, in the background (their own log; its exit status in a file)
background_log=build/fuzz_soak.log
background_rc=build/fuzz_soak.rc
rm -f "$background_rc"
(
  rc=0
  fuzz_seconds=${GAUSS_FUZZ_SECONDS:-50}
  if [ "$fuzz_seconds" != 0 ]; then
    echo "== fuzzing: MJCF reader, binary loader, model fields, ${fuzz_seconds}s each (scripts/fuzz.sh)"
    bash scripts/fuzz.sh "$fuzz_seconds" xml binary fields || rc=1
  fi
  soak_seconds=${GAUSS_SOAK_SECONDS:-60}
  if [ "$soak_seconds" != 0 ]; then
    bash scripts/soak.sh "$soak_seconds" || rc=$((rc | 2))
  fi
  echo "$rc" > "$background_rc"
) > "$background_log" 2>&1 &
background=$!

echo "== Python tests (the fuzzers and the soak run meanwhile: $background_log)"
pytest_log=build/pytest.log
.venv/bin/python -m pytest -q tests/python 2>&1 | tee "$pytest_log"
rc=${PIPESTATUS[0]}
# 5: pytest collected no test; that alone is not a failure
if [ "$rc" -ne 0 ] && [ "$rc" -ne 5 ]; then
  failed+=("Python tests")
fi

wait "$background"
cat "$background_log"
background_status=$(cat "$background_rc" 2>/dev/null || echo 3)
[ $((background_status & 1)) -ne 0 ] && failed+=("fuzzing")
[ $((background_status & 2)) -ne 0 ] && failed+=("soak")

if [ "${#failed[@]}" -gt 0 ]; then
  printf 'test: FAILED:'
  printf ' [%s]' "${failed[@]}"
  printf '\n'
fi
# pytest's summary last, as before the background output was added
tail -n 1 "$pytest_log"

[ "${#failed[@]}" -eq 0 ]
