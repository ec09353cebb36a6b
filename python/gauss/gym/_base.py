"""The common part of the Gymnasium environments on gauss: a model loaded from an MJCF file,
one Data, frame skipping, the reset noise helpers and rendering through gauss.Renderer.

The semantics follow Gymnasium's MuJoCo v5 environments: one env step sets ctrl, runs frame_skip
physics steps and then the post-constraint pass (so that cfrc_ext and cacc describe the last
step), and dt = timestep * frame_skip."""

import os

import numpy as np
import gymnasium
from gymnasium import spaces
from gymnasium.utils import EzPickle

import gauss

DEFAULT_SIZE = 480
_RENDER_MODES = ["human", "rgb_array", "depth_array", "rgbd_tuple"]


def gymnasium_assets():
    """Folder of the MJCF files Gymnasium ships with its MuJoCo environments (found without
    importing gymnasium.envs.mujoco, which would import MuJoCo)."""
    return os.path.join(os.path.dirname(gymnasium.__file__), "envs", "mujoco", "assets")


def model_path(xml_file):
    """A path as given when it starts with '.', '/' or '~' (the last expanded), otherwise a file
    name in Gymnasium's assets folder: the same rule as Gymnasium's environments."""
    if xml_file.startswith((".", "/")):
        path = xml_file
    elif xml_file.startswith("~"):
        path = os.path.expanduser(xml_file)
    else:
        path = os.path.join(gymnasium_assets(), xml_file)
    if not os.path.exists(path):
        raise OSError(f"File {path} does not exist")
    return path


class GaussEnv(gymnasium.Env, EzPickle):
    """Base of the gauss environments. Subclasses define _get_obs, reset_model, _after_step (and
    _before_step when the reward needs a quantity from before the physics)."""

    metadata = {"render_modes": list(_RENDER_MODES)}

    def __init__(self, xml_file, frame_skip, observation_space, render_mode=None,
                 width=DEFAULT_SIZE, height=DEFAULT_SIZE, camera_id=None, camera_name=None,
                 default_camera_config=None, max_geom=1000, visual_options=None):
        if camera_id is not None and camera_name is not None:
            raise ValueError("camera_id and camera_name cannot both be given")
        if render_mode is not None and render_mode not in _RENDER_MODES:
            raise ValueError(f"render_mode {render_mode!r} is not one of {_RENDER_MODES}")
        self.fullpath = model_path(xml_file)
        self.width, self.height = int(width), int(height)
        self.model = gauss.Model.from_xml_path(self.fullpath)
        self.data = gauss.Data(self.model)
        self.init_qpos = self.data.qpos.ravel().copy()
        self.init_qvel = self.data.qvel.ravel().copy()
        self.frame_skip = int(frame_skip)
        self.metadata = {"render_modes": list(_RENDER_MODES),
                         "render_fps": int(np.round(1.0 / self.dt))}
        if observation_space is not None:
            self.observation_space = observation_space
        low, high = self.model.actuator_ctrlrange.copy().astype(np.float32).T
        self.action_space = spaces.Box(low=low, high=high, dtype=np.float32)
        self.render_mode = render_mode
        self.camera_id, self.camera_name = camera_id, camera_name
        self._camera_config = dict(default_camera_config or {})
        self._max_geom = max_geom
        self._visual_options = visual_options
        self._renderer = None
        self._free_camera = None

    # ---- simulation ----
    @property
    def dt(self):
        return self.model.opt.timestep * self.frame_skip

    def set_state(self, qpos, qvel):
        """Set qpos and qvel (other state as after reset) and run forward."""
        qpos, qvel = np.asarray(qpos), np.asarray(qvel)
        if qpos.shape != (self.model.nq,) or qvel.shape != (self.model.nv,):
            raise ValueError(f"set_state needs qpos ({self.model.nq},) and qvel "
                             f"({self.model.nv},), got {qpos.shape} and {qvel.shape}")
        self.data.qpos[:] = qpos
        self.data.qvel[:] = qvel
        gauss.forward(self.model, self.data)

    def do_simulation(self, ctrl, n_frames):
        if np.shape(ctrl) != (self.model.nu,):
            raise ValueError(f"Action dimension mismatch. Expected {(self.model.nu,)}, "
                             f"found {np.shape(ctrl)}")
        self.data.ctrl[:] = ctrl
        gauss.step(self.model, self.data, n_frames)
        gauss.rne_post_constraint(self.model, self.data)

    def state_vector(self):
        return np.concatenate([self.data.qpos.ravel(), self.data.qvel.ravel()])

    def get_body_com(self, body_name):
        return self.data.body(body_name).xpos

    def step(self, action):
        before = self._before_step()
        self.do_simulation(action, self.frame_skip)
        result = self._after_step(action, before)
        if self.render_mode == "human":
            self.render()
        return result

    # a step in two halves around the physics, so that the vectorised environment can run the
    # physics of many environments in one call (gauss.gym.GaussVectorEnv)
    def _before_step(self):
        """What the reward needs from before the physics (e.g. a position)."""
        return None

    def _after_step(self, action, before):
        """(observation, reward, terminated, truncated, info) after the physics."""
        raise NotImplementedError

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        gauss.reset_data(self.model, self.data)
        obs = self.reset_model()
        info = self._get_reset_info()
        if self.render_mode == "human":
            self.render()
        return obs, info

    def reset_model(self):
        raise NotImplementedError

    def _get_reset_info(self):
        return {}

    # reset noise: the draws (and their order) of Gymnasium's environments, so that one seed
    # gives the same initial state on both engines
    def _uniform(self, scale, size):
        return self.np_random.uniform(low=-scale, high=scale, size=size)

    def _normal(self, scale, size):
        return scale * self.np_random.standard_normal(size)

    def _noisy_reset(self, normal_qvel):
        """qpos0 and qvel0 with the reset noise (qpos uniform, then qvel normal or uniform, in that
        order), set; the observation."""
        s = self._reset_noise_scale
        qpos = self.init_qpos + self._uniform(s, self.model.nq)
        qvel = self.init_qvel + (self._normal if normal_qvel else self._uniform)(s, self.model.nv)
        self.set_state(qpos, qvel)
        return self._get_obs()

    def _position_info(self):
        """The reset info of the environments that walk on the plane."""
        return {"x_position": self.data.qpos[0], "y_position": self.data.qpos[1],
                "distance_from_origin": np.linalg.norm(self.data.qpos[0:2], ord=2)}

    # ---- rendering ----
    def _make_renderer(self):
        renderer_cls = getattr(gauss, "Renderer", None)
        if renderer_cls is None:
            raise gymnasium.error.DependencyNotInstalled(
                f"render_mode={self.render_mode!r} needs gauss.Renderer, which this gauss "
                "installation does not provide (build gauss with its renderer)")
        return renderer_cls(self.model, height=self.height, width=self.width,
                            max_geom=self._max_geom)

    def _camera(self):
        """camera_name or camera_id when given; otherwise a free camera made at the first render,
        as Gymnasium's renderer makes it: looking at the median of the geoms' positions from the
        model's extent, then default_camera_config's fields set on it (trackbodyid is kept as a
        field: a free camera does not follow a body)."""
        if self.camera_name is not None:
            return gauss.name2id(self.model, gauss.OBJ_CAMERA, self.camera_name)
        if self.camera_id is not None:
            return self.camera_id
        if self._free_camera is None:
            free = getattr(gauss, "FreeCamera", None)
            if free is None:
                return -1
            cam = free()
            cam.lookat = np.median(self.data.geom_xpos, axis=0) if self.model.ngeom else \
                np.zeros(3)
            extent = getattr(self.model.stat, "extent", None)
            if extent is not None:
                cam.distance = float(extent)
            for key, value in self._camera_config.items():
                if isinstance(value, np.ndarray):
                    value = np.array(value, dtype=float)
                setattr(cam, key, value)
            self._free_camera = cam
        return self._free_camera

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        if self._renderer is None:
            self._renderer = self._make_renderer()
        r = self._renderer
        r.update_scene(self.data, camera=self._camera())
        if self.render_mode in ("rgb_array", "human"):
            frame = r.render()
            if self.render_mode == "human":
                show = getattr(gauss, "show_frame", None)
                if show is None:
                    raise gymnasium.error.DependencyNotInstalled(
                        "render_mode='human' needs a window (gauss.show_frame), which this "
                        "gauss installation does not provide; use render_mode='rgb_array'")
                show(frame)
                return None
            return frame
        depth = getattr(r, "enable_depth_rendering", None)
        if depth is None:
            raise gymnasium.error.DependencyNotInstalled(
                f"render_mode={self.render_mode!r} needs depth rendering, which gauss.Renderer "
                "does not provide")
        if self.render_mode == "depth_array":
            depth()
            out = r.render()
            r.disable_depth_rendering()
            return out
        rgb = r.render()
        depth()
        out = r.render()
        r.disable_depth_rendering()
        return rgb, out

    def close(self):
        if self._renderer is not None:
            close = getattr(self._renderer, "close", None)
            if close is not None:
                close()
            self._renderer = None
