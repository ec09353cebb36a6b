#!/usr/bin/env bash
# Set up a Debian machine for gauss; safe to run again and fast when nothing changed.
#
#   bash scripts/setup.sh                 system packages, .venv, the gauss Python package
#   bash scripts/setup.sh --system-only   system packages only (what scripts/build.sh needs)
#
# System packages (only those missing): build-essential, cmake (when no cmake is on PATH),
# libxml2-dev, libpng-dev, libqhull-dev, libccd-dev, pkg-config, and python3-venv when python3 cannot make a
# virtual environment; for the offscreen renderer (libgauss_render) the EGL and GL headers and
# Mesa's software drivers (libegl-dev libgl-dev libegl1 libegl-mesa0 libgl1-mesa-dri libosmesa6)
# and ffmpeg for `gauss render --out FILE.mp4`; libglfw3 and xvfb for the viewer and its tests; unless --system-only, also clang and its libFuzzer runtime
# (libclang-rt-N-dev) for scripts/fuzz.sh.
# Then .venv (python3 -m venv) with tests/requirements.txt, and the package itself installed with
# `pip install .` whenever its sources changed (the CMake build under build/python is reused).
set -euo pipefail
cd "$(dirname "$0")/.."

system_only=0
case "${1:-}" in
  --system-only) system_only=1 ;;
  "") ;;
  *) echo "usage: bash scripts/setup.sh [--system-only]" >&2; exit 2 ;;
esac

# ---- system packages ----
want=(build-essential libxml2-dev libpng-dev libqhull-dev pkg-config)
# libccd: MJCF's older convex pipeline (flag nativeccd="disable", src/collision/convex_mpr.c),
# also the comparison benchmark and test of the convex narrow phase against it
want+=(libccd-dev)
# the offscreen renderer: headers to build it (it opens libEGL or libOSMesa at run time), Mesa's
# llvmpipe for machines without a GPU, and ffmpeg to encode videos
want+=(libegl-dev libgl-dev libegl1 libegl-mesa0 libgl1-mesa-dri libosmesa6 ffmpeg)
# the interactive viewer: GLFW (opened at run time) and, for its tests, a virtual X display
want+=(libglfw3 xvfb)
command -v cmake >/dev/null 2>&1 || want+=(cmake)
if ! command -v python3 >/dev/null 2>&1; then
  want+=(python3 python3-venv)
elif [ "$system_only" = 0 ] && ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
  want+=(python3-venv)
fi

# the fuzz targets (scripts/fuzz.sh) need clang, then the runtime that matches its version
[ "$system_only" = 0 ] && want+=(clang)

install_missing() {
  local missing=() pkg
  for pkg in "$@"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
  [ "${#missing[@]}" -eq 0 ] && return 0
  echo "setup: installing ${missing[*]}"
  local sudo=()
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      sudo=(sudo)
    else
      echo "setup: need root (or sudo) to install ${missing[*]}" >&2
      exit 1
    fi
  fi
  export DEBIAN_FRONTEND=noninteractive
  if [ -z "${apt_updated:-}" ]; then
    "${sudo[@]}" apt-get update -qq
    apt_updated=1
  fi
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

install_missing "${want[@]}"
if [ "$system_only" = 0 ]; then
  # Debian ships libFuzzer (-fsanitize=fuzzer) in libclang-rt-<clang major>-dev
  clang_major=$(clang -dumpversion 2>/dev/null | cut -d. -f1)
  [ -n "$clang_major" ] && install_missing "libclang-rt-$clang_major-dev"
fi

[ "$system_only" = 1 ] && exit 0

# ---- virtual environment ----
venv=.venv
py="$venv/bin/python"
if [ ! -x "$py" ]; then
  echo "setup: creating $venv"
  rm -rf "$venv"
  python3 -m venv "$venv"
fi

export PIP_DISABLE_PIP_VERSION_CHECK=1

req_hash=$(sha256sum tests/requirements.txt | cut -d' ' -f1)
if [ "$(cat "$venv/.requirements.sha256" 2>/dev/null || true)" != "$req_hash" ]; then
  echo "setup: installing tests/requirements.txt into $venv"
  "$py" -m pip install -q -r tests/requirements.txt
  echo "$req_hash" >"$venv/.requirements.sha256"
fi

# ---- the gauss Python package: rebuilt and re-installed when its sources change ----
src_hash=$(
  find pyproject.toml CMakeLists.txt include src python -type f \
       -not -path '*/__pycache__/*' -not -name '*.pyc' -print0 2>/dev/null \
    | sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1
)
if [ "$(cat "$venv/.gauss.sha256" 2>/dev/null || true)" != "$src_hash" ] \
   || ! "$py" -c 'import importlib.util as u, sys; sys.exit(u.find_spec("gauss") is None)' \
        >/dev/null 2>&1; then
  echo "setup: building and installing the gauss Python package into $venv"
  source scripts/pgo_settings.sh
  CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" \
    "$py" -m pip install -q --no-build-isolation --no-deps --force-reinstall \
    "${pgo_settings[@]}" .
  echo "$src_hash" >"$venv/.gauss.sha256"
fi
