"""Source: https://github.com/jlin816/dynalang/blob/3a7e6765e4b0068b20178f41cf784bf0008582fd/dynalang/agent.py
Library: plain-jax
Correct: `Agent.preprocess` one-hot encodes each discrete action with `jax.nn.one_hot(value, int(space.high))`: the action space's `high` is a 0-d NumPy array, and `int(...)` turns it into a Python int before it reaches `num_classes`, which `jax.nn.one_hot` treats as a static, hashed value (issue 10 of the same repository reported the `_one_hot` "Non-hashable static arguments" error of the version without `int`). Every call passes an equal int, so the one-hot compiles once per shape. A checker that followed `space.high` (an ndarray attribute) into a static position without seeing the `int(...)` conversion would be wrong here.
Transcribed: `Agent.preprocess` from dynalang/agent.py at the commit named (the image-casting branch, which uses `jaxutils.cast_to_compute`, left out), in a class holding `obs_space`/`act_space`; `embodied.Space` reduced to a stand-in with `dtype`, `shape`, `high` (a NumPy array, as embodied's `np.broadcast_to(high, shape)` makes it) and `discrete`; a driver preprocessing three observation batches and counting backend compilations was added.
"""
import jax
import jax.numpy as jnp
import numpy as np

compiles = 0


def _count(event, duration, **kwargs):
    global compiles
    if event == "/jax/core/compile/backend_compile_duration":
        compiles += 1


jax.monitoring.register_event_duration_secs_listener(_count)


class Space:  # stand-in for embodied.Space
    def __init__(self, dtype, shape=(), low=None, high=None):
        self.dtype = np.dtype(dtype)
        self.shape = tuple(shape)
        self.low = np.broadcast_to(low if low is not None else 0, self.shape)
        self.high = np.broadcast_to(high if high is not None else 1, self.shape)

    @property
    def discrete(self):
        return np.issubdtype(self.dtype, np.integer) or self.dtype == bool


class Agent:
    def __init__(self, obs_space, act_space):
        self.obs_space = {k: v for k, v in obs_space.items() if not k.startswith('log_')}
        self.act_space = {k: v for k, v in act_space.items() if k != 'reset'}

    def preprocess(self, obs):
        spaces = {**self.obs_space, **self.act_space}
        result = {}
        for key, value in obs.items():
            if key.startswith('log_') or key in ('reset', 'key', 'id'):
                continue
            space = spaces[key]
            if key in self.act_space and space.discrete:
                value = jax.nn.one_hot(value, int(space.high))
            result[key] = value
        result['cont'] = 1.0 - result['is_terminal'].astype(jnp.float32)
        return result


obs_space = {'token': Space(np.int32, (), 0, 32100), 'is_terminal': Space(bool), 'log_x': Space(np.float32)}
act_space = {'action': Space(np.int32, (), 0, 8), 'reset': Space(bool)}
agent = Agent(obs_space, act_space)
per_call = []
for i in range(3):
    obs = {'token': jnp.array([1, 2]), 'is_terminal': jnp.array([False, True]),
           'action': jnp.array([i, 7]), 'reset': jnp.array([False, False])}
    before = compiles
    out = agent.preprocess(obs)
    per_call.append(compiles - before)
print(out['action'].shape, "compilations per call:", per_call)
