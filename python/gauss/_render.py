"""Offscreen images of a simulation: gauss.Renderer, with the interface of MuJoCo's
mujoco.Renderer (update_scene, render, depth and segmentation modes).

The C renderer is its own library, libgauss_render.so, found next to libgauss.so (or named by the
environment variable GAUSS_RENDER_LIBRARY). Its GL back end is a headless EGL context, else
OSMesa; the environment variable GAUSS_GL (egl or osmesa) picks one.
"""

import ctypes
import os

import numpy as np

from . import _lib

__all__ = ["Renderer", "RenderOption", "FreeCamera", "show_frame"]

_RGB, _DEPTH, _SEGMENT = 0, 1, 2
_OBJ_CAMERA = 7
_CAMERA_FIXED = 2  # mjtCamera's mjCAMERA_FIXED, for cameras given as MuJoCo's MjvCamera


class _Camera(ctypes.Structure):
    _fields_ = [("camid", ctypes.c_int), ("lookat", ctypes.c_double * 3),
                ("distance", ctypes.c_double), ("azimuth", ctypes.c_double),
                ("elevation", ctypes.c_double)]


# the index of the rangefinder rays among MjvOption's flags (mjtVisFlag's mjVIS_RANGEFINDER)
_MJVIS_RANGEFINDER = 8


class RenderOption(ctypes.Structure):
    """What is drawn (gsRenderOption): geom and site groups 0..5 (0, 1, 2 shown by default), the
    headlight, the grid lines of textured planes, transparency of every geom, and the overlays
    (contactpoint, contactforce, frame, com, joint: 0 or 1), fog, multisample, shadow,
    rangefinder (rays) and reflection (the last four on by default)."""
    _fields_ = [("geomgroup", ctypes.c_int * 6), ("sitegroup", ctypes.c_int * 6),
                ("headlight", ctypes.c_int), ("planegrid", ctypes.c_int),
                ("transparent", ctypes.c_int), ("contactpoint", ctypes.c_int),
                ("contactforce", ctypes.c_int), ("frame", ctypes.c_int), ("com", ctypes.c_int),
                ("joint", ctypes.c_int), ("fog", ctypes.c_int), ("tendongroup", ctypes.c_int * 6),
                ("multisample", ctypes.c_int), ("shadow", ctypes.c_int),
                ("rangefinder", ctypes.c_int), ("reflection", ctypes.c_int)]


class FreeCamera:
    """The free camera: looks at `lookat` from `distance`, azimuth and elevation in degrees
    (MuJoCo's MjvCamera fields of the same names; an MjvCamera is accepted as well)."""

    def __init__(self, lookat=(0.0, 0.0, 0.0), distance=2.0, azimuth=90.0, elevation=-45.0):
        self.lookat = np.array(lookat, dtype=float)
        self.distance = float(distance)
        self.azimuth = float(azimuth)
        self.elevation = float(elevation)

    def __repr__(self):
        return (f"FreeCamera(lookat={self.lookat.tolist()}, distance={self.distance}, "
                f"azimuth={self.azimuth}, elevation={self.elevation})")


_rlib = None


def _load():
    global _rlib
    if _rlib is not None:
        return _rlib
    path = os.environ.get("GAUSS_RENDER_LIBRARY") or os.path.join(
        os.path.dirname(os.path.abspath(_lib.path)), "libgauss_render.so")
    try:
        lib = ctypes.CDLL(path)
    except OSError as exc:
        raise RuntimeError(
            f"gauss: cannot load the renderer library {path!r} ({exc}); it is built with libgauss "
            "when the EGL and GL headers are installed (Debian: libegl-dev libgl-dev), or set "
            "GAUSS_RENDER_LIBRARY") from exc
    vp, ci = ctypes.c_void_p, ctypes.c_int
    lib.gs_makeRenderer.restype = vp
    lib.gs_makeRenderer.argtypes = [vp, ci, ci, ctypes.c_char_p, ci]
    lib.gs_freeRenderer.restype = None
    lib.gs_freeRenderer.argtypes = [vp]
    lib.gs_rendererBackend.restype = ctypes.c_char_p
    lib.gs_rendererBackend.argtypes = [vp]
    lib.gs_rendererOption.restype = ctypes.POINTER(RenderOption)
    lib.gs_rendererOption.argtypes = [vp]
    lib.gs_defaultFreeCamera.restype = None
    lib.gs_defaultFreeCamera.argtypes = [vp, vp, ctypes.POINTER(_Camera)]
    lib.gs_updateScene.restype = ci
    lib.gs_updateScene.argtypes = [vp, vp, ctypes.POINTER(_Camera)]
    lib.gs_render.restype = ci
    lib.gs_render.argtypes = [vp, ci, vp]
    _rlib = lib
    return lib


class Renderer:
    """Renders a model's state offscreen (MuJoCo's mujoco.Renderer):

        r = gauss.Renderer(m, height=240, width=320)
        r.update_scene(d, camera="track")
        rgb = r.render()                    # (height, width, 3) uint8
        r.enable_depth_rendering()          # then render() gives (height, width) float32 metres
        r.enable_segmentation_rendering()   # (height, width, 2) int32: object id, object type

    Segmentation types are MuJoCo's mjtObj numbers (5 geom, 6 site); -1 -1 is the background.
    """

    def __init__(self, model, height=240, width=320, max_geom=10000):
        del max_geom  # the scene grows as needed
        lib = _load()
        self._model = model
        self._height, self._width = int(height), int(width)
        err = ctypes.create_string_buffer(512)
        ptr = lib.gs_makeRenderer(model._ptr, self._width, self._height, err, len(err))
        if not ptr:
            raise RuntimeError(f"gauss.Renderer: {err.value.decode()}")
        self._ptr = ctypes.c_void_p(ptr)
        self._mode = _RGB
        self._camera = _Camera()
        self._has_scene = False

    # ---- MuJoCo's interface ----
    @property
    def height(self):
        """Image height in pixels."""
        return self._height

    @property
    def width(self):
        """Image width in pixels."""
        return self._width

    @property
    def backend(self):
        """The GL back end in use: 'egl' or 'osmesa'."""
        self._check_open()
        return _load().gs_rendererBackend(self._ptr).decode()

    @property
    def option(self):
        """The RenderOption of this renderer (changes apply from the next update_scene)."""
        self._check_open()
        return _load().gs_rendererOption(self._ptr).contents

    def enable_depth_rendering(self):
        """render() gives depth: (height, width) float32, metres along the view axis."""
        self._mode = _DEPTH

    def disable_depth_rendering(self):
        """Back to colour images (when depth was on)."""
        if self._mode == _DEPTH:
            self._mode = _RGB

    def enable_segmentation_rendering(self):
        """render() gives (height, width, 2) int32: object id and mjtObj type, -1 -1 background."""
        self._mode = _SEGMENT

    def disable_segmentation_rendering(self):
        """Back to colour images (when segmentation was on)."""
        if self._mode == _SEGMENT:
            self._mode = _RGB

    def _camera_of(self, data, camera):
        m = self._model
        cam = _Camera()
        if camera is None:
            camera = -1
        if isinstance(camera, str):
            cid = _lib.gs_name2id(m._ptr, _OBJ_CAMERA, camera.encode())
            if cid < 0:
                names = [(_lib.gs_id2name(m._ptr, _OBJ_CAMERA, i) or b"").decode() or f"#{i}"
                         for i in range(m.ncam)]
                raise ValueError(f"the model has no camera named {camera!r}; its cameras: "
                                 f"{', '.join(names) if names else '(none)'}")
            cam.camid = cid
        elif isinstance(camera, (int, np.integer)):
            if not -1 <= int(camera) < m.ncam:
                raise ValueError(f"camera id {int(camera)} out of range: the model has {m.ncam} "
                                 "cameras (-1 is the free camera)")
            cam.camid = int(camera)
        elif hasattr(camera, "lookat"):
            if getattr(camera, "type", None) == _CAMERA_FIXED:
                return self._camera_of(data, int(camera.fixedcamid))
            cam.camid = -1
            cam.lookat[:] = [float(x) for x in camera.lookat]
            cam.distance = float(camera.distance)
            cam.azimuth = float(camera.azimuth)
            cam.elevation = float(camera.elevation)
            return cam
        else:
            raise TypeError("camera must be a camera id, a camera name or a free camera "
                            f"(lookat, distance, azimuth, elevation), not {type(camera).__name__}")
        if cam.camid == -1:
            _load().gs_defaultFreeCamera(m._ptr, data._ptr, ctypes.byref(cam))
        return cam

    def update_scene(self, data, camera=-1, scene_option=None):
        """Take the state of `data` (its last forward pass), seen from `camera`: an id, a name,
        -1 for the default free camera, or a free camera (FreeCamera, MuJoCo's MjvCamera).
        `scene_option` may give geomgroup, sitegroup and tendongroup (a RenderOption, MuJoCo's
        MjvOption)."""
        self._check_open()
        if data.model is not self._model and data.model._ptr.value != self._model._ptr.value:
            raise ValueError("update_scene: the data belongs to another model")
        if scene_option is not None:
            opt = self.option
            for name in ("geomgroup", "sitegroup", "tendongroup"):
                groups = getattr(scene_option, name, None)
                if groups is not None:
                    for i in range(6):
                        getattr(opt, name)[i] = int(bool(groups[i]))
            flags = getattr(scene_option, "flags", None)  # MjvOption's visual flags
            if flags is not None:
                opt.rangefinder = int(bool(flags[_MJVIS_RANGEFINDER]))
            elif hasattr(scene_option, "rangefinder"):
                opt.rangefinder = int(bool(scene_option.rangefinder))
        self._camera = self._camera_of(data, camera)
        if not _load().gs_updateScene(self._ptr, data._ptr, ctypes.byref(self._camera)):
            raise RuntimeError("gauss.Renderer.update_scene failed (out of memory?)")
        self._has_scene = True

    def render(self, *, out=None):
        """The image of the last update_scene in the current mode (see the class)."""
        self._check_open()
        if not self._has_scene:
            raise RuntimeError("render: call update_scene first")
        h, w = self._height, self._width
        if self._mode == _DEPTH:
            shape, dtype = (h, w), np.float32
        elif self._mode == _SEGMENT:
            shape, dtype = (h, w, 2), np.int32
        else:
            shape, dtype = (h, w, 3), np.uint8
        if out is None:
            out = np.empty(shape, dtype)
        elif out.shape != shape or out.dtype != dtype or not out.flags.c_contiguous:
            raise ValueError(f"out must be a C-contiguous {np.dtype(dtype).name} array of shape {shape}")
        if not _load().gs_render(self._ptr, self._mode, out.ctypes.data):
            raise RuntimeError("gauss.Renderer.render: the GL back end reported an error")
        return out

    def close(self):
        """Free the GL context and the scene; the renderer cannot be used afterwards."""
        if getattr(self, "_ptr", None) is not None and self._ptr.value:
            _load().gs_freeRenderer(self._ptr)
            self._ptr = None

    def _check_open(self):
        if getattr(self, "_ptr", None) is None:
            raise RuntimeError("the renderer is closed")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:  # noqa: BLE001  (interpreter shutdown)
            pass


_frame_window = None


def show_frame(frame, title="gauss"):
    """Show an RGB image ((height, width, 3) uint8) in a window of its size, made at the first
    call and reused (Gymnasium's render_mode="human"); returns False once the window is closed.
    Needs a display (X11 or Wayland; Xvfb on a headless machine) and libglfw.so.3."""
    global _frame_window
    from . import Model  # noqa: PLC0415  (the package imports this module)
    frame = np.ascontiguousarray(frame, dtype=np.uint8)
    if frame.ndim != 3 or frame.shape[2] != 3:
        raise ValueError(f"show_frame: expected an (height, width, 3) image, not {frame.shape}")
    lib = _load()
    if not getattr(lib, "_show_declared", False):
        vp, ci = ctypes.c_void_p, ctypes.c_int
        lib.gs_makeViewer.restype = vp
        lib.gs_makeViewer.argtypes = [vp, ci, ci, ctypes.c_char_p, ctypes.c_char_p, ci]
        lib.gs_viewerShowImage.restype = ci
        lib.gs_viewerShowImage.argtypes = [vp, vp, ci, ci]
        lib.gs_freeViewer.restype = None
        lib.gs_freeViewer.argtypes = [vp]
        lib._show_declared = True
    h, w = frame.shape[:2]
    if _frame_window is None or _frame_window[1] != (h, w):
        if _frame_window is not None:
            lib.gs_freeViewer(_frame_window[0])
        # the window's own renderer draws nothing here: an empty model serves it
        empty = Model.from_xml_string("<mujoco/>")
        err = ctypes.create_string_buffer(512)
        ptr = lib.gs_makeViewer(empty._ptr, w, h, title.encode(), err, len(err))
        if not ptr:
            raise RuntimeError(err.value.decode() or "show_frame: cannot open a window")
        _frame_window = (ctypes.c_void_p(ptr), (h, w), empty)
    return bool(lib.gs_viewerShowImage(_frame_window[0], frame.ctypes.data, w, h))
