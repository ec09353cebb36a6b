"""No silent omission: valid MJCF (MuJoCo 3.3.7 loads each model here) that changes what MuJoCo
computes but that gauss does not simulate is named in the load warnings, with the file, the line
and the element or attribute; a construct gauss cannot build at all is a compile error saying so.

Left out here, because they are being made simulated in the same release: actuator forces,
tendon stiffness/damping/armature, gravity compensation, fluid forces, sensor values and
actuatorgroupdisable (each has its own tests and, until then, its own warning).

Negative controls: the same settings at their simulated values warn about nothing."""

import gauss
import mujoco
import pytest

BASE = """<mujoco>
  {top}
  <worldbody>
    <geom name="floor" type="plane" size="2 2 .1"/>
    <body name="b" pos="0 0 1">
      <joint name="j" axis="0 1 0"/>
      <geom name="g" size="0.1"/>
      {body}
    </body>
    {world}
  </worldbody>
  {bottom}
</mujoco>"""

MESH = '<asset><mesh name="m" vertex="0 0 0 1 0 0 0 1 0 0 0 1"/></asset>'

# (id, parts of BASE, the text the warning names, a word of the line it points at)
CASES = [
    # collision settings the engine does not follow (nativeccd="disable" is followed:
    # test_collision_legacy.py)
    ("sdf_iterations", dict(top='<option sdf_iterations="5"/>'), "'sdf_iterations' of <option>",
     "sdf_iterations"),
    # tree
    ("shellinertia", dict(body='<geom size="0.1" pos="0 .3 0" shellinertia="true"/>'),
     "'shellinertia' of <geom>", "shellinertia"),
    # elements
    ("flexcomp", dict(world='<flexcomp name="fc" type="grid" count="3 3 1" spacing="0.1 0.1 0.1" '
                            'dim="2" pos="0 0 2"/>'), "<flexcomp>", "flexcomp"),
    # the cable itself is simulated (test_composite.py); its elasticity plugin is not
    ("composite plugin", dict(top='<extension><plugin plugin="mujoco.elasticity.cable"/></extension>',
                              world='<body pos="1 0 1"><composite type="cable" curve="s 0 0" '
                                    'count="4 1 1" size="1" initial="none"><plugin '
                                    'plugin="mujoco.elasticity.cable"/><geom type="capsule" '
                                    'size=".01"/></composite></body>'),
     "<plugin>", "<plugin plugin=\"mujoco.elasticity.cable\"/><geom"),
    ("extension", dict(top='<extension><plugin plugin="mujoco.pid"/></extension>'), "<extension>",
     "extension"),
    ("actuator plugin", dict(top='<extension><plugin plugin="mujoco.pid"><instance name="pid">'
                                 '<config key="kp" value="1"/></instance></plugin></extension>',
                             bottom='<actuator><plugin joint="j" instance="pid"/></actuator>'),
     "<plugin>", "instance="),
    ("deformable", dict(bottom='<deformable><skin name="s" vertex="0 0 0 1 0 0 0 1 0" face="0 1 2">'
                               '<bone body="b" bindpos="0 0 0" bindquat="1 0 0 0" vertid="0 1 2" '
                               'vertweight="1 1 1"/></skin></deformable>'), "<deformable>",
     "deformable"),
    ("tactile", dict(top=MESH, bottom='<sensor><tactile geom="g" mesh="m"/></sensor>'),
     "<tactile>", "tactile"),
    ("equality flex", dict(world='<flexcomp name="fc" type="grid" count="3 3 1" '
                                 'spacing="0.1 0.1 0.1" dim="2" pos="0 0 2"><pin id="0"/></flexcomp>',
                           bottom='<equality><flex flex="fc"/></equality>'),
     "<flex>", "<flex "),
    ("sensor plugin", dict(top='<extension><plugin plugin="mujoco.sensor.touch_grid"/></extension>',
                           body='<site name="s"/>',
                           bottom='<sensor><plugin name="tg" plugin="mujoco.sensor.touch_grid" '
                                  'objtype="site" objname="s"><config key="size" value="7 7"/>'
                                  '<config key="fov" value="45 45"/><config key="gamma" value="0"/>'
                                  '<config key="nchannel" value="3"/></plugin></sensor>'),
     "<plugin>", "touch_grid\" objtype"),
]


def xml_of(parts):
    p = dict(top="", body="", world="", bottom="")
    p.update(parts)
    return BASE.format(**p)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_warned(case):
    _, parts, named, word = case
    xml = xml_of(parts)
    mujoco.MjModel.from_xml_string(xml)  # valid MJCF: MuJoCo 3.3.7 loads it
    m = gauss.Model.from_xml_string(xml)
    line = next(i for i, s in enumerate(xml.split("\n"), 1) if word in s)
    hits = [w for w in m.load_warnings if named in w]
    assert hits, m.load_warnings
    # the file ("<string>" for text) and the line of the element
    assert any(w.startswith(f"<string>:{line}:") for w in hits), (hits, line)


@pytest.mark.parametrize("setting", [
    '<option><flag nativeccd="enable" multiccd="enable" fwdinv="disable" '
    'invdiscrete="disable" midphase="disable"/></option>',
    '<compiler fusestatic="false" discardvisual="false" alignfree="false"/>',
    '<lengthrange mode="muscle"/>'.join(("<compiler>", "</compiler>")),
])
def test_simulated_values_are_quiet(setting):
    xml = xml_of(dict(top=setting))
    mujoco.MjModel.from_xml_string(xml)
    assert gauss.Model.from_xml_string(xml).load_warnings == []


@pytest.mark.parametrize("geom", ['<geom type="box" mesh="m" pos="0 .3 0"/>',
                                  '<geom type="capsule" mesh="m" fitscale="1.2" pos="0 .3 0"/>'])
def test_primitive_fitted_to_a_mesh_is_built_quietly(geom):
    # MJCF sizes the primitive from the mesh (test_mjcf_sweep_cases.py compares every type);
    # nothing is left to warn about, and the size is MuJoCo's
    xml = xml_of(dict(top=MESH, body=geom))
    mm = mujoco.MjModel.from_xml_string(xml)
    gm = gauss.Model.from_xml_string(xml)
    assert gm.load_warnings == []
    assert abs(gm.geom_size - mm.geom_size).max() < 1e-12
