"""A trotting quadruped controlled by inverse dynamics with predicted rigid contact forces
(seed 004, section 6), simulated by gauss.

    PYTHONPATH=python .venv/bin/python examples/quadruped/trot.py [--seconds 30]
        [--terrains rigid-high,rigid-low,compliant-high,compliant-low,rough]
        [--controllers pid,id1,id2,qp_mu,qps_mu,qp_inf,qpc_mu,lcp_mu,lcp_inf,lcpm_mu,soft_mu]
        [--dt 0.01]
        [--dt-compliant DT] [--dt-energy DT] [--stabilise] [--out DIR]

The tables of docs/inverse_rigid.md: --seconds 30 --dt 0.001 --dt-compliant 0.01 --stabilise.

The quadruped (quadruped.xml: 4.8 kg, about 16 cm tall, three hinges a leg, spherical feet)
trots between the waypoints (0,0), (0.25,0), (0,0.25), (0,-0.25), (-0.25,0) and round again: a
0.3 s cycle, duty factor 0.75, 1.5 cm steps, 20 cm/s toward the next waypoint. The planner gives
each leg's foot a path in the base's frame (stance: straight back; swing: a raised arc), and the
legs' inverse kinematics the desired joint angles, velocities and accelerations.

Controllers (section 6.2), all at the simulation's 1 kHz:
  pid       joint PID on the tracking error
  id1, id2  inverse dynamics with the contact forces sensed one and two steps late (the
            simulator's generalized constraint force)
  qp_mu, qp_inf, lcp_mu, lcp_inf
            inverse dynamics with the contact forces predicted by gauss.inverse_rigid: the
            seed's two-stage QP with Coulomb friction (pyramid) and with "infinite" friction (a
            pyramid of MU_INF = 10 on every contact), the Coulomb LCP and the no-slip LCP
            (warm-started; section 3.5's repair when the contacts cannot give the desired motion)
  qps_mu    qp_mu whose Stage II takes the torques nearest the last step's (smooth)
  lcpm_mu   lcp_mu with Algorithm 3: the Coulomb LCP's solution nearest the last step's forces
  qpc_mu    the two-stage QP with the contact objective: the simulator's own complementarity-free
            model inverted
  soft_mu   the compliant ground's soft model itself inverted (soft_inverse(): the contact
            objective with the soft model's regulariser R and reference acceleration, whose
            optimum is unique and is the forward step's; not the rigid library methods)
The inverse-dynamics controllers ask for qdd_des + Kp e + Kd e' (computed torque); with
--stabilise, the stabilising layer's accelerations instead (stabilised(): a PD of the whole
robot's centre of mass -- of the base where the forces are not predicted for the simulator's own
step -- and of the base's attitude, planted feet held, swing feet on world-frame paths that
leave and land at rest, and for the QP controllers Stage II contact weights that move a foot's
load off before it lifts and on after it lands; the predictive controllers keep the last torques
in the step a foot touches down, and at the simulator's step also in the step a planted foot
loses its contact for a step and in the step it has it back). A run fails on a fallen or tilted
base and on non-finite or runaway torques or speeds (failure()).

Terrains: rigid (MuJoCo's soft contact at its velocity-level limit: reference acceleration
-v / h, no spring, impedance 0.9999, and noslip; the seed's time-stepping model) or compliant
(solref 0.02, a spring and damper), with high (mu = 1.5) or low (mu = 0.1) friction; rough: rigid,
bumps up to 3 cm, in 10 cm height-field tiles with friction drawn from U(0.1, 1.5). The
predictive controllers discretize at dt (--dt, default 0.01 s; --dt-compliant on the compliant
ground): at the simulation's 1 ms the models are the rigid ground's own step (see
docs/inverse_rigid.md); a spring ground wants its own time scale. The seed's kinetic-energy
objective (qp_mu, qps_mu, qp_inf) discretizes at --dt-energy (default 0.01 s on every terrain):
its Stage I asks the contacts for the impulse that removes the robot's momentum (its gradient
in the forces is the base rows of M v+ seen through the contacts), a force of about |p| / dt, so
at 1 ms it predicts about seven times the weight (and fails within a second), at 10 ms about
the weight. For
each terrain the script prints tables in the form of seed 004's Tables 3-5 (joint tracking
error; E|dtau/dt| and E|tau|; the predicted summed normal force against the simulator's in the
same step) and writes PNG plots of the centre-of-mass path and of a knee's torque. The same run
twice gives identical tables."""

import argparse
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))

import gauss  # noqa: E402
import pngplot  # noqa: E402

LEGS = ("FL", "FR", "HL", "HR")
HIPS = {"FL": (0.1, 0.07), "FR": (0.1, -0.07), "HL": (-0.1, 0.07), "HR": (-0.1, -0.07)}
L1 = L2 = 0.07
FOOT_R = 0.012
STAND = np.array([0.0, 0.5, -1.0])
WAYPOINTS = np.array([(0, 0), (0.25, 0), (0, 0.25), (0, -0.25), (-0.25, 0)], float)
CYCLE, DUTY, STEP_H, SPEED = 0.3, 0.75, 0.015, 0.2
PHASE = {"FL": 0.0, "HR": 0.0, "FR": 0.5, "HL": 0.5}   # trot: diagonal pairs together
ENERGY = ("qp_mu", "qps_mu", "qp_inf")   # the controllers with the seed's Stage I objective
CONTROLLERS = ("pid", "id1", "id2", "qp_mu", "qps_mu", "qp_inf", "qpc_mu", "lcp_mu", "lcp_inf")
TERRAINS = {"rigid-high": (True, 1.5), "rigid-low": (True, 0.1),
            "compliant-high": (False, 1.5), "compliant-low": (False, 0.1), "rough": (True, 0.8)}
KP, KD = 900.0, 60.0          # computed-torque gains (1/s^2, 1/s)
DT = 0.01
DT_COMPLIANT = None           # the predictors' step on the compliant ground (None: DT)
# the step of the seed's kinetic-energy objective (qp_mu, qps_mu, qp_inf; None: as the others).
# Stage I's optimum removes the robot's momentum as far as the contacts allow, a force of about
# |p| / dt: on qpc_mu's states of a rigid trot it predicts a summed normal force of 322 N at
# 1 ms (median; the weight is 47 N), 58 N at 10 ms. At 1 ms qp_mu and qps_mu fail at 0.71 s on
# rigid ground; at 10 ms they complete on every terrain (3 s, 7-16 % prediction error).
DT_ENERGY = 0.01
# qp_inf's friction coefficient: the seed's QP,inf is the QP "set to allow infinite frictional
# forces", and its authors' code keeps the bound mu f_N >= sum f_F with a large coefficient.
# Without any bound (eq. 66 dropped) Stage I's optimum puts 5e4-1.3e5 N of friction on contacts
# without normal force at a touchdown and every run fails within 0.1 s. Measured over 3 s on the
# five terrains (tables' settings): MU_INF 10 completes all five (rigid mu 1.5: E|dtau| 31.1,
# prediction 9.7 %); 30 fails on both compliant grounds (2.0 s, 0.9 s); 100 on the rough terrain
# at its first step and on both compliant grounds (0.35 s, 0.08 s); 1000 on rigid mu 1.5 at
# 0.06 s: the bound binds on contacts that land or lift (friction up to MU_INF times a small
# normal force), while the median step asks for 0.43 of the normal force. 10 is the largest
# power of ten that trots everywhere over 3 s, 6.7 times the largest coefficient of any ground
# here (over 30 s it fails on the compliant ground at mu 0.1 at 22.4 s, where the seed's QP,inf
# fails too; docs/inverse_rigid.md).
MU_INF = 10.0
PID = (6.0, 0.08, 2.0)        # N m/rad, N m s/rad, N m/(rad s)
STAB = None                   # the stabilising layer's gains (--stabilise), see stabilised()
# dv: the base's horizontal velocity gain (1/s); dvc: the centre of mass's (the rule used with
# the forces predicted at the simulator's step, stabilised()): a softer loop of the whole robot's
# velocity (E|dtau| over 3 s of qpc_mu, rigid ground: 27.8 -> 24.5 at mu 1.5, 29.8 -> 28.2 at
# mu 0.1; joint error 0.031 -> 0.041 and 0.054 -> 0.055 rad). At 5 /s the base's PD (id1,
# id2, the compliant ground) failed on the rigid and compliant grounds: it stays at 10 /s
STAB_GAINS = {"kz": 100.0, "dz": 20.0, "kr": 150.0, "dr": 20.0, "dv": 10.0, "dvc": 5.0}
VEL_TAU = 0.1                 # s: the commanded velocity's time constant
FOOT_W = 100.0                # rad/s: the layer's swing feet's PD (critically damped)
UNLOAD_T, LOAD_T = 0.04, 0.03   # s: the layer's load transfer before lift-off, after landing
LOAD_K, LOAD_W = 0.13, 10.0     # Stage II's weights (load_weights)
TAU_MAX, VEL_MAX = 50.0, 100.0   # the failure check's bounds (failure())
# m/s: the predictors' largest penetration velocity of a solution that is used (else as no
# solution): 3 s of qpc_mu have none beyond 2e-16 on rigid ground at mu 1.5, 6e-13 at mu 0.1
# (but the one step below) and 2.5e-8 on the rough terrain
PEN_MAX = 1e-6
PATCH = 15                    # rough terrain: 15 x 15 tiles of 10 cm (feet off their edges)


def rough_elevation(n=61, half=1.5, seed=4):
    """a height field of smooth bumps up to 1 (3 cm once scaled), flat within 8 cm of the start"""
    rng = np.random.default_rng(seed)
    xs = np.linspace(-half, half, n)
    X, Y = np.meshgrid(xs, xs)
    z = np.zeros_like(X)
    for _ in range(120):
        cx, cy = rng.uniform(-half, half, 2)
        z += rng.uniform(0, 1) * np.exp(-((X - cx) ** 2 + (Y - cy) ** 2) / (2 * 0.04 ** 2))
    z *= np.clip((np.hypot(X, Y) - 0.08) / 0.05, 0, 1)
    return np.clip(z, 0, 1)


def rough_patches(xml, mu_seed=5):
    """the rough terrain as PATCH x PATCH height-field tiles of 10 cm that share their edge samples
    (one continuous surface, the bumps of rough_elevation), each with its own friction drawn from
    U(0.1, 1.5) as in the seed: MJCF gives a height field one friction, a geom per tile gives the
    surface many. Each tile's elevation is normalized to [0, 1] by the compiler: its height range
    goes into its size and its lowest sample into its position."""
    elev = rough_elevation() * 0.03
    step = 2 * 1.5 / (elev.shape[0] - 1)                # 5 cm between samples
    mus = np.random.default_rng(mu_seed).uniform(0.1, 1.5, (PATCH, PATCH))
    c0 = (elev.shape[0] - 1) // 2 - PATCH               # the patches cover the middle +-PATCH*5 cm
    assets, geoms = [], []
    for i in range(PATCH):
        for j in range(PATCH):
            r, c = c0 + 2 * i, c0 + 2 * j                # 3 x 3 samples per tile
            z = elev[r:r + 3, c:c + 3]
            lo, hi = z.min(), z.max()
            span = max(hi - lo, 1e-6)
            rows = " ".join(f"{(v - lo) / span:.6f}" for v in z[::-1].ravel())   # MJCF: top row first
            assets.append(f'<hfield name="p{i}_{j}" nrow="3" ncol="3" size="{step} {step} '
                          f'{span:.6f} 0.05" elevation="{rows}"/>')
            x, y = -1.5 + (c + 1) * step, -1.5 + (r + 1) * step
            geoms.append(f'<geom type="hfield" hfield="p{i}_{j}" pos="{x:.4f} {y:.4f} {lo:.6f}" '
                         f'friction="{mus[i, j]:.4f} 0.005 0.0001"/>')
    xml = xml.replace('<geom name="floor" type="plane" size="3 3 0.1"/>', "\n    ".join(geoms))
    return xml.replace("<worldbody>", "<asset>" + "".join(assets) + "</asset>\n  <worldbody>")


def model(rigid, mu, rough=False):
    xml = open(os.path.join(HERE, "quadruped.xml")).read()
    if rough:
        xml = rough_patches(xml)
    # rigid: MuJoCo's soft contact at its velocity-level limit, the seed's time-stepping model: the
    # reference acceleration -v / h (solref's direct form, damping 1 / h, no spring) with impedance
    # 0.9999 stops a contact within the step, as v+ = v + h a = 0 does. (A spring, solref 0.002 1,
    # adds k r at touchdown; its penetration of 0.1 mm gives a quarter of the damping's force.)
    # compliant: solref 0.02, a spring and damper.
    if rigid:
        h = float(xml.split('timestep="')[1].split('"')[0])
        solref, solimp = f"0 {-1 / h:g}", "0.9999 0.9999 0.001"
    else:
        solref, solimp = "0.02 1", "0.9 0.95 0.001"
    xml = xml.replace('<geom friction="1 0.005 0.0001"/>',
                      f'<geom friction="{mu} 0.005 0.0001" solref="{solref}" solimp="{solimp}"/>')
    if rigid:
        xml = xml.replace('noslip_iterations="0"', 'noslip_iterations="10"')
    return gauss.Model.from_xml_string(xml)


def leg_ik(p):
    """joint angles (abduction, hip, knee) that put the foot's centre at p in the hip's frame"""
    px, py, pz = p
    phi = math.atan2(py, -pz)
    zp = -math.hypot(py, pz)
    r2 = px * px + zp * zp
    c2 = max(-1.0, min(1.0, (r2 - L1 * L1 - L2 * L2) / (2 * L1 * L2)))
    t2 = -math.acos(c2)
    t1 = math.atan2(-px, -zp) - math.atan2(L2 * math.sin(t2), L1 + L2 * math.cos(t2))
    return np.array([phi, t1, t2])


def quintic(s):
    """the quintic Hermite basis on [0, 1] with zero end accelerations: weights of the start
    point, the start velocity, the end velocity and the end point"""
    s3 = s ** 3
    return (1 - 10 * s3 + 15 * s3 * s - 6 * s3 * s * s, s - 6 * s3 + 8 * s3 * s - 3 * s3 * s * s,
            -4 * s3 + 7 * s3 * s - 3 * s3 * s * s, 10 * s3 - 15 * s3 * s + 6 * s3 * s * s)


NOMINAL_Z = -(L1 + L2) * math.cos(0.5)
LAND_V = 0.02                 # m/s: the swing foot's downward speed where it meets the ground
LATE_T, LATE_A = 0.025, 5.0   # s, m/s^2: a late foot's descent speeds up after LATE_T


def foot_path(t, leg, vel):
    """the foot's centre in the hip's frame at time t for a base velocity vel (its frame).
    Swing: quintic in x and y (leaves and lands at the stance's velocity with zero
    acceleration) and a lift of STEP_H that starts and ends with zero velocity and acceleration,
    plus a term that brings the foot down at LAND_V at the end (a foot whose ground is a little
    lower meets it at that speed). Stance: straight back at the base's speed, at the nominal
    height."""
    nominal = np.array([0.0, 0.0, NOMINAL_Z])
    stride = vel * CYCLE * DUTY
    ph = (t / CYCLE + PHASE[leg]) % 1.0
    if ph < 1 - DUTY:                       # swing: back to front on a raised arc
        s = ph / (1 - DUTY)
        tsw = CYCLE * (1 - DUTY)
        h0, h1, h4, h5 = quintic(s)
        m = -vel * tsw
        xy = h0 * (-stride / 2) + h1 * m + h4 * m + h5 * (stride / 2)
        z = NOMINAL_Z + STEP_H * 64 * (s * (1 - s)) ** 3 - LAND_V * tsw * h4
        return np.array([xy[0], xy[1], z])
    s = (ph - (1 - DUTY)) / DUTY            # stance: front to back
    xy = stride / 2 - stride * s
    return nominal + np.array([xy[0], xy[1], 0.0])


def leg_fk(q):
    """the foot's centre in the hip's frame for joint angles q (the inverse of leg_ik)"""
    phi, t1, t2 = q
    x = -(L1 * math.sin(t1) + L2 * math.sin(t1 + t2))
    zp = -(L1 * math.cos(t1) + L2 * math.cos(t1 + t2))
    return np.array([x, -zp * math.sin(phi), zp * math.cos(phi)])


class Planner:
    """desired joint angles, velocities and accelerations toward the waypoints"""

    def __init__(self):
        self.target = 1
        self.vel = None

    def velocity(self, com, yaw, h=1e-3):
        goal = WAYPOINTS[self.target]
        if np.linalg.norm(goal - com) < 0.02:
            self.target = (self.target + 1) % len(WAYPOINTS)
            goal = WAYPOINTS[self.target]
        v = goal - com
        v = SPEED * v / max(np.linalg.norm(v), 1e-9)
        # the commanded velocity turns toward a new waypoint in about VEL_TAU, not in one step
        # (a step change of the stride moves every planned foot at once)
        self.vel = v if self.vel is None else self.vel + (h / VEL_TAU) * (v - self.vel)
        v = self.vel
        c, s = math.cos(yaw), math.sin(yaw)
        return np.array([c * v[0] + s * v[1], -s * v[0] + c * v[1]])   # in the base's frame

    @staticmethod
    def joints(t, vel):
        return np.concatenate([leg_ik(foot_path(t, leg, vel)) for leg in LEGS])

    def desired(self, t, vel, h=1e-3):
        q0, qm, qp = self.joints(t, vel), self.joints(t - h, vel), self.joints(t + h, vel)
        return q0, (qp - qm) / (2 * h), (qp - 2 * q0 + qm) / (h * h)


def quat_mat(q):
    w, x, y, z = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def standing(m):
    d = gauss.Data(m)
    d.qpos[3] = 1
    d.qpos[7:] = np.tile(STAND, 4)
    d.qpos[2] = (L1 + L2) * math.cos(0.5) + FOOT_R - 1e-4
    gauss.forward(m, d)
    return d


def yaw_of(q):
    w, x, y, z = q
    return math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z))


def roll_pitch(q):
    w, x, y, z = q
    return (math.atan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y)),
            math.asin(max(-1.0, min(1.0, 2 * (w * y - z * x)))))


def feet_contacts(d, feet):
    """{leg: contact id} of the feet in contact (feet: {foot geom: leg})"""
    out = {}
    for i in range(d.ncon):
        con = d.contact[i]
        for geom in (int(con.geom1), int(con.geom2)):
            if geom in feet:
                out[feet[geom]] = i
    return out


def feet_touching(d, feet):
    """{leg: contact point} of the feet in contact (feet: {foot geom: leg})"""
    return {leg: np.asarray(d.contact[i].pos).copy() for leg, i in feet_contacts(d, feet).items()}


def swing_target(t, leg, mem):
    """the swing foot's path in the world (the stabilising layer): from where the foot left the
    ground to its landing point (mem["land"], set at lift-off: where the hip will be at
    touchdown plus half a stride), a quintic in x and y (zero velocity and acceleration at both
    ends: the foot leaves and lands at rest relative to the ground), a lift of STEP_H with zero
    velocity and acceleration at both ends above the ground where the foot stood, and a descent
    at LAND_V where it reaches that height (a foot whose ground is lower keeps going down at
    that speed; one that meets a higher ground meets it slowly). Returns the position at t."""
    tsw = CYCLE * (1 - DUTY)
    ph = (t / CYCLE + PHASE[leg]) % 1.0
    lift, ground, land = mem["lift"][leg], mem["ground"][leg], mem["land"][leg]
    if ph >= 1 - DUTY:       # late: over the landing point, going down
        late = (ph - (1 - DUTY)) * CYCLE
        # at LAND_V for LATE_T (the swing's lag on flat ground), then faster: a ground
        # centimetres lower (rough terrain) is found within the stance, not after it
        later = max(late - LATE_T, 0.0)
        return np.array([land[0], land[1],
                         ground + FOOT_R - LAND_V * late - 0.5 * LATE_A * later * later])
    s = ph / (1 - DUTY)
    h0, _, h4, h5 = quintic(s)
    xy = h0 * lift[:2] + h5 * land
    z = (ground + FOOT_R + (lift[2] - ground - FOOT_R) * h0 + STEP_H * 64 * (s * (1 - s)) ** 3
         - LAND_V * tsw * h4)
    return np.array([xy[0], xy[1], z])


def stabilised(m, ctl, acc, t, vel, z_nom, dt, g, mem, com_rule=True):
    """The stabilising layer (seed 004, section 6.2: balance feedback accumulated into the desired
    accelerations), written as a task-space rule: the base is asked for a PD angular acceleration
    toward a level attitude, and for the linear acceleration with which the whole robot's centre
    of mass accelerates toward the nominal height and the planner's velocity (com_rule; else the
    base's own linear acceleration is that PD's, see below), and each leg gets
    the joint accelerations that give its foot a chosen velocity after the predictor's step,
    J (qvel + dt qacc) = v_next, for that base acceleration:
      - a foot planned in stance that touches the ground: v_next = 0 (it does not move; a foot
        that touches in the second half of its swing counts as landed);
      - any other foot: the world-frame swing path of swing_target(), its acceleration plus a
        PD of the foot's error (FOOT_W), as v_next = J qvel + dt (that acceleration).
    Computed torque alone asks twelve joints for accelerations that four planted feet cannot all
    follow (the rigid step then lifts feet); these are consistent with the planted feet by
    construction, and the swing feet, planned in the world rather than in the moving hip's
    frame, leave and meet the ground at rest relative to it (the base bobs by millimetres, a
    hip-frame plan then lands early at up to 0.6 m/s: an impact the exact predictors answer in
    one step). ctl: the simulator's state after the position and velocity stages; mem: the
    layer's memory (lift-off points, ground heights, phases). Returns the joint accelerations
    (12).

    com_rule: the centre-of-mass rule needs forces predicted for the very step whose joint
    accelerations it sets (the predictors at the simulator's step on rigid ground). With forces
    sensed a step late (id1, id2) or predicted by a 10 ms rigid model of a spring ground, the
    base's acceleration is not the one the rule assumed, and the base's counter-motion to each
    lift-off (up to 7 m/s^2 at the 10 ms step, where the swing path's first 20 ms are one step)
    becomes a disturbance: id1 failed at mu 0.1 (7.3 s) and qpc_mu on the compliant ground
    (2.7 s) with it, and complete without it. There the PD acts on the base, as before the rule."""
    S = STAB
    q, v = ctl.qpos, ctl.qvel
    roll, pitch = roll_pitch(q[3:7])
    yaw = yaw_of(q[3:7])
    c, s_ = math.cos(yaw), math.sin(yaw)
    rot = np.array([[c, -s_], [s_, c]])
    vw = rot @ vel
    stride_w = rot @ (vel * CYCLE * DUTY)
    ab = np.zeros(6)                 # linear part: set at the end, for the centre of mass
    ab[3:5] = -S["kr"] * np.array([roll, pitch]) - S["dr"] * v[3:5]
    ab[5] = -S["dr"] * v[5]
    out = acc.copy()
    lin = np.zeros((12, 6))          # d out / d ab: the legs' share of a change of ab
    touching = feet_touching(ctl, g)
    for k, leg in enumerate(LEGS):
        ph = (t / CYCLE + PHASE[leg]) % 1.0
        geom = [gg for gg, name in g.items() if name == leg][0]
        body = int(m.geom_bodyid[geom])
        foot = np.array(ctl.geom_xpos[geom])
        last, mem["phase"][leg] = mem["phase"][leg], ph
        if ph < 1 - DUTY <= last:            # the first step of a swing: where it leaves from
            mem["lift"][leg] = foot.copy()
            mem["ground"][leg] = touching[leg][2] if leg in touching else foot[2] - FOOT_R
            mem["planted"][leg] = None
            hip = np.array(ctl.xpos[int(m.body_parentid[m.body_parentid[body]])])
            # where the hip will be at touchdown (at the base's velocity now) and half a stride
            mem["land"][leg] = hip[:2] + v[:2] * CYCLE * (1 - DUTY) + stride_w / 2
        # a foot that touches in the second half of its swing has landed (early); it stays
        # planted until its next swing, also when the rigid ground's contact flickers
        if leg in touching and ph >= 0.5 * (1 - DUTY) and mem["planted"][leg] is None:
            mem["planted"][leg] = t
        cols = slice(6 + 3 * k, 9 + 3 * k)
        if mem["planted"][leg] is not None and leg in touching:
            jp, _ = gauss.jac(m, ctl, touching[leg], body)
            vnext = np.zeros(3)
        elif mem["planted"][leg] is not None:
            # planted but not touching (a foot with next to no load leaves the velocity-level
            # ground by round-off): back down at LAND_V
            jp, _ = gauss.jac(m, ctl, foot, body)
            vnext = np.array([0.0, 0.0, -LAND_V])
        elif mem["lift"][leg] is not None:
            # while it still touches, the contact point's velocity (the foot's centre moves with
            # its rotation too: a rolling foot would slide on the ground)
            jp, _ = gauss.jac(m, ctl, touching[leg] if leg in touching else foot, body)
            p0, p1, p2 = (swing_target(t + i * dt, leg, mem) for i in range(3))
            vf = jp @ v
            # the path's acceleration plus a PD of the foot's error (not a velocity error
            # cancelled within one step: with forces predicted wrongly, that answers every
            # step's surprise with a jump)
            vd, ad = (p2 - p0) / (2 * dt), (p2 - 2 * p1 + p0) / (dt * dt)
            # critically damped at FOOT_W, at most a third of the step's rate (the layer's
            # step is the predictor's, 10 ms on the compliant ground)
            w = min(FOOT_W, 0.3 / dt)
            vnext = vf + dt * (ad + w * w * (p1 - foot - vd * dt) + 2 * w * (vd - vf))
        elif leg in touching and ph >= 1 - DUTY:   # standing before its first swing
            jp, _ = gauss.jac(m, ctl, touching[leg], body)
            vnext = np.zeros(3)
        else:                                # before the first lift-off: computed torque
            continue
        rhs = (vnext - jp @ v) / dt - jp[:, :6] @ ab
        if np.linalg.cond(jp[:, cols]) < 1e8:     # a stretched leg keeps computed torque
            out[3 * k:3 * k + 3] = np.linalg.solve(jp[:, cols], rhs)
            lin[3 * k:3 * k + 3] = -np.linalg.solve(jp[:, cols], jp[:, :6])
    # the PD above is the centre of mass's, not the base's: the base's linear acceleration is
    # moved until the whole robot's centre of mass accelerates as asked. Held at the base, the
    # swing legs' accelerations (up to 60 m/s^2 of the feet) come back through the stance feet
    # (the summed normal force swung by +-20 N over a swing, and every stance joint's torque
    # with it); at the centre of mass the base gives way by a millimetre or two instead
    M = gauss.full_M(m, ctl)
    mtot = float(m.body_subtreemass[1])
    com = np.array(ctl.subtree_com[1])
    vc = M[:3] @ v / mtot             # the free joint's rows of M v: the linear momentum
    zc0 = mem.setdefault("zc0", com[2] - q[2] + z_nom)
    ac = np.zeros(3)
    ac[:2] = S["dvc"] * (vw - vc[:2])
    ac[2] = S["kz"] * (zc0 - com[2]) - S["dz"] * vc[2]
    # the same rows of M qacc + qfrc_bias: the contacts' summed force, m (a_com - gravity)
    qa = np.concatenate([ab, out])
    A = M[:3, :6] + M[:3, 6:] @ lin
    have = (M[:3] @ qa + ctl.qfrc_bias[:3]) / mtot + np.array(m.opt.gravity)
    if not com_rule:                  # the PD on the base itself
        vb = v[:3]
        ab_lin = np.array([S["dv"] * (vw[0] - vb[0]), S["dv"] * (vw[1] - vb[1]),
                           S["kz"] * (z_nom - q[2]) - S["dz"] * vb[2]])
        return out + lin[:, :3] @ ab_lin
    dab = np.linalg.solve(A[:, :3] / mtot, ac - have)
    return out + lin[:, :3] @ dab


def flicker(t, ctl, g, mem):
    """whether a planted foot that carries its load lost its contact at this state after
    touching in the last step, or touches again after such a step (the layer's memory keeps
    the last contact set). Not for feet in their load transfer (within LOAD_T of landing or
    UNLOAD_T of lifting): a lifting foot's load is moving off and it may lose a contact the
    other feet do not miss (holding there chained holds into a failure: qpc_mu, rigid, mu 1.5,
    10.65 s), a landing foot that bounces off has the landing's torques (holding them for two
    steps made the next step's change larger)"""
    touch = set(feet_contacts(ctl, g))

    def loaded(leg):
        t0 = mem["planted"][leg]
        to_lift = (1 - (t / CYCLE + PHASE[leg]) % 1.0) * CYCLE
        return t0 is not None and t - t0 > LOAD_T and to_lift > UNLOAD_T

    lost = [leg for leg in LEGS if loaded(leg) and leg not in touch
            and leg in mem.get("touched", ())]
    back = [leg for leg in mem.get("lost", ()) if leg in touch]
    mem["touched"], mem["lost"] = touch, lost
    return bool(lost or back)


def load_weights(t, ctl, g, mem):
    """Stage II's weight of each contact (the QP controllers with the layer): a foot's load moves
    to the other feet over UNLOAD_T before it lifts and comes onto it over LOAD_T after it lands,
    instead of within one step (four feet down leave Stage II a choice: a diagonal pair carries
    the robot alone), along the quintic's smooth step; at most LOAD_W."""
    w = np.zeros(ctl.ncon)
    for i in range(ctl.ncon):
        con = ctl.contact[i]
        leg = g.get(int(con.geom1), g.get(int(con.geom2)))
        if leg is None:
            continue
        ph = (t / CYCLE + PHASE[leg]) % 1.0
        to_lift = (1 - ph) * CYCLE                     # s until this foot's next swing
        up = min(max(1 - to_lift / UNLOAD_T, 0.0), 1.0)
        t0 = mem["planted"][leg]
        if ph < 1 - DUTY and t0 is None:               # swinging: carries nothing
            up = 1.0
        down = 0.0 if t0 is None else min(max(1 - (t - t0) / LOAD_T, 0.0), 1.0)
        r = quintic(max(up, down))[3]
        # Stage II leaves a contact of weight w about 1 / (1 + w / LOAD_K) of its load: this w
        # makes the load follow the smooth step 1 - r
        w[i] = min(LOAD_K * r / max(1 - r, 1e-9), LOAD_W)
    return w


def soft_inverse(m, ctl, acc, act):
    """the torques that give the actuated dofs the accelerations acc under the simulator's own
    soft contact model (ctl after the position and velocity stages), and the summed normal
    force; None when it does not converge. The base's accelerations a_b solve
    (M a - f0 - J^T f(a))_base = 0 with each pyramid edge's or joint limit's force
    f = max(0, -(J a - aref) / R) (seed 000's soft model: the forward step's optimum with these
    torques is a). The base equation is the gradient of a convex piecewise quadratic in a_b:
    Newton with its exact Hessian M_bb + sum_active J_b^T J_b / R, until the active set repeats
    with the residual under 1e-9 N. The torques and forces are then the library's soft inverse
    (gauss.inverse) at that acceleration."""
    base = np.arange(6)
    M = gauss.full_M(m, ctl)
    f0 = ctl.qfrc_passive - ctl.qfrc_bias
    J = ctl.efc_J_dense()
    R, aref, typ = ctl.efc_R.copy(), ctl.efc_aref.copy(), ctl.efc_type.copy()
    if not np.all(np.isin(typ, (3, 6))):    # joint limits and pyramids' edges only
        return None
    a = np.zeros(m.nv)
    a[act] = acc
    a[base] = np.linalg.solve(M[np.ix_(base, base)], f0[base] - M[np.ix_(base, act)] @ acc)
    last = None
    for _ in range(30):
        jar = J @ a - aref
        on = jar < 0
        res = (M @ a - f0 - J.T @ np.where(on, -jar / R, 0.0))[base]
        if last is not None and np.array_equal(on, last) and np.abs(res).max() < 1e-9:
            break
        Jb = J[on][:, base]
        a[base] -= np.linalg.solve(M[np.ix_(base, base)] + Jb.T @ (Jb / R[on, None]), res)
        last = on
    else:
        return None
    ctl.qacc[:] = a
    gauss.inverse(m, ctl)
    if np.abs(ctl.qfrc_inverse[base]).max() > 1e-6:
        return None
    return ctl.qfrc_inverse[act].copy(), ctl.efc_force[ctl.efc_type == 6].sum()


def run(terrain, controller, seconds):
    rigid, mu = TERRAINS[terrain]
    m = model(rigid, mu, rough=terrain == "rough")
    # qp_inf's predictor: the same robot and ground with every friction coefficient MU_INF (a
    # model of its own: the contacts take their coefficient from the geoms)
    mp = m
    if controller == "qp_inf":
        mp = model(rigid, mu, rough=terrain == "rough")
        mp.geom_friction[:, 0] = MU_INF
    # the predictors' step: on the compliant ground DT_COMPLIANT when given (a rigid model's
    # step of the ground's time scale; at the simulator's step it asks a spring for forces its
    # penetration does not give)
    dt_pred = DT if rigid or DT_COMPLIANT is None else DT_COMPLIANT
    if controller in ENERGY and DT_ENERGY is not None:
        dt_pred = DT_ENERGY
    d = standing(m)
    ctl = gauss.Data(mp)                # the controller's own data: the simulation's is not touched
    nv, h = m.nv, m.opt.timestep
    act = m.jnt_dofadr[m.actuator_trnid[:, 0]]
    base = np.arange(6)
    planner = Planner()
    warm = gauss.RigidWarm()
    # qpc_mu: the QP with the contact objective (the complementarity-free model the simulator
    # steps, inverted); qp_mu, qp_inf: the seed's kinetic-energy objective
    method = {"qp_mu": ("qp", True, "energy", False), "qp_inf": ("qp", True, "energy", False),
              "qpc_mu": ("qp", True, "contact", False),
              "qps_mu": ("qp", True, "energy", True), "qpcs_mu": ("qp", True, "contact", True),
              "lcp_mu": ("coulomb", True, None, False), "lcpm_mu": ("coulomb", True, None, False),
              "lcp_inf": ("noslip", True, None, False)}.get(controller)
    if controller == "soft_mu":         # the simulator's own soft model inverted (soft_inverse)
        method = ("soft", True, None, False)
    # the forces predicted for the simulator's own step: the layer's centre-of-mass rule and
    # the flicker step (below) hold for these only
    exact = method is not None and STAB is not None and abs(dt_pred - h) < 1e-12
    sensed = [np.zeros(nv), np.zeros(nv)]   # qfrc_constraint one and two steps back
    integ = np.zeros(12)
    n = int(round(seconds / h))
    rec = {k: [] for k in ("t", "com", "eq", "edq", "tau", "fpred", "fsim", "fell")}
    feet = {gauss.name2id(m, "geom", f"{leg}_foot"): leg for leg in LEGS}
    z_nom = d.qpos[2]
    mem = {"lift": {leg: None for leg in LEGS}, "ground": {leg: 0.0 for leg in LEGS},
           "phase": {leg: (-h / CYCLE + PHASE[leg]) % 1.0 for leg in LEGS},
           "planted": {leg: None for leg in LEGS},
           "land": {leg: None for leg in LEGS}}   # the stabilising layer's memory
    tau_prev = None
    for i in range(n):
        t = i * h
        com = d.qpos[:2].copy()
        vel = planner.velocity(com, yaw_of(d.qpos[3:7]))
        qd, qdd_d, qdd_des = planner.desired(t, vel)
        q, dq = d.qpos[7:], d.qvel[6:]
        e, de = qd - q, qdd_d - dq
        fpred = np.nan
        if controller == "pid":
            integ += e * h
            tau = PID[0] * e + PID[1] * de + PID[2] * integ
        else:
            acc = qdd_des + KP * e + KD * de
            if STAB is not None:
                ctl.qpos[:], ctl.qvel[:] = d.qpos, d.qvel
                gauss.fwd_position(mp, ctl)
                gauss.fwd_velocity(mp, ctl)
                # the layer's step: the predictors' (on the compliant ground every
                # controller's: a planted foot is not stopped within 1 ms by a spring)
                acc = stabilised(mp, ctl, acc, t, vel, z_nom,
                                 dt_pred if method is not None or not rigid else h, feet, mem,
                                 com_rule=exact)
            if method is None:              # sensed contact forces, one or two steps late
                fc = sensed[0] if controller == "id1" else sensed[1]
                ctl.qpos[:], ctl.qvel[:] = d.qpos, d.qvel
                gauss.fwd_position(mp, ctl)
                gauss.fwd_velocity(mp, ctl)
                M = gauss.full_M(mp, ctl)
                f0 = ctl.qfrc_passive - ctl.qfrc_bias + fc
                a = np.zeros(nv)
                a[act] = acc
                a[base] = np.linalg.solve(M[np.ix_(base, base)],
                                          f0[base] - M[np.ix_(base, act)] @ acc)
                tau = (M @ a - f0)[act]
            elif method[0] == "soft":
                ctl.qpos[:], ctl.qvel[:] = d.qpos, d.qvel
                gauss.fwd_position(mp, ctl)
                gauss.fwd_velocity(mp, ctl)
                sol = soft_inverse(mp, ctl, acc, act)
                if sol is not None or tau_prev is None:
                    tau, fpred = sol if sol is not None else (np.zeros(len(act)), np.nan)
                else:                       # not converged: the last torques
                    tau = tau_prev.copy()
            else:                           # predicted rigid contact forces
                ctl.qpos[:], ctl.qvel[:] = d.qpos, d.qvel
                ctl.qacc[:] = 0
                ctl.qacc[act] = acc
                mindiff = controller == "lcpm_mu"
                r = gauss.inverse_rigid(mp, ctl, method=method[0], friction=method[1],
                                        warm=warm if method[0] != "coulomb" or mindiff else None,
                                        dt=dt_pred, mindiff=mindiff,
                                        objective=method[2] or "energy", smooth=method[3],
                                        repair=method[0] == "noslip",
                                        weight=(load_weights(t, ctl, feet, mem)
                                                if STAB is not None and method[0] == "qp"
                                                else None))
                # no solution (the desired motion asks the contacts for the impossible): the
                # last torques are kept. So too, for forces predicted at the simulator's step
                # (exact: the forward step inverted), for a solution that drives a contact into
                # the ground (normal velocity after the step below -PEN_MAX): a guard kept from
                # qpc_mu, rigid, mu 0.1, 1.377 s, where the weighted Stage II once passed a
                # basis spoilt by round-off as solved (residual 151, a contact entering the
                # ground at 5.2 cm/s); the library now rejects such an answer (Lemke's per-row
                # acceptance, and Stage II must keep Stage I's impulse on the free dofs) and the
                # guard no longer fires there
                if (r.status >= 0 and (not exact or r.penetration >= -PEN_MAX)) or tau_prev is None:
                    tau = r.qfrc[act]
                    fpred = r.contact_force[:, 0].sum()
                else:
                    tau = tau_prev.copy()
        if exact and tau_prev is not None and flicker(t, ctl, feet, mem):
            # a planted foot lost its contact for this step, or has it back after such a step:
            # the last torques are kept and no prediction is used (as at a touchdown). On the
            # velocity-level ground (no spring pulls a foot back) a planted foot's centre can
            # creep up by 0.2-0.6 um a step until the contact is gone for a step; the exact
            # predictor answered the lost load and its return with torque steps of up to
            # 1 N m and back (51 times in 3 s of qpc_mu at mu 0.1, 27 at mu 1.5)
            tau = tau_prev.copy()
            fpred = np.nan
        if (STAB is not None and method is not None and tau_prev is not None
                and t in mem["planted"].values()):
            # a foot touched down in this step (the layer planted it): the last torques are
            # kept, and the ground stops the foot (the predictive controllers: with sensed
            # forces the landing's force comes a step later all the same, and id1 failed on
            # the rough terrain at 3.7 s with this step, completes without it). Asked to stop it within the step (v_next = 0)
            # the joints brake the leg against the base, a torque pulse of 0.4-0.8 N m and
            # back in the next step at every landing; no prediction is used in this step
            tau = tau_prev.copy()
            fpred = np.nan
        d.ctrl[:] = tau
        gauss.step(m, d)
        sensed = [d.qfrc_constraint.copy(), sensed[0]]
        fsim = sum(gauss.contact_force(m, d, c)[0] for c in range(d.ncon))
        rec["t"].append(t)
        rec["com"].append(d.subtree_com[1][:2].copy())
        rec["eq"].append(np.abs(e).mean())
        rec["edq"].append(np.abs(de).mean())
        rec["tau"].append(np.abs(tau).mean())
        rec["fpred"].append(fpred)
        rec["fsim"].append(fsim)
        rec.setdefault("dtau", []).append(np.nan if tau_prev is None else
                                          np.abs(tau - tau_prev).mean() / h)
        rec.setdefault("knee", []).append(tau[2])
        rec.setdefault("tauv", []).append(tau.copy())
        rec.setdefault("footpos", []).append(np.array([d.geom_xpos[g] for g in feet]))
        # the feet in contact after the step (bit k: LEGS[k]) and where they are
        rec.setdefault("feet", []).append(sum(1 << LEGS.index(leg) for leg in feet_contacts(d, feet)))
        tau_prev = tau.copy()
        why = failure(d, tau)
        rec["fell"].append(why is not None)
        if why is not None:
            rec["why"] = why
            break
    return {k: np.array(v) for k, v in rec.items()}


def failure(d, tau):
    """why the run failed after this step, or None: the base below 6 cm or tilted over 60
    degrees (fallen), a torque or a state that is not finite, a torque above TAU_MAX (no motor of
    this robot gives it: the controller diverged; E|tau| is about 0.5 N m) or a speed above
    VEL_MAX (rad/s or m/s: the simulation diverged) -- a diverging controller can keep the base
    in the height band for seconds"""
    if not all(np.all(np.isfinite(x)) for x in (tau, d.qpos, d.qvel)):
        return "not finite"
    if np.abs(tau).max() > TAU_MAX:
        return "torque"
    if np.abs(d.qvel).max() > VEL_MAX:
        return "speed"
    roll, pitch = roll_pitch(d.qpos[3:7])
    if d.qpos[2] < 0.06 or max(abs(roll), abs(pitch)) > math.pi / 3:
        return "fell"
    return None


def prediction_error(r):
    """the predicted summed normal force against the simulator's over the steps with a
    prediction: the mean absolute error (N); the seed's relative error (Table 5: its absolute and
    relative columns are not in one ratio, so the relative one is the mean of each step's
    |error| / force, over the steps where the simulator's feet carry load); the mean error over
    the mean force; the share of steps with a prediction whose simulator carries no load"""
    ok = np.isfinite(r["fpred"])
    if not ok.any():
        return None
    fp, fs = r["fpred"][ok], r["fsim"][ok]
    err = np.abs(fp - fs)
    loaded = fs > 1e-6
    rel = np.mean(err[loaded] / fs[loaded]) if loaded.any() else np.nan
    return err.mean(), rel, err.mean() / fs.mean(), 1 - loaded.mean()


def table_head(terrain):
    print(f"\n## {terrain}\n")
    print("Tracking (Table 3) and torques (Table 4); contact-force prediction (Table 5): the "
          "predicted summed normal force against the simulator's in the same step.\n")
    print("| controller | E|q - q_des| (rad) | E|dq - dq_des| (rad/s) | E|dtau/dt| (N m/s) | "
          "E|tau| (N m) | abs. error (N) | rel. error (seed's) | mean error / mean force | "
          "no load | completed |")
    print("|" + " --- |" * 10)


def table_row(c, r):
    done = "yes" if not r["fell"][-1] else f"{r['why']} at {r['t'][-1]:.2f} s"
    e = prediction_error(r)
    cols = ["-"] * 4 if e is None else [f"{e[0]:.3f}", f"{100 * e[1]:.2f} %",
                                        f"{100 * e[2]:.2f} %", f"{100 * e[3]:.1f} %"]
    print(f"| {c} | {r['eq'].mean():.4f} | {r['edq'].mean():.4f} | "
          f"{np.nanmean(r['dtau']):.2f} | {r['tau'].mean():.4f} | {' | '.join(cols)} | {done} |",
          flush=True)


def plots(terrain, results, out):
    """the centre of mass's path of the controllers that finished near the waypoints (within
    1 m of the start), and the first second of a knee's torque of those that finished"""
    fig = pngplot.Figure(900, 900, rows=2)
    p = fig.panel(0, title=f"centre of mass {terrain}", xlabel="x (m)", ylabel="y (m)")
    loop = WAYPOINTS[[0, 1, 2, 3, 4, 0]]
    p.line(loop[:, 0], loop[:, 1], color=pngplot.GREY, width=1, label="waypoints")
    q = fig.panel(1, title="FL knee torque", xlabel="t (s)", ylabel="N m")
    for i, (c, r) in enumerate(results.items()):
        if r["fell"][-1]:
            continue
        color = pngplot.PALETTE[i % 7]
        if np.abs(r["com"]).max() < 1.0:
            p.line(r["com"][:, 0], r["com"][:, 1], color=color, width=2, label=c)
        k = min(len(r["t"]), 1000)
        q.line(r["t"][:k], r["knee"][:k], color=color, width=1, label=c)
    path = os.path.join(out, f"trot_{terrain}.png")
    fig.save(path)
    return path


def main():
    global DT, DT_COMPLIANT, DT_ENERGY, STAB
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--terrains", default=",".join(TERRAINS))
    ap.add_argument("--controllers", default=",".join(CONTROLLERS))
    ap.add_argument("--out", default=".")
    ap.add_argument("--dt", type=float, default=DT,
                    help="the predictive controllers' velocity-level step (s)")
    ap.add_argument("--dt-compliant", type=float, default=None,
                    help="the predictive controllers' step on the compliant ground (default: --dt)")
    ap.add_argument("--dt-energy", type=float, default=DT_ENERGY,
                    help="the step of the seed's kinetic-energy objective (qp_mu, qps_mu, qp_inf; "
                         "0: as --dt)")
    ap.add_argument("--stabilise", action="store_true",
                    help="the inverse-dynamics controllers with the stabilising layer")
    a = ap.parse_args()
    DT = a.dt
    DT_COMPLIANT = a.dt_compliant
    DT_ENERGY = a.dt_energy if a.dt_energy > 0 else None
    if a.stabilise:
        STAB = dict(STAB_GAINS)
    for terrain in a.terrains.split(","):
        rigid = TERRAINS[terrain][0]
        dtp = DT if rigid or DT_COMPLIANT is None else DT_COMPLIANT
        print(f"\n(predictive controllers' dt = {dtp:g} s"
              f"{'' if DT_ENERGY is None else f'; qp_mu, qps_mu, qp_inf: {DT_ENERGY:g} s'}"
              f"{', stabilising layer' if STAB is not None else ''})")
        table_head(terrain)
        results = {}
        for c in a.controllers.split(","):     # each row as its run ends (30 s runs are slow)
            results[c] = run(terrain, c, a.seconds)
            table_row(c, results[c])
        if a.out:
            print(f"\nwrote {plots(terrain, results, a.out)}")


if __name__ == "__main__":
    main()
