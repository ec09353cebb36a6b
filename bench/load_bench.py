"""Load-and-compile time of gauss against MuJoCo on the composed benchmarks (MuJoCo's 22 and 100
humanoids: <replicate> and <attach>) and five robot models of the corpus: per model, rounds that
alternate the two engines in this one process (gs_loadXML through ctypes, without Python views;
mujoco.MjModel.from_xml_path), the median of each; the ratio is MuJoCo's time over gauss's (above
1: gauss loads faster). MuJoCo's compiler also makes the pixels of every texture (builtin
checkers, gradients and noise), which gauss's model does not hold (its renderer makes them):
--no-textures times copies of the models without <texture> elements and texture references, like
for like.

Mesh-heavy models (--meshes, or named "mesh_arm"): a six-link arm whose links are STL and OBJ files
of 2e4 to 1e5 triangles (bench/mesh_models.py writes them into a temporary folder), as MJCF and as
URDF. Both engines keep the meshes they build from files in a process-wide cache (MuJoCo's asset
cache, gauss's mesh cache): repeated loads, as timed here, hit it; --cold empties both caches
before every load (the first load of a model in a process).

    PYTHONPATH=python .venv/bin/python bench/load_bench.py [--rounds 7] [--no-textures] [--meshes]
        [--cold] [models...]
"""
import argparse
import os
import statistics
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import mujoco  # noqa: E402

import gauss  # noqa: E402
from load_time import gauss_load, mujoco_load  # noqa: E402
from mesh_models import write_models  # noqa: E402

MODELS = [
    "tests/models/mujoco/humanoid/22_humanoids.xml",
    "tests/models/mujoco/humanoid/100_humanoids.xml",
    "tests/models/dm_control/humanoid_CMU.xml",
    "tests/models/dm_control/quadruped.xml",
    "tests/models/dm_control/manipulator.xml",
    "tests/models/gymnasium/ant.xml",
    "tests/models/gymnasium/pusher.xml",
]


def without_textures(path, out_dir, done=None):
    """a copy of the model at path in out_dir (same file name), includes inlined, without
    textures; the sub-models it names (<model file>) copied the same way beside it"""
    done = set() if done is None else done
    base = os.path.dirname(os.path.abspath(path))

    def inline(elem, here):
        for i, child in reversed(list(enumerate(elem))):
            if child.tag == "include":
                inc = os.path.join(here, child.get("file"))
                sub = ET.parse(inc).getroot()
                inline(sub, os.path.dirname(inc))
                elem.remove(child)
                for k, c in enumerate(list(sub)):
                    elem.insert(i + k, c)
            elif child.tag == "texture":
                elem.remove(child)
            else:
                child.attrib.pop("texture", None)
                if child.tag == "model" and child.get("file"):
                    target = os.path.join(here, child.get("file"))
                    child.set("file", os.path.basename(target))
                    if target not in done:
                        done.add(target)
                        without_textures(target, out_dir, done)
                inline(child, here)

    root = ET.parse(path).getroot()
    inline(root, base)
    out = os.path.join(out_dir, os.path.basename(path))
    ET.ElementTree(root).write(out)
    return out


def timed(fn, path, seconds):
    """seconds per call of fn(path), over at least `seconds` of calls"""
    n, t0 = 0, time.perf_counter()
    while True:
        fn(path)
        n += 1
        t = time.perf_counter() - t0
        if t >= seconds:
            return t / n


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("models", nargs="*")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--seconds", type=float, default=0.3, help="least duration of a round")
    ap.add_argument("--no-textures", action="store_true",
                    help="time copies without textures (MuJoCo makes their pixels, gauss does not)")
    ap.add_argument("--meshes", action="store_true", help="time the mesh-heavy arm (MJCF, URDF)")
    ap.add_argument("--cold", action="store_true",
                    help="empty both engines' mesh caches before every load")
    args = ap.parse_args()
    tmp = tempfile.TemporaryDirectory()
    models = [p for p in args.models if p != "mesh_arm"]
    if not args.models and not args.meshes:
        models = [os.path.join(ROOT, p) for p in MODELS]
    if args.cold:
        cache = mujoco.mj_getCache()
        gload, mload = gauss_load, mujoco_load

        def gauss_cold(path):
            gauss.clear_mesh_cache()
            gload(path)

        def mujoco_cold(path):
            mujoco.mj_clearCache(cache)
            mload(path)
    if args.no_textures:
        copies = []
        for k, p in enumerate(models):
            d = os.path.join(tmp.name, str(k))
            os.mkdir(d)
            copies.append(without_textures(p, d))
        models = copies
    # the mesh arm has no textures and names its meshes beside it: never copied
    if args.meshes or "mesh_arm" in args.models:
        models += write_models(os.path.join(tmp.name, "meshes"))
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    print("| model | gauss ms | MuJoCo ms | ratio |")
    print("|---|---:|---:|---:|")
    gfn, mfn = (gauss_cold, mujoco_cold) if args.cold else (gauss_load, mujoco_load)
    for path in models:
        gauss_load(path)  # warm: files in the page cache, code paged in
        mujoco_load(path)
        tg, tm = [], []
        for _ in range(args.rounds):
            tg.append(timed(gfn, path, args.seconds))
            tm.append(timed(mfn, path, args.seconds))
        g, m = statistics.median(tg), statistics.median(tm)
        flag = " **< 1**" if m / g < 1 else ""
        name = os.path.basename(path) if args.no_textures or path.startswith(tmp.name) \
            else os.path.relpath(path, ROOT)
        print(f"| {name} | {g * 1e3:.2f} | {m * 1e3:.2f} | {m / g:.2f}{flag} |")


if __name__ == "__main__":
    main()
