"""Type stubs of gauss, written by tools/gen_stubs.py from the package: do not edit."""

from typing import Any

import numpy

__all__: list[str]
__version__: str

CONE_ELLIPTIC: int
CONE_PYRAMIDAL: int
DISABLE_NAMES: tuple
DSBL_ACTUATION: int
DSBL_AUTORESET: int
DSBL_CLAMPCTRL: int
DSBL_CONSTRAINT: int
DSBL_CONTACT: int
DSBL_DAMPER: int
DSBL_EQUALITY: int
DSBL_EULERDAMP: int
DSBL_FILTERPARENT: int
DSBL_FRICTIONLOSS: int
DSBL_GRAVITY: int
DSBL_ISLAND: int
DSBL_LIMIT: int
DSBL_MIDPHASE: int
DSBL_NATIVECCD: int
DSBL_REFSAFE: int
DSBL_SENSOR: int
DSBL_SPRING: int
DSBL_WARMSTART: int

class Data:
    """Simulation state (gsData) for a model; keeps the model alive."""
    qpos: numpy.ndarray
    """qpos: float64 array of shape (nq,); units: m for slide and free-joint positions, rad for hinges, unitless quaternions"""
    qvel: numpy.ndarray
    """qvel: float64 array of shape (nv,); units: m/s for translational dofs, rad/s for rotational ones"""
    act: numpy.ndarray
    """act: float64 array of shape (na,); units: the actuator's activation units"""
    ctrl: numpy.ndarray
    """ctrl: float64 array of shape (nu,); units: the actuator's control units (N or N m for a motor of gear 1)"""
    qfrc_applied: numpy.ndarray
    """qfrc_applied: float64 array of shape (nv,); units: N for translational dofs, N m for rotational ones (generalized force)"""
    xfrc_applied: numpy.ndarray
    """xfrc_applied: float64 array of shape (nbody, 6); units: N (force, 3) then N m (torque, 3), in the world frame at the body's COM"""
    qacc_warmstart: numpy.ndarray
    """qacc_warmstart: float64 array of shape (nv,); units: m/s^2 / rad/s^2, as qacc"""
    eq_active: numpy.ndarray
    """eq_active: int32 array of shape (neq,); units: integer (an id, address, count, type, flag or mask): unitless"""
    mocap_pos: numpy.ndarray
    """mocap_pos: float64 array of shape (nmocap, 3); units: m"""
    mocap_quat: numpy.ndarray
    """mocap_quat: float64 array of shape (nmocap, 4); units: unit quaternion (w, x, y, z)"""
    userdata: numpy.ndarray
    """userdata: float64 array of shape (nuserdata,); units: user-defined"""
    qacc: numpy.ndarray
    """qacc: float64 array of shape (nv,); units: m/s^2 for translational dofs, rad/s^2 for rotational ones"""
    act_dot: numpy.ndarray
    """act_dot: float64 array of shape (na,); units: activation units per second"""
    xpos: numpy.ndarray
    """xpos: float64 array of shape (nbody, 3); units: m"""
    xquat: numpy.ndarray
    """xquat: float64 array of shape (nbody, 4); units: unit quaternion (w, x, y, z), unitless"""
    xmat: numpy.ndarray
    """xmat: float64 array of shape (nbody, 9); units: rotation matrix, row-major (3x3 flattened), unitless"""
    xipos: numpy.ndarray
    """xipos: float64 array of shape (nbody, 3); units: m"""
    ximat: numpy.ndarray
    """ximat: float64 array of shape (nbody, 9); units: rotation matrix, row-major, unitless"""
    xanchor: numpy.ndarray
    """xanchor: float64 array of shape (njnt, 3); units: m"""
    xaxis: numpy.ndarray
    """xaxis: float64 array of shape (njnt, 3); units: unit vector, unitless"""
    geom_xpos: numpy.ndarray
    """geom_xpos: float64 array of shape (ngeom, 3); units: m"""
    geom_xmat: numpy.ndarray
    """geom_xmat: float64 array of shape (ngeom, 9); units: rotation matrix, row-major (3x3 flattened), unitless"""
    site_xpos: numpy.ndarray
    """site_xpos: float64 array of shape (nsite, 3); units: m"""
    site_xmat: numpy.ndarray
    """site_xmat: float64 array of shape (nsite, 9); units: rotation matrix, row-major (3x3 flattened), unitless"""
    subtree_com: numpy.ndarray
    """subtree_com: float64 array of shape (nbody, 3); units: m"""
    cinert: numpy.ndarray
    """cinert: float64 array of shape (nbody, 10); units: kg m^2 (inertia, 6), kg m (mass times COM offset, 3), kg (mass)"""
    crb: numpy.ndarray
    """crb: float64 array of shape (nbody, 10); units: kg m^2, kg m, kg (composite inertia, as cinert)"""
    cdof: numpy.ndarray
    """cdof: float64 array of shape (nv, 6); units: rad or m per unit dof velocity (motion axis, 6)"""
    qM: numpy.ndarray
    """qM: float64 array of shape (nM,); units: kg or kg m^2 (joint-space inertia, sparse)"""
    qLD: numpy.ndarray
    """qLD: float64 array of shape (nM,); units: kg or kg m^2 (factor of qM)"""
    qLDiagInv: numpy.ndarray
    """qLDiagInv: float64 array of shape (nv,); units: 1/kg or 1/(kg m^2)"""
    ten_wrapadr: numpy.ndarray
    """ten_wrapadr: int32 array of shape (ntendon,); units: integer (an id, address, count, type, flag or mask): unitless"""
    ten_wrapnum: numpy.ndarray
    """ten_wrapnum: int32 array of shape (ntendon,); units: integer (an id, address, count, type, flag or mask): unitless"""
    ten_length: numpy.ndarray
    """ten_length: float64 array of shape (ntendon,); units: m"""
    ten_J: numpy.ndarray
    """ten_J: float64 array of shape (nten_J,); units: m per unit dof motion (m/rad or unitless)"""
    wrap_obj: numpy.ndarray
    """wrap_obj: int32 array of shape (nwrap, 2); units: integer (an id, address, count, type, flag or mask): unitless"""
    wrap_xpos: numpy.ndarray
    """wrap_xpos: float64 array of shape (nwrap, 6); units: m"""
    ten_velocity: numpy.ndarray
    """ten_velocity: float64 array of shape (ntendon,); units: m/s"""
    actuator_length: numpy.ndarray
    """actuator_length: float64 array of shape (nu,); units: m or rad (length of the transmission)"""
    moment_rownnz: numpy.ndarray
    """moment_rownnz: int32 array of shape (nu,); units: integer (an id, address, count, type, flag or mask): unitless"""
    moment_rowadr: numpy.ndarray
    """moment_rowadr: int32 array of shape (nu,); units: integer (an id, address, count, type, flag or mask): unitless"""
    moment_colind: numpy.ndarray
    """moment_colind: int32 array of shape (nJmom,); units: integer (an id, address, count, type, flag or mask): unitless"""
    actuator_moment: numpy.ndarray
    """actuator_moment: float64 array of shape (nJmom,); units: m or unitless (moment arm of the transmission on each dof)"""
    actuator_velocity: numpy.ndarray
    """actuator_velocity: float64 array of shape (nu,); units: m/s or rad/s"""
    actuator_force: numpy.ndarray
    """actuator_force: float64 array of shape (nu,); units: N or N m (force along the transmission)"""
    cvel: numpy.ndarray
    """cvel: float64 array of shape (nbody, 6); units: rad/s (rotation, 3) then m/s (translation, 3), at the subtree COM"""
    cdof_dot: numpy.ndarray
    """cdof_dot: float64 array of shape (nv, 6); units: per second (time derivative of cdof)"""
    qfrc_bias: numpy.ndarray
    """qfrc_bias: float64 array of shape (nv,); units: N for translational dofs, N m for rotational ones (generalized force)"""
    qfrc_passive: numpy.ndarray
    """qfrc_passive: float64 array of shape (nv,); units: N for translational dofs, N m for rotational ones (generalized force)"""
    qfrc_spring: numpy.ndarray
    """qfrc_spring: float64 array of shape (nv,); units: N for translational dofs, N m for rotational ones (generalized force)"""
    qfrc_damper: numpy.ndarray
    """qfrc_damper: float64 array of shape (nv,); units: N for translational dofs, N m for rotational ones (generalized force)"""
    qfrc_gravcomp: numpy.ndarray
    """qfrc_gravcomp: float64 array of shape (nv,); units: unitless (fraction of gravity compensated)"""
    qfrc_fluid: numpy.ndarray
    """qfrc_fluid: float64 array of shape (nv,); units: N for translational dofs, N m for rotational ones (generalized force)"""
    qfrc_actuator: numpy.ndarray
    """qfrc_actuator: float64 array of shape (nv,); units: N for translational dofs, N m for rotational ones (generalized force)"""
    qfrc_smooth: numpy.ndarray
    """qfrc_smooth: float64 array of shape (nv,); units: N for translational dofs, N m for rotational ones (generalized force)"""
    qacc_smooth: numpy.ndarray
    """qacc_smooth: float64 array of shape (nv,); units: m/s^2 / rad/s^2, as qacc"""
    qfrc_constraint: numpy.ndarray
    """qfrc_constraint: float64 array of shape (nv,); units: N for translational dofs, N m for rotational ones (generalized force)"""
    qfrc_inverse: numpy.ndarray
    """qfrc_inverse: float64 array of shape (nv,); units: N for translational dofs, N m for rotational ones (generalized force)"""
    cacc: numpy.ndarray
    """cacc: float64 array of shape (nbody, 6); units: rad/s^2 (rotation, 3) then m/s^2 (translation, 3)"""
    cfrc_int: numpy.ndarray
    """cfrc_int: float64 array of shape (nbody, 6); units: N m (torque, 3) then N (force, 3)"""
    cfrc_ext: numpy.ndarray
    """cfrc_ext: float64 array of shape (nbody, 6); units: N m (torque, 3) then N (force, 3)"""
    subtree_linvel: numpy.ndarray
    """subtree_linvel: float64 array of shape (nbody, 3); units: m/s"""
    subtree_angmom: numpy.ndarray
    """subtree_angmom: float64 array of shape (nbody, 3); units: kg m^2/s"""
    sensordata: numpy.ndarray
    """sensordata: float64 array of shape (nsensordata,); units: each sensor's own units (sensor_type, see the sensor's documentation)"""
    efc_type: numpy.ndarray
    """efc_type: int32 array of shape (nefc,); units: integer (an id, address, count, type, flag or mask): unitless (rows of the last step; taken anew on each read)"""
    efc_id: numpy.ndarray
    """efc_id: int32 array of shape (nefc,); units: integer (an id, address, count, type, flag or mask): unitless (rows of the last step; taken anew on each read)"""
    efc_J_rownnz: numpy.ndarray
    """efc_J_rownnz: int32 array of shape (nefc,); units: integer (an id, address, count, type, flag or mask): unitless (rows of the last step; taken anew on each read)"""
    efc_J_rowadr: numpy.ndarray
    """efc_J_rowadr: int32 array of shape (nefc,); units: integer (an id, address, count, type, flag or mask): unitless (rows of the last step; taken anew on each read)"""
    efc_pos: numpy.ndarray
    """efc_pos: float64 array of shape (nefc,); units: m (rows of the last step; taken anew on each read)"""
    efc_margin: numpy.ndarray
    """efc_margin: float64 array of shape (nefc,); units: m (rows of the last step; taken anew on each read)"""
    efc_frictionloss: numpy.ndarray
    """efc_frictionloss: float64 array of shape (nefc,); units: N or N m (rows of the last step; taken anew on each read)"""
    efc_diagApprox: numpy.ndarray
    """efc_diagApprox: float64 array of shape (nefc,); units: per row: the constraint's units (N or N m for forces, m or rad for positions) (rows of the last step; taken anew on each read)"""
    efc_R: numpy.ndarray
    """efc_R: float64 array of shape (nefc,); units: per row: the constraint's units (N or N m for forces, m or rad for positions) (rows of the last step; taken anew on each read)"""
    efc_D: numpy.ndarray
    """efc_D: float64 array of shape (nefc,); units: per row: the constraint's units (N or N m for forces, m or rad for positions) (rows of the last step; taken anew on each read)"""
    efc_KBIP: numpy.ndarray
    """efc_KBIP: float64 array of shape (nefc,); units: per row: the constraint's units (N or N m for forces, m or rad for positions) (rows of the last step; taken anew on each read)"""
    efc_vel: numpy.ndarray
    """efc_vel: float64 array of shape (nefc,); units: per row: the constraint's units (N or N m for forces, m or rad for positions) (rows of the last step; taken anew on each read)"""
    efc_aref: numpy.ndarray
    """efc_aref: float64 array of shape (nefc,); units: per row: the constraint's units (N or N m for forces, m or rad for positions) (rows of the last step; taken anew on each read)"""
    efc_force: numpy.ndarray
    """efc_force: float64 array of shape (nefc,); units: per row: the constraint's units (N or N m for forces, m or rad for positions) (rows of the last step; taken anew on each read)"""
    efc_state: numpy.ndarray
    """efc_state: int32 array of shape (nefc,); units: integer (an id, address, count, type, flag or mask): unitless (rows of the last step; taken anew on each read)"""
    efc_island: numpy.ndarray
    """efc_island: int32 array of shape (nefc,); units: integer (an id, address, count, type, flag or mask): unitless (rows of the last step; taken anew on each read)"""
    map_efc2iefc: numpy.ndarray
    """map_efc2iefc: int32 array of shape (nefc,); units: integer (an id, address, count, type, flag or mask): unitless (rows of the last step; taken anew on each read)"""
    map_iefc2efc: numpy.ndarray
    """map_iefc2efc: int32 array of shape (nefc,); units: integer (an id, address, count, type, flag or mask): unitless (rows of the last step; taken anew on each read)"""
    efc_J_colind: numpy.ndarray
    """efc_J_colind: int32 array of shape (nefc,); units: integer (an id, address, count, type, flag or mask): unitless (rows of the last step; taken anew on each read)"""
    efc_J_values: numpy.ndarray
    """efc_J_values: float64 array of shape (nefc,); units: per row: the constraint's units (N or N m for forces, m or rad for positions) (rows of the last step; taken anew on each read)"""
    dof_island: numpy.ndarray
    """dof_island: int32 array of shape (nisland,); units: integer (an id, address, count, type, flag or mask): unitless (rows of the last step; taken anew on each read)"""
    map_dof2idof: numpy.ndarray
    """map_dof2idof: int32 array of shape (nisland,); units: integer (an id, address, count, type, flag or mask): unitless (rows of the last step; taken anew on each read)"""
    map_idof2dof: numpy.ndarray
    """map_idof2dof: int32 array of shape (nisland,); units: integer (an id, address, count, type, flag or mask): unitless (rows of the last step; taken anew on each read)"""
    island_nv: numpy.ndarray
    """island_nv: int32 array of shape (nisland,); units: integer (an id, address, count, type, flag or mask): unitless (rows of the last step; taken anew on each read)"""
    island_idofadr: numpy.ndarray
    """island_idofadr: int32 array of shape (nisland,); units: integer (an id, address, count, type, flag or mask): unitless (rows of the last step; taken anew on each read)"""
    island_dofadr: numpy.ndarray
    """island_dofadr: int32 array of shape (nisland,); units: integer (an id, address, count, type, flag or mask): unitless (rows of the last step; taken anew on each read)"""
    island_ne: numpy.ndarray
    """island_ne: int32 array of shape (nisland,); units: integer (an id, address, count, type, flag or mask): unitless (rows of the last step; taken anew on each read)"""
    island_nf: numpy.ndarray
    """island_nf: int32 array of shape (nisland,); units: integer (an id, address, count, type, flag or mask): unitless (rows of the last step; taken anew on each read)"""
    island_nefc: numpy.ndarray
    """island_nefc: int32 array of shape (nisland,); units: integer (an id, address, count, type, flag or mask): unitless (rows of the last step; taken anew on each read)"""
    island_iefcadr: numpy.ndarray
    """island_iefcadr: int32 array of shape (nisland,); units: integer (an id, address, count, type, flag or mask): unitless (rows of the last step; taken anew on each read)"""
    def body(self, key: int | str) -> Any:
        """The body with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def joint(self, key: int | str) -> Any:
        """The joint with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def jnt(self, key: int | str) -> Any:
        """The joint with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def geom(self, key: int | str) -> Any:
        """The geom with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def site(self, key: int | str) -> Any:
        """The site with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def camera(self, key: int | str) -> Any:
        """The camera with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def cam(self, key: int | str) -> Any:
        """The camera with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def light(self, key: int | str) -> Any:
        """The light with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def mesh(self, key: int | str) -> Any:
        """The mesh with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def hfield(self, key: int | str) -> Any:
        """The hfield with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def texture(self, key: int | str) -> Any:
        """The texture with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def tex(self, key: int | str) -> Any:
        """The texture with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def material(self, key: int | str) -> Any:
        """The material with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def mat(self, key: int | str) -> Any:
        """The material with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def pair(self, key: int | str) -> Any:
        """The pair with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def exclude(self, key: int | str) -> Any:
        """The exclude with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def equality(self, key: int | str) -> Any:
        """The equality with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def eq(self, key: int | str) -> Any:
        """The equality with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def tendon(self, key: int | str) -> Any:
        """The tendon with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def ten(self, key: int | str) -> Any:
        """The tendon with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def actuator(self, key: int | str) -> Any:
        """The actuator with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def sensor(self, key: int | str) -> Any:
        """The sensor with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def numeric(self, key: int | str) -> Any:
        """The numeric with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def text(self, key: int | str) -> Any:
        """The text with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def tuple(self, key: int | str) -> Any:
        """The tuple with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def key(self, key: int | str) -> Any:
        """The key with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def keyframe(self, key: int | str) -> Any:
        """The key with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def __init__(self, model, _ptr=None):
        """Initialize self.  See help(type(self)) for accurate signature."""
    @property
    def contact(self) -> Any:
        """The contacts of the last collision stage: a numpy record array over the first `ncon`
        entries of the C array, with MuJoCo's field names (dist, pos, frame, includemargin,
        friction, solref, solreffriction, solimp, mu, dim, geom1, geom2, geom = (geom1, geom2),
        exclude, efc_address). It is a view: take it again after the next step."""
    def copy(self):
        """A new Data holding a copy of this one (copy_data)."""
    def efc_J_dense(self):
        """The constraint Jacobian as a dense (nefc, nv) array (a copy)."""
    def field_names(self):
        """The names of the arrays, in the library's order."""
    @property
    def maxuse(self) -> Any:
        """arena high-water mark in bytes"""
    @property
    def nJ(self) -> Any:
        """non-zeros of the constraint Jacobian"""
    @property
    def narena(self) -> Any:
        """arena size in bytes"""
    @property
    def ncon(self) -> Any:
        """Number of contacts of the last collision stage."""
    @property
    def nconmax(self) -> Any:
        """Room for contacts."""
    @property
    def ne(self) -> Any:
        """equality rows"""
    @property
    def nefc(self) -> Any:
        """constraint rows of the last step"""
    @property
    def nf(self) -> Any:
        """friction loss rows"""
    @property
    def nidof(self) -> Any:
        """dofs in all islands"""
    @property
    def nisland(self) -> Any:
        """constraint islands of the last step"""
    @property
    def nl(self) -> Any:
        """limit rows"""
    @property
    def pstack(self) -> Any:
        """arena bytes in use"""
    @property
    def solver(self) -> Any:
        """Statistics of the solver's iterations in the last step, GS_NSOLVER records per island
        for GS_NISLAND islands, as MuJoCo's (a record array, a view)."""
    @property
    def solver_fwdinv(self) -> Any:
        """fwdinv flag: norms of the differences of qfrc_constraint and of the applied force
        between the forward and the inverse of the last step (2 values, a view), as MuJoCo's."""
    @property
    def solver_niter(self) -> Any:
        """Solver iterations of the last step per island (GS_NISLAND values, a view; island 0
        holds the whole problem without islands and with PGS), as MuJoCo's array."""
    @property
    def solver_nnoslip(self) -> Any:
        """noslip iterations"""
    @property
    def time(self) -> Any:
        """Simulation time, s."""

ENABLE_NAMES: tuple
ENBL_ENERGY: int
ENBL_FWDINV: int
ENBL_INVDISCRETE: int
ENBL_MULTICCD: int
ENBL_OVERRIDE: int

class FreeCamera:
    """The free camera: looks at `lookat` from `distance`, azimuth and elevation in degrees
    (MuJoCo's MjvCamera fields of the same names; an MjvCamera is accepted as well)."""
    def __init__(self, lookat=Ellipsis, distance=2.0, azimuth=90.0, elevation=-45.0):
        """Initialize self.  See help(type(self)) for accurate signature."""

GEOM_BOX: int
GEOM_CAPSULE: int
GEOM_CYLINDER: int
GEOM_ELLIPSOID: int
GEOM_HFIELD: int
GEOM_MESH: int
GEOM_PLANE: int
GEOM_SPHERE: int

class GaussError(ValueError):
    """A model could not be loaded (the message names the file, line and element)."""
    ...

INT_EULER: int
INT_IMPLICIT: int
INT_IMPLICITFAST: int
INT_RK4: int

class InverseRigidResult:
    """What gauss.inverse_rigid returns.

    qfrc: (nv,) generalized forces, zero on the dofs no actuator drives (joint transmissions).
    contact_force: (ncon, 3) per contact of the data, normal first, then the two tangents of its
        frame; zero for contacts the constraint stage did not include.
    qacc: (nv,) the accelerations the forces produce (the desired ones on actuated dofs, the
        base's from the contact forces).
    status: 0 solved, 1 solved with regularisation, 2 solved for repaired accelerations
        (repair), -1 not solved, -2 arena full.
    ncon (contacts used), pivots, residual (LCP/KKT max |min(z, w)|), reg, fallback (no-slip:
    PPM handed over to Lemke), ntangent (no-slip: tangent rows kept by Algorithm 1), nnb (no-slip:
    contacts with force), penetration (most negative normal velocity after the step)."""
    contact_force: member_descriptor
    fallback: member_descriptor
    method: member_descriptor
    ncon: member_descriptor
    nnb: member_descriptor
    ntangent: member_descriptor
    penetration: member_descriptor
    pivots: member_descriptor
    qacc: member_descriptor
    qfrc: member_descriptor
    reg: member_descriptor
    residual: member_descriptor
    status: member_descriptor

JAC_AUTO: int
JAC_DENSE: int
JAC_SPARSE: int
JNT_BALL: int
JNT_FREE: int
JNT_HINGE: int
JNT_SLIDE: int

class Model:
    """A compiled model (gsModel). Load with Model.from_xml_path / from_xml_string /
    from_binary_path / from_binary. Sizes (m.nq, m.nbody, ...) are those the library lists."""
    nq: int
    nv: int
    nu: int
    na: int
    nbody: int
    njnt: int
    ngeom: int
    nsite: int
    nM: int
    nnames: int
    nconmax: int
    nefcmax: int
    nJmax: int
    narena: int
    ntendon: int
    nwrap: int
    nuser_tendon: int
    nuser_actuator: int
    nten_J: int
    nJmom: int
    nmocap: int
    neq: int
    nsensor: int
    nsensordata: int
    nkey: int
    nnumeric: int
    nnumericdata: int
    ntext: int
    ntextdata: int
    ntuple: int
    ntupledata: int
    nuserdata: int
    nuser_body: int
    nuser_jnt: int
    nuser_geom: int
    nuser_site: int
    nuser_sensor: int
    ncam: int
    nlight: int
    nmesh: int
    nmeshvert: int
    nmeshface: int
    nmeshgraph: int
    nmeshpoly: int
    nmeshpolyvert: int
    nmeshpolymap: int
    nmeshsrcvert: int
    nmeshtexcoord: int
    nmeshtree: int
    nhfield: int
    nhfielddata: int
    ntex: int
    nteximage: int
    nmat: int
    npair: int
    nexclude: int
    nuser_cam: int
    npaths: int
    nreadpaths: int
    nframe: int
    nframenames: int
    qpos0: numpy.ndarray
    """qpos0: float64 array of shape (nq,); units: m / rad / unitless quaternions, as qpos"""
    qpos_spring: numpy.ndarray
    """qpos_spring: float64 array of shape (nq,); units: m / rad / unitless quaternions, as qpos"""
    body_parentid: numpy.ndarray
    """body_parentid: int32 array of shape (nbody,); units: integer (an id, address, count, type, flag or mask): unitless"""
    body_rootid: numpy.ndarray
    """body_rootid: int32 array of shape (nbody,); units: integer (an id, address, count, type, flag or mask): unitless"""
    body_weldid: numpy.ndarray
    """body_weldid: int32 array of shape (nbody,); units: integer (an id, address, count, type, flag or mask): unitless"""
    body_jntnum: numpy.ndarray
    """body_jntnum: int32 array of shape (nbody,); units: integer (an id, address, count, type, flag or mask): unitless"""
    body_jntadr: numpy.ndarray
    """body_jntadr: int32 array of shape (nbody,); units: integer (an id, address, count, type, flag or mask): unitless"""
    body_dofnum: numpy.ndarray
    """body_dofnum: int32 array of shape (nbody,); units: integer (an id, address, count, type, flag or mask): unitless"""
    body_dofadr: numpy.ndarray
    """body_dofadr: int32 array of shape (nbody,); units: integer (an id, address, count, type, flag or mask): unitless"""
    body_geomnum: numpy.ndarray
    """body_geomnum: int32 array of shape (nbody,); units: integer (an id, address, count, type, flag or mask): unitless"""
    body_geomadr: numpy.ndarray
    """body_geomadr: int32 array of shape (nbody,); units: integer (an id, address, count, type, flag or mask): unitless"""
    body_pos: numpy.ndarray
    """body_pos: float64 array of shape (nbody, 3); units: m"""
    body_quat: numpy.ndarray
    """body_quat: float64 array of shape (nbody, 4); units: unit quaternion (w, x, y, z), unitless"""
    body_ipos: numpy.ndarray
    """body_ipos: float64 array of shape (nbody, 3); units: m"""
    body_iquat: numpy.ndarray
    """body_iquat: float64 array of shape (nbody, 4); units: unit quaternion (w, x, y, z), unitless"""
    body_mass: numpy.ndarray
    """body_mass: float64 array of shape (nbody,); units: kg"""
    body_gravcomp: numpy.ndarray
    """body_gravcomp: float64 array of shape (nbody,); units: unitless (fraction of gravity compensated)"""
    body_subtreemass: numpy.ndarray
    """body_subtreemass: float64 array of shape (nbody,); units: kg"""
    body_inertia: numpy.ndarray
    """body_inertia: float64 array of shape (nbody, 3); units: kg m^2"""
    body_invweight0: numpy.ndarray
    """body_invweight0: float64 array of shape (nbody, 2); units: 1/kg (translation) and 1/(kg m^2) (rotation)"""
    body_sameframe: numpy.ndarray
    """body_sameframe: int32 array of shape (nbody,); units: integer (an id, address, count, type, flag or mask): unitless"""
    body_slider: numpy.ndarray
    """body_slider: int32 array of shape (nbody,); units: integer (an id, address, count, type, flag or mask): unitless"""
    jnt_type: numpy.ndarray
    """jnt_type: int32 array of shape (njnt,); units: integer (an id, address, count, type, flag or mask): unitless"""
    jnt_qposadr: numpy.ndarray
    """jnt_qposadr: int32 array of shape (njnt,); units: integer (an id, address, count, type, flag or mask): unitless"""
    jnt_dofadr: numpy.ndarray
    """jnt_dofadr: int32 array of shape (njnt,); units: integer (an id, address, count, type, flag or mask): unitless"""
    jnt_bodyid: numpy.ndarray
    """jnt_bodyid: int32 array of shape (njnt,); units: integer (an id, address, count, type, flag or mask): unitless"""
    jnt_group: numpy.ndarray
    """jnt_group: int32 array of shape (njnt,); units: integer (an id, address, count, type, flag or mask): unitless"""
    jnt_limited: numpy.ndarray
    """jnt_limited: int32 array of shape (njnt,); units: integer (an id, address, count, type, flag or mask): unitless"""
    jnt_pos: numpy.ndarray
    """jnt_pos: float64 array of shape (njnt, 3); units: m"""
    jnt_axis: numpy.ndarray
    """jnt_axis: float64 array of shape (njnt, 3); units: unit vector, unitless"""
    jnt_stiffness: numpy.ndarray
    """jnt_stiffness: float64 array of shape (njnt,); units: N/m for translation, N m/rad for rotation"""
    jnt_range: numpy.ndarray
    """jnt_range: float64 array of shape (njnt, 2); units: m or rad"""
    jnt_margin: numpy.ndarray
    """jnt_margin: float64 array of shape (njnt,); units: m"""
    jnt_solref: numpy.ndarray
    """jnt_solref: float64 array of shape (njnt, 2); units: (time constant s, damping ratio) or (-stiffness, -damping) when negative"""
    jnt_solimp: numpy.ndarray
    """jnt_solimp: float64 array of shape (njnt, 5); units: unitless (dmin, dmax, width m, midpoint, power)"""
    jnt_actgravcomp: numpy.ndarray
    """jnt_actgravcomp: int32 array of shape (njnt,); units: integer (an id, address, count, type, flag or mask): unitless"""
    dof_bodyid: numpy.ndarray
    """dof_bodyid: int32 array of shape (nv,); units: integer (an id, address, count, type, flag or mask): unitless"""
    dof_jntid: numpy.ndarray
    """dof_jntid: int32 array of shape (nv,); units: integer (an id, address, count, type, flag or mask): unitless"""
    dof_parentid: numpy.ndarray
    """dof_parentid: int32 array of shape (nv,); units: integer (an id, address, count, type, flag or mask): unitless"""
    dof_Madr: numpy.ndarray
    """dof_Madr: int32 array of shape (nv,); units: integer (an id, address, count, type, flag or mask): unitless"""
    M_dofid: numpy.ndarray
    """M_dofid: int32 array of shape (nM,); units: integer (an id, address, count, type, flag or mask): unitless"""
    dof_freetail: numpy.ndarray
    """dof_freetail: int32 array of shape (nv,); units: integer (an id, address, count, type, flag or mask): unitless"""
    dof_diagonal: numpy.ndarray
    """dof_diagonal: int32 array of shape (nv,); units: integer (an id, address, count, type, flag or mask): unitless"""
    dof_armature: numpy.ndarray
    """dof_armature: float64 array of shape (nv,); units: kg for translation, kg m^2 for rotation"""
    dof_damping: numpy.ndarray
    """dof_damping: float64 array of shape (nv,); units: N s/m for translation, N m s/rad for rotation"""
    dof_frictionloss: numpy.ndarray
    """dof_frictionloss: float64 array of shape (nv,); units: N or N m"""
    dof_invweight0: numpy.ndarray
    """dof_invweight0: float64 array of shape (nv,); units: 1/kg or 1/(kg m^2)"""
    dof_solref: numpy.ndarray
    """dof_solref: float64 array of shape (nv, 2); units: (time constant s, damping ratio) or (-stiffness, -damping) when negative"""
    dof_solimp: numpy.ndarray
    """dof_solimp: float64 array of shape (nv, 5); units: unitless (dmin, dmax, width m, midpoint, power)"""
    geom_type: numpy.ndarray
    """geom_type: int32 array of shape (ngeom,); units: integer (an id, address, count, type, flag or mask): unitless"""
    geom_contype: numpy.ndarray
    """geom_contype: int32 array of shape (ngeom,); units: integer (an id, address, count, type, flag or mask): unitless"""
    geom_conaffinity: numpy.ndarray
    """geom_conaffinity: int32 array of shape (ngeom,); units: integer (an id, address, count, type, flag or mask): unitless"""
    geom_condim: numpy.ndarray
    """geom_condim: int32 array of shape (ngeom,); units: integer (an id, address, count, type, flag or mask): unitless"""
    geom_bodyid: numpy.ndarray
    """geom_bodyid: int32 array of shape (ngeom,); units: integer (an id, address, count, type, flag or mask): unitless"""
    geom_group: numpy.ndarray
    """geom_group: int32 array of shape (ngeom,); units: integer (an id, address, count, type, flag or mask): unitless"""
    geom_priority: numpy.ndarray
    """geom_priority: int32 array of shape (ngeom,); units: integer (an id, address, count, type, flag or mask): unitless"""
    geom_size: numpy.ndarray
    """geom_size: float64 array of shape (ngeom, 3); units: m (half-sizes / radius)"""
    geom_pos: numpy.ndarray
    """geom_pos: float64 array of shape (ngeom, 3); units: m"""
    geom_quat: numpy.ndarray
    """geom_quat: float64 array of shape (ngeom, 4); units: unit quaternion (w, x, y, z), unitless"""
    geom_friction: numpy.ndarray
    """geom_friction: float64 array of shape (ngeom, 3); units: unitless (sliding), m (torsional and rolling)"""
    geom_solmix: numpy.ndarray
    """geom_solmix: float64 array of shape (ngeom,); units: unitless (weight of the geom's solver parameters)"""
    geom_solref: numpy.ndarray
    """geom_solref: float64 array of shape (ngeom, 2); units: (time constant s, damping ratio) or (-stiffness, -damping) when negative"""
    geom_solimp: numpy.ndarray
    """geom_solimp: float64 array of shape (ngeom, 5); units: unitless (dmin, dmax, width m, midpoint, power)"""
    geom_margin: numpy.ndarray
    """geom_margin: float64 array of shape (ngeom,); units: m"""
    geom_gap: numpy.ndarray
    """geom_gap: float64 array of shape (ngeom,); units: m"""
    geom_rbound: numpy.ndarray
    """geom_rbound: float64 array of shape (ngeom,); units: m"""
    geom_rgba: numpy.ndarray
    """geom_rgba: float64 array of shape (ngeom, 4); units: unitless, 0..1"""
    geom_sameframe: numpy.ndarray
    """geom_sameframe: int32 array of shape (ngeom,); units: integer (an id, address, count, type, flag or mask): unitless"""
    geom_fluid: numpy.ndarray
    """geom_fluid: float64 array of shape (ngeom, 12); units: per coefficient of the ellipsoid fluid model (unitless coefficients, m)"""
    site_type: numpy.ndarray
    """site_type: int32 array of shape (nsite,); units: integer (an id, address, count, type, flag or mask): unitless"""
    site_bodyid: numpy.ndarray
    """site_bodyid: int32 array of shape (nsite,); units: integer (an id, address, count, type, flag or mask): unitless"""
    site_group: numpy.ndarray
    """site_group: int32 array of shape (nsite,); units: integer (an id, address, count, type, flag or mask): unitless"""
    site_size: numpy.ndarray
    """site_size: float64 array of shape (nsite, 3); units: m (half-sizes / radius)"""
    site_pos: numpy.ndarray
    """site_pos: float64 array of shape (nsite, 3); units: m"""
    site_quat: numpy.ndarray
    """site_quat: float64 array of shape (nsite, 4); units: unit quaternion (w, x, y, z), unitless"""
    site_rgba: numpy.ndarray
    """site_rgba: float64 array of shape (nsite, 4); units: unitless, 0..1"""
    site_sameframe: numpy.ndarray
    """site_sameframe: int32 array of shape (nsite,); units: integer (an id, address, count, type, flag or mask): unitless"""
    name_bodyadr: numpy.ndarray
    """name_bodyadr: int32 array of shape (nbody,); units: integer (an id, address, count, type, flag or mask): unitless"""
    name_jntadr: numpy.ndarray
    """name_jntadr: int32 array of shape (njnt,); units: integer (an id, address, count, type, flag or mask): unitless"""
    name_geomadr: numpy.ndarray
    """name_geomadr: int32 array of shape (ngeom,); units: integer (an id, address, count, type, flag or mask): unitless"""
    name_siteadr: numpy.ndarray
    """name_siteadr: int32 array of shape (nsite,); units: integer (an id, address, count, type, flag or mask): unitless"""
    names: numpy.ndarray
    """names: uint8 array of shape (nnames,); units: text bytes (NUL-separated strings)"""
    tendon_adr: numpy.ndarray
    """tendon_adr: int32 array of shape (ntendon,); units: integer (an id, address, count, type, flag or mask): unitless"""
    tendon_num: numpy.ndarray
    """tendon_num: int32 array of shape (ntendon,); units: integer (an id, address, count, type, flag or mask): unitless"""
    tendon_dofadr: numpy.ndarray
    """tendon_dofadr: int32 array of shape (ntendon,); units: integer (an id, address, count, type, flag or mask): unitless"""
    tendon_dofnum: numpy.ndarray
    """tendon_dofnum: int32 array of shape (ntendon,); units: integer (an id, address, count, type, flag or mask): unitless"""
    tendon_matid: numpy.ndarray
    """tendon_matid: int32 array of shape (ntendon,); units: integer (an id, address, count, type, flag or mask): unitless"""
    tendon_group: numpy.ndarray
    """tendon_group: int32 array of shape (ntendon,); units: integer (an id, address, count, type, flag or mask): unitless"""
    tendon_limited: numpy.ndarray
    """tendon_limited: int32 array of shape (ntendon,); units: integer (an id, address, count, type, flag or mask): unitless"""
    tendon_actfrclimited: numpy.ndarray
    """tendon_actfrclimited: int32 array of shape (ntendon,); units: integer (an id, address, count, type, flag or mask): unitless"""
    tendon_width: numpy.ndarray
    """tendon_width: float64 array of shape (ntendon,); units: m"""
    tendon_solref_lim: numpy.ndarray
    """tendon_solref_lim: float64 array of shape (ntendon, 2); units: as solref"""
    tendon_solimp_lim: numpy.ndarray
    """tendon_solimp_lim: float64 array of shape (ntendon, 5); units: as solimp"""
    tendon_solref_fri: numpy.ndarray
    """tendon_solref_fri: float64 array of shape (ntendon, 2); units: as solref"""
    tendon_solimp_fri: numpy.ndarray
    """tendon_solimp_fri: float64 array of shape (ntendon, 5); units: as solimp"""
    tendon_range: numpy.ndarray
    """tendon_range: float64 array of shape (ntendon, 2); units: m or rad"""
    tendon_actfrcrange: numpy.ndarray
    """tendon_actfrcrange: float64 array of shape (ntendon, 2); units: N or N m"""
    tendon_margin: numpy.ndarray
    """tendon_margin: float64 array of shape (ntendon,); units: m"""
    tendon_stiffness: numpy.ndarray
    """tendon_stiffness: float64 array of shape (ntendon,); units: N/m for translation, N m/rad for rotation"""
    tendon_damping: numpy.ndarray
    """tendon_damping: float64 array of shape (ntendon,); units: N s/m for translation, N m s/rad for rotation"""
    tendon_armature: numpy.ndarray
    """tendon_armature: float64 array of shape (ntendon,); units: kg for translation, kg m^2 for rotation"""
    tendon_frictionloss: numpy.ndarray
    """tendon_frictionloss: float64 array of shape (ntendon,); units: N or N m"""
    tendon_lengthspring: numpy.ndarray
    """tendon_lengthspring: float64 array of shape (ntendon, 2); units: m"""
    tendon_length0: numpy.ndarray
    """tendon_length0: float64 array of shape (ntendon,); units: m"""
    tendon_invweight0: numpy.ndarray
    """tendon_invweight0: float64 array of shape (ntendon,); units: 1/kg"""
    tendon_user: numpy.ndarray
    """tendon_user: float64 array of shape (ntendon, nuser_tendon); units: user-defined"""
    tendon_rgba: numpy.ndarray
    """tendon_rgba: float64 array of shape (ntendon, 4); units: unitless, 0..1"""
    wrap_type: numpy.ndarray
    """wrap_type: int32 array of shape (nwrap,); units: integer (an id, address, count, type, flag or mask): unitless"""
    wrap_objid: numpy.ndarray
    """wrap_objid: int32 array of shape (nwrap,); units: integer (an id, address, count, type, flag or mask): unitless"""
    wrap_prm: numpy.ndarray
    """wrap_prm: float64 array of shape (nwrap,); units: m"""
    actuator_trntype: numpy.ndarray
    """actuator_trntype: int32 array of shape (nu,); units: integer (an id, address, count, type, flag or mask): unitless"""
    actuator_dyntype: numpy.ndarray
    """actuator_dyntype: int32 array of shape (nu,); units: integer (an id, address, count, type, flag or mask): unitless"""
    actuator_gaintype: numpy.ndarray
    """actuator_gaintype: int32 array of shape (nu,); units: integer (an id, address, count, type, flag or mask): unitless"""
    actuator_biastype: numpy.ndarray
    """actuator_biastype: int32 array of shape (nu,); units: integer (an id, address, count, type, flag or mask): unitless"""
    actuator_trnid: numpy.ndarray
    """actuator_trnid: int32 array of shape (nu, 2); units: integer (an id, address, count, type, flag or mask): unitless"""
    actuator_actadr: numpy.ndarray
    """actuator_actadr: int32 array of shape (nu,); units: integer (an id, address, count, type, flag or mask): unitless"""
    actuator_actnum: numpy.ndarray
    """actuator_actnum: int32 array of shape (nu,); units: integer (an id, address, count, type, flag or mask): unitless"""
    actuator_group: numpy.ndarray
    """actuator_group: int32 array of shape (nu,); units: integer (an id, address, count, type, flag or mask): unitless"""
    actuator_ctrllimited: numpy.ndarray
    """actuator_ctrllimited: int32 array of shape (nu,); units: integer (an id, address, count, type, flag or mask): unitless"""
    actuator_forcelimited: numpy.ndarray
    """actuator_forcelimited: int32 array of shape (nu,); units: integer (an id, address, count, type, flag or mask): unitless"""
    actuator_actlimited: numpy.ndarray
    """actuator_actlimited: int32 array of shape (nu,); units: integer (an id, address, count, type, flag or mask): unitless"""
    actuator_dynprm: numpy.ndarray
    """actuator_dynprm: float64 array of shape (nu, 10); units: per actuator type (dynamics parameters; time constants in s)"""
    actuator_gainprm: numpy.ndarray
    """actuator_gainprm: float64 array of shape (nu, 10); units: per actuator type (gain parameters)"""
    actuator_biasprm: numpy.ndarray
    """actuator_biasprm: float64 array of shape (nu, 10); units: per actuator type (bias parameters)"""
    actuator_actearly: numpy.ndarray
    """actuator_actearly: int32 array of shape (nu,); units: integer (an id, address, count, type, flag or mask): unitless"""
    actuator_ctrlrange: numpy.ndarray
    """actuator_ctrlrange: float64 array of shape (nu, 2); units: control units"""
    actuator_forcerange: numpy.ndarray
    """actuator_forcerange: float64 array of shape (nu, 2); units: N or N m"""
    actuator_actrange: numpy.ndarray
    """actuator_actrange: float64 array of shape (nu, 2); units: activation units"""
    actuator_gear: numpy.ndarray
    """actuator_gear: float64 array of shape (nu, 6); units: m or unitless (transmission scale)"""
    actuator_cranklength: numpy.ndarray
    """actuator_cranklength: float64 array of shape (nu,); units: m"""
    actuator_acc0: numpy.ndarray
    """actuator_acc0: float64 array of shape (nu,); units: m/s^2 or rad/s^2 per unit force"""
    actuator_length0: numpy.ndarray
    """actuator_length0: float64 array of shape (nu,); units: m"""
    actuator_lengthrange: numpy.ndarray
    """actuator_lengthrange: float64 array of shape (nu, 2); units: m or rad"""
    actuator_plugin: numpy.ndarray
    """actuator_plugin: int32 array of shape (nu,); units: integer (an id, address, count, type, flag or mask): unitless"""
    actuator_user: numpy.ndarray
    """actuator_user: float64 array of shape (nu, nuser_actuator); units: user-defined"""
    jnt_actfrclimited: numpy.ndarray
    """jnt_actfrclimited: int32 array of shape (njnt,); units: integer (an id, address, count, type, flag or mask): unitless"""
    jnt_actfrcrange: numpy.ndarray
    """jnt_actfrcrange: float64 array of shape (njnt, 2); units: N or N m"""
    name_tendonadr: numpy.ndarray
    """name_tendonadr: int32 array of shape (ntendon,); units: integer (an id, address, count, type, flag or mask): unitless"""
    name_actuatoradr: numpy.ndarray
    """name_actuatoradr: int32 array of shape (nu,); units: integer (an id, address, count, type, flag or mask): unitless"""
    body_mocapid: numpy.ndarray
    """body_mocapid: int32 array of shape (nbody,); units: integer (an id, address, count, type, flag or mask): unitless"""
    body_user: numpy.ndarray
    """body_user: float64 array of shape (nbody, nuserdata); units: user-defined"""
    jnt_user: numpy.ndarray
    """jnt_user: float64 array of shape (njnt, nuser_jnt); units: user-defined"""
    geom_user: numpy.ndarray
    """geom_user: float64 array of shape (ngeom, nuser_geom); units: user-defined"""
    site_user: numpy.ndarray
    """site_user: float64 array of shape (nsite, nuser_site); units: user-defined"""
    eq_type: numpy.ndarray
    """eq_type: int32 array of shape (neq,); units: integer (an id, address, count, type, flag or mask): unitless"""
    eq_obj1id: numpy.ndarray
    """eq_obj1id: int32 array of shape (neq,); units: integer (an id, address, count, type, flag or mask): unitless"""
    eq_obj2id: numpy.ndarray
    """eq_obj2id: int32 array of shape (neq,); units: integer (an id, address, count, type, flag or mask): unitless"""
    eq_objtype: numpy.ndarray
    """eq_objtype: int32 array of shape (neq,); units: integer (an id, address, count, type, flag or mask): unitless"""
    eq_active0: numpy.ndarray
    """eq_active0: int32 array of shape (neq,); units: integer (an id, address, count, type, flag or mask): unitless"""
    eq_solref: numpy.ndarray
    """eq_solref: float64 array of shape (neq, 2); units: (time constant s, damping ratio) or (-stiffness, -damping) when negative"""
    eq_solimp: numpy.ndarray
    """eq_solimp: float64 array of shape (neq, 5); units: unitless (dmin, dmax, width m, midpoint, power)"""
    eq_data: numpy.ndarray
    """eq_data: float64 array of shape (neq, 11); units: per equality type (anchors m, torque coefficients, polynomial coefficients)"""
    sensor_type: numpy.ndarray
    """sensor_type: int32 array of shape (nsensor,); units: integer (an id, address, count, type, flag or mask): unitless"""
    sensor_datatype: numpy.ndarray
    """sensor_datatype: int32 array of shape (nsensor,); units: integer (an id, address, count, type, flag or mask): unitless"""
    sensor_needstage: numpy.ndarray
    """sensor_needstage: int32 array of shape (nsensor,); units: integer (an id, address, count, type, flag or mask): unitless"""
    sensor_objtype: numpy.ndarray
    """sensor_objtype: int32 array of shape (nsensor,); units: integer (an id, address, count, type, flag or mask): unitless"""
    sensor_objid: numpy.ndarray
    """sensor_objid: int32 array of shape (nsensor,); units: integer (an id, address, count, type, flag or mask): unitless"""
    sensor_reftype: numpy.ndarray
    """sensor_reftype: int32 array of shape (nsensor,); units: integer (an id, address, count, type, flag or mask): unitless"""
    sensor_refid: numpy.ndarray
    """sensor_refid: int32 array of shape (nsensor,); units: integer (an id, address, count, type, flag or mask): unitless"""
    sensor_intprm: numpy.ndarray
    """sensor_intprm: int32 array of shape (nsensor, 3); units: integer (an id, address, count, type, flag or mask): unitless"""
    sensor_dim: numpy.ndarray
    """sensor_dim: int32 array of shape (nsensor,); units: integer (an id, address, count, type, flag or mask): unitless"""
    sensor_adr: numpy.ndarray
    """sensor_adr: int32 array of shape (nsensor,); units: integer (an id, address, count, type, flag or mask): unitless"""
    sensor_cutoff: numpy.ndarray
    """sensor_cutoff: float64 array of shape (nsensor,); units: the sensor's units"""
    sensor_noise: numpy.ndarray
    """sensor_noise: float64 array of shape (nsensor,); units: the sensor's units"""
    sensor_user: numpy.ndarray
    """sensor_user: float64 array of shape (nsensor, nuser_sensor); units: user-defined"""
    sensor_plugin: numpy.ndarray
    """sensor_plugin: int32 array of shape (nsensor,); units: integer (an id, address, count, type, flag or mask): unitless"""
    key_time: numpy.ndarray
    """key_time: float64 array of shape (nkey,); units: as the matching data array"""
    key_qpos: numpy.ndarray
    """key_qpos: float64 array of shape (nkey, nq); units: m / rad / unitless quaternions, as qpos"""
    key_qvel: numpy.ndarray
    """key_qvel: float64 array of shape (nkey, nv); units: m/s / rad/s, as qvel"""
    key_act: numpy.ndarray
    """key_act: float64 array of shape (nkey, na); units: the actuator's activation units, as act"""
    key_ctrl: numpy.ndarray
    """key_ctrl: float64 array of shape (nkey, nu); units: the actuator's control units, as ctrl"""
    key_mpos: numpy.ndarray
    """key_mpos: float64 array of shape (nkey, 3*nmocap); units: m"""
    key_mquat: numpy.ndarray
    """key_mquat: float64 array of shape (nkey, 4*nmocap); units: unit quaternion (w, x, y, z), unitless"""
    numeric_adr: numpy.ndarray
    """numeric_adr: int32 array of shape (nnumeric,); units: integer (an id, address, count, type, flag or mask): unitless"""
    numeric_size: numpy.ndarray
    """numeric_size: int32 array of shape (nnumeric,); units: integer (an id, address, count, type, flag or mask): unitless"""
    numeric_data: numpy.ndarray
    """numeric_data: float64 array of shape (nnumericdata,); units: user-defined"""
    text_adr: numpy.ndarray
    """text_adr: int32 array of shape (ntext,); units: integer (an id, address, count, type, flag or mask): unitless"""
    text_size: numpy.ndarray
    """text_size: int32 array of shape (ntext,); units: integer (an id, address, count, type, flag or mask): unitless"""
    text_data: numpy.ndarray
    """text_data: uint8 array of shape (ntextdata,); units: text bytes (NUL-separated strings)"""
    tuple_adr: numpy.ndarray
    """tuple_adr: int32 array of shape (ntuple,); units: integer (an id, address, count, type, flag or mask): unitless"""
    tuple_size: numpy.ndarray
    """tuple_size: int32 array of shape (ntuple,); units: integer (an id, address, count, type, flag or mask): unitless"""
    tuple_objtype: numpy.ndarray
    """tuple_objtype: int32 array of shape (ntupledata,); units: integer (an id, address, count, type, flag or mask): unitless"""
    tuple_objid: numpy.ndarray
    """tuple_objid: int32 array of shape (ntupledata,); units: integer (an id, address, count, type, flag or mask): unitless"""
    tuple_objprm: numpy.ndarray
    """tuple_objprm: float64 array of shape (ntupledata,); units: user-defined"""
    name_eqadr: numpy.ndarray
    """name_eqadr: int32 array of shape (neq,); units: integer (an id, address, count, type, flag or mask): unitless"""
    name_sensoradr: numpy.ndarray
    """name_sensoradr: int32 array of shape (nsensor,); units: integer (an id, address, count, type, flag or mask): unitless"""
    name_keyadr: numpy.ndarray
    """name_keyadr: int32 array of shape (nkey,); units: integer (an id, address, count, type, flag or mask): unitless"""
    name_numericadr: numpy.ndarray
    """name_numericadr: int32 array of shape (nnumeric,); units: integer (an id, address, count, type, flag or mask): unitless"""
    name_textadr: numpy.ndarray
    """name_textadr: int32 array of shape (ntext,); units: integer (an id, address, count, type, flag or mask): unitless"""
    name_tupleadr: numpy.ndarray
    """name_tupleadr: int32 array of shape (ntuple,); units: integer (an id, address, count, type, flag or mask): unitless"""
    geom_dataid: numpy.ndarray
    """geom_dataid: int32 array of shape (ngeom,); units: integer (an id, address, count, type, flag or mask): unitless"""
    geom_matid: numpy.ndarray
    """geom_matid: int32 array of shape (ngeom,); units: integer (an id, address, count, type, flag or mask): unitless"""
    site_matid: numpy.ndarray
    """site_matid: int32 array of shape (nsite,); units: integer (an id, address, count, type, flag or mask): unitless"""
    cam_mode: numpy.ndarray
    """cam_mode: int32 array of shape (ncam,); units: integer (an id, address, count, type, flag or mask): unitless"""
    cam_bodyid: numpy.ndarray
    """cam_bodyid: int32 array of shape (ncam,); units: integer (an id, address, count, type, flag or mask): unitless"""
    cam_targetbodyid: numpy.ndarray
    """cam_targetbodyid: int32 array of shape (ncam,); units: integer (an id, address, count, type, flag or mask): unitless"""
    cam_pos: numpy.ndarray
    """cam_pos: float64 array of shape (ncam, 3); units: m"""
    cam_quat: numpy.ndarray
    """cam_quat: float64 array of shape (ncam, 4); units: unit quaternion (w, x, y, z), unitless"""
    cam_poscom0: numpy.ndarray
    """cam_poscom0: float64 array of shape (ncam, 3); units: m"""
    cam_pos0: numpy.ndarray
    """cam_pos0: float64 array of shape (ncam, 3); units: m"""
    cam_mat0: numpy.ndarray
    """cam_mat0: float64 array of shape (ncam, 9); units: unitless"""
    cam_orthographic: numpy.ndarray
    """cam_orthographic: int32 array of shape (ncam,); units: integer (an id, address, count, type, flag or mask): unitless"""
    cam_fovy: numpy.ndarray
    """cam_fovy: float64 array of shape (ncam,); units: degrees"""
    cam_ipd: numpy.ndarray
    """cam_ipd: float64 array of shape (ncam,); units: m"""
    cam_resolution: numpy.ndarray
    """cam_resolution: int32 array of shape (ncam, 2); units: integer (an id, address, count, type, flag or mask): unitless"""
    cam_sensorsize: numpy.ndarray
    """cam_sensorsize: float64 array of shape (ncam, 2); units: m"""
    cam_intrinsic: numpy.ndarray
    """cam_intrinsic: float64 array of shape (ncam, 4); units: m (focal lengths and principal point on the sensor)"""
    cam_user: numpy.ndarray
    """cam_user: float64 array of shape (ncam, nuser_cam); units: user-defined"""
    light_mode: numpy.ndarray
    """light_mode: int32 array of shape (nlight,); units: integer (an id, address, count, type, flag or mask): unitless"""
    light_bodyid: numpy.ndarray
    """light_bodyid: int32 array of shape (nlight,); units: integer (an id, address, count, type, flag or mask): unitless"""
    light_targetbodyid: numpy.ndarray
    """light_targetbodyid: int32 array of shape (nlight,); units: integer (an id, address, count, type, flag or mask): unitless"""
    light_type: numpy.ndarray
    """light_type: int32 array of shape (nlight,); units: integer (an id, address, count, type, flag or mask): unitless"""
    light_texid: numpy.ndarray
    """light_texid: int32 array of shape (nlight,); units: integer (an id, address, count, type, flag or mask): unitless"""
    light_castshadow: numpy.ndarray
    """light_castshadow: int32 array of shape (nlight,); units: integer (an id, address, count, type, flag or mask): unitless"""
    light_bulbradius: numpy.ndarray
    """light_bulbradius: float64 array of shape (nlight,); units: m"""
    light_intensity: numpy.ndarray
    """light_intensity: float64 array of shape (nlight,); units: candela"""
    light_range: numpy.ndarray
    """light_range: float64 array of shape (nlight,); units: m or rad"""
    light_active: numpy.ndarray
    """light_active: int32 array of shape (nlight,); units: integer (an id, address, count, type, flag or mask): unitless"""
    light_pos: numpy.ndarray
    """light_pos: float64 array of shape (nlight, 3); units: m"""
    light_dir: numpy.ndarray
    """light_dir: float64 array of shape (nlight, 3); units: unit vector, unitless"""
    light_poscom0: numpy.ndarray
    """light_poscom0: float64 array of shape (nlight, 3); units: m"""
    light_pos0: numpy.ndarray
    """light_pos0: float64 array of shape (nlight, 3); units: m"""
    light_dir0: numpy.ndarray
    """light_dir0: float64 array of shape (nlight, 3); units: unit vector, unitless"""
    light_attenuation: numpy.ndarray
    """light_attenuation: float64 array of shape (nlight, 3); units: unitless"""
    light_cutoff: numpy.ndarray
    """light_cutoff: float64 array of shape (nlight,); units: the sensor's units"""
    light_exponent: numpy.ndarray
    """light_exponent: float64 array of shape (nlight,); units: unitless"""
    light_ambient: numpy.ndarray
    """light_ambient: float64 array of shape (nlight, 3); units: unitless color, 0..1"""
    light_diffuse: numpy.ndarray
    """light_diffuse: float64 array of shape (nlight, 3); units: unitless color, 0..1"""
    light_specular: numpy.ndarray
    """light_specular: float64 array of shape (nlight, 3); units: unitless, 0..1"""
    mesh_scale: numpy.ndarray
    """mesh_scale: float64 array of shape (nmesh, 3); units: unitless"""
    mesh_pathadr: numpy.ndarray
    """mesh_pathadr: int32 array of shape (nmesh,); units: integer (an id, address, count, type, flag or mask): unitless"""
    mesh_refpos: numpy.ndarray
    """mesh_refpos: float64 array of shape (nmesh, 3); units: m"""
    mesh_refquat: numpy.ndarray
    """mesh_refquat: float64 array of shape (nmesh, 4); units: unit quaternion (w, x, y, z), unitless"""
    mesh_inertia: numpy.ndarray
    """mesh_inertia: int32 array of shape (nmesh,); units: integer (an id, address, count, type, flag or mask): unitless"""
    mesh_maxhullvert: numpy.ndarray
    """mesh_maxhullvert: int32 array of shape (nmesh,); units: integer (an id, address, count, type, flag or mask): unitless"""
    mesh_vertadr: numpy.ndarray
    """mesh_vertadr: int32 array of shape (nmesh,); units: integer (an id, address, count, type, flag or mask): unitless"""
    mesh_vertnum: numpy.ndarray
    """mesh_vertnum: int32 array of shape (nmesh,); units: integer (an id, address, count, type, flag or mask): unitless"""
    mesh_faceadr: numpy.ndarray
    """mesh_faceadr: int32 array of shape (nmesh,); units: integer (an id, address, count, type, flag or mask): unitless"""
    mesh_facenum: numpy.ndarray
    """mesh_facenum: int32 array of shape (nmesh,); units: integer (an id, address, count, type, flag or mask): unitless"""
    mesh_graphadr: numpy.ndarray
    """mesh_graphadr: int32 array of shape (nmesh,); units: integer (an id, address, count, type, flag or mask): unitless"""
    mesh_pos: numpy.ndarray
    """mesh_pos: float64 array of shape (nmesh, 3); units: m"""
    mesh_quat: numpy.ndarray
    """mesh_quat: float64 array of shape (nmesh, 4); units: unit quaternion (w, x, y, z), unitless"""
    mesh_volume: numpy.ndarray
    """mesh_volume: float64 array of shape (nmesh,); units: m^3"""
    mesh_unitinertia: numpy.ndarray
    """mesh_unitinertia: float64 array of shape (nmesh, 3); units: m^2"""
    mesh_vert: numpy.ndarray
    """mesh_vert: float64 array of shape (nmeshvert, 3); units: m"""
    mesh_face: numpy.ndarray
    """mesh_face: int32 array of shape (nmeshface, 3); units: integer (an id, address, count, type, flag or mask): unitless"""
    mesh_graph: numpy.ndarray
    """mesh_graph: int32 array of shape (nmeshgraph,); units: integer (an id, address, count, type, flag or mask): unitless"""
    mesh_polynum: numpy.ndarray
    """mesh_polynum: int32 array of shape (nmesh,); units: integer (an id, address, count, type, flag or mask): unitless"""
    mesh_polyadr: numpy.ndarray
    """mesh_polyadr: int32 array of shape (nmesh,); units: integer (an id, address, count, type, flag or mask): unitless"""
    mesh_polynormal: numpy.ndarray
    """mesh_polynormal: float64 array of shape (nmeshpoly, 3); units: unit vector, unitless"""
    mesh_polyvertadr: numpy.ndarray
    """mesh_polyvertadr: int32 array of shape (nmeshpoly,); units: integer (an id, address, count, type, flag or mask): unitless"""
    mesh_polyvertnum: numpy.ndarray
    """mesh_polyvertnum: int32 array of shape (nmeshpoly,); units: integer (an id, address, count, type, flag or mask): unitless"""
    mesh_polyvert: numpy.ndarray
    """mesh_polyvert: int32 array of shape (nmeshpolyvert,); units: integer (an id, address, count, type, flag or mask): unitless"""
    mesh_polymapadr: numpy.ndarray
    """mesh_polymapadr: int32 array of shape (nmeshvert,); units: integer (an id, address, count, type, flag or mask): unitless"""
    mesh_polymapnum: numpy.ndarray
    """mesh_polymapnum: int32 array of shape (nmeshvert,); units: integer (an id, address, count, type, flag or mask): unitless"""
    mesh_polymap: numpy.ndarray
    """mesh_polymap: int32 array of shape (nmeshpolymap,); units: integer (an id, address, count, type, flag or mask): unitless"""
    mesh_srcvertadr: numpy.ndarray
    """mesh_srcvertadr: int32 array of shape (nmesh,); units: integer (an id, address, count, type, flag or mask): unitless"""
    mesh_srcvertnum: numpy.ndarray
    """mesh_srcvertnum: int32 array of shape (nmesh,); units: integer (an id, address, count, type, flag or mask): unitless"""
    mesh_srcvert: numpy.ndarray
    """mesh_srcvert: float64 array of shape (nmeshsrcvert, 3); units: m"""
    mesh_texcoordadr: numpy.ndarray
    """mesh_texcoordadr: int32 array of shape (nmesh,); units: integer (an id, address, count, type, flag or mask): unitless"""
    mesh_texcoordnum: numpy.ndarray
    """mesh_texcoordnum: int32 array of shape (nmesh,); units: integer (an id, address, count, type, flag or mask): unitless"""
    mesh_texcoord: numpy.ndarray
    """mesh_texcoord: float64 array of shape (nmeshtexcoord, 2); units: unitless (texture coordinates, 0..1 per image)"""
    mesh_facetexcoord: numpy.ndarray
    """mesh_facetexcoord: int32 array of shape (nmeshface, 3); units: integer (an id, address, count, type, flag or mask): unitless"""
    mesh_treeadr: numpy.ndarray
    """mesh_treeadr: int32 array of shape (nmesh,); units: integer (an id, address, count, type, flag or mask): unitless"""
    mesh_treechild: numpy.ndarray
    """mesh_treechild: int32 array of shape (nmeshtree, 2); units: integer (an id, address, count, type, flag or mask): unitless"""
    mesh_treebox: numpy.ndarray
    """mesh_treebox: float64 array of shape (nmeshtree, 6); units: m (the box's corners, mesh frame)"""
    mesh_treeface: numpy.ndarray
    """mesh_treeface: int32 array of shape (nmeshface,); units: integer (an id, address, count, type, flag or mask): unitless"""
    mesh_hullcell: numpy.ndarray
    """mesh_hullcell: int32 array of shape (nmesh, 96); units: integer (an id, address, count, type, flag or mask): unitless"""
    hfield_size: numpy.ndarray
    """hfield_size: float64 array of shape (nhfield, 4); units: m (half-sizes / radius)"""
    hfield_nrow: numpy.ndarray
    """hfield_nrow: int32 array of shape (nhfield,); units: integer (an id, address, count, type, flag or mask): unitless"""
    hfield_ncol: numpy.ndarray
    """hfield_ncol: int32 array of shape (nhfield,); units: integer (an id, address, count, type, flag or mask): unitless"""
    hfield_adr: numpy.ndarray
    """hfield_adr: int32 array of shape (nhfield,); units: integer (an id, address, count, type, flag or mask): unitless"""
    hfield_data: numpy.ndarray
    """hfield_data: float64 array of shape (nhfielddata,); units: unitless (elevation scaled by hfield_size)"""
    hfield_pathadr: numpy.ndarray
    """hfield_pathadr: int32 array of shape (nhfield,); units: integer (an id, address, count, type, flag or mask): unitless"""
    tex_type: numpy.ndarray
    """tex_type: int32 array of shape (ntex,); units: integer (an id, address, count, type, flag or mask): unitless"""
    tex_colorspace: numpy.ndarray
    """tex_colorspace: int32 array of shape (ntex,); units: integer (an id, address, count, type, flag or mask): unitless"""
    tex_height: numpy.ndarray
    """tex_height: int32 array of shape (ntex,); units: integer (an id, address, count, type, flag or mask): unitless"""
    tex_width: numpy.ndarray
    """tex_width: int32 array of shape (ntex,); units: integer (an id, address, count, type, flag or mask): unitless"""
    tex_nchannel: numpy.ndarray
    """tex_nchannel: int32 array of shape (ntex,); units: integer (an id, address, count, type, flag or mask): unitless"""
    tex_adr: numpy.ndarray
    """tex_adr: int32 array of shape (ntex,); units: integer (an id, address, count, type, flag or mask): unitless"""
    tex_pathadr: numpy.ndarray
    """tex_pathadr: int32 array of shape (ntex,); units: integer (an id, address, count, type, flag or mask): unitless"""
    tex_imageadr: numpy.ndarray
    """tex_imageadr: int32 array of shape (ntex,); units: integer (an id, address, count, type, flag or mask): unitless"""
    tex_image: numpy.ndarray
    """tex_image: uint8 array of shape (nteximage,); units: text bytes (NUL-separated strings)"""
    tex_builtin: numpy.ndarray
    """tex_builtin: int32 array of shape (ntex,); units: integer (an id, address, count, type, flag or mask): unitless"""
    tex_mark: numpy.ndarray
    """tex_mark: int32 array of shape (ntex,); units: integer (an id, address, count, type, flag or mask): unitless"""
    tex_rgb1: numpy.ndarray
    """tex_rgb1: float64 array of shape (ntex, 3); units: unitless color, 0..1"""
    tex_rgb2: numpy.ndarray
    """tex_rgb2: float64 array of shape (ntex, 3); units: unitless color, 0..1"""
    tex_markrgb: numpy.ndarray
    """tex_markrgb: float64 array of shape (ntex, 3); units: unitless color, 0..1"""
    tex_random: numpy.ndarray
    """tex_random: float64 array of shape (ntex,); units: unitless (probability)"""
    mat_texid: numpy.ndarray
    """mat_texid: int32 array of shape (nmat, 10); units: integer (an id, address, count, type, flag or mask): unitless"""
    mat_texuniform: numpy.ndarray
    """mat_texuniform: int32 array of shape (nmat,); units: integer (an id, address, count, type, flag or mask): unitless"""
    mat_texrepeat: numpy.ndarray
    """mat_texrepeat: float64 array of shape (nmat, 2); units: unitless (repetitions)"""
    mat_emission: numpy.ndarray
    """mat_emission: float64 array of shape (nmat,); units: unitless, 0..1"""
    mat_specular: numpy.ndarray
    """mat_specular: float64 array of shape (nmat,); units: unitless, 0..1"""
    mat_shininess: numpy.ndarray
    """mat_shininess: float64 array of shape (nmat,); units: unitless, 0..1"""
    mat_reflectance: numpy.ndarray
    """mat_reflectance: float64 array of shape (nmat,); units: unitless, 0..1"""
    mat_metallic: numpy.ndarray
    """mat_metallic: float64 array of shape (nmat,); units: unitless, 0..1"""
    mat_roughness: numpy.ndarray
    """mat_roughness: float64 array of shape (nmat,); units: unitless, 0..1"""
    mat_rgba: numpy.ndarray
    """mat_rgba: float64 array of shape (nmat, 4); units: unitless, 0..1"""
    pair_dim: numpy.ndarray
    """pair_dim: int32 array of shape (npair,); units: integer (an id, address, count, type, flag or mask): unitless"""
    pair_geom1: numpy.ndarray
    """pair_geom1: int32 array of shape (npair,); units: integer (an id, address, count, type, flag or mask): unitless"""
    pair_geom2: numpy.ndarray
    """pair_geom2: int32 array of shape (npair,); units: integer (an id, address, count, type, flag or mask): unitless"""
    pair_signature: numpy.ndarray
    """pair_signature: int32 array of shape (npair,); units: integer (an id, address, count, type, flag or mask): unitless"""
    pair_solref: numpy.ndarray
    """pair_solref: float64 array of shape (npair, 2); units: (time constant s, damping ratio) or (-stiffness, -damping) when negative"""
    pair_solreffriction: numpy.ndarray
    """pair_solreffriction: float64 array of shape (npair, 2); units: as solref"""
    pair_solimp: numpy.ndarray
    """pair_solimp: float64 array of shape (npair, 5); units: unitless (dmin, dmax, width m, midpoint, power)"""
    pair_margin: numpy.ndarray
    """pair_margin: float64 array of shape (npair,); units: m"""
    pair_gap: numpy.ndarray
    """pair_gap: float64 array of shape (npair,); units: m"""
    pair_friction: numpy.ndarray
    """pair_friction: float64 array of shape (npair, 5); units: unitless (sliding), m (torsional and rolling)"""
    exclude_signature: numpy.ndarray
    """exclude_signature: int32 array of shape (nexclude,); units: integer (an id, address, count, type, flag or mask): unitless"""
    name_camadr: numpy.ndarray
    """name_camadr: int32 array of shape (ncam,); units: integer (an id, address, count, type, flag or mask): unitless"""
    name_lightadr: numpy.ndarray
    """name_lightadr: int32 array of shape (nlight,); units: integer (an id, address, count, type, flag or mask): unitless"""
    name_meshadr: numpy.ndarray
    """name_meshadr: int32 array of shape (nmesh,); units: integer (an id, address, count, type, flag or mask): unitless"""
    name_hfieldadr: numpy.ndarray
    """name_hfieldadr: int32 array of shape (nhfield,); units: integer (an id, address, count, type, flag or mask): unitless"""
    name_texadr: numpy.ndarray
    """name_texadr: int32 array of shape (ntex,); units: integer (an id, address, count, type, flag or mask): unitless"""
    name_matadr: numpy.ndarray
    """name_matadr: int32 array of shape (nmat,); units: integer (an id, address, count, type, flag or mask): unitless"""
    name_pairadr: numpy.ndarray
    """name_pairadr: int32 array of shape (npair,); units: integer (an id, address, count, type, flag or mask): unitless"""
    name_excludeadr: numpy.ndarray
    """name_excludeadr: int32 array of shape (nexclude,); units: integer (an id, address, count, type, flag or mask): unitless"""
    paths: numpy.ndarray
    """paths: uint8 array of shape (npaths,); units: text bytes (NUL-separated strings)"""
    mesh_readadr: numpy.ndarray
    """mesh_readadr: int32 array of shape (nmesh,); units: integer (an id, address, count, type, flag or mask): unitless"""
    hfield_readadr: numpy.ndarray
    """hfield_readadr: int32 array of shape (nhfield,); units: integer (an id, address, count, type, flag or mask): unitless"""
    tex_readadr: numpy.ndarray
    """tex_readadr: int32 array of shape (ntex,); units: integer (an id, address, count, type, flag or mask): unitless"""
    tex_cubereadadr: numpy.ndarray
    """tex_cubereadadr: int32 array of shape (ntex, 6); units: integer (an id, address, count, type, flag or mask): unitless"""
    readpaths: numpy.ndarray
    """readpaths: uint8 array of shape (nreadpaths,); units: text bytes (NUL-separated strings)"""
    frame_bodyid: numpy.ndarray
    """frame_bodyid: int32 array of shape (nframe,); units: integer (an id, address, count, type, flag or mask): unitless"""
    frame_frameid: numpy.ndarray
    """frame_frameid: int32 array of shape (nframe,); units: integer (an id, address, count, type, flag or mask): unitless"""
    frame_nameadr: numpy.ndarray
    """frame_nameadr: int32 array of shape (nframe,); units: integer (an id, address, count, type, flag or mask): unitless"""
    framenames: numpy.ndarray
    """framenames: uint8 array of shape (nframenames,); units: text bytes (NUL-separated strings)"""
    body_frameid: numpy.ndarray
    """body_frameid: int32 array of shape (nbody,); units: integer (an id, address, count, type, flag or mask): unitless"""
    jnt_frameid: numpy.ndarray
    """jnt_frameid: int32 array of shape (njnt,); units: integer (an id, address, count, type, flag or mask): unitless"""
    geom_frameid: numpy.ndarray
    """geom_frameid: int32 array of shape (ngeom,); units: integer (an id, address, count, type, flag or mask): unitless"""
    site_frameid: numpy.ndarray
    """site_frameid: int32 array of shape (nsite,); units: integer (an id, address, count, type, flag or mask): unitless"""
    cam_frameid: numpy.ndarray
    """cam_frameid: int32 array of shape (ncam,); units: integer (an id, address, count, type, flag or mask): unitless"""
    light_frameid: numpy.ndarray
    """light_frameid: int32 array of shape (nlight,); units: integer (an id, address, count, type, flag or mask): unitless"""
    def body(self, key: int | str) -> Any:
        """The body with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def joint(self, key: int | str) -> Any:
        """The joint with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def jnt(self, key: int | str) -> Any:
        """The joint with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def geom(self, key: int | str) -> Any:
        """The geom with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def site(self, key: int | str) -> Any:
        """The site with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def camera(self, key: int | str) -> Any:
        """The camera with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def cam(self, key: int | str) -> Any:
        """The camera with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def light(self, key: int | str) -> Any:
        """The light with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def mesh(self, key: int | str) -> Any:
        """The mesh with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def hfield(self, key: int | str) -> Any:
        """The hfield with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def texture(self, key: int | str) -> Any:
        """The texture with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def tex(self, key: int | str) -> Any:
        """The texture with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def material(self, key: int | str) -> Any:
        """The material with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def mat(self, key: int | str) -> Any:
        """The material with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def pair(self, key: int | str) -> Any:
        """The pair with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def exclude(self, key: int | str) -> Any:
        """The exclude with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def equality(self, key: int | str) -> Any:
        """The equality with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def eq(self, key: int | str) -> Any:
        """The equality with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def tendon(self, key: int | str) -> Any:
        """The tendon with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def ten(self, key: int | str) -> Any:
        """The tendon with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def actuator(self, key: int | str) -> Any:
        """The actuator with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def sensor(self, key: int | str) -> Any:
        """The sensor with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def numeric(self, key: int | str) -> Any:
        """The numeric with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def text(self, key: int | str) -> Any:
        """The text with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def tuple(self, key: int | str) -> Any:
        """The tuple with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def key(self, key: int | str) -> Any:
        """The key with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def keyframe(self, key: int | str) -> Any:
        """The key with this name or id: its id, name, and its rows of the arrays as attributes without their prefix (views). An unknown name raises UnknownNameError (a KeyError) listing the close names; an id out of range IndexError."""
    def __init__(self, ptr, load_warnings=Ellipsis):
        """Initialize self.  See help(type(self)) for accurate signature."""
    def copy(self):
        """A new Model holding a copy of this one (its own C memory)."""
    def field_names(self):
        """The names of the arrays, in the library's order."""
    @classmethod
    def from_binary(cls, data):
        """A model from the bytes of Model.to_binary."""
    @classmethod
    def from_binary_path(cls, path):
        """Load a binary model (Model.save_binary, `gauss compile`)."""
    @classmethod
    def from_urdf_path(cls, path):
        """Load a URDF file (root element <robot>) as MuJoCo's loader reads it: links are bodies,
        joints (revolute, continuous, prismatic, fixed, floating, planar, spherical) their joints,
        collision geometry kept, visual geometry discarded unless the file's
        <mujoco><compiler discardvisual="false"/></mujoco> says otherwise, bodies without joints fused
        into their parents (fusestatic), angles in radians. Errors name the file, line and element."""
    @classmethod
    def from_urdf_string(cls, urdf):
        """Load URDF text, as from_urdf_path (mesh files are found relative to the working directory)."""
    @classmethod
    def from_xml_path(cls, path, assets=None, confined=False):
        """Load an MJCF file. `assets` ({name: bytes}) holds files the model names (includes,
        meshes, textures): each is looked up there first, by the name the XML writes (or the
        trailing part of its path), then on the disk. `confined=True` (for models from untrusted
        sources) reads files only from the model's directory (after resolving "..", absolute
        paths and links) and from `assets`, and quotes nothing of other files in errors."""
    @classmethod
    def from_xml_string(cls, xml, assets=None, confined=False):
        """Load MJCF text; `assets` as for from_xml_path. `confined=True`: files only from
        `assets`, never from the disk."""
    def save_binary(self, path):
        """Write the model in the binary format to `path`."""
    def save_xml(self, path):
        """Write the model as MJCF to `path`."""
    def size_names(self):
        """The names of the sizes, in the library's order."""
    def to_binary(self):
        """The model in the binary format, as bytes."""
    def to_xml(self):
        """An MJCF document equivalent to the model: loading it compiles to the same arrays."""
    def validate(self):
        """Check the model as the binary loader does (tree, ids, addresses, counts, and every
        value: finite reals, the signs the compiler keeps); raises GaussError naming the first
        field and index at fault. The Python views cannot write the structural fields, but a
        parameter written from Python (a NaN mass) or C code can make a model invalid."""

NDISABLE: int
NENABLE: int
NGEOMTYPE: int
NSTATE: int
NTIMER: int
NWARNING: int
OBJECT_KINDS: dict
OBJ_ACTUATOR: int
OBJ_BODY: int
OBJ_CAMERA: int
OBJ_DOF: int
OBJ_EQUALITY: int
OBJ_EXCLUDE: int
OBJ_FLEX: int
OBJ_GEOM: int
OBJ_HFIELD: int
OBJ_JOINT: int
OBJ_KEY: int
OBJ_LIGHT: int
OBJ_MATERIAL: int
OBJ_MESH: int
OBJ_NUMERIC: int
OBJ_PAIR: int
OBJ_PLUGIN: int
OBJ_SENSOR: int
OBJ_SITE: int
OBJ_SKIN: int
OBJ_TENDON: int
OBJ_TEXT: int
OBJ_TEXTURE: int
OBJ_TUPLE: int
OBJ_UNKNOWN: int
OBJ_XBODY: int
OPTION_CCD_ITERATIONS: int
OPTION_CONE: int
OPTION_INTEGRATOR: int
OPTION_ITERATIONS: int
OPTION_JACOBIAN: int
OPTION_LS_ITERATIONS: int
OPTION_NOSLIP_ITERATIONS: int
OPTION_SOLVER: int

class Option:
    """gsOption of a model: reads and writes go straight to the C struct."""
    def __init__(self, cstruct, owner):
        """Initialize self.  See help(type(self)) for accurate signature."""


class RenderOption(Structure):
    """What is drawn (gsRenderOption): geom and site groups 0..5 (0, 1, 2 shown by default), the
    headlight, the grid lines of textured planes, transparency of every geom, and the overlays
    (contactpoint, contactforce, frame, com, joint: 0 or 1), fog, multisample, shadow,
    rangefinder (rays) and reflection (the last four on by default)."""
    com: CField
    contactforce: CField
    contactpoint: CField
    fog: CField
    frame: CField
    geomgroup: CField
    headlight: CField
    joint: CField
    multisample: CField
    planegrid: CField
    rangefinder: CField
    reflection: CField
    shadow: CField
    sitegroup: CField
    tendongroup: CField
    transparent: CField


class Renderer:
    """Renders a model's state offscreen (MuJoCo's mujoco.Renderer):

        r = gauss.Renderer(m, height=240, width=320)
        r.update_scene(d, camera="track")
        rgb = r.render()                    # (height, width, 3) uint8
        r.enable_depth_rendering()          # then render() gives (height, width) float32 metres
        r.enable_segmentation_rendering()   # (height, width, 2) int32: object id, object type

    Segmentation types are MuJoCo's mjtObj numbers (5 geom, 6 site); -1 -1 is the background."""
    def __init__(self, model, height=240, width=320, max_geom=10000):
        """Initialize self.  See help(type(self)) for accurate signature."""
    @property
    def backend(self) -> Any:
        """The GL back end in use: 'egl' or 'osmesa'."""
    def close(self):
        """Free the GL context and the scene; the renderer cannot be used afterwards."""
    def disable_depth_rendering(self):
        """Back to colour images (when depth was on)."""
    def disable_segmentation_rendering(self):
        """Back to colour images (when segmentation was on)."""
    def enable_depth_rendering(self):
        """render() gives depth: (height, width) float32, metres along the view axis."""
    def enable_segmentation_rendering(self):
        """render() gives (height, width, 2) int32: object id and mjtObj type, -1 -1 background."""
    @property
    def height(self) -> Any:
        """Image height in pixels."""
    @property
    def option(self) -> Any:
        """The RenderOption of this renderer (changes apply from the next update_scene)."""
    def render(self, out=None):
        """The image of the last update_scene in the current mode (see the class)."""
    def update_scene(self, data, camera=-1, scene_option=None):
        """Take the state of `data` (its last forward pass), seen from `camera`: an id, a name,
        -1 for the default free camera, or a free camera (FreeCamera, MuJoCo's MjvCamera).
        `scene_option` may give geomgroup, sitegroup and tendongroup (a RenderOption, MuJoCo's
        MjvOption)."""
    @property
    def width(self) -> Any:
        """Image width in pixels."""


class RigidWarm:
    """What one call leaves for the next, kept by passing the same object as `warm`: the
    no-slip method's warm start (seed 004, Algorithm 2: the contacts that carried force) and the
    forces of every contact (the Coulomb method's minimum-change selection, Algorithm 3)."""
    def __init__(self):
        """an empty set: the first call starts cold"""
    def clear(self):
        """forget the set: the next call starts cold"""
    @property
    def contacts(self) -> Any:
        """contact ids (into d.contact of that call) with a positive normal force"""

SOL_CG: int
SOL_NEWTON: int
SOL_PGS: int
STAGE_ACC: int
STAGE_NONE: int
STAGE_POS: int
STAGE_VEL: int
STATE_ACT: int
STATE_CTRL: int
STATE_EQ_ACTIVE: int
STATE_FULLPHYSICS: int
STATE_INTEGRATION: int
STATE_MOCAP_POS: int
STATE_MOCAP_QUAT: int
STATE_NAMES: tuple
STATE_PHYSICS: int
STATE_PLUGIN: int
STATE_QFRC_APPLIED: int
STATE_QPOS: int
STATE_QVEL: int
STATE_TIME: int
STATE_USER: int
STATE_USERDATA: int
STATE_WARMSTART: int
STATE_XFRC_APPLIED: int

class Spec:
    """An editable model (MuJoCo's MjSpec): read from MJCF or built from nothing, edited, and
    compiled into a Model. See the module's documentation."""
    def __init__(self, _ptr=None, _warnings=Ellipsis):
        """Initialize self.  See help(type(self)) for accurate signature."""
    def actuator(self, name):
        """The actuator with this name, None when there is none."""
    @property
    def actuators(self) -> Any:
        """The spec's actuators, in order."""
    def add_actuator(self, **kwargs):
        """Add a actuator with MJCF's defaults and the attributes given."""
    def add_equality(self, **kwargs):
        """Add a equality with MJCF's defaults and the attributes given."""
    def add_exclude(self, **kwargs):
        """Add a exclude with MJCF's defaults and the attributes given."""
    def add_hfield(self, **kwargs):
        """Add a hfield with MJCF's defaults and the attributes given."""
    def add_key(self, **kwargs):
        """Add a key with MJCF's defaults and the attributes given."""
    def add_material(self, **kwargs):
        """Add a material with MJCF's defaults and the attributes given."""
    def add_mesh(self, **kwargs):
        """Add a mesh with MJCF's defaults and the attributes given."""
    def add_numeric(self, **kwargs):
        """Add a numeric with MJCF's defaults and the attributes given."""
    def add_pair(self, **kwargs):
        """Add a pair with MJCF's defaults and the attributes given."""
    def add_sensor(self, **kwargs):
        """Add a sensor with MJCF's defaults and the attributes given."""
    def add_tendon(self, **kwargs):
        """Add a tendon with MJCF's defaults and the attributes given."""
    def add_text(self, **kwargs):
        """Add a text with MJCF's defaults and the attributes given."""
    def add_texture(self, **kwargs):
        """Add a texture with MJCF's defaults and the attributes given."""
    def add_tuple(self, **kwargs):
        """Add a tuple with MJCF's defaults and the attributes given."""
    def attach(self, child, prefix=None, suffix=None, site=None, frame=None):
        """Copy the contents of child's world body into a new frame, made in `frame` (a frame of this
        spec, or its name) or at `site` (a site, or its name), as MuJoCo's spec.attach(child, prefix=,
        suffix=, site=, frame=); returns that new frame (MuJoCo's returns the frame it makes)."""
    @property
    def bodies(self) -> Any:
        """Every body, the world first, in the compiled model's order."""
    def body(self, name):
        """The body with this name, None when there is none."""
    def camera(self, name):
        """The camera with this name, None when there is none."""
    @property
    def cameras(self) -> Any:
        """Every camera, in the compiled model's order."""
    def compile(self):
        """Compile into a new Model; raises SpecError naming the element at fault."""
    def copy(self):
        """A deep copy of the spec (MuJoCo's spec.copy()): editing one leaves the other as it was."""
    def delete(self, element):
        """Remove an element (a body with its subtree) from the spec."""
    @property
    def equalities(self) -> Any:
        """The spec's equalities, in order."""
    def equality(self, name):
        """The equality with this name, None when there is none."""
    def exclude(self, name):
        """The exclude with this name, None when there is none."""
    @property
    def excludes(self) -> Any:
        """The spec's excludes, in order."""
    def frame(self, name):
        """The frame with this name, None when there is none."""
    @property
    def frames(self) -> Any:
        """Every frame, body by body in the compiled model's order."""
    @classmethod
    def from_file(cls, path, assets=None, confined=False):
        """Read an MJCF file into a spec (without compiling); arguments as Model.from_xml_path."""
    @classmethod
    def from_string(cls, xml, assets=None, confined=False):
        """Read MJCF text into a spec; arguments as Model.from_xml_string."""
    def geom(self, name):
        """The geom with this name, None when there is none."""
    @property
    def geoms(self) -> Any:
        """Every geom, in the compiled model's order."""
    def hfield(self, name):
        """The hfield with this name, None when there is none."""
    @property
    def hfields(self) -> Any:
        """The spec's hfields, in order."""
    def joint(self, name):
        """The joint with this name, None when there is none."""
    @property
    def joints(self) -> Any:
        """Every joint, in the compiled model's order."""
    def key(self, name):
        """The key with this name, None when there is none."""
    @property
    def keys(self) -> Any:
        """The spec's keys, in order."""
    def light(self, name):
        """The light with this name, None when there is none."""
    @property
    def lights(self) -> Any:
        """Every light, in the compiled model's order."""
    def material(self, name):
        """The material with this name, None when there is none."""
    @property
    def materials(self) -> Any:
        """The spec's materials, in order."""
    def mesh(self, name):
        """The mesh with this name, None when there is none."""
    @property
    def meshes(self) -> Any:
        """The spec's meshes, in order."""
    def numeric(self, name):
        """The numeric with this name, None when there is none."""
    @property
    def numerics(self) -> Any:
        """The spec's numerics, in order."""
    def pair(self, name):
        """The pair with this name, None when there is none."""
    @property
    def pairs(self) -> Any:
        """The spec's pairs, in order."""
    def recompile(self, model, data):
        """Compile again after edits and return (model, data): a new model and a data holding the
        state of `data` for what persists (MuJoCo's recompile): time, each remaining joint's qpos,
        qvel, warm start and applied forces, each remaining actuator's ctrl and act, each
        remaining body's applied force and mocap pose, and user data when its size is unchanged.
        Joints and actuators added since `model` was compiled start at their defaults."""
    def sensor(self, name):
        """The sensor with this name, None when there is none."""
    @property
    def sensors(self) -> Any:
        """The spec's sensors, in order."""
    def site(self, name):
        """The site with this name, None when there is none."""
    @property
    def sites(self) -> Any:
        """Every site, in the compiled model's order."""
    def tendon(self, name):
        """The tendon with this name, None when there is none."""
    @property
    def tendons(self) -> Any:
        """The spec's tendons, in order."""
    def text(self, name):
        """The text with this name, None when there is none."""
    @property
    def texts(self) -> Any:
        """The spec's texts, in order."""
    def texture(self, name):
        """The texture with this name, None when there is none."""
    @property
    def textures(self) -> Any:
        """The spec's textures, in order."""
    def to_xml(self):
        """An MJCF document of the compiled spec (defaults resolved, as Model.to_xml)."""
    def tuple(self, name):
        """The tuple with this name, None when there is none."""
    @property
    def tuples(self) -> Any:
        """The spec's tuples, in order."""
    @property
    def worldbody(self) -> Any:
        """The world body: add bodies, geoms, sites, cameras and lights to it."""


class SpecError(ValueError):
    """A spec could not be read, edited or compiled (the message says which element and why)."""
    ...


class StructuralArray(numpy.ndarray):
    """A read-only view of a structural model field: writing into it raises
    StructuralFieldError, naming the field. Copies (a.copy(), _np.array(a)) are ordinary arrays."""
    def copy(self, order='C'):
        """An ordinary (writable) numpy copy."""


class StructuralFieldError(GaussError):
    """A write into a structural field of a compiled model (a type, id, address, count, tree link
    or name): the engine indexes memory with these, so they are read-only views."""
    ...

TIMER_ACTUATION: int
TIMER_CONSTRAINT: int
TIMER_FORWARD: int
TIMER_PASSIVE: int
TIMER_POS_COLLISION: int
TIMER_POS_INERTIA: int
TIMER_POS_KINEMATICS: int
TIMER_POS_MAKE: int
TIMER_SENSOR: int
TIMER_STEP: int
TIMER_VEL_REFERENCE: int
TYPE_CHAR: int
TYPE_INT: int
TYPE_REAL: int

class UnknownNameError(KeyError):
    """No object of this type has this name; the message lists the close valid names.
    Attributes: objtype (the type's name), name, and close (the close names, best first)."""
    def __init__(self, objtype, name, valid):
        """Initialize self.  See help(type(self)) for accurate signature."""

WARN_ARENAFULL: int
WARN_BADCONTACT: int
WARN_BADCTRL: int
WARN_BADOPTION: int
WARN_BADQACC: int
WARN_BADQPOS: int
WARN_BADQVEL: int
WARN_BADSOLREF: int
WARN_CNSTRFULL: int
WARN_CONTACTFULL: int
WARN_INERTIA: int
WARN_STIFFINVERSE: int

def clear_mesh_cache():
    """Empty the mesh cache (the next load builds every mesh file again)."""


def com_pos(m, d):
    """Subtree centres of mass (m), cinert and cdof, after kinematics."""


def com_vel(m, d):
    """Body velocities cvel (rad/s, m/s) and cdof_dot from qvel."""


def contact_force(m, d, i):
    """Force and torque of contact i in its frame (normal, two tangents, three torques: N and
    N m), shape (6,); IndexError for i outside 0..ncon-1."""


def copy_data(m, d):
    """A new Data holding a copy of `d`."""


def crb(m, d):
    """Composite rigid-body inertias (crb) and the joint-space inertia qM (kg, kg m^2)."""


def differentiate_pos(m, qvel, dt, qpos1, qpos2):
    """Write into qvel the velocity that moves qpos1 to qpos2 in time dt (MuJoCo's
    mj_differentiatePos, same argument order): integrate_pos(m, qpos1, qvel, dt) gives qpos2.
    Quaternions by the shorter arc (rotations up to pi)."""


def energy_pos(m, d):
    """Potential energy, also written to d.energy[0]."""


def energy_vel(m, d):
    """Kinetic energy, also written to d.energy[1]."""


def factor_M(m, d):
    """Sparse L^T D L factorization of qM into qLD and qLDiagInv."""


def field_doc(name):
    """The docstring of an array field: field_doc("qpos") or field_doc("data.qpos"),
    field_doc("model.body_mass"): its dtype, shape (the rows' size name, the columns) and units."""


def forward(m, d):
    """Everything up to qacc, no integration."""


def forward_skip(m, d, skipstage, skipsensor=0):
    """forward with the stages before `skipstage` (STAGE_POS: position; STAGE_VEL: position and
    velocity) left as computed, for callers that changed only later inputs; `skipsensor` leaves
    sensordata as it is."""


def full_M(m, d):
    """The dense (nv, nv) mass matrix from d.qM."""


def fwd_acceleration(m, d):
    """The acceleration stage of forward: qacc_smooth, the constraint solver, qacc."""


def fwd_actuation(m, d):
    """The force stage's actuators: act_dot, actuator_force, qfrc_actuator."""


def fwd_position(m, d):
    """The position stage of forward: kinematics, inertia, collision, constraints."""


def fwd_velocity(m, d):
    """The velocity stage of forward: velocities, qfrc_bias, passive forces."""


def geom_distance(m, d, g1, g2, distmax):
    """Signed distance between the surfaces of geoms g1 and g2, capped at distmax (MuJoCo's
    mj_geomDistance): returns (dist, fromto), fromto = closest point on g1, then on g2 (zeros when
    dist >= distmax)."""


def get_callbacks(d):
    """The Python callables installed on `d`, by name (None where none is)."""


def get_state(m, d, spec=4111, out=None):
    """The components `spec` of d as one 1-D float64 array of state_size(m, spec) reals, in the
    order of their bits (MuJoCo's mj_getState); written into `out` when given."""


def id2name(m, objtype, id):
    """The name of object `id` of type `objtype`, or None when it has none (MuJoCo's
    mj_id2name); IndexError for an id outside 0..n-1."""


def integrate_pos(m, qpos, qvel, dt):
    """qpos moved by qvel over time dt, in place (MuJoCo's mj_integratePos): ball and free
    quaternions turn by the body-frame angular velocity and are normalised."""


def inverse(m, d):
    """Inverse dynamics: from qpos, qvel and qacc, efc_force (analytically, no solver) and
    qfrc_inverse, the applied generalized force that produces qacc (with the invdiscrete flag,
    qacc read as the integrator's discrete step)."""


def inverse_rigid(m, d, method='noslip', friction=True, warm=None, stage2=True, reg=0.0, dt=0.0, skipstage=0, kkt=False, mindiff=False, objective='energy', smooth=False, repair=False, weight=None):
    """Actuator forces and contact forces under rigid contact for the desired acceleration d.qacc.

    method: "noslip" (seed 004 section 3: contacts do not slide; Algorithm 1 and the warm-started
    principal pivoting method), "coulomb" (section 4: friction pyramid, Lemke), "qp" (section 5:
    Stage I, then Stage II's least-norm torques when `stage2`). friction: for "qp", False drops
    the friction bound (the seed's QP with infinite friction). warm: a RigidWarm kept between
    calls (no-slip; None: cold start). reg: Lemke's first regularisation (0: automatic). dt: the
    step of the velocity-level discretization (0: the model's timestep). skipstage: as
    gauss.forward's (0 runs the position and velocity stages first, with collision). kkt: for
    "qp", solve both stages through their KKT systems, without the fast paths (comparisons).
    mindiff: for "coulomb" with `warm`, the solution nearest the last call's forces among all the
    LCP's solutions (seed 004 Algorithm 3, by enumeration; at most 2 contacts). objective: for
    "qp", Stage I's objective: "energy" (the seed's eq. 63, the kinetic energy after the step with
    the actuated velocities prescribed) or "contact" (1/2 |G^T f|^2 + b^T f: its optimality
    conditions are the complementarity of each pyramid edge's force with that edge's velocity
    after the step, so that it inverts the complementarity-free forward step, MuJoCo's pyramidal
    cone with a velocity-level reference). smooth: for "qp" with `warm`, Stage II takes the
    actuated forces nearest the last call's instead of the least ones. repair: for "noslip", when the contacts cannot give
    the desired motion (the normal LCP has no solution), the forces of the regularised LCP and
    the actuated accelerations nearest the desired ones that they allow (seed 004 section 3.5);
    status 2, and qacc holds the repaired accelerations. weight: for "qp", None or one
    non-negative weight per contact of d.contact (as the collision stage finds them for this
    state): Stage II adds weight[c] times the squared forces along the contact's pyramid edges
    (in units of the mean squared torque a unit edge force gives) to its objective, so that
    among Stage I's optima a weighted contact carries less."""


def inverse_skip(m, d, skipstage, skipsensor=0):
    """inverse with the stages before `skipstage` left as computed (forward_skip's rule)."""


def is_structural(name, ftype):
    """Whether the model array `name` of type `ftype` (TYPE_*) is structural (read-only)."""


def jac(m, d, point, body):
    """Jacobians (jacp, jacr), each 3 x nv, of a world-frame point attached to `body` (name or
    id; MuJoCo's mj_jac): jacp @ qvel is the point's velocity, jacr @ qvel the body's angular
    velocity. After the position stage."""


def jac_body(m, d, body):
    """(jacp, jacr) of the body's frame origin, d.xpos[body] (MuJoCo's mj_jacBody)."""


def jac_body_com(m, d, body):
    """(jacp, jacr) of the body's centre of mass, d.xipos[body] (MuJoCo's mj_jacBodyCom)."""


def jac_dot(m, d, point, body):
    """(jacp_dot, jacr_dot): d/dt of jac(m, d, point, body) along d.qvel, for a point moving with
    the body (MuJoCo's mj_jacDot). Needs the velocity stage (cvel, cdof_dot: fwd_velocity or
    forward)."""


def jac_geom(m, d, geom):
    """(jacp, jacr) of a geom's centre, d.geom_xpos[geom] (MuJoCo's mj_jacGeom)."""


def jac_point_axis(m, d, point, axis, body):
    """(jac_point, jac_axis), each 3 x nv (MuJoCo's mj_jacPointAxis): jac_point is jac's jacp of
    the point; jac_axis @ qvel the rate of change of a world-frame axis turning with the body."""


def jac_site(m, d, site):
    """(jacp, jacr) of a site, d.site_xpos[site] (MuJoCo's mj_jacSite)."""


def jac_subtree_com(m, d, body):
    """jacp (3 x nv) of the centre of mass of the subtree rooted at `body`, d.subtree_com[body]
    (MuJoCo's mj_jacSubtreeCom, linear only: a subtree has no single angular velocity); zeros
    for a massless subtree."""


def kinematics(m, d):
    """Forward kinematics: body, joint, geom and site poses (xpos m, xquat, xmat, ...) from qpos."""


def mesh_cache_capacity():
    """The mesh cache's capacity in bytes (500 MB at start)."""


def mesh_cache_size():
    """Bytes the mesh cache holds now."""


def mul_M(m, d, vec):
    """M @ vec (MuJoCo's mj_mulM), from d.qM."""


def mul_M2(m, d, vec):
    """D^1/2 L vec for M = L^T D L (MuJoCo's mj_mulM2): its squared norm is vec^T M vec."""


def name2id(m, objtype, name):
    """The id of the object of type `objtype` (OBJ_BODY, ... or "body") named `name`, or -1 when
    none is (MuJoCo's mj_name2id)."""


def passive(m, d):
    """Passive forces (N, N m): springs, dampers, gravity compensation, fluid; qfrc_passive and its parts."""


def print_data(m, d, path=None):
    """Write every field of the data, readable, to `path` (stdout when None)."""


def print_model(m, path=None):
    """Write every field of the model, readable, to `path` (stdout when None)."""


def ray(m, d, pnt, vec, geomgroup=None, flg_static=1, bodyexclude=-1):
    """Cast a ray from `pnt` along `vec` (MuJoCo's mj_ray): returns (distance in units of |vec|,
    geom id), (-1, -1) when nothing is hit. geomgroup: 6 flags (None: every group); flg_static:
    include geoms of bodies welded to the world; bodyexclude: a body id to skip (-1: none)."""


def reset_data(m, d):
    """qpos = qpos0, everything else zero."""


def reset_data_keyframe(m, d, key):
    """Reset, then the state stored in keyframe `key` (an index, negative from the end, or a
    name): time, qpos, qvel, act, ctrl and the mocap poses."""


def rne(m, d, with_acc=True):
    """Recursive Newton-Euler: the bias forces (with_acc False) or the inverse dynamics (True)."""


def rne_post_constraint(m, d):
    """Body accelerations and forces after the constraint solver: d.cacc, d.cfrc_int, d.cfrc_ext."""


def rollout(model, data, initial_state, control=None, control_spec=32, skip_checks=False, nstep=None, initial_warmstart=None, state=None, sensordata=None, chunk_size=None, persistent_pool=False):
    """Roll out open-loop trajectories (MuJoCo's mujoco.rollout.rollout): rollout i starts from a
    reset data set to initial_state[i] (STATE_FULLPHYSICS) and initial_warmstart[i] (zeros when
    None), and at each step t sets the components `control_spec` from control[i, t] and steps;
    a step that resets the data on a NaN, Inf or huge qpos, qvel or qacc ends the rollout, its
    state and sensors repeated to the last step (as MuJoCo's).

    model: a Model, or a sequence of nbatch Models of the same sizes (rollout i runs model[i]:
    e.g. randomised masses). data: a Data or a sequence of them, one per thread, made for a model
    of those sizes. initial_state: (nbatch or 1, nstate). control: (nbatch or 1, nstep or 1,
    ncontrol) with ncontrol = state_size(model, control_spec). Returns (state, sensordata), of
    shapes (nbatch, nstep, nstate) and (nbatch, nstep, nsensordata), written into `state` and
    `sensordata` when given. The whole batch runs in one C call without the GIL; the results are
    the same bits for any number of threads. chunk_size and persistent_pool are accepted for
    MuJoCo's signature: rollouts go to threads in a fixed round-robin, and the threads live for
    the call. skip_checks is accepted and ignored: the checks cost little here."""


def sensor_acc(m, d):
    """The acceleration-stage sensors, written to d.sensordata."""


def sensor_pos(m, d):
    """The position-stage sensors, written to d.sensordata."""


def sensor_vel(m, d):
    """The velocity-stage sensors, written to d.sensordata."""


def set_callbacks(d, control=Ellipsis, sensor=Ellipsis, act_dyn=Ellipsis, act_gain=Ellipsis, act_bias=Ellipsis, contactfilter=Ellipsis):
    """Install Python callables as the user callbacks of `d` (those not named are kept; None
    removes one). Signatures: control(m, d); sensor(m, d, stage) for user sensors;
    act_dyn(m, d, id), act_gain(m, d, id), act_bias(m, d, id) -> float for actuators of type
    'user'; contactfilter(m, d, geom1, geom2) -> True to drop that dynamic geom pair. An exception
    raised in one is raised again when forward/step/step1/step2 returns. The callbacks are
    copied by copy_data and kept by reset_data."""


def set_const(m, d):
    """Recompute every quantity defined at qpos0 after model fields were edited (MuJoCo's
    mj_setConst): body_subtreemass, body/dof/tendon_invweight0, stat.meaninertia, camera and light
    frames at qpos0, tendon_length0, actuator_length0 and acc0, servo damping from dampratio,
    equality anchors. `d` is used for the computation and left reset to qpos0 (reset_data).
    Raises GaussError when the edited model has no valid constants (a moving body without mass)."""


def set_mesh_cache_capacity(nbytes):
    """Set the mesh cache's capacity in bytes (0 turns it off); least recently used meshes go first
    past it. Returns the new capacity."""


def set_sensor_callback(d, fn):
    """Call fn(m, d, stage) at each stage (1 position, 2 velocity, 3 acceleration) that has user
    sensors, after the built-in sensors of the stage and before the cutoffs: fn writes the user
    sensors' values to d.sensordata. None removes it. The same as set_callbacks(d, sensor=fn)."""


def set_state(m, d, state, spec=4111):
    """Set the components `spec` of d from `state` (state_size(m, spec) reals, as get_state
    returns them; MuJoCo's mj_setState). eq_active becomes 1 where the value is non-zero."""


def set_timer(d, on=True):
    """Turn the stage timers of `d` (d.timer, rows TIMER_*: seconds and calls) on or off. They are
    off by default; reset_data zeroes them and keeps the switch."""


def show_frame(frame, title='gauss'):
    """Show an RGB image ((height, width, 3) uint8) in a window of its size, made at the first
    call and reused (Gymnasium's render_mode="human"); returns False once the window is closed.
    Needs a display (X11 or Wayland; Xvfb on a headless machine) and libglfw.so.3."""


def solve_M(m, d, vec):
    """M^-1 vec (MuJoCo's mj_solveM), using the factorisation in d (qLD). `vec` is (nv,), or
    (n, nv) for n right-hand sides, one per row; the result has vec's shape."""


def solve_M2(m, d, vec):
    """D^-1/2 L^-T vec for M = L^T D L (MuJoCo's mj_solveM2, which takes D^-1/2 as an argument;
    here it comes from d.qLDiagInv): the squared norm of each result row is vec^T M^-1 vec.
    `vec` is (nv,) or (n, nv)."""


def state_size(m, spec):
    """Number of reals in a state holding the components `spec` (STATE_* bits)."""


def step(m, d, nstep=1):
    """Advance the simulation by `nstep` steps (stopping after a step in which a Python
    callback raised, and raising its exception)."""


def step1(m, d):
    """Position and velocity stages; set ctrl after, then call step2."""


def step2(m, d):
    """Force stage and integration."""


def step_batch(model, datas, ctrl=None, nstep=1, nthread=None, post=False):
    """Step each Data of `datas` (all made for `model`) `nstep` times, data i after setting its
    controls to ctrl[i] (ctrl: (len(datas), nu); None keeps each data's ctrl), then run
    rne_post_constraint on it when `post` is true. The datas run on `nthread` threads (default:
    as many as there are CPUs, at most one per data) without the GIL; the results are the bits of
    stepping each data alone."""


def subtree_vel(m, d):
    """Subtree linear velocities and angular momenta: d.subtree_linvel, d.subtree_angmom."""


def transition_fd(m, d, eps=1e-06, centered=False):
    """(A, B, C, D): the derivatives of one step (step's integrator) by finite differences of
    step `eps` (forward, or centred when `centered`), MuJoCo's mjd_transitionFD layout. The state
    x = (dq, qvel, act) has n = 2 nv + na entries, dq in the tangent space of qpos (ball and free
    joints: body-frame rotation vectors). A = dx'/dx, shape (n, n); B = dx'/dctrl, (n, nu);
    C = d sensordata/dx, (nsensordata, n); D = d sensordata/dctrl, (nsensordata, nu). A control
    at a limit of its ctrlrange is differenced one-sided, into the range. The data's state (time,
    qpos, qvel, act, ctrl, qacc_warmstart) is left bit-identical; its computed fields hold the
    last perturbed step's."""

