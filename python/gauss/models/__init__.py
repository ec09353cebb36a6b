"""Models shipped with the package (path("double_pendulum.xml"))."""

import os

__all__ = ["path", "names"]


def path(name):
    """Full path of a shipped model file."""
    full = os.path.join(os.path.dirname(os.path.abspath(__file__)), name)
    if not os.path.exists(full):
        raise FileNotFoundError(f"no shipped model {name!r}; there are: {', '.join(names())}")
    return full


def names():
    return sorted(f for f in os.listdir(os.path.dirname(os.path.abspath(__file__)))
                  if f.endswith(".xml"))
