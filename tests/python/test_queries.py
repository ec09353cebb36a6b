"""Geometric queries: gauss.ray (gs_ray) against mujoco.mj_ray, gauss.geom_distance
(gs_geomDistance) against mujoco.mj_geomDistance."""

import mujoco
import numpy as np
import pytest

import gauss
import jitter

SCENE = """<mujoco><worldbody>
<geom name="floor" type="plane" size="0 0 1" pos="0 0 -1"/>
<geom name="tile" type="plane" size="0.5 0.7 1" pos="1 1 -0.5" euler="10 -5 0"/>
<body pos="0.1 0.2 0.3" euler="10 20 30"><freejoint/><geom type="sphere" size="0.3"/></body>
<body pos="1.0 -0.4 0.2" euler="40 -20 10"><freejoint/><geom type="capsule" size="0.15 0.35"/></body>
<body pos="-0.9 0.3 0.1" euler="-30 50 20"><freejoint/><geom type="ellipsoid" size="0.3 0.2 0.4"/></body>
<body pos="0.3 1.1 -0.2" euler="70 10 -40"><freejoint/><geom type="cylinder" size="0.25 0.3"/></body>
<body pos="-0.4 -1.0 0.4" euler="15 25 35"><freejoint/><geom type="box" size="0.2 0.3 0.25" group="2"/></body>
<body pos="1.2 1.2 0.8"><geom type="sphere" size="0.2" group="1"/></body>
<body pos="-1.2 1.2 0.8"><freejoint/><geom type="box" size="0.2 0.2 0.2" rgba="1 1 1 0"/></body>
</worldbody></mujoco>"""


_T = mujoco.mjtGeom
# pairs MuJoCo sends to its general convex collision (and gauss to gs_collideConvex)
CCD_PAIRS = {(int(a), int(b)) for a, b in [
    (_T.mjGEOM_SPHERE, _T.mjGEOM_ELLIPSOID), (_T.mjGEOM_CAPSULE, _T.mjGEOM_ELLIPSOID),
    (_T.mjGEOM_CAPSULE, _T.mjGEOM_CYLINDER), (_T.mjGEOM_ELLIPSOID, _T.mjGEOM_ELLIPSOID),
    (_T.mjGEOM_ELLIPSOID, _T.mjGEOM_CYLINDER), (_T.mjGEOM_ELLIPSOID, _T.mjGEOM_BOX),
    (_T.mjGEOM_CYLINDER, _T.mjGEOM_CYLINDER), (_T.mjGEOM_CYLINDER, _T.mjGEOM_BOX)]}

BOX_ANALYTIC = {(int(_T.mjGEOM_CAPSULE), int(_T.mjGEOM_BOX)), (int(_T.mjGEOM_BOX), int(_T.mjGEOM_BOX))}


def load_both(xml):
    """the model in MuJoCo and in gauss, each with its data after forward"""
    mm = mujoco.MjModel.from_xml_string(xml)
    md = mujoco.MjData(mm)
    mujoco.mj_forward(mm, md)
    gm = gauss.Model.from_xml_string(xml)
    gd = gauss.Data(gm)
    gauss.forward(gm, gd)
    return mm, md, gm, gd


@pytest.fixture(scope="module")
def scene():
    return load_both(SCENE)


def mj_ray(mm, md, p, v, group=None, flg_static=1, bodyexclude=-1):
    gid = np.zeros(1, np.int32)
    x = mujoco.mj_ray(mm, md, p, v, group, flg_static, bodyexclude, gid)
    return x, int(gid[0])


def random_filter(i, period, rng, nbody, lowest_body):
    """the filters of the i-th random ray: none, a group mask without static geoms, or one
    excluded body (from lowest_body), in turn over the first three of every period rays"""
    if i % period == 1:
        return dict(group=np.array([1, 0, 1, 1, 1, 1], np.uint8), flg_static=0)
    if i % period == 2:
        return dict(bodyexclude=int(rng.integers(lowest_body, nbody)))
    return {}


def cast_both(mm, md, gm, gd, p, v, kw):
    """the same ray with the same filters (mj_ray's names) in both engines: (x, geom) of MuJoCo's
    and of gauss's"""
    xm, gmj = mj_ray(mm, md, p, v, **kw)
    kg = dict(kw)
    if "group" in kg:
        kg["geomgroup"] = kg.pop("group")
    xg, gg = gauss.ray(gm, gd, p, v, **kg)
    return xm, gmj, xg, gg


def test_ray_random(scene):
    """Rays from random origins (some inside geoms) towards random points near the geoms."""
    mm, md, gm, gd = scene
    rng = np.random.default_rng(0)
    hits = set()
    for i in range(3000):
        p = rng.uniform(-1.8, 1.8, 3)
        target = md.geom_xpos[rng.integers(mm.ngeom)] + rng.normal(scale=0.3, size=3)
        v = (target - p) * rng.uniform(0.3, 3)
        kw = random_filter(i, 3, rng, mm.nbody, -1)
        xm, gmj, xg, gg = cast_both(mm, md, gm, gd, p, v, kw)
        assert gg == gmj, (i, p, v, kw, xg, xm)
        assert abs(xg - xm) < 1e-9, (i, xg, xm)
        hits.add(gg)
    # every geom type was hit (the invisible box never)
    assert hits >= set(range(8)) | {-1}
    assert 9 not in hits


def test_ray_cases(scene):
    mm, md, gm, gd = scene
    for p, v in [([0.1, 0.2, 0.3], [0, 0, -1]),        # from inside the sphere
                 ([2.0, 0.0, 5.0], [0, 0, -1]),        # onto the infinite floor
                 ([0.5, 0.5, -3.0], [0, 0, 1]),        # planes are one-sided
                 ([0.0, 0.0, 5.0], [0, 0, 1]),         # miss
                 ([-1.2, 1.2, 3.0], [0, 0, -2])]:      # through the invisible box
        p, v = np.array(p, float), np.array(v, float)
        xm, gmj = mj_ray(mm, md, p, v)
        xg, gg = gauss.ray(gm, gd, p, v)
        assert (gg, round(xg, 9)) == (gmj, round(xm, 9))


def _many_geoms_xml():
    """140 geoms (more than two of gs_ray's chunks of 64): a floor, tilted bounded planes, and
    spheres, capsules, boxes and ellipsoids on a 5 x 5 x 5 grid, some in group 1 or invisible"""
    rng = np.random.default_rng(3)
    kinds = ["sphere", "capsule", "box", "ellipsoid", "cylinder"]
    out = ['<mujoco><worldbody><geom type="plane" size="0 0 1" pos="0 0 -0.6"/>']
    for k in range(14):
        e = rng.uniform(-40, 40, 3)
        out.append(f'<geom type="plane" size="0.3 0.2 1" pos="{k % 5 - 2} {k // 5 - 1} 2.5" '
                   f'euler="{e[0]:.3f} {e[1]:.3f} {e[2]:.3f}"/>')
    n = 0
    for i in range(5):
        for j in range(5):
            for k in range(5):
                kind = kinds[n % 5]
                size = {"sphere": "0.15", "capsule": "0.08 0.12", "box": "0.1 0.12 0.08",
                        "ellipsoid": "0.15 0.1 0.08", "cylinder": "0.1 0.1"}[kind]
                extra = ' group="1"' if n % 7 == 3 else ' rgba="1 1 1 0"' if n % 11 == 5 else ""
                e = rng.uniform(-90, 90, 3)
                out.append(f'<body pos="{i - 2} {j - 2} {k * 0.5}" euler="{e[0]:.3f} {e[1]:.3f} '
                           f'{e[2]:.3f}"><freejoint/><geom type="{kind}" size="{size}"{extra}/></body>')
                n += 1
    out.append("</worldbody></mujoco>")
    return "\n".join(out)


def test_ray_many_geoms():
    """gs_ray takes the geoms in chunks of 64 (bounding spheres first, then the cast): rays through
    a world of 140 geoms, with the group, static and body filters, against mj_ray; the geoms hit
    lie in every chunk"""
    mm, md, gm, gd = load_both(_many_geoms_xml())
    assert mm.ngeom == 140
    rng = np.random.default_rng(5)
    hits = set()
    for i in range(1500):
        p = rng.uniform([-3, -3, -1], [3, 3, 3.5])
        target = md.geom_xpos[rng.integers(mm.ngeom)] + rng.normal(scale=0.1, size=3)
        v = (target - p) * rng.uniform(0.5, 2)
        kw = random_filter(i, 4, rng, mm.nbody, 0)
        xm, gmj, xg, gg = cast_both(mm, md, gm, gd, p, v, kw)
        assert gg == gmj, (i, p, v, kw, xg, xm)
        assert abs(xg - xm) <= 1e-9 * max(1.0, abs(xm)), (i, xg, xm)
        hits.add(gg)
    assert min(hits - {-1}) < 64 and any(64 <= g < 128 for g in hits) and max(hits) >= 128


def mj_distance(mm, md, g1, g2, distmax):
    """MuJoCo's mj_geomDistance at the scene's own ccd settings (ccd_tolerance 1e-6, 35
    iterations), which gauss runs step by step (src/collision/convex.c)"""
    ft = np.zeros(6)
    d = mujoco.mj_geomDistance(mm, md, g1, g2, distmax, ft)
    return d, ft


def _distances(scene, configurations):
    """gauss's geom distances against MuJoCo's at each configuration (None: the state as loaded):
    (distances compared, MuJoCo's failures)"""
    mm, md, gm, gd = scene
    convex = [i for i in range(mm.ngeom) if mm.geom_type[i] != mujoco.mjtGeom.mjGEOM_PLANE]
    n = fails = 0
    for q in configurations:
        if q is not None:
            md.qpos[:] = q
            gd.qpos[:] = q
            mujoco.mj_forward(mm, md)
            gauss.forward(gm, gd)
        for g1 in range(mm.ngeom):
            for g2 in convex:
                if g1 == g2 or (mm.geom_type[g1] == mujoco.mjtGeom.mjGEOM_PLANE and g1 == 1):
                    continue  # the finite tile: MuJoCo's distance treats it as infinite too
                for distmax in (0.05, 10.0):
                    dm, ft_m = mj_distance(mm, md, g1, g2, distmax)
                    dg, ft_g = gauss.geom_distance(gm, gd, g1, g2, distmax)
                    types = {int(mm.geom_type[g1]), int(mm.geom_type[g2])}
                    if dm == 0 and dg != 0:
                        # MuJoCo fails with exactly 0 on some separated pairs (box-box 0.32 apart
                        # by dense sampling, where gauss says 0.3188; ellipsoid-cylinder): check
                        # only that gauss's segment is as long as its distance
                        fails += 1
                        if dg < distmax:
                            assert abs(np.linalg.norm(ft_g[3:] - ft_g[:3]) - abs(dg)) < 1e-9
                        continue
                    if (dm < 0 and tuple(sorted(types)) in BOX_ANALYTIC):
                        # MuJoCo's capsule-box and box-box functions report a depth of their own
                        # construction; gauss's is EPA's penetration depth, found deeper here
                        # (EPA stops within the scene's ccd_tolerance, 1e-6, of the least depth)
                        assert dg <= dm + 1e-6
                        continue
                    assert abs(dg - dm) < 1e-6, (g1, g2, distmax, dg, dm)
                    n += 1
                    # closest points are unique unless a box or cylinder face is involved
                    if dm < distmax and not types & {mujoco.mjtGeom.mjGEOM_BOX,
                                                     mujoco.mjtGeom.mjGEOM_CYLINDER}:
                        ft = ft_m.copy()
                        if (mm.geom_type[g1] > mm.geom_type[g2]
                                and tuple(sorted(types)) in CCD_PAIRS):
                            # MuJoCo 3.3.7 leaves fromto in its (type-sorted) order for the pairs
                            # of its general convex path instead of argument order
                            ft = np.concatenate([ft[3:], ft[:3]])
                        assert np.abs(ft_g - ft).max() < 1e-6, (g1, g2, ft_g, ft)
                    if dm >= distmax:
                        assert not ft_g.any()
    return n, fails


def test_geom_distance(scene):
    mm, md, gm, gd = scene
    rng = np.random.default_rng(3)
    # the state as loaded, then 5 with the free bodies moved so that some pairs overlap
    configurations, loaded = [None], md.qpos.copy()
    for _ in range(5):
        q = loaded.copy()
        for j in range(mm.njnt):
            a = mm.jnt_qposadr[j]
            q[a:a + 3] = rng.uniform(-0.6, 0.6, 3)
            quat = rng.normal(size=4)
            q[a + 3:a + 7] = quat / np.linalg.norm(quat)
        configurations.append(q)
    n, fails = _distances(scene, configurations)
    runs = [_distances(scene, [jitter.qpos(mm, loaded if q is None else q, r)
                                       for q in configurations])
            for r in jitter.rngs("geom distance")]
    assert min([n] + [r[0] for r in runs]) > 300
    # MuJoCo's failures (see above), measured on an AMD EPYC (AVX2, FMA) and again on an Intel
    # Xeon with both engines at the scene's own ccd settings, nominal and over 100 jitters of 4
    # ulps of the configurations (see jitter.py): 2, jittered 0-2; the bound, 5 % of the
    # distances compared (28), lies far above
    jitter.spread("geom distances where MuJoCo fails", fails, [r[1] for r in runs],
                  at_most=int(0.05 * n))


DENTED = np.array([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, 0.4]]) * 0.5
DENTED_FACES = [[0, 2, 4], [2, 1, 4], [1, 3, 4], [3, 0, 4], [2, 0, 5], [1, 2, 5], [3, 1, 5], [0, 3, 5]]


def rays_at_two_geoms(mm, md, gm, gd, rng, spread, n=3000):
    """n rays from origins around geom 0 or 1 (near: spread[0], far: spread[1]; some inside),
    towards points near it, asserted as mj_ray's (the geom, the distance to 1e-6: mesh vertices
    are single precision); (the geom aimed at, the geom hit) of each"""
    out = []
    for i in range(n):
        g = int(rng.integers(2))
        p = md.geom_xpos[g] + rng.normal(scale=spread[i % 2], size=3)
        v = (md.geom_xpos[g] + rng.normal(scale=0.3, size=3) - p) * rng.uniform(0.3, 3)
        xm, gmj = mj_ray(mm, md, p, v)
        xg, gg = gauss.ray(gm, gd, p, v)
        assert gg == gmj, (i, p, v, xg, xm)
        assert abs(xg - xm) < 1e-6, (i, xg, xm)
        out.append((g, gg))
    return out


def test_ray_meshes():
    """Rays against mesh geoms: a non-convex mesh (an octahedron whose bottom vertex is pushed
    inside: MJCF's rays enter the dent, so they meet the triangles, not the hull) and a hull of
    random points, from outside and from inside; the geom as mj_ray's and the distance to 1e-6.
    Why not 1e-9: both engines keep mesh vertices in single precision in the mesh's principal
    frame, whose axes are not unique (test_collision_mesh.py): the two frames differ, so do the
    roundings of the vertices, by up to ~1e-7 here (measured: max 1.8e-7, median 3e-9)."""
    rng = np.random.default_rng(11)
    blob = rng.normal(size=(40, 3)) * [0.4, 0.3, 0.2]
    text = lambda a: " ".join(repr(float(x)) for x in np.ravel(a))
    faces = " ".join(str(i) for f in DENTED_FACES for i in f)
    xml = f"""<mujoco><asset><mesh name="dent" vertex="{text(DENTED)}" face="{faces}"/>
<mesh name="blob" vertex="{text(blob)}"/></asset><worldbody>
<body pos="0.2 0.1 0.3" euler="20 -10 40"><freejoint/><geom type="mesh" mesh="dent"/></body>
<body pos="-0.8 0.5 0.1" euler="-30 15 5"><geom type="mesh" mesh="blob"/></body>
</worldbody></mujoco>"""
    mm, md, gm, gd = load_both(xml)
    hits = [gg for _, gg in rays_at_two_geoms(mm, md, gm, gd, rng, (0.15, 0.6))]
    assert set(hits) == {-1, 0, 1}
    # into the dent, along the axis through the apexes from below the square of vertices 0-3: the
    # hit is on the dent's triangles, 0.2 (1 - |x| / 0.5 - |y| / 0.5) above the square (the hull
    # would give 0)
    verts = mm.mesh_vert[:6] @ md.geom_xmat[0].reshape(3, 3).T + md.geom_xpos[0]
    square = verts[:4].mean(axis=0)
    axis = (verts[4] - square) / np.linalg.norm(verts[4] - square)
    ex = (verts[0] - square) / np.linalg.norm(verts[0] - square)
    ey = np.cross(axis, ex)
    for x, y in rng.uniform(-0.15, 0.15, size=(20, 2)):
        start = square + ex * x + ey * y - axis
        xg, gg = gauss.ray(gm, gd, start, axis)
        xm, gmj = mj_ray(mm, md, start, axis)
        assert gg == gmj == 0 and abs(xg - xm) < 1e-6
        assert abs(xg - (1 + 0.2 * (1 - (abs(x) + abs(y)) / 0.5))) < 1e-6  # single precision


def torus_mesh(nu=40, nv=24, R=0.3, r=0.1, scale=(1.0, 0.8, 1.2)):
    """a torus of nu x nv quads (two triangles each), stretched so that its principal axes are
    unique (both engines then keep its vertices in the same frame, rounded alike)"""
    u, v = np.meshgrid(np.arange(nu) * 2 * np.pi / nu, np.arange(nv) * 2 * np.pi / nv, indexing="ij")
    verts = np.stack([(R + r * np.cos(v)) * np.cos(u), (R + r * np.cos(v)) * np.sin(u),
                      r * np.sin(v)], axis=-1).reshape(-1, 3) * scale
    faces = []
    for i in range(nu):
        for j in range(nv):
            a, b = i * nv + j, ((i + 1) % nu) * nv + j
            c, d = ((i + 1) % nu) * nv + (j + 1) % nv, i * nv + (j + 1) % nv
            faces += [[a, b, c], [a, c, d]]
    return verts, np.array(faces)


def test_ray_large_meshes():
    """Rays against meshes of thousands of triangles, which gs_ray descends through the mesh's
    triangle tree (fields_world.h, mesh_tree*) rather than testing every triangle: a torus
    (non-convex: rays pass through its hole, enter it and leave) and a hull of 500 random points,
    from outside and inside, the geom as mj_ray's and the distance to 1e-6 (single-precision
    vertices, as test_ray_meshes)."""
    rng = np.random.default_rng(12)
    verts, faces = torus_mesh()
    blob = rng.normal(size=(500, 3)) * [0.4, 0.3, 0.2]
    text = lambda a: " ".join(repr(float(x)) for x in np.ravel(a))
    xml = f"""<mujoco><asset><mesh name="torus" vertex="{text(verts)}"
face="{' '.join(str(int(i)) for i in faces.ravel())}"/><mesh name="blob" vertex="{text(blob)}"/>
</asset><worldbody>
<body pos="0.2 0.1 0.3" euler="20 -10 40"><freejoint/><geom type="mesh" mesh="torus"/></body>
<body pos="-0.9 0.5 0.1" euler="-30 15 5"><geom type="mesh" mesh="blob"/></body>
</worldbody></mujoco>"""
    mm, md, gm, gd = load_both(xml)
    assert gm.mesh_facenum[0] == 1920 and gm.mesh_facenum[1] > 40  # trees of several levels
    rays = rays_at_two_geoms(mm, md, gm, gd, rng, (0.2, 0.7))
    hits = {gg for _, gg in rays}
    # rays aimed at the torus's centre that miss it went through its hole
    through = sum(g == 0 and gg == -1 for g, gg in rays)
    assert hits == {-1, 0, 1} and through > 20, (hits, through)
