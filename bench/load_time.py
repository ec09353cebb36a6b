"""Time loading and compiling an MJCF file: gauss (gs_loadXML through ctypes, no Python views)
against MuJoCo (mujoco.MjModel.from_xml_path), alternating, same file, same run.

    .venv/bin/python bench/load_time.py tests/models/gymnasium/humanoid.xml [rounds]
"""
import ctypes
import statistics
import sys
import time

import mujoco
from gauss import _lib  # the installed package's libgauss (or GAUSS_LIBRARY)

lib = _lib.lib
lib.gs_loadXML.restype = ctypes.c_void_p
lib.gs_loadXML.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int]
lib.gs_freeModel.argtypes = [ctypes.c_void_p]


def gauss_load(path, err=ctypes.create_string_buffer(1000)):
    m = lib.gs_loadXML(path.encode(), err, 1000)
    if not m:
        raise RuntimeError(err.value.decode())
    lib.gs_freeModel(m)


def mujoco_load(path):
    mujoco.MjModel.from_xml_path(path)


def main():
    path = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    reps = 20
    tg, tm = [], []
    for _ in range(rounds):
        t = time.perf_counter()
        for _ in range(reps):
            gauss_load(path)
        tg.append((time.perf_counter() - t) / reps)
        t = time.perf_counter()
        for _ in range(reps):
            mujoco_load(path)
        tm.append((time.perf_counter() - t) / reps)
    g, m = statistics.median(tg), statistics.median(tm)
    print(f"{path}: gauss {g * 1e3:.3f} ms, mujoco {m * 1e3:.3f} ms per load+compile, "
          f"ratio mujoco/gauss {m / g:.2f} (above 1: gauss is faster)")


if __name__ == "__main__":
    main()
