"""The interactive viewer (MuJoCo's mujoco.viewer): a GLFW window showing the renderer's images.

    gauss.viewer.launch(m, d)              # blocks: simulates in real time until the window closes
    with gauss.viewer.launch_passive(m, d) as v:
        while v.is_running():
            gauss.step(m, d)
            v.sync()                       # show d, handle the window's events

Keys: space pause, right arrow one step while paused, backspace reset (to the keyframe chosen with
page up / page down), - and = speed, [ and ] cameras, 0..5 geom groups, t transparency, c contact
points, f contact forces, e body frames, m centres of mass, j joints, h the text, Escape close.
Mouse: left
drag orbits, right drag pans, the wheel zooms, ctrl + left drag pulls a body (a spring force in
d.xfrc_applied), ctrl + right click tracks a body.
Unlike MuJoCo's passive viewer, which draws from a thread of its own, this one draws in sync(),
on the caller's thread. It needs a display (X11 or Wayland; Xvfb on a headless machine) and
libglfw.so.3 (Debian: libglfw3).
"""

import contextlib
import ctypes
import time

import numpy as np

from . import _render

__all__ = ["launch", "launch_passive", "Handle", "ViewerState"]


class ViewerState(ctypes.Structure):
    """gsViewerState: what the window asks of whoever steps, and its camera and pulled body."""
    _fields_ = [("paused", ctypes.c_int), ("nstep", ctypes.c_int), ("reset", ctypes.c_int),
                ("speed", ctypes.c_double), ("camid", ctypes.c_int), ("free", _render._Camera),
                ("transparent", ctypes.c_int), ("perturb_body", ctypes.c_int),
                ("perturb_target", ctypes.c_double * 3), ("perturb_local", ctypes.c_double * 3),
                ("keyframe", ctypes.c_int), ("track_body", ctypes.c_int),
                ("show_info", ctypes.c_int), ("slider", ctypes.c_int * 4)]


def _lib():
    lib = _render._load()
    if not getattr(lib, "_viewer_declared", False):
        vp, ci, cd = ctypes.c_void_p, ctypes.c_int, ctypes.c_double
        lib.gs_makeViewer.restype = vp
        lib.gs_makeViewer.argtypes = [vp, ci, ci, ctypes.c_char_p, ctypes.c_char_p, ci]
        lib.gs_freeViewer.restype = None
        lib.gs_freeViewer.argtypes = [vp]
        lib.gs_viewerState.restype = ctypes.POINTER(ViewerState)
        lib.gs_viewerState.argtypes = [vp]
        lib.gs_viewerRunning.restype = ci
        lib.gs_viewerRunning.argtypes = [vp]
        lib.gs_viewerSync.restype = ci
        lib.gs_viewerSync.argtypes = [vp, vp, ctypes.c_char_p]
        lib.gs_viewerKey.restype = None
        lib.gs_viewerKey.argtypes = [vp, ci, ci]
        lib.gs_viewerMouse.restype = None
        lib.gs_viewerMouse.argtypes = [vp, ci, ci, cd, cd, ci]
        lib.gs_viewerScreenshot.restype = ci
        lib.gs_viewerScreenshot.argtypes = [vp, vp]
        lib._viewer_declared = True
    return lib


class Handle:
    """A viewer window on (m, d); see the module's documentation."""

    def __init__(self, model, data, width=640, height=480, title="gauss"):
        lib = _lib()
        err = ctypes.create_string_buffer(512)
        ptr = lib.gs_makeViewer(model._ptr, int(width), int(height), title.encode(), err, len(err))
        if not ptr:
            raise RuntimeError(err.value.decode() or "gauss.viewer: cannot open the window")
        self._ptr = ctypes.c_void_p(ptr)
        self._model, self._data = model, data
        self.width, self.height = int(width), int(height)

    @property
    def state(self):
        """The ViewerState (a view on the C struct): paused, speed, camid, free camera, ..."""
        self._check()
        return _lib().gs_viewerState(self._ptr).contents

    def is_running(self):
        """True while the window is open."""
        return self._ptr is not None and bool(_lib().gs_viewerRunning(self._ptr))

    def sync(self, info=None):
        """Show the data's state and handle the window's events; the lines of `info` are drawn
        over the image (h toggles them) and the first goes to the title bar."""
        self._check()
        return bool(_lib().gs_viewerSync(self._ptr, self._data._ptr,
                                         None if info is None else str(info).encode()))

    def key(self, key, mods=0):
        """Deliver a key press (a GLFW key code, or a one-character string) as the window would."""
        self._check()
        if isinstance(key, str):
            key = {" ": 32, "right": 262, "backspace": 259, "escape": 256, "pageup": 266,
                   "pagedown": 267}.get(key, None) or ord(key.upper())
        _lib().gs_viewerKey(self._ptr, int(key), int(mods))

    def mouse(self, button, action, x, y, mods=0):
        """Deliver a mouse event: button 0 left 1 right, action 1 press 0 release 2 move."""
        self._check()
        _lib().gs_viewerMouse(self._ptr, int(button), int(action), float(x), float(y), int(mods))

    def screenshot(self):
        """The last image shown, (height, width, 3) uint8."""
        self._check()
        out = np.empty((self.height, self.width, 3), np.uint8)
        if not _lib().gs_viewerScreenshot(self._ptr, out.ctypes.data):
            raise RuntimeError("screenshot: nothing shown yet (call sync)")
        return out

    @contextlib.contextmanager
    def lock(self):
        """MuJoCo's viewer lock; this viewer draws on the caller's thread, so nothing to hold."""
        yield

    def close(self):
        """Close the window."""
        if getattr(self, "_ptr", None) is not None:
            _lib().gs_freeViewer(self._ptr)
            self._ptr = None

    def _check(self):
        if self._ptr is None:
            raise RuntimeError("the viewer is closed")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:  # noqa: BLE001  (interpreter shutdown)
            pass


def launch_passive(model, data, width=640, height=480):
    """A window that shows `data` whenever the caller calls sync(); the caller steps."""
    return Handle(model, data, width, height)


def step_for(handle, model, data, wall_dt, step, reset, reset_keyframe=None):
    """Advance the simulation as the window asks over `wall_dt` real seconds: reset (to the chosen
    keyframe with reset_keyframe(m, d, key)), single steps while paused, else speed * wall_dt
    simulated seconds. Returns the steps taken."""
    st = handle.state
    n = 0
    if st.reset:
        if st.keyframe >= 0 and reset_keyframe is not None:
            reset_keyframe(model, data, st.keyframe)
        else:
            reset(model, data)
        st.reset = 0
    if st.paused:
        while st.nstep > 0:
            step(model, data)
            st.nstep -= 1
            n += 1
        return n
    # simulated time owed to the wall clock, carried between calls so that it neither drifts
    # ahead nor behind by a step per frame
    dt = model.opt.timestep
    handle._owed = getattr(handle, "_owed", 0.0) + st.speed * wall_dt
    while handle._owed >= 0.5 * dt and n < 100000:
        step(model, data)
        handle._owed -= dt
        n += 1
    return n


def launch(model, data=None, width=640, height=480, max_seconds=None):
    """Simulate `data` (a new one when None) in real time in a window until it closes (or
    max_seconds of wall time pass)."""
    from . import Data, forward, reset_data, reset_data_keyframe, step  # noqa: PLC0415
    if data is None:
        data = Data(model)
    forward(model, data)
    with Handle(model, data, width, height) as h:
        last = start = time.perf_counter()
        while h.is_running():
            now = time.perf_counter()
            step_for(h, model, data, min(now - last, 0.1), step, reset_data, reset_data_keyframe)
            last = now
            forward(model, data)
            h.sync(f"t = {data.time:.2f} s  speed {h.state.speed:g}"
                   f"{'  (paused)' if h.state.paused else ''}\n"
                   f"solver iterations {data.solver_niter[0]}"
                   + (f"\n{len(model.load_warnings)} load warnings: " + "; ".join(model.load_warnings)[:200]
                      if model.load_warnings else ""))
            if max_seconds is not None and now - start > max_seconds:
                break
    return data
