"""Open-loop rollouts spread over a Ray cluster: gauss.rollout's arguments and results, the batch
cut into contiguous chunks that Ray workers (actors) run with the C rollout on their own threads,
gathered back in order. Each rollout depends only on its own inputs, so the result is the bits of
gauss.rollout with the same inputs, whatever the chunking or the number of workers.

    import gauss, gauss.distributed
    state, sensordata = gauss.distributed.rollout(model, initial_state, control)   # local Ray
    state, sensordata = gauss.distributed.rollout(model, x0, u, address="ray://head:10001")

A worker that dies while it holds chunks (a node lost, an actor killed) is replaced and its
chunks are run again, up to max_retries times per chunk. With policy= instead of control, the
workers run closed-loop rollouts (a callable mapping the states to the controls before each
step). Ray is imported only when this module is used (pip install ray)."""

import uuid

import numpy as np

from . import _rollout
from ._state import STATE_CTRL

__all__ = ["rollout", "Pool", "closed_loop"]


def _ray():
    try:
        import ray
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise ImportError("gauss.distributed needs Ray (pip install ray)") from exc
    return ray


class _Worker:
    """One Ray actor: a model (kept between calls of the same rollout) and one Data per
    thread."""

    def __init__(self, nthread):
        self.nthread = int(nthread)
        self.key = None
        self.datas = None

    def run(self, key, model, s0, ctrl, warm, nstep, control_spec):
        import gauss
        models = model if isinstance(model, list) else [model]
        if key != self.key:
            self.key = key
            self.datas = [gauss.Data(models[0]) for _ in range(self.nthread)]
        return gauss.rollout(model, self.datas, s0, ctrl, control_spec=control_spec,
                             nstep=nstep, initial_warmstart=warm)

    def run_policy(self, model, s0, warm, nstep, control_spec, policy):
        return closed_loop(model, s0, nstep, policy, control_spec=control_spec,
                           initial_warmstart=warm, nthread=self.nthread)

    def ping(self):
        return True


def closed_loop(model, initial_state, nstep, policy, *, control_spec=STATE_CTRL,
                initial_warmstart=None, nthread=1):
    """Closed-loop rollouts of one model from the (n, nstate) FULLPHYSICS initial_state (and
    the (n, nv) initial_warmstart; None: zeros), for nstep steps: before each step, controls =
    policy(states) with the (n, nstate) FULLPHYSICS states of all n rollouts (row i of the
    result: rollout i's control_spec components), the n datas then stepped together
    (gauss.step_batch on nthread threads). A rollout whose
    step reset its data (NaN, Inf or huge qpos, qvel, qacc) ends as in gauss.rollout: its last
    state and sensors repeat to the last step. Returns (state, sensordata) as gauss.rollout."""
    import gauss
    s0 = np.asarray(initial_state, dtype=np.float64)
    warm = None if initial_warmstart is None else np.asarray(initial_warmstart, dtype=np.float64)
    n = len(s0)
    nstate = gauss.state_size(model, gauss.STATE_FULLPHYSICS)
    ncontrol = gauss.state_size(model, control_spec)
    datas = [gauss.Data(model) for _ in range(n)]
    for i, d in enumerate(datas):
        gauss.set_state(model, d, s0[i], gauss.STATE_FULLPHYSICS)
        if warm is not None:
            d.qacc_warmstart[:] = warm[i]
    state = np.empty((n, nstep, nstate))
    sensordata = np.empty((n, nstep, model.nsensordata))
    x = np.empty((n, nstate))
    live = list(range(n))
    bad = (gauss.WARN_BADQPOS, gauss.WARN_BADQVEL, gauss.WARN_BADQACC)
    for t in range(nstep):
        for i, d in enumerate(datas):
            gauss.get_state(model, d, gauss.STATE_FULLPHYSICS, out=x[i])
        u = np.asarray(policy(x.copy()), dtype=np.float64)
        if u.shape != (n, ncontrol):
            raise ValueError(f"the policy returned shape {u.shape}, expected ({n}, {ncontrol})")
        for i in live:
            gauss.set_state(model, datas[i], u[i], control_spec)
        gauss.step_batch(model, [datas[i] for i in live], nstep=1, nthread=nthread)
        for i, d in enumerate(datas):
            if i in live:
                gauss.get_state(model, d, gauss.STATE_FULLPHYSICS, out=state[i, t])
                sensordata[i, t] = d.sensordata
            else:
                state[i, t] = state[i, t - 1]
                sensordata[i, t] = sensordata[i, t - 1]
        live = [i for i in live if not any(datas[i].warning[w]["number"] for w in bad)]
    return state, sensordata


class Pool:
    """Ray workers for distributed rollouts. address: None starts (or joins) a local Ray
    instance, as ray.init() does; otherwise the address of a cluster (e.g. "auto" on a node of
    it, or "ray://host:10001"). nworker: how many actors (default: the cluster's CPUs divided by
    nthread); nthread: the C rollout's threads inside each worker (each actor reserves that many
    CPUs). Further keyword arguments go to ray.init."""

    def __init__(self, address=None, nworker=None, nthread=1, **init_kwargs):
        ray = _ray()
        if not ray.is_initialized():
            ray.init(address=address, **init_kwargs)
        self.nthread = max(1, int(nthread))
        if nworker is None:
            cpus = ray.cluster_resources().get("CPU", 1)
            nworker = max(1, int(cpus // self.nthread))
        self.nworker = int(nworker)
        self._actor_cls = ray.remote(num_cpus=self.nthread)(_Worker)
        self.workers = [self._new_worker() for _ in range(self.nworker)]
        self.retries = 0  # chunks run again after their worker died, since the pool was made
        self._on_submit = None  # test hook: called with the pool once every chunk is submitted

    def _new_worker(self):
        return self._actor_cls.remote(self.nthread)

    def close(self):
        ray = _ray()
        for w in self.workers:
            ray.kill(w)
        self.workers = []

    def rollout(self, model, initial_state, control=None, *, control_spec=STATE_CTRL,
                skip_checks=False, nstep=None, initial_warmstart=None, state=None,
                sensordata=None, chunk_size=None, persistent_pool=False, max_retries=3,
                policy=None):
        """gauss.rollout(model, <datas>, initial_state, control, ...) on the pool's workers:
        same arguments (without the Data list) and same results. chunk_size: rollouts per
        chunk (default: the batch cut into two chunks per worker).

        policy: instead of control, a picklable callable run on the workers before each step,
        policy(states) -> controls, states (n, nstate) the FULLPHYSICS states of the n rollouts
        of a chunk and controls (n, ncontrol) the control_spec components of each: row i must
        depend on row i alone, to the last bit, for the result not to depend on the chunking (a
        BLAS matrix product rounds differently for other batch shapes: use elementwise
        arithmetic or a per-row loop); needs nstep and one model.
        The result equals gauss.distributed.closed_loop run locally on the whole batch."""
        del skip_checks, persistent_pool
        ray = _ray()
        if policy is not None:
            if control is not None:
                raise ValueError("give control or policy, not both")
            if nstep is None:
                raise ValueError("nstep is needed with a policy")
            if isinstance(model, (list, tuple)):
                raise ValueError("a policy rollout takes one model")
        models, first, spec, s0, ctrl, warm, nbatch, nstep = _rollout._arguments(
            model, initial_state, control, control_spec, nstep, initial_warmstart)
        nstate = s0.shape[1]
        state = _rollout._output("state", state, (nbatch, nstep, nstate))
        sensordata = _rollout._output("sensordata", sensordata,
                                      (nbatch, nstep, first.nsensordata))
        if nbatch == 0:
            return state, sensordata
        if chunk_size is None:
            chunk_size = -(-nbatch // (2 * max(1, len(self.workers))))
        chunk_size = max(1, int(chunk_size))
        chunks = [(lo, min(lo + chunk_size, nbatch)) for lo in range(0, nbatch, chunk_size)]

        key = uuid.uuid4().hex  # a worker rebuilds its datas once per call
        single = len(models) == 1 or all(mm is first for mm in models)
        model_ref = ray.put(first) if single else None

        def submit(c, w):
            lo, hi = chunks[c]
            if policy is not None:
                return self.workers[w].run_policy.remote(
                    model_ref, np.ascontiguousarray(s0[lo:hi]),
                    None if warm is None else np.ascontiguousarray(warm[lo:hi]), nstep, spec,
                    policy)
            mref = model_ref if single else models[lo:hi]
            return self.workers[w].run.remote(
                key, mref, np.ascontiguousarray(s0[lo:hi]),
                None if ctrl is None else np.ascontiguousarray(ctrl[lo:hi]),
                None if warm is None else np.ascontiguousarray(warm[lo:hi]), nstep, spec)

        if not self.workers:
            raise ValueError("the pool is closed")
        pending = {}
        for c in range(len(chunks)):
            w = c % len(self.workers)
            pending[submit(c, w)] = (c, w)
        if self._on_submit is not None:
            self._on_submit(self)
        tries = [0] * len(chunks)
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            ref = done[0]
            c, w = pending.pop(ref)
            try:
                st, sd = ray.get(ref)
            except (ray.exceptions.RayActorError, ray.exceptions.WorkerCrashedError,
                    ray.exceptions.ObjectLostError) as exc:
                tries[c] += 1
                if tries[c] > max_retries:
                    raise RuntimeError(f"rollouts {chunks[c][0]}..{chunks[c][1] - 1} failed "
                                       f"{tries[c]} times; last: {exc}") from exc
                self.retries += 1
                # a worker that died is replaced once; its other chunks land here too
                if not self._alive(w):
                    self.workers[w] = self._new_worker()
                pending[submit(c, w)] = (c, w)
                continue
            lo, hi = chunks[c]
            state[lo:hi] = st
            sensordata[lo:hi] = sd
        return state, sensordata

    def _alive(self, w):
        ray = _ray()
        try:
            ray.get(self.workers[w].ping.remote(), timeout=30)
            return True
        except ray.exceptions.RayError:
            return False


_default = {}


def rollout(model, initial_state, control=None, *, address=None, nworker=None, nthread=1,
            **kwargs):
    """gauss.rollout on a Ray cluster (a local one when address is None): see Pool.rollout for
    the arguments after control. The pool of workers is kept for later calls with the same
    address, nworker and nthread."""
    key = (address, nworker, nthread)
    pool = _default.get(key)
    if pool is None or not pool.workers:
        pool = _default[key] = Pool(address=address, nworker=nworker, nthread=nthread)
    return pool.rollout(model, initial_state, control, **kwargs)
