"""Frames per second of offscreen 640x480 RGB rendering, gauss.Renderer against mujoco.Renderer
in the same run on the same GL back end: the Gymnasium humanoid (its tracking camera) and the
100-body pile (bench/models/pile100.xml, the free camera). Each frame is update_scene + render
(the image read back into numpy), from states of a short simulation; best of `repeat` rounds.

Both draw their default images: colour with 4 samples per pixel, the shadows of the lights that
cast them (maps of <quality shadowsize>, 4096 by default; also timed with 1024) and the floor's
reflection (a material with reflectance). The ratio is also given with
shadows and reflections off in both ("plain"); "1 sample" is gauss without multisampling.

    PYTHONPATH=python GAUSS_LIBRARY=build/release/libgauss.so python bench/render_bench.py [--gl egl|osmesa]
"""

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = [
    ("gymnasium humanoid", os.path.join(HERE, "..", "tests", "models", "gymnasium", "humanoid.xml"), "track"),
    ("pile of 100 bodies", os.path.join(HERE, "models", "pile100.xml"), -1),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gl", default="egl", choices=("egl", "osmesa"))
    ap.add_argument("--frames", type=int, default=60)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--width", type=int, default=640)
    ap.add_argument("--height", type=int, default=480)
    args = ap.parse_args()
    # both engines pick their back end from the environment, before they load
    os.environ["MUJOCO_GL"] = args.gl
    os.environ["GAUSS_GL"] = args.gl
    import mujoco
    import numpy as np

    import gauss

    print(f"{args.width}x{args.height} RGB, back end {args.gl}, {args.frames} frames per round, "
          f"best of {args.repeat}")
    for label, path, camera in MODELS:
        gm, mm = gauss.Model.from_xml_path(path), mujoco.MjModel.from_xml_path(path)
        gd, md = gauss.Data(gm), mujoco.MjData(mm)
        # the same states in both: MuJoCo's trajectory copied into gauss
        states = []
        for _ in range(args.frames):
            for _ in range(5):
                mujoco.mj_step(mm, md)
            states.append(md.qpos.copy())
        gr = gauss.Renderer(gm, args.height, args.width)
        mr = mujoco.Renderer(mm, args.height, args.width)
        assert gr.backend == args.gl

        def run_gauss(r=gr):
            for q in states:
                gd.qpos[:] = q
                gauss.forward(gm, gd)
                r.update_scene(gd, camera=camera)
                r.render()

        def run_mujoco():
            for q in states:
                md.qpos[:] = q
                mujoco.mj_forward(mm, md)
                mr.update_scene(md, camera=camera)
                mr.render()

        def timed(fn):
            best = float("inf")
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                fn()
                best = min(best, time.perf_counter() - t0)
            return args.frames / best

        # forward passes are part of every frame in both
        fps_g = timed(run_gauss)
        # the model's shadow maps (MJCF's <quality shadowsize>, 4096 by default) against 1024
        size = gm.vis.shadowsize
        gm.vis.shadowsize = 1024
        with gauss.Renderer(gm, args.height, args.width) as gr1024:
            fps_g1024 = timed(lambda: run_gauss(gr1024))
        gm.vis.shadowsize = size
        gr.option.multisample = 0
        fps_g1 = timed(run_gauss)
        gr.option.multisample = 1
        fps_m = timed(run_mujoco)
        gr.option.shadow = gr.option.reflection = 0
        fps_gp = timed(run_gauss)
        mr.scene.flags[mujoco.mjtRndFlag.mjRND_SHADOW] = 0
        mr.scene.flags[mujoco.mjtRndFlag.mjRND_REFLECTION] = 0
        orig = mr.update_scene

        def plain_update(data, camera=-1):
            orig(data, camera=camera)
            mr.scene.flags[mujoco.mjtRndFlag.mjRND_SHADOW] = 0
            mr.scene.flags[mujoco.mjtRndFlag.mjRND_REFLECTION] = 0

        mr.update_scene = plain_update
        fps_p = timed(run_mujoco)
        print(f"{label:20s} gauss {fps_g:6.1f} fps (1 sample {fps_g1:6.1f}, shadow maps of 1024 "
              f"{fps_g1024:6.1f})   mujoco {fps_m:6.1f} fps "
              f"(ratio {fps_g / fps_m:.2f})   plain: gauss {fps_gp:6.1f} mujoco {fps_p:6.1f} fps "
              f"(ratio {fps_gp / fps_p:.2f})")
        gr.close()
        mr.close()
    sys.stdout.flush()


if __name__ == "__main__":
    main()
