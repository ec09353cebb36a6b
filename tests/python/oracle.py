"""Helpers shared by the Python tests: the model corpus, the XML both engines load, random states,
and comparisons against MuJoCo (the `mujoco` package, used here as an oracle and nowhere else).

Meaning of "relative" throughout the tests: for an array `a` (gauss) checked against `b` (MuJoCo
or a closed form), the test passes when

    max_i |a_i - b_i|  <=  tol * max(1, max_i |b_i|)

so the tolerance is relative to the largest magnitude of the reference array, and absolute for
arrays whose entries are all below 1.
"""

import os
import xml.etree.ElementTree as ET

import mujoco
import numpy as np
import pytest

import gauss

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
MODELS_DIR = os.path.join(REPO, "tests", "models")
CORPUS_GROUPS = ("gymnasium", "dm_control", "mujoco")

# Top-level MJCF sections removed from the XML that both engines load for conformance: none, now
# that actuators, tendons, sensors, equality constraints, contact pairs and keyframes are all
# simulated (a test may still pass its own `sections` to prepare_xml).
STRIP_SECTIONS = ()

JNT_FREE, JNT_BALL, JNT_SLIDE, JNT_HINGE = 0, 1, 2, 3


def corpus_models():
    """(id, path) of every model of the corpus, id like 'dm_control/acrobot'."""
    out = []
    for group in CORPUS_GROUPS:
        folder = os.path.join(MODELS_DIR, group)
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            if name.endswith(".xml"):
                out.append((f"{group}/{name[:-4]}", os.path.join(folder, name)))
    return out


# ---- the prepared XML ----

def _inline_includes(elem, base_dir, depth=0):
    """Replace every <include file=...> below `elem` by the children of the included file's root."""
    if depth > 20:
        raise RuntimeError("include nesting too deep")
    for i, child in enumerate(list(elem)):
        if child.tag == "include":
            path = os.path.join(base_dir, child.get("file"))
            inc_root = ET.parse(path).getroot()
            _inline_includes(inc_root, os.path.dirname(path), depth + 1)
            pos = list(elem).index(child)
            elem.remove(child)
            for k, sub in enumerate(list(inc_root)):
                elem.insert(pos + k, sub)
        else:
            _inline_includes(child, base_dir, depth)


def prepare_xml(path, extra_flags=None, sections=STRIP_SECTIONS):
    """The XML of the model at `path`, self-contained (includes inlined), with the top-level
    `sections` (default STRIP_SECTIONS) removed, and with contacts and constraints disabled through <option><flag contact="disable"
    constraint="disable"/> (`extra_flags` overrides and adds flags).

    Returns (xml_string, stripped), `stripped` being a list of what was removed, readable."""
    tree = ET.parse(path)
    root = tree.getroot()
    _inline_includes(root, os.path.dirname(os.path.abspath(path)))
    stripped = []
    for section in sections:
        for el in root.findall(section):
            n = len(list(el))
            root.remove(el)
            stripped.append(f"<{section}> ({n} children)")
    options = root.findall("option")
    if not options:
        opt = ET.Element("option")
        root.insert(0, opt)
        options = [opt]
    flags = {"contact": "disable", "constraint": "disable"}
    flags.update(extra_flags or {})
    for opt in options:
        flag = opt.find("flag")
        if flag is None:
            flag = ET.SubElement(opt, "flag")
        for k, v in flags.items():
            flag.set(k, v)
    return ET.tostring(root, encoding="unicode"), stripped


# ---- states ----

def quat2mat(q):
    """The rotation matrix of a unit quaternion (w, x, y, z)."""
    w, x, y, z = q
    return np.array([
        [w * w + x * x - y * y - z * z, 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), w * w - x * x + y * y - z * z, 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), w * w - x * x - y * y + z * z]])


def random_unit_quat(rng):
    q = rng.normal(size=4)
    return q / np.linalg.norm(q)


def random_state(mjm, rng, scale=1.0):
    """A random (qpos, qvel) for the MuJoCo model `mjm`: hinge and slide joints uniform in their
    range when limited, else normal(0, 1) * scale; ball and free quaternions random unit
    quaternions; free positions normal(0, 1); qvel normal(0, 1)."""
    qpos = np.zeros(mjm.nq)
    for j in range(mjm.njnt):
        adr = mjm.jnt_qposadr[j]
        t = mjm.jnt_type[j]
        if t == JNT_FREE:
            qpos[adr:adr + 3] = rng.normal(size=3)
            qpos[adr + 3:adr + 7] = random_unit_quat(rng)
        elif t == JNT_BALL:
            qpos[adr:adr + 4] = random_unit_quat(rng)
        else:
            lo, hi = mjm.jnt_range[j]
            if mjm.jnt_limited[j] and hi > lo:
                qpos[adr] = rng.uniform(lo, hi)
            else:
                qpos[adr] = rng.normal() * scale
    qvel = rng.normal(size=mjm.nv)
    return qpos, qvel


# ---- comparisons ----

def rel_err(a, b):
    """max|a - b| / max(1, max|b|): the error measure every tolerance of these tests bounds."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if a.shape != b.shape:
        return np.inf
    if a.size == 0:
        return 0.0
    return float(np.max(np.abs(a - b)) / max(1.0, float(np.max(np.abs(b)))))


def align_quats(a, b):
    """Quaternion rows of `a` with their sign flipped where that brings them onto `b`'s: q and -q
    are the same rotation, so the comparison must not depend on which one an engine produces."""
    a = np.array(a, dtype=float).reshape(-1, 4)
    b = np.asarray(b, dtype=float).reshape(-1, 4)
    flip = np.sum(a * b, axis=1) < 0
    a[flip] *= -1
    return a


def check_close(errors, name, a, b, tol):
    """Append a readable line to `errors` when rel_err(a, b) > tol; return the error."""
    e = rel_err(a, b)
    if not e <= tol:
        a = np.asarray(a, dtype=float)
        b = np.asarray(b, dtype=float)
        where = ""
        if a.shape == b.shape and a.size:
            idx = np.unravel_index(np.argmax(np.abs(a - b)), a.shape)
            where = f" worst at {tuple(int(i) for i in idx)}: gauss {a[idx]!r} mujoco {b[idx]!r}"
        else:
            where = f" shapes gauss {a.shape} mujoco {b.shape}"
        errors.append(f"{name}: rel err {e:.3e} > {tol:g};{where}")
    return e


# ---- a 5-link pendulum in 3-D ----

INTEGRATOR_NAMES = {0: "Euler", 1: "RK4", 2: "implicit", 3: "implicitfast"}


def pendulum5_xml(integrator="RK4", timestep=0.002, damping=0.0, ball=False, pivot_height=3.0):
    """Five capsule links hanging from a pivot at `pivot_height`, hinged about axes that are not
    parallel (so the motion is 3-D), one joint offset from its body origin; with `ball` the third
    joint is a ball joint. Contacts are off (contype/conaffinity 0 and the contact flag), there are
    no limits and no friction loss; `damping` is the joint damping of every joint. The chain is
    2.0 long, so with pivot_height 3 every point stays above z = 1."""
    j3 = ('<joint name="j3" type="ball"/>' if ball
          else '<joint name="j3" type="hinge" axis="0 1 1"/>')
    return f"""<mujoco model="pendulum5">
  <option timestep="{timestep}" integrator="{integrator}" gravity="0 0 -9.81">
    <flag contact="disable"/>
  </option>
  <default>
    <joint damping="{damping}"/>
    <geom type="capsule" size="0.04" contype="0" conaffinity="0" density="1000"/>
  </default>
  <worldbody>
    <body name="l1" pos="0 0 {pivot_height}">
      <joint name="j1" type="hinge" axis="0 1 0"/>
      <geom fromto="0 0 0 0 0 -0.5"/>
      <body name="l2" pos="0 0 -0.5">
        <joint name="j2" type="hinge" axis="1 0 0"/>
        <geom fromto="0 0 0 0.1 0 -0.45" size="0.035"/>
        <body name="l3" pos="0.1 0 -0.45">
          {j3}
          <geom fromto="0 0 0 0 0.1 -0.4" size="0.045"/>
          <body name="l4" pos="0 0.1 -0.4" euler="0.2 -0.1 0.3">
            <joint name="j4" type="hinge" axis="1 1 0" pos="0 0 0.02"/>
            <geom fromto="0 0 0 0 0 -0.35"/>
            <body name="l5" pos="0 0 -0.35">
              <joint name="j5" type="hinge" axis="0.3 1 -0.2"/>
              <geom fromto="0 0 0 0.05 0.05 -0.3" size="0.03"/>
            </body>
          </body>
        </body>
      </body>
    </body>
  </worldbody>
</mujoco>
"""


def pendulum5_state(ball=False):
    """A fixed, nonzero initial (qpos, qvel) for pendulum5_xml."""
    if ball:
        q3 = np.array([1.0, 0.2, -0.1, 0.3])
        qpos = np.concatenate([[0.5, -0.3], q3 / np.linalg.norm(q3), [0.7, -0.4]])
        qvel = np.array([0.8, -0.5, 0.3, 0.6, -0.2, 1.0, -0.7])
    else:
        qpos = np.array([0.5, -0.3, 0.4, 0.7, -0.4])
        qvel = np.array([0.8, -0.5, 0.6, 1.0, -0.7])
    return qpos, qvel


# ---- a slice of a compiled model against MuJoCo's (the MJCF slices' tests) ----

def object_names(m, otype, n, is_gauss):
    """Names of objects 0..n-1 of type `otype` (numbered as mjtObj), "" for unnamed ones."""
    if is_gauss:
        return [(gauss._lib.gs_id2name(m._ptr, otype, i) or b"").decode() for i in range(n)]
    return [mujoco.mj_id2name(m, otype, i) or "" for i in range(n)]


def size_errors(gm, mm, sizes):
    """Readable differences between the sizes of a gauss and a MuJoCo model."""
    return [f"{s}: gauss {getattr(gm, s)} mujoco {getattr(mm, s)}"
            for s in sizes if getattr(gm, s) != getattr(mm, s)]


def field_errors(gm, mm, fields, bad):
    """Readable differences between the arrays `fields` of a gauss and a MuJoCo model.
    bad(f, a, b) marks the entries of gauss's `a` (in MuJoCo's shape) too far from MuJoCo's `b`;
    the first of them is reported."""
    errors = []
    for f in fields:
        a = np.asarray(getattr(gm, f), dtype=float)
        b = np.asarray(getattr(mm, f), dtype=float)
        if a.size != b.size:
            errors.append(f"{f}: {a.size} values, mujoco {b.size}")
            continue
        if a.size == 0:
            continue
        a = a.reshape(b.shape)
        mask = bad(f, a, b)
        if mask.any():
            idx = np.unravel_index(np.argmax(mask), b.shape)
            errors.append(f"{f}{list(idx)}: gauss {a[idx]!r} mujoco {b[idx]!r}")
    return errors


def name_errors(gm, mm, named):
    """Object types whose names differ; `named` maps each type to the size counting it."""
    errors = []
    for otype, size in named.items():
        n = getattr(mm, size)
        a, b = object_names(gm, otype, n, True), object_names(mm, otype, n, False)
        if a != b:
            errors.append(f"names of object type {otype}: gauss {a} mujoco {b}")
    return errors


def assert_no_errors(errors, label=""):
    """Fail with the first ten differences a comparison found."""
    assert not errors, label + "; ".join(errors[:10])


def assert_rejected(xml, where, elem, phrase, mujoco_rejects, mujoco_error=Exception):
    """gauss refuses `xml` with a message naming the place (`where`, like ":3:"), the element and
    the phrase; MuJoCo refuses it too (raising `mujoco_error`) when `mujoco_rejects`."""
    with pytest.raises(gauss.GaussError) as e:
        gauss.Model.from_xml_string(xml)
    msg = str(e.value)
    assert where in msg and elem in msg and phrase in msg, msg
    if mujoco_rejects:
        with pytest.raises(mujoco_error):
            mujoco.MjModel.from_xml_string(xml)


def dense_moment(m, d):
    """The actuator moments (nu x nv) from the sparse rows both engines keep (moment_rownnz,
    moment_rowadr, moment_colind, actuator_moment), for either engine's model and data."""
    M = np.zeros((m.nu, m.nv))
    for i in range(m.nu):
        adr, n = d.moment_rowadr[i], d.moment_rownnz[i]
        M[i, d.moment_colind[adr:adr + n]] = d.actuator_moment[adr:adr + n]
    return M
