#!/usr/bin/env bash
# Build everything, then the main job: five simulated seconds of the Gymnasium humanoid without
# contacts or constraints, printing steps per second, the real-time factor and the energy.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
bash scripts/build.sh

# the humanoid falls onto the floor and lies there: contacts, limits and the model's own solver
build/release/gauss simulate tests/models/gymnasium/humanoid.xml --time 5
