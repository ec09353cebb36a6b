"""Write copies of models with what gauss does not simulate yet removed, so that a benchmark
compares the same work in both engines.

    .venv/bin/python bench/smooth_models.py tests/models/gymnasium/humanoid.xml ...
    build/release/gauss bench build/bench/humanoid.xml --disable contact,constraint

By default (smooth dynamics only) it removes actuators, tendons, sensors, equality, contact pairs,
keyframes and fluid options, and disables contacts and constraints; the copies go to build/bench/.

    .venv/bin/python bench/smooth_models.py --contacts tests/models/gymnasium/humanoid.xml ...
    build/release/gauss bench build/bench/contacts/gymnasium/humanoid.xml

With --contacts it removes only actuators, sensors and keyframes (whose ctrl would name the removed
actuators) and fluid options, keeps tendons, equality and contact pairs, and leaves contacts and
constraints on; the copies go to build/bench/contacts/GROUP/, GROUP being the folder of the
original (gymnasium, dm_control: both have a humanoid). With zero controls the actuators of these
models apply no force, so the motion is the same; what goes is the work MuJoCo does for them.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "python"))

import oracle  # noqa: E402

args = sys.argv[1:]
contacts = "--contacts" in args
paths = [a for a in args if a != "--contacts"]

out_dir = os.path.join(HERE, "..", "build", "bench", *(["contacts"] if contacts else []))
os.makedirs(out_dir, exist_ok=True)
for path in paths:
    if contacts:
        xml, stripped = oracle.prepare_xml(path, {"contact": "enable", "constraint": "enable"},
                                           sections=("actuator", "sensor", "keyframe"))
    else:
        xml, stripped = oracle.prepare_xml(path)
    folder = out_dir
    if contacts:
        folder = os.path.join(out_dir, os.path.basename(os.path.dirname(os.path.abspath(path))))
        os.makedirs(folder, exist_ok=True)
    out = os.path.join(folder, os.path.basename(path))
    with open(out, "w") as f:
        f.write(xml)
    print(f"{os.path.relpath(out)}: removed {', '.join(stripped) or 'nothing'}")
