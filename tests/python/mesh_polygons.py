"""A mesh's compiled polygons read from a model of either engine, and MJCF's rule for a polygon's
normal (src/model/mesh_poly.c, measured against MuJoCo 3.3.7), written independently of the
library: for the tests of mesh polygons and tools/mujoco_mesh_poly.py."""
import math

import numpy as np

import mujoco

FLAT = 1e-14  # below this |cross product| the rule stores (1/|c|, 0, 0), not a unit normal


def polygons(m, i):
    """(corner list, normal) of each polygon of mesh i of model m, in order"""
    out = []
    for p in range(m.mesh_polyadr[i], m.mesh_polyadr[i] + m.mesh_polynum[i]):
        a, n = m.mesh_polyvertadr[p], m.mesh_polyvertnum[p]
        out.append((tuple(int(x) for x in m.mesh_polyvert[a:a + n]), np.array(m.mesh_polynormal[p])))
    return out


def normal_rule(m, i, given, corners, finite):
    """the normal of a polygon's first three corners by MJCF's rule, in model m's frame of mesh i
    (given: the mesh's vertices as given, scaled): c = (p1 - p0) x (p2 - p0) divided by |c|, or
    (1/|c|, 0, 0) where |c| < FLAT; where |c| = 0, MuJoCo's (inf, nan, nan) or gauss's finite
    stand-in (1, 0, 0) when finite"""
    r = np.zeros(9)
    mujoco.mju_quat2Mat(r, np.asarray(m.mesh_quat[i], float))
    pos = [float(x) for x in m.mesh_pos[i]]
    p = []
    for v in corners[:3]:
        d = [float(given[v][k]) - pos[k] for k in range(3)]
        p.append([r[k] * d[0] + r[3 + k] * d[1] + r[6 + k] * d[2] for k in range(3)])
    u = [p[1][k] - p[0][k] for k in range(3)]
    w = [p[2][k] - p[0][k] for k in range(3)]
    c = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]]
    n = math.sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2])
    if n >= FLAT:
        return np.array([c[0] / n, c[1] / n, c[2] / n])
    if n > 0:
        return np.array([1 / n, 0.0, 0.0])
    return np.array([1.0, 0, 0]) if finite else np.array([np.inf, np.nan, np.nan])
