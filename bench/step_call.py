import timeit, gauss, mujoco
xml='<mujoco><worldbody><body><freejoint/><geom size="0.1"/></body></worldbody></mujoco>'
gm=gauss.Model.from_xml_string(xml); gd=gauss.Data(gm)
mm=mujoco.MjModel.from_xml_string(xml); md=mujoco.MjData(mm)
for r in range(3):
    g=min(timeit.repeat(lambda: gauss.step(gm,gd), number=20000, repeat=5))/20000*1e6
    m=min(timeit.repeat(lambda: mujoco.mj_step(mm,md), number=20000, repeat=5))/20000*1e6
    print(f"gauss {g:.2f} us  mujoco {m:.2f} us  ratio {g/m:.2f}")
