"""Segmentation and depth of gauss.Renderer against mujoco.Renderer on every named camera and the
default free camera of the corpus models at qpos0 (128 x 96, the same EGL back end): the lowest
intersection-over-union of an object of 100 pixels or more, the lowest of any object, and the
largest relative depth difference where both see the same object. MuJoCo's rangefinder rays,
which gauss does not draw, are switched off. docs/render.md quotes its output.

    PYTHONPATH=python GAUSS_LIBRARY=build/release/libgauss.so python bench/render_agreement.py
"""

import os
import sys

os.environ.setdefault("MUJOCO_GL", "egl")

import mujoco  # noqa: E402
import numpy as np  # noqa: E402

import gauss  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "python"))
from oracle import corpus_models  # noqa: E402

H, W = 96, 128


def main():
    opt = mujoco.MjvOption()
    opt.flags[mujoco.mjtVisFlag.mjVIS_RANGEFINDER] = False
    worst_big, worst_all, dmax, views = (1.0, None), (1.0, None), 0.0, 0
    for mid, path in corpus_models():
        m = gauss.Model.from_xml_path(path)
        d = gauss.Data(m)
        gauss.forward(m, d)
        mm = mujoco.MjModel.from_xml_path(path)
        md = mujoco.MjData(mm)
        mujoco.mj_forward(mm, md)
        r, mr = gauss.Renderer(m, H, W), mujoco.Renderer(mm, H, W)
        free = mujoco.MjvCamera()
        mujoco.mjv_defaultFreeCamera(mm, free)
        for cam in list(range(mm.ncam)) + [free]:
            views += 1
            name = cam if isinstance(cam, int) else "free"
            images = {}
            for mode in ("seg", "depth"):
                for x in (r, mr):
                    if mode == "seg":
                        x.enable_segmentation_rendering()
                    else:
                        x.enable_depth_rendering()
                r.update_scene(d, camera=cam)
                mr.update_scene(md, camera=cam, scene_option=opt)
                images[mode] = r.render().copy(), mr.render().copy()
            seg, mseg = images["seg"]
            dep, mdep = images["depth"]
            for o in {tuple(o) for o in np.unique(np.concatenate([seg, mseg]).reshape(-1, 2), axis=0)}:
                if o[0] < 0:
                    continue
                a, b = (seg == o).all(-1), (mseg == o).all(-1)
                iou = (a & b).sum() / (a | b).sum()
                where = (mid, name, tuple(int(v) for v in o), int(a.sum()), int(b.sum()))
                if iou < worst_all[0]:
                    worst_all = (iou, where)
                if max(a.sum(), b.sum()) >= 100 and iou < worst_big[0]:
                    worst_big = (iou, where)
            same = (seg == mseg).all(-1) & (seg[..., 0] >= 0)
            if same.any():
                dmax = max(dmax, float((np.abs(dep - mdep)[same] / mdep[same]).max()))
        r.close()
        mr.close()
    print(f"{views} views")
    print(f"lowest IoU, objects of 100 pixels or more: {worst_big[0]:.4f} {worst_big[1]}")
    print(f"lowest IoU, any object (model, camera, (id, type), gauss px, MuJoCo px): "
          f"{worst_all[0]:.4f} {worst_all[1]}")
    print(f"largest relative depth difference where both see the same object: {dmax:.3g}")


if __name__ == "__main__":
    main()
