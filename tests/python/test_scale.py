"""Memory that grows with the model, not with nv^2 (src/model/capacity.c), and assets too large for a
model refused by name and line.

A scene of 10^4 free spheres on a plane (nv = 60000): the arena sized by the old formula, whose
terms held four nv x nv matrices, would be 4 * 8 * nv^2 bytes = 115 GB (107 GiB); the capacities now follow the
trees and the contact capacity. The compile's inverse weights at qpos0 are solved tree by tree (a
solve over all nv dofs per dof took 38 s for this scene; now a fraction of a second, which this
test does not time: the suite's own duration would show a return to nv^2)."""

import numpy as np
import pytest

import gauss


def spheres(n, radius=0.1, spacing=0.25):
    bodies = "".join(f'<body pos="{spacing * i} {spacing * j} {radius}"><freejoint/>'
                     f'<geom size="{radius}"/></body>' for i in range(n) for j in range(n))
    return f'<mujoco><worldbody><geom type="plane" size="0 0 1"/>{bodies}</worldbody></mujoco>'


def test_ten_thousand_free_spheres():
    m = gauss.Model.from_xml_string(spheres(100))
    d = gauss.Data(m)
    nv = m.nv
    assert nv == 60000
    old_nv2_terms = 4 * 8 * nv * nv
    print(f"\nnv {nv}: arena {d.narena / 2**20:.0f} MB, constraint rows {m.nefcmax}, J non-zeros "
          f"{m.nJmax}; the old formula's nv^2 terms alone: {old_nv2_terms / 2**30:.0f} GB")
    # linear in the model: a few dozen reals per constraint row, Jacobian non-zero and dof (the
    # capacity's terms: PGS's Y by rows with its runs, a dozen vectors per row and per dof,
    # Newton's blocks per tree), far from nv^2
    assert d.narena < 64 * 8 * (m.nefcmax + m.nJmax + nv)
    assert d.narena < old_nv2_terms / 100
    gauss.step(m, d, nstep=10)
    # every sphere rests on the plane: one contact each, the penetration of a soft contact at rest
    # (about 3.4e-4 for the default solref and solimp under gravity), no warning
    assert d.ncon == 10000
    z = d.qpos[2::7]
    assert np.all(np.abs(z - 0.1) < 1e-3), (z.min(), z.max())
    assert all(w.number == 0 for w in d.warning)


def test_height_field_too_large():
    xml = """<mujoco>
  <asset>
    <hfield name="h" nrow="100000" ncol="100000" size="1 1 1 1"/>
  </asset>
  <worldbody><geom type="hfield" hfield="h"/></worldbody>
</mujoco>"""
    with pytest.raises(gauss.GaussError) as e:
        gauss.Model.from_xml_string(xml)
    msg = str(e.value)
    assert "<string>:3:" in msg and "hfield" in msg and "100000 x 100000" in msg, msg


PILE = open(__import__("os").path.join(__import__("os").path.dirname(__file__), "..", "..", "bench",
                                        "models", "pile100.xml")).read()


def with_size(xml, size):
    return xml.replace("<worldbody>", f"<size {size}/><worldbody>", 1)


def test_size_memory_and_the_cg_fallback():
    """<size memory> sizes the arena. The 100-body pile with 150 KB: the solver's vectors fit, but
    not Newton's Hessian, so each island is solved by CG (the arena's warning counts each step)
    and the pile rests as with the compiler's arena, to the solvers' tolerance; with 40 KB not even
    the vectors fit and the bodies fall through the floor, which the warning also reports."""
    ref = gauss.Model.from_xml_string(PILE)
    rd = gauss.Data(ref)
    gauss.step(ref, rd, nstep=100)
    assert all(w.number == 0 for w in rd.warning)
    m = gauss.Model.from_xml_string(with_size(PILE, 'memory="150K"'))
    d = gauss.Data(m)
    assert d.narena == 150 * 1024
    gauss.step(m, d, nstep=100)
    assert d.warning[gauss.WARN_ARENAFULL].number == 100
    assert np.abs(d.qpos - rd.qpos).max() < 1e-3
    small = gauss.Model.from_xml_string(with_size(PILE, 'memory="40K"'))
    sd = gauss.Data(small)
    gauss.step(small, sd, nstep=100)
    assert sd.warning[gauss.WARN_ARENAFULL].number >= 100
    assert sd.qpos[2::7].min() < -0.1


def test_size_nconmax_njmax():
    m = gauss.Model.from_xml_string(with_size(PILE, 'nconmax="5"'))
    d = gauss.Data(m)
    assert m.nconmax == 5
    gauss.forward(m, d)
    assert d.ncon == 5 and d.warning[gauss.WARN_CONTACTFULL].number >= 1
    m = gauss.Model.from_xml_string(with_size(PILE, 'njmax="40"'))
    assert m.nefcmax == 40
    d = gauss.Data(m)
    gauss.forward(m, d)
    assert d.nefc <= 40 and d.warning[gauss.WARN_CNSTRFULL].number >= 1
    with pytest.raises(gauss.GaussError, match="cannot both be given"):
        gauss.Model.from_xml_string(with_size(PILE, 'njmax="40" memory="1M"'))


def test_sized_model_through_binary():
    """a model whose capacities <size> set (not the compiler's) saves and loads as it is"""
    m = gauss.Model.from_xml_string(with_size(PILE, 'memory="3M" nconmax="77"'))
    b = gauss.Model.from_binary(m.to_binary())
    assert (b.nconmax, gauss.Data(b).narena) == (77, 3 * 2**20)
