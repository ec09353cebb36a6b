#!/usr/bin/env bash
# The training run of the profile-guided build (scripts/build.sh): the gauss command of a build
# configured with GAUSS_PGO=GENERATE steps the bundled models that bench/suite.py times (the
# corpus, MuJoCo's 22 and 100 humanoids, the Kinova arm, bench/models; not the scenes the suite
# took on later, humanoid100, stonehenge and the 3x3x3 cube, whose collision is not profiled and
# whose dynamics paths the scenes here already weigh) with the bench's fixed random
# controls, once with contacts and once without (smooth dynamics), so that the counts weigh the
# paths those steps take. Each run adds to the profile's counts: the caller starts from an empty
# profile directory.
#
# A model weighs in the profile by the work of its steps. The same number of steps for each
# (a second of simulated time each made the 100-humanoid scene, ~100 times a humanoid's work a
# step, most of the profile: the Gymnasium humanoid's own paths fell out of what GCC counts as
# hot, its smooth step ~3.5 % slower than with this), and a few for the scenes of many bodies.
#
#   bash scripts/pgo_train.sh build/pgo/gauss
set -euo pipefail
cd "$(dirname "$0")/.."
exe=${1:?usage: scripts/pgo_train.sh GAUSS_COMMAND}

run() {  # model, steps
  "$exe" simulate "$1" --steps "$2" --ctrl random >/dev/null
  "$exe" simulate "$1" --steps "$2" --ctrl random --disable contact >/dev/null
}
for model in tests/models/gymnasium/*.xml tests/models/dm_control/*.xml tests/models/mujoco/*.xml \
             tests/models/dm_control/kinova/jaco_arm.xml bench/models/humanoid_pgs_elliptic.xml; do
  run "$model" 300
done
for model in tests/models/mujoco/humanoid/22_humanoids.xml \
             tests/models/mujoco/humanoid/100_humanoids.xml bench/models/pile100.xml \
             bench/models/hfield_ellipsoids.xml; do
  run "$model" 10
done
