"""The public surface of the package: only gauss's own names, __all__ complete, a docstring with
units and shape for every array field and one for every function, type stubs that list every
public name and are up to date with the package."""

import ast
import inspect
import os
import subprocess
import sys
import types

import numpy as np
import pytest

import gauss

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STUB = os.path.join(ROOT, "python", "gauss", "__init__.pyi")


# subpackages imported on demand (import gauss.gym, ...): they appear in the namespace once
# imported, and are not part of what `import gauss` gives
SUBMODULES = {"gym", "distributed", "models", "viewer"}


def public():
    return [n for n in dir(gauss) if not n.startswith("_") and n not in SUBMODULES]


def test_namespace_holds_only_gauss_names():
    for leaked in ("np", "numpy", "ctypes", "operator", "weakref", "difflib"):
        assert not hasattr(gauss, leaked), leaked
    for name in public():
        value = getattr(gauss, name)
        assert not isinstance(value, types.ModuleType), name
        if callable(value):
            assert value.__module__.startswith("gauss"), (name, value.__module__)
        else:  # constants: numbers, names, tables
            assert isinstance(value, (int, str, tuple, dict)), (name, type(value))


def test_all_lists_every_public_name():
    assert len(gauss.__all__) == len(set(gauss.__all__))
    assert set(gauss.__all__) == set(public())


def test_every_function_and_method_has_a_docstring():
    for name in public():
        value = getattr(gauss, name)
        if callable(value):
            assert (value.__doc__ or "").strip(), name
        if inspect.isclass(value) and value.__module__.startswith("gauss"):
            for attr, f in vars(value).items():
                if not attr.startswith("_") and (callable(f) or isinstance(f, property)):
                    assert (f.__doc__ or "").strip(), f"{name}.{attr}"


def test_every_array_field_has_units_and_shape():
    m = gauss.Model.from_xml_path(os.path.join(ROOT, "tests/models/mujoco/humanoid.xml"))
    d = gauss.Data(m)
    gauss.forward(m, d)
    for owner, obj in (("model", m), ("data", d)):
        for name in obj.field_names():
            doc = gauss.field_doc(f"{owner}.{name}")
            assert "units: " in doc and "array of shape (" in doc, doc
            info = obj._fieldinfo[name]
            rows = info[4]
            # the shape written is the view's: rows named by a size, columns as counted
            arr = getattr(obj, name)
            assert doc.split("shape (")[1].startswith(rows), (name, doc)
            if rows in m.size_names():
                assert arr.shape[0] == getattr(m, rows) or arr.size == 0, name
            if arr.ndim == 2:  # columns: a number, a size or a multiple of one
                cols = doc.split("shape (")[1].split(")")[0].split(", ")[1]
                k, _, size = cols.rpartition("*")
                n = int(size) if size.isdigit() else getattr(m, size)
                assert int(k or 1) * n == arr.shape[1], (name, doc)
            if info[0] == gauss.TYPE_REAL:
                assert "of this field" not in doc, f"{name}: no units family"
    for name in dir(d):
        if name.startswith("efc_") and name not in ("efc_J", "efc_J_dense"):
            assert "nefc" in gauss.field_doc(name)
    assert "units: kg" in gauss.field_doc("body_mass")
    assert "(nbody, 9)" in gauss.field_doc("xmat")
    with pytest.raises(KeyError, match="close names: 'qpos'"):
        gauss.field_doc("qpso")
    assert "qpos: float64 array of shape (nq,)" in gauss.Data.__doc__
    assert "body_mass: float64 array of shape (nbody,); units: kg" in gauss.Model.__doc__


def _stub_names():
    tree = ast.parse(open(STUB).read())
    top, members = set(), {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            top.add(node.name)
            if isinstance(node, ast.ClassDef):
                members[node.name] = {n.name if not isinstance(n, ast.AnnAssign) else n.target.id
                                      for n in node.body
                                      if isinstance(n, (ast.FunctionDef, ast.AnnAssign))}
        elif isinstance(node, ast.AnnAssign):
            top.add(node.target.id)
    return top, members


def test_stub_lists_every_public_name():
    top, members = _stub_names()
    assert set(public()) <= top, sorted(set(public()) - top)
    m = gauss.Model.from_xml_string("<mujoco/>")
    d = gauss.Data(m)
    assert set(m.field_names()) | set(m.size_names()) <= members["Model"]
    assert set(d.field_names()) <= members["Data"]
    assert {"efc_force", "efc_pos", "body", "joint", "qpos", "time", "contact"} <= members["Data"]
    assert {"name2id", "id2name", "contact_force", "UnknownNameError"} <= top


def test_stub_is_up_to_date():
    # the package's sources, with the library this process loaded (an installed package keeps
    # its libgauss.so beside itself, which the sources do not have)
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"),
               GAUSS_LIBRARY=os.path.abspath(gauss._lib.path))
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "gen_stubs.py"), "--check"],
                       env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_out_of_range_ids_raise_index_error():
    m = gauss.Model.from_xml_string(
        '<mujoco><worldbody><body name="b"><joint/><geom size=".1"/></body></worldbody></mujoco>')
    d = gauss.Data(m)
    gauss.forward(m, d)
    assert d.ncon == 0
    with pytest.raises(IndexError, match="d.ncon is 0"):
        gauss.contact_force(m, d, 0)
    with pytest.raises(IndexError, match="out of range"):
        gauss.id2name(m, gauss.OBJ_BODY, 2)
    with pytest.raises(IndexError, match="out of range"):
        gauss.jac_body(m, d, 5)
    with pytest.raises(IndexError, match="out of range"):
        gauss.reset_data_keyframe(m, d, 0)
    with pytest.raises(IndexError, match="out of range"):
        m.geom(1)
    with pytest.raises(IndexError, match="geom id 1 out of range: the model has 1"):
        gauss.geom_distance(m, d, 0, 1, 1.0)
    with pytest.raises(IndexError, match="bodyexclude 2 out of range"):
        gauss.ray(m, d, [0, 0, 1], [0, 0, -1], bodyexclude=2)
    # in range, the same calls answer
    dist, geom = gauss.ray(m, d, [0, 0, 1], [0, 0, -1], bodyexclude=-1)
    assert geom == 0 and np.isclose(dist, 0.9)
