"""gauss's GJK and EPA (src/collision/convex.c) take MJCF's steps: the same iterates and the same
polytope as MuJoCo 3.3.7, one iteration at a time.

MuJoCo's mj_geomDistance and its contacts answer with whatever its GJK and EPA reached when
ccd_iterations runs out, so setting ccd_iterations to 1, 2, 3, ... shows its search step by step:
GJK's iterates (with a cutoff, distmax > 0, a distance; without, an overlap test), then EPA's
nearest face after each expansion. gauss is compared with it at every such step, on random poses
of each pair kind that goes through the general convex path, from deep overlaps to apart, at the
default ccd_tolerance (1e-6) and at a tight one (1e-12, where EPA runs long). What this pins
down, each rule measured this way (see convex.c): GJK's start (the centres' difference), its
stop (the duality gap within tol^2 / 2) and what it reports when out of iterations; the overlap
test's tetrahedron step, which takes the simplex's winding as it comes and steps past about half
of the tetrahedra that hold the origin; EPA's nearest face, its stop and its answer; the cores of
spheres and capsules and when the whole shapes run again; the margin as half growths; and, for
geoms whose centres are offset exactly along an axis, the double pyramid EPA starts from.
"""

import zlib

import mujoco
import numpy as np
import pytest

import gauss
import jitter

# kinds of pair (geoms of the general convex path), with meshes as random hulls
HULL = {"a": np.random.default_rng(31).normal(size=(20, 3)) * [0.2, 0.15, 0.1],
        "b": np.random.default_rng(32).normal(size=(25, 3)) * [0.15, 0.2, 0.12]}
GEOMS = {"ellipsoid": 'type="ellipsoid" size="0.3 0.2 0.1"',
         "ellipsoid2": 'type="ellipsoid" size="0.25 0.15 0.2"',
         "cylinder": 'type="cylinder" size="0.2 0.1"',
         "box": 'type="box" size="0.1 0.2 0.15"',
         "mesh": 'type="mesh" mesh="a"', "mesh2": 'type="mesh" mesh="b"',
         "sphere": 'type="sphere" size="0.2"', "capsule": 'type="capsule" size="0.1 0.2"'}
KINDS = [("ellipsoid", "ellipsoid2"), ("cylinder", "box"), ("ellipsoid", "cylinder"),
         ("mesh", "mesh2"), ("box", "mesh"), ("mesh", "ellipsoid"), ("sphere", "ellipsoid"),
         ("capsule", "cylinder")]
CAPS = list(range(1, 13)) + [16, 20, 25, 35]


def pair_xml(g1, g2, tol, margin=0.0):
    verts = "".join(f'<mesh name="{k}" vertex="{" ".join(map(repr, v.ravel().tolist()))}"/>'
                    for k, v in HULL.items())
    return f"""<mujoco><option ccd_tolerance="{tol}"/><asset>{verts}</asset><worldbody>
<body><freejoint/><geom {GEOMS[g1]} margin="{margin}"/></body>
<body><freejoint/><geom {GEOMS[g2]} margin="{margin}"/></body></worldbody></mujoco>"""


def random_pair_pose(rng, reach):
    """two free bodies turned at random, the second's centre 0.05 to reach from the first's"""
    q = np.zeros(14)
    for a in (3, 10):
        u = rng.normal(size=4)
        q[a:a + 4] = u / np.linalg.norm(u)
    d = rng.normal(size=3)
    q[7:10] = d / np.linalg.norm(d) * rng.uniform(0.05, reach)
    return q


def poses(g1, g2, n):
    rng = np.random.default_rng(zlib.crc32(f"{g1} {g2}".encode()))
    return [random_pair_pose(rng, 0.6) for _ in range(n)]


def engines(xml):
    """MuJoCo's model and data, then gauss's, of one file"""
    mm = mujoco.MjModel.from_xml_string(xml)
    gm = gauss.Model.from_xml_string(xml)
    return mm, mujoco.MjData(mm), gm, gauss.Data(gm)


def steps_agree(g1, g2, tol, qs):
    """(steps compared, steps where gauss's answer is MuJoCo's to 1e-9): every pose of qs at
    every cap of CAPS, without a cutoff (the overlap test) and with one (a distance)"""
    mm, md, gm, gd = engines(pair_xml(g1, g2, tol))
    n = agree = 0
    for q in qs:
        md.qpos[:] = q
        gd.qpos[:] = q
        mujoco.mj_forward(mm, md)
        gauss.forward(gm, gd)
        for cap in CAPS:
            mm.opt.ccd_iterations = cap
            gm.opt.ccd_iterations = cap
            for distmax in (0.0, 10.0):
                ft = np.zeros(6)
                dm = mujoco.mj_geomDistance(mm, md, 0, 1, distmax, ft)
                dg, fg = gauss.geom_distance(gm, gd, 0, 1, distmax)
                n += 1
                # where the pair is apart beyond distmax both report distmax and no points
                same = abs(dg - dm) < 1e-9 and (dm >= distmax or np.abs(np.asarray(fg) - ft).max() < 1e-9
                                               or np.abs(np.asarray(fg) - np.r_[ft[3:], ft[:3]]).max() < 1e-9)
                agree += same
    return n, agree


# Steps where gauss is MuJoCo's (to 1e-9) of the 960 compared per tolerance (30 poses): the rate
# follows rounding where two candidates tie to the last bits, so it is asserted from a spread
# measured over 100 jitters of 4 ulps of the poses (jitter.py) on an Intel Xeon, as (least
# jittered count less the spread, less one): see THRESHOLD. The misses: with a cutoff (a
# distance), GJK near convergence on a nearly flat simplex sometimes keeps other vertices than
# MuJoCo's (its distance then 1e-12 to 1e-8 apart, its points up to ~1e-6); at the tight
# tolerance a late EPA step may pick another of two faces whose distances differ in the last bits
# (the support points' rounding). Spheres and capsules run that GJK on their cores to the end.
THRESHOLD = {
    ("ellipsoid", "ellipsoid2", 1e-6): 940, ("ellipsoid", "ellipsoid2", 1e-12): 939,  # 945-949, 943-946
    ("cylinder", "box", 1e-6): 851, ("cylinder", "box", 1e-12): 838,  # 900-948, 887-935
    ("ellipsoid", "cylinder", 1e-6): 947, ("ellipsoid", "cylinder", 1e-12): 931,  # 952-956, 942-952
    ("mesh", "mesh2", 1e-6): 899, ("mesh", "mesh2", 1e-12): 885,  # 930-960, 923-960
    ("box", "mesh", 1e-6): 889, ("box", "mesh", 1e-12): 893,  # 925-960, 927-960
    ("mesh", "ellipsoid", 1e-6): 718, ("mesh", "ellipsoid", 1e-12): 704,  # 730-741, 718-731
    ("sphere", "ellipsoid", 1e-6): 935, ("sphere", "ellipsoid", 1e-12): 849,  # 946-956, 885-920
    ("capsule", "cylinder", 1e-6): 837, ("capsule", "cylinder", 1e-12): 771,  # 885-932, 841-910
}


@pytest.mark.parametrize("g1,g2", KINDS, ids=[f"{a}-{b}" for a, b in KINDS])
def test_each_step_as_mujoco(g1, g2):
    qs = poses(g1, g2, 30)
    for tol in (1e-6, 1e-12):
        n, nominal = steps_agree(g1, g2, tol, qs)
        jittered = [steps_agree(g1, g2, tol, [jitter_pose(q, r) for q in qs])[1]
                    for r in jitter.rngs(f"ccd steps {g1} {g2} {tol}")]
        jitter.spread(f"{g1}-{g2} at tolerance {tol:g}: steps as MuJoCo's", nominal, jittered,
                      at_least=THRESHOLD[g1, g2, tol], total=n)


def jitter_pose(q, rng):
    """q with its positions jittered and its quaternions jittered and normalized again"""
    q = q.copy()
    q[7:10] = jitter.scale(q[7:10], rng)
    for a in (3, 10):
        q[a:a + 4] = jitter.quat(q[a:a + 4], rng)
    return q


# MuJoCo's cubelet (model/cube/cube_3x3x3.xml): 19 mm across, its edges chamfered, 24 vertices
CUBELET = np.array([[s * 9.5 if k == ax else (a if k == (ax + 1) % 3 else b) * 8.075
                     for k in range(3)]
                    for ax in range(3) for s in (-1, 1) for a in (-1, 1) for b in (-1, 1)]) * 1e-3
HFIELD = np.random.default_rng(33).uniform(0, 1, size=(8, 8))
POLYTOPE_SCENES = {
    # a cubelet pressed up to 2e-5 into another beside it, both turned by ~1e-3: flush faces,
    # where EPA's faces part by less than the tolerance
    "flush cubelets": ('<body><freejoint/><geom type="mesh" mesh="c"/></body>'
                       '<body><freejoint/><geom type="mesh" mesh="c"/></body>'),
    "mesh-mesh": ('<body><freejoint/><geom type="mesh" mesh="a"/></body>'
                  '<body><freejoint/><geom type="mesh" mesh="b"/></body>'),
    "box-mesh": ('<body><freejoint/><geom type="box" size="0.1 0.2 0.15"/></body>'
                 '<body><freejoint/><geom type="mesh" mesh="b"/></body>'),
}
# height field prisms against polytopes: compared with MuJoCo in
# test_collision_hfield.py::test_polytopes_at_zero_margin; here, the rule itself: gauss's contacts
# the same at any tolerance, as MuJoCo's are (measured)
HFIELD_SCENES = {
    "hfield-box": ('<geom type="hfield" hfield="h"/>'
                   '<body><freejoint/><geom type="box" size="0.1 0.15 0.12"/></body>'),
    "hfield-mesh": '<geom type="hfield" hfield="h"/><body><freejoint/><geom type="mesh" mesh="a"/></body>',
}


SCENES = {**POLYTOPE_SCENES, **HFIELD_SCENES}


def polytope_xml(scene, tol):
    meshes = "".join(f'<mesh name="{k}" vertex="{" ".join(map(repr, v.ravel().tolist()))}"/>'
                     for k, v in [*HULL.items(), ("c", CUBELET)])
    hfield = (f'<hfield name="h" nrow="8" ncol="8" size="1 1 0.3 0.1" '
              f'elevation="{" ".join(map(repr, HFIELD.ravel().tolist()))}"/>')
    return (f'<mujoco><option ccd_tolerance="{tol}" gravity="0 0 0"/><asset>{meshes}{hfield}</asset>'
            f'<worldbody>{SCENES[scene]}</worldbody></mujoco>')


def polytope_poses(scene, n):
    rng = np.random.default_rng(zlib.crc32(scene.encode()))
    out = []
    for _ in range(n):
        if scene == "flush cubelets":
            q = np.zeros(14)
            off = rng.uniform(-0.004, 0.004, 3)
            ax = rng.integers(3)
            off[ax] = 0.019 - rng.uniform(0, 2e-5)
            q[7:10] = off
            for a in (3, 10):
                u = np.r_[1, rng.normal(size=3) * 5e-4]
                q[a:a + 4] = u / np.linalg.norm(u)
        elif scene.startswith("hfield"):
            u = rng.normal(size=4)
            q = np.r_[rng.uniform(-0.8, 0.8, 2), rng.uniform(0, 0.3), u / np.linalg.norm(u)]
        else:
            q = random_pair_pose(rng, 0.4)
        out.append(q)
    return out


def polytope_contacts_agree(scene, tol, qs):
    """poses of qs whose contacts are MuJoCo's (the same count, in order; depth to 1e-12, point and
    normal to 1e-9), both engines at ccd_tolerance tol"""
    xml = polytope_xml(scene, tol)
    mm = mujoco.MjModel.from_xml_string(xml)
    md = mujoco.MjData(mm)
    gm = gauss.Model.from_xml_string(xml)
    gd = gauss.Data(gm)
    agree = 0
    for q in qs:
        md.qpos[:] = q
        gd.qpos[:] = q
        mujoco.mj_forward(mm, md)
        gauss.forward(gm, gd)
        agree += md.ncon == gd.ncon and all(
            abs(md.contact[i].dist - gd.contact[i].dist) < 1e-12
            and np.abs(md.contact[i].pos - np.asarray(gd.contact[i].pos)).max() < 1e-9
            and np.abs(md.contact[i].frame[:3] - np.asarray(gd.contact[i].frame[:3])).max() < 1e-9
            for i in range(md.ncon))
    return agree


# MJCF runs GJK and EPA on two polytopes (boxes, meshes, height field prisms; no margin) to the
# end whatever ccd_tolerance says: MuJoCo's contacts there are the same at 1e-3 as at 1e-12
# (measured), and gauss's must be MuJoCo's at any tolerance. On the flush cubelets a search that
# stops at the tolerance keeps another face of EPA's polytope (their depths 2e-10 apart at
# tolerance 1e-6, at 1e-3 further): 166 and 0 of 200 poses agreed so, the random mesh-mesh and
# box-mesh pairs 190 and 189 at 1e-3. Every scene at either tolerance: 200 of 200 nominal and
# under 100 jitters of 4 ulps (least 200, spread 0), so at least 199 is asserted.
POLYTOPE_THRESHOLD = 199


@pytest.mark.parametrize("scene", list(POLYTOPE_SCENES))
def test_polytopes_run_to_the_end_as_mujoco(scene):
    qs = polytope_poses(scene, 200)
    for tol in (1e-6, 1e-3):
        nominal = polytope_contacts_agree(scene, tol, qs)
        jittered = [polytope_contacts_agree(scene, tol, [jitter_pose(q, r) for q in qs])
                    for r in jitter.rngs(f"polytopes {scene} {tol}")]
        jitter.spread(f"{scene} at tolerance {tol:g}: poses whose contacts are MuJoCo's", nominal,
                      jittered, at_least=POLYTOPE_THRESHOLD, total=len(qs))


def gauss_contacts(scene, tol, qs):
    xml = polytope_xml(scene, tol)
    gm = gauss.Model.from_xml_string(xml)
    gd = gauss.Data(gm)
    out = []
    for q in qs:
        gd.qpos[:] = q
        gauss.forward(gm, gd)
        out.append([(c.dist, *c.pos, *c.frame) for c in gd.contact[:gd.ncon]])
    return out


@pytest.mark.parametrize("scene", list(HFIELD_SCENES))
def test_height_field_polytopes_at_any_tolerance(scene):
    """the prisms of a height field against a box or a mesh: the same contacts, to the bit, at
    ccd_tolerance 1e-3 as at 1e-12 (before: depths up to ~1e-3 apart)"""
    qs = polytope_poses(scene, 100)
    loose, tight = gauss_contacts(scene, 1e-3, qs), gauss_contacts(scene, 1e-12, qs)
    assert sum(len(c) for c in tight) > 200
    assert loose == tight


def aligned_contacts_agree(g1, g2, qs):
    """(contacts compared, those that are MuJoCo's to 1e-9: none in both, or one with the same
    depth, normal and point) at every cap of CAPS, MJCF's default tolerance"""
    mm, md, gm, gd = engines(pair_xml(g1, g2, 1e-6))
    n = agree = 0
    for q in qs:
        for cap in CAPS:
            mm.opt.ccd_iterations = cap
            gm.opt.ccd_iterations = cap
            md.qpos[:] = q
            gd.qpos[:] = q
            mujoco.mj_forward(mm, md)
            gauss.forward(gm, gd)
            n += 1
            if md.ncon != gd.ncon:
                continue
            agree += all(abs(md.contact.dist[i] - gd.contact.dist[i]) < 1e-9
                         and np.abs(md.contact.frame[i][:3] - gd.contact.frame[i][:3]).max() < 1e-9
                         and np.abs(md.contact.pos[i] - gd.contact.pos[i]).max() < 1e-9
                         for i in range(md.ncon))
    return n, agree


def aligned_poses():
    """unturned bodies, the second's centre offset exactly along x, y or z"""
    out = []
    for axis in range(3):
        for d in (0.12, 0.22):
            q = np.zeros(14)
            q[3] = q[10] = 1
            q[7 + axis] = d
            out.append(q)
    return out


# Geoms whose centres are offset exactly along an axis of both (bodies placed by hand, a stack):
# GJK's overlap test meets the origin on the segment between its first two support points, and
# MJCF grows that segment into its double pyramid (convex.c, bipyramid). Contacts as MuJoCo's of
# the 96 compared per kind (6 offsets, 16 caps): 619 of 768 in all, 508 with gauss's tetrahedron
# from the segment before (ellipsoid pairs 12, sphere-ellipsoid 51). The misses: faces of the
# pyramid's expansion that mirror each other across the offset's axis, their distances apart in
# the last bit, where MuJoCo's rounding picks the other one; so the counts move under jitters of
# the offsets. Measured over 100 jitters of 4 ulps of the offsets (exact zeros stay zero, so the
# alignment stays) on an Intel Xeon; the least jittered count less the spread, less one, is
# asserted (nominal, jittered range in the comments).
ALIGNED_THRESHOLD = {
    ("ellipsoid", "ellipsoid2"): 24,  # 62, 48-71
    ("cylinder", "box"): 74,  # 84, 84-93
    ("ellipsoid", "cylinder"): 25,  # 47, 41-56
    ("mesh", "mesh2"): 95,  # 96, 96-96
    ("box", "mesh"): 91,  # 95, 94-96
    ("mesh", "ellipsoid"): 95,  # 96, 96-96
    ("sphere", "ellipsoid"): 58,  # 88, 74-89
    ("capsule", "cylinder"): 30,  # 51, 44-57
}


@pytest.mark.parametrize("g1,g2", KINDS, ids=[f"{a}-{b}" for a, b in KINDS])
def test_aligned_centres(g1, g2):
    qs = aligned_poses()
    n, nominal = aligned_contacts_agree(g1, g2, qs)
    jittered = [aligned_contacts_agree(g1, g2, [jitter_pose(q, r) for q in qs])[1]
                for r in jitter.rngs(f"aligned {g1} {g2}")]
    jitter.spread(f"{g1}-{g2} offset along an axis: contacts as MuJoCo's", nominal, jittered,
                  at_least=ALIGNED_THRESHOLD[g1, g2], total=n)
