"""Write copies of models with what gauss does not simulate yet removed (actuators, tendons,
sensors, equality, contact pairs, keyframes, fluid options; contacts and constraints disabled), so
that a benchmark compares the same work in both engines.

    .venv/bin/python bench/smooth_models.py tests/models/gymnasium/humanoid.xml ...
    build/release/gauss bench build/bench/humanoid.xml --disable contact,constraint
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "python"))

import oracle  # noqa: E402

out_dir = os.path.join(HERE, "..", "build", "bench")
os.makedirs(out_dir, exist_ok=True)
for path in sys.argv[1:]:
    xml, stripped = oracle.prepare_xml(path)
    out = os.path.join(out_dir, os.path.basename(path))
    with open(out, "w") as f:
        f.write(xml)
    print(f"{os.path.relpath(out)}: removed {', '.join(stripped) or 'nothing'}")
