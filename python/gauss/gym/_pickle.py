"""Pickling of the environments by their constructor arguments (Gymnasium's EzPickle)."""

from gymnasium.utils import EzPickle


def ezpickle(env, args):
    """Record the constructor's arguments `args` (its locals() on entry) for pickling."""
    kw = {k: v for k, v in args.items() if k not in ("self", "kwargs", "__class__")}
    kw.update(args.get("kwargs", {}))
    EzPickle.__init__(env, **kw)
