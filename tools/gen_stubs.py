"""Write python/gauss/__init__.pyi, the type stubs of the gauss package, from the package itself.

    PYTHONPATH=python python tools/gen_stubs.py [--check]

Every public name (gauss.__all__) gets a stub: constants with their type, functions and classes
with their signatures and docstrings; Model and Data list their sizes and every array field with
its dtype, shape and units (gauss.field_doc). --check compares with the file instead of writing
it and exits 1 when it is out of date (tests/python/test_surface.py runs it).
"""

import argparse
import inspect
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))

import gauss  # noqa: E402

OUT = os.path.join(ROOT, "python", "gauss", "__init__.pyi")


def _doc(obj, indent):
    doc = inspect.getdoc(obj)
    if not doc:
        return ""
    doc = doc.replace("\\", "\\\\").replace('"""', "'''")
    pad = " " * indent
    return f'{pad}"""' + doc.replace("\n", "\n" + pad).replace(pad + "\n", "\n") + '"""\n'


def _signature(fn, method=False):
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return "(self, *args: Any, **kwargs: Any)" if method else "(*args: Any, **kwargs: Any)"
    parts = []
    for p in sig.parameters.values():
        text = p.name
        if p.kind is p.VAR_POSITIONAL:
            text = "*" + text
        elif p.kind is p.VAR_KEYWORD:
            text = "**" + text
        if p.default is not p.empty:
            default = p.default if isinstance(p.default, (int, float, str, bool, type(None))) else ...
            text += f"={default!r}"
        parts.append(text)
    return "(" + ", ".join(parts) + ")"


def _function(name, fn, indent=0, method=False):
    pad = " " * indent
    out = f"{pad}def {name}{_signature(fn, method)}: \n"
    body = _doc(fn, indent + 4)
    return out.rstrip() + ("\n" + body if body else " ...\n")


def _class(name, cls):
    bases = [b.__name__ for b in cls.__bases__ if b is not object and not b.__name__.startswith("_")]
    base_text = ""
    if bases:
        base_text = "(" + ", ".join(("numpy." + b) if b == "ndarray" else b for b in bases) + ")"
    out = f"class {name}{base_text}:\n"
    if inspect.getdoc(cls):
        # Model's and Data's field tables are written below, one attribute per field
        doc = inspect.getdoc(cls).split("\n\nArrays (views")[0]
        out += _doc(type("_", (), {"__doc__": doc}), 4)
    body = []
    if cls in (gauss.Model, gauss.Data):
        owner = "model" if cls is gauss.Model else "data"
        if cls is gauss.Model:
            m = gauss.Model.from_xml_string(gauss._DOC_XML)
            for size in m.size_names():
                body.append(f"    {size}: int\n")
        docs = gauss._field_docs()
        for key, text in docs.items():
            kind, field = key.split(".", 1)
            if kind == owner and not hasattr(cls, field):
                body.append(f"    {field}: numpy.ndarray\n    \"\"\"{text[len(owner) + 1:]}\"\"\"\n")
        for alias in gauss.OBJECT_KINDS:
            body.append(f"    def {alias}(self, key: int | str) -> Any:\n"
                        + _doc(getattr(cls, alias), 8))
    members = {}
    for klass in reversed(cls.__mro__):  # inherited methods of gauss's private bases too
        if klass.__module__.startswith("gauss"):
            members.update(vars(klass))
    for attr, value in sorted(members.items()):
        if attr.startswith("_") and attr not in ("__init__",):
            continue
        if attr in gauss.OBJECT_KINDS and cls in (gauss.Model, gauss.Data):
            continue
        if isinstance(value, property):
            body.append(f"    @property\n    def {attr}(self) -> Any:\n" + (_doc(value, 8) or "        ...\n"))
        elif isinstance(value, (classmethod, staticmethod)):
            deco = "classmethod" if isinstance(value, classmethod) else "staticmethod"
            fn = value.__func__
            body.append(f"    @{deco}\n" + _function(attr, fn, 4, method=True))
        elif inspect.isfunction(value):
            body.append(_function(attr, value, 4, method=True))
        elif not callable(value) and not attr.startswith("_"):
            body.append(f"    {attr}: {type(value).__name__}\n")
    return out + ("".join(body) if body else "    ...\n")


def generate():
    lines = ['"""Type stubs of gauss, written by tools/gen_stubs.py from the package: do not edit."""\n',
             "\nfrom typing import Any\n\nimport numpy\n\n"]
    lines.append(f"__all__: list[str]\n__version__: str\n\n")
    for name in sorted(gauss.__all__):
        value = getattr(gauss, name)
        if inspect.isclass(value):
            lines.append("\n" + _class(name, value) + "\n")
        elif callable(value):
            lines.append("\n" + _function(name, value) + "\n")
        else:
            lines.append(f"{name}: {type(value).__name__}\n")
    return "".join(lines).replace("\n\n\n\n", "\n\n\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args()
    text = generate()
    if args.check:
        with open(OUT) as f:
            if f.read() != text:
                print(f"{OUT} is out of date: run tools/gen_stubs.py", file=sys.stderr)
                return 1
        return 0
    with open(OUT, "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
