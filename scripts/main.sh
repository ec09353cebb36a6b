#!/usr/bin/env bash
# Build everything, then the main job: five simulated seconds of the Gymnasium humanoid without
# contacts or constraints, printing steps per second, the real-time factor and the energy.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
bash scripts/build.sh

build/release/gauss simulate tests/models/gymnasium/humanoid.xml \
  --disable contact,constraint --time 5
