"""The layering of the sources (docs/architecture.md, "Layers").

    python3 tests/check_layers.py SRC_DIR "OBJECT;OBJECT;..."

1. Each folder of SRC_DIR includes only the folders it may (LAYERS below, the table of the docs):
   a stage never includes a stage after it, and src/core includes none.
2. No call circles between the library's files: in the graph where file A points to file B when A
   calls (or reads) a global symbol that B defines, taken from the object files with nm, no two
   files reach each other. A group's main file calls its slices; what both need lives in the
   group's *_util.c.
Run by ctest (CMakeLists.txt) on the objects of the build.
"""

import collections
import glob
import os
import re
import subprocess
import sys

LAYERS = {
    "core": set(),
    "dynamics": {"core"},
    "collision": {"core"},
    "constraint": {"core", "dynamics"},
    "solver": {"core", "dynamics", "constraint"},
    "sensor": {"core", "dynamics", "collision", "constraint"},
    "inverse": {"core", "dynamics", "constraint"},
    "pipeline": {"core", "dynamics", "constraint", "solver", "sensor", "inverse"},
    "model": {"core", "dynamics", "pipeline"},
    "mjcf": {"core", "model"},
    # the renderer (its own library, libgauss_render) reads models and data through the public
    # headers only
    "render": set(),
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/')


def include_problems(src):
    problems = []
    for path in sorted(glob.glob(os.path.join(src, "*", "*.[ch]"))):
        folder = os.path.basename(os.path.dirname(path))
        allowed = LAYERS.get(folder)
        if allowed is None:
            problems.append(f"{path}: folder {folder} has no place in the layers")
            continue
        for no, line in enumerate(open(path), 1):
            m = INCLUDE.match(line)
            if m and m.group(1) not in allowed | {folder, "gauss"}:
                problems.append(f"{path}:{no}: {folder} includes {m.group(1)}")
    return problems


def call_graph(objects):
    defs, uses = {}, collections.defaultdict(set)
    for obj in objects:
        name = re.sub(r"\.c\.o$|\.o$", "", obj)
        name = name[name.rfind("src/"):] if "src/" in name else os.path.basename(name)
        out = subprocess.run(["nm", obj], check=True, capture_output=True, text=True).stdout
        for line in out.splitlines():
            p = line.split()
            if len(p) == 3 and p[1] in "TDBRV":
                defs[p[2]] = name
            elif len(p) == 2 and p[0] == "U":
                uses[name].add(p[1])
    graph = collections.defaultdict(set)
    for f, symbols in uses.items():
        for s in symbols:
            if s in defs and defs[s] != f:
                graph[f].add(defs[s])
    return graph


def circles(graph):
    """strongly connected components of more than one file (Tarjan's algorithm, iterative)"""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def main():
    src, objects = sys.argv[1], [o for o in sys.argv[2].split(";") if o]
    problems = include_problems(src)
    if len(objects) < 20:
        problems.append(f"only {len(objects)} object files given")
    for comp in circles(call_graph(objects)):
        problems.append("call circle: " + " <-> ".join(comp))
    for p in problems:
        print(p)
    print(f"layers: {len(objects)} object files, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
