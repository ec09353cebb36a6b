"""The interactive viewer (gauss.viewer) under Xvfb: it opens, shows the simulation, answers
scripted keys (pause, single step, reset) and mouse drags (a pulled body moves towards the
cursor), and a missing display is a clear error. Needs Xvfb (scripts/setup.sh installs it)."""

import os
import shutil
import subprocess
import time

import numpy as np
import pytest

import gauss
import gauss.viewer

# shadow maps of 1024 (MJCF's default is 4096): the drag test draws 500 frames, and on a software
# rasterizer the default maps cost most of each frame; what is tested here is not the shadows
XML = """
<mujoco>
  <option gravity="0 0 0"/>
  <visual><quality shadowsize="1024"/></visual>
  <worldbody>
    <light pos="0 0 3" dir="0 0 -1"/>
    <geom type="plane" size="2 2 .1" rgba=".4 .4 .4 1" pos="0 0 -.5"/>
    <body name="ball"><freejoint/><geom type="sphere" size=".15" rgba="1 .2 .2 1"/></body>
  </worldbody>
  <keyframe><key qpos=".3 0 0 1 0 0 0"/></keyframe>
</mujoco>
"""
W, H = 160, 120


@pytest.fixture(scope="module")
def display():
    xvfb = shutil.which("Xvfb")
    assert xvfb, "Xvfb not found: scripts/setup.sh installs it (Debian: xvfb)"
    for n in range(91, 200):
        if not os.path.exists(f"/tmp/.X11-unix/X{n}") and not os.path.exists(f"/tmp/.X{n}-lock"):
            break
    proc = subprocess.Popen([xvfb, f":{n}", "-screen", "0", "320x240x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        if os.path.exists(f"/tmp/.X11-unix/X{n}"):
            break
        time.sleep(0.05)
    old = os.environ.get("DISPLAY")
    os.environ["DISPLAY"] = f":{n}"
    yield f":{n}"
    if old is None:
        del os.environ["DISPLAY"]
    else:
        os.environ["DISPLAY"] = old
    proc.terminate()
    proc.wait(timeout=10)


def _model():
    m = gauss.Model.from_xml_string(XML)
    d = gauss.Data(m)
    gauss.forward(m, d)
    return m, d


def test_missing_display_is_an_error(monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    m, d = _model()
    with pytest.raises(RuntimeError, match="no display"):
        gauss.viewer.launch_passive(m, d)


def test_viewer_shows_steps_and_resets(display):
    m, d = _model()
    d.qvel[0] = 0.5  # drifts along x
    with gauss.viewer.launch_passive(m, d, W, H) as v:
        assert v.is_running()
        assert v.sync()
        shot = v.screenshot()
        assert shot.shape == (H, W, 3)
        # the red ball and the grey floor are both in the picture
        red = (shot[..., 0] > shot[..., 1] + 60).sum()
        assert red > 50 and len(np.unique(shot.reshape(-1, 3), axis=0)) > 20
        # pause, then one step per right arrow
        v.key(" ")
        assert v.state.paused == 1
        t0 = d.time
        assert gauss.viewer.step_for(v, m, d, 0.5, gauss.step, gauss.reset_data) == 0
        v.key("right")
        v.key("right")
        assert gauss.viewer.step_for(v, m, d, 0.5, gauss.step, gauss.reset_data) == 2
        assert d.time == pytest.approx(t0 + 2 * m.opt.timestep)
        # running again: the speed's share of the wall time
        v.key(" ")
        n = gauss.viewer.step_for(v, m, d, 0.1, gauss.step, gauss.reset_data)
        assert n == pytest.approx(0.1 / m.opt.timestep, abs=1)
        v.key("=")
        assert v.state.speed == 2
        # reset
        v.key("backspace")
        gauss.viewer.step_for(v, m, d, 0.0, gauss.step, gauss.reset_data)
        assert d.time == 0 and v.state.reset == 0
        v.key("escape")
        assert not v.is_running()


def test_dragging_pulls_the_body(display):
    m, d = _model()
    with gauss.viewer.launch_passive(m, d, W, H) as v:
        v.sync()
        # a pixel of the ball from the viewer's own camera (its default free camera)
        with gauss.Renderer(m, H, W) as r:
            r.enable_segmentation_rendering()
            r.update_scene(d, camera=-1)
            seg = r.render()
        ys, xs = np.nonzero((seg[..., 0] == 1) & (seg[..., 1] == 5))
        x0, y0 = float(xs.mean()), float(ys.mean())
        ctrl = 0x0002
        v.mouse(0, 1, x0, y0, ctrl)
        assert v.state.perturb_body == 1
        v.mouse(-1, 2, x0 + 40, y0)   # drag to the right

        def grabbed():
            local = np.array(v.state.perturb_local)
            return d.xpos[1] + d.xmat[1].reshape(3, 3) @ local

        start = grabbed()
        target = np.array(v.state.perturb_target)
        for _ in range(500):
            v.sync()
            assert np.abs(d.xfrc_applied[1, :3]).max() > 0
            gauss.step(m, d)
            gauss.forward(m, d)
        moved = grabbed() - start
        # the free camera looks along +y (azimuth 90, elevation -45): screen right is world +x;
        # 40 pixels there are 40 * 2 z tan(22.5 deg) / H metres at the grabbed point's view depth z
        # (the ball spins as it is pulled at its surface: the grabbed point follows the cursor)
        cam = v.state.free
        fwd = np.array([0, np.cos(np.radians(cam.elevation)), np.sin(np.radians(cam.elevation))])
        campos = np.array(cam.lookat) - cam.distance * fwd
        z = (start - campos) @ fwd
        expect = 40 * 2 * z * np.tan(np.radians(22.5)) / H
        assert target[0] - start[0] == pytest.approx(expect, rel=1e-6)
        assert moved[0] == pytest.approx(expect, rel=0.05), moved
        assert abs(moved[1]) + abs(moved[2]) < 0.05 * expect, moved
        v.mouse(0, 0, x0 + 40, y0)
        v.sync()
        assert v.state.perturb_body == -1
        assert np.all(d.xfrc_applied[1] == 0)


def test_launch_simulates_in_real_time(display):
    m, d = _model()
    d.qvel[0] = 0.5
    t0 = time.perf_counter()
    gauss.viewer.launch(m, d, W, H, max_seconds=0.5)
    wall = time.perf_counter() - t0
    assert 0.3 < d.time <= wall + 0.1


def test_toggles_keyframes_and_tracking(display):
    m, d = _model()
    with gauss.viewer.launch_passive(m, d, W, H) as v:
        v.sync()
        before = v.screenshot()
        v.key("e")  # body frames on: the picture changes
        v.sync()
        assert (v.screenshot() != before).any(axis=-1).sum() > 20
        v.key("e")
        v.sync()
        np.testing.assert_array_equal(v.screenshot(), before)
        # text over the image's top left (white dots), which h hides
        v.sync("t = 1.00 s\nsolver iterations 3")
        text = v.screenshot()
        changed = (text != before).any(axis=-1)
        assert changed[:30, :90].sum() > 50 and not changed[H // 2:].any()
        assert (text[:30, :90] >= 240).all(axis=-1).sum() > 20
        v.key("h")
        v.sync("t = 1.00 s")
        # the text and the speed slider (the image's bottom rows) hidden
        x0, y0, w, h = v.state.slider
        hidden = v.screenshot()
        np.testing.assert_array_equal(hidden[:y0 - 1], before[:y0 - 1])
        assert not (hidden[y0:y0 + h, x0:x0 + w] >= 230).all(axis=-1).any()
        v.key("h")
        # page up chooses the keyframe, backspace loads it
        v.key("pageup")
        assert v.state.keyframe == 0
        v.key("backspace")
        gauss.viewer.step_for(v, m, d, 0.0, gauss.step, gauss.reset_data, gauss.reset_data_keyframe)
        assert d.qpos[0] == 0.3
        v.key("pageup")
        assert v.state.keyframe == -1  # past the last keyframe: the default state again
        # ctrl + right click on the ball tracks it: the camera follows its centre of mass
        gauss.forward(m, d)
        v.sync()
        with gauss.Renderer(m, H, W) as r:
            r.enable_segmentation_rendering()
            r.update_scene(d, camera=v.state.free)
            seg = r.render()
        ys, xs = np.nonzero((seg[..., 0] == 1) & (seg[..., 1] == 5))
        v.mouse(1, 1, float(xs.mean()), float(ys.mean()), 0x0002)
        v.mouse(1, 0, float(xs.mean()), float(ys.mean()), 0x0002)
        assert v.state.track_body == 1
        d.qpos[:3] = [0.5, -0.2, 0.1]
        gauss.forward(m, d)
        v.sync()
        np.testing.assert_allclose(list(v.state.free.lookat), [0.5, -0.2, 0.1], atol=1e-12)


def test_gymnasium_human_mode_shows_frames(display):
    """render_mode="human" draws each frame with gauss.Renderer and shows it with gauss.show_frame
    (a window of the frame's size)"""
    gymnasium = pytest.importorskip("gymnasium")
    import gauss.gym  # noqa: F401
    env = gymnasium.make("gauss/Hopper-v5", render_mode="human", width=W, height=H)
    env.reset(seed=0)
    env.step(env.action_space.sample())  # renders and shows
    window = gauss._render._frame_window
    assert window is not None and window[1] == (H, W)
    assert gauss.show_frame(np.zeros((H, W, 3), np.uint8))
    with pytest.raises(ValueError, match="height, width, 3"):
        gauss.show_frame(np.zeros((H, W)))
    env.close()


def test_speed_slider(display):
    """the speed slider at the bottom left (its box in the state): a left press on it sets the
    speed to 2^(12 f - 6) at the fraction f along it, a drag follows the cursor, the camera does
    not turn; the knob is drawn where the speed puts it; h hides it (and a press there then orbits)"""
    m, d = _model()
    with gauss.viewer.launch_passive(m, d, W, H) as v:
        v.sync()
        x0, y0, w, h = v.state.slider
        assert w > 20 and 0 <= y0 and y0 + h <= H
        cy = y0 + h // 2
        azimuth = v.state.free.azimuth
        v.mouse(0, 1, x0 + 0.75 * w, cy)           # press at three quarters: 2^3
        assert v.state.speed == pytest.approx(8)
        v.mouse(-1, 2, x0 + 0.25 * w, cy + 30)     # drag (off the bar vertically) to a quarter
        assert v.state.speed == pytest.approx(1 / 8)
        v.mouse(-1, 2, x0 - 50, cy)                # past the left end: the slowest
        assert v.state.speed == pytest.approx(1 / 64)
        v.mouse(-1, 2, x0 + 0.5 * w, cy)
        v.mouse(0, 0, x0 + 0.5 * w, cy)
        assert v.state.speed == pytest.approx(1) and v.state.free.azimuth == azimuth
        v.key("=")  # keys still double it
        assert v.state.speed == 2
        v.sync()
        shot = v.screenshot().astype(int)
        # the knob (light grey, 5 pixels wide) at f = (log2(2) + 6) / 12 along the bar
        knob = x0 + round(7 / 12 * w)
        row = shot[cy]
        bright = np.nonzero(row.min(axis=1) >= 230)[0]
        bright = bright[(bright >= x0 - 3) & (bright <= x0 + w + 3)]
        assert bright.min() == knob - 2 and bright.max() == knob + 2, bright
        # left of the knob the bar is filled (blue), right of it not
        assert row[knob - 8, 2] > row[knob - 8, 0] + 100 and abs(row[knob + 8, 2] - row[knob + 8, 0]) < 5
        # hidden with the text: a press there orbits the camera instead
        v.key("h")
        v.mouse(0, 1, x0 + 0.75 * w, cy)
        v.mouse(-1, 2, x0 + 0.75 * w + 20, cy)
        v.mouse(0, 0, x0 + 0.75 * w + 20, cy)
        assert v.state.speed == 2 and v.state.free.azimuth != azimuth
