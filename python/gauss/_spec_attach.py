"""Attaching one spec to another (MuJoCo's MjSpec.attach and MjsSite.attach_body) over
gs_specAttachSite: the child is copied (it is left as it was, unlike MuJoCo, whose attach moves
the child's elements), with its assets, the tendons, actuators, sensors, equalities, pairs and
exclusions naming only copied elements, its keyframes, custom data and its own compiler settings
for what it brings; names take prefix and suffix. A gauss spec keeps no frames (MJCF's <frame> is
resolved when read), so the place is a site."""

import ctypes

from . import _lib


def _enc(s):
    return None if s is None else str(s).encode()


def _attach(spec, site, child, body, prefix, suffix):
    from ._spec import Element, Spec, SpecError
    if not isinstance(child, Spec):
        raise SpecError("attach: the child must be a gauss.Spec")
    if child is spec:
        raise SpecError("attach: a spec cannot attach itself (attach a copy)")
    if isinstance(site, str):
        name, site = site, spec.site(site)
        if site is None:
            raise SpecError(f"attach: no site named {name!r}")
    if not isinstance(site, Element) or site._kind != _lib.GS_SK_SITE or site._spec is not spec:
        raise SpecError("attach: site must be a site of this spec")
    err = ctypes.create_string_buffer(1000)
    ok = _lib.gs_specAttachSite(spec._ptr, site._addr(), child._ptr, body._addr() if body else None,
                                _enc(prefix), _enc(suffix), err, len(err))
    if not ok:
        raise SpecError(err.value.decode(errors="replace") or "attach failed")


def spec_attach(self, child, prefix=None, suffix=None, site=None, frame=None):
    """Copy the contents of child's world body to `site` (a site of this spec, or its name), as
    MuJoCo's spec.attach(child, prefix=, suffix=, site=). `frame=` is not available: a gauss spec
    keeps no frames. Returns None (MuJoCo returns the frame it makes)."""
    from ._spec import SpecError
    if frame is not None:
        raise SpecError("attach: a gauss spec keeps no frames; attach at a site (site=)")
    if site is None:
        raise SpecError("attach: one of frame or site must be specified")
    _attach(self, site, child, None, prefix, suffix)


def site_attach_body(self, body, prefix=None, suffix=None):
    """Copy `body` (a body of another spec, with its subtree) to this site, as MuJoCo's
    site.attach_body(body, prefix, suffix); returns the copy (an element of this site's spec)."""
    from ._spec import Element, SpecError
    if self._kind != _lib.GS_SK_SITE:
        raise SpecError("attach_body: only sites (in a gauss spec) take attached bodies")
    if not isinstance(body, Element) or body._kind != _lib.GS_SK_BODY or body.parent is None:
        raise SpecError("attach_body: body must be a body (not the world) of another spec")
    spec = self._spec
    holder = self.parent
    before = {b._ptr for b in holder.bodies}
    _attach(spec, self, body._spec, body, prefix, suffix)
    made = [b for b in holder.bodies if b._ptr not in before]
    return made[0] if made else None
