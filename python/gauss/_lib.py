"""Loading libgauss.so and declaring the C functions and structures the binding uses.

The library is found next to this file (where the wheel installs it); the environment variable
GAUSS_LIBRARY may name another one, for development builds.
"""

import ctypes
import os

import numpy as np

c_int = ctypes.c_int
c_double = ctypes.c_double
c_char_p = ctypes.c_char_p
c_void_p = ctypes.c_void_p
c_size_t = ctypes.c_size_t

GS_NREF = 2
GS_NIMP = 5
GS_NDISABLE = 19
GS_NENABLE = 5


def _library_path():
    env = os.environ.get("GAUSS_LIBRARY")
    if env:
        return env
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "libgauss.so")


def _load():
    path = _library_path()
    try:
        return ctypes.CDLL(path)
    except OSError as exc:
        raise ImportError(
            f"gauss: cannot load the C library {path!r} ({exc}); install the package with "
            "'pip install .' or point GAUSS_LIBRARY at a built libgauss.so") from exc


lib = _load()
path = _library_path()


# ---- structures: gsOption (fixed), warning counters, field descriptions. gsModel and gsData are
# never mirrored: sizes, options and scalars come from accessor functions, arrays from
# introspection, so that their layout may change with the field lists ----

class Option(ctypes.Structure):
    """gsOption, field for field."""
    _fields_ = [
        ("timestep", c_double),
        ("impratio", c_double),
        ("tolerance", c_double),
        ("ls_tolerance", c_double),
        ("noslip_tolerance", c_double),
        ("ccd_tolerance", c_double),
        ("gravity", c_double * 3),
        ("wind", c_double * 3),
        ("magnetic", c_double * 3),
        ("density", c_double),
        ("viscosity", c_double),
        ("o_margin", c_double),
        ("o_solref", c_double * GS_NREF),
        ("o_solimp", c_double * GS_NIMP),
        ("o_friction", c_double * 5),
        ("integrator", c_int),
        ("cone", c_int),
        ("jacobian", c_int),
        ("solver", c_int),
        ("iterations", c_int),
        ("ls_iterations", c_int),
        ("noslip_iterations", c_int),
        ("ccd_iterations", c_int),
        ("disableflags", c_int),
        ("enableflags", c_int),
        ("actuatorgroupdisable", c_int),
    ]


class Statistic(ctypes.Structure):
    _fields_ = [("meaninertia", c_double), ("extent", c_double), ("center", c_double * 3)]


# gsVisual's <map>, <scale> and <rgba> members in their order (MJCF's, as MuJoCo's m.vis)
VISUAL_MAP = ("stiffness", "stiffnessrot", "force", "torque", "alpha", "haze", "shadowclip",
              "shadowscale", "actuatortendon")
VISUAL_SCALE = ("forcewidth", "contactwidth", "contactheight", "connect", "com", "camera", "light",
                "selectpoint", "jointlength", "jointwidth", "actuatorlength", "actuatorwidth",
                "framelength", "framewidth", "constraint", "slidercrank", "frustum")
VISUAL_RGBA = ("fog", "haze", "force", "inertia", "joint", "actuator", "actuatornegative",
               "actuatorpositive", "com", "camera", "light", "selectpoint", "connect",
               "contactpoint", "contactforce", "contactfriction", "contacttorque", "contactgap",
               "rangefinder", "constraint", "slidercrank", "crankbroken", "frustum", "bv",
               "bvactive")


class Visual(ctypes.Structure):
    """gsVisual: the renderer's part of <visual>, field for field."""
    _fields_ = [("fovy", c_double), ("azimuth", c_double), ("elevation", c_double),
                ("znear", c_double), ("zfar", c_double), ("fogstart", c_double),
                ("fogend", c_double), ("headlight_ambient", c_double * 3),
                ("headlight_diffuse", c_double * 3), ("headlight_specular", c_double * 3)] + \
        [("map_" + n, c_double) for n in VISUAL_MAP] + \
        [("scale_" + n, c_double) for n in VISUAL_SCALE] + \
        [("rgba_" + n, c_double * 4) for n in VISUAL_RGBA] + \
        [("headlight_active", c_int), ("numslices", c_int), ("numstacks", c_int),
         ("shadowsize", c_int), ("offsamples", c_int), ("numquads", c_int)]


class WarningStat(ctypes.Structure):
    _fields_ = [("lastinfo", c_int), ("number", c_int), ("total", ctypes.c_longlong)]


class SolverStat(ctypes.Structure):
    _fields_ = [("improvement", c_double), ("gradient", c_double), ("lineslope", c_double),
                ("nactive", c_int), ("nchange", c_int), ("neval", c_int), ("nupdate", c_int)]


GS_NSOLVER = 200
GS_NISLAND = 20


class TimerStat(ctypes.Structure):
    _fields_ = [("duration", c_double), ("number", c_int)]


class FieldInfo(ctypes.Structure):
    _fields_ = [
        ("name", c_char_p),
        ("type", c_int),
        ("rows", c_int),
        ("cols", c_int),
        ("ptr", c_void_p),
    ]


class Contact(ctypes.Structure):
    """gsContact (data.h), field for field."""
    _fields_ = [
        ("dist", c_double),
        ("pos", c_double * 3),
        ("frame", c_double * 9),
        ("includemargin", c_double),
        ("friction", c_double * 5),
        ("solref", c_double * GS_NREF),
        ("solreffriction", c_double * GS_NREF),
        ("solimp", c_double * GS_NIMP),
        ("mu", c_double),
        ("dim", c_int),
        ("geom1", c_int),
        ("geom2", c_int),
        ("exclude", c_int),
        ("efc_address", c_int),
    ]


# ---- functions ----

_dvec = np.ctypeslib.ndpointer(dtype=np.float64, flags="C_CONTIGUOUS")


class _Missing:
    """Stands in for a function the loaded library does not export."""

    def __init__(self, name):
        self.name = name

    def __call__(self, *args):
        raise RuntimeError(f"gauss: the loaded library ({path}) has no function {self.name}")


def _fn(name, restype, *argtypes):
    try:
        f = getattr(lib, name)
    except AttributeError:
        return _Missing(name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


M = c_void_p  # const gsModel*
D = c_void_p  # gsData*

gs_loadWarnings = _fn("gs_loadWarnings", c_char_p)
gs_vfsNew = _fn("gs_vfsNew", c_void_p)
gs_vfsAdd = _fn("gs_vfsAdd", c_int, c_void_p, c_char_p, c_char_p, c_size_t)
gs_vfsFree = _fn("gs_vfsFree", None, c_void_p)
# path or text (one of them), in-memory files, flags (GS_LOAD_CONFINED), error buffer
gs_loadXMLOpt = _fn("gs_loadXMLOpt", c_void_p, c_char_p, c_char_p, c_void_p, c_int, c_char_p, c_int)
GS_LOAD_CONFINED = 1

gs_saveModel = _fn("gs_saveModel", c_int, c_void_p, c_char_p, c_char_p, c_int)
gs_sizeModel = _fn("gs_sizeModel", c_size_t, c_void_p)
gs_saveModelBuffer = _fn("gs_saveModelBuffer", c_int, c_void_p, c_void_p, c_size_t)
gs_loadModel = _fn("gs_loadModel", c_void_p, c_char_p, c_char_p, c_int)
gs_loadURDF = _fn("gs_loadURDF", c_void_p, c_char_p, c_char_p, c_int)
# the process-wide cache of mesh files (gauss.h)
gs_meshCacheSize = _fn("gs_meshCacheSize", c_size_t)
gs_meshCacheCapacity = _fn("gs_meshCacheCapacity", c_size_t)
gs_setMeshCacheCapacity = _fn("gs_setMeshCacheCapacity", c_size_t, c_size_t)
gs_clearMeshCache = _fn("gs_clearMeshCache", None)
gs_loadURDFString = _fn("gs_loadURDFString", c_void_p, c_char_p, c_char_p, c_int)
gs_loadModelBuffer = _fn("gs_loadModelBuffer", c_void_p, c_char_p, c_size_t, c_char_p, c_int)
gs_saveXML = _fn("gs_saveXML", c_int, c_void_p, c_char_p, c_char_p, c_int)
gs_saveXMLString = _fn("gs_saveXMLString", c_int, c_void_p, c_char_p, c_int, c_char_p, c_int)

gs_freeModel = _fn("gs_freeModel", None, M)
gs_copyModel = _fn("gs_copyModel", c_void_p, M)
gs_makeData = _fn("gs_makeData", c_void_p, M)
gs_freeData = _fn("gs_freeData", None, D)
gs_resetData = _fn("gs_resetData", None, M, D)
gs_copyData = _fn("gs_copyData", c_void_p, D, M, D)

gs_id2name = _fn("gs_id2name", c_char_p, M, c_int, c_int)
gs_name2id = _fn("gs_name2id", c_int, M, c_int, c_char_p)

gs_step = _fn("gs_step", None, M, D)
gs_step1 = _fn("gs_step1", None, M, D)
gs_step2 = _fn("gs_step2", None, M, D)
gs_forward = _fn("gs_forward", None, M, D)
gs_forwardSkip = _fn("gs_forwardSkip", None, M, D, c_int, c_int)
gs_inverse = _fn("gs_inverse", None, M, D)
gs_inverseSkip = _fn("gs_inverseSkip", None, M, D, c_int, c_int)
gs_dataFwdinv = _fn("gs_dataFwdinv", ctypes.POINTER(c_double), D)

gs_kinematics = _fn("gs_kinematics", None, M, D)
gs_comPos = _fn("gs_comPos", None, M, D)
gs_crb = _fn("gs_crb", None, M, D)
gs_factorM = _fn("gs_factorM", None, M, D)
gs_comVel = _fn("gs_comVel", None, M, D)
gs_rne = _fn("gs_rne", None, M, D, c_int, _dvec)
gs_passive = _fn("gs_passive", None, M, D)
gs_fwdPosition = _fn("gs_fwdPosition", None, M, D)
gs_fwdVelocity = _fn("gs_fwdVelocity", None, M, D)
gs_fwdActuation = _fn("gs_fwdActuation", None, M, D)
gs_fwdAcceleration = _fn("gs_fwdAcceleration", None, M, D)
gs_integratePos = _fn("gs_integratePos", None, M, _dvec, _dvec, c_double)
gs_differentiatePos = _fn("gs_differentiatePos", None, M, _dvec, c_double, _dvec, _dvec)
gs_normalizeQuat = _fn("gs_normalizeQuat", None, M, _dvec)

gs_energyPos = _fn("gs_energyPos", None, M, D)
gs_energyVel = _fn("gs_energyVel", None, M, D)
gs_rnePostConstraint = _fn("gs_rnePostConstraint", None, M, D)
gs_subtreeVel = _fn("gs_subtreeVel", None, M, D)
gs_sensorPos = _fn("gs_sensorPos", None, M, D)
gs_sensorVel = _fn("gs_sensorVel", None, M, D)
gs_sensorAcc = _fn("gs_sensorAcc", None, M, D)

gs_fullM = _fn("gs_fullM", None, M, _dvec, _dvec)
gs_mulM = _fn("gs_mulM", None, M, D, _dvec, _dvec)
gs_solveM = _fn("gs_solveM", None, M, D, _dvec, _dvec, c_int)
gs_mulM2 = _fn("gs_mulM2", None, M, D, _dvec, _dvec)
gs_solveM2 = _fn("gs_solveM2", None, M, D, _dvec, _dvec, c_int)
gs_jac = _fn("gs_jac", None, M, D, _dvec, _dvec, _dvec, c_int)
gs_jacBody = _fn("gs_jacBody", None, M, D, _dvec, _dvec, c_int)
gs_jacBodyCom = _fn("gs_jacBodyCom", None, M, D, _dvec, _dvec, c_int)
gs_jacSite = _fn("gs_jacSite", None, M, D, _dvec, _dvec, c_int)
gs_jacGeom = _fn("gs_jacGeom", None, M, D, _dvec, _dvec, c_int)
gs_jacSubtreeCom = _fn("gs_jacSubtreeCom", None, M, D, _dvec, c_int)
gs_jacPointAxis = _fn("gs_jacPointAxis", None, M, D, _dvec, _dvec, _dvec, _dvec, c_int)
gs_jacDot = _fn("gs_jacDot", None, M, D, _dvec, _dvec, _dvec, c_int)

gs_modelSizeCount = _fn("gs_modelSizeCount", c_int)
gs_modelSize = _fn("gs_modelSize", c_char_p, M, c_int, ctypes.POINTER(c_int))
gs_modelOption = _fn("gs_modelOption", ctypes.POINTER(Option), M)
gs_modelStatistic = _fn("gs_modelStatistic", ctypes.POINTER(Statistic), M)
gs_modelVisual = _fn("gs_modelVisual", ctypes.POINTER(Visual), M)
gs_dataTime = _fn("gs_dataTime", ctypes.POINTER(c_double), D)
gs_dataEnergy = _fn("gs_dataEnergy", ctypes.POINTER(c_double), D)
gs_dataWarning = _fn("gs_dataWarning", ctypes.POINTER(WarningStat), D, ctypes.POINTER(c_int))
gs_dataContact = _fn("gs_dataContact", ctypes.POINTER(Contact), D, ctypes.POINTER(c_int),
                     ctypes.POINTER(c_int))
gs_collision = _fn("gs_collision", None, M, D)
gs_dataEfcFieldCount = _fn("gs_dataEfcFieldCount", c_int)
gs_dataEfcField = _fn("gs_dataEfcField", c_int, D, c_int, ctypes.POINTER(FieldInfo))
gs_dataEfcCounts = _fn("gs_dataEfcCounts", None, D, ctypes.POINTER(c_int * 9))
gs_dataSolver = _fn("gs_dataSolver", ctypes.POINTER(SolverStat), D,
                    ctypes.POINTER(ctypes.POINTER(c_int)))
gs_dataIslandFieldCount = _fn("gs_dataIslandFieldCount", c_int)
gs_dataIslandField = _fn("gs_dataIslandField", c_int, D, c_int, ctypes.POINTER(FieldInfo))
gs_contactForce = _fn("gs_contactForce", None, M, D, c_int, _dvec)
gs_dataTimer = _fn("gs_dataTimer", ctypes.POINTER(TimerStat), D, ctypes.POINTER(c_int))
gs_setTimer = _fn("gs_setTimer", None, D, c_int)
gs_dataArena = _fn("gs_dataArena", c_size_t, D, ctypes.POINTER(c_size_t), ctypes.POINTER(c_size_t))

# gsCallbacks (data.h), member for member: the C signatures of the user callbacks
CB_CONTROL = ctypes.CFUNCTYPE(None, c_void_p, c_void_p, c_void_p)
CB_SENSOR = ctypes.CFUNCTYPE(None, c_void_p, c_void_p, c_int, c_void_p)
CB_ACT = ctypes.CFUNCTYPE(c_double, c_void_p, c_void_p, c_int, c_void_p)
CB_CONTACTFILTER = ctypes.CFUNCTYPE(c_int, c_void_p, c_void_p, c_int, c_int, c_void_p)


class Callbacks(ctypes.Structure):
    _fields_ = [
        ("control", CB_CONTROL),
        ("sensor", CB_SENSOR),
        ("act_dyn", CB_ACT),
        ("act_gain", CB_ACT),
        ("act_bias", CB_ACT),
        ("contactfilter", CB_CONTACTFILTER),
        ("user", c_void_p),
    ]


gs_dataCallbacks = _fn("gs_dataCallbacks", ctypes.POINTER(Callbacks), D)
gs_modelFieldRows = _fn("gs_modelFieldRows", c_char_p, c_int)
gs_dataFieldRows = _fn("gs_dataFieldRows", c_char_p, c_int)

gs_modelFieldCount = _fn("gs_modelFieldCount", c_int)
gs_modelField = _fn("gs_modelField", c_int, M, c_int, ctypes.POINTER(FieldInfo))
gs_dataFieldCount = _fn("gs_dataFieldCount", c_int)
gs_dataField = _fn("gs_dataField", c_int, M, D, c_int, ctypes.POINTER(FieldInfo))
gs_dataFields = _fn("gs_dataFields", c_int, M, D, ctypes.POINTER(FieldInfo), c_int)

# int gs_validateModel(const gsModel* m, char* err, int errsz): 1 when every structural field is
# consistent (what the binary loader checks), else 0 and the first problem in err
gs_validateModel = _fn("gs_validateModel", c_int, M, c_char_p, c_int)

gs_printModel = _fn("gs_printModel", c_int, M, c_char_p)
gs_printData = _fn("gs_printData", c_int, M, D, c_char_p)


def flag_names(symbol, count):
    """The names of gs_disable_names / gs_enable_names, indexed by bit number."""
    try:
        arr = (c_char_p * count).in_dll(lib, symbol)
    except ValueError:
        return ()
    return tuple((s or b"").decode() for s in arr)

# ---- geometric queries ----
_ivec = np.ctypeslib.ndpointer(dtype=np.int32, flags="C_CONTIGUOUS")
gs_rayGeom = _fn("gs_rayGeom", c_double, _dvec, _dvec, _dvec, _dvec, _dvec, c_int)
gs_ray = _fn("gs_ray", c_double, M, D, _dvec, _dvec, ctypes.c_void_p, c_int, c_int, _ivec)
gs_geomDistance = _fn("gs_geomDistance", c_double, M, D, c_int, c_int, c_double, _dvec)

# state as a flat array of reals (include/gauss/state.h)
gs_stateSize = _fn("gs_stateSize", c_int, M, ctypes.c_uint)
gs_getState = _fn("gs_getState", c_int, M, D, c_void_p, ctypes.c_uint)
gs_setState = _fn("gs_setState", c_int, M, D, c_void_p, ctypes.c_uint)

# stepping loops in C (include/gauss/rollout.h); ctypes lets other Python threads run meanwhile
gs_stepN = _fn("gs_stepN", None, M, D, c_int)
gs_rollout = _fn("gs_rollout", c_int, M, c_void_p, c_int, c_int, c_int, ctypes.c_uint,
                 c_void_p, c_void_p, c_void_p, c_void_p, c_void_p)
gs_stepBatch = _fn("gs_stepBatch", c_int, M, c_void_p, c_int, c_int, c_int, c_void_p, c_int)

# ---- the editable model tree (spec.h, spec_access.h) ----

class SpecAttr(ctypes.Structure):
    """gsSpecAttr: one attribute of a spec element kind."""
    _fields_ = [
        ("name", c_char_p),
        ("type", c_int),
        ("count", c_int),
        ("offset", c_size_t),
        ("lenoff", ctypes.c_long),
        ("flagoff", ctypes.c_long * 2),
        ("flagval", c_int * 2),
        ("flagor", c_int * 2),
    ]


class SpecBlob(ctypes.Structure):
    _fields_ = [("bytes", c_void_p), ("n", c_size_t)]


class SpecAssetRef(ctypes.Structure):
    _fields_ = [("owner", c_void_p), ("material", c_void_p), ("mesh", c_void_p),
                ("hfield", c_void_p)]


(GS_SK_SPEC, GS_SK_COMPILER, GS_SK_STATISTIC, GS_SK_VISUAL, GS_SK_BODY, GS_SK_JOINT, GS_SK_GEOM,
 GS_SK_SITE, GS_SK_CAMERA, GS_SK_LIGHT, GS_SK_TENDON, GS_SK_WRAP, GS_SK_ACTUATOR, GS_SK_SENSOR,
 GS_SK_EQUALITY, GS_SK_KEY, GS_SK_NUMERIC, GS_SK_TEXT, GS_SK_TUPLE, GS_SK_TUPLEELEMENT,
 GS_SK_MESH, GS_SK_HFIELD, GS_SK_TEXTURE, GS_SK_MATERIAL, GS_SK_PAIR, GS_SK_EXCLUDE,
 GS_SK_FRAME, GS_NSPECKIND) = range(28)
(GS_SA_REAL, GS_SA_INT, GS_SA_LLONG, GS_SA_STRING, GS_SA_POOL, GS_SA_CHARS, GS_SA_REALVEC,
 GS_SA_INTVEC, GS_SA_ASSETREF, GS_SA_BLOB) = range(10)

gs_specNew = _fn("gs_specNew", c_void_p)
gs_specFree = _fn("gs_specFree", None, c_void_p)
gs_parseXMLOpt = _fn("gs_parseXMLOpt", c_void_p, c_char_p, c_char_p, c_void_p, c_int, c_char_p, c_int)
gs_compile = _fn("gs_compile", c_void_p, c_void_p, c_char_p, c_int)
gs_specAttrs = _fn("gs_specAttrs", ctypes.POINTER(SpecAttr), c_int, ctypes.POINTER(c_int))
gs_specKindSize = _fn("gs_specKindSize", c_size_t, c_int)
gs_specSetString = _fn("gs_specSetString", c_int, c_void_p, c_char_p)
gs_specIntern = _fn("gs_specIntern", c_void_p, c_void_p, c_char_p)
gs_specSetReals = _fn("gs_specSetReals", c_int, c_void_p, c_void_p, c_void_p, c_int, c_int)
gs_specSetInts = _fn("gs_specSetInts", c_int, c_void_p, c_void_p, c_void_p, c_int, c_int)
gs_specSetBlob = _fn("gs_specSetBlob", c_int, c_void_p, c_char_p, c_size_t)
gs_specOption = _fn("gs_specOption", ctypes.POINTER(Option), c_void_p)
gs_specWorld = _fn("gs_specWorld", c_void_p, c_void_p)
gs_specSettings = _fn("gs_specSettings", c_void_p, c_void_p, c_int)
gs_specChild = _fn("gs_specChild", c_void_p, c_void_p, c_int, c_int, c_int, ctypes.POINTER(c_int))
gs_specCopy = _fn("gs_specCopy", c_void_p, c_void_p)
gs_specAttach = _fn("gs_specAttach", c_int, c_void_p, c_void_p, c_void_p, c_void_p, c_void_p, c_void_p,
                    c_char_p, c_char_p, c_char_p, c_int)
gs_specAttachSite = _fn("gs_specAttachSite", c_int, c_void_p, c_void_p, c_void_p, c_void_p, c_char_p,
                        c_char_p, c_char_p, c_int)
gs_specAttachFrame = _fn("gs_specAttachFrame", c_void_p, c_void_p, c_void_p, c_void_p, c_void_p, c_char_p,
                         c_char_p, c_char_p, c_int)
gs_specAddFrame = _fn("gs_specAddFrame", c_void_p, c_void_p, c_void_p)
gs_specFrameBodyPose = _fn("gs_specFrameBodyPose", None, c_void_p, ctypes.POINTER(c_double),
                           ctypes.POINTER(c_double))
gs_specFramePose = _fn("gs_specFramePose", c_int, c_int, c_void_p, ctypes.POINTER(c_double),
                       ctypes.POINTER(c_double))
gs_specFramedOrient = _fn("gs_specFramedOrient", c_int, c_void_p, c_int, c_void_p, c_char_p, c_int)
gs_specDelete = _fn("gs_specDelete", c_int, c_void_p, c_int, c_void_p)
gs_specParent = _fn("gs_specParent", c_void_p, c_void_p, c_int, c_void_p)
gs_specFrameOf = _fn("gs_specFrameOf", c_void_p, c_int, c_void_p)
gs_specSetFrame = _fn("gs_specSetFrame", c_int, c_void_p, c_int, c_void_p, c_void_p, c_char_p, c_int)
gs_specFramedFromto = _fn("gs_specFramedFromto", c_int, c_void_p, c_int, c_void_p, c_char_p, c_int)
gs_specSetFramePose = _fn("gs_specSetFramePose", c_int, c_void_p, c_void_p, c_void_p,
                          ctypes.POINTER(c_double), ctypes.POINTER(c_double), c_char_p, c_int)
gs_specAssetRef = _fn("gs_specAssetRef", c_void_p, c_void_p, c_void_p)
gs_specFindAssetRef = _fn("gs_specFindAssetRef", c_void_p, c_void_p, c_void_p)
gs_specAddBody = _fn("gs_specAddBody", c_void_p, c_void_p)
gs_specAddJoint = _fn("gs_specAddJoint", c_void_p, c_void_p)
gs_specAddGeom = _fn("gs_specAddGeom", c_void_p, c_void_p)
gs_specAddSite = _fn("gs_specAddSite", c_void_p, c_void_p)
gs_specAddCamera = _fn("gs_specAddCamera", c_void_p, c_void_p)
gs_specAddLight = _fn("gs_specAddLight", c_void_p, c_void_p)
gs_specAddTendon = _fn("gs_specAddTendon", c_void_p, c_void_p, c_int)
gs_specAddWrap = _fn("gs_specAddWrap", c_void_p, c_void_p, c_int)
gs_specAddActuator = _fn("gs_specAddActuator", c_void_p, c_void_p)
gs_specAddSensor = _fn("gs_specAddSensor", c_void_p, c_void_p, c_int)
gs_specAddEquality = _fn("gs_specAddEquality", c_void_p, c_void_p, c_int)
gs_specAddKey = _fn("gs_specAddKey", c_void_p, c_void_p)
gs_specAddNumeric = _fn("gs_specAddNumeric", c_void_p, c_void_p)
gs_specAddText = _fn("gs_specAddText", c_void_p, c_void_p)
gs_specAddTuple = _fn("gs_specAddTuple", c_void_p, c_void_p)
gs_specAddTupleElement = _fn("gs_specAddTupleElement", c_void_p, c_void_p)
gs_specAddMesh = _fn("gs_specAddMesh", c_void_p, c_void_p)
gs_specAddHField = _fn("gs_specAddHField", c_void_p, c_void_p)
gs_specAddTexture = _fn("gs_specAddTexture", c_void_p, c_void_p)
gs_specAddMaterial = _fn("gs_specAddMaterial", c_void_p, c_void_p)
gs_specAddPair = _fn("gs_specAddPair", c_void_p, c_void_p)
gs_specAddExclude = _fn("gs_specAddExclude", c_void_p, c_void_p)
gs_setConst = _fn("gs_setConst", c_int, c_void_p, c_void_p, c_char_p, c_int)
