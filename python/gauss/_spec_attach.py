"""Attaching one spec to another (MuJoCo's MjSpec.attach, MjsSite.attach_body and MjsFrame.attach_body) over
gs_specAttachFrame and gs_specAttachSite: the child is copied (it is left as it was, unlike MuJoCo,
whose attach moves the child's elements), with its assets, the tendons, actuators, sensors,
equalities, pairs and exclusions naming only copied elements, its keyframes, custom data and its
own compiler settings for what it brings; names take prefix and suffix. As in MuJoCo, what is
attached is written in a new frame, made in the frame given (frame=) or at the site (site=), and
that frame is returned."""

import ctypes

from . import _lib


def _enc(s):
    return None if s is None else str(s).encode()


def _check_child(spec, child):
    from ._spec import Spec, SpecError
    if not isinstance(child, Spec):
        raise SpecError("attach: the child must be a gauss.Spec")
    if child is spec:
        raise SpecError("attach: a spec cannot attach itself (attach a copy)")


def _element(spec, el, kind, what):
    from ._spec import Element, SpecError
    if isinstance(el, str):
        name, el = el, spec._find(kind, el)
        if el is None:
            raise SpecError(f"attach: no {what} named {name!r}")
    if not isinstance(el, Element) or el._kind != kind or el._spec is not spec:
        raise SpecError(f"attach: {what} must be a {what} of this spec")
    return el


def _attach(spec, site, child, body, prefix, suffix):
    """Copy child (or its body `body`) to `site`; returns the frame made there."""
    from ._spec import SpecError
    _check_child(spec, child)
    site = _element(spec, site, _lib.GS_SK_SITE, "site")
    holder = site.parent
    before = {f._ptr for f in holder.frames}
    err = ctypes.create_string_buffer(1000)
    ok = _lib.gs_specAttachSite(spec._ptr, site._addr(), child._ptr, body._addr() if body else None,
                                _enc(prefix), _enc(suffix), err, len(err))
    if not ok:
        raise SpecError(err.value.decode(errors="replace") or "attach failed")
    made = [f for f in holder.frames if f._ptr not in before]
    return made[0] if made else None


def spec_attach(self, child, prefix=None, suffix=None, site=None, frame=None):
    """Copy the contents of child's world body into a new frame, made in `frame` (a frame of this
    spec, or its name) or at `site` (a site, or its name), as MuJoCo's spec.attach(child, prefix=,
    suffix=, site=, frame=); returns that new frame (MuJoCo's returns the frame it makes)."""
    from ._spec import SpecError
    if (frame is None) == (site is None):
        raise SpecError("attach: exactly one of frame or site must be specified")
    if site is not None:
        return _attach(self, site, child, None, prefix, suffix)
    _check_child(self, child)
    frame = _element(self, frame, _lib.GS_SK_FRAME, "frame")
    err = ctypes.create_string_buffer(1000)
    p = _lib.gs_specAttachFrame(self._ptr, frame._addr(), child._ptr, None, _enc(prefix),
                                _enc(suffix), err, len(err))
    if not p:
        raise SpecError(err.value.decode(errors="replace") or "attach failed")
    return self._wrap(p, _lib.GS_SK_FRAME)


def site_attach_body(self, body, prefix=None, suffix=None):
    """Copy `body` (a body of another spec, with its subtree) to this site or frame, as MuJoCo's
    site.attach_body and frame.attach_body(body, prefix, suffix); returns the copy (an element of
    this spec). At a site the copy is written in a new frame there, in a frame directly in it."""
    from ._spec import Element, SpecError
    if self._kind not in (_lib.GS_SK_SITE, _lib.GS_SK_FRAME):
        raise SpecError("attach_body: only sites and frames (in a gauss spec) take attached bodies")
    if not isinstance(body, Element) or body._kind != _lib.GS_SK_BODY or body.parent is None:
        raise SpecError("attach_body: body must be a body (not the world) of another spec")
    spec = self._spec
    holder = self.parent
    before = {b._ptr for b in holder.bodies}
    if self._kind == _lib.GS_SK_SITE:
        _attach(spec, self, body._spec, body, prefix, suffix)
    else:
        _check_child(spec, body._spec)
        err = ctypes.create_string_buffer(1000)
        p = _lib.gs_specAttachFrame(spec._ptr, self._addr(), body._spec._ptr, body._addr(), _enc(prefix),
                                    _enc(suffix), err, len(err))
        if not p:
            raise SpecError(err.value.decode(errors="replace") or "attach failed")
        # MuJoCo's frame.attach_body writes the copy in the frame itself: the new frame the attach
        # made (at identity in this one) goes, what it holds staying where it was placed
        spec.delete(spec._wrap(p, _lib.GS_SK_FRAME))
    made = [b for b in holder.bodies if b._ptr not in before]
    return made[0] if made else None
