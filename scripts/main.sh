#!/usr/bin/env bash
# Build everything, then the main job: five simulated seconds of the Gymnasium humanoid without
# contacts or constraints, printing steps per second, the real-time factor and the energy.
set -euo pipefail
cd "$(dirname "$0")/.."

# the library first: its profile-guided build leaves the training profile that setup.sh's build
# of the Python package then uses (scripts/pgo_settings.sh)
bash scripts/build.sh
bash scripts/setup.sh

# the humanoid falls onto the floor and lies there: contacts, limits and the model's own solver
build/release/gauss simulate tests/models/gymnasium/humanoid.xml --time 5

# and a short video of it (where the renderer is built: it needs the EGL/GL headers and ffmpeg,
# which setup.sh installs)
if [ -e build/release/libgauss_render.so ]; then
  build/release/gauss render tests/models/gymnasium/humanoid.xml --camera track --time 3 \
    --out build/humanoid.mp4
fi
