"""Units and shapes of the model and data arrays, by field family, for the docstrings and the type
stubs. The list of arrays comes from the library (gs_modelField / gs_dataField); this module only
says what a name means, from its suffix or prefix, in MuJoCo's conventions (SI units; angles in
radians in the compiled model)."""

# exact names first, then families by suffix, then by prefix; the first match wins
_EXACT = {
    "qpos": "m for slide and free-joint positions, rad for hinges, unitless quaternions",
    "qpos0": "m / rad / unitless quaternions, as qpos",
    "qpos_spring": "m / rad / unitless quaternions, as qpos",
    "key_qpos": "m / rad / unitless quaternions, as qpos",
    "qvel": "m/s for translational dofs, rad/s for rotational ones",
    "key_qvel": "m/s / rad/s, as qvel",
    "qacc": "m/s^2 for translational dofs, rad/s^2 for rotational ones",
    "qacc_smooth": "m/s^2 / rad/s^2, as qacc",
    "qacc_warmstart": "m/s^2 / rad/s^2, as qacc",
    "ctrl": "the actuator's control units (N or N m for a motor of gear 1)",
    "key_ctrl": "the actuator's control units, as ctrl",
    "act": "the actuator's activation units",
    "key_act": "the actuator's activation units, as act",
    "act_dot": "activation units per second",
    "actuator_force": "N or N m (force along the transmission)",
    "actuator_length": "m or rad (length of the transmission)",
    "actuator_velocity": "m/s or rad/s",
    "actuator_moment": "m or unitless (moment arm of the transmission on each dof)",
    "xfrc_applied": "N (force, 3) then N m (torque, 3), in the world frame at the body's COM",
    "cvel": "rad/s (rotation, 3) then m/s (translation, 3), at the subtree COM",
    "cacc": "rad/s^2 (rotation, 3) then m/s^2 (translation, 3)",
    "cfrc_int": "N m (torque, 3) then N (force, 3)",
    "cfrc_ext": "N m (torque, 3) then N (force, 3)",
    "cdof": "rad or m per unit dof velocity (motion axis, 6)",
    "cdof_dot": "per second (time derivative of cdof)",
    "cinert": "kg m^2 (inertia, 6), kg m (mass times COM offset, 3), kg (mass)",
    "crb": "kg m^2, kg m, kg (composite inertia, as cinert)",
    "qM": "kg or kg m^2 (joint-space inertia, sparse)",
    "qLD": "kg or kg m^2 (factor of qM)",
    "qLDiagInv": "1/kg or 1/(kg m^2)",
    "subtree_com": "m",
    "subtree_linvel": "m/s",
    "subtree_angmom": "kg m^2/s",
    "ten_length": "m",
    "ten_velocity": "m/s",
    "ten_J": "m per unit dof motion (m/rad or unitless)",
    "sensordata": "each sensor's own units (sensor_type, see the sensor's documentation)",
    "userdata": "user-defined",
    "mocap_pos": "m", "mocap_quat": "unit quaternion (w, x, y, z)",
    "body_mass": "kg", "body_subtreemass": "kg", "body_inertia": "kg m^2",
    "body_invweight0": "1/kg (translation) and 1/(kg m^2) (rotation)",
    "dof_invweight0": "1/kg or 1/(kg m^2)",
    "dof_M0": "kg or kg m^2",
    "energy": "J (potential, kinetic)",
    "time": "s",
}
_SUFFIX = [
    ("quat", "unit quaternion (w, x, y, z), unitless"),
    ("xmat", "rotation matrix, row-major (3x3 flattened), unitless"),
    ("ximat", "rotation matrix, row-major, unitless"),
    ("_mat", "rotation matrix, row-major, unitless"),
    ("xaxis", "unit vector, unitless"),
    ("_axis", "unit vector, unitless"),
    ("pos", "m"), ("xanchor", "m"), ("_size", "m (half-sizes / radius)"), ("size", "m"),
    ("_margin", "m"), ("_gap", "m"), ("_rbound", "m"), ("_aabb", "m"),
    ("_damping", "N s/m for translation, N m s/rad for rotation"),
    ("_stiffness", "N/m for translation, N m/rad for rotation"),
    ("_armature", "kg for translation, kg m^2 for rotation"),
    ("_frictionloss", "N or N m"),
    ("_springref", "m or rad"), ("_lengthspring", "m"), ("_length0", "m"), ("_range", "m or rad"),
    ("_solref", "(time constant s, damping ratio) or (-stiffness, -damping) when negative"),
    ("_solreflimit", "as solref"), ("_solreffriction", "as solref"),
    ("_solimp", "unitless (dmin, dmax, width m, midpoint, power)"),
    ("_solimplimit", "as solimp"), ("_solimpfriction", "as solimp"),
    ("_friction", "unitless (sliding), m (torsional and rolling)"),
    ("_rgba", "unitless, 0..1"), ("_density", "kg/m^3"), ("_mass", "kg"),
    ("_gear", "m or unitless (transmission scale)"),
    ("_ctrlrange", "control units"), ("_forcerange", "N or N m"), ("_actrange", "activation units"),
    ("_gainprm", "per actuator type (gain parameters)"),
    ("_biasprm", "per actuator type (bias parameters)"),
    ("_dynprm", "per actuator type (dynamics parameters; time constants in s)"),
    ("_noise", "the sensor's units"), ("_cutoff", "the sensor's units"),
    ("_fovy", "degrees"), ("_ipd", "m"),
    ("_user", "user-defined"), ("_gravcomp", "unitless (fraction of gravity compensated)"),
    ("_solmix", "unitless (weight of the geom's solver parameters)"),
    ("_solref_lim", "as solref"), ("_solref_fri", "as solref"),
    ("_solimp_lim", "as solimp"), ("_solimp_fri", "as solimp"),
    ("_actfrcrange", "N or N m"), ("_width", "m"), ("_cranklength", "m"),
    ("_lengthrange", "m or rad"), ("_acc0", "m/s^2 or rad/s^2 per unit force"),
    ("tendon_invweight0", "1/kg"), ("_poscom0", "m"), ("_pos0", "m"), ("_mat0", "unitless"),
    ("_dir", "unit vector, unitless"), ("_dir0", "unit vector, unitless"),
    ("_intrinsic", "m (focal lengths and principal point on the sensor)"),
    ("_bulbradius", "m"), ("_intensity", "candela"), ("_attenuation", "unitless"),
    ("_exponent", "unitless"), ("_ambient", "unitless color, 0..1"),
    ("_diffuse", "unitless color, 0..1"), ("_specular", "unitless, 0..1"),
    ("_emission", "unitless, 0..1"), ("_shininess", "unitless, 0..1"),
    ("_reflectance", "unitless, 0..1"), ("_metallic", "unitless, 0..1"),
    ("_roughness", "unitless, 0..1"), ("_texrepeat", "unitless (repetitions)"),
    ("_rgb1", "unitless color, 0..1"), ("_rgb2", "unitless color, 0..1"),
    ("_markrgb", "unitless color, 0..1"), ("tex_random", "unitless (probability)"),
    ("mesh_scale", "unitless"), ("mesh_volume", "m^3"), ("mesh_unitinertia", "m^2"),
    ("mesh_polynormal", "unit vector, unitless"), ("mesh_treebox", "m (the box's corners, mesh frame)"),
    ("_vert", "m"), ("_srcvert", "m"), ("mesh_texcoord", "unitless (texture coordinates, 0..1 per image)"),
    ("hfield_data", "unitless (elevation scaled by hfield_size)"),
    ("geom_fluid", "per coefficient of the ellipsoid fluid model (unitless coefficients, m)"),
    ("eq_data", "per equality type (anchors m, torque coefficients, polynomial coefficients)"),
    ("numeric_data", "user-defined"), ("tuple_objprm", "user-defined"),
]
_PREFIX = [
    ("qfrc_", "N for translational dofs, N m for rotational ones (generalized force)"),
    ("efc_", "per row: the constraint's units (N or N m for forces, m or rad for positions)"),
    ("key_", "as the matching data array"),
    ("wrap_", "m"),
]


def units(name, ftype, type_real=0, type_int=1):
    """The units of array `name` (ftype: TYPE_REAL, TYPE_INT or TYPE_CHAR)."""
    if ftype != type_real:
        if ftype == type_int:
            return "integer (an id, address, count, type, flag or mask): unitless"
        return "text bytes (NUL-separated strings)"
    if name in _EXACT:
        return _EXACT[name]
    for suffix, u in _SUFFIX:
        if name.endswith(suffix):
            return u
    for prefix, u in _PREFIX:
        if name.startswith(prefix):
            return u
    return "the units of the object's own parameter (see MuJoCo's documentation of this field)"


def shape(rows, cols):
    """A shape as text from the rows' size name and the column count."""
    rows = rows or "1"
    return f"({rows},)" if cols == 1 else f"({rows}, {cols})"


def doc(name, ftype, rows, cols, owner="model"):
    """One line: shape, dtype and units of an array field."""
    dtype = ("float64", "int32", "uint8")[ftype]
    return f"{owner}.{name}: {dtype} array of shape {shape(rows, cols)}; units: {units(name, ftype)}"
