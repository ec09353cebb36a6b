"""Stage-by-stage instruction counts of gauss against MuJoCo from callgrind profiles of the two
engines' steps (bench/cg_step.c's recipe: one profile per engine and model), as a Markdown table
of millions, gauss (MuJoCo):

    valgrind --tool=callgrind --collect-atstart=no --toggle-collect=gs_step \\
        --callgrind-out-file=/tmp/g_hum.out /tmp/cg_step g MODEL.xml 200 smooth
    valgrind --tool=callgrind --collect-atstart=no --toggle-collect=mj_step \\
        --callgrind-out-file=/tmp/m_hum.out /tmp/cg_step m MODEL.xml 200 smooth
    python3 bench/cg_stages.py humanoid=/tmp/g_hum.out,/tmp/m_hum.out [NAME=G,M ...]

Counts are inclusive (a stage with what it calls). MuJoCo inlines mj_factorM and
mj_fwdAcceleration into their callers, so those rows read 0 on its side; "factor, all" and
"solve, all" gather every factor and solve in M's pattern outside the constraint solver
(MuJoCo's mj_factorI and mj_solveLD, gauss's factor_trees and gs_solveLTDLRange)."""
import re
import subprocess
import sys

# (row, gauss function, MuJoCo function)
STAGES = [
    ("step", "gs_step", "mj_step"),
    ("position stage", "position_stage", "mj_fwdPosition"),
    ("velocity stage", "gs_fwdVelocity", "mj_fwdVelocity"),
    ("kinematics", "gs_kinematicsPart", "mj_kinematics"),
    ("comPos", "gs_comPos", "mj_comPos"),
    ("crb", "gs_crb", "mj_crb"),
    ("factor of M", "gs_factorM", "mj_factorM"),
    ("factor, all", "factor_trees", "mj_factorI"),
    ("solve, all", "gs_solveLTDLRange", "mj_solveLD"),
    ("tendon", "gs_tendon", "mj_tendon"),
    ("transmission", "gs_transmissionAll", "mj_transmission"),
    ("comVel", "gs_comVel", "mj_comVel"),
    ("passive", "gs_passive", "mj_passive"),
    ("rne", "gs_rne", "mj_rne"),
    ("actuation", "gs_fwdActuation", "mj_fwdActuation"),
    ("acceleration", "gs_fwdAcceleration", "mj_fwdAcceleration"),
    ("constraint solve", "gs_fwdConstraintKept", "mj_fwdConstraint"),
    ("constraint rows", "gs_makeConstraint", "mj_makeConstraint"),
    ("impedance", "gs_makeImpedance", "mj_makeImpedance"),
    ("islands", "gs_island", "mj_island"),
    ("PGS projection", "", "mj_projectConstraint"),
    ("Euler", "euler", "mj_EulerSkip"),
    ("RK4", "rk4", "mj_RungeKutta"),
    ("position sensors", "gs_sensorPos", "mj_sensorPos"),
]


def counts(path, inclusive=True):
    """function name (compiler suffixes such as .constprop.1 dropped) -> instruction count,
    inclusive or self, summed over its file entries; and the profile's total"""
    out = subprocess.run(["callgrind_annotate", "--inclusive=" + ("yes" if inclusive else "no"),
                          "--threshold=100", "--show=Ir", path],
                         capture_output=True, text=True, check=True).stdout
    found, total = {}, 0
    for line in out.splitlines():
        m = re.match(r"\s*([\d,]+)\s+\([^)]*\)\s+PROGRAM TOTALS", line)
        if m:
            total = int(m.group(1).replace(",", ""))
            continue
        m = re.match(r"\s*([\d,]+)\s+\([^)]*\)\s+\S*?:?([A-Za-z_][\w.]*)\s", line + " ")
        if m:
            name = m.group(2).split(".")[0]
            found[name] = found.get(name, 0) + int(m.group(1).replace(",", ""))
    return found, total


def inclusive(path):
    """function name -> inclusive instruction count (summed over its file entries)"""
    return counts(path)[0]


def main(args):
    if not args:
        sys.exit(__doc__)
    names, prof = [], []
    for a in args:
        name, files = a.split("=", 1)
        g, m = files.split(",")
        names.append(name)
        prof.append((inclusive(g), inclusive(m)))
    print("| stage | " + " | ".join(names) + " |")
    print("|---|" + "---:|" * len(names))
    for row, gf, mf in STAGES:
        cells = []
        for g, m in prof:
            cells.append("%.2f (%.2f)" % (g.get(gf, 0) / 1e6 if gf else 0, m.get(mf, 0) / 1e6))
        print("| %s | %s |" % (row, " | ".join(cells)))


if __name__ == "__main__":
    main(sys.argv[1:])
