# Sourced by setup.sh and wheel.sh, from the repository root: pgo_settings, the pip
# --config-settings that build the Python package's library with scripts/build.sh's training
# profile where it has made one (CMakeLists.txt's GAUSS_PGO; the profile names its objects by
# their paths below the build directory, so build/python's match), else without. The numbers are
# the same either way.
pgo_settings=(--config-settings=cmake.define.GAUSS_PGO=OFF)
if [ -d build/pgo/profile ]; then
  pgo_settings=(--config-settings=cmake.define.GAUSS_PGO=USE
                "--config-settings=cmake.define.GAUSS_PGO_DIR=$PWD/build/pgo/profile")
fi
