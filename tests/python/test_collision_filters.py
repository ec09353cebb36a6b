"""The collision stage against MuJoCo on hand-written scenes: which geom pairs are filtered out
(contype/conaffinity, same body, parent and child with filterparent on and off, welded bodies,
<exclude>), explicit <pair>s (their own parameters, bypassing the filters, replacing the dynamic
pair), margin and gap, the mixing of contact parameters (priority, solmix, friction maximum,
condim maximum, override), the tangent frame and the order of the contact list.

The scenes use spheres and planes only, whose narrow phase is analytic, so that every difference
is the stage's own. Tolerances: ids, dim and contact parameters exactly; dist 1e-6; pos and frame
1e-5."""

import gauss
import mujoco
import numpy as np
import pytest

PARAMS = ("friction", "solref", "solreffriction", "solimp", "includemargin")


def contact_lists(mjm, mjd, gm, gd):
    """Both engines' contacts as lists of dicts, MuJoCo's first."""
    mj = [mjd.contact[i] for i in range(mjd.ncon)]
    gs = gd.contact
    return mj, gs


# A contact whose distance sits on its registration threshold (dist == margin, within this) may be
# found by one engine and not the other: one ulp of difference in the kinematics decides, which is
# not the collision stage's doing (seen on gymnasium/point, a sphere resting exactly on the floor).
BOUNDARY = 1e-9


def _on_boundary(m, g1, g2, dist):
    margins = [max(m.geom_margin[g1], m.geom_margin[g2])]
    for p in range(m.npair):
        if {int(m.pair_geom1[p]), int(m.pair_geom2[p])} == {int(g1), int(g2)}:
            margins.append(m.pair_margin[p])
    return min(abs(float(dist) - float(t)) for t in margins) <= BOUNDARY


def compare_contacts(mjm, mjd, gm, gd, where=""):
    """Assert that gauss's contact list equals MuJoCo's: same count, same order, same geoms, dim
    and parameters exactly, dist to 1e-6, pos and frame to 1e-5. Returns the max errors."""
    mj, gs = contact_lists(mjm, mjd, gm, gd)
    keys_mj = [(int(c.geom1), int(c.geom2)) for c in mj]
    keys_gs = [(int(a), int(b)) for a, b in zip(gs.geom1, gs.geom2)]
    if keys_mj != keys_gs:
        # leave out the contacts on their threshold that only one engine found
        only_mj = set(keys_mj) - set(keys_gs)
        only_gs = set(keys_gs) - set(keys_mj)
        mj = [c for c in mj if (int(c.geom1), int(c.geom2)) not in only_mj
              or not _on_boundary(mjm, c.geom1, c.geom2, c.dist)]
        gs = gs[[k not in only_gs or not _on_boundary(mjm, k[0], k[1], dist)
                 for k, dist in zip(keys_gs, gs.dist)]]
    pairs_mj = [(int(c.geom1), int(c.geom2)) for c in mj]
    pairs_gs = [(int(a), int(b)) for a, b in zip(gs.geom1, gs.geom2)]
    assert pairs_gs == pairs_mj, f"{where}: contact geom pairs differ\n gauss {pairs_gs}\n mujoco {pairs_mj}"
    err = {"dist": 0.0, "pos": 0.0, "frame": 0.0}
    for i, c in enumerate(mj):
        g = gs[i]
        tag = f"{where}: contact {i} geoms {pairs_mj[i]}"
        assert int(g.dim) == int(c.dim), f"{tag}: dim {g.dim} != {c.dim}"
        for name in PARAMS:
            a, b = np.asarray(getattr(g, name)), np.asarray(getattr(c, name))
            assert np.array_equal(a, b), f"{tag}: {name} {a} != {b}"
        err["dist"] = max(err["dist"], abs(float(g.dist) - float(c.dist)))
        err["pos"] = max(err["pos"], float(np.max(np.abs(g.pos - c.pos))))
        err["frame"] = max(err["frame"], float(np.max(np.abs(g.frame - c.frame))))
        assert abs(g.dist - c.dist) <= 1e-6, f"{tag}: dist {g.dist} != {c.dist}"
        assert np.max(np.abs(g.pos - c.pos)) <= 1e-5, f"{tag}: pos {g.pos} != {c.pos}"
        assert np.max(np.abs(g.frame - c.frame)) <= 1e-5, f"{tag}: frame {g.frame} != {c.frame}"
        # MuJoCo marks contacts in the gap with exclude 1 (other values come from later stages)
        # (a contact on the gap threshold goes either way by one ulp, as above)
        if int(c.exclude) in (0, 1) and abs(c.dist - c.includemargin) > BOUNDARY:
            assert int(g.exclude) == int(c.exclude), f"{tag}: exclude {g.exclude} != {c.exclude}"
        # rows in the constraint problem or not, as MuJoCo decides (addresses themselves shift
        # when a caller left contacts out of one list)
        if abs(c.dist - c.includemargin) > BOUNDARY:
            assert (int(g.efc_address) >= 0) == (int(c.efc_address) >= 0), \
                f"{tag}: efc_address {g.efc_address} vs {c.efc_address}"
    return err


def both(xml, qpos=None):
    mjm = mujoco.MjModel.from_xml_string(xml)
    mjd = mujoco.MjData(mjm)
    gm = gauss.Model.from_xml_string(xml)
    gd = gauss.Data(gm)
    if qpos is not None:
        mjd.qpos[:] = qpos
        gd.qpos[:] = qpos
    mujoco.mj_forward(mjm, mjd)
    gauss.forward(gm, gd)
    return mjm, mjd, gm, gd


def check(xml, min_contacts=1, qpos=None):
    mjm, mjd, gm, gd = both(xml, qpos)
    compare_contacts(mjm, mjd, gm, gd)
    assert mjd.ncon >= min_contacts  # the scene really exercises something
    return mjd, gd


# ---- filters ----

FILTERPARENT = """<mujoco><option><flag filterparent="{fp}"/></option><worldbody>
<geom name="floor" type="plane" size="5 5 .1"/>
<geom name="wsph" type="sphere" size=".1" pos="3 0 0"/>
<body name="w1" pos="3 0 0.15"><geom name="w1g" type="sphere" size=".1"/>
  <body name="w1c" pos="0 0 0.15"><joint type="hinge"/><geom type="sphere" size=".1"/></body>
</body>
<body name="a" pos="0 0 .09"><freejoint/><geom type="sphere" size=".1"/>
  <geom type="sphere" size=".1" pos="0 0.05 0"/>
  <body name="ac" pos="0 0 .15"><joint type="hinge"/><geom type="sphere" size=".1"/>
    <body name="acw" pos="0 0 .15"><geom type="sphere" size=".1"/>
      <body name="acwc" pos="0 0 .15"><joint type="hinge"/><geom type="sphere" size=".1"/></body>
    </body>
  </body>
  <body name="aw" pos="0.15 0 0"><geom type="sphere" size=".1"/></body>
</body>
<body name="p" pos="0 2 1"><freejoint/><geom type="sphere" size=".1"/>
  <body pos="1 0 0"><geom type="sphere" size=".1"/>
    <body pos="-0.95 0 0"><joint type="hinge"/><geom type="sphere" size=".1"/></body>
  </body>
</body>
<body pos="0 3 0.15"><geom type="sphere" size=".1"/></body>
<body pos="0 3 0.3"><joint type="hinge"/><geom type="sphere" size=".1"/></body>
</worldbody></mujoco>"""


@pytest.mark.parametrize("fp", ["enable", "disable"])
def test_same_body_parent_child_weld(fp):
    mjd, gd = check(FILTERPARENT.format(fp=fp), min_contacts=4)
    if fp == "disable":
        assert mjd.ncon > 4  # parent-child pairs appear


def test_contype_conaffinity():
    xml = """<mujoco><worldbody>
    <geom type="plane" size="5 5 .1" contype="2" conaffinity="2"/>
    <body pos="0 0 0.09"><freejoint/><geom type="sphere" size=".1"/></body>
    <body pos="0.5 0 0.09"><freejoint/><geom type="sphere" size=".1" contype="2" conaffinity="0"/></body>
    <body pos="0.69 0 0.09"><freejoint/><geom type="sphere" size=".1" contype="1" conaffinity="0"/></body>
    <body pos="1.5 0 0.09"><freejoint/><geom type="sphere" size=".1" conaffinity="0"/></body>
    <body pos="1.69 0 0.09"><freejoint/><geom type="sphere" size=".1" conaffinity="0" contype="3"/></body>
    <body pos="2.5 0 0.09"><freejoint/><geom type="sphere" size=".1" conaffinity="2" contype="1"/></body>
    <body pos="2.69 0 0.09"><freejoint/><geom type="sphere" size=".1" conaffinity="1" contype="4"/></body>
    <body pos="3.5 0 0.09"><freejoint/><geom type="sphere" size=".1" conaffinity="0" contype="0"/></body>
    <body pos="3.69 0 0.09"><freejoint/><geom type="sphere" size=".1"/></body>
    </worldbody></mujoco>"""
    check(xml, min_contacts=2)


def test_contype_conaffinity_one_bit():
    """Geoms whose contype and conaffinity meet no other bounded geom's bits pair with nothing but
    the plane, and the broad phase leaves them out of its sweep; each of the other pairs here
    meets through a single bit only (8 with 8, 2 with 2), so a geom left out wrongly loses its
    contact. Overlapping geoms in the air and on the floor: three contacts in MuJoCo."""
    xml = """<mujoco><worldbody>
    <geom type="plane" size="5 5 .1" contype="1" conaffinity="1"/>
    <body pos="0 0 0.09"><freejoint/><geom type="sphere" size=".1" contype="1" conaffinity="0"/></body>
    <body pos="0.15 0 0.09"><freejoint/><geom type="sphere" size=".1" contype="4" conaffinity="0"/></body>
    <body pos="0.3 0 0.09"><freejoint/><geom type="sphere" size=".1" contype="2" conaffinity="0"/></body>
    <body pos="0.45 0 0.09"><freejoint/><geom type="sphere" size=".1" contype="0" conaffinity="2"/></body>
    <body pos="2 0 1"><freejoint/><geom type="sphere" size=".1" contype="8" conaffinity="0"/></body>
    <body pos="2.15 0 1"><freejoint/><geom type="sphere" size=".1" contype="0" conaffinity="8"/></body>
    <body pos="2.3 0 1"><freejoint/><geom type="capsule" size=".1 .2" contype="1" conaffinity="0"/></body>
    </worldbody></mujoco>"""
    mjd, _ = check(xml, min_contacts=3)
    pairs = {(int(c.geom1), int(c.geom2)) for c in mjd.contact[:mjd.ncon]}
    assert (3, 4) in pairs and (5, 6) in pairs  # the single-bit pairs were found (by MuJoCo too)


def test_exclude_and_explicit_pairs():
    xml = """<mujoco><worldbody>
    <geom name="floor" type="plane" size="5 5 .1"/>
    <body name="a" pos="0 0 .09"><freejoint/><geom name="ga" type="sphere" size=".1"/>
      <geom name="ga2" type="sphere" size=".1" pos="0 0.1 0"/>
      <body name="ac" pos="0.19 0 0"><joint type="hinge"/><geom name="gac" type="sphere" size=".1"/></body>
    </body>
    <body name="b" pos="0 0 .28"><freejoint/><geom name="gb" type="sphere" size=".1"/></body>
    <body name="c" pos="-0.19 0 .09"><freejoint/><geom name="gc" type="sphere" size=".1" contype="0" conaffinity="0"/></body>
    <body name="d" pos="2 0 .09"><freejoint/><geom name="gd" type="sphere" size=".1"/></body>
    <body name="e" pos="2.19 0 .09"><freejoint/><geom name="ge" type="sphere" size=".1"/></body>
    <body name="far" pos="5 5 5"><freejoint/><geom name="f1" type="sphere" size=".1"/></body>
    </worldbody><contact>
    <pair geom1="ga2" geom2="floor" condim="4"/>
    <pair geom1="gc" geom2="ga" condim="1" friction="0.3 0.3 0.1 0.01 0.02" solref="0.05 2"
          solreffriction="0.1 0.5" solimp="0.8 0.9 0.01 0.4 3" margin="0.01" gap="0.003"/>
    <pair geom1="ga" geom2="gac" condim="6" margin="0.01" gap="0.1"/>
    <pair geom1="gb" geom2="f1" condim="4" margin="100"/>
    <pair geom1="gb" geom2="ga" condim="6"/>
    <pair geom1="ga" geom2="gb" condim="1"/>
    <exclude body1="d" body2="e"/>
    <exclude body1="world" body2="b"/>
    <exclude body1="c" body2="a"/>
    </contact></mujoco>"""
    mjd, gd = check(xml, min_contacts=6)
    # the far pair is registered through its margin of 100
    assert any(c.dist > 1 for c in gd.contact)


# ---- margin and gap ----

@pytest.mark.parametrize("sep", [0.19, 0.205, 0.215, 0.225, 0.26])
def test_margin_gap(sep):
    xml = f"""<mujoco><worldbody>
    <geom type="plane" size="5 5 .1" margin="0.02" gap="0.005"/>
    <body pos="0 0 {sep / 2}"><freejoint/><geom type="sphere" size=".1" margin="0.03" gap="0.01"/></body>
    <body pos="{sep} 0 {sep / 2}"><freejoint/><geom type="sphere" size=".1"/></body>
    </worldbody></mujoco>"""
    mjd, gd = check(xml, min_contacts=0)
    if sep < 0.23:
        assert mjd.ncon >= 1


# ---- mixing ----

MIX = [
    ('condim="1"', 'condim="4"'),
    ('condim="6" priority="1"', 'condim="4"'),
    ('condim="1" priority="1"', 'condim="6"'),
    ('friction="2 0.1 0.3"', 'friction="1 0.2 0.01"'),
    ('friction="2 0.1 0.3" priority="-1"', 'friction="1 0.2 0.01"'),
    ('solref="0.1 2" solmix="1"', 'solref="0.3 1" solmix="3"'),
    ('solref="-100 -2" solmix="1"', 'solref="-300 -1" solmix="3"'),
    ('solref="-100 -2" solmix="1"', 'solref="0.3 1" solmix="3"'),
    ('solref="0.3 1" solmix="1"', 'solref="-100 -2" solmix="3"'),
    ('solref="0.1 2" solmix="0"', 'solref="0.3 1" solmix="0"'),
    ('solref="0.1 2" solmix="0"', 'solref="0.3 1" solmix="1"'),
    ('solref="0.1 2" solmix="1e-16"', 'solref="0.3 1" solmix="1e-15"'),
    ('solimp="0.8 0.9 0.01 0.3 3" solmix="1"', 'solimp="0.5 0.6 0.02 0.5 1" solmix="3"'),
    ('solimp="0.8 0.9 0.01 0.3 3" solmix="1" priority="2"', 'solimp="0.5 0.6 0.02 0.5 1" solmix="3" priority="1"'),
    ('solref="0.1 2" priority="2" margin="0.01" gap="0.001"', 'solref="0.3 1" priority="1" margin="0.03" gap="0.002"'),
    ('margin="0.05" gap="0.01"', 'margin="0.03" gap="0.02"'),
    ('margin="0.05" gap="0.01" priority="1"', 'margin="0.03" gap="0.02"'),
    ('solref="0.1 2" priority="1" solmix="3"', 'solref="0.3 1" priority="1" solmix="1"'),
]


@pytest.mark.parametrize("a,b", MIX)
def test_mixing(a, b):
    xml = f"""<mujoco><worldbody>
    <body pos="0 0 0"><freejoint/><geom type="sphere" size=".1" {a}/></body>
    <body pos="0.19 0 0"><freejoint/><geom type="sphere" size=".1" {b}/></body>
    <body pos="0.3 0.3 0"><freejoint/><geom type="sphere" size=".1" {b}/></body>
    <body pos="0.3 0.49 0"><freejoint/><geom type="sphere" size=".1" {a}/></body>
    </worldbody></mujoco>"""
    check(xml, min_contacts=2)


@pytest.mark.parametrize("override", ["enable", "disable"])
def test_override(override):
    xml = f"""<mujoco><option o_margin="0.2" o_solref="0.1 3" o_solimp="0.1 0.2 0.3 0.4 5"
      o_friction="0.2 0.3 0.4 0.5 0.6"><flag override="{override}"/></option><worldbody>
    <geom name="floor" type="plane" size="5 5 .1"/>
    <body pos="0 0 0.09"><freejoint/><geom name="a" type="sphere" size=".1" gap="0.05"/>
      <body pos="0.19 0 0"><joint type="hinge"/><geom name="b" type="sphere" size=".1"/></body>
    </body>
    <body pos="0.5 0 0.2"><freejoint/><geom name="c" type="sphere" size=".1"/></body>
    </worldbody><contact><pair geom1="a" geom2="b" margin="0.01" gap="0.1"/>
    <pair geom1="floor" geom2="c" friction="0.7 0.7 0.1 0.1 0.1"/></contact></mujoco>"""
    check(xml, min_contacts=2)


def test_disabled():
    base = """<mujoco><option><flag {flag}="disable"/></option><worldbody>
    <geom name="floor" type="plane" size="5 5 .1"/>
    <body pos="0 0 0.09"><freejoint/><geom name="a" type="sphere" size=".1"/></body>
    </worldbody><contact><pair geom1="a" geom2="floor"/></contact></mujoco>"""
    for flag in ("contact", "constraint"):
        mjd, gd = check(base.format(flag=flag), min_contacts=0)
        assert gd.ncon == 0


# ---- frame and order ----

def test_tangent_frame():
    """Normals all around the sphere, across the switch of reference axis at |n_y| = 0.5."""
    xml = """<mujoco><worldbody>
    <body><freejoint/><geom type="sphere" size=".1"/></body>
    <body><freejoint/><geom type="sphere" size=".1"/></body>
    </worldbody></mujoco>"""
    mjm, mjd, gm, gd = both(xml)
    rng = np.random.default_rng(1)
    normals = [np.array(v, float) for v in ([0, 0, 1], [1, 0, 0], [0, 1, 0], [0, 0, -1], [0, -1, 0])]
    normals += [v / np.linalg.norm(v) for v in rng.normal(size=(60, 3))]
    for ny in (0.49, 0.51, -0.49, -0.51):
        r = np.sqrt(1 - ny * ny)
        normals.append(np.array([0.6 * r, ny, 0.8 * r]))
    for n in normals:
        q = np.zeros(14)
        q[3] = q[10] = 1
        q[7:10] = 0.19 * n
        for d in (mjd, gd):
            d.qpos[:] = q
        mujoco.mj_forward(mjm, mjd)
        gauss.forward(gm, gd)
        compare_contacts(mjm, mjd, gm, gd, where=f"normal {n}")
        assert gd.ncon == 1


def test_order_pile():
    """Many spheres in a heap on two planes: the order of the list follows MuJoCo's."""
    rng = np.random.default_rng(2)
    bodies = "".join(
        f'<body pos="{x:.3f} {y:.3f} {z:.3f}"><freejoint/><geom type="sphere" size="{r:.3f}"/>'
        f'<geom type="sphere" size="{r:.3f}" pos="0 0 {r:.3f}"/></body>'
        for x, y, z, r in zip(rng.uniform(-0.4, 0.4, 40), rng.uniform(-0.4, 0.4, 40),
                              rng.uniform(0.05, 0.8, 40), rng.uniform(0.05, 0.12, 40)))
    xml = f"""<mujoco><worldbody><geom type="plane" size="5 5 .1"/>
    <geom type="plane" size="5 5 .1" pos="0 0 0.02" zaxis="0.1 0 1"/>{bodies}
    </worldbody></mujoco>"""
    mjd, gd = check(xml, min_contacts=30)


def test_contact_full():
    """More contacts than room: the list stops at nconmax and the warning counts the rest."""
    n = 30
    bodies = "".join(f'<body pos="{0.001 * i:.3f} 0 0.05"><freejoint/>'
                     + '<geom type="sphere" size=".1"/>' * 2 + '</body>' for i in range(n))
    xml = f'<mujoco><worldbody><geom type="plane" size="5 5 .1"/>{bodies}</worldbody></mujoco>'
    gm = gauss.Model.from_xml_string(xml)
    gd = gauss.Data(gm)
    gauss.forward(gm, gd)
    assert gd.ncon == gd.nconmax
    assert gd.warning[gauss.WARN_CONTACTFULL].number > 0
