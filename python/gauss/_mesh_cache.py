"""The process-wide cache of mesh files (gs_meshCacheSize ... in gauss.h): every loader keeps the
meshes it builds from files, keyed by the files' contents and the meshes' attributes, so that
loading the same model again skips decoding, the convex hull and the inertia. MuJoCo's
mj_getCacheSize / mj_setCacheCapacity / mj_clearCache are the counterparts."""

from . import _lib

__all__ = ["mesh_cache_size", "mesh_cache_capacity", "set_mesh_cache_capacity", "clear_mesh_cache"]


def mesh_cache_size():
    """Bytes the mesh cache holds now."""
    return int(_lib.gs_meshCacheSize())


def mesh_cache_capacity():
    """The mesh cache's capacity in bytes (500 MB at start)."""
    return int(_lib.gs_meshCacheCapacity())


def set_mesh_cache_capacity(nbytes):
    """Set the mesh cache's capacity in bytes (0 turns it off); least recently used meshes go first
    past it. Returns the new capacity."""
    return int(_lib.gs_setMeshCacheCapacity(int(nbytes)))


def clear_mesh_cache():
    """Empty the mesh cache (the next load builds every mesh file again)."""
    _lib.gs_clearMeshCache()
