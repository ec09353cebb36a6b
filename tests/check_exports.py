"""The library exports its API and nothing else.

    python3 tests/check_exports.py LIBGAUSS.so LIBGAUSS.a INCLUDE_DIR
    python3 tests/check_exports.py LIBGAUSS_RENDER.so LIBGAUSS_RENDER.a INCLUDE_DIR --only render.h

The API is what the headers of INCLUDE_DIR declare with GS_API (include/gauss/export.h). Checks:
every function or object declared in a public header carries GS_API; the shared library's
dynamic symbol table defines exactly the API (a function missing from it, or one internal
function leaking into it, fails); in the static library every global symbol outside the API is
hidden, so a program linking it statically sees the same interface. Run by ctest (CMakeLists.txt).
The renderer's header (render.h) belongs to its own library, libgauss_render: it is checked with
--only render.h, and left out of libgauss's check.
"""

import glob
import os
import re
import subprocess
import sys

# a declaration at the start of a line: return type, then gs_name( or gs_name[
DECL = re.compile(r"^(GS_API\s+)?(?:extern\s+)?(?:const\s+)?[A-Za-z_]\w*[\s*]+(?:const[\s*]+)*"
                  r"(gs_\w+)\s*[(\[]")
# symbols a toolchain adds on its own (sanitizer and runtime bookkeeping, _init/_fini)
TOOLCHAIN = re.compile(r"^(__|_init$|_fini$|_end$|_edata$|_bss_start$)")


# headers of the libraries built beside libgauss
SEPARATE = ("render.h",)


def declared(include_dir, only=None):
    api, unmarked = set(), []
    for path in sorted(glob.glob(os.path.join(include_dir, "*.h"))):
        name = os.path.basename(path)
        if (only is not None and name != only) or (only is None and name in SEPARATE):
            continue
        for no, line in enumerate(open(path), 1):
            if line.startswith(("static", "typedef", "#", " ", "\t", "}", "/")):
                continue
            m = DECL.match(line)
            if not m:
                continue
            if m.group(1):
                api.add(m.group(2))
            else:
                unmarked.append(f"{os.path.basename(path)}:{no}: {m.group(2)} has no GS_API")
    return api, unmarked


def shared_exports(lib):
    out = subprocess.run(["nm", "-D", "--defined-only", lib], check=True, capture_output=True,
                         text=True).stdout
    return {p[2] for p in (l.split() for l in out.splitlines()) if len(p) == 3 and
            not TOOLCHAIN.match(p[2])}


def static_visible(archive):
    """global symbols defined in the archive with default visibility"""
    out = subprocess.run(["readelf", "-sW", archive], check=True, capture_output=True,
                         text=True).stdout
    names = set()
    for line in out.splitlines():
        p = line.split()
        # Num: Value Size Type Bind Vis Ndx Name
        if len(p) == 8 and p[4] in ("GLOBAL", "WEAK") and p[5] == "DEFAULT" and p[6] != "UND":
            if not TOOLCHAIN.match(p[7]):
                names.add(p[7])
    return names


def main():
    lib, archive, include_dir = sys.argv[1:4]
    only = sys.argv[5] if len(sys.argv) > 5 and sys.argv[4] == "--only" else None
    api, unmarked = declared(include_dir, only)
    problems = list(unmarked)
    if len(api) < (50 if only is None else 1):
        problems.append(f"only {len(api)} declarations found in {include_dir}: is the pattern stale?")
    exported = shared_exports(lib)
    problems += [f"{lib}: exports {s}, which no public header declares" for s in sorted(exported - api)]
    problems += [f"{lib}: does not export {s}" for s in sorted(api - exported)]
    visible = static_visible(archive)
    problems += [f"{archive}: {s} is visible, but no public header declares it"
                 for s in sorted(visible - api)]
    for p in problems:
        print(p)
    print(f"exports: {len(api)} declared, {len(exported)} exported by the shared library, "
          f"{len(visible)} visible in the static one; {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
